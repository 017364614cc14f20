"""``rulekb timing run``'s error lines name the file and the field, as every scenario error does
(acceptance A13): an edition the ruleset lacks is the scenario's ``edition``; a scenario over a
limit on what it holds names its file; and ``--no-quotes`` still says when a frame's rule has no
counterpart in the edition run (the note the quotes carry), so no frame is left blank."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from kb.cli import main

SCENARIO = {
    "name": "A combat.", "ruleset": "riftbound", "edition": "1.4", "players": ["Ann", "Bo"],
    "battlefields": {"Keep": {"controller": "Bo", "units": {"Ann": ["Brute"], "Bo": ["Wall"]}}},
    "start": {"combat": {"at": "Keep", "attacker": "Ann", "defender": "Bo"}},
    "cards": {"Brute": {"type": "unit", "might": 3}, "Wall": {"type": "unit", "might": 2}},
    "steps": [{"pass": "Ann"}, {"pass": "Bo"}],
}


def _run(home: Path, tmp_path: Path, *args: str, **change: object) -> tuple[int, str, str]:
    scenario = tmp_path / "scenario.yaml"
    text = yaml.safe_dump({**SCENARIO, **{k: v for k, v in change.items() if k != "steps"}})
    if "steps" in change:  # written out, one line a step (no YAML aliases)
        text = text.split("steps:")[0] + "steps:\n" + "".join(f"- pass: {p}\n" for p in change["steps"])  # type: ignore[union-attr]
    scenario.write_text(text, encoding="utf-8")
    out = CliRunner().invoke(main, ["--home", str(home), "timing", "run", str(scenario), *args])
    assert "Traceback" not in out.output
    return out.exit_code, out.output, str(scenario)


# (the change to the scenario, what the error line says: FILE for the file's path)
ERRORS = [
    ({"edition": "9.9"}, "error: FILE (edition): unknown edition '9.9' of riftbound (editions: 1.3, 1.4)"),
    ({"steps": ["Ann"] * 6000}, "error: FILE: over the limit timing.steps"),
]


@pytest.mark.parametrize("change,says", ERRORS, ids=["edition", "steps"])
def test_an_error_line_names_the_file_and_its_field(excerpt_home: Path, tmp_path: Path, change: dict,
                                                     says: str) -> None:
    code, output, file = _run(excerpt_home, tmp_path, **change)
    assert code == 2, output
    assert says.replace("FILE", file) in output, output


@pytest.mark.parametrize("quotes", ["--quotes", "--no-quotes"])
def test_a_rule_without_counterpart_is_said_with_or_without_quotes(excerpt_home: Path, tmp_path: Path,
                                                                  quotes: str) -> None:
    code, output, _ = _run(excerpt_home, tmp_path, quotes, "--full", edition="1.3")
    assert code == 0, output
    lines = output.splitlines()
    at = next(i for i, line in enumerate(lines) if "Start of combat effects at Keep." in line)
    # its only rule in 1.4 (464.2.b) has no counterpart in the 1.3 excerpt: the frame says so
    assert "riftbound 1.4 rule 464.2.b has no counterpart in 1.3: 1.3 is an excerpt and lacks it" in lines[at + 1]


def test_without_quotes_a_frame_whose_rules_all_have_counterparts_quotes_nothing(excerpt_home: Path,
                                                                                  tmp_path: Path) -> None:
    code, output, _ = _run(excerpt_home, tmp_path, "--no-quotes")
    assert code == 0, output
    assert "has no counterpart" not in output
    frame_lines = [line for line in output.splitlines() if line.startswith("      ")]
    assert all(line.startswith("      = ") for line in frame_lines), frame_lines
