"""The hand-made ``testgame`` ruleset of ``tests/fixtures/site/testgame.yaml`` as rule graphs.

Built straight from :class:`~kb.model.ReadResult` objects (no reader in between), so the
hostile text reaches the site exactly as written.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from kb.graph import RuleGraph, build_edition
from kb.query import KnowledgeBase
from kb.model import RawRule, RawTerm, ReadResult
from kb.numbers import parse_number

DATA = Path(__file__).resolve().parent.parent / "fixtures" / "site" / "testgame.yaml"


def build_testgame() -> list[RuleGraph]:
    """Every edition of the test ruleset, oldest first."""
    data = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    graphs = []
    for ed in data["editions"]:
        rules = [RawRule(parse_number(r["number"]), r.get("kind", "rule"), r.get("text", ""), i + 1,
                         title=r.get("title", ""), examples=r.get("examples", []))
                 for i, r in enumerate(ed["rules"])]
        terms = [RawTerm(t["name"], t["definition"], 0, "glossary", t.get("rules", []))
                 for t in ed.get("terms", [])]
        result = ReadResult(rules, terms, title=data["title"], date=ed["date"])
        graphs.append(build_edition(result, ruleset=data["ruleset"], edition=ed["name"],
                                    date=ed["date"], title=data["title"]))
    return graphs


def site_knowledge_base(excerpt_kb: KnowledgeBase) -> KnowledgeBase:
    """The site tests' knowledge base: the embedded excerpt plus ``testgame``, with titles."""
    kb = KnowledgeBase.from_graphs([*excerpt_kb.graphs.values(), *build_testgame()])
    data = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    kb.manifest["rulesets"] = {**excerpt_kb.manifest.get("rulesets", {}),
                               data["ruleset"]: {"title": data["title"]}}
    return kb
