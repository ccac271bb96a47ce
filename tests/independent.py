"""Checks written for the tests alone: they share no code with the solver, deducer or checker."""

from __future__ import annotations

from hashi_print.puzzle.model import Puzzle, Solution


def janko_bridges(solution_grid: str) -> set[tuple[int, int, int, int, int]]:
    """Read a janko solution grid on its own terms: runs of 1/2 (horizontal) or a/b (vertical) cells."""
    rows = [ln.split() for ln in solution_grid.strip().splitlines()[1:]]
    out, seen = set(), set()
    for r, row in enumerate(rows):
        for c, mark in enumerate(row):
            if mark in "12ab" and (r, c) not in seen:
                dr, dc = (0, 1) if mark in "12" else (1, 0)
                rr, cc = r, c
                while rows[rr][cc] == mark:
                    seen.add((rr, cc))
                    rr, cc = rr + dr, cc + dc
                out.add((r - dr, c - dc, rr, cc, 1 if mark in "1a" else 2))
    return out


def is_valid_solution(puzzle: Puzzle, solution: Solution) -> bool:
    """Check clues, straightness, crossings and connectivity from the bridge list alone."""
    count = {(i.row, i.col): 0 for i in puzzle.islands}
    adj: dict[tuple[int, int], set] = {p: set() for p in count}
    h_cells, v_cells = set(), set()
    for b in solution.bridges:
        ends = ((b.r1, b.c1), (b.r2, b.c2))
        if any(e not in count for e in ends) or (b.r1 != b.r2 and b.c1 != b.c2) or b.count not in (1, 2):
            return False
        cells = ({(b.r1, c) for c in range(b.c1 + 1, b.c2)} if b.r1 == b.r2
                 else {(r, b.c1) for r in range(b.r1 + 1, b.r2)})
        if cells & set(count):
            return False
        (h_cells if b.r1 == b.r2 else v_cells).update(cells)
        for a, z in (ends, ends[::-1]):
            count[a] += b.count
            adj[a].add(z)
    if h_cells & v_cells or any(count[(i.row, i.col)] != i.clue for i in puzzle.islands):
        return False
    start = next(iter(adj))
    seen, todo = {start}, [start]
    while todo:
        for q in adj[todo.pop()] - seen:
            seen.add(q)
            todo.append(q)
    return len(seen) == len(adj)
