"""The puzzles of a book: which sizes and grades to make, generating them, or reading and proving them."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from hashi_print.errors import OptionError, PuzzleError
from hashi_print.options import Order, values
from hashi_print.puzzle.model import GRADES, Grade, Puzzle, Solution, Status

MIXED = "mixed"
MAX_BOOK_PUZZLES = 1000   # more than the largest book a printer takes (828 pages)
# The order of a book: easy to expert (then small to large), or the order the puzzles were made in.
ORDERS = values(Order)
Request = tuple[int, int, Grade]  # one puzzle to make: (cols, rows, grade)


@dataclass(frozen=True)
class BookPuzzle:
    """One puzzle of a book: the puzzle, its unique solution, grade, Tatham ID, seed and generator version."""

    puzzle: Puzzle
    solution: Solution
    grade: Grade
    id: str
    seed: int | None = None
    generator: int | None = None


def parse_size(text: str) -> tuple[int, int]:
    """Read a grid size written as `WxH` (or a single number for a square) as (cols, rows)."""
    from hashi_print.puzzle.generate import MAX_SIDE, MIN_SIDE

    parts = text.strip().lower().replace("×", "x").split("x")
    if not (1 <= len(parts) <= 2 and all(p.isascii() and p.isdigit() and len(p) <= 3 for p in parts)):
        raise OptionError(f"grid size {text[:20]!r}: write it as WxH, for example 10x10")
    cols, rows = int(parts[0]), int(parts[-1])
    if not (MIN_SIDE <= cols <= MAX_SIDE and MIN_SIDE <= rows <= MAX_SIDE):
        raise OptionError(f"grid size {text[:20]!r}: width and height must be {MIN_SIDE} to {MAX_SIDE}")
    return cols, rows


def book_plan_requests(count: int, sizes: Sequence[tuple[int, int]],
                       grade: str) -> list[Request]:
    """Spread `count` puzzles over the sizes and grades asked for, round-robin (the generation order)."""
    if count < 1:
        raise OptionError(f"--count {count}: a book needs at least one puzzle")
    if grade != MIXED and grade not in GRADES:
        raise OptionError(f"difficulty {grade!r}: use {', '.join(GRADES)} or {MIXED}")
    grades = GRADES if grade == MIXED else (Grade(grade),)
    out = []
    for i in range(count):
        cols, rows = sizes[(i // len(grades)) % len(sizes)]
        out.append((cols, rows, grades[i % len(grades)]))
    return out


def generate_puzzles(requests: Sequence[Request], seed: int, density: float | str | None = None,
                     progress: Callable[[int], None] | None = None,
                     version: int | None = None) -> Iterator[BookPuzzle]:
    """Generate the requested puzzles from one seeded random stream (with generator `version`, default the
    current one), reporting after each."""
    from hashi_print.puzzle.formats import format_tatham_id
    from hashi_print.puzzle.generate import GENERATOR_VERSION, generate

    rng = random.Random(seed)
    for done, (cols, rows, grade) in enumerate(requests, 1):
        g = generate(cols, rows, grade, rng, density, version=version or GENERATOR_VERSION)
        yield BookPuzzle(g.puzzle, g.solution, g.grade, format_tatham_id(g.puzzle), g.seed, g.generator)
        if progress is not None:
            progress(done)


def load_puzzles(path: str | Path, progress: Callable[[int], None] | None = None) -> list[BookPuzzle]:
    """Read puzzles (IDs, URLs or JSON lines) from a file, solve each, and refuse any that is not unique."""
    from hashi_print.puzzle.deduce import grade
    from hashi_print.puzzle.formats import format_tatham_id, read_puzzle_lines
    from hashi_print.puzzle.solve import solve

    out = []
    for done, (line, puzzle, given, extra) in enumerate(read_puzzle_lines(path), 1):
        result = solve(puzzle)
        if result.status is not Status.UNIQUE or result.solution is None:
            what = "has no solution" if result.status is Status.NONE else "has more than one solution"
            raise PuzzleError(f"the puzzle {what}; a book needs puzzles with exactly one",
                              source=str(path), line=line)
        if given is not None and given != result.solution:
            raise PuzzleError("the solution given with the puzzle is not its (unique) solution",
                              source=str(path), line=line)
        stated = extra.get("difficulty")
        if isinstance(stated, str) and stated in GRADES:
            got = Grade(stated)
        else:
            # A unique puzzle beyond the ladder is still sold as expert.
            got = grade(puzzle)
            got = got if got in GRADES else Grade.EXPERT
        stated_seed, stated_generator = extra.get("seed"), extra.get("generator")
        seed = stated_seed if isinstance(stated_seed, int) else None
        made_by = stated_generator if isinstance(stated_generator, int) else None
        out.append(BookPuzzle(puzzle, result.solution, got, format_tatham_id(puzzle), seed, made_by))
        if progress is not None:
            progress(done)
    return out


def order_puzzles(puzzles: Sequence[BookPuzzle], order: str) -> list[BookPuzzle]:
    """Put the puzzles in book order: easy to expert (then small to large), or as generated."""
    if order not in ORDERS:
        raise OptionError(f"unknown order {order!r}: use {' or '.join(ORDERS)}")
    if order == "as-generated":
        return list(puzzles)
    rank = {d: i for i, d in enumerate(GRADES)}

    def key(bp: BookPuzzle) -> tuple[int, int, int, int]:
        """Sort by grade, then by grid area, then by shape, so equal sizes stay together."""
        return rank.get(bp.grade, len(rank)), bp.puzzle.cols * bp.puzzle.rows, bp.puzzle.cols, bp.puzzle.rows

    return sorted(puzzles, key=key)
