"""Layouts a user could bring that no test had: a page saved from a browser, text copied from a
PDF viewer, Markdown re-exported by pandoc, subrule letters set apart or attached, the Glossary
before the rules, an edition with a part added, a scan read by OCR (letters for digits).

Two tables. :data:`PAIRS` holds small inline documents, each in a layout and in the layout the
release prints, which must read to the same rules (number, kind, title, text, examples,
parent) and glossary: one line per thing the reader undoes. :data:`bench.layouts.BROUGHT`
derives the same layouts from the repository's excerpts (always) and from the full documents
of ``../shared/corpora`` (skipped with the reason where absent), as ``bench.layouts --brought``
does, and asks the same of them.
"""

from __future__ import annotations

import functools
import re

import pytest

from bench.layouts import BROUGHT, FULL, Canonical, Layout, canonical, compare, excerpts, fingerprint
from kb.model import DocumentError
from kb.read import read_text
from kb.read.normalise import dehyphenated, normalise
from tests.conftest import CORPORA, SKIP_REASON, magic_document, shared_available

MAGIC = magic_document("""100.1. These Magic rules apply to any Magic game with two or more players, including two-player games and multiplayer games.

100.1a A two-player game is a game that begins with only two players.

100.1b A multiplayer game is a game that begins with more than two players. See section 8, “Multiplayer Rules.”

100.2. To play, each player needs their own deck of traditional Magic cards, small items to represent any tokens and counters, and some way to clearly track life totals.

100.2a In constructed play, each deck has a minimum deck size of 60 cards.

Example: A deck of sixty permanently assembled cards is legal.

101. The Magic Golden Rules

101.1. Whenever a card’s text directly contradicts these rules, the card takes precedence.""", """Abandon
To turn a face-up ongoing scheme card face down and put it on the bottom of its owner’s scheme deck. See rule 701.31, “Abandon.”

Two-Player Game
A game that begins with only two players. See rule 100.1a.""")

RIFTBOUND = """# Riftbound Core Rules v9.9

Last Updated: 2026-07-16

## 100. Game Concepts

### 103. Deck Construction

**103.1.** Each player needs a Champion Legend, a Main Deck and a Rune Deck.

**103.1.a.** The Champion Legend is placed in the Legend Zone.

**103.1.b.** A Main Deck has at least 40 cards. Exhausting a card is shown as [E].

**103.1.b.1.** Duplicates of a card are limited to three copies.

### 104. Setup

**104.1.** Each player places their Champion Legend and shuffles their Main Deck.
"""


def _sub(text: str, pattern: str, repl: str, flags: int = re.M) -> str:
    return re.sub(pattern, repl, text, flags=flags)


def _web_page(body: str) -> str:
    return ("<!DOCTYPE html><html><head><title>Rules</title></head><body>"
            "<header><nav><a href='/'>Home</a> <a href='#r100'>100. General</a></nav></header>"
            f"<main>{body}</main><aside>101. Related rules</aside>"
            "<footer><p>&copy; 2026 Rules Library</p><p>Back to top</p></footer></body></html>")


def _magic_page() -> str:
    out = []
    for block in MAGIC.strip().split("\n\n"):
        lines = [re.sub(r"([A-Za-z]{4})([a-z]{4,})", r"\1&shy;\2", ln) for ln in block.split("\n")]
        rule = re.match(r"^(\d{3}\.\d+[a-z]?\.?) (.*)$", lines[0])
        first = (f"<span class='n'>{rule.group(1)}</span>&nbsp;<span>{rule.group(2)}</span>" if rule
                 else lines[0])
        out.append("<p>" + "<br>\n".join([first] + lines[1:]).replace(" the ", "\n the ") + "</p>")
    return _web_page("\n".join(out))


