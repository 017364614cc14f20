"""Abusive requests, one line each: what an attacker sends and what the server must answer.

The issue-21 probes (``POST /api/v1/timing/run`` with 400 and 9,000 rounds of play/pass/pass,
a card with 100 ``play`` instructions, a 62 KB scenario pasted on ``/timing``, unknown
scenario names) as a table of :class:`Abuse` cases. ``tests/test_abuse_live.py`` sends them
to a live server while an honest client keeps asking for rules; ``python -m bench.load
--abuse`` mixes them into the normal load. Add a case as one more line of :data:`CASES`.
"""

from __future__ import annotations

import json
import urllib.parse
from dataclasses import dataclass
from typing import Any

JSON = "application/json"
FORM = "application/x-www-form-urlencoded"
PLAY_PASS_PASS = [{"play": {"player": "Ann", "card": "Fireball"}}, {"pass": "Ann"}, {"pass": "Bo"}]


@dataclass(frozen=True)
class Abuse:
    """One abusive request and the answer it must get (``limit``: the budget it names)."""

    name: str
    method: str
    path: str
    body: bytes | None = None
    content_type: str | None = None
    status: int = 422
    limit: str | None = None

    @property
    def headers(self) -> dict[str, str]:
        return {"Content-Type": self.content_type} if self.content_type else {}


def limit_named(path: str, limit: str, body: bytes) -> bool:
    """Whether a refusal names its limit: an API error in ``error.detail.limit``, a page in
    its text."""
    if not path.startswith("/api/"):
        return limit.encode() in body
    try:
        return bool(json.loads(body)["error"]["detail"]["limit"] == limit)
    except (ValueError, KeyError, TypeError):
        return False


def scenario(steps: list[Any], cards: dict[str, Any] | None = None, name: str = "big") -> dict[str, Any]:
    """A Riftbound scenario of Ann and Bo (Fireball: draw 1, unless ``cards`` says otherwise)."""
    return {"name": name, "ruleset": "riftbound", "edition": "1.4", "players": ["Ann", "Bo"],
            "cards": cards or {"Fireball": {"type": "spell", "effects": [{"draw": 1}]}}, "steps": steps}


def rounds(n: int) -> dict[str, Any]:
    """The issue's repro: ``n`` rounds of play/pass/pass (400: 33 KB, a 48 MB answer in 4.4 s)."""
    return scenario(PLAY_PASS_PASS * n)


def heavy_pool() -> dict[str, Any]:
    """Everything each input budget allows at once (100 cards of 20 instructions, 200 steps):
    only the answer's size budget stops it."""
    cards = {f"C{i}": {"type": "spell", "effects": [{"draw": 1}] * 20} for i in range(100)}
    steps = [{"play": {"player": "Ann", "card": "C0"}}, {"pass": "Ann"}, {"pass": "Bo"}] * 66
    return scenario(steps, cards)


def self_playing(n: int, passes: int = 99) -> dict[str, Any]:
    """A spell that plays itself ``n`` times when it resolves: the chain grows without end
    (100 of them and one round of passes: 2 KB, an 18 MB answer)."""
    return scenario([{"play": {"player": "Ann", "card": "Storm"}}] + [{"pass": "Ann"}, {"pass": "Bo"}] * passes,
                    {"Storm": {"type": "spell", "effects": [{"play": "Storm"}] * n}})


