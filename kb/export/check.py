"""Every link of an exported site resolves: to a file inside it, and to an element there.

A static copy opened from ``file://`` has no server to answer a missing page, so the
exporter (``rulekb export --check``), its tests and its bench check each ``href``, ``src``
and form ``action`` of every HTML file: relative (no ``/`` at the start, no other host), to
a file that exists inside the folder, and, for ``#anchor`` links, to an element with that id.
"""

from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

_ATTR = re.compile(r'\s(?:href|src|action)="([^"]*)"')
_ID = re.compile(r'\sid="([^"]*)"')
_ALLOWED_SCHEMES = ("data:",)


@dataclass(frozen=True)
class LinkProblem:
    """A link that does not work offline: the file holding it, the link, and why."""

    file: str
    link: str
    reason: str

    def __str__(self) -> str:
        return f"{self.file}: {self.link!r}: {self.reason}"


def check_site(root: Path, limit: int = 200) -> tuple[int, list[LinkProblem]]:
    """Check every HTML file under ``root``; returns how many links were checked and the
    problems (at most ``limit``)."""
    root = root.resolve()
    ids: dict[str, set[str]] = {}
    texts: dict[str, str] = {}

    def text_of(rel: str) -> str:
        if rel not in texts:
            texts[rel] = (root / rel).read_text(encoding="utf-8")
        return texts[rel]

    def ids_of(rel: str) -> set[str]:
        if rel not in ids:
            ids[rel] = {html.unescape(v) for v in _ID.findall(text_of(rel))}
        return ids[rel]

    problems: list[LinkProblem] = []
    checked = 0
    existing = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}
    files = sorted(rel for rel in existing if rel.endswith(".html"))
    # The pages of a folder share most of their links (a scenario's frames list each other):
    # each link is resolved once from each folder.
    resolved: dict[tuple[str, str], tuple[str | None, str, str, str]] = {}
    for rel in files:
        folder = posixpath.dirname(rel)
        for raw in _ATTR.findall(text_of(rel)):
            checked += 1
            key = (folder, raw)
            found = resolved.get(key)
            if found is None:
                found = resolved[key] = _resolve(folder, html.unescape(raw), existing)
            reason, target, fragment, element = found
            if reason is None and fragment:
                target = target or rel
                if target.endswith(".html") and element not in ids_of(target):
                    reason = f"no element #{fragment} in {target}"
            if reason:
                problems.append(LinkProblem(rel, html.unescape(raw), reason))
                if len(problems) >= limit:
                    return checked, problems
        texts.pop(rel, None)  # keep only the ids of files already read
    return checked, problems


def _resolve(folder: str, link: str, existing: set[str]) -> tuple[str | None, str, str, str]:
    """What is wrong with ``link`` from a page in ``folder`` (None: nothing yet), the file it
    points to (empty: the page itself), its fragment as written and the id that names."""
    if not link:
        return "empty link", "", "", ""
    if link.startswith(_ALLOWED_SCHEMES):
        return None, "", "", ""
    parts = urlsplit(link)
    if parts.scheme or parts.netloc:
        return "points to another host or scheme (the copy must work offline)", "", "", ""
    if link.startswith("/"):
        return "absolute path (breaks when the folder is opened from file:// or a sub-path)", "", "", ""
    target = ""
    path = unquote(parts.path)
    if path:
        target = posixpath.normpath(posixpath.join(folder, path))
        if target.startswith("../") or target == "..":
            return "leaves the exported folder", target, "", ""
        if target not in existing:
            return f"no file {target}", target, "", ""
    return None, target, parts.fragment, unquote(parts.fragment)
