"""Human-style deduction for classic Hashiwokakero: named techniques, a ladder of grades, hints.

The state is a pair of bounds per lane (at least `lo`, at most `hi`, 0..2 bridges). Each technique
tightens bounds and is recorded as a Step. Techniques are tried lowest rung first, so the hardest
rung a run needs is the puzzle's grade: the lowest grade whose techniques finish it. The engine, the
techniques and their wording live in `deduce_engine`, `deduce_techniques` and `deduce_wording`; this
module is the API the rest of the package uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TypedDict

from hashi_print.errors import PuzzleError
from hashi_print.i18n import _
from hashi_print.native import mirror
from hashi_print.puzzle.deduce_engine import (
    EASY,
    EXPERT,
    HARD,
    MEDIUM,
    TECHNIQUES,
    Board,
    Change,
    Engine,
    Step,
    reason,
)
from hashi_print.puzzle.deduce_techniques import run
from hashi_print.puzzle.deduce_wording import bridges, island_names, lane_name
from hashi_print.puzzle.model import GRADES, Grade, Puzzle, Solution

__all__ = [
    "EASY", "EXPERT", "HARD", "MEDIUM", "OBVIOUS", "TECHNIQUES", "Change", "Deduction", "GradeResult", "Hint",
    "Step", "check_state", "deduce", "grade", "grade_puzzle", "grade_within", "hint", "hint_steps",
    "island_names", "lane_name", "next_hint", "step_json", "ConclusionJson", "StepJson", "GradeJson",
    "HintJson",
]

# Steps a player sees on paper without being told: lanes closed by full islands, crossed lanes, and
# an island's room for more bridges. Hints skip them.
OBVIOUS = frozenset({"complete", "crossing", "capacity"})


@dataclass(frozen=True)
class Deduction:
    """The result of a deduction run: its steps, whether it finished, the final bounds per lane, and the
    techniques it used (also when its steps were not kept)."""

    steps: tuple[Step, ...]
    solved: bool
    counts: tuple[tuple[int, int], ...]
    grade: Grade | None
    contradiction: str | None = None
    techniques: frozenset[str] = frozenset()

    def solution(self, puzzle: Puzzle) -> Solution | None:
        """Return the deduced solution when the run finished, else None."""
        if not self.solved:
            return None
        return Solution.from_lane_counts(puzzle.geometry, [lo for lo, _ in self.counts])


# --- the public API ---------------------------------------------------------------------------

def _start_bounds(puzzle: Puzzle, start: Sequence[int] | None) -> tuple[list[int], list[int]]:
    """Lane bounds to start from: nothing known, or at least the given bridges."""
    m = len(puzzle.geometry.lanes)
    lo = [0] * m if start is None else [int(x) for x in start]
    if len(lo) != m:
        raise PuzzleError(f"expected {m} lane counts, got {len(lo)}")
    hi = [2] * m
    for k, x in enumerate(lo):
        if x:
            for c in puzzle.geometry.crossings[k]:
                hi[c] = 0
    return lo, hi


def _finished(puzzle: Puzzle, lo: Sequence[int], hi: Sequence[int], broken: str | None) -> bool:
    """Tell whether a run decided every lane (bounds `lo`, `hi`) into a valid solution."""
    if broken is not None or list(lo) != list(hi):
        return False
    geo = puzzle.geometry
    if [sum(lo[k] for k in lanes) for lanes in geo.lanes_of] != list(puzzle.clues):
        return False
    return len(geo.components(k for k, x in enumerate(lo) if x)) == 1


def _rung(grade: str) -> int:
    """Turn a grade into its rung of the ladder, rejecting unknown names."""
    if grade not in GRADES:
        raise PuzzleError(f"unknown grade {grade!r}; expected one of {', '.join(GRADES)}")
    return GRADES.index(grade)


def deduce(puzzle: Puzzle, upto: str = Grade.EXPERT, start: Sequence[int] | None = None, *,
           explain: bool = True) -> Deduction:
    """Deduce as far as the techniques up to grade `upto` go, from nothing or from `start` lane counts."""
    lo, hi = _start_bounds(puzzle, start)
    if start is not None:
        check_state(puzzle, lo)
    level = _rung(upto)
    if not explain and NATIVE is not None:
        # The same run in C: the same bounds, rung, contradiction and techniques, without steps or words.
        board = Board(puzzle, False)
        lo_out, hi_out, used, code, bits = NATIVE.run(board.clue, board.ea, board.eb, board.lanes_of,
                                                     board.cross, board.near, level, lo, hi)
        techniques = frozenset(name for j, name in enumerate(TECHNIQUES) if bits >> j & 1)
        return _deduction(puzzle, (), lo_out, hi_out, used, None if code < 0 else reason(code), techniques)
    eng = Engine(Board(puzzle, explain), level, lo, hi, explain=explain)
    run(eng)
    techniques = frozenset(eng.techniques)
    return _deduction(puzzle, tuple(eng.steps), eng.lo, eng.hi, eng.used, eng.broken, techniques)


def _deduction(puzzle: Puzzle, steps: tuple[Step, ...], lo: Sequence[int], hi: Sequence[int], used: int,
               broken: str | None, techniques: frozenset[str]) -> Deduction:
    """A run's result from its steps, final bounds, hardest rung (-1 for none), contradiction and
    techniques."""
    return Deduction(
        steps=steps,
        solved=_finished(puzzle, lo, hi, broken),
        counts=tuple(zip(lo, hi, strict=True)),
        grade=GRADES[used] if used >= 0 else None,
        contradiction=broken,
        techniques=techniques,
    )


def grade(puzzle: Puzzle) -> Grade:
    """Return the lowest grade whose techniques solve the puzzle, or Grade.BEYOND."""
    result = deduce(puzzle, explain=False)
    if not result.solved:
        return Grade.BEYOND
    return result.grade or Grade.EASY


def grade_within(puzzle: Puzzle, most: Grade) -> Grade | None:
    """Return the puzzle's grade when it is at most `most`, else None, without trying harder rungs.

    Each rung's techniques run only when the lower rungs have nothing left to do, so a run stopped at
    `most` is the first part of the full run: it finishes exactly when the full run needs no harder
    rung, and then with the same grade (tests/puzzle/test_deduce.py compares the two).
    """
    result = deduce(puzzle, upto=most, explain=False)
    if not result.solved:
        return None
    return result.grade or Grade.EASY


def next_hint(puzzle: Puzzle, state_counts: Sequence[int] | None = None) -> Step | None:
    """Return the next deduction that adds a bridge to the ones drawn so far, or None."""
    steps = hint_steps(puzzle, state_counts)
    return steps[-1] if steps else None


def hint_steps(puzzle: Puzzle, state_counts: Sequence[int] | None = None) -> tuple[Step, ...]:
    """Return the deductions up to the next bridge to draw: the facts it rests on, then the bridge.

    Steps a player sees without being told (full islands, crossed lanes, room left) are left out.
    A drawn bridge that is not in the solution gives one "mistake" step instead.
    """
    geo = puzzle.geometry
    counts = [0] * len(geo.lanes) if state_counts is None else list(state_counts)
    check_state(puzzle, counts)
    names = island_names(puzzle)
    full = deduce(puzzle, explain=False)
    if full.solved:
        wrong = [k for k, (x, (s, _)) in enumerate(zip(counts, full.counts, strict=True)) if x > s]
        if wrong:
            k = wrong[0]
            ln = geo.lanes[k]
            text = _("The bridges drawn on {lane} do not belong to the solution: it has {count} there.")
            text = text.format(lane=f"{names[ln.a]}-{names[ln.b]}", count=bridges(full.counts[k][0]))
            return (Step("mistake", Grade.EASY, (ln.a, ln.b), (k,), (), text),)
        if [s for s, _ in full.counts] == counts:
            return ()
    lo, hi = _start_bounds(puzzle, counts)
    eng = Engine(Board(puzzle, True), EXPERT, lo, hi, explain=True)
    drawn = tuple(counts)
    eng.stop_when = lambda step: any(nlo > drawn[k] for k, nlo, _ in step.conclusions)
    run(eng)
    if eng.broken is not None:
        return (Step("mistake", Grade.EASY, (), (), (),
                     _("The bridges drawn so far cannot all be right: {reason}.").format(reason=eng.broken)),)
    upto = eng.steps[:eng.stop_at] if eng.stopped else eng.steps
    return tuple(s for s in upto if s.technique not in OBVIOUS)


def check_state(puzzle: Puzzle, counts: Sequence[int]) -> None:
    """Raise PuzzleError when drawn bridges break a rule: too many on a lane or island, or crossing."""
    geo = puzzle.geometry
    if len(counts) != len(geo.lanes):
        raise PuzzleError(f"expected {len(geo.lanes)} lane counts, got {len(counts)}")
    names = island_names(puzzle)
    for k, x in enumerate(counts):
        if not 0 <= x <= 2:
            raise PuzzleError(f"lane {lane_name(puzzle, k, names)} has {x} bridges; at most 2 fit")
        if x:
            for c in geo.crossings[k]:
                if c > k and counts[c]:
                    raise PuzzleError(f"the bridges {lane_name(puzzle, k, names)} and "
                                      f"{lane_name(puzzle, c, names)} cross")
    for i, lanes in enumerate(geo.lanes_of):
        total = sum(counts[k] for k in lanes)
        if total > puzzle.clues[i]:
            raise PuzzleError(f"the {puzzle.clues[i]} at {names[i]} has {total} bridges drawn")


class ConclusionJson(TypedDict):
    """One lane's bounds after a step, in a step's JSON object."""

    lane: str
    at_least: int
    at_most: int


class StepJson(TypedDict):
    """A step as the `grade --json` and `hint --json` contracts write it."""

    technique: str
    level: str
    text: str
    islands: list[str]
    lanes: list[str]
    conclusions: list[ConclusionJson]


class GradeJson(TypedDict):
    """The `grade --json` object."""

    difficulty: str
    steps: list[StepJson]


class HintJson(StepJson):
    """The `hint --json` object: the step that draws a bridge, and the steps it rests on."""

    because: list[StepJson]


def step_json(puzzle: Puzzle, step: Step, names: Sequence[str] | None = None) -> StepJson:
    """Return a step as a JSON-ready object with island and lane names."""
    names = names or island_names(puzzle)
    return {
        "technique": step.technique,
        "level": step.grade,
        "text": step.text,
        "islands": [names[i] for i in step.islands],
        "lanes": [lane_name(puzzle, k, names) for k in step.lanes],
        "conclusions": [{"lane": lane_name(puzzle, k, names), "at_least": lo, "at_most": hi}
                        for k, lo, hi in step.conclusions],
    }


@dataclass(frozen=True)
class GradeResult:
    """A puzzle's grade and the deduction steps that reached it (the `grade` command's result)."""

    puzzle: Puzzle
    grade: Grade
    steps: tuple[Step, ...]

    def to_json(self) -> GradeJson:
        """Return the `grade --json` contract object."""
        names = island_names(self.puzzle)
        return {"difficulty": self.grade, "steps": [step_json(self.puzzle, s, names) for s in self.steps]}


@dataclass(frozen=True)
class Hint:
    """The next bridge to draw and the facts it rests on, or no steps when nothing is left to deduce."""

    puzzle: Puzzle
    steps: tuple[Step, ...]

    def to_json(self) -> HintJson | None:
        """Return the `hint --json` contract object: the step plus "because", or None."""
        if not self.steps:
            return None
        return HintJson(**step_json(self.puzzle, self.steps[-1]),
                        because=[step_json(self.puzzle, s) for s in self.steps[:-1]])


def grade_puzzle(puzzle: Puzzle) -> GradeResult:
    """Grade a puzzle, keeping the explained steps: Grade.BEYOND when the deducer gets stuck."""
    result = deduce(puzzle)
    got = (result.grade or Grade.EASY) if result.solved else Grade.BEYOND
    return GradeResult(puzzle, got, result.steps)


def hint(puzzle: Puzzle, state_counts: Sequence[int] | None = None) -> Hint:
    """Return the hint for the bridges drawn so far (see `hint_steps`)."""
    return Hint(puzzle, hint_steps(puzzle, state_counts))


def native_deducer() -> ModuleType | None:
    """The C deducer (setup.py) when it was built beside these very deduce_engine.py and
    deduce_techniques.py and HASHI_PURE_DEDUCE is not set, else None (the Python engine runs)."""
    references = [Path(__file__).with_name(name) for name in ("deduce_engine.py", "deduce_techniques.py")]
    return mirror("hashi_print.puzzle._deduce_native", references, "HASHI_PURE_DEDUCE")


NATIVE = native_deducer()
