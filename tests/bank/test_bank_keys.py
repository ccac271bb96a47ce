"""Canonical keys: every mirrored or rotated copy of a puzzle gets the same key, other puzzles another."""

from __future__ import annotations

import random

import pytest

from hashi_print.bank.keys import SYMMETRIES, canonical_key, image
from hashi_print.puzzle.formats import puzzle_text
from hashi_print.puzzle.generate import generate
from hashi_print.puzzle.model import Puzzle, Solution
from tests.independent import is_valid_solution


def grid_rows(puzzle: Puzzle) -> list[list[int]]:
    """The puzzle as a list of rows of clues (0 = water), written by the test itself."""
    rows = [[0] * puzzle.cols for _ in range(puzzle.rows)]
    for isl in puzzle.islands:
        rows[isl.row][isl.col] = isl.clue
    return rows


def from_rows(rows: list[list[int]]) -> Puzzle:
    """Build a puzzle back from rows of clues."""
    return Puzzle.build(len(rows[0]), len(rows), [(r, c, k) for r, row in enumerate(rows)
                                                  for c, k in enumerate(row) if k])


def turned(rows):
    """The rows turned a quarter clockwise, with plain list operations."""
    return [list(col) for col in zip(*rows[::-1], strict=True)]


def mirrored(rows):
    """The rows mirrored left to right."""
    return [row[::-1] for row in rows]


def all_copies(puzzle: Puzzle) -> list[Puzzle]:
    """The four rotations of the puzzle and of its mirror image, made without the code under test."""
    out = []
    for rows in (grid_rows(puzzle), mirrored(grid_rows(puzzle))):
        for _ in range(4):
            out.append(from_rows(rows))
            rows = turned(rows)
    return out


def moved_solution(solution: Solution, puzzle: Puzzle, copy: Puzzle) -> Solution:
    """Carry a solution over to a copy by matching islands through their place in the symmetry."""
    # Find the map (row, col) -> (row, col) that takes the puzzle onto the copy, among the eight.
    w, h = puzzle.cols, puzzle.rows
    maps = [lambda r, c: (r, c), lambda r, c: (r, w - 1 - c), lambda r, c: (h - 1 - r, c),
            lambda r, c: (h - 1 - r, w - 1 - c), lambda r, c: (c, r), lambda r, c: (c, h - 1 - r),
            lambda r, c: (w - 1 - c, r), lambda r, c: (w - 1 - c, h - 1 - r)]
    target = {(i.row, i.col): i.clue for i in copy.islands}
    for f in maps:
        if all(target.get(f(i.row, i.col)) == i.clue for i in puzzle.islands):
            return Solution.from_lists([[*f(b.r1, b.c1), *f(b.r2, b.c2), b.count] for b in solution.bridges])
    raise AssertionError("no symmetry maps the puzzle onto the copy")


@pytest.mark.parametrize("size", [(8, 8), (9, 6)])
def test_every_symmetric_copy_has_the_same_key_and_stays_a_solvable_puzzle(size):
    made = generate(*size, "medium", random.Random(11))
    key = canonical_key(made.puzzle)
    copies = all_copies(made.puzzle)
    assert len({puzzle_text(p) for p in copies}) == 8  # this puzzle has no symmetry of its own
    for copy in copies:
        assert canonical_key(copy) == key
        assert is_valid_solution(copy, moved_solution(made.solution, made.puzzle, copy))
    if size[0] != size[1]:
        assert {(p.cols, p.rows) for p in copies} == {size, size[::-1]}


def test_images_are_the_eight_copies_the_test_makes_on_its_own():
    made = generate(9, 6, "easy", random.Random(4))
    mine = {puzzle_text(p) for p in all_copies(made.puzzle)}
    assert {puzzle_text(image(made.puzzle, s)) for s in SYMMETRIES} == mine


def test_different_puzzles_get_different_keys():
    rng = random.Random(2)
    puzzles = [generate(7, 7, "easy", rng).puzzle for _ in range(15)]
    texts = {puzzle_text(p) for p in puzzles}
    assert len({canonical_key(p) for p in puzzles}) == len(texts)


def test_one_changed_clue_changes_the_key():
    puzzle = from_rows([[2, 0, 2], [0, 0, 0], [2, 0, 2]])
    changed = from_rows([[2, 0, 2], [0, 0, 0], [2, 0, 1]])
    assert canonical_key(puzzle) != canonical_key(changed)
    assert canonical_key(puzzle) == "3x3m2:2a2c2a2"
