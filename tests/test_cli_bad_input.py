"""Bad input to any command gets one clear line and exit code 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys

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


# --- issue 34, item 9: options that were silently wrong ------------------------------------------------

BOOK = ["book", "--count", "1", "--size", "7x7", "--out", "{dir}/b.pdf"]


@pytest.mark.parametrize(("args", "words"), [
    (["generate", "--seed", "-1"], "--seed -1: use a whole number from 0"),
    ([*BOOK, "--seed", "-1"], "--seed -1: use a whole number from 0"),
    (["design", "--seed", "-1", "--quick", "--out", "{dir}/d"], "--seed -1"),
    (["serve", "--time-limit", "nan"], "--time-limit nan"),
    (["solve", "7x7m2:3c5a1c1a1b2b2b2g4a5a4h2d2a", "--time-limit", "nan"], "--time-limit nan"),
    (["book", "--from", "{sheet}", "--from-bank", "{dir}/bank.sqlite", "--mark-used", "x", "--out",
      "{dir}/b.pdf"], "--from and --from-bank"),
    (["sheet", "--side", "A", "--layout", "{sheet}", "--out", "{dir}/s.pdf"], "--side and --layout"),
    (["bank", "fill", "--db", "{dir}/bank.sqlite", "--count", "1", "--scheduler", "not a url"],
     "expected an address like tcp://HOST:PORT"),
    (["book", "--from", "{ids}", "--out", "{dir}/b.pdf"], "line 3:"),
    (["book", "--size", "35x35", "--count", "1", "--out", "{dir}/b.pdf"], "no trim takes a grid this large"),
    (["book", "--size", "27x27", "--count", "1", "--trim", "a4", "--out", "{dir}/b.pdf"],
     "use a larger trim or a smaller grid"),
])
def test_options_that_were_silently_wrong_are_one_line(files, tmp_path, args, words) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("7x7m2:3c5a1c1a1b2b2b2g4a5a4h2d2a\n# a comment\nhello world\n")
    argv = [a.format(**files, ids=ids) for a in args]
    done = subprocess.run([sys.executable, "-m", "hashi_print.cli", *argv], capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hashi-print: ") and words in lines[0], done.stderr
    assert not (tmp_path / "b.pdf").exists() and not (tmp_path / "s.pdf").exists()


def test_a_book_of_one_puzzle_says_one_puzzle(files) -> None:
    result = CliRunner().invoke(cli, [a.format(**files) for a in BOOK])
    assert result.exit_code == 0 and " 1 puzzle, " in result.output
