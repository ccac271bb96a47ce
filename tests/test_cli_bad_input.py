"""Bad input to any command gets one clear line and exit code 2, never a traceback."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from hashi_print.cli import cli

GOOD_SHEET = "hashi-sheet 1\nside A\nnumbers G4\n"


@pytest.fixture
def files(tmp_path):
    """A binary file, a good sheet and a folder to feed the commands."""
    binary = tmp_path / "noise.dat"
    binary.write_bytes(bytes(range(256)) * 2)
    sheet = tmp_path / "sheet.txt"
    sheet.write_text(GOOD_SHEET)
    return {"bin": str(binary), "sheet": str(sheet), "dir": str(tmp_path)}


@pytest.mark.parametrize("args", [
    ["validate", "{bin}"],
    ["validate", "{sheet}", "--layout", "{bin}"],
    ["validate", "{sheet}", "--deck", "{bin}"],
    ["validate", "{sheet}", "--scoring", "{bin}"],
    ["score", "{bin}"],
    ["solve", "{bin}"],
    ["solve", "{dir}"],
    ["grade", "{bin}"],
    ["hint", "{bin}"],
    ["sheet", "--layout", "{bin}", "--out", "{dir}/x.pdf"],
    ["book", "--from", "{bin}", "--out", "{dir}/b.pdf"],
])
def test_bad_file_is_one_line_and_exit_2(files, args) -> None:
    argv = [a.format(**files) for a in args]
    result = CliRunner().invoke(cli, argv)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hashi-print: ")
    assert "Traceback" not in result.output
