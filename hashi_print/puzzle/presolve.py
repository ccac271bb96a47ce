"""Root propagation before search: the lanes the clues settle alone, and a smaller CNF over the rest.

`sat.encode`'s clue clauses are propagation-complete, so what the solver's unit propagation derives
at its root from the clue, crossing and pair clauses is bounds propagation on each island's sum plus
"a built lane closes the lanes crossing it". Doing that here first, in Python, leaves the settled
lanes out of the formula: on the janko set about 60 % of the lanes and 80 % of the clauses, which the
solver would otherwise be handed one Python call at a time only to settle them itself.

An open lane keeps its bridges above the settled base as one or two variables (e1: at least one
more, e2: two more, e2 -> e1). The groups the sure bridges already join are contracted once, so a
candidate's connectivity is checked over the open lanes between groups only.

This file is the reference; `_presolve_native.c` does the same in C (the same bounds, variables and
clauses in the same order), compiled when the package is installed, and `presolve` uses it only when
it was built beside this very file. Change the two together (tests/puzzle/test_presolve_native.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import compress, product
from operator import gt, itemgetter, ne, sub
from typing import Any

from hashi_print.geometry import group_roots
from hashi_print.native import mirror
from hashi_print.puzzle.model import Puzzle


@dataclass(frozen=True)
class Presolved:
    """A puzzle after root propagation: sure bridges per lane, variables for the open ones, their clauses."""

    base: tuple[int, ...]
    e1: tuple[int, ...]
    e2: tuple[int, ...]
    clauses: tuple[tuple[int, ...], ...]
    # Open lanes that may join two groups of the sure bridges: (e1 variable, group, group).
    links: tuple[tuple[int, int, int], ...]
    groups: int
    # The lane of each variable, variable v at index v-1.
    lane_of: tuple[int, ...]

    @property
    def variables(self) -> int:
        """How many variables the open lanes take."""
        return len(self.lane_of)

    def counts(self, model: Sequence[int]) -> tuple[int, ...]:
        """Read each lane's bridges from a model (pysat lists variable v at index v-1, negated when false)."""
        counts = list(self.base)
        lane_of = self.lane_of
        for v in model:
            if v > 0:
                counts[lane_of[v - 1]] += 1
        return tuple(counts)

    def cuts(self, model: Sequence[int]) -> list[list[int]]:
        """For each separate group of a disconnected candidate, the clause "a lane leaving it is built"."""
        if self.groups <= 1:
            return []
        links = self.links
        label = group_roots(self.groups, [(a, b) for v, a, b in links if model[v - 1] > 0])
        if not any(label):
            return []  # every group's root is group 0: connected
        roots = sorted(set(label))
        out: dict[int, list[int]] = {r: [] for r in roots}
        for v, a, b in links:
            ra, rb = label[a], label[b]
            if ra != rb:
                out[ra].append(v)
                out[rb].append(v)
        return list(out.values())

    def blocking(self, counts: Sequence[int]) -> list[int] | None:
        """The clause forbidding one arrangement, or None when the bounds rule it out already.

        Every island's open sum is fixed, so naming the bridges above the base is enough (for a
        model of this encoding that is simply its true variables, negated).
        """
        lits = []
        for c, b, x, y in zip(counts, self.base, self.e1, self.e2, strict=True):
            extra = c - b
            if extra < 0 or extra > (x > 0) + (y > 0):
                return None
            if extra:
                lits.append(-x)
                if extra == 2:
                    lits.append(-y)
        return lits


def lane_bounds(puzzle: Puzzle) -> tuple[list[int], list[int], list[int], list[int]] | None:
    """Each lane's least and most bridges after root propagation, and each island's least and most.

    None when the clues contradict each other.
    """
    found = _settle(puzzle)
    return None if found is None else found[0]


