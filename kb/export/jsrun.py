"""Run the offline search script (``web/static/offline-search.js``) in node, outside a browser.

The bench compares its answers with the server's on the relevance set, and the tests check
that both read queries and rank rules the same way. Needs ``node`` on the PATH (or
``RULEKB_NODE``); :func:`node_path` says whether it is there.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).resolve().parent.parent.parent / "web" / "static" / "offline-search.js"

# Reads {"script", "indexes": [paths], "queries": [{query, ruleset, edition, limit, offset, section,
# rulings}]} on stdin (rulings true: the earlier rulings' evidence too, as the page searches;
# otherwise the rules alone, as EditionSearcher.search answers without evidence); prints one
# answer per query: the search result, or {"error": {status, message}}.
_RUNNER = r"""
const fs = require("fs");
const job = JSON.parse(fs.readFileSync(0, "utf8"));
const api = require(job.script);
const editions = {}, newest = {};
for (const path of job.indexes) {
  const text = fs.readFileSync(path, "utf8");
  const data = JSON.parse(text.slice(text.indexOf("(") + 1, text.lastIndexOf(")")));
  editions[data.ruleset + "/" + data.edition] = new api.Edition(data);
  newest[data.ruleset] = data.edition;  // the caller names the edition when there are several
}
const out = [];
const started = process.hrtime.bigint();
for (const q of job.queries) {
  try {
    const r = api.search(editions, newest, q.query, q.ruleset, q.edition,
                         {limit: q.limit || 10, offset: q.offset || 0, sections: q.section ? [q.section] : [],
                          rulings: q.rulings === true});
    for (const hit of r.results) delete hit.excerpt_parts;
    out.push(r);
  } catch (e) {
    if (!(e instanceof api.SearchError)) throw e;
    out.push({error: {status: e.status, message: e.message}});
  }
}
const ms = Number(process.hrtime.bigint() - started) / 1e6;
process.stdout.write(JSON.stringify({answers: out, ms: ms}));
"""


def node_path() -> str | None:
    """The node executable, or None when there is none."""
    return os.environ.get("RULEKB_NODE") or shutil.which("node")


def run_queries(indexes: list[Path], queries: list[dict[str, Any]],
                timeout: float = 300) -> tuple[list[dict[str, Any]], float]:
    """Answer ``queries`` with the offline search over the index scripts ``indexes``; returns
    the answers (the server's response shape, or ``{"error": ...}``) and node's milliseconds."""
    node = node_path()
    if node is None:
        raise RuntimeError("node is not installed (set RULEKB_NODE to its path)")
    job = {"script": str(SCRIPT), "indexes": [str(p) for p in indexes], "queries": queries}
    proc = subprocess.run([node, "-e", _RUNNER], input=json.dumps(job), capture_output=True,
                          text=True, timeout=timeout, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"node failed: {proc.stderr.strip()[-2000:]}")
    data = json.loads(proc.stdout)
    return data["answers"], float(data["ms"])


def stem_words(words: list[str]) -> list[str]:
    """The offline script's stems of ``words`` (its Porter stemmer and stop words)."""
    node = node_path()
    if node is None:
        raise RuntimeError("node is not installed (set RULEKB_NODE to its path)")
    code = ('const fs = require("fs"); const job = JSON.parse(fs.readFileSync(0, "utf8"));'
            'const api = require(job.script);'
            'process.stdout.write(JSON.stringify(job.words.map(w => api.stem(w))));')
    proc = subprocess.run([node, "-e", code], input=json.dumps({"script": str(SCRIPT), "words": words}),
                          capture_output=True, text=True, timeout=120, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"node failed: {proc.stderr.strip()[-2000:]}")
    return list(json.loads(proc.stdout))