def _google_doc(text: str) -> str:
    """The Magic text as a Google Doc downloads it as a web page: one line, a ``<p>`` of
    ``<span class>`` runs per paragraph (a glossary term and its definition two), an empty
    ``<p>`` between blocks, chapters and sections ``<h1>``/``<h2>``, curly quotes as entities."""
    body = []
    for block in text.strip().split("\n\n"):
        lines = block.split("\n")
        heading = re.match(r"^(\d)\. |^(\d{3})\. ", lines[0]) if len(lines) == 1 else None
        if heading:
            tag = "h1" if heading.group(1) else "h2"
            body.append(f'<{tag} class="c1" id="h.x{len(body)}"><span class="c0">{lines[0]}</span></{tag}>')
            continue
        body += [f'<p class="c1"><span class="c0">{ln.replace("’", "&rsquo;").replace("“", "&ldquo;").replace("”", "&rdquo;")}'
                 '</span></p>' for ln in lines]
        body.append('<p class="c1 c4"><span class="c0"></span></p>')
    return ('<html><head><style type="text/css">.c0{font-weight:400}</style></head><body class="doc-content">'
            + "".join(body) + "</body></html>")


def _wiki(text: str) -> str:
    """The Magic text as a wiki page's source: chapters ``==``, sections ``===``, rules ``*`` and
    subrules ``**`` items, the Glossary a definition list, bold numbers, a link, a template."""
    out = ["{{Rules header}}", ""]
    glossary = False
    for block in text.strip().split("\n\n"):
        lines = block.split("\n")
        if len(lines) == 1 and (m := re.match(r"^(\d)\. |^(\d{3})\. ", lines[0])):
            marks = "==" if m.group(1) else "==="
            out += [f"{marks} {lines[0]} {marks}", ""]
        elif lines[0] in ("Glossary", "Credits"):
            glossary = lines[0] == "Glossary"
            out += [f"== {lines[0]} ==", ""]
        elif glossary:
            out += [f"; {lines[0]}"] + [f": {ln}" for ln in lines[1:]]
        elif (m := re.match(r"^(\d{3}\.\d+([a-z]?)\.?) (.*)$", lines[0])):
            out.append(("**" if m.group(2) else "*") + f" '''{m.group(1)}''' {m.group(3)}")
        else:
            out += lines + [""]
    return "\n".join(out).replace("section 8", "[[Multiplayer Rules|section 8]]") + "\n"


def _wrapped(text: str, width: int) -> list[str]:
    """Every line of the text wrapped at ``width`` columns."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split(" "):
            if current and len(current) + len(word) >= width:
                lines.append(current)
                current = word
            else:
                current = f"{current} {word}".strip()
        lines.append(current)
    return lines


def _viewer_copy(text: str) -> str:
    """The Magic text as a PDF viewer copies it: wrapped at 60 columns, a word hyphenated at a
    line end, and the running title and page number where each 8 lines end."""
    out = "\n".join(_wrapped(text, 61)).replace("permanently\n", "perma-\nnently ").replace("traditional ", "tradi-\ntional ")
    paged = out.split("\n")
    return "\n".join(ln for n in range(0, len(paged), 8)
                     for ln in paged[n:n + 8] + [str(n // 8 + 1), "Magic: The Gathering Comprehensive Rules"])


def _glossary_first(text: str) -> str:
    body, glossary = text.split("\nGlossary\n\n", 1)
    glossary, credits = glossary.split("\nCredits\n", 1)
    head, rules = body.split("\n1. Game Concepts\n\n", 1)
    return f"{head}\nGlossary\n\n{glossary}\n1. Game Concepts\n\n{rules}\nCredits\n{credits}"


def _two_chapters(number: str) -> str:
    """MAGIC with a second chapter, its heading numbered ``number`` (``1.`` as a Markdown list
    renumbers every chapter, ``2.`` as the release prints it)."""
    return MAGIC.replace("\nGlossary\n\nAbandon", f"""
{number}. Parts of a Card

201. Name

201.1. The name of a card is printed on its upper left corner.

201.1a A card’s name is always considered to be the English version of its name.

Glossary