def _settle(puzzle: Puzzle) -> tuple[Bounds, list[int]] | None:
    """`lane_bounds`, with each island's group root (its group's first island) over the sure bridges."""
    geo = puzzle.geometry
    clue = puzzle.clues
    ends = geo.ends
    bounds = _first_bounds(clue, ends, geo.lanes_of)
    todo = list(range(len(clue) - 1, -1, -1))
    queued = [True] * len(clue)
    while True:
        if not _propagate(clue, ends, geo.lanes_of, geo.crossings, bounds, todo, queued):
            return None
        roots = _isolate(clue, ends, bounds, todo, queued)
        if not todo:
            return bounds, roots


Bounds = tuple[list[int], list[int], list[int], list[int]]


def _propagate(clue: Sequence[int], ends: Sequence[tuple[int, int]], lanes_of: Sequence[Sequence[int]],
               cross: Sequence[Sequence[int]], bounds: Bounds, todo: list[int], queued: list[bool]) -> bool:
    """Tighten lanes by the queued islands' sums until nothing changes; False on a contradiction."""
    lo, hi, least, most = bounds
    while todo:
        i = todo.pop()
        queued[i] = False
        up = clue[i] - least[i]
        down = most[i] - clue[i]
        if up < 0 or down < 0:
            return False
        if (up > 1 and down > 1) or up == down == 0:
            continue  # no lane carries more than two bridges, so none can be tightened
        # One pass settles this island's own sum; the lanes it tightens wake the islands at their far ends.
        # A lane whose open span is within both margins cannot be tightened (most lanes, most visits).
        least_margin = up if up < down else down
        for x in lanes_of[i]:
            span = hi[x] - lo[x]
            if span <= least_margin:
                continue
            a, b = ends[x]
            if span > up:
                lower_by = span - up
                hi[x] -= lower_by
                most[a] -= lower_by
                most[b] -= lower_by
            if span > down:
                raise_by = span - down
                old_lo = lo[x]
                lo[x] = old_lo + raise_by
                least[a] += raise_by
                least[b] += raise_by
                if not old_lo and not _close_crossers(cross[x], ends, lo, hi, most, todo, queued):
                    return False
            j = b if a == i else a
            if not queued[j]:
                queued[j] = True
                todo.append(j)
    return True


def _isolate(clue: Sequence[int], ends: Sequence[tuple[int, int]], bounds: Bounds, todo: list[int],
             queued: list[bool]) -> list[int]:
    """Lower each lane whose most bridges would close the two groups it joins off the rest; queue its ends.

    A group is what the sure bridges join; its demand is what its islands still need beyond them.
    Lane x between groups A and B closes A and B off when its `hi` bridges meet both demands in full
    (the 1-1 and 2=2 caps are this rule for two lone islands). Bounds at each island keep `hi` at most
    the smaller demand, so fewer bridges never close them. Returns each island's group root.
    """
    lo, hi, least, most = bounds
    n = len(clue)
    label = group_roots(n, compress(ends, lo))
    demand = [0] * n
    for root, need in zip(label, map(sub, clue, least), strict=True):
        demand[root] += need
    # Only open lanes can be lowered; one built for sure lies inside a group.
    for x in compress(range(len(hi)), map(gt, hi, lo)):
        if not lo[x]:
            a, b = ends[x]
            ra, rb = label[a], label[b]
            h = hi[x]
            # The groups' sizes are counted only for a lane that would close them (rare).
            if ra != rb and demand[ra] + demand[rb] == 2 * h and label.count(ra) + label.count(rb) < n:
                hi[x] = h - 1
                most[a] -= 1
                most[b] -= 1
                for e in (a, b):
                    if not queued[e]:
                        queued[e] = True
                        todo.append(e)
    return label


def _first_bounds(clue: Sequence[int], ends: Sequence[tuple[int, int]],
                  lanes_of: Sequence[Sequence[int]]) -> Bounds:
    """Lane bounds before propagation: none sure, at most the smaller clue or 2 (1-1 and 2=2 less)."""
    if len(clue) > 2:
        # sat.pair_clauses: a 1-1 or 2=2 pair would be a closed group of its own.
        try:
            caps = list(map(_CAPS.__getitem__, clue))
            hi = [caps[a][clue[b]] for a, b in ends]
        except IndexError:  # a clue above 8, which no puzzle has; the same rule, computed
            hi = [_cap(clue[a], clue[b]) for a, b in ends]
    else:
        hi = [2 if clue[a] > 1 < clue[b] else 1 for a, b in ends]
    # Summed lane by lane: one pass over the lanes costs less than a sum per island.
    most = [0] * len(lanes_of)
    for (a, b), h in zip(ends, hi, strict=True):
        most[a] += h
        most[b] += h
    return [0] * len(ends), hi, [0] * len(clue), most


