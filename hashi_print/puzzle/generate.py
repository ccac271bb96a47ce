"""Seeded puzzle generation: grow an archipelago with its bridges, prove it unique, repair, grade.

An attempt grows islands and bridges together, so a connected solution exists by construction and
the clues are its bridge sums. The SAT solver is asked for a solution other than the grown one; when
it finds one, the attempt changes the layout where the two solutions differ and asks again (a
repair). Only unique candidates are graded, and only the requested grade is kept. Every attempt
draws its own seed from the caller's `random.Random`, and that seed alone rebuilds the puzzle.

Generator versions: 1 is the generator before islands had to fill the grid; 2 puts islands on the
first and last row and column and keeps a minimum island count per grade; 3 (the current one) grows
and grades as 2 does but asks the solver for a second solution after root propagation (`presolve`),
which returns other second solutions and so makes other repairs. All stay selectable, so a seed
recorded with its version always rebuilds the same puzzle.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from itertools import compress
from operator import ne

from hashi_print.errors import PuzzleError
from hashi_print.geometry import Geometry
from hashi_print.puzzle.model import GRADES, Bridge, Grade, Island, Puzzle, Solution

Cell = tuple[int, int]

DENSITIES = {"sparse": 0.18, "normal": 0.24, "dense": 0.32}
DEFAULT_DENSITY = 0.2
MIN_SIDE, MAX_SIDE = 5, 40

# Named reasons an attempt is thrown away (the keys of GenerationStats.rejections).
REJECT_GROWTH = "grew too few islands"
REJECT_EDGES = "left an edge row or column empty"
REJECT_NOT_UNIQUE = "not unique"
REJECT_TOO_EASY = "too easy"
REJECT_TOO_HARD = "too hard"
REJECT_FAILED_CHECK = "failed check"
REASONS = (REJECT_GROWTH, REJECT_EDGES, REJECT_NOT_UNIQUE, REJECT_TOO_EASY, REJECT_TOO_HARD,
           REJECT_FAILED_CHECK)

# Growth style per grade: (chance of a double bridge, chance of closing a loop). Doubles and
# tree-like solutions give full islands and forced lanes; singles and loops leave choices open.
STYLES = {"easy": (0.8, 0.0), "medium": (0.35, 0.12), "hard": (0.2, 0.4), "expert": (0.05, 0.8)}
MAX_REPAIRS = 40
SEED_BITS = 48
_DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0))
# The generator's version, recorded with every puzzle; each version ever shipped can still be asked for.
GENERATOR_VERSION = 3
GENERATOR_VERSIONS = (1, 2, 3)
# Version 2: the least share of a grid's cells that are islands, per grade, whatever the density, so a
# hard or expert puzzle is never a handful of islands (a 7x7 expert has at least 10).
MIN_ISLAND_SHARE = {"easy": 0.16, "medium": 0.18, "hard": 0.2, "expert": 0.2}


@dataclass(frozen=True)
class GeneratedPuzzle:
    """A unique puzzle of a known grade, its solution and the attempt seed that rebuilds it."""

    puzzle: Puzzle
    solution: Solution
    grade: Grade
    seed: int
    density: float
    repairs: int
    generator: int = GENERATOR_VERSION

    def to_json(self) -> dict[str, object]:
        """Return the `generate --json` object: `hashi-puzzle/1` plus density and generator version."""
        from hashi_print.puzzle.formats import puzzle_to_json

        return puzzle_to_json(self.puzzle, self.solution, self.grade, self.seed) | {
            "density": self.density, "generator": self.generator}


@dataclass
class GenerationStats:
    """Running totals over attempts: rejections by reason, repairs, solver and grader calls."""

    attempts: int = 0
    repairs: int = 0
    solver_calls: int = 0
    grader_calls: int = 0
    rejections: Counter[str] = field(default_factory=Counter)

    def summary(self) -> str:
        """Say in one line how many attempts it took and why the others were rejected."""
        why = ", ".join(f"{n} {reason}" for reason, n in sorted(self.rejections.items())) or "none"
        return (f"{self.attempts} attempts, {self.repairs} repairs, {self.solver_calls} solver calls, "
                f"{self.grader_calls} grader calls; rejected: {why}")


@dataclass(frozen=True)
class Settings:
    """What is being asked for: grid size, grade, island density and the shape of the growth."""

    cols: int
    rows: int
    grade: Grade
    density: float
    version: int = GENERATOR_VERSION

    @property
    def max_repairs(self) -> int:
        """How many changes one attempt may make before it gives up on uniqueness."""
        return max(MAX_REPAIRS, self.target_islands // 4)

    @property
    def doubles(self) -> float:
        """The chance that a grown bridge is doubled."""
        return STYLES[self.grade][0]

    @property
    def loops(self) -> float:
        """The chance that two unbridged neighbours get bridged after growth, closing a loop."""
        return STYLES[self.grade][1]

    def bridges(self, rng: random.Random) -> int:
        """Draw the count of a new bridge."""
        return 2 if rng.random() < self.doubles else 1

    @property
    def target_islands(self) -> int:
        """How many islands the growth aims for: the density's share, and (version 2) the grade's minimum."""
        return max(2, round(self.density * self.cols * self.rows), self.min_islands)

    @property
    def min_islands(self) -> int:
        """The fewest islands a kept puzzle may have (version 1: none beyond 85 % of the target)."""
        if self.version == 1:
            return 0
        return min_islands(self.cols, self.rows, self.grade)

    @property
    def fills_grid(self) -> bool:
        """Whether islands must sit on the first and last row and column (version 2 on)."""
        return self.version >= 2


def min_islands(cols: int, rows: int, grade: str) -> int:
    """The fewest islands a puzzle of this size and grade has (generator version 2)."""
    return math.ceil(MIN_ISLAND_SHARE[grade] * cols * rows)


def fills_grid(puzzle: Puzzle) -> bool:
    """Whether the puzzle has an island on its first and last row and on its first and last column."""
    rows = {i.row for i in puzzle.islands}
    cols = {i.col for i in puzzle.islands}
    return {0, puzzle.rows - 1} <= rows and {0, puzzle.cols - 1} <= cols


def resolve_density(density: float | str | None) -> float:
    """Turn a density name or fraction of cells into a fraction, or raise PuzzleError."""
    if density is None:
        return DEFAULT_DENSITY
    if isinstance(density, str):
        if density in DENSITIES:
            return DENSITIES[density]
        try:
            density = float(density)
        except ValueError:
            names = ", ".join(DENSITIES)
            raise PuzzleError(f"density {density!r} is neither a fraction nor one of {names}") from None
    if not 0.05 <= density <= 0.4:
        raise PuzzleError(f"density {density} must lie between 0.05 and 0.4 (the fraction of cells "
                          "that are islands)")
    return float(density)


def check_version(version: int) -> int:
    """Return the generator version, or raise PuzzleError when no such version exists."""
    if version not in GENERATOR_VERSIONS:
        raise PuzzleError(f"generator version {version} does not exist; use "
                          f"{' or '.join(map(str, GENERATOR_VERSIONS))}")
    return version


def check_request(cols: int, rows: int, grade: str) -> None:
    """Raise PuzzleError when the size or grade cannot be generated."""
    # Named as the command's options and the puzzle JSON name them: width (columns), height (rows).
    for name, value in (("width", cols), ("height", rows)):
        if not MIN_SIDE <= value <= MAX_SIDE:
            raise PuzzleError(f"{name} {value} must be between {MIN_SIDE} and {MAX_SIDE}")
    if grade not in GRADES:
        raise PuzzleError(f"difficulty {grade!r} must be one of {', '.join(GRADES)}")


class _Archipelago:
    """Islands and bridges being grown on a grid; mutable, private to one attempt."""

    def __init__(self, cols: int, rows: int):
        self.cols = cols
        self.rows = rows
        self.islands: list[Cell] = []
        self.is_island: set[Cell] = set()
        self.bridges: dict[tuple[Cell, Cell], int] = {}
        self.bridge_at: dict[Cell, tuple[Cell, Cell]] = {}

    def inside(self, cell: Cell) -> bool:
        """Tell whether a cell lies on the grid."""
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def free(self, cell: Cell) -> bool:
        """Tell whether a cell holds neither an island nor a bridge."""
        return cell not in self.is_island and cell not in self.bridge_at

    def has_island_beside(self, cell: Cell) -> bool:
        """Tell whether an island touches the cell's side."""
        r, c = cell
        near = self.is_island
        return (r, c + 1) in near or (r + 1, c) in near or (r, c - 1) in near or (r - 1, c) in near

    def add_island(self, cell: Cell) -> None:
        """Put an island on a free cell."""
        self.islands.append(cell)
        self.is_island.add(cell)

    def between(self, a: Cell, b: Cell) -> list[Cell]:
        """The cells strictly between two cells of one row or column."""
        (r1, c1), (r2, c2) = a, b
        if r1 == r2:
            lo, hi = sorted((c1, c2))
            return [(r1, c) for c in range(lo + 1, hi)]
        lo, hi = sorted((r1, r2))
        return [(r, c1) for r in range(lo + 1, hi)]

    def can_bridge(self, a: Cell, b: Cell) -> bool:
        """Tell whether a new bridge from a to b would pass only over open water."""
        return all(self.free(cell) for cell in self.between(a, b))

    def set_bridge(self, a: Cell, b: Cell, count: int) -> None:
        """Set the bridges between two islands to 0, 1 or 2, keeping the cell index in step."""
        key = (min(a, b), max(a, b))
        if count:
            if key not in self.bridges:
                for cell in self.between(a, b):
                    self.bridge_at[cell] = key
            self.bridges[key] = count
        elif key in self.bridges:
            del self.bridges[key]
            for cell in self.between(a, b):
                del self.bridge_at[cell]

    def split_bridge(self, cell: Cell, first: int, second: int) -> None:
        """Put an island on a bridge's water, leaving `first` and `second` bridges on its two halves."""
        a, b = self.bridge_at[cell]
        self.set_bridge(a, b, 0)
        self.add_island(cell)
        self.set_bridge(a, cell, first)
        self.set_bridge(cell, b, second)

    def ray(self, start: Cell, direction: Cell) -> Iterator[Cell]:
        """The cells from `start` (exclusive) to the grid edge in one direction."""
        r, c = start
        dr, dc = direction
        r, c = r + dr, c + dc
        while self.inside((r, c)):
            yield (r, c)
            r, c = r + dr, c + dc

    def neighbour(self, cell: Cell, direction: Cell) -> Cell | None:
        """The first island seen from `cell` in a direction, if only open water lies between."""
        for here in self.ray(cell, direction):
            if here in self.is_island:
                return here
            if here in self.bridge_at:
                return None
        return None

    def layout(self, geometry: Geometry) -> tuple[list[int], list[int]]:
        """The clue of each island and the bridges on each lane of `geometry` (built on these islands)."""
        lane_at = geometry.lane_at
        ends = geometry.ends
        clues = [0] * len(geometry.positions)
        counts = [0] * len(geometry.lanes)
        # A bridge's key is its two ends in reading order, as lane_at's keys are.
        for key, k in self.bridges.items():
            lane = lane_at[key]
            counts[lane] = k
            i, j = ends[lane]
            clues[i] += k
            clues[j] += k
        return clues, counts

    def to_puzzle(self) -> tuple[Puzzle, Solution]:
        """Freeze the archipelago into a puzzle (clues = bridge sums) and its solution."""
        clues: Counter[tuple[int, int]] = Counter()
        for (a, b), k in self.bridges.items():
            clues[a] += k
            clues[b] += k
        # Clues are sums of bridges the grid holds, so the checks of Puzzle.build cannot fail here;
        # skipping them (and the normalising of from_lists) was a tenth of the repair loop.
        islands = tuple(Island(r, c, clues[(r, c)]) for r, c in sorted(self.islands))
        puzzle = Puzzle(self.cols, self.rows, islands)
        # Keys are (first end, second end) in reading order already.
        solution = Solution(tuple(Bridge(*a, *b, k) for (a, b), k in sorted(self.bridges.items())))
        return puzzle, solution


