"""Which file each page of the rules browser is written to in a static copy.

The live site has a page per rule (``/riftbound/1.4/337.1.a``). Written out one file per
rule, Magic alone would be 3,000+ renders; instead each *section* (a rule just below a
chapter) is one page, cut into parts the way the site cuts long pages, and every rule below
it is an anchor in the part that shows it: ``/riftbound/1.4/337.1.a`` →
``riftbound/1.4/337.html#337.1.a``. A chapter heading is its entry in the contents.

:meth:`Layout.file_of` maps any path the site links to (with its query) to the file written
for it, so the site's own link building (``web.site.links``) writes relative links between
files. Paths are absolute from the root of the export (``/index.html``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qs, unquote, urlsplit

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


@dataclass(frozen=True)
class RulePlace:
    """Where a rule is shown: the section page (its root rule) and the part of it."""

    root: str | None  # None: a chapter heading, shown in the contents
    part: int = 1


@dataclass
class Layout:
    """The files of an export. ``places[(ruleset, edition)][number]`` says where each rule
    is shown; ``newest[ruleset]`` is the default exported edition, the newest full one (for the site's
    edition-less links)."""

    places: dict[tuple[str, str], dict[str, RulePlace]] = field(default_factory=dict)
    newest: dict[str, str] = field(default_factory=dict)
    editions: dict[str, list[str]] = field(default_factory=dict)
    # Every link asks for its page's file and its target's: the same few thousand paths.
    _files: dict[str, str] = field(default_factory=dict, repr=False)

    # -- rules -----------------------------------------------------------------------
    @staticmethod
    def part_file(ruleset: str, edition: str, root: str, part: int = 1) -> str:
        """The file of one part of a section's page."""
        name = safe(root) + (f".part{part}" if part > 1 else "")
        return f"/{safe(ruleset)}/{safe(edition)}/{name}.html"

    @staticmethod
    def contents_file(ruleset: str, edition: str) -> str:
        return f"/{safe(ruleset)}/{safe(edition)}/index.html"

    def rule_file(self, ruleset: str, edition: str, number: str, part: int | None = None) -> str:
        """The file (and anchor) showing a rule; ``part`` asks for a part of its own page."""
        place = self.places.get((ruleset, edition), {}).get(number)
        if place is None:  # not a rule of this edition: the site only links to existing rules
            return self.part_file(ruleset, edition, number)
        if place.root is None:
            return f"{self.contents_file(ruleset, edition)}#{number}"
        if part is not None and place.root == number:
            return self.part_file(ruleset, edition, number, part)
        page = self.part_file(ruleset, edition, place.root, place.part)
        return page if number == place.root and place.part == 1 else f"{page}#{number}"

    def page_of(self, ruleset: str, edition: str) -> Callable[[str], str]:
        """``number -> link relative to the export root`` (for the search index)."""
        return lambda number: self.rule_file(ruleset, edition, number).lstrip("/")

    # -- every page ------------------------------------------------------------------
    def file_of(self, url: str) -> str:
        """The file written for a path of the site (``/riftbound/1.4/337?part=2``), with the
        query kept for the search page (read by its script) and the anchor of a rule."""
        found = self._files.get(url)
        if found is None:
            found = self._files[url] = self._file_of(url)
        return found

    def _file_of(self, url: str) -> str:
        parts = urlsplit(url)
        path, query = parts.path, parts.query
        args = {k: v[-1] for k, v in parse_qs(query, keep_blank_values=True).items()}
        segs = [unquote(s) for s in path.split("/")[1:]]
        if path == "/":
            return "/index.html"
        if segs[0] == "static":
            return path
        if segs == ["search"]:
            return "/search.html" + (f"?{query}" if query else "")
        if segs == ["timing"]:
            if args.get("scenario"):
                frame = args.get("frame", "1")
                return f"/timing/{safe(args['scenario'])}/{safe(frame)}.html"
            return "/timing/index.html"
        ruleset = segs[0]
        rest = segs[1:]
        if rest == [""] or not rest:  # /riftbound/ : the newest edition
            return self.contents_file(ruleset, self.newest.get(ruleset, ""))
        if len(rest) == 3 and rest[0] == "compare":
            return self.compare_file(ruleset, rest[1], rest[2], args.get("chapter"),
                                     int(args["page"]) if args.get("page", "").isdigit() else 1)
        if len(rest) == 1:  # /riftbound/337.1.a or /riftbound/1.4: the newest edition
            if rest[0] in self.editions.get(ruleset, []):
                return self.contents_file(ruleset, rest[0])
            return self.rule_file(ruleset, self.newest.get(ruleset, ""), rest[0])
        edition = rest[0]
        if rest[1:] == [""]:
            return self.contents_file(ruleset, edition)
        if rest[1] == "glossary":
            if len(rest) == 2:
                return f"/{safe(ruleset)}/{safe(edition)}/glossary.html"
            return f"/{safe(ruleset)}/{safe(edition)}/glossary/{letter_name(rest[2])}.html"
        if len(rest) == 2:
            part = args.get("part")
            return self.rule_file(ruleset, edition, rest[1],
                                  int(part) if part and part.isdigit() else None)
        return "/" + "/".join(safe(s) for s in segs) + ".html"  # a page the export does not know

    @staticmethod
    def compare_file(ruleset: str, old: str, new: str, chapter: str | None = None, page: int = 1) -> str:
        name = f"{safe(old)}--{safe(new)}"
        if chapter:
            name += f".ch{safe(chapter)}"
        if page > 1:
            name += f".p{page}"
        return f"/{safe(ruleset)}/compare/{name}.html"


def safe(name: str) -> str:
    """A path segment as a file name: letters, digits, dot, dash and underscore only."""
    cleaned = _UNSAFE.sub("_", name)
    return cleaned if cleaned.strip(".") else "_"


def letter_name(letter: str) -> str:
    """The file name of a glossary letter (``#`` for terms starting with a digit)."""
    return safe(letter.upper()) if letter.isalnum() else "0-9"
