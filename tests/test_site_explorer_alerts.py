"""The timing explorer's own alerts ("The scenario cannot run: …", "No answer from this
state: …") are sentences, each with its full stop, as every other error the site shows is
(web.site.frame.as_sentence): a message that ends in a question mark keeps it, and the
message's first letter is kept as the model wrote it (it may be a file's name)."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient

from kb.query import KnowledgeBase
from web import create_app
from web.site.explorer import alert

ALERT = re.compile(r'<div class="note" role="alert"><p><strong>([^<]*)</strong>(.*?)</p>', re.S)

# (page, form, status, the alert's lead, words its message says, how it ends)
PAGES = [
    ("/timing", {"yaml": "name: [unclosed"}, 400, "The scenario cannot run:", "not valid YAML", "(line 2)."),
    ("/timing", {"yaml": "name: x\nruleset: riftbound\nplayers: [Ann, Bo]\nsteps: [{expect: {priority: Ann}}]\n"
                         "cards: {Zap: {type: spell, keywords: [Reactoin]}}\n"},
     422, "The scenario cannot run:", "did you mean 'Reaction'? (the model knows: ", ")."),
    ("/timing", {"yaml": "name: x\nruleset: riftbound\nplayers: [Ann, Bo]\nsteps: [{cats: 1}]\n"},
     422, "The scenario cannot run:", "unknown step 'cats'", ")."),
    ("/timing/next", {"state": "   "}, 400, "No answer from this state:", "paste a state", "."),
    ("/timing/next", {"state": '{"ruleset": "chess"}'}, 404, "No answer from this state:",
     "no timing model for ruleset 'chess'", "(models: mtg, riftbound)."),
    ("/timing/next", {"state": '{"ruleset": "riftbound", "turn_stat": "neutral-open"}'}, 400,
     "No answer from this state:", "did you mean 'turn_state'? (expected one of: ", ")."),
]


@pytest.fixture(scope="module")
def client(excerpt_kb: KnowledgeBase) -> FlaskClient:
    return create_app(kb=excerpt_kb).test_client()


@pytest.mark.parametrize("page,form,status,lead,says,ending", PAGES)
def test_an_explorer_alert_is_a_sentence(client: FlaskClient, page: str, form: dict[str, str], status: int,
                                         lead: str, says: str, ending: str) -> None:
    response = client.post(page, data=form)
    assert response.status_code == status
    found = ALERT.search(response.get_data(as_text=True))
    assert found is not None, response.get_data(as_text=True)[:2000]
    message = html.unescape(found.group(2)).strip()
    assert found.group(1) == lead
    assert says in message, message
    assert message.endswith(ending), message
    assert not message.endswith((". .", "..", "?.", "!."))


# (message, as the alert says it)
MESSAGES = [
    ("the scenario produced no frames", "the scenario produced no frames."),
    ("s4.yaml: step 1 (cards.Sentinel): unknown key 'powr', did you mean 'power'?",
     "s4.yaml: step 1 (cards.Sentinel): unknown key 'powr', did you mean 'power'?"),
    ("malformed state: players: expected a list (line 3)", "malformed state: players: expected a list (line 3)."),
    ("  already a sentence.  ", "already a sentence."),
    ("", ""),
]


@pytest.mark.parametrize("message,said", MESSAGES)
def test_alert_ends_the_sentence_its_lead_opens(message: str, said: str) -> None:
    assert alert(message, {"field": "x"}) == {"message": said, "detail": {"field": "x"}}
