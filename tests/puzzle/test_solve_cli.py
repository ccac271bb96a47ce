"""The `solve` command: grid output, the JSON contract and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from hashi_print.cli import cli
from hashi_print.puzzle.check import check_solution
from hashi_print.puzzle.formats import parse_tatham_id
from hashi_print.puzzle.model import Solution

SAMPLE_ID = "7x7m2:3c5a1c1a1b2b2b2g4a5a4h2d2a"


def test_solve_json_follows_the_contract() -> None:
    result = CliRunner().invoke(cli, ["solve", SAMPLE_ID, "--json"])
    assert result.exit_code == 0
    obj = json.loads(result.output)
    assert set(obj) == {"status", "solution", "seconds"}
    assert obj["status"] == "unique"
    assert isinstance(obj["seconds"], float)
    solution = Solution.from_lists(obj["solution"])
    assert check_solution(parse_tatham_id(SAMPLE_ID), solution) == []


def test_solve_prints_the_grid_and_verdict(tmp_path) -> None:
    path = tmp_path / "square.txt"
    path.write_text("3.3\n...\n3.3\n")
    result = CliRunner().invoke(cli, ["solve", str(path)])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] in ("3=3", "3-3")
    assert lines[-1].startswith("multiple:")


def test_no_solution_json() -> None:
    result = CliRunner().invoke(cli, ["solve", "3x3m2:1a1c1a1", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.output) == {**json.loads(result.output), "status": "none", "solution": None}


def test_bad_id_is_one_line_and_exit_2() -> None:
    proc = subprocess.run([sys.executable, "-m", "hashi_print.cli", "solve", "7x7m2:3c5"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0
    assert proc.stderr.startswith("hashi-print: argument: the description covers")
    assert "Traceback" not in proc.stderr


def test_missing_file_is_exit_2(tmp_path) -> None:
    result = CliRunner().invoke(cli, ["solve", str(tmp_path / "nope.txt")])
    assert result.exit_code == 2
    assert "no such file" in result.output
