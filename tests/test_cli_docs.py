"""The README's CLI reference is generated from the commands; it must match them."""

from pathlib import Path

from cogapp import Cog

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_cli_reference_is_current() -> None:
    cog = Cog()
    cog.options.verbosity = 0
    text = README.read_text(encoding="utf-8")
    regenerated = cog.process_string(text, fname=str(README))
    assert regenerated == text, "README.md's CLI reference is stale: run `.venv/bin/cog -r README.md`"


def test_every_command_has_a_heading() -> None:
    from kb.cli import main
    from kb.cli.reference import command_paths
    text = README.read_text(encoding="utf-8")
    for path in command_paths(main):
        assert f"### rulekb {' '.join(path)}\n" in text