def pasted(size: int) -> str:
    """A scenario as YAML (flow style) of about ``size`` characters, for the /timing form."""
    import yaml

    def dump(n: int) -> str:  # through JSON: repeated steps are copies, not YAML aliases
        return yaml.safe_dump(json.loads(json.dumps(rounds(n))), default_flow_style=True, width=10**9)
    one = len(dump(2)) - len(dump(1))  # the characters of one more round
    return dump(1 + (size - len(dump(1))) // one)


def _json(name: str, path: str, data: Any, status: int, limit: str | None) -> Abuse:
    return Abuse(name, "POST", path, json.dumps(data, separators=(",", ":")).encode(), JSON, status, limit)


def _form(name: str, text: str, status: int, limit: str | None) -> Abuse:
    return Abuse(name, "POST", "/timing", urllib.parse.urlencode({"yaml": text}).encode(), FORM, status, limit)


def _state(name: str, text: str, status: int, limit: str | None) -> Abuse:
    return Abuse(name, "POST", "/timing/next", urllib.parse.urlencode({"state": text}).encode(), FORM, status,
                 limit)


LOOKUP, ANNOTATE = "/api/v1/citations/lookup", "/api/v1/citations/annotate"
LONG_CHAIN = {"players": ["Ann", "Bo"], "chain": [
    {"name": f"Spell {i}", "controller": "Ann", "status": "finalized", "kind": "spell"} for i in range(501)]}

CASES: list[Abuse] = [
    _json("run: 400 rounds of play/pass/pass", "/api/v1/timing/run", rounds(400), 413, "timing.steps"),
    _json("run: 9,000 steps (197 KB)", "/api/v1/timing/run", rounds(3000), 413, "timing.steps"),
    _json("run: a card with 100 play instructions", "/api/v1/timing/run", self_playing(100, 1), 413,
          "timing.effects"),
    _json("run: a spell playing itself 20 times", "/api/v1/timing/run", self_playing(20), 422, "timing.answer"),
    _json("run: every input budget at once", "/api/v1/timing/run", heavy_pool(), 422, "timing.answer"),
    _json("next: a chain of 501 items", "/api/v1/timing/next", LONG_CHAIN, 413, "timing.entries"),
    _form("site: a 62 KB scenario pasted on /timing", pasted(62 * 1024), 413, "timing.pasted"),
    _form("site: a 30 KB scenario pasted on /timing (1,431 steps)", pasted(30 * 1024), 413, "timing.steps"),
    _form("site: a pasted scenario over 32 K characters", "#" * (32 * 1024 + 1), 413, "timing.pasted"),
    Abuse("site: an unknown scenario name", "GET", "/timing?scenario=" + "x" * 2000, status=404),
    _state("site: a state over 32 K characters pasted on /timing/next", "{" + " " * (32 * 1024) + "}", 413,
           "timing.pasted"),
    _state("site: a chain of 501 items pasted as a state", json.dumps(  # short ones: within timing.pasted
        {"players": ["Ann", "Bo"], "chain": [{"name": "S", "controller": "Ann"}] * 501}, separators=(",", ":")),
        413, "timing.entries"),
    _state("site: 30,000 [ pasted as a state", "[" * 30_000, 422, "input.nesting"),
    # Web input: text that cannot be encoded, nesting, the linker's budgets, base_url.
    _json("annotate: a lone surrogate", ANNOTATE, {"markdown": "rule 337.1a \ud800"}, 400, None),
    _json("lookup: a lone surrogate in base_url", LOOKUP, {"text": "rule 337.1a", "base_url": "\ud800"},
          400, None),
    _json("next: a lone surrogate in a card name", "/api/v1/timing/next",
          {"players": ["Ann", "Bo"], "chain": [{"name": "Fire\ud800", "controller": "Ann"}]}, 400, None),
    _json("run: a lone surrogate in the name", "/api/v1/timing/run", scenario(PLAY_PASS_PASS, name="\ud800"),
          400, None),
    _json("run: a lone surrogate in a bad step", "/api/v1/timing/run", scenario([{"pass": "No\ud800"}]),
          400, None),
    Abuse("next: 1 MB of [", "POST", "/api/v1/timing/next", b"[" * 1_000_000, JSON, 422, "input.nesting"),
    _json("annotate: front matter 'a: ' and 5,000 [", ANNOTATE,
          {"markdown": "---\na: " + "[" * 5000 + "\n---\nrule 337.1a"}, 422, "input.nesting"),
    _json("annotate: 1 MB of front matter", ANNOTATE,
          {"markdown": "---\n" + "a: b\n" * 200_000 + "---\nrule 337.1a"}, 413, "cite.front_matter"),
    _json("annotate: 1 MB of [", ANNOTATE, {"markdown": "[" * 1_000_000}, 422, "cite.markup"),
    _json("annotate: 400,000 short lines", ANNOTATE, {"markdown": "ab\n\n" * 200_000}, 422, "cite.lines"),
    _json("lookup: a javascript: base_url", LOOKUP, {"text": "rule 337.1a", "base_url": "javascript:alert(1)"},
          400, None),
    _form("site: 30,000 [ pasted on /timing", "[" * 30_000, 422, "input.nesting"),
    Abuse("site: front matter 5,000 deep pasted on /cite", "POST", "/cite",
          urllib.parse.urlencode({"article": "---\na: " + "[" * 5000 + "\n---\nrule 337.1a"}).encode(),
          FORM, 422, "input.nesting"),
    Abuse("site: a query string that is not UTF-8", "GET", "/search?q=%ED%A0%80%FF", status=400),
    Abuse("site: a 600 KB form of escapes", "POST", "/cite", b"article=" + b"%5B" * 200_000, FORM, 413,
          "site.form"),
]


def unknown_names(n: int, length: int = 2000) -> list[Abuse]:
    """``n`` distinct unknown scenario names (each used to keep a lock and re-read every file)."""
    return [Abuse(f"site: unknown scenario name {i}", "GET", f"/timing?scenario={i:06d}{'y' * length}",
                  status=404) for i in range(n)]
