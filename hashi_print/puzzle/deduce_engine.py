"""The deducer's state: lane bounds (at least `lo`, at most `hi`), work queues per rung, recorded steps.

The techniques that read and tighten the bounds live in `deduce_techniques`, their words in
`deduce_wording`; `deduce` is the public API over the three.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hashi_print.i18n import _
from hashi_print.options import Technique
from hashi_print.puzzle.deduce_wording import describe, island_names
from hashi_print.puzzle.model import GRADES, Grade, Puzzle

EASY, MEDIUM, HARD, EXPERT = range(4)

# Technique name (options.Technique) -> the rung of the ladder (index in GRADES) that introduces it.
TECHNIQUES = {
    Technique.COMPLETE.value: EASY,
    Technique.CROSSING.value: EASY,
    Technique.FILL.value: EASY,
    Technique.SPREAD.value: EASY,
    Technique.CAPACITY.value: EASY,
    Technique.NEEDS.value: MEDIUM,
    Technique.PAIR.value: MEDIUM,
    Technique.ISOLATION.value: HARD,
    Technique.IMPOSSIBLE.value: HARD,
    Technique.ONLY_WAY_OUT.value: EXPERT,
    Technique.CONTRADICTION.value: EXPERT,
}

Change = tuple[int, int, int]  # (lane, at least, at most) after the step
# The contradictions a run can meet (the C deducer, _deduce_native.c, returns one of these codes).
TOO_MANY, TOO_FEW, SPLIT, OVERFULL = range(4)
Assumption = tuple[Change, str]  # a contradiction step's assumed bounds and why they fail


@dataclass(frozen=True)
class Step:
    """One deduction: the technique, the islands and lanes it used and the new lane bounds it concluded."""

    technique: str
    grade: Grade
    islands: tuple[int, ...]
    lanes: tuple[int, ...]
    conclusions: tuple[Change, ...]
    text: str


def reason(code: int, island: str | None = None) -> str:
    """The words for contradiction `code`, naming `island` (for the first two; "an island" by default)."""
    who = _("an island") if island is None else island
    if code == TOO_MANY:
        return _("{island} would have more bridges than its number").format(island=who)
    if code == TOO_FEW:
        return _("{island} could no longer get enough bridges").format(island=who)
    if code == SPLIT:
        return _("the islands would fall apart into groups that can never be joined")
    return _("a lane would need more bridges than it can carry")


class Board:
    """What never changes during a run: lane ends, lanes per island, crossings, clues, names."""

    def __init__(self, puzzle: Puzzle, explain: bool):
        geo = puzzle.geometry
        self.puzzle = puzzle
        self.n = len(geo.positions)
        self.ea = [ln.a for ln in geo.lanes]
        self.eb = [ln.b for ln in geo.lanes]
        self.lanes_of = geo.lanes_of
        self.cross = geo.crossings
        self.clue = puzzle.clues
        self.names = island_names(puzzle) if explain else ()
        self.xor = [a ^ b for a, b in zip(self.ea, self.eb, strict=True)]
        self.near = [tuple({i, *(self.eb[k] if self.ea[k] == i else self.ea[k] for k in ls)})
                     for i, ls in enumerate(self.lanes_of)]


class Engine:
    """Mutable lane bounds with work queues per rung; private to the deducer's modules."""

    def __init__(self, board: Board, level: int, lo: list[int], hi: list[int], *, explain: bool,
                 sweep: bool = True, chains: bool = True, global_check: bool = False,
                 queue_all: bool = True, los: list[int] | None = None):
        self.board = board
        self.puzzle = board.puzzle
        self.n = n = board.n
        self.ea, self.eb, self.lanes_of = board.ea, board.eb, board.lanes_of
        self.cross, self.clue, self.near, self.xor = board.cross, board.clue, board.near, board.xor
        self.names = board.names
        self.level = level
        self.lo = lo
        self.hi = hi
        self.los = los if los is not None else [sum(map(lo.__getitem__, ls)) for ls in self.lanes_of]
        self.explain = explain
        self.sweep = sweep
        self.chains = chains
        self.global_check = global_check or level >= EXPERT
        self.steps: list[Step] = []
        self.techniques: set[str] = set()  # the techniques of every step, also when not explained
        self.used = -1
        self.broken: str | None = None
        self.stop_when: Callable[[Step], bool] | None = None
        self.stopped = False
        self.stop_at = 0
        self.swept = False
        self.checked = False
        self.chain_pos = 0
        self.reach = [0] * n
        self.stale = bytearray(b"\x01" * n)
        self.queues: list[deque[int]]
        if queue_all:
            self.queues = [deque(range(n)) for _ in range(3)]
            self.queued = [bytearray(b"\x01" * n) for _ in range(3)]
        else:
            self.queues = [deque(), deque(), deque()]
            self.queued = [bytearray(n), bytearray(n), bytearray(n)]

    def other(self, k: int, i: int) -> int:
        """Return the far end of lane k from island i."""
        return self.xor[k] ^ i

    def push(self, q: int, i: int) -> None:
        """Queue island i for the rules of queue q."""
        if not self.queued[q][i]:
            self.queued[q][i] = 1
            self.queues[q].append(i)

    def fail(self, why: str) -> None:
        """Record a contradiction (the first one found is kept)."""
        if self.broken is None:
            self.broken = why

    def who(self, i: int) -> str:
        """Describe island i in player words (only when explaining)."""
        if not self.names:
            return _("an island")
        return _("the {clue} at {island}").format(clue=self.clue[i], island=self.names[i])

    def subject(self, i: int) -> str:
        """Describe island i at the start of a sentence."""
        return _("The {clue} at {island}").format(clue=self.clue[i], island=self.names[i])

    def done(self) -> bool:
        """Tell whether every lane's count is decided."""
        return self.lo == self.hi

    def step(self, technique: str, islands: Sequence[int], lanes: Sequence[int], changes: Sequence[Change],
             count: int = 0, assumption: Assumption | None = None) -> None:
        """Apply a step's conclusions, record it, and close lanes crossed by newly built ones.

        `count` is the number the step's wording quotes; `assumption` is a contradiction's trial.
        """
        level = TECHNIQUES[technique]
        if level > self.used:
            self.used = level
        self.techniques.add(technique)
        if self.explain:
            self._record(technique, level, islands, lanes, changes, count, assumption)
        built = self._apply(changes)
        if built is None:
            return
        if level == HARD:
            self.swept = False
        lo, hi = self.lo, self.hi
        for k in built:
            closing = [c for c in self.cross[k] if hi[c] > 0]
            if closing:
                self.step("crossing", (self.ea[k], self.eb[k]), (k, *closing),
                          [(c, lo[c], 0) for c in closing])

    def _record(self, technique: str, level: int, islands: Sequence[int], lanes: Sequence[int],
                changes: Sequence[Change], count: int, assumption: Assumption | None) -> None:
        """Keep the explained step, and note where to stop when it is the one asked for."""
        text = describe(self, technique, islands, lanes, changes, count, assumption)
        step = Step(technique, GRADES[level], tuple(islands), tuple(lanes), tuple(changes), text)
        self.steps.append(step)
        if self.stop_when is not None and not self.stopped and self.stop_when(step):
            self.stopped = True
            self.stop_at = len(self.steps)

    def _apply(self, changes: Sequence[Change]) -> list[int] | None:
        """Tighten the bounds; return the lanes that got their first bridge, or None on a contradiction.

        Each changed lane queues the islands whose rules may see it: its ends for the counting rules,
        the islands near them for the trials (written out here: the deducer's busiest path).
        """
        lo, hi, los, ea, eb = self.lo, self.hi, self.los, self.ea, self.eb
        stale, near = self.stale, self.near
        (q0, q1, q2), (u0, u1, u2) = self.queues, self.queued
        built = []
        for k, nlo, nhi in changes:
            if nlo > lo[k]:
                if lo[k] == 0:
                    built.append(k)
                d = nlo - lo[k]
                los[ea[k]] += d
                los[eb[k]] += d
                lo[k] = nlo
            if nhi < hi[k]:
                if nhi == 0:
                    self.checked = False
                hi[k] = nhi
            if lo[k] > hi[k]:
                self.fail(reason(OVERFULL))
                return None
            for i in (ea[k], eb[k]):
                if not u0[i]:
                    u0[i] = 1
                    q0.append(i)
                if not u1[i]:
                    u1[i] = 1
                    q1.append(i)
                for j in near[i]:
                    if not u2[j]:
                        u2[j] = 1
                        q2.append(j)
                    stale[j] = 1
        return built