Abandon""")


def _table(text: str) -> str:
    """The rules as a Markdown table: ``| 100.1. | text |``, an example after ``<br>``."""
    rows = re.sub(r"(?m)^(\d{3}\.\d+[a-z]?\.?) (.*)\n\n(Example: .*)$", r"| \1 | \2<br>\3 |", text)
    rows = re.sub(r"(?m)^(\d{3}\.\d+[a-z]?\.?) (.*)$", r"| \1 | \2 |", rows)
    return re.sub(r"(?m)^(\| .*\|)\n\n(?=\| )", r"\1\n", rows).replace("\n| 100.1.", "\n| Rule | Text |\n| --- | --- |\n| 100.1.", 1)


def _hanging(text: str, width: int) -> str:
    """Every line of the text wrapped at ``width`` columns with a hanging indent: the lines
    a paragraph wraps onto indented to its second word (``100.1a A two-player`` | ``       game…``)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = paragraph.split(" ")
        hang, current = " " * (len(words[0]) + 1), words[0]
        for word in words[1:]:
            if len(current) + 1 + len(word) > width:
                lines.append(current)
                current = hang + word
            else:
                current = f"{current} {word}"
        lines.append(current)
    return "\n".join(lines)


def _counted_pages(text: str, lines_per_page: int, width: int = 61) -> str:
    """The text wrapped at ``width`` columns as a viewer copies it, ``Page N of M`` alone on a
    line where each page ends (no form feed, no running title), mid-paragraph or not."""
    lines = _wrapped(text, width)
    pages = [lines[n:n + lines_per_page] for n in range(0, len(lines), lines_per_page)]
    return "\n".join("\n".join(page + [f"Page {k} of {len(pages)}"]) for k, page in enumerate(pages, start=1))


def _side_by_side(text: str, form_feeds: bool) -> str:
    """The Magic text in two columns of 40 characters, 12 lines a page, left and right lines
    side by side (``pdftotext -layout``), pages parted by form feeds or by nothing."""
    lines = _wrapped(text, 40)
    pages = []
    for n in range(0, len(lines), 24):
        left, right = lines[n:n + 12], lines[n + 12:n + 24]
        right += [""] * (len(left) - len(right))
        pages.append("\n".join(f"{a:<40}    {b}".rstrip() for a, b in zip(left, right)))
    return ("\f" if form_feeds else "\n\n").join(pages)


