"""Tests of checking drawn bridges: solved, wrong lanes, overfull and complete islands."""

from __future__ import annotations

from hashi_print.puzzle.formats import parse_puzzle
from hashi_print.puzzle.progress import progress
from hashi_print.puzzle.solve import solve
from tests.independent import is_valid_solution

PUZZLE = parse_puzzle("10x10m2:1b1c5a3j3f5a3j4c4b4m3a2a1a2l2b1g4b3b1a2")


def test_the_solution_drawn_is_solved_and_every_island_complete():
    solution = solve(PUZZLE).solution
    assert is_valid_solution(PUZZLE, solution)
    counts = solution.lane_counts(PUZZLE.geometry)
    got = progress(PUZZLE, counts, solution)
    assert got.solved and got.wrong == () and got.overfull == ()
    assert len(got.complete) == len(PUZZLE.islands)


def test_an_extra_bridge_is_wrong_and_nothing_is_wrong_without_a_solution():
    solution = solve(PUZZLE).solution
    truth = solution.lane_counts(PUZZLE.geometry)
    k = next(k for k, n in enumerate(truth) if n == 0)
    counts = [0] * len(truth)
    counts[k] = 2
    got = progress(PUZZLE, counts, solution)
    assert not got.solved and len(got.wrong) == 1
    assert got.to_json()["wrong"] == list(got.wrong)
    assert progress(PUZZLE, counts, None).wrong == ()
