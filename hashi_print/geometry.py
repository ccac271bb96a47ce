"""Islands on a grid → lanes between neighbours → which lanes cross: the graph every part shares."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

Cell = tuple[int, int]


def group_roots(count: int, pairs: Iterable[tuple[int, int]]) -> list[int]:
    """Join items 0..count-1 by `pairs` (union-find); return each item's group root, its smallest item."""
    parent = list(range(count))
    for a, b in pairs:
        while parent[a] != a:
            parent[a] = a = parent[parent[a]]
        while parent[b] != b:
            parent[b] = b = parent[parent[b]]
        if a < b:
            parent[b] = a
        elif b < a:
            parent[a] = b
    # Links only ever point to a smaller item, so in item order each parent's root is already known.
    for i, p in enumerate(parent):
        parent[i] = parent[p]
    return parent


@dataclass(frozen=True)
class Lane:
    """A straight path between two neighbouring islands; `a` < `b` are island indexes."""

    index: int
    a: int
    b: int
    horizontal: bool
    cells: tuple[Cell, ...]

    def other(self, island: int) -> int:
        """Return the island at the far end of this lane from `island`."""
        return self.b if island == self.a else self.a


@dataclass(frozen=True)
class Geometry:
    """Islands in reading order, the lanes between neighbours and the crossings between lanes."""

    rows: int
    cols: int
    positions: tuple[Cell, ...]
    lanes: tuple[Lane, ...]
    crossings: tuple[tuple[int, ...], ...]
    lanes_of: tuple[tuple[int, ...], ...]

    @cached_property
    def index_of(self) -> dict[Cell, int]:
        """Map a grid position to its island index."""
        return {pos: i for i, pos in enumerate(self.positions)}

    @cached_property
    def lane_index(self) -> dict[tuple[int, int], int]:
        """Map an island pair (a < b) to the lane joining them."""
        return {(lane.a, lane.b): lane.index for lane in self.lanes}

    @cached_property
    def lane_at(self) -> dict[tuple[Cell, Cell], int]:
        """Map the two end positions of a lane (reading order) to its index."""
        return {(self.positions[lane.a], self.positions[lane.b]): lane.index for lane in self.lanes}

    def lane_between(self, i: int, j: int) -> int | None:
        """Return the lane joining islands i and j, or None if they are not neighbours."""
        return self.lane_index.get((min(i, j), max(i, j)))

    def neighbours(self, island: int) -> tuple[int, ...]:
        """Return the islands that share a lane with `island`."""
        return tuple(self.lanes[k].other(island) for k in self.lanes_of[island])

    @cached_property
    def ends(self) -> tuple[tuple[int, int], ...]:
        """The two islands (a, b) of each lane, by lane index."""
        return tuple((lane.a, lane.b) for lane in self.lanes)

    def component_labels(self, lanes: Iterable[int]) -> list[int]:
        """Number each island's group over the given lanes, groups counted in order of their first island."""
        ends = self.ends
        label = group_roots(len(self.positions), map(ends.__getitem__, lanes))
        if not any(label):
            return label  # one group: every root is island 0, which is also its number
        # Every root is its group's first island, so labelling in island order finds roots first.
        count = 0
        for i, root in enumerate(label):
            if root == i:
                label[i] = count
                count += 1
            else:
                label[i] = label[root]
        return label

    def components(self, lanes: Iterable[int]) -> list[list[int]]:
        """Group the islands into connected components using only the given lanes."""
        label = self.component_labels(lanes)
        groups: list[list[int]] = [[] for _ in range(max(label, default=-1) + 1)]
        for i, g in enumerate(label):
            groups[g].append(i)
        return groups

    @cached_property
    def crossing_pairs(self) -> tuple[tuple[int, int], ...]:
        """Each pair of crossing lanes once, as (lower index, higher index)."""
        return tuple((k, j) for k, others in enumerate(self.crossings) for j in others if k < j)

    def lane_graph_connected(self) -> bool:
        """Tell whether all islands can be reached from each other over lanes."""
        return len(self.components(range(len(self.lanes)))) <= 1


def build_geometry(rows: int, cols: int, positions: Iterable[Cell]) -> Geometry:
    """Derive lanes and crossings from island positions; islands are put in reading order."""
    ordered = tuple(sorted(set(positions)))
    index = {pos: i for i, pos in enumerate(ordered)}
    lanes: list[Lane] = []
    for i, (r, c) in enumerate(ordered):
        for dr, dc in ((0, 1), (1, 0)):
            cells = []
            rr, cc = r + dr, c + dc
            while 0 <= rr < rows and 0 <= cc < cols and (rr, cc) not in index:
                cells.append((rr, cc))
                rr, cc = rr + dr, cc + dc
            if (rr, cc) in index:
                lanes.append(Lane(len(lanes), i, index[(rr, cc)], dr == 0, tuple(cells)))
    return Geometry(rows, cols, ordered, tuple(lanes), _crossings(lanes), _lanes_of(len(ordered), lanes))


def _crossings(lanes: Sequence[Lane]) -> tuple[tuple[int, ...], ...]:
    """For each lane, the lanes whose open segments intersect it (one horizontal, one vertical)."""
    horizontal_at: dict[Cell, int] = {}
    for lane in lanes:
        if lane.horizontal:
            for cell in lane.cells:
                horizontal_at[cell] = lane.index
    crossing: list[set[int]] = [set() for _ in lanes]
    for lane in lanes:
        if not lane.horizontal:
            for cell in lane.cells:
                h = horizontal_at.get(cell)
                if h is not None:
                    crossing[lane.index].add(h)
                    crossing[h].add(lane.index)
    return tuple(tuple(sorted(s)) for s in crossing)


def _lanes_of(count: int, lanes: Sequence[Lane]) -> tuple[tuple[int, ...], ...]:
    """For each island, the lanes that touch it."""
    touching: list[list[int]] = [[] for _ in range(count)]
    for lane in lanes:
        touching[lane.a].append(lane.index)
        touching[lane.b].append(lane.index)
    return tuple(tuple(t) for t in touching)


def crossing_pairs(geometry: Geometry) -> list[tuple[int, int]]:
    """List each pair of crossing lanes once, as (lower index, higher index)."""
    return list(geometry.crossing_pairs)
