"""The deducer's quiet run in C against the Python engine: the same final bounds, hardest rung,
contradiction and techniques on every puzzle and rung, from nothing or from drawn bridges; the
techniques of a quiet run are those of the worded run's steps; bad arguments refused."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from hashi_print.puzzle import deduce as deduce_module
from hashi_print.puzzle.deduce import check_state, deduce
from hashi_print.puzzle.deduce_engine import EXPERT, TECHNIQUES, Board, Engine, reason
from hashi_print.puzzle.deduce_techniques import run
from hashi_print.puzzle.formats import parse_tatham_id, parse_text_grid
from hashi_print.puzzle.generate import generate_many
from hashi_print.puzzle.model import GRADES, Puzzle
from hashi_print.puzzle.solve import solve
from tests.independent import is_valid_solution
from tests.native_guard import assert_mirror_guard
from tests.puzzle.test_deduce import tatham_fixture
from tests.puzzle.test_presolve_native import random_puzzles

NATIVE = deduce_module.NATIVE
pytestmark = pytest.mark.skipif(NATIVE is None,
                                reason="the C deducer is not built (scripts/build_native_bots.py)")

Outcome = tuple[tuple[int, ...], tuple[int, ...], int, str | None, frozenset[str]]


def python_run(puzzle: Puzzle, level: int, start: list[int] | None = None) -> Outcome:
    """The Python engine's quiet run: final bounds, hardest rung, contradiction and techniques."""
    lo, hi = deduce_module._start_bounds(puzzle, start)
    eng = Engine(Board(puzzle, False), level, lo, hi, explain=False)
    run(eng)
    return tuple(eng.lo), tuple(eng.hi), eng.used, eng.broken, frozenset(eng.techniques)


def c_run(puzzle: Puzzle, level: int, start: list[int] | None = None) -> Outcome:
    """The C run of the same, with its contradiction in words and its techniques by name."""
    lo, hi = deduce_module._start_bounds(puzzle, start)
    b = Board(puzzle, False)
    lo_out, hi_out, used, code, bits = NATIVE.run(b.clue, b.ea, b.eb, b.lanes_of, b.cross, b.near, level,
                                                  lo, hi)
    names = frozenset(name for j, name in enumerate(TECHNIQUES) if bits >> j & 1)
    return lo_out, hi_out, used, None if code < 0 else reason(code), names


def agree(puzzles: list[Puzzle], levels: range = range(EXPERT + 1)) -> dict[tuple[int, bool], int]:
    """Assert that both runs agree on every puzzle and rung; count outcomes by rung used and contradiction."""
    seen: dict[tuple[int, bool], int] = {}
    for puzzle in puzzles:
        for level in levels:
            expected = python_run(puzzle, level)
            assert c_run(puzzle, level) == expected, (puzzle, level)
            key = (expected[2], expected[3] is not None)
            seen[key] = seen.get(key, 0) + 1
    return seen


def test_the_c_deducer_agrees_on_every_stored_puzzle_at_every_rung():
    puzzles = [parse_tatham_id(pid) for _, pid in tatham_fixture()]
    seen = agree(puzzles)
    assert sum(seen.values()) == 90 * 4
    assert {used for used, _ in seen} == {0, 1, 2}  # the generated puzzles below reach the top rung


def test_the_c_deducer_agrees_on_random_puzzles_contradictions_included():
    puzzles = [p for size in (4, 7, 12) for p in random_puzzles(150, seed=100 + size, size=size)]
    seen = agree(puzzles)
    assert sum(n for (_, broken), n in seen.items() if broken) > 100
    assert sum(n for (_, broken), n in seen.items() if not broken) > 100


