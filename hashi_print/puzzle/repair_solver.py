"""One incremental solver for the generator's repair loop: same islands, clues that change.

A repair changes a few clues of a grown layout and asks again for a second solution; the islands'
places, and so the lanes and crossings, stay (on 15x15 hard and 25x25 expert no repair in a sample
of 281 solver calls added an island). The lane and crossing clauses are given once; each island's
clue clauses are given once per clue it takes, behind a selector literal, and each question assumes
the selectors of the current clues and of a blocking clause for the solution in hand. Connectivity
cuts hold whatever the clues are, so they are kept for every later question.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from types import TracebackType
from typing import cast

from pysat.solvers import Solver

from hashi_print.geometry import Geometry
from hashi_print.puzzle.model import Puzzle, Solution
from hashi_print.puzzle.sat import (
    Encoding,
    blocking_clause,
    built_lanes,
    crossing_clauses,
    cut_clauses,
    decode,
    guarded_plan,
    lane_clauses,
)
from hashi_print.puzzle.solve import _search


class RepairSolver:
    """Second solutions for puzzles on one geometry whose clues change between questions."""

    def __init__(self, geometry: Geometry, backend: str = "cadical195"):
        self.geometry = geometry
        n = len(geometry.lanes)
        self.enc = Encoding((), tuple(range(1, n + 1)), tuple(range(n + 1, 2 * n + 1)))
        self.next_var = 2 * n + 1
        # Each lane's four literals (e1, e2, -e1, -e2), as the compiled clue templates read them.
        self.quads = [(x, y, -x, -y) for x, y in zip(self.enc.e1, self.enc.e2, strict=True)]
        self.selectors: dict[tuple[int, int], int] = {}
        self.solver = Solver(name=backend)
        if backend == "cadical195":
            self.solver.configure({"lucky": 0})  # as in solve: its trial assignments cost more than they find
        self.solver.append_formula(lane_clauses(self.enc.e1, self.enc.e2))
        self.solver.append_formula(crossing_clauses(geometry, self.enc.e1))

    def __enter__(self) -> RepairSolver:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Free the native solver."""
        self.solver.delete()

    def _new_var(self) -> int:
        """A fresh selector variable."""
        var = self.next_var
        self.next_var += 1
        return var

    def _selectors(self, clues: Sequence[int]) -> list[int]:
        """The literals that switch on "island i has clues[i] bridges", adding the clauses of new ones.

        The clauses of all new selectors go to the solver in one call, in island order.
        """
        selectors = self.selectors
        out: list[int | None] = list(map(selectors.get, enumerate(clues)))
        if None not in out:
            return cast(list[int], out)
        lanes_of = self.geometry.lanes_of
        quads = self.quads
        new: list[tuple[int, ...]] = []
        for island, clue in enumerate(clues):
            if out[island] is None:
                sel = out[island] = selectors[island, clue] = self._new_var()
                lanes = lanes_of[island]
                pick, cuts = guarded_plan(len(lanes), clue)
                flat = pick([*chain.from_iterable(map(quads.__getitem__, lanes)), -sel])
                new += map(flat.__getitem__, cuts)
        self.solver.append_formula(new)
        return cast(list[int], out)

    def other_solution(self, puzzle: Puzzle, solution: Solution) -> Solution | None:
        """A connected solution of `puzzle` other than `solution`, or None when it is unique."""
        if puzzle.geometry is not self.geometry:
            raise ValueError("the puzzle's islands are not where this solver's are")
        other = self.other_counts(puzzle.clues, solution.lane_counts(self.geometry))
        return None if other is None else Solution.from_lane_counts(self.geometry, other)

    def other_counts(self, clues: Sequence[int], counts: Sequence[int]) -> tuple[int, ...] | None:
        """The bridges per lane of a connected solution to `clues` other than `counts`, or None if none."""
        geo, enc, solver = self.geometry, self.enc, self.solver
        assumptions = self._selectors(clues)
        block = self._new_var()
        solver.add_clause([*blocking_clause(enc, counts), -block])
        assumptions.append(block)
        try:
            while _search(solver, assumptions):
                model = solver.get_model()
                cuts = cut_clauses(geo, enc, built_lanes(enc, model))
                if not cuts:
                    return decode(enc, model)
                if not all(cuts):
                    return None
                solver.append_formula(cuts)
            return None
        finally:
            # This solution is never blocked again: its clause may go.
            solver.add_clause([-block])
