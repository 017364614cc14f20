"""``kb.export.check_site``: each kind of link that does not work offline is reported, with
its file and why, and each link that does is not.

Every case's link is on two pages of one folder, ``sub/a.html`` (which has the element
``#self``) and ``sub/c.html`` (which has none): a link is resolved once per folder, and what
it points to in the page itself is still each page's own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.export import LinkProblem, check_site

CASES = [
    # link,                        problem on sub/a.html,                      on sub/c.html
    ("b.html",                     None,                                       None),
    ("b.html#there",               None,                                       None),
    ("b.html#caf%C3%A9",           None,                                       None),
    ("b.html?q=1#there",           None,                                       None),
    ("../index.html",              None,                                       None),
    ("style.css#anything",         None,                                       None),
    ("data:image/png;base64,AAAA", None,                                       None),
    ("#self",                      None,                                       "no element #self in sub/c.html"),
    ("b.html#gone",                "no element #gone in sub/b.html",           "no element #gone in sub/b.html"),
    ("#gone",                      "no element #gone in sub/a.html",           "no element #gone in sub/c.html"),
    ("missing.html",               "no file sub/missing.html",                 "no file sub/missing.html"),
    ("../../up.html",              "leaves the exported folder",               "leaves the exported folder"),
    ("/index.html",                "absolute path (breaks when the folder is opened from file:// or a sub-path)",
                                   "absolute path (breaks when the folder is opened from file:// or a sub-path)"),
    ("https://example.org/",       "points to another host or scheme (the copy must work offline)",
                                   "points to another host or scheme (the copy must work offline)"),
    ("//example.org/x.html",       "points to another host or scheme (the copy must work offline)",
                                   "points to another host or scheme (the copy must work offline)"),
    ("",                           "empty link",                               "empty link"),
]


def site(root: Path, link: str) -> Path:
    (root / "sub").mkdir(parents=True)
    (root / "index.html").write_text("<p>home</p>", encoding="utf-8")
    (root / "sub" / "b.html").write_text('<p id="there">x</p><p id="café">y</p>', encoding="utf-8")
    (root / "sub" / "style.css").write_text("p {}", encoding="utf-8")
    (root / "sub" / "a.html").write_text(f'<h1 id="self">a</h1><a href="{link}">go</a>', encoding="utf-8")
    (root / "sub" / "c.html").write_text(f'<h1>c</h1><img src="{link}">', encoding="utf-8")
    return root


@pytest.mark.parametrize(("link", "on_a", "on_c"), CASES)
def test_each_link_is_judged_on_each_page(tmp_path: Path, link: str, on_a: str | None, on_c: str | None) -> None:
    checked, problems = check_site(site(tmp_path, link))
    assert checked == 2
    expected = [LinkProblem(file, link, reason) for file, reason in (("sub/a.html", on_a), ("sub/c.html", on_c))
                if reason]
    assert problems == expected


def test_the_problems_stop_at_the_limit(tmp_path: Path) -> None:
    checked, problems = check_site(site(tmp_path, "missing.html"), limit=1)
    assert (checked, problems) == (1, [LinkProblem("sub/a.html", "missing.html", "no file sub/missing.html")])
