"""An independent check of a solution against its puzzle, on the grid itself, sharing no SAT code."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from hashi_print.puzzle.model import Puzzle, Solution

Cell = tuple[int, int]


@dataclass(frozen=True)
class Problem:
    """One way a solution fails its puzzle: a short rule name, the place, and words for a person."""

    rule: str
    where: str
    message: str


def check_solution(puzzle: Puzzle, solution: Solution) -> list[Problem]:
    """List every problem of `solution` for `puzzle`; an empty list means it is a valid solution."""
    clue_at = {(i.row, i.col): i.clue for i in puzzle.islands}
    problems: list[Problem] = []
    occupied: dict[tuple[int, int], str] = {}
    per_pair: dict[tuple[tuple[int, int], tuple[int, int]], int] = {}
    touching = {pos: 0 for pos in clue_at}
    for b in solution.bridges:
        a, z = (b.r1, b.c1), (b.r2, b.c2)
        where = f"({b.r1},{b.c1})-({b.r2},{b.c2})"
        if a not in clue_at or z not in clue_at:
            problems.append(Problem("bridge-end", where, f"bridge {where} does not join two islands"))
            continue
        if b.count not in (1, 2):
            problems.append(Problem("lane-max-two", where,
                                    f"{b.count} bridges on {where}; a lane takes 1 or 2"))
        cells = _between(a, z)
        if cells is None:
            problems.append(Problem("straight", where, f"bridge {where} is not straight"))
            continue
        blocked = [c for c in cells if c in clue_at]
        if blocked:
            problems.append(Problem("through-island", where,
                                    f"bridge {where} passes through the island at {blocked[0]}"))
            continue
        key = (a, z) if a < z else (z, a)
        per_pair[key] = per_pair.get(key, 0) + b.count
        orient = "h" if a[0] == z[0] else "v"
        for cell in cells:
            other = occupied.get(cell)
            if other is not None and other[0] != orient:
                problems.append(Problem("crossing", where, f"bridge {where} crosses bridge {other[1:]}"))
            occupied[cell] = orient + where
        touching[a] += b.count
        touching[z] += b.count
    for (a, z), k in per_pair.items():
        if k > 2:
            problems.append(Problem("lane-max-two", f"{a}-{z}", f"{k} bridges between {a} and {z}"))
    for pos, clue in clue_at.items():
        if touching[pos] != clue:
            at = f"({pos[0]},{pos[1]})"
            problems.append(Problem("clue", at, f"island {at} has {touching[pos]} bridges, not {clue}"))
    if not problems and not _connected(list(clue_at), per_pair):
        problems.append(Problem("connected", "", "the islands do not form one connected group"))
    return problems


def _between(a: tuple[int, int], z: tuple[int, int]) -> list[tuple[int, int]] | None:
    """The cells strictly between two points in a row or column, or None if they are not aligned."""
    (r1, c1), (r2, c2) = sorted([a, z])
    if r1 == r2 and c1 != c2:
        return [(r1, c) for c in range(c1 + 1, c2)]
    if c1 == c2 and r1 != r2:
        return [(r, c1) for r in range(r1 + 1, r2)]
    return None


def _connected(points: list[Cell], pairs: Mapping[tuple[Cell, Cell], int]) -> bool:
    """Tell whether the bridges join all the points into one group (depth-first search)."""
    if not points:
        return True
    adj: dict[tuple[int, int], list[tuple[int, int]]] = {p: [] for p in points}
    for a, z in pairs:
        adj[a].append(z)
        adj[z].append(a)
    seen = {points[0]}
    stack = [points[0]]
    while stack:
        for q in adj[stack.pop()]:
            if q not in seen:
                seen.add(q)
                stack.append(q)
    return len(seen) == len(points)
