"""Choose an option on "what happens next" and continue.

A page of ``/timing/next`` answers from an origin (a frame of a worked scenario, a frame of a
pasted scenario, or a pasted state) and a **path**: the options chosen since, each by its
number among the legal options of its decision, in order (``path=0.2.1``: the first option,
then the third, then the second). Each choice is replayed from the origin through the facade
(:meth:`kb.query.KnowledgeBase.timing_next` with ``choose``, the option's action), so the
server never trusts a state it did not compute, and a page is a URL (GET, from a worked
scenario) or a form (POST, from pasted input): back and forward work without a script, and
every choice so far can be gone back to.
"""

from __future__ import annotations

from typing import Any

from kb.errors import QueryError
from kb.limits import TIMING_STEPS
from kb.query import KnowledgeBase


def parse_path(path: str | None, choose: str | None = None) -> list[int]:
    """The choices of a page: ``path`` (option numbers joined by dots, from 0) and, appended,
    ``choose`` (the option just pressed). QueryError 400 naming the field that is malformed;
    413 past :data:`kb.limits.TIMING_STEPS` choices."""
    out: list[int] = []
    for field, text in (("path", path or ""), ("choose", choose or "")):
        if len(text) > 6 * TIMING_STEPS.value:  # before splitting it: more numbers than choices allowed
            raise TIMING_STEPS.exceeded("the choices")
        for part in text.split(".") if text else ():
            if not (part.isascii() and part.isdigit()) or len(part) > 4:  # int("²") fails
                raise QueryError(400, f"{field} is option numbers joined by dots (such as 0.2.1), not {text[:40]!r}",
                                 {"field": field})
            out.append(int(part))
    TIMING_STEPS.check(len(out), "the choices")
    return out


def path_text(path: list[int]) -> str:
    """A path as its URL or form value."""
    return ".".join(map(str, path))


def follow(kb: KnowledgeBase, state: dict[str, Any], ruleset: str | None,
           path: list[int], edition: str | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """What happens next from ``state`` after the choices of ``path``: the last answer, and the
    trail (each choice: who decided, the option's label, and the path back to that decision).
    A number that is not an option of its decision is QueryError 404 naming the choice.
    ``edition``: the edition to answer in (a scenario's, where its states do not say it)."""
    answer = kb.timing_next(state, ruleset=ruleset, edition=edition)
    trail: list[dict[str, Any]] = []
    for i, n in enumerate(path):
        d = answer["decision"]
        count = len(d["options"]) if d else 0
        if not 0 <= n < count:
            where = f"{d['decider']} has {count} legal option{'s' if count != 1 else ''}" if d else "nobody decides"
            raise QueryError(404, f"choice {i + 1} is option {n + 1}, but there {where} then",
                             {"field": "path", "choice": i + 1})
        option = d["options"][n]  # type: ignore[index]
        trail.append({"decider": d["decider"], "label": option["label"], "back": path_text(path[:i])})  # type: ignore[index]
        answer = kb.timing_next(answer["state"], ruleset=answer["ruleset"], edition=edition,
                                choose=option["action"])
    return answer, trail
