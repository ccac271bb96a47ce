"""The SAT encoding of a Hashiwokakero puzzle: the domain goes in, clauses and a decoder come out.

Each lane has two variables, e1 (at least one bridge) and e2 (a second bridge) with e2 -> e1, so
every arrangement of bridges has exactly one model. Clue counts are cardinality constraints over
those variables, crossing lanes exclude each other, and connectivity is either left to lazy cuts
(`lazy`) or encoded up front as layered reachability from the first island (`eager`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import chain, product
from operator import add, itemgetter, neg

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from hashi_print.errors import PuzzleError
from hashi_print.geometry import Geometry, crossing_pairs, group_roots
from hashi_print.options import Backend, CardEncoding, Mode, values
from hashi_print.puzzle.model import Puzzle

MODES = values(Mode)
CARDINALITIES = values(CardEncoding)
BACKENDS = values(Backend)
# The eager reachability encoding grows with the square of the island count; a 40x40 lattice of 400
# islands makes 1.3 million clauses and needs about 0.45 GB while it is built (bench: 330 bytes each).
MAX_EAGER_CLAUSES = 2_000_000
EAGER_BYTES = 330


@dataclass(frozen=True)
class Encoding:
    """The clauses of a puzzle and the variables that carry its bridges."""

    clauses: tuple[tuple[int, ...], ...]
    e1: tuple[int, ...]
    e2: tuple[int, ...]


def encode(puzzle: Puzzle, mode: str = "lazy", card: str = "direct") -> Encoding:
    """Encode a puzzle's lanes, clues, crossings (and, in eager mode, connectivity) as CNF."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}")
    geo = puzzle.geometry
    n = len(geo.lanes)
    # Lane k's variables are k+1 (e1) and n+k+1 (e2); auxiliary variables come after them.
    e1 = tuple(range(1, n + 1))
    e2 = tuple(range(n + 1, 2 * n + 1))
    clauses: list[tuple[int, ...]] = []
    clauses += lane_clauses(e1, e2)
    clauses += crossing_clauses(geo, e1)
    clauses += pair_clauses(puzzle, e1, e2)
    pool = IDPool(start_from=2 * n + 1)
    if card == "direct":
        clauses += direct_clue_clauses(geo, puzzle.clues, e1, e2)
    else:
        for i, clue in enumerate(puzzle.clues):
            clauses += map(tuple, clue_clauses(geo, i, clue, e1, e2, pool, card))
    if mode == "eager":
        check_eager_size(geo)
        clauses += map(tuple, reachability_clauses(geo, e1, pool))
    return Encoding(tuple(clauses), e1, e2)


def lane_clauses(e1: Sequence[int], e2: Sequence[int]) -> list[tuple[int, ...]]:
    """A second bridge needs a first one: e2 -> e1 on every lane."""
    return [(-b, a) for a, b in zip(e1, e2, strict=True)]


def crossing_clauses(geo: Geometry, e1: Sequence[int]) -> list[tuple[int, ...]]:
    """Two crossing lanes never both carry bridges."""
    return [(-e1[h], -e1[v]) for h, v in crossing_pairs(geo)]


def pair_clauses(puzzle: Puzzle, e1: Sequence[int], e2: Sequence[int]) -> list[tuple[int, ...]]:
    """Rule out pairs that would close a group on their own: 1-1 joined, 2=2 doubled."""
    if len(puzzle.islands) <= 2:
        return []
    clues = puzzle.clues
    out: list[tuple[int, ...]] = []
    for lane in puzzle.geometry.lanes:
        a, b = clues[lane.a], clues[lane.b]
        if a == b == 1:
            out.append((-e1[lane.index],))
        elif a == b == 2:
            out.append((-e2[lane.index],))
    return out


def clue_clauses(geo: Geometry, island: int, clue: int, e1: Sequence[int], e2: Sequence[int],
                 pool: IDPool, card: str = "seqcounter") -> list[list[int]]:
    """Exactly `clue` of the island's lane variables are true (a pysat cardinality encoding)."""
    lits = [v for k in geo.lanes_of[island] for v in (e1[k], e2[k])]
    if clue > len(lits):
        return [[]]
    if clue == len(lits):
        return [[v] for v in lits]
    if clue == 0:
        return [[-v] for v in lits]
    cnf = CardEnc.equals(lits=lits, bound=clue, vpool=pool, encoding=getattr(EncType, card))
    clauses: list[list[int]] = cnf.clauses
    return clauses


