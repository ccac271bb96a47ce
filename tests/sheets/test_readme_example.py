"""The sheet shown in the README is valid on the shipped side A and scores what it should."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from hashi_print.cli import cli

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
