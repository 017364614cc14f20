"""Magic cards the model cannot play are refused as Riftbound's are: a keyword of CR 702 the
model does not play is named with its rule, found among the edition's own keyword rules
(``Persist`` is Persist, 702.79 in 2026-01-16), with how to write its effect where it can be;
a misspelt keyword gets the nearest one, and an unknown instruction the
nearest known instruction. Every face says it: a run (CLI, API and site run through
kb.timing_run) and a state sent to ``next``."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from kb.query import KnowledgeBase, QueryError
from kb.timing import load_scenario
from kb.timing.engine import FormatError
from kb.timing.models.mtg.cards_io import parse_cards
from kb.timing.models.mtg.keywords import WRITE_INSTEAD, KeywordRefused, keyword, keyword_rules, refusal
from web import create_app


def ward_scenario(keywords: list[Any], effects: list[Any] | None = None) -> dict[str, Any]:
    """The acceptance run's scenario: Ann shocks Bo's Sentinel (with ``keywords``)."""
    sentinel: dict[str, Any] = {"type": "creature", "power": 2, "toughness": 2, "keywords": keywords}
    if effects is not None:
        sentinel["triggers"] = [{"on": "enters", "effects": effects}]
    return {"name": "Targeting a creature with ward.", "ruleset": "mtg", "edition": "2026-01-16",
            "players": [{"name": "Ann", "hand": ["Shock"]}, {"name": "Bo", "battlefield": ["Sentinel"]}],
            "cards": {"Shock": {"type": "instant", "target": "creature",
                                "effects": [{"damage": {"to": "target", "amount": 2}}]},
                      "Sentinel": sentinel},
            "steps": [{"cast": {"player": "Ann", "card": "Shock", "target": "Sentinel"}},
                      {"expect": {"stack": ["Shock"]}}]}


def refused(kb: KnowledgeBase, scenario: dict[str, Any]) -> QueryError:
    with pytest.raises(QueryError) as caught:
        kb.timing_run(scenario)
    assert caught.value.status == 422
    return caught.value


# -- the keywords the model plays, however written ------------------------------------------
@pytest.mark.parametrize("written,name", [("flash", "flash"), ("Trample", "trample"), ("HASTE", "haste"),
                                          ("split-second", "split-second"), ("Split Second", "split-second")])
def test_a_keyword_the_model_plays_is_read_in_any_case(written: str, name: str) -> None:
    assert keyword(written, "k") == name


@pytest.mark.parametrize("written,said", [("haste 1", "haste takes no value ('haste 1')"),
                                          ("Trample 2", "trample takes no value ('Trample 2')")])
def test_a_keyword_the_model_plays_takes_no_value(written: str, said: str) -> None:
    with pytest.raises(FormatError) as caught:
        keyword(written, "k")
    assert caught.value.message == said and not isinstance(caught.value, KeywordRefused)


# -- without the edition's keyword rules (the embedded excerpt lacks them) -------------------
# (keyword, the words of the refusal)
WITHOUT_RULES = [
    ("Persist", "keyword 'Persist' is not modelled (the mtg 2026-01-16 excerpt lacks its rule): its trigger can be "
                "written as triggers: [{on: dies, effects: [{return: true}]}]"),
    ("Undying", "keyword 'Undying' is not modelled (the mtg 2026-01-16 excerpt lacks its rule)"),
    # a keyword rule the excerpt holds is named with it
    ("Suspend 3", "keyword 'Suspend 3' is Suspend (702.62), which the model does not play: write it as the card's "
                  "suspend: {time: N, cost: COST}"),
    ("persist", "triggers: [{on: dies, effects: [{return: true}]}]"),
    ("Trampel", "unknown keyword 'Trampel', did you mean 'trample'? (the model knows: flash, haste, trample, "
                "split-second, first-strike, double-strike, vigilance, flying, reach, ward, deathtouch, lifelink, "
                "indestructible, menace, defender)"),
    ("hast", "unknown keyword 'hast', did you mean 'haste'?"),
    ("Prowess", "unknown keyword 'Prowess' (the model knows: flash, haste, trample, split-second, first-strike, "
                "double-strike, vigilance, flying, reach, ward, deathtouch, lifelink, indestructible, menace, "
                "defender)"),
]


@pytest.mark.parametrize("written,words", WITHOUT_RULES)
def test_a_run_in_the_excerpt_refuses_saying_what_it_can(excerpt_kb: KnowledgeBase, written: str,
                                                         words: str) -> None:
    error = refused(excerpt_kb, ward_scenario([written]))
    assert words in error.message
    assert error.message.startswith("<scenario> (cards.Sentinel.keywords[0]): ")
    assert error.detail["field"] == "cards.Sentinel.keywords[0]"


# (instruction written, its refusal's words)
INSTRUCTIONS = [
    ({"gain_life": 2}, "unknown instruction 'gain_life', did you mean 'lose-life'? (expected one of: damage, "),
    ({"lose_life": 2}, "unknown instruction 'lose_life', did you mean 'lose-life'?"),
    ({"destory": "target"}, "unknown instruction 'destory', did you mean 'destroy'?"),
    ({"scry": 2}, "unknown instruction 'scry' (expected one of: damage, "),
]


@pytest.mark.parametrize("effect,words", INSTRUCTIONS)
def test_an_unknown_instruction_gets_the_nearest(excerpt_kb: KnowledgeBase, effect: dict[str, Any],
                                                 words: str) -> None:
    error = refused(excerpt_kb, ward_scenario([], [effect]))
    assert words in error.message and "cards.Sentinel.triggers[0].effects[0]" in error.message


def test_the_keywords_the_model_plays_still_run(excerpt_kb: KnowledgeBase) -> None:
    run = excerpt_kb.timing_run(ward_scenario(["Trample", "Haste", "First strike", "Double Strike", "Vigilance",
                                               "Flying", "Reach", "Deathtouch", "Lifelink", "Indestructible", "Menace",
                                               "Defender"]))
    assert run["ok"] and run["error"] is None


# -- with the edition's own keyword rules (the full documents in ../shared) -----------------
# (edition, keyword, the words of the refusal)
WITH_RULES = [
    ("2026-01-16", "Persist", "keyword 'Persist' is Persist (702.79), which the model does not play: its trigger "
                              "can be written as"),
    ("2026-01-16", "Prowess", "keyword 'Prowess' is Prowess (702.108), which the model does not play: it is not "
                              "modelled (the model knows: flash, haste, trample, split-second, first-strike, "
                              "double-strike, vigilance, flying, reach, ward, deathtouch, lifelink, indestructible, "
                              "menace, defender)"),
    ("2026-01-16", "Hexproof", "keyword 'Hexproof' is Hexproof (702.11), which the model does not play"),
    ("2026-01-16", "Protection from red", "is Protection (702.16), which the model does not play"),
    ("2026-01-16", "Suspend 3—{R}", "is Suspend (702.62), which the model does not play: write it as the card's "
                                   "suspend: {time: N, cost: COST}"),
    ("2026-01-16", "Start your engines!", "is Start Your Engines! (702.179)"),
    ("2026-01-16", "Wrad 2", "unknown keyword 'Wrad 2', did you mean 'ward'?"),
    ("2026-01-16", "Prowes", "unknown keyword 'Prowes', did you mean 'Prowess' (702.108), which the model does not "
                             "play?"),
    ("2026-01-16", "Menacce", "unknown keyword 'Menacce', did you mean 'menace'?"),
    # Indestructible is no keyword ability of 2010, and played there by its rule 700.4; a misspelling gets it
    ("2010-10-01", "Indestructable", "unknown keyword 'Indestructable', did you mean 'indestructible'?"),
    ("2026-01-16", "trampel", "unknown keyword 'trampel', did you mean 'trample'?"),
    ("2026-01-16", "xyzzy", "unknown keyword 'xyzzy' (the model knows: "),
    # the 2010 release numbers its keywords otherwise
    ("2010-10-01", "Morph 3", "is Morph (702.34), which the model does not play: write it as the card's morph: COST"),
    ("2010-10-01", "Shroud", "is Shroud (702.16)"),
    ("2010-10-01", "Persist", "keyword 'Persist' is Persist (702.76), which the model does not play"),
]


@pytest.mark.parametrize("edition,written,words", WITH_RULES)
def test_a_keyword_is_refused_naming_its_rule(full_kb: KnowledgeBase, edition: str, written: str,
                                              words: str) -> None:
    graph = full_kb.edition("mtg", edition)
    assert words in refusal(written, graph)


def test_the_rule_comes_from_the_edition_not_a_list(full_kb: KnowledgeBase) -> None:
    rules = keyword_rules(full_kb.edition("mtg", "2026-01-16"))
    assert rules["ward"] == ("702.21", "Ward") and rules["split second"] == ("702.61", "Split Second")
    assert "most abilities describe exactly what they do" not in " ".join(rules)  # 702.1 is no keyword
    assert len(rules) == 188  # 702.2–702.189
    assert keyword_rules(full_kb.edition("mtg", "2010-10-01"))["trample"][0] == "702.17"


def test_every_way_to_write_a_keyword_names_a_keyword_and_reads_as_a_card(full_kb: KnowledgeBase) -> None:
    rules = keyword_rules(full_kb.edition("mtg", "2026-01-16"))
    for name, (_, card) in WRITE_INSTEAD.items():
        assert name in rules, name
        if card is not None:
            assert parse_cards({"Card": yaml.safe_load(card)})["Card"].name == "Card"


def test_a_run_names_the_rule(full_kb: KnowledgeBase) -> None:
    error = refused(full_kb, ward_scenario(["Persist"]))
    assert error.message.startswith("<scenario> (cards.Sentinel.keywords[0]): keyword 'Persist' is Persist "
                                    "(702.79), which the model does not play: ")


# (a worked scenario whose first frame's state is sent, with the words for its edition)
NEXT_STATES = [
    ("mtg/002-under-the-2026-legend-rule-each-player-keeps-their-own-legend",
     "keyword 'Persist' is Persist (702.79), which the model does not play"),
    ("mtg/002-a-counterspell-goes-above-the-spell-it-counters",  # a state of edition 2010-10-01
     "keyword 'Persist' is Persist (702.76), which the model does not play"),
]


@pytest.mark.parametrize("name,words", NEXT_STATES)
def test_a_state_sent_to_next_names_the_rule_of_its_edition(full_kb: KnowledgeBase, name: str, words: str) -> None:
    run = full_kb.timing_run(load_scenario(name))
    state = dict(run["frames"][0]["state"])
    state["cards"] = {**state.get("cards", {}), "Sentinel": {"type": "creature", "power": 2, "toughness": 2,
                                                            "keywords": ["Persist"]}}
    with pytest.raises(QueryError) as caught:
        full_kb.timing_next(state)
    assert caught.value.status == 400
    assert words in caught.value.message
    assert caught.value.message.startswith("malformed state: cards.Sentinel.keywords[0]: ")


# -- every face: the API and the site run scenarios through kb.timing_run -------------------
def test_the_api_and_the_site_say_the_same_refusal(excerpt_kb: KnowledgeBase) -> None:
    client = create_app(kb=excerpt_kb).test_client()
    words = "keyword 'Persist' is not modelled (the mtg 2026-01-16 excerpt lacks its rule): its trigger can be"
    api = client.post("/api/v1/timing/run", json=ward_scenario(["Persist"]))
    assert api.status_code == 422 and words in api.get_json()["error"]["message"]
    site = client.post("/timing", data={"yaml": yaml.safe_dump(ward_scenario(["Persist"]), sort_keys=False)})
    assert site.status_code == 422 and words in site.get_data(as_text=True).replace("&#39;", "'").replace("&#34;", '"')