# name | the document in the layout | the same document as the release prints it | "lines":
# the layout cannot show where a paragraph's lines broke (texts compared with spaces folded)
PAIRS = [
    ("web page: &shy; and &nbsp;, source lines inside a <p>, <br>, chrome", _magic_page(), MAGIC, ""),
    ("Magic subrules dotted: 100.1.a.", _sub(MAGIC, r"^(\d{3}\.\d+)([a-z]) ", r"\1.\2. "), MAGIC, ""),
    ("Magic subrules dotted without the last dot: 100.1.a", _sub(MAGIC, r"^(\d{3}\.\d+)([a-z]) ", r"\1.\2 "),
     MAGIC, ""),
    ("Magic subrules with a space: 100.1 a", _sub(MAGIC, r"^(\d{3}\.\d+)([a-z]) ", r"\1 \2 "), MAGIC, ""),
    ("Magic subrules with a space and a dot: 100.1 a.", _sub(MAGIC, r"^(\d{3}\.\d+)([a-z]) ", r"\1 \2. "),
     MAGIC, ""),
    ("Magic's Glossary before the rules", _glossary_first(MAGIC), MAGIC, ""),
    ("pandoc's backslash escapes: 100\\. General, 1\\. Game Concepts",
     _sub(MAGIC, r"^(\d{1,3})\. ", r"\1\\. "), MAGIC, ""),
    ("pandoc's backslash escapes in Riftbound: \\[E\\], ### 103\\.",
     RIFTBOUND.replace("[E]", "\\[E\\]").replace("### 10", "### 10").replace("40 cards.", "40 cards\\."),
     RIFTBOUND, ""),
    ("copied from a PDF viewer: wrapped, perma-|nently joined, title and page number mid-rule",
     _viewer_copy(MAGIC), MAGIC, "lines"),
    ("a hyphen the document spells is kept at a line end: two-|player",
     MAGIC.replace("with two or more players, including two-player", "with two or more players, including two-\nplayer"),
     MAGIC, "lines"),
    ("a soft hyphen at a line end never stays", MAGIC.replace("multiplayer games.", "multi\u00ad\nplayer games."),
     MAGIC, "lines"),
    ("Riftbound letters attached: 103.1a., 103.1b.1.", _sub(RIFTBOUND, r"\*\*(\d{3}\.\d)\.([a-z])\.", r"**\1\2."),
     RIFTBOUND, ""),
    ("Magic's chapters renumbered by a Markdown list: every chapter '1.'", _two_chapters("1"),
     _two_chapters("2"), ""),
    ("rules as a Markdown table: | 100.1. | text |, <br> before an example", _table(MAGIC), MAGIC, ""),
    ("Riftbound rules as a Markdown table", re.sub(r"(?m)^\*\*(\d{3}\.[\d.a-z]+)\*\* (.*)$", r"| \1 | \2 |",
                                                  RIFTBOUND), RIFTBOUND, ""),
    ("two columns side by side, pages parted by form feeds", _side_by_side(MAGIC, True), MAGIC, "lines"),
    ("wrapped at 40 columns with hanging indents: a rule's, an example's and a definition's lines indented",
     _hanging(MAGIC, 40), MAGIC, "lines"),
    ("Riftbound wrapped at 40 columns with hanging indents", _hanging(RIFTBOUND, 40), RIFTBOUND, "lines"),
    ("a viewer's copy with 'Page N of M' alone where each 7 lines end, inside rules and a definition",
     _counted_pages(MAGIC, 7), MAGIC, "lines"),
    ("a viewer's copy with 'Page N of M' under a running title", _counted_pages(MAGIC, 7).replace(
        "\nPage ", "\nMagic: The Gathering Comprehensive Rules\nPage "), MAGIC, "lines"),
    ("wrapped at 24 columns: a heading, a glossary term at its comma, the date sentence",
     "\n".join(_wrapped(MAGIC.replace("\nTwo-Player Game\n", "\nTwo-Player Game, Two-Handed Game\n"), 24)),
     MAGIC.replace("\nTwo-Player Game\n", "\nTwo-Player Game, Two-Handed Game\n"), "lines"),
    ("an OCR'd scan: l and O for 1 and 0 in Magic's numbers (l00.1a, 1O1.1.)",
     MAGIC.replace("\n100.1a ", "\nl00.1a ").replace("\n101.1. ", "\n1O1.1. "), MAGIC, ""),
    ("an OCR'd scan: I for 1 in a Riftbound bold id and a heading (**I03.1.b.**, ### 1O4.)",
     RIFTBOUND.replace("**103.1.b.**", "**I03.1.b.**").replace("### 104.", "### 1O4."), RIFTBOUND, ""),
    ("a Google Doc as a web page: one line, span runs, empty <p> between blocks, a term over its definition",
     _google_doc(MAGIC), MAGIC, ""),
    ("pasted from a wiki's source: == headings ==, * and ** rules, bold ids, [[links]], ; term : definition",
     _wiki(MAGIC), MAGIC, ""),
    ("Riftbound pasted from a wiki's source: === headings ===, ** '''103.1.a.''' items, a : line going on",
     "{{Rules}}\n\n= Riftbound Core Rules v9.9 =\n\nLast Updated: 2026-07-16\n\n== 100. Game Concepts ==\n"
     "=== 103. Deck Construction ===\n* '''103.1.''' Each player needs a Champion Legend, a Main Deck and a Rune Deck.\n"
     "** '''103.1.a.''' The Champion Legend is placed in the Legend Zone.\n"
     "** '''103.1.b.''' A Main Deck has at least 40 cards. Exhausting a card is shown as [E].\n"
     "*** '''103.1.b.1.''' Duplicates of a card are limited to three copies.\n=== 104. Setup ===\n"
     "* '''104.1.''' Each player places their Champion Legend\n: and shuffles their Main Deck.\n",
     RIFTBOUND, "lines"),
    ("Riftbound as a web page: <strong> ids, <br>, footer",
     _web_page("\n".join(f"<h{len(m[1])}>{m[2]}</h{len(m[1])}>" if (m := re.match(r"^(#+) (.*)$", b))
                         else "<p>" + re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>&nbsp;", b).replace(
                             "** ", "") + "</p>" for b in RIFTBOUND.strip().split("\n\n"))), RIFTBOUND, ""),
]