def test_the_c_deducer_agrees_on_generated_puzzles_and_from_drawn_bridges():
    rng = random.Random(7)
    puzzles = [made.puzzle for width, grade, count in ((10, "medium", 4), (15, "hard", 6), (15, "expert", 6),
                                                       (25, "expert", 2))
               for made in generate_many(width, width, grade, count, random.Random(width + count))]
    seen = agree(puzzles)
    assert seen.get((3, False), 0) >= 8  # the contradiction chains ran and finished
    for puzzle in puzzles:
        # A quiet run takes the steps the worded run writes out: the same techniques.
        worded = {step.technique for step in deduce(puzzle).steps}
        assert deduce(puzzle, explain=False).techniques == worded
    # Every technique but two that these puzzles never need (the counting rules settle them first).
    used = set().union(*(deduce(p, explain=False).techniques for p in puzzles))
    assert used == set(TECHNIQUES) - {"impossible", "only-way-out"}
    drawn = {"broken": 0, "fine": 0}
    for puzzle in puzzles:
        solution = [lo for lo, _ in deduce(puzzle, explain=False).counts]
        for _ in range(6):
            start = [x if rng.random() < 0.3 else 0 for x in solution]
            if rng.random() < 0.5:  # often a wrong bridge, that the run must contradict
                k = rng.randrange(len(start))
                start[k] = rng.choice([x for x in (1, 2) if x != solution[k]])
            try:
                check_state(puzzle, start)
            except Exception:  # noqa: BLE001 - a drawn state that breaks a rule is not a start
                continue
            expected = python_run(puzzle, 3, start)
            assert c_run(puzzle, 3, start) == expected
            drawn["broken" if expected[3] else "fine"] += 1
    assert min(drawn.values()) >= 10, drawn


def test_the_c_deducer_agrees_on_the_janko_set_and_its_solutions_check_out(shared_data):
    data = json.loads((shared_data / "janko-hashi.json").read_text())["data"]
    solved = 0
    for name, entry in list(data.items())[::3]:
        puzzle = parse_text_grid(entry["problem"], name)
        expected = python_run(puzzle, 3)
        assert c_run(puzzle, 3) == expected, name
        result = deduce(puzzle, explain=False)
        if result.solved:
            # Independently: the deduced bridges are a valid solution, and the solver's.
            found = result.solution(puzzle)
            assert found is not None and is_valid_solution(puzzle, found)
            assert found == solve(puzzle).solution
            solved += 1
    assert solved > 250


def test_deduce_gives_the_same_result_with_and_without_c(monkeypatch):
    puzzles = [parse_tatham_id(pid) for _, pid in tatham_fixture()][::9]
    with_c = [deduce(p, upto=grade, explain=False) for p in puzzles for grade in GRADES[:4]]
    monkeypatch.setattr(deduce_module, "NATIVE", None)
    assert [deduce(p, upto=grade, explain=False) for p in puzzles for grade in GRADES[:4]] == with_c


def test_deduce_uses_the_c_one_only_when_built_from_these_python_files(monkeypatch):
    assert deduce_module.native_deducer() is NATIVE
    folder = Path(deduce_module.__file__).parent
    assert_mirror_guard(monkeypatch, "hashi_print.puzzle._deduce_native",
                        [folder / "deduce_engine.py", folder / "deduce_techniques.py"], "HASHI_PURE_DEDUCE",
                        deduce_module.native_deducer)


GOOD = ((2, 2), (0,), (1,), ((0,), (0,)), ((),), ((0, 1), (0, 1)), 3, (0,), (2,))


@pytest.mark.parametrize("change, message", [
    ({0: (9999, 2)}, "clues: 9999 is out of range"),
    ({0: ()}, "clues: no island"),
    ({1: (0, 0)}, "ends_b: 1 items, expected 2"),
    ({2: (5,)}, "ends_b: 5 is out of range"),
    ({2: (0,)}, "a lane needs two islands"),
    ({3: ((0,),)}, "lanes_of: 1 items, expected 2"),
    ({0: (2, 2, 1), 3: ((0,), (0,), (0,)), 5: ((0, 1), (0, 1), (2,))}, "does not end at its island"),
    ({4: ((3,),)}, "crossings: 3 is out of range"),
    ({5: ((0, 7), (1,))}, "near: 7 is out of range"),
    ({6: 4}, "level: out of range"),
    ({7: (0, 0)}, "lo: 2 items, expected 1"),
    ({8: (3,)}, "hi: 3 is out of range"),
])
def test_bad_arguments_are_refused(change, message):
    args = list(GOOD)
    for index, value in change.items():
        args[index] = value
    with pytest.raises(ValueError, match=message):
        NATIVE.run(*args)


def test_good_arguments_run():
    assert NATIVE.run(*GOOD) == ((2,), (2,), 0, -1, 1 << list(TECHNIQUES).index("fill"))
