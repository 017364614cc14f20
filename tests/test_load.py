"""Under load, through rebuilds and a killed build, ``rulekb serve`` answers every request.

The shortened version of ``python -m bench.load`` (which has the 60 s figures): a real
``rulekb serve`` subprocess on loopback, the mixed workload from separate load processes
for 8 s, then three import+rebuild rounds and one ``rulekb build`` SIGKILLed halfway while
the load runs. The data directory holds the embedded excerpt, three copies of it as the
``padding`` ruleset (so a killed build has editions left to write) and the ``canary``
edition whose rule 101.1 names its rebuild round. No timed assertions: every answer must
be right (status, edition headers matching the body, no mixed build), however slow.
"""

from __future__ import annotations

import http.client
from email.message import Message
from pathlib import Path

import pytest

from bench import load
from conftest import POOL_WORKERS, build_workers, copy_home
from kb.store import import_document

EXCERPT = Path(load.REPO) / "rules" / "riftbound" / "core-rules-1.4-excerpt.md"


@pytest.fixture(scope="module")
def served(excerpt_home: Path, tmp_path_factory: pytest.TempPathFactory):
    """A copy of the session's embedded home (its build in service) with the padding
    editions imported (as ``rulekb import --no-build`` does, in this process), then the canary
    through ``rulekb import``, which builds the padding and the canary beside the copied
    editions; ``rulekb serve`` on it, and the workload."""
    home = copy_home(excerpt_home, tmp_path_factory.mktemp("load-home"))
    for name in ("e1", "e2", "e3"):
        import_document(home, EXCERPT, ruleset="padding", edition=name, fmt="riftbound-md")
    load.import_canary(home, 0)  # and build
    with load.Server(home) as server:
        yield home, server, load.workload(server.port, rules_per_edition=60)


@pytest.mark.load
def test_mixed_load_answers_every_request(served) -> None:
    home, server, reqs = served
    assert {"rule", "search"} <= set(reqs), sorted(reqs)
    records, span = load.run_load(server.port, reqs, load.WEIGHTS, seconds=8, clients=16, procs=2)
    result = load.summary(records, span)
    assert result["all"]["requests"] > 0
    assert result["all"]["errors"] == 0, result["problems"]
    asked = {k for k, w in load.WEIGHTS.items() if w and k in reqs}
    assert set(result["kinds"]) == asked
    assert server.memory()["VmHWM"] > 0


@pytest.mark.load
def test_rebuilds_and_a_killed_build_lose_nothing(served) -> None:
    home, server, reqs = served
    with build_workers(POOL_WORKERS):  # the killed build's editions read in its pool
        out = load.rebuild_under_load(home, server.port, reqs, rounds=3, kill_after=2,
                                      clients=16, procs=2)
    assert out["problems"] == []
    assert out["failed"] == 0, out["load"]["problems"]
    assert [r["round"] for r in out["rounds"]] == [1, 2, 3]
    assert len({r["build"] for r in out["rounds"]}) == 3
    killed = out["killed"]
    assert killed["killed"] and killed["pickles_in_temp_folder"] >= 1, killed
    assert killed["current_after"] == killed["current_before"] == out["rounds"][-1]["build"]
    assert killed["served_after"] == killed["current_before"] and killed["round_after"] == 3
    assert out["builds_seen"] >= 2  # the canary was read across at least one swap


# -- the checks themselves can fail ------------------------------------------------------
def _headers(**values: str) -> Message:
    msg = http.client.HTTPMessage()
    for k, v in values.items():
        msg[k.replace("_", "-")] = v
    return msg


RULE = load.Req("rule", "GET", "/api/v1/rulesets/riftbound/rules/337", edition="riftbound 1.4")
CANARY = load.Req("canary", "GET", "/api/v1/rulesets/canary/rules/101.1", edition="canary live")
BODY = b'{"ruleset": "riftbound", "edition": "1.4", "text": "x"}'
H = {"X_Rulekb_Build": "b1", "X_Rulekb_Edition": "riftbound 1.4"}


@pytest.mark.parametrize("req,status,headers,raw,problem", [
    (RULE, 200, H, BODY, ""),
    (RULE, 500, H, b'{"error": {}}', "HTTP 500"),
    (RULE, 200, H, b"<html>", "not JSON"),
    (RULE, 200, {"X_Rulekb_Edition": "riftbound 1.4"}, BODY, "no X-Rulekb-Build"),
    (RULE, 200, {**H, "X_Rulekb_Edition": "riftbound 1.3"}, BODY, "but the body answers from"),
    (RULE, 200, {**H, "X_Rulekb_Edition": "riftbound 1.3"},
     b'{"ruleset": "riftbound", "edition": "1.3"}', "asked 'riftbound 1.4'"),
    (load.Req("annotate", "POST", "/x"), 200, {**H, "X_Rulekb_Edition": "mtg 2026-01-16"},
     b'{"candidates": ["riftbound 1.4"]}', "but the body answers from"),
    (CANARY, 200, {**H, "X_Rulekb_Edition": "canary live"},
     b'{"ruleset": "canary", "edition": "live", "text": "no round"}', "without its round"),
])
def test_check_finds_wrong_answers(req, status, headers, raw, problem) -> None:
    found, _, _ = load.check(req, status, _headers(**headers), raw)
    assert (problem in found and found) if problem else found == ""


def test_canary_round_is_read() -> None:
    raw = b'{"ruleset": "canary", "edition": "live", "text": "This is rebuild round 7."}'
    assert load.check(CANARY, 200, _headers(X_Rulekb_Build="b", X_Rulekb_Edition="canary live"),
                      raw) == ("", "b", 7)


def _rec(build: str, round_no: int, at: float, client: int = 0) -> load.Record:
    return ("canary", at, 1.0, 200, "", build, round_no, client)


@pytest.mark.parametrize("records,found", [
    ([_rec("a", 0, 1), _rec("b", 1, 2), _rec("b", 1, 3, 1)], ""),
    ([_rec("a", 0, 1), _rec("a", 1, 2)], "answered rounds [0, 1]"),
    ([_rec("z", 0, 1)], "which no rebuild made"),
    ([_rec("b", 1, 1), _rec("a", 0, 2)], "saw round 0 after round 1"),
])
def test_consistency_finds_mixed_builds(records, found) -> None:
    problems = load.consistency(records, {"a": 0, "b": 1})
    assert (any(found in p for p in problems) if found else problems == []), problems