def direct_clue_clauses(geo: Geometry, clues: Sequence[int], e1: Sequence[int],
                        e2: Sequence[int]) -> list[tuple[int, ...]]:
    """Exactly `clue` bridges touch each island, as clauses over its lanes' e1/e2 alone (no new variables)."""
    # The four literals of each lane, in the order the compiled templates index them.
    quads = list(zip(e1, e2, map(neg, e1), map(neg, e2), strict=True))
    out: list[tuple[int, ...]] = []
    for lanes, clue in zip(geo.lanes_of, clues, strict=True):
        pick, cuts = _direct_plan(len(lanes), clue)
        flat = pick(list(chain.from_iterable(map(quads.__getitem__, lanes))))
        out += map(flat.__getitem__, cuts)
    return out


@cache
def _direct_plan(degree: int, clue: int) -> tuple[Callable[[Sequence[int]], tuple[int, ...]],
                                                  tuple[slice, ...]]:
    """An island's clause templates compiled once: a picker of all their literals and each clause's slice.

    The picker reads the four literals (e1, e2, -e1, -e2) of each lane in turn and returns every
    clause's literals in one flat tuple; the slices cut it back into clauses.
    """
    return _compile(_direct_templates(degree, clue), None)


@cache
def guarded_plan(degree: int, clue: int) -> tuple[Callable[[Sequence[int]], tuple[int, ...]],
                                                  tuple[slice, ...]]:
    """`_direct_plan` with one more literal read after the lanes' and put at the end of every clause."""
    return _compile(_direct_templates(degree, clue), 4 * degree)


def _compile(templates: Sequence[Sequence[tuple[int, int, int]]],
             guard: int | None) -> tuple[Callable[[Sequence[int]], tuple[int, ...]], tuple[slice, ...]]:
    """Compile clause templates into one picker over a table of literals and the slices of its clauses."""
    flat: list[int] = []
    cuts = []
    for template in templates:
        start = len(flat)
        flat += [4 * pos + level - 1 + (2 if sign < 0 else 0) for pos, level, sign in template]
        if guard is not None:
            flat.append(guard)
        cuts.append(slice(start, len(flat)))
    if len(flat) > 1:
        return itemgetter(*flat), tuple(cuts)

    def pick(table: Sequence[int]) -> tuple[int, ...]:
        """Pick the one literal or none (itemgetter needs two to return a tuple)."""
        return tuple(table[j] for j in flat)
    return pick, tuple(cuts)


