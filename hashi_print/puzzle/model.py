"""Puzzle and Solution: the frozen values classic Hashiwokakero is made of."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property, lru_cache
from typing import NamedTuple

from hashi_print.errors import PuzzleError, UnsolvableError
from hashi_print.geometry import Geometry, build_geometry


# Cells are named as in a spreadsheet (C4); the model owns the naming so that wording and grading
# need not load the file formats.
def column_letters(col: int) -> str:
    """Return the spreadsheet-style letters of a 0-based column: A..Z, AA, AB, ..."""
    out = ""
    col += 1
    while col:
        col, r = divmod(col - 1, 26)
        out = chr(65 + r) + out
    return out


def cell_name(row: int, col: int) -> str:
    """Name a grid cell as column letter + 1-based row number, e.g. C4."""
    return f"{column_letters(col)}{row + 1}"


class Grade(StrEnum):
    """How hard a puzzle is for a person: the lowest rung of the deduction ladder that solves it."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    EXPERT = "expert"
    BEYOND = "beyond"


# The rungs of the deduction ladder, easiest first: the grades a puzzle is made and sold at.
GRADES = (Grade.EASY, Grade.MEDIUM, Grade.HARD, Grade.EXPERT)


class Status(StrEnum):
    """The solver's verdict on a puzzle: exactly one solution, at least two, or none."""

    UNIQUE = "unique"
    MULTIPLE = "multiple"
    NONE = "none"


@dataclass(frozen=True, order=True)
class Island:
    """A clue on the grid: `clue` bridges must touch the island at (row, col)."""

    row: int
    col: int
    clue: int


class Bridge(NamedTuple):
    """`count` (1 or 2) bridges between (r1, c1) and (r2, c2), the first end before the second.

    A NamedTuple rather than a frozen dataclass: a solution is made of many, and building them as
    dataclasses was a tenth of the time the solver spent on the janko set.
    """

    r1: int
    c1: int
    r2: int
    c2: int
    count: int  # type: ignore[assignment]  # the field hides tuple.count, which nothing here calls

    def as_list(self) -> list[int]:
        """Return the `[r1, c1, r2, c2, k]` form used in JSON."""
        return [self.r1, self.c1, self.r2, self.c2, self.count]


@dataclass(frozen=True)
class Puzzle:
    """A classic Hashiwokakero puzzle: a grid of `cols` x `rows` cells with clued islands in reading order.

    Columns come first, as in the `WxH` of a Tatham ID.
    """

    cols: int
    rows: int
    islands: tuple[Island, ...]

    @classmethod
    def build(cls, cols: int, rows: int, islands: Iterable[tuple[int, int, int]]) -> Puzzle:
        """Make a puzzle from (row, col, clue) triples, checking that it makes sense."""
        items = tuple(Island(*t) for t in sorted((r, c, k) for r, c, k in islands))
        puzzle = cls(cols, rows, items)
        puzzle.check()
        return puzzle

    def check(self) -> None:
        """Raise PuzzleError when the grid or a clue cannot belong to any puzzle."""
        if self.cols < 1 or self.rows < 1:
            raise PuzzleError(f"grid size {self.cols}x{self.rows} must be at least 1x1")
        seen = set()
        for isl in self.islands:
            if not (0 <= isl.row < self.rows and 0 <= isl.col < self.cols):
                raise PuzzleError(f"island at row {isl.row}, column {isl.col} lies outside the "
                                  f"{self.cols}x{self.rows} grid")
            if (isl.row, isl.col) in seen:
                raise PuzzleError(f"two islands at row {isl.row}, column {isl.col}")
            seen.add((isl.row, isl.col))
            if not 1 <= isl.clue <= 8:
                raise PuzzleError(f"clue {isl.clue} at row {isl.row}, column {isl.col} "
                                  "must be between 1 and 8")
        if not self.islands:
            raise PuzzleError("the puzzle has no islands")
        geo = self.geometry
        for i, isl in enumerate(self.islands):
            reach = 2 * len(geo.lanes_of[i])
            if isl.clue > reach:
                raise UnsolvableError(f"clue {isl.clue} at row {isl.row}, column {isl.col} needs more "
                                  f"bridges than its {len(geo.lanes_of[i])} lane(s) can carry")

    @cached_property
    def geometry(self) -> Geometry:
        """The lanes and crossings between this puzzle's islands."""
        return shared_geometry(self.rows, self.cols, tuple((i.row, i.col) for i in self.islands))

    @cached_property
    def clues(self) -> tuple[int, ...]:
        """The clue of each island, by island index."""
        return tuple(i.clue for i in self.islands)


@lru_cache(maxsize=64)
def shared_geometry(rows: int, cols: int, positions: tuple[tuple[int, int], ...]) -> Geometry:
    """Build a geometry once for puzzles that share their islands' places (the generator's repairs do)."""
    return build_geometry(rows, cols, positions)


# Bridge(*row) goes through a Python-level __new__; the tuple constructor takes the row as it is.
_make_bridge = tuple.__new__


@dataclass(frozen=True)
class Solution:
    """The bridges of a solved (or candidate) puzzle, sorted, each lane at most once."""

    bridges: tuple[Bridge, ...]

    @classmethod
    def from_lane_counts(cls, geometry: Geometry, counts: Sequence[int]) -> Solution:
        """Make a solution from a bridge count per lane index."""
        positions = geometry.positions
        # Lanes come in reading order of their first end, across before down, which is the bridges' order.
        return cls(tuple([_make_bridge(Bridge, (*positions[a], *positions[b], c))
                          for (a, b), c in zip(geometry.ends, counts, strict=True) if c]))

    @classmethod
    def from_lists(cls, rows: Iterable[Sequence[int]]) -> Solution:
        """Make a solution from `[r1, c1, r2, c2, k]` rows, ends in any order."""
        out = []
        for r1, c1, r2, c2, k in rows:
            if (r2, c2) < (r1, c1):
                r1, c1, r2, c2 = r2, c2, r1, c1
            out.append((int(r1), int(c1), int(r2), int(c2), int(k)))
        return cls(tuple(_make_bridge(Bridge, row) for row in sorted(out)))

    def lane_counts(self, geometry: Geometry) -> tuple[int, ...]:
        """Return the bridge count per lane index; raise PuzzleError for a bridge on no lane."""
        counts = [0] * len(geometry.lanes)
        lane_at = geometry.lane_at
        for b in self.bridges:
            k = lane_at.get(((b.r1, b.c1), (b.r2, b.c2)))
            if k is None:
                raise PuzzleError(f"no lane joins ({b.r1},{b.c1}) and ({b.r2},{b.c2})")
            counts[k] += b.count
        return tuple(counts)

    def as_lists(self) -> list[list[int]]:
        """Return the JSON form: a list of `[r1, c1, r2, c2, k]`."""
        return [b.as_list() for b in self.bridges]
