"""The examples in the README and the docs are valid on the shipped side A and name the shipped values."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from hashi_print.cli import cli
from hashi_print.game.scoring import load_scoring

README = Path(__file__).resolve().parents[2] / "README.md"


def shown(page: Path, first_line: str, tmp_path: Path) -> Path:
    """The example on `page` whose code block starts with `first_line`, written to a file."""
    block = re.search(rf"```\n({first_line}\n.*?)```", page.read_text(), re.S)
    assert block, f"{page.name} shows an example starting {first_line!r}"
    path = tmp_path / "example.txt"
    path.write_text(block.group(1))
    return path


def test_readme_sheet_validates(tmp_path) -> None:
    sheet = shown(README, "hashi-sheet 1", tmp_path)
    result = CliRunner().invoke(cli, ["validate", str(sheet), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["ok"] is True and report["violations"] == []
    assert report["score"]["circled"] == 3
    assert report["score"]["total"] == 6


def test_the_record_example_in_docs_is_a_legal_game_on_side_a(tmp_path) -> None:
    record = shown(README.parent / "docs" / "sheets.md", "hashi-record 1", tmp_path)
    result = CliRunner().invoke(cli, ["validate", str(record)])
    assert result.exit_code == 0, result.output
    assert "ok - game record on side A, 3 turns" in result.output


def test_docs_name_the_shipped_bonus_values() -> None:
    bonus = load_scoring().bonus
    red, blue, six = (bonus[g] for g in ("red", "blue", "six"))
    rules = " ".join((README.parent / "docs" / "rules.md").read_text().split())
    assert (f"red {red[0]} / {red[1]}, blue {blue[0]} / {blue[1]} and six {six[0]} / {six[1]} "
            "(first / later)") in rules
    assert f"six-island bonus ({six[0]} / {six[1]})" in " ".join(README.read_text().split())
    layouts_page = (README.parent / "docs" / "layouts.md").read_text()
    assert f'"bonus": {json.dumps({g: list(bonus[g]) for g in ("red", "blue", "six")})}' in layouts_page