def _cap(x: int, y: int) -> int:
    """A lane's most bridges between clues x and y, of more than two islands (a 1-1 or 2=2 pair less)."""
    return x - 1 if x == y <= 2 else 2 if x > 1 < y else 1


# _cap for every pair of clues a puzzle has, looked up: _CAPS[x][y].
_CAPS = tuple(tuple(_cap(x, y) for y in range(9)) for x in range(9))


def _close_crossers(crossers: Sequence[int], ends: Sequence[tuple[int, int]], lo: list[int], hi: list[int],
                    most: list[int], todo: list[int], queued: list[bool]) -> bool:
    """A lane is now built: close the lanes crossing it and wake their islands; False if one was built."""
    for c in crossers:
        h = hi[c]
        if h:
            if lo[c]:
                return False
            hi[c] = 0
            for e in ends[c]:
                most[e] -= h
                if not queued[e]:
                    queued[e] = True
                    todo.append(e)
    return True


def presolve(puzzle: Puzzle) -> Presolved | None:
    """Propagate at the root and encode what is left open, or None when the clues contradict."""
    if NATIVE is not None:
        geo = puzzle.geometry
        fields = NATIVE(puzzle.clues, geo.ends, geo.lanes_of, geo.crossings)
        return None if fields is None else Presolved(*fields)
    return presolve_python(puzzle)


def presolve_python(puzzle: Puzzle) -> Presolved | None:
    """`presolve` in Python: the reference that `_presolve_native.c` mirrors, and its fallback."""
    found = _settle(puzzle)
    if found is None:
        return None
    (lo, hi, least, most), roots = found
    geo = puzzle.geometry
    ends = geo.ends
    # Variables: one "at least one more" per open lane in lane order, then the "two more" ones.
    e1 = [0] * len(lo)
    e2 = [0] * len(lo)
    lane_of = list(compress(range(len(lo)), map(ne, lo, hi)))
    if not lane_of:
        # Propagation settled every lane (about two puzzles in five of the janko set): nothing to encode.
        groups = max(_numbered(roots), default=0) + 1
        return Presolved(tuple(lo), tuple(e1), tuple(e2), (), (), groups, ())
    doubles = [k for k in lane_of if hi[k] - lo[k] == 2]
    for v, k in enumerate(lane_of, 1):
        e1[k] = v
    for v, k in enumerate(doubles, len(lane_of) + 1):
        e2[k] = v
    clauses: list[tuple[int, ...]] = [(-e2[k], e1[k]) for k in doubles]
    # Crossings between lanes that may still be built (a lane built for sure has closed its crossers,
    # so two open crossers both have a base of 0 and e1 means "built").
    clauses += [(-e1[a], -e1[b]) for a, b in geo.crossing_pairs if e1[a] and e1[b]]
    clues = puzzle.clues
    lanes_of = geo.lanes_of
    plans = _PLANS
    for i, sure in enumerate(least):
        if sure == most[i]:
            continue  # every lane of this island is settled
        # The island's shape as one number: a leading 1, then 1 or 2 per open lane (base 3), then its need.
        shape = 1
        table: list[int] = []
        for k in lanes_of[i]:
            x = e1[k]
            if x:
                y = e2[k]
                shape = 3 * shape + (2 if y else 1)
                table += (x, y, -x, -y)
        key = 16 * shape + clues[i] - sure
        plan = plans.get(key)
        if plan is None:
            plan = plans[key] = _plan(shape, clues[i] - sure)
        pick, cuts = plan
        flat = pick(table)
        clauses += map(flat.__getitem__, cuts)
    label = _numbered(roots)
    # Only open lanes have a variable; in lane order, as the cuts list them.
    links = tuple([(e1[k], ra, rb) for k in lane_of
                   if not lo[k] and (ra := label[ends[k][0]]) != (rb := label[ends[k][1]])])
    groups = max(label) + 1
    if groups > 1:
        clauses += _group_cuts(label, groups, links)
    return Presolved(tuple(lo), tuple(e1), tuple(e2), tuple(clauses), links, groups,
                     tuple(lane_of + doubles))  # the lane of each variable, in variable order


