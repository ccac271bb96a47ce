"""Canonical keys: one name shared by a puzzle and all its mirrored and rotated copies."""

from __future__ import annotations

from itertools import product

from hashi_print.puzzle.formats import format_tatham_id
from hashi_print.puzzle.model import Island, Puzzle

# The eight symmetries of a grid as (turn, flip rows, flip columns): flip first, then, when `turn`
# is set, swap rows and columns. Together they make the four rotations and the four mirror images.
# The four without a turn map a W x H grid onto itself; the four with one make it H x W.
Symmetry = tuple[bool, bool, bool]
SYMMETRIES: tuple[Symmetry, ...] = tuple((t, r, c) for t, r, c in product((False, True), repeat=3))


def image(puzzle: Puzzle, symmetry: Symmetry) -> Puzzle:
    """Return the puzzle as seen through one symmetry of its grid."""
    turn, flip_rows, flip_cols = symmetry
    w, h = puzzle.cols, puzzle.rows
    islands = []
    for isl in puzzle.islands:
        r = h - 1 - isl.row if flip_rows else isl.row
        c = w - 1 - isl.col if flip_cols else isl.col
        islands.append(Island(c, r, isl.clue) if turn else Island(r, c, isl.clue))
    return Puzzle(h, w, tuple(sorted(islands))) if turn else Puzzle(w, h, tuple(sorted(islands)))


def canonical_key(puzzle: Puzzle) -> str:
    """Return the smallest Tatham ID among the puzzle's eight images: equal for all symmetric copies."""
    return min(format_tatham_id(image(puzzle, s)) for s in SYMMETRIES)
