"""How far a player is with a classic puzzle: solved, bridges that are wrong, islands overfull or complete."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from hashi_print.puzzle.check import check_solution
from hashi_print.puzzle.deduce import island_names, lane_name
from hashi_print.puzzle.model import Puzzle, Solution


class ProgressJson(TypedDict):
    """The `check` contract object."""

    solved: bool
    wrong: list[str]
    overfull: list[str]
    complete: list[str]
    closed: list[str]
    starved: list[str]


@dataclass(frozen=True)
class Progress:
    """The check of drawn bridges against a puzzle and its solution, islands and lanes named as players do."""

    solved: bool
    wrong: tuple[str, ...]
    overfull: tuple[str, ...]
    complete: tuple[str, ...]
    closed: tuple[str, ...] = ()
    starved: tuple[str, ...] = ()

    def to_json(self) -> ProgressJson:
        """Return the `check` contract object (closed and starved islands are added keys)."""
        return {"solved": self.solved, "wrong": list(self.wrong), "overfull": list(self.overfull),
                "complete": list(self.complete), "closed": list(self.closed), "starved": list(self.starved)}


def progress(puzzle: Puzzle, counts: Sequence[int], solution: Solution | None) -> Progress:
    """Compare bridges drawn (a count per lane) with the solution (None when the puzzle has none).

    Solved means the drawing satisfies every rule (checked independently of the solver). A lane is
    wrong when it holds more bridges than the solution puts there (none is wrong without a solution
    to compare with); an island is overfull with more bridges than its clue and complete with exactly
    its clue.
    """
    geo = puzzle.geometry
    names = island_names(puzzle)
    wrong: tuple[str, ...] = ()
    if solution is not None:
        truth = solution.lane_counts(geo)
        wrong = tuple(lane_name(puzzle, k, names) for k, (x, s) in enumerate(zip(counts, truth, strict=True))
                      if x > s)
    touching = [sum(counts[k] for k in lanes) for lanes in geo.lanes_of]
    overfull = tuple(names[i] for i, n in enumerate(touching) if n > puzzle.clues[i])
    complete = tuple(names[i] for i, n in enumerate(touching) if n == puzzle.clues[i])
    solved = not check_solution(puzzle, Solution.from_lane_counts(geo, counts))
    closed = tuple(names[i] for i in closed_groups(puzzle, counts, touching))
    starved = tuple(names[i] for i in starved_islands(puzzle, counts, touching))
    return Progress(solved, wrong, overfull, complete, closed, starved)


def closed_groups(puzzle: Puzzle, counts: Sequence[int], touching: Sequence[int]) -> list[int]:
    """Islands of a finished group cut off from the rest: all complete, joined, and not every island."""
    groups = puzzle.geometry.components(k for k, n in enumerate(counts) if n)
    if len(groups) == 1:
        return []
    return sorted(i for found in groups if all(touching[j] == puzzle.clues[j] for j in found) for i in found)


def starved_islands(puzzle: Puzzle, counts: Sequence[int], touching: Sequence[int]) -> list[int]:
    """Islands that need more bridges than their lanes can still take (full lanes, crossed lanes, full
    neighbours)."""
    geo = puzzle.geometry
    room = [clue - n for clue, n in zip(puzzle.clues, touching, strict=True)]

    def free(k: int, i: int) -> int:
        lane = geo.lanes[k]
        if counts[k] == 0 and any(counts[c] for c in geo.crossings[k]):
            return 0
        other = lane.b if lane.a == i else lane.a
        return max(0, min(2 - counts[k], room[other]))

    return [i for i in range(len(puzzle.islands))
            if room[i] > 0 and room[i] > sum(free(k, i) for k in geo.lanes_of[i])]


def check_drawn(puzzle: Puzzle, counts: Sequence[int]) -> Progress:
    """Solve the puzzle and check the drawn bridges against its solution (one of them if several)."""
    from hashi_print.puzzle.solve import solve

    return progress(puzzle, counts, solve(puzzle).solution)
