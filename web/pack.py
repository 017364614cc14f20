"""What an offline copy of the site holds, for the static export and the live site's offline mode.

Where each rule of an edition is shown (:func:`plan_layout`: its section page and part, as
the site cuts long pages), the section pages and their parts (:func:`roots`), an edition's
browser search index (:func:`search_index_script`, linking each rule to the page showing it)
and the site's search page answered in the browser (:func:`add_offline_search`). Both
:mod:`web.export` (files) and :mod:`web.offline` (the service worker's pages) stand on it.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from jinja2.utils import htmlsafe_json_dumps

from kb.errors import QueryError
from kb.export import Layout, RulePlace, build_search_index, index_script
from kb.export.rulings import ruling_evidence_index
from kb.loaded import preferring_full
from kb.query import KnowledgeBase, searcher
from web.site.pages import rule_parts

OFFLINE_SEARCH_SCRIPTS = ("static/offline-search-data.js", "static/offline-search.js")


def plan_layout(kb: KnowledgeBase, editions: list[tuple[str, str]]) -> Layout:
    """Where every rule of every exported edition is shown (section page and part)."""
    layout = Layout()
    for ruleset, edition in editions:
        names = [e for r, e in editions if r == ruleset]
        order = [e["edition"] for e in kb.editions(ruleset)]
        layout.editions[ruleset] = sorted(names, key=order.index)
        # the pack's /ruleset/ address: the newest full edition exported (an excerpt only when
        # all exported are), as the site's default (kb.loaded.preferring_full)
        layout.newest[ruleset] = preferring_full([e for e in kb.editions(ruleset) if e["edition"] in names])["edition"]
        rules = kb.edition(ruleset, edition).edition.rules
        places: dict[str, RulePlace] = {}
        for number, rule in rules.items():
            if number in places:
                continue
            if rule.parent is None and not rule.text and rule.children:
                places[number] = RulePlace(None)  # a chapter heading: its entry in the contents
                continue
            r = kb.rule(ruleset, number, edition, subrules=True)
            for i, part in enumerate(rule_parts(kb, ruleset, edition, r), start=1):
                for item in part:
                    places[item["number"]] = RulePlace(number, i)
        layout.places[(ruleset, edition)] = places
    return layout


def roots(layout: Layout, ruleset: str, edition: str) -> dict[str, int]:
    """Section pages of an edition and how many parts each has."""
    out: dict[str, int] = {}
    for place in layout.places[(ruleset, edition)].values():
        if place.root is not None:
            out[place.root] = max(out.get(place.root, 0), place.part)
    return out




def add_offline_search(page: str, catalog: dict[str, Any],
                       scripts: tuple[str, ...] = OFFLINE_SEARCH_SCRIPTS) -> str:
    """The site's (empty) search page answered in the browser: the offline search scripts
    (its data, generated from :mod:`kb.search`, then the algorithms) and the catalog of
    indexes it reads (``rulesets``, ``default_ruleset``, ``indexes``: edition → index
    script, ``search_page``: the page's own address), all relative to the page."""
    # JSON in a <script> element is raw text (no entities): escape <, > and & as JSON does
    # (\u003c…), so a title can neither close the element nor show up as "&amp;".
    data = htmlsafe_json_dumps(catalog, ensure_ascii=False)
    head = ("".join(f'<script src="{html.escape(script)}" defer></script>\n' for script in scripts)
            + f'<script type="application/json" id="rulekb-offline-catalog">{data}</script>\n')
    note = ('<noscript><p class="note">Searching without a server needs JavaScript; the contents '
            'and the glossary of each edition work without it.</p></noscript>\n'
            # What the pack's search leaves out, said plainly (issues #18, #20): its answers are
            # the server's, except that no card list travels with the rules; the rulings do, as
            # they were when the pack was made (kb.export.rulings).
            '<p class="meta offline-leaves-out">This offline search answers as the server does, '
            'with one thing left out: card knowledge. A card list imported with '
            '<code>rulekb cards import</code> stays with the server, so a card named in a question '
            'is left out as a name here. The earlier rulings (<code>rulekb rulings import</code>) '
            'travel with this copy as they were when it was made: a question an earlier ruling '
            'asked brings in the rules that ruling cites.</p>\n')
    if "</head>" not in page or "</main>" not in page:
        raise QueryError(500, "the search page has no </head> or </main> to add the offline search to")
    return page.replace("</head>", head + "</head>", 1).replace("</main>", note + "</main>", 1)


def search_index_script(kb: KnowledgeBase, ruleset: str, edition: str, page_of: Callable[[str], str]) -> str:
    """The browser search index of an edition as a script (:mod:`kb.export.search_index`),
    each rule linking to ``page_of(number)``; the edition's searcher is the facade's own. The
    ruleset's earlier rulings travel with it (``rulings``, :mod:`kb.export.rulings`), so a
    question an earlier ruling asked brings in the rules it cites, as on the server."""
    rg = kb.edition(ruleset, edition)
    index = build_search_index(rg, searcher(kb, ruleset, edition), page_of)
    rulings = ruling_evidence_index(kb, ruleset, edition)
    if rulings is not None:
        index["rulings"] = rulings
    return index_script(index)
