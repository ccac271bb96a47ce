"""The examples in the README and the docs are valid on the shipped side A and name the shipped values."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from hashi_print.cli import cli
from hashi_print.game.scoring import load_scoring

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_sheet_validates(tmp_path) -> None:
    block = re.search(r"```\n(hashi-sheet 1\n.*?)```", README.read_text(), re.S)
    assert block, "the README shows a typed sheet"
    sheet = tmp_path / "sheet.txt"
    sheet.write_text(block.group(1))
    result = CliRunner().invoke(cli, ["validate", str(sheet), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["ok"] is True and report["violations"] == []
    assert report["score"]["circled"] == 3
    assert report["score"]["total"] == 6


def test_the_record_example_in_docs_is_a_legal_game_on_side_a(tmp_path) -> None:
    text = (README.parent / "docs" / "sheets.md").read_text()
    block = re.search(r"```\n(hashi-record 1\n.*?)```", text, re.S)
    assert block, "docs/sheets.md shows a game record"
    record = tmp_path / "record.txt"
    record.write_text(block.group(1))
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
