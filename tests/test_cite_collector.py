"""The linker pauses CPython's cyclic garbage collector while it builds a document's
report, and leaves it as it found it: running, or paused by its caller."""

from __future__ import annotations

import gc
import threading

import pytest
from markdown_it import MarkdownIt

from kb.cite import rule_citations
from kb.cite import mdit
from kb.cite.mdit import _PAUSE_FROM, collector_paused
from kb.query import KnowledgeBase

# (collector running before, collector running inside, collector running after)
STATES = [
    (True, False, True),
    (False, False, False),
]


@pytest.fixture
def restore_collector():
    enabled = gc.isenabled()
    yield
    if enabled:
        gc.enable()
    else:
        gc.disable()


@pytest.mark.parametrize("before,inside,after", STATES)
def test_the_collector_is_paused_inside_and_left_as_it_was(restore_collector, before: bool,
                                                           inside: bool, after: bool) -> None:
    gc.enable() if before else gc.disable()
    with collector_paused():
        assert gc.isenabled() is inside
        with collector_paused():  # nested: the inner block does not resume it
            assert gc.isenabled() is inside
        assert gc.isenabled() is inside
    assert gc.isenabled() is after


@pytest.mark.parametrize("before,inside,after", STATES)
def test_the_collector_is_left_as_it_was_when_linking_fails(restore_collector, before: bool,
                                                            inside: bool, after: bool) -> None:
    gc.enable() if before else gc.disable()
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("a render that fails")
    assert gc.isenabled() is after


@pytest.mark.parametrize("before,inside,after", STATES)
def test_a_render_leaves_the_collector_as_it_was(restore_collector, excerpt_kb: KnowledgeBase,
                                                 before: bool, inside: bool, after: bool) -> None:
    md = MarkdownIt().use(rule_citations, kb=excerpt_kb, ruleset="riftbound", edition="1.4")
    gc.enable() if before else gc.disable()
    env: dict = {}
    md.render("As rule 312 says, and (rule 313.1).", env)
    assert gc.isenabled() is after
    assert [c["status"] for c in env["rule_citations"]["citations"]] == ["ok", "ok"]


def test_a_render_ending_first_does_not_resume_the_collector_under_another(
        restore_collector) -> None:
    """Two threads of the threaded server: a render pauses the collector, another starts
    while it runs and ends last; the collector stays paused until the last ends."""
    gc.enable()
    entered, release = threading.Event(), threading.Event()
    seen: dict[str, bool] = {}

    def later_render() -> None:
        with collector_paused():
            entered.set()
            release.wait()
            seen["in the later render, after the first ended"] = gc.isenabled()

    other = threading.Thread(target=later_render)
    with collector_paused():  # the first render, which ends first
        other.start()
        entered.wait()
    seen["between"] = gc.isenabled()
    release.set()
    other.join()
    assert seen == {"between": False, "in the later render, after the first ended": False}
    assert gc.isenabled()


# (document, whether the collector runs while its citations are linked): a short article
# makes too few objects for a pause to pay; a long one (mdit._PAUSE_FROM characters) is
# linked with it paused.
LENGTHS = [
    ("As rule 312 says.", True),
    ("As rule 312 says. " + "x" * (_PAUSE_FROM - 19), True),
    ("As rule 312 says. " + "x" * (_PAUSE_FROM - 18), False),
]


@pytest.mark.parametrize("document,running", LENGTHS, ids=lambda v: str(len(v)) if isinstance(v, str) else v)
def test_only_a_long_document_is_linked_with_the_collector_paused(
        restore_collector, monkeypatch: pytest.MonkeyPatch, excerpt_kb: KnowledgeBase,
        document: str, running: bool) -> None:
    seen: list[bool] = []
    link = mdit._link_document

    def watched(state, options) -> None:  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        link(state, options)

    monkeypatch.setattr(mdit, "_link_document", watched)
    gc.enable()
    MarkdownIt().use(rule_citations, kb=excerpt_kb, ruleset="riftbound", edition="1.4").render(document)
    assert seen == [running] and gc.isenabled()


@pytest.mark.parametrize("size,paused", [(_PAUSE_FROM // 2, False), (_PAUSE_FROM + 100, True)])
def test_a_long_documents_entries_are_made_with_the_collector_paused(
        restore_collector, excerpt_kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch, size: int,
        paused: bool) -> None:
    """The report's entries are made when first read (mdit.PlacedEntries), after the render:
    for a long document, with the collector paused as the render was, and then resumed."""
    gc.enable()
    text = ("See rule 312. " * (size // 14 + 1))[:size]
    md = MarkdownIt().use(rule_citations, kb=excerpt_kb, ruleset="riftbound", edition="1.4")
    env: dict = {}
    md.render(text, env)
    seen: list[bool] = []
    made = mdit._entries
    monkeypatch.setattr(mdit, "_entries", lambda *args: seen.append(gc.isenabled()) or made(*args))
    assert len(list(env[mdit.ENV_KEY]["citations"])) > 0
    assert seen == [not paused] and gc.isenabled()
