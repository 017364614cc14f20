"""The embedded corpus builds and answers a loose rule number."""

from kb.query import KnowledgeBase


def test_embedded_corpus_answers_loose_numbers(excerpt_kb: KnowledgeBase) -> None:
    rule = excerpt_kb.rule("riftbound", "rule 337.1a.")
    assert rule["number"] == "337.1.a"
    assert rule["text"] == "Finalizing an item to the chain does not pass Priority."
    assert [a["number"] for a in rule["ancestors"]] == ["300", "337", "337.1"]
