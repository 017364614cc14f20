"""No script injection: HTML and JavaScript in rule text, titles, terms, examples, article
Markdown, pasted scenarios and search queries render inert on every page, in a real browser.

A hand-made ``hostile`` ruleset (two editions, built with :func:`kb.graph.build_edition` from
a :class:`~kb.model.ReadResult`, so nothing cleans the text on the way) carries payloads that
set ``window.__pwned`` to where they came from: ``<script>``, ``<img src=x onerror=…>``,
``javascript:`` links, attribute-breaking quotes, ``</textarea>``/``</title>`` breakouts,
``<iframe srcdoc>``, ``<base>``, ``<style>`` and a Jinja expression. Every page type is
visited: home, contents, rule pages (hovering every term, whose tooltip the script builds),
the newest-edition and error pages, glossary, search results (server and in-browser offline
search), the timing explorer with a pasted scenario and its "what happens next" (from the frame, from
the state pasted back, and a refused state), the citation linker in both styles and
the diff between the editions.

Each page is checked twice: as served (with its Content-Security-Policy) and in a browser
context that bypasses CSP, so the escaping alone must hold. A page passes when no dialog
opened, ``window.__pwned`` is unset, no element has an event-handler attribute or a
``javascript:`` URL, no inline or foreign script, frame, ``<base>``, injected ``<style>`` or
``img[src=x]`` exists, the Jinja expression was not evaluated, and (as served) the console
reported no CSP violation. Rule pages must also show the payloads as the characters written.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from kb.graph import RuleGraph, build_edition
from kb.model import RawRule, RawTerm, ReadResult
from kb.numbers import parse_number
from kb.query import KnowledgeBase

from .conftest import LiveServer, PageWatch

pytestmark = pytest.mark.browser


def payloads(tag: str) -> str:
    """Every payload, each setting ``window.__pwned`` to ``tag`` if it ever runs."""
    run = f"window.__pwned='{tag}'"
    return " ".join([
        f"<script>{run}</script>",
        f'<img src=x onerror="{run}">',
        f'"><svg onload="{run}">',
        f"'><img src=x onerror={run}//>",
        f"</textarea></title></script><script>{run}</script>",
        f'<a href="javascript:{run}">link</a>',
        f"<iframe srcdoc=\"<script>parent.__pwned='{tag}'</script>\"></iframe>",
        '<base href="http://127.0.0.2/"><style>body{display:none}</style>',
        "SSTI{{7*7}}{% raw %}",
    ])


TITLE = f"Hostile & {payloads('ruleset-title')}"
TERM = "Chain<script>window.__pwned='term'</script>"
TERM2 = "Focus\"><img src=x onerror=\"window.__pwned='term2'\">"


def _edition(name: str, date: str, extra: str) -> RuleGraph:
    rules = [
        ("100", "chapter", "", f"Game {payloads('chapter')}", []),
        ("101", "section", "", f"Priority {payloads('section')}", []),
        ("101.1", "rule", f"Priority is the right to act{extra}. See rule 101.2. {payloads('text-101.1')}", "", []),
        ("101.2", "rule", f"A {TERM} waits; {TERM2} moves. {payloads('text-101.2')}", "",
         [f"Example: {payloads('example')}"]),
        ("101.2.a", "rule", f"javascript:window.__pwned='bare' and See rules 101.1–2{extra}.", "", []),
        ("102", "section", "", "Ending", []),
        ("102.1", "rule", f"The turn ends{extra} when every player passes. {payloads('text-102.1')}", "", []),
    ]
    raw = [RawRule(parse_number(n), kind, text, i + 1, title=title, examples=ex)
           for i, (n, kind, text, title, ex) in enumerate(rules)]
    terms = [RawTerm(TERM, f"A list of items {payloads('definition')}", 0, "glossary", ["101.2"]),
             RawTerm(TERM2, f"Who acts {payloads('definition2')}", 0, "glossary", ["101.2"])]
    result = ReadResult(raw, terms, title=f"Hostile {payloads('doc-title')}", date=date)
    return build_edition(result, ruleset="hostile", edition=name, date=date,
                         title=f"Hostile {payloads('edition-title')}")


@pytest.fixture(scope="module")
def hostile_servers(excerpt_kb: KnowledgeBase) -> Iterator[dict[bool, LiveServer]]:
    """The excerpt (for the timing model and the linker's default) plus ``hostile`` 1 and 2,
    served twice: as the site serves it (with its CSP), and with the CSP header taken off (on
    an origin of its own, so no service worker or cache carries over between the two)."""
    kb = KnowledgeBase.from_graphs([*excerpt_kb.graphs.values(), _edition("1", "2024-01-01", ""),
                                    _edition("2", "2025-01-01", " <b>now</b>")])
    kb.manifest["rulesets"] = {**excerpt_kb.manifest.get("rulesets", {}),
                               "hostile": {"title": TITLE}}
    servers = {True: LiveServer(kb), False: LiveServer(kb)}

    def no_csp(response: Any) -> Any:  # runs after the site's own after_request
        response.headers.pop("Content-Security-Policy", None)
        return response
    servers[False].app.after_request(no_csp)
    yield servers
    for server in servers.values():
        server.close()


# What a page must not have, as found by the browser in the live DOM.
FIND_INJECTED = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('*')) {
    for (const a of el.attributes) {
      const n = a.name.toLowerCase();
      if (n.startsWith('on')) bad.push(el.tagName + ' ' + n);
      if (n === 'srcdoc' || (['href', 'src', 'action', 'formaction', 'xlink:href', 'data'].includes(n)
          && /^\\s*(javascript|vbscript|data:text\\/html)/i.test(a.value)))
        bad.push(el.tagName + ' ' + n + '=' + a.value.slice(0, 40));
    }
  }
  for (const s of document.querySelectorAll('script')) {
    if (!s.src && s.type !== 'application/json') bad.push('inline script: ' + s.textContent.slice(0, 40));
    if (s.src && new URL(s.src).origin !== location.origin) bad.push('foreign script ' + s.src);
  }
  for (const e of document.querySelectorAll('iframe, object, embed, base, body style, ' +
                                             'meta[http-equiv="refresh" i], img[src="x"], svg[onload]'))
    bad.push('element ' + e.outerHTML.slice(0, 60));
  if (document.documentElement.outerHTML.includes('SSTI49')) bad.push('template expression evaluated');
  if (window.__pwned !== undefined) bad.push('script ran: ' + window.__pwned);
  return bad;
}"""


class Visitor:
    """One page of one browser context, checked after every load."""

    def __init__(self, context: Any, base: str, csp: bool):
        self.page = PageWatch(context.new_page())
        self.page.set_default_timeout(15_000)
        self.base, self.csp = base, csp
        self.dialogs: list[str] = []
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.seen: list[str] = []

    def check(self, where: str) -> None:
        self.page.wait_for_load_state("load")
        found = self.page.evaluate(FIND_INJECTED)
        assert found == [], (where, found)
        assert self.dialogs == [], (where, self.dialogs)
        # As served, a payload that slipped past the escaping is refused by CSP, and says so.
        csp = [p for p in self.page.problems if "Content Security Policy" in p or "page error" in p]
        assert csp == [], (where, csp)
        self.seen.append(where)

    def visit(self, path: str) -> None:
        self.page.goto(self.base + path)
        self.check(path)

    def close(self) -> None:
        self.page.close()


def q(text: str) -> str:
    return urllib.parse.quote(text, safe="")


QUERIES = [payloads("query"), "pwned", "textarea script", "\"'><img src=x onerror=window.__pwned='q2'>",
           "javascript:window.__pwned='q3'", "Chain<script>"]
PAGES = (["/", "/hostile/", "/hostile/1/", "/hostile/2/", "/hostile/2/glossary", "/hostile/101.2",
          "/hostile/2/999", "/hostile/2/" + q("<script>window.__pwned='404'</script>"),
          "/hostile/compare/1/2", "/hostile/compare/2/1",
          "/timing?scenario=" + q(payloads("scenario-name")), "/cite"]
         + [f"/hostile/{ed}/{n}" for ed in ("1", "2") for n in ("100", "101", "101.1", "101.2", "101.2.a", "102")]
         + [f"/search?ruleset=hostile&q={q(x)}" for x in QUERIES]
         + [f"/search-offline?ruleset=hostile&edition=2&q={q(x)}" for x in QUERIES[1:3]])

ARTICLE = f"""---
ruleset: hostile
edition: "2"
---
# Article {payloads('md-heading')}

See rule 101.2 and rule 101.1, [rule 102.1](javascript:window.__pwned='md-link') and
[CR 101.2]. ![image](javascript:window.__pwned='md-image') <https://x.invalid/"onmouseover="window.__pwned='autolink'>

{payloads('md-raw')}

[ref]: javascript:window.__pwned='md-ref'
A [reference link][ref] and "{TERM}" (rule 101.2). `{payloads('md-code')}`

    {payloads('md-indented')}
"""

SCENARIO = f"""name: "Hostile {payloads('yaml-name')}"
description: "{payloads('yaml-description').replace('"', "'")}"
ruleset: riftbound
edition: "1.4"
players: ["Ann<script>window.__pwned='player'</script>", "Bo\\"><img src=x onerror=\\"window.__pwned='p2'\\">"]
cards:
  "Fire<img src=x onerror=window.__pwned='card'>": {{type: spell, effects: [{{draw: 1}}]}}
steps:
  - play: {{player: "Ann<script>window.__pwned='player'</script>", card: "Fire<img src=x onerror=window.__pwned='card'>"}}
  - pass: "Ann<script>window.__pwned='player'</script>"
"""


@pytest.mark.parametrize("csp", [True, False], ids=["as-served", "without-csp"])
def test_every_page_renders_payloads_inert(hostile_servers: dict[bool, LiveServer], browser_context: Any,
                                           csp: bool) -> None:
    v = Visitor(browser_context, hostile_servers[csp].url, csp)
    try:
        first = v.page.goto(v.base + "/hostile/2/101.2")
        assert ("content-security-policy" in first.headers) == csp
        for path in PAGES:
            v.visit(path)
        # The payloads are shown as the characters written, not dropped.
        v.visit("/hostile/2/101.2")
        shown = v.page.locator("main").inner_text()
        assert "<script>window.__pwned='text-101.2'</script>" in shown
        assert "SSTI{{7*7}}" in shown
        # The in-browser search reads its catalog from JSON in the page: titles as written.
        v.visit("/search-offline?ruleset=hostile&edition=2&q=ending")
        v.page.locator(".offline-results").wait_for()
        options = v.page.eval_on_selector_all("select[name=ruleset] option", "os => os.map(o => o.textContent)")
        assert TITLE in options, options
        # Every term: the script builds its tooltip from the page (hover, then keyboard focus).
        for path in ("/hostile/2/101.2", "/hostile/1/101.2", "/hostile/2/101.1"):
            v.visit(path)
            terms = v.page.locator("a.term")
            for i in range(terms.count()):
                terms.nth(i).hover()
                terms.nth(i).focus()
                v.check(f"{path} term {i}")
        # Every glossary letter and every link of the contents page.
        v.visit("/hostile/2/glossary")
        for href in v.page.eval_on_selector_all("main a[href]", "as => as.map(a => a.getAttribute('href'))"):
            if "/glossary/" in href:
                v.page.goto(urllib.parse.urljoin(v.page.url, href))
                v.check(href)
        _link_article(v, "footnotes")
        _link_article(v, "preview")
        _paste_scenario(v)
        _ask_what_happens_next(v)
    finally:
        v.close()
    assert len(v.seen) >= len(PAGES) + 9


def _link_article(v: Visitor, style: str) -> None:
    v.visit("/cite")
    v.page.locator("#article").fill(ARTICLE)
    v.page.locator("select[name=style]").select_option(style)
    v.page.get_by_role("button", name="Link citations").click()
    v.page.wait_for_selector("table.report")
    v.check(f"/cite ({style})")
    out = v.page.locator(".article-out")
    assert out.locator("a.rule-citation").count() >= 3, out.inner_html()[:500]
    assert "<script>window.__pwned='md-raw'</script>" in out.inner_text()
    for i in range(out.locator("a").count()):
        out.locator("a").nth(i).hover()
    v.check(f"/cite ({style}, links hovered)")


def _paste_scenario(v: Visitor) -> None:
    v.visit("/timing")
    v.page.locator("#yaml").fill(SCENARIO)
    v.page.get_by_role("button", name="Run and step through").click()
    v.page.wait_for_load_state("load")
    v.check("/timing (pasted)")
    for _ in range(3):
        step = v.page.locator(".stepper [data-step=next]")
        if not step.count():
            break
        step.first.click()
        v.page.wait_for_load_state("load")
        v.check("/timing (pasted, next frame)")


# A scenario that runs (SCENARIO above is refused as YAML, so only its error page is seen):
# its players' and cards' names are payloads, and so are the states it reaches.
_PLAYER, _CARD = f"Ann {payloads('run-player')}", f"Fire {payloads('run-card')}"
RUNNING = yaml.safe_dump({"name": f"Hostile run {payloads('run-name')}", "ruleset": "riftbound", "edition": "1.4",
                          "players": [_PLAYER, "Bo"], "cards": {_CARD: {"type": "spell", "effects": [{"draw": 1}]}},
                          "steps": [{"play": {"player": _PLAYER, "card": _CARD}}, {"pass": _PLAYER}]},
                         allow_unicode=True)


def _ask_what_happens_next(v: Visitor) -> None:
    """What happens next from the hostile scenario's frame, then from its state pasted back,
    then from a state whose error echoes a payload."""
    v.visit("/timing")
    v.page.locator("#yaml").fill(RUNNING)
    v.page.get_by_role("button", name="Run and step through").click()
    v.page.wait_for_load_state("load")
    v.page.get_by_role("button", name="What happens next from here?").click()
    v.page.wait_for_selector("#next-h")
    v.check("/timing/next (from a pasted scenario's frame)")
    assert _PLAYER in v.page.locator("#next-h").inner_text()           # shown as written
    v.page.get_by_role("button", name="What happens next?").click()      # the state, pasted back
    v.page.wait_for_selector("#next-h")
    v.check("/timing/next (pasted state)")
    v.page.locator("#state").fill(json.dumps({"ruleset": payloads("state-ruleset"),
                                              "players": [payloads("state-player")]}))
    v.page.get_by_role("button", name="What happens next?").click()
    v.page.get_by_role("alert").wait_for()
    v.check("/timing/next (refused state)")


@pytest.mark.parametrize("markup", [
    "<script>window.__pwned='raw'</script>",
    "<img src=x onerror=\"window.__pwned='raw'\">",
    '<a href="javascript:void(0)">x</a>',
    "<iframe srcdoc=\"<p>x</p>\"></iframe>",
    "<p>SSTI49</p>",
])
def test_the_checks_find_an_injection(browser_context: Any, markup: str) -> None:
    """The same checks on a page that did not escape its text: they must fail."""
    v = Visitor(browser_context, "", csp=False)
    try:
        v.page.set_content(f"<!doctype html><html><body><main>{markup}</main></body></html>")
        with pytest.raises(AssertionError):
            v.check("unescaped")
    finally:
        v.close()