def grow(settings: Settings, rng: random.Random) -> _Archipelago:
    """Grow islands from a random start, each new island bridged to an old one, then add loops."""
    arch = _Archipelago(settings.cols, settings.rows)
    arch.add_island((rng.randrange(settings.rows), rng.randrange(settings.cols)))
    target = settings.target_islands
    longest = max(3, min(8, (max(settings.cols, settings.rows) + 1) // 2))
    # Growth only ever fills water, so an island and direction without room never get it back: such
    # draws are remembered and not scanned again (the draws themselves, and so the puzzles, stay).
    # Islands are only appended, so 4 * (index of the island) + (index of the direction) names a pair.
    full: set[int] = set()
    failures = 0
    most_failures = 30 + 10 * target
    islands = arch.islands
    bits = rng.getrandbits
    count = len(islands)
    width = count.bit_length()
    while count < target and failures < most_failures:
        # rng.choice(islands) and rng.choice(_DIRECTIONS), drawn as Random.choice draws them (see
        # _index), inline: these draws were a sixth of a generator's time.
        pick = bits(width)
        while pick >= count:
            pick = bits(width)
        turn = bits(3)
        while turn >= 4:
            turn = bits(3)
        key = 4 * pick + turn
        if key in full:
            failures += 1
            continue
        origin = islands[pick]
        spots = _spots(arch, origin, _DIRECTIONS[turn], longest)
        if not spots:
            full.add(key)
            failures += 1
            continue
        spot = spots[_index(bits, len(spots))]
        arch.add_island(spot)
        arch.set_bridge(origin, spot, settings.bridges(rng))
        count += 1
        width = count.bit_length()
    if settings.fills_grid:
        _reach_edges(arch, settings, rng)
    _fill(arch, settings, rng)
    _add_loops(arch, settings, rng)
    return arch


def _index(bits: Callable[[int], int], count: int) -> int:
    """The index `Random.choice` draws from `count` items: the draws of Random._randbelow_with_getrandbits.

    tests/puzzle/test_generate.py checks that this is rng.choice's index on this Python.
    """
    width = count.bit_length()
    pick = bits(width)
    while pick >= count:
        pick = bits(width)
    return pick


def _fill(arch: _Archipelago, settings: Settings, rng: random.Random) -> None:
    """Pack islands into the water left over until the target is met, each bridged to a neighbour."""
    target = settings.target_islands
    cells = [(r, c) for r in range(arch.rows) for c in range(arch.cols)]
    rng.shuffle(cells)
    added = True
    while added and len(arch.islands) < target:
        added = False
        for cell in cells:
            if len(arch.islands) >= target:
                return
            if cell in arch.is_island or arch.has_island_beside(cell):
                continue
            if cell in arch.bridge_at:
                arch.split_bridge(cell, settings.bridges(rng), settings.bridges(rng))
                added = True
                continue
            others = [n for d in _DIRECTIONS if (n := arch.neighbour(cell, d)) is not None]
            if others:
                arch.add_island(cell)
                arch.set_bridge(cell, rng.choice(others), settings.bridges(rng))
                added = True


def _edge_cells(arch: _Archipelago) -> list[list[Cell]]:
    """The cells of the first and last row and column, one list per edge."""
    r, c = arch.rows - 1, arch.cols - 1
    return [[(0, k) for k in range(arch.cols)], [(r, k) for k in range(arch.cols)],
            [(k, 0) for k in range(arch.rows)], [(k, c) for k in range(arch.rows)]]


def _reach_edges(arch: _Archipelago, settings: Settings, rng: random.Random) -> None:
    """Put an island on every edge row and column that has none, bridged to an island it can see.

    A puzzle whose outer rows or columns are empty is really a smaller grid than its label.
    """
    for edge in _edge_cells(arch):
        if any(cell in arch.is_island for cell in edge):
            continue
        cells = list(edge)
        rng.shuffle(cells)
        for cell in cells:
            if cell in arch.is_island or arch.has_island_beside(cell):
                continue
            if cell in arch.bridge_at:
                arch.split_bridge(cell, settings.bridges(rng), settings.bridges(rng))
                break
            others = [n for d in _DIRECTIONS if (n := arch.neighbour(cell, d)) is not None]
            if others:
                arch.add_island(cell)
                arch.set_bridge(cell, rng.choice(others), settings.bridges(rng))
                break


def _spots(arch: _Archipelago, origin: Cell, direction: Cell, longest: int) -> list[Cell]:
    """Cells along a ray where a new island could sit, bridged straight back to `origin`.

    Islands never touch side by side: hand-made books avoid it even at a third of the cells.
    """
    out = []
    (r, c), (dr, dc) = origin, direction
    rows, cols, near, bridged = arch.rows, arch.cols, arch.is_island, arch.bridge_at
    # arch.inside, arch.free and arch.has_island_beside written out: growth calls this for every draw.
    for _ in range(longest):
        r, c = r + dr, c + dc
        cell = (r, c)
        if not (0 <= r < rows and 0 <= c < cols) or cell in near or cell in bridged:
            break
        if not ((r, c + 1) in near or (r + 1, c) in near or (r, c - 1) in near or (r - 1, c) in near):
            out.append(cell)
    return out


def _add_loops(arch: _Archipelago, settings: Settings, rng: random.Random) -> None:
    """Bridge some unbridged neighbours, closing loops, so that a solution is not simply a tree."""
    for cell in list(arch.islands):
        for direction in ((0, 1), (1, 0)):
            other = arch.neighbour(cell, direction)
            if other is None or (min(cell, other), max(cell, other)) in arch.bridges:
                continue
            if rng.random() < settings.loops and arch.can_bridge(cell, other):
                arch.set_bridge(cell, other, settings.bridges(rng))


def repair(arch: _Archipelago, puzzle: Puzzle, ours: Solution, other: Solution, rng: random.Random) -> int:
    """Change the layout in each region where a second solution differs from ours; return the changes."""
    geo = puzzle.geometry
    return repair_lanes(arch, geo, ours.lane_counts(geo), other.lane_counts(geo), rng)


def repair_lanes(arch: _Archipelago, geo: Geometry, mine: Sequence[int], theirs: Sequence[int],
                 rng: random.Random) -> int:
    """`repair` on the two solutions' bridges per lane of `geo`."""
    differ = list(compress(range(len(geo.lanes)), map(ne, mine, theirs)))
    changes = 0
    for region in geo.components(differ):
        if len(region) < 2:
            continue
        inside = set(region)
        lanes = [k for k in differ if geo.lanes[k].a in inside]
        changes += _repair_region(arch, geo, lanes, mine, rng)
    return changes


def _repair_region(arch: _Archipelago, geo: Geometry, lanes: list[int], mine: Sequence[int],
                   rng: random.Random) -> int:
    """Make one change on one of a region's differing lanes; return 1 when something changed.

    Any change of a clue the other solution relied on rules that solution out; a new island on a lane
    the other solution bridged rules it out too, and breaks up the choice it had.
    """
    rng.shuffle(lanes)
    for k in lanes:
        lane = geo.lanes[k]
        a, b = geo.positions[lane.a], geo.positions[lane.b]
        if mine[k]:
            arch.set_bridge(a, b, 3 - mine[k])
            return 1
        if rng.random() < 0.5 and arch.can_bridge(a, b):
            arch.set_bridge(a, b, 1)
            return 1
        if _split_lane(arch, lane.cells, rng):
            return 1
        if arch.can_bridge(a, b):
            arch.set_bridge(a, b, 1)
            return 1
    return 0


def _split_lane(arch: _Archipelago, cells: tuple[Cell, ...], rng: random.Random) -> bool:
    """Put a new island on an unbridged lane's water and bridge it to one of its neighbours."""
    spots = [cell for cell in cells if arch.free(cell) and not arch.has_island_beside(cell)]
    rng.shuffle(spots)
    for spot in spots:
        directions = list(_DIRECTIONS)
        rng.shuffle(directions)
        for direction in directions:
            other = arch.neighbour(spot, direction)
            if other is not None:
                arch.add_island(spot)
                arch.set_bridge(spot, other, 1)
                return True
    return False


def attempt(settings: Settings, seed: int, stats: GenerationStats,
            grade: Callable[[Puzzle], Grade] | None = None) -> GeneratedPuzzle | str:
    """Run one seeded attempt: a generated puzzle, or the name of the reason it was rejected."""
    rng = random.Random(seed)
    stats.attempts += 1
    arch = grow(settings, rng)
    if len(arch.islands) < max(0.85 * settings.target_islands, settings.min_islands):
        return REJECT_GROWTH
    if settings.fills_grid and not all(any(c in arch.is_island for c in edge) for edge in _edge_cells(arch)):
        return REJECT_EDGES
    unique = _make_unique(arch, settings, rng, stats)
    if isinstance(unique, int):
        return REJECT_NOT_UNIQUE
    puzzle, solution, repairs = unique
    stats.grader_calls += 1
    got = _grade(puzzle, settings.grade, grade)
    if got is None:
        return REJECT_TOO_HARD
    if GRADES.index(got) < GRADES.index(settings.grade):
        return REJECT_TOO_EASY
    return GeneratedPuzzle(puzzle, solution, Grade(got), seed, settings.density, repairs, settings.version)


def _grade(puzzle: Puzzle, wanted: Grade, grader: Callable[[Puzzle], Grade] | None) -> Grade | None:
    """The puzzle's grade, or None when it is harder than `wanted` (the deducer stops at that rung)."""
    if grader is None:
        from hashi_print.puzzle.deduce import grade_within

        return grade_within(puzzle, wanted)
    got = grader(puzzle)
    return got if list(Grade).index(got) <= GRADES.index(wanted) else None


def _make_unique(arch: _Archipelago, settings: Settings, rng: random.Random,
                 stats: GenerationStats) -> tuple[Puzzle, Solution, int] | int:
    """Repair until the solver finds no second solution; the puzzle, or the changes spent on failing."""
    if settings.version >= 3:
        return _make_unique_incremental(arch, settings, rng, stats)
    from hashi_print.puzzle.solve import other_solution

    budget = settings.max_repairs
    changes = 0
    while True:
        puzzle, solution = arch.to_puzzle()
        stats.solver_calls += 1
        # The repairs follow whichever second solution the solver returns, so versions 1 and 2 keep
        # the fresh solver and whole formula (sat.encode) they were made with.
        other = other_solution(puzzle, solution, presolved=False)
        if other is None:
            return puzzle, solution, changes
        made = repair(arch, puzzle, solution, other, rng) if changes < budget else 0
        if not made:
            return changes
        changes += made
        stats.repairs += made


def _make_unique_incremental(arch: _Archipelago, settings: Settings, rng: random.Random,
                             stats: GenerationStats) -> tuple[Puzzle, Solution, int] | int:
    """Version 3's repair loop: one incremental solver while the islands stay where they are.

    Each question is asked on the clues and lane counts read off the layout; the puzzle and its
    solution are made once, when it is unique (making them per question was a sixth of the loop).
    """
    from hashi_print.puzzle.model import shared_geometry
    from hashi_print.puzzle.repair_solver import RepairSolver

    budget = settings.max_repairs
    changes = 0
    with ExitStack() as stack:
        checker: RepairSolver | None = None
        placed = -1
        while True:
            if len(arch.islands) != placed:
                # Islands are only ever added, so their count tells when the geometry must be rebuilt.
                placed = len(arch.islands)
                geo = shared_geometry(arch.rows, arch.cols, tuple(sorted(arch.islands)))
            clues, mine = arch.layout(geo)
            stats.solver_calls += 1
            if checker is None or checker.geometry is not geo:
                checker = stack.enter_context(RepairSolver(geo))
            theirs = checker.other_counts(clues, mine)
            if theirs is None:
                puzzle, solution = arch.to_puzzle()
                return puzzle, solution, changes
            made = repair_lanes(arch, geo, mine, theirs, rng) if changes < budget else 0
            if not made:
                return changes
            changes += made
            stats.repairs += made


def verify(generated: GeneratedPuzzle) -> list[str]:
    """Re-check a generated puzzle the independent way: checker on the solution, solver from scratch."""
    from hashi_print.puzzle.check import check_solution
    from hashi_print.puzzle.solve import solve

    problems = [str(p) for p in check_solution(generated.puzzle, generated.solution)]
    result = solve(generated.puzzle)
    if result.status != "unique":
        problems.append(f"the solver says {result.status}")
    elif result.solution != generated.solution:
        problems.append("the solver's solution is not the stored one")
    return problems


def generate(cols: int, rows: int, grade: str, rng: random.Random,
             density: float | str | None = None, *, stats: GenerationStats | None = None,
             max_attempts: int = 2000, grader: Callable[[Puzzle], Grade] | None = None,
             version: int = GENERATOR_VERSION) -> GeneratedPuzzle:
    """Generate one unique puzzle of exactly the requested grade, re-verified before it is returned."""
    check_request(cols, rows, grade)
    settings = Settings(cols, rows, Grade(grade), resolve_density(density), check_version(version))
    stats = stats if stats is not None else GenerationStats()
    for _ in range(max_attempts):
        result = attempt(settings, rng.getrandbits(SEED_BITS), stats, grader)
        if isinstance(result, str):
            stats.rejections[result] += 1
            continue
        if verify(result):
            stats.rejections[REJECT_FAILED_CHECK] += 1
            continue
        return result
    raise PuzzleError(f"no {grade} {cols}x{rows} puzzle after {max_attempts} attempts "
                      f"({stats.summary()}); try a larger grid or another density")


def regenerate(cols: int, rows: int, grade: str, seed: int, density: float | str | None = None,
               version: int = GENERATOR_VERSION) -> GeneratedPuzzle | str:
    """Rebuild the puzzle of one stored attempt seed and generator version (or why it was rejected)."""
    check_request(cols, rows, grade)
    settings = Settings(cols, rows, Grade(grade), resolve_density(density), check_version(version))
    return attempt(settings, seed, GenerationStats())


def generate_many(cols: int, rows: int, grade: str, count: int, rng: random.Random,
                  density: float | str | None = None, *, stats: GenerationStats | None = None,
                  progress: Callable[[int, GenerationStats], None] | None = None,
                  max_attempts: int = 2000, version: int = GENERATOR_VERSION) -> Iterator[GeneratedPuzzle]:
    """Yield `count` puzzles one after another from one random stream, reporting progress after each."""
    stats = stats if stats is not None else GenerationStats()
    for done in range(1, count + 1):
        yield generate(cols, rows, grade, rng, density, stats=stats, max_attempts=max_attempts,
                       version=version)
        if progress is not None:
            progress(done, stats)
