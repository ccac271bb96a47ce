"""The product's own puzzle corpus: solver, grader and generator end to end, from a plain clone.

tests/fixtures/own-puzzles.jsonl holds puzzles `hashi-print generate` made (the commands are in its
header). Each is checked against the independent checker, solved again by every solver set-up,
graded again by the deducer, and the small ones are generated again from their seed.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from hashi_print.cli import cli
from hashi_print.puzzle.deduce import deduce, grade
from hashi_print.puzzle.formats import parse_tatham_id, read_puzzle_lines
from hashi_print.puzzle.model import Status
from hashi_print.puzzle.sat import BACKENDS, MODES
from hashi_print.puzzle.solve import solutions, solve
from tests.independent import is_valid_solution

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "own-puzzles.jsonl"
ENTRIES = read_puzzle_lines(CORPUS)
COMMANDS = [shlex.split(line.split("hashi-print", 1)[1]) for line in CORPUS.read_text().splitlines()
            if line.startswith("#   hashi-print")]


def test_corpus_covers_every_grade_and_several_sizes() -> None:
    assert {extra["difficulty"] for _, _, _, extra in ENTRIES} == {"easy", "medium", "hard", "expert"}
    assert len({(p.cols, p.rows) for _, p, _, _ in ENTRIES}) >= 6 and len(ENTRIES) == 2 * len(COMMANDS)


@pytest.mark.parametrize(("line", "puzzle", "given", "extra"), ENTRIES, ids=[str(e[0]) for e in ENTRIES])
def test_stored_solution_is_valid_unique_and_found_by_every_solver(line, puzzle, given, extra) -> None:
    assert is_valid_solution(puzzle, given)
    for mode in MODES:
        for backend in BACKENDS:
            result = solve(puzzle, mode=mode, backend=backend)
            assert result.status == Status.UNIQUE and result.solution == given, (line, mode, backend)


@pytest.mark.parametrize(("line", "puzzle", "given", "extra"), ENTRIES, ids=[str(e[0]) for e in ENTRIES])
def test_deducer_reaches_the_stored_grade_and_solution_step_by_step(line, puzzle, given, extra) -> None:
    truth = given.lane_counts(puzzle.geometry)
    result = deduce(puzzle)
    for step in result.steps:
        for k, lo, hi in step.conclusions:
            assert lo <= truth[k] <= hi, (line, step.text)
    assert result.solved and result.solution(puzzle) == given
    assert grade(puzzle) == extra["difficulty"]


@pytest.mark.parametrize("args", [c for c in COMMANDS if int(c[c.index("--width") + 1]) <= 12],
                         ids=lambda a: " ".join(a[1:7]))
def test_generator_makes_the_same_puzzles_again(args) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    stored = [ln for ln in CORPUS.read_text().splitlines() if not ln.startswith("#")]
    assert all(line in stored for line in result.stdout.splitlines()) and len(result.stdout.splitlines()) == 2


def test_a_puzzle_with_two_solutions_is_told_apart() -> None:
    # Four 3s on the corners of a square: each side carries 1 or 2 bridges, alternating both ways.
    puzzle = parse_tatham_id("3x3m2:3a3c3a3")
    found = list(solutions(puzzle))
    assert len(found) == 2 and found[0] != found[1]
    assert all(is_valid_solution(puzzle, s) for s in found)
    assert solve(puzzle).status == Status.MULTIPLE