@cache
def _direct_templates(degree: int, clue: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Clause templates (lane position, 1 for e1 or 2 for e2, sign) for `degree` lanes summing to `clue`.

    At most: every way to reach clue+1 with per-lane counts 0-2 is forbidden (one clause each).
    At least: every way to stop at clue-1 is forbidden: some lane must go beyond it.
    Both families are minimal, so unit propagation alone keeps the count in range.
    """
    out = []
    for counts in product(range(3), repeat=degree):
        if sum(counts) == clue + 1:
            out.append(tuple((pos, c, -1) for pos, c in enumerate(counts) if c))
        if sum(counts) == clue - 1:
            out.append(tuple((pos, c + 1, 1) for pos, c in enumerate(counts) if c < 2))
    if clue > 2 * degree:
        out.append(())
    return tuple(out)


def reachability_clauses(geo: Geometry, e1: Sequence[int], pool: IDPool) -> list[list[int]]:
    """Every island is reached from island 0 within n-1 steps over built lanes (eager connectivity)."""
    n = len(geo.positions)
    if n <= 1:
        return []
    reach = lane_distances(geo, 0)
    dist = [d for d in reach if d is not None]
    if len(dist) < n:
        return [[]]
    steps = n - 1

    def r(i: int, t: int) -> int | None:
        """Variable: island i is reached within t steps (None when it cannot be yet)."""
        if t < dist[i]:
            return None
        if i == 0:
            return None
        var: int = pool.id(("r", i, t))
        return var

    out: list[list[int]] = []
    for t in range(1, steps + 1):
        for i in range(1, n):
            here = r(i, t)
            if here is None:
                continue
            support = []
            before = r(i, t - 1)
            if before is not None:
                support.append(before)
            for k in geo.lanes_of[i]:
                j = geo.lanes[k].other(i)
                if j == 0 and t >= 1:
                    support.append(e1[k])
                    continue
                prev = r(j, t - 1)
                if prev is None:
                    continue
                via = pool.id(("via", i, k, t))
                out += [[-via, e1[k]], [-via, prev]]
                support.append(via)
            out.append([-here, *support])
    # Every distance is below n, so each island's last variable exists.
    out += [[var] for i in range(1, n) if (var := r(i, steps)) is not None]
    return out


def eager_size(geo: Geometry) -> int:
    """How many clauses `reachability_clauses` makes for this geometry, counted without making them."""
    n = len(geo.positions)
    found = lane_distances(geo, 0)
    if n <= 1 or any(d is None for d in found):
        return 1
    dist = [d or 0 for d in found]
    steps = n - 1
    total = n - 1   # the final "reached" unit clauses
    for i in range(1, n):
        total += steps - dist[i] + 1   # one support clause per step at which i can be reached
        for k in geo.lanes_of[i]:
            j = geo.lanes[k].other(i)
            if j != 0:
                # two clauses per step t at which both i and, a step earlier, j can be reached
                total += 2 * max(0, steps - max(dist[i], dist[j] + 1) + 1)
    return total


def check_eager_size(geo: Geometry) -> None:
    """Refuse an eager encoding larger than MAX_EAGER_CLAUSES (it would need gigabytes of memory)."""
    size = eager_size(geo)
    if size > MAX_EAGER_CLAUSES:
        raise PuzzleError(f"the eager encoding of this puzzle needs {size / 1e6:.1f} million clauses (about "
                          f"{size * EAGER_BYTES / 2**30:.1f} GB of memory); eager mode takes at most "
                          f"{MAX_EAGER_CLAUSES / 1e6:g} million: use --mode lazy")


def lane_distances(geo: Geometry, start: int) -> list[int | None]:
    """Breadth-first distances over all lanes from `start` (None where unreachable)."""
    dist: list[int | None] = [None] * len(geo.positions)
    dist[start] = 0
    queue = deque([start])
    while queue:
        i = queue.popleft()
        here = dist[i]
        assert here is not None  # only reached islands enter the queue
        for j in geo.neighbours(i):
            if dist[j] is None:
                dist[j] = here + 1
                queue.append(j)
    return dist


def decode(enc: Encoding, model: Sequence[int]) -> tuple[int, ...]:
    """Read the bridge count of every lane from a model (pysat lists variable v at index v-1).

    Lane k's variables are k+1 and n+k+1 (see `encode`), so the two halves of the model's first 2n
    entries are read side by side.
    """
    n = len(enc.e1)
    return tuple(map(add, map(_POSITIVE, model[:n]), map(_POSITIVE, model[n:2 * n])))


# True (1) for a literal that is set: the model lists variable v as v or -v.
_POSITIVE = (0).__lt__


def built_lanes(enc: Encoding, model: Sequence[int]) -> list[int]:
    """The lanes that carry at least one bridge in a model (their e1 are variables 1..n)."""
    return [v - 1 for v in model[:len(enc.e1)] if v > 0]


def cut_clauses(geo: Geometry, enc: Encoding, built: Iterable[int]) -> list[list[int]]:
    """For each separate group of a disconnected candidate: some lane leaving it must be built."""
    ends = geo.ends
    root = group_roots(len(geo.positions), map(ends.__getitem__, built))
    if not any(root):
        return []  # every island's root is island 0: connected
    # The groups in order of their first island, which is each one's root (as component_labels numbers them).
    out: dict[int, list[int]] = {r: [] for r in sorted(set(root))}
    for x, (a, b) in zip(enc.e1, ends, strict=True):
        ra, rb = root[a], root[b]
        if ra != rb:
            out[ra].append(x)
            out[rb].append(x)
    return list(out.values())


def blocking_clause(enc: Encoding, counts: Sequence[int]) -> list[int]:
    """Forbid this exact arrangement; clue counts make the built variables enough to name it."""
    lits = []
    for x, y, c in zip(enc.e1, enc.e2, counts, strict=True):
        if c:
            lits.append(-x)
            if c == 2:
                lits.append(-y)
    return lits
