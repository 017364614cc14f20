"""Invalid front matter: a warning for ``rulekb link``, an error for ``articles add`` (F17).

The difference is deliberate (a stored article is checked from its pin for every later
edition; a link is a one-off render) and each command's help says so; this holds the
behaviour and the words to each other.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main

BAD = {
    "unclosed-list": "---\nruleset: [unclosed\nedition: 1.4\n---\nSee rule 337.1a.\n",
    "tab-indent": "---\nruleset: riftbound\n\tedition: '1.4'\n---\nSee rule 337.1a.\n",
}
# command, exit code, severity the file's line says, words its help must hold
COMMANDS = [
    (("link", "--check"), 0, "warning", "not valid YAML is a warning here"),
    (("articles", "add", "--no-build"), 2, "error", "not valid YAML is an error here"),
]


@pytest.mark.parametrize(("command", "code", "severity", "_help"), COMMANDS)
@pytest.mark.parametrize("name", sorted(BAD))
def test_invalid_front_matter(excerpt_home: Path, tmp_path: Path, name: str, command: tuple[str, ...],
                              code: int, severity: str, _help: str) -> None:
    article = tmp_path / f"{name}.md"
    article.write_text(BAD[name], encoding="utf-8")
    result = CliRunner().invoke(main, ["--home", str(excerpt_home), *command, str(article)])
    assert result.exit_code == code, result.output
    assert f"{article}:" in result.output and f"{severity}: front matter" in result.output, result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(("command", "_code", "_severity", "words"), COMMANDS)
def test_help_says_how_strict_it_is(command: tuple[str, ...], _code: int, _severity: str, words: str) -> None:
    words_of = [w for w in command if not w.startswith("--")]
    result = CliRunner().invoke(main, [*words_of, "--help"], terminal_width=400)
    assert result.exit_code == 0
    assert words in " ".join(result.output.split())
