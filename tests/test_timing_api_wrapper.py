"""POST /api/v1/timing/next takes the state itself as its body (``choose`` beside its fields). A
state wrapped as ``{"state": …}``, as the CLI's ``--state`` suggests, was answered "unknown key
'state', did you mean 'turn_state'?": it is recognised and the answer says to send the state
itself. One case a line."""

from __future__ import annotations

from typing import Any

import pytest

from kb.query import KnowledgeBase
from web import create_app

STATE = {"ruleset": "riftbound", "players": ["Ann", "Bo"], "turn_state": "neutral-closed",
         "priority": "Ann", "chain": [{"name": "Fireball", "controller": "Ann", "status": "pending"}]}
WRAPPED = "send the state itself as the body (choose beside it"

# (the body sent, the status, words of the answer's message, or None for a 200)
CASES: list[tuple[Any, int, str | None]] = [
    ({"state": STATE}, 400, WRAPPED),
    ({"state": {"ruleset": "riftbound"}}, 400, WRAPPED),
    ({"state": STATE, "choose": {"pass": "Ann"}}, 400, WRAPPED),
    ({"state": {}}, 400, WRAPPED),
    ({**STATE, "state": "neutral"}, 400, "unknown key 'state'"),  # not a wrapper: a stray field
    (STATE, 200, None),
]


@pytest.fixture(scope="module")
def client(excerpt_kb: KnowledgeBase) -> Any:
    return create_app(kb=excerpt_kb).test_client()


@pytest.mark.parametrize("body, status, says", CASES)
def test_a_wrapped_state_is_recognised(client: Any, body: Any, status: int, says: str | None) -> None:
    answer = client.post("/api/v1/timing/next", json=body)
    assert answer.status_code == status, answer.get_json()
    if says is not None:
        error = answer.get_json()["error"]
        assert says in error["message"]
        if says == WRAPPED:
            assert error["detail"]["field"] == "state" and "did you mean" not in error["message"]