def _group_cuts(label: Sequence[int], groups: int,
                links: Sequence[tuple[int, int, int]]) -> list[tuple[int, ...]]:
    """For each group of two or more islands the sure bridges join: some open lane leaving it is built.

    A lone island needs no such clause: its clue already asks for a bridge on one of its lanes.
    """
    size = [0] * groups
    for g in label:
        size[g] += 1
    out: list[list[int]] = [[] for _ in range(groups)]
    for v, a, b in links:
        out[a].append(v)
        out[b].append(v)
    return [tuple(c) for c, n in zip(out, size, strict=True) if n > 1]


def _numbered(roots: list[int]) -> list[int]:
    """Number the groups of `roots` (each island's group's first island) in order of their first island."""
    groups = 0
    for i, root in enumerate(roots):
        if root == i:
            roots[i] = groups
            groups += 1
        else:
            roots[i] = roots[root]
    return roots


Plan = tuple[Callable[[Sequence[int]], tuple[int, ...]], tuple[slice, ...]]
# Compiled plans by island shape (see presolve): a plain dict, as the lookup runs once per open island.
_PLANS: dict[int, Plan] = {}


def _plan(shape: int, need: int) -> Plan:
    """An island's clause templates compiled once: a picker of all their literals and each clause's slice.

    The picker reads four literals (e1, e2, -e1, -e2) per open lane and returns every clause's
    literals in one flat tuple; the slices cut it back into clauses.
    """
    widths: list[int] = []
    while shape > 1:
        shape, width = divmod(shape, 3)
        widths.insert(0, width)
    flat: list[int] = []
    cuts = []
    for template in _templates(tuple(widths), need):
        start = len(flat)
        flat += [4 * pos + level - 1 + (2 if sign < 0 else 0) for pos, level, sign in template]
        cuts.append(slice(start, len(flat)))
    if len(flat) > 1:
        return itemgetter(*flat), tuple(cuts)

    def pick(table: Sequence[int]) -> tuple[int, ...]:
        """Pick the one literal or none (itemgetter needs two to return a tuple)."""
        return tuple(table[j] for j in flat)
    return pick, tuple(cuts)


@cache
def _templates(widths: tuple[int, ...], need: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Clause templates (lane position, 1 or 2 above its base, sign) for open lanes summing to `need`.

    As sat's: every way to reach need+1 is forbidden, and every way to stop at need-1.
    """
    out = []
    for counts in product(*(range(w + 1) for w in widths)):
        total = sum(counts)
        if total == need + 1:
            out.append(tuple((pos, c, -1) for pos, c in enumerate(counts) if c))
        if total == need - 1:
            out.append(tuple((pos, c + 1, 1) for pos, c in enumerate(counts) if c < widths[pos]))
    if need > sum(widths) or need < 0:
        out.append(())
    return tuple(out)


# The C presolve: Presolved's fields from the clues, lane ends, lanes per island and crossings.
NativePresolve = Callable[..., tuple[Any, ...] | None]


def native_presolve() -> NativePresolve | None:
    """The C presolve (setup.py) when it was built beside this very file and HASHI_PURE_PRESOLVE is not
    set, else None (the Python one then runs; both give the same formula)."""
    native = mirror("hashi_print.puzzle._presolve_native", [__file__], "HASHI_PURE_PRESOLVE")
    if native is None:
        return None
    found: NativePresolve = native.presolve
    return found


NATIVE = native_presolve()