@pytest.mark.parametrize("name,layout,printed,loses", PAIRS, ids=[p[0] for p in PAIRS])
def test_a_layout_reads_as_the_release_prints_it(name: str, layout: str, printed: str, loses: str) -> None:
    got, want = read_text(layout, "layout"), read_text(printed, "printed")
    assert fingerprint(got, loses) == fingerprint(want, loses), name
    assert [r.number for r in got.rules] == [r.number for r in want.rules], name
    assert not [d for d in got.diagnostics if d.severity == "error"], name


@pytest.mark.parametrize("name,layout,line,says", [
    ("two columns side by side without page ends", _side_by_side(MAGIC, False), 1, "two columns"),
])
def test_a_layout_that_cannot_be_read_in_order_is_refused_at_its_place(name: str, layout: str, line: int,
                                                                        says: str) -> None:
    with pytest.raises(DocumentError) as refused:
        read_text(layout, "layout")
    notes = refused.value.diagnostics
    assert notes[0].line == line and says in notes[0].message and notes[0].file == "layout", name


def test_the_pairs_change_what_they_say() -> None:
    """Each layout of :data:`PAIRS` differs from its printed text (a pair that made nothing
    would pass whatever the reader does)."""
    assert all(layout != printed for _, layout, printed, _ in PAIRS)


@pytest.mark.parametrize("text,kept", [
    ("a two-\nplayer game; a two-player game ends", "two-player"),  # spelt with its hyphen
    ("a perma-\nnent is on the battlefield; a permanent leaves", "permanent"),  # spelt whole
    ("a perma-\nnent is on the battlefield", "permanent"),  # its halves are no words of it
    ("the top card-\nboard; the card and its board, a card on a board", "card-board"),  # never whole, both words
])
def test_a_word_hyphenated_at_a_line_end_is_read_as_the_document_spells_it(text: str, kept: str) -> None:
    lines, joined = dehyphenated(text.split("\n"))
    assert kept in lines[0] and sum(joined.values()) == 1, lines


@pytest.mark.parametrize("line,read", [
    ("l00.1a A two-player game", "100.1a A two-player game"),  # the first part: digits only
    ("7O2.l9b An ability", "702.19b An ability"),  # beside a digit inside a later part
    ("111.I0f A Clue token", "111.10f A Clue token"),  # I and O are never an id's letters
    ("**l03.1.b.** A Main Deck", "**103.1.b.** A Main Deck"),
    ("100.1l An id", "100.1l An id"),  # an attached letter may be an l: kept
    ("103.1.l. A letter part", "103.1.l. A letter part"),  # Riftbound's one-letter part: kept
    ("Illegal. Not a number", "Illegal. Not a number"),  # no digit: a word
    ("lol. Not a number either", "lol. Not a number either"),
])
def test_ocr_letters_for_digits_in_a_rule_number_are_read_as_digits(line: str, read: str) -> None:
    clean = "".join(f"100.{n}. A clean rule.\n\n" for n in range(1, 4))
    normal = normalise(f"{clean}{line}\n", "scan")
    assert normal.text.split("\n")[6] == read
    assert bool(normal.notes) == (line != read), normal.notes
    if normal.notes:
        assert normal.notes[0].line == 7 and "OCR" in normal.notes[0].message


def test_ocr_letters_are_left_where_most_numbers_are_not_clean() -> None:
    """A text with more such numbers than clean ones is no scan of a rules document: unchanged."""
    text = "100.1. A rule.\n\nl00.2. Two.\n\nl00.3. Three.\n"
    assert normalise(text, "scan").text == text


# -- the layouts of bench.layouts.BROUGHT, derived from the excerpts and the full documents ---------

FULL_DOCUMENTS = ("comprehensive-rules-2026-01-16.txt", "core-rules-2026-07-16.md")


@functools.cache
def documents(full: bool) -> tuple[Canonical, ...]:
    if not full:
        return tuple(excerpts())
    return tuple(canonical(game, CORPORA / rel) for game, rel in FULL
                 if rel.rsplit("/", 1)[-1] in FULL_DOCUMENTS)


def _cases() -> list:
    return [pytest.param(layout, full, id=f"{'full' if full else 'excerpts'}: {layout.name}")
            for layout in BROUGHT for full in (False, True) if not full or layout.whole]


