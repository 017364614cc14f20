"""What one timing answer may spend while it is built: frames, bytes and wall time.

A run's answer grows with every frame, and each frame carries the whole state after its
transition (the turn's history in it grows with every step): without a bound, 400 rounds
of play/pass/pass gave 48 MB. An :class:`AnswerBudget` is consulted *before* each frame is
made and as each part is added, so the work stops with a 422 naming the limit
(:data:`kb.limits.TIMING_FRAMES`, :data:`kb.limits.TIMING_ANSWER`) before the answer is
over it; the deadline of the request (:func:`kb.limits.check_deadline`) is checked there
too.
"""

from __future__ import annotations

import json
from typing import Any

from kb.limits import TIMING_ANSWER, TIMING_FRAMES, check_deadline


def json_size(value: Any) -> int:
    """An upper bound of the bytes ``value`` takes in a JSON answer (escaped ASCII is never
    shorter than UTF-8, and a lone surrogate cannot make it fail)."""
    return len(json.dumps(value, separators=(",", ":")))


class AnswerBudget:
    """Counts the frames and the bytes of one timing answer as it is built."""

    def __init__(self) -> None:
        self.frames = 0
        self.bytes = 0
        self._pools: dict[int, tuple[Any, int]] = {}  # id -> (the pool, its size)

    def frame(self, where: str | None = None) -> None:
        """Before making one more frame: the deadline, then the number of frames."""
        check_deadline(where)
        TIMING_FRAMES.check(self.frames + 1, where)
        self.frames += 1

    def add(self, value: Any, where: str | None = None) -> Any:
        """Count ``value`` into the answer (refused before the answer is over its budget)."""
        size = self.size(value)
        TIMING_ANSWER.check(self.bytes + size, where)
        self.bytes += size
        return value

    def size(self, value: Any) -> int:
        """:func:`json_size` of ``value``; a state's card pool, one object shared by every
        frame (:func:`kb.timing.fields.pool_json`), is measured once: encoding it again for
        each frame was a third of a long run's time."""
        pool = value.get("cards") if isinstance(value, dict) else None
        if not isinstance(pool, dict) or not pool:
            return json_size(value)
        known = self._pools.get(id(pool))
        if known is None or known[0] is not pool:
            known = self._pools[id(pool)] = (pool, json_size(pool))
        rest = {k: v for k, v in value.items() if k != "cards"}
        return json_size(rest) + len('"cards":') + known[1] + (1 if rest else 0)