@pytest.mark.parametrize("layout,full", _cases())
def test_a_brought_layout_reads_to_the_same_rules(layout: Layout, full: bool) -> None:
    if full and not shared_available():
        pytest.skip(SKIP_REASON)
    checked = 0
    for doc in documents(full):
        derived = layout.derive(doc) if doc.fmt in layout.formats else None
        if derived is None:
            continue
        checked += 1
        out = compare(layout, doc, derived, doc.result, 0.0)
        where = f"{layout.name} of {doc.name}"
        if layout.expect == "refused":
            assert out.error is not None, f"{where} was read ({out.rules} rules) instead of refused"
            first = out.error.diagnostics[0]
            assert first.line > 0 and first.file == f"{doc.name}~{layout.name}", str(first)
            continue
        assert out.error is None, f"{where} refused: {out.error}"
        assert out.disagreeing == [] and out.missing == [], (where, out.disagreeing[:3], out.missing[:3])
        if layout.expect == "added":
            assert out.added_wrong == [] and out.differing == [], (where, out.added_wrong, out.differing[:3])
            assert out.rules == len(doc.result.rules) + len(derived.added), where
            continue
        # A word the document spells both ways may be hyphenated at a line end and read with
        # its hyphen (the excerpts' 'color-less'): no more than one rule in a hundred.
        allowed = len(doc.result.rules) // 100 if layout.loses else 0
        assert len(out.differing) <= allowed, (where, out.differing[:3])
        assert out.rules == len(doc.result.rules), where
    assert checked, f"no document takes the layout {layout.name!r}"



def _numbered_pages(*numbers: str) -> str:
    """Six wrapped rules, each a page's end, its line of ``numbers`` under it (one a rule)."""
    said = ("players", "decks", "cards", "zones", "turns", "counters")
    return "".join(f"100.{n}. A rule whose text is long enough to be\nwrapped onto a line about {said[n - 1]}.\n"
                   + (f"{numbers[n - 1]}\n" if n <= len(numbers) else "") + "\n" for n in range(1, 7))


# name | a text with lines shaped like page numbers | are they removed
COUNTED_PAGES = [
    ("'Page N of M' counting up", _numbered_pages(*(f"Page {n} of 9" for n in range(1, 7))), True),
    ("'Page N' counting up, a page skipped", _numbered_pages("Page 1", "Page 2", "Page 4", "Page 5"), True),
    ("'N / M' counting up", _numbered_pages(*(f"{n} / 9" for n in range(3, 9))), True),
    ("over and under each page: each number twice",
     _numbered_pages(*(f"Page {n} of 9\nPage {n} of 9" for n in range(1, 4))), True),
    ("counting down", _numbered_pages(*(f"Page {n} of 9" for n in range(6, 0, -1))), False),
    ("two totals", _numbered_pages("Page 1 of 9", "Page 2 of 9", "Page 3 of 8", "Page 4 of 8"), False),
    ("a page past the total", _numbered_pages("Page 1 of 3", "Page 2 of 3", "Page 3 of 3", "Page 4 of 3"), False),
    ("only two", _numbered_pages("Page 1 of 9", "Page 2 of 9"), False),
]


@pytest.mark.parametrize("name,text,removed", COUNTED_PAGES, ids=[c[0] for c in COUNTED_PAGES])
def test_a_line_counting_the_pages_goes_without_a_running_title_only_as_pages_count(
        name: str, text: str, removed: bool) -> None:
    """A viewer's copy without a running title: lines that count the pages (``Page 3 of 9``)
    go, and the paragraphs they cut are one again; lines shaped so that count nothing a
    page's number would (down, of two totals, past their total, two of them) stay."""
    normal = normalise(text, "copy")
    kept = [ln for ln in normal.text.split("\n") if re.fullmatch(r"(?:Page )?\d+(?: of \d+| / \d+)?", ln)]
    assert (kept == []) == removed, (name, kept)
    assert ("page breaks copied into the text" in " ".join(d.message for d in normal.notes)) == removed, name
    assert normal.text.count("wrapped onto a line about") == 6, name  # no rule's own line goes
