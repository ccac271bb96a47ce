"""The C root propagation against the Python one: the same bounds, variables and clauses in the same
order on every puzzle, so the solver sees the same formula; bad arguments refused with ValueError."""

from __future__ import annotations

import json
import random

import pytest

from hashi_print.errors import PuzzleError
from hashi_print.geometry import build_geometry
from hashi_print.puzzle import presolve as presolve_module
from hashi_print.puzzle.formats import parse_tatham_id, parse_text_grid
from hashi_print.puzzle.model import Puzzle
from hashi_print.puzzle.presolve import Presolved, presolve_python
from tests.native_guard import assert_mirror_guard
from tests.puzzle.test_deduce import tatham_fixture

NATIVE = presolve_module.NATIVE
pytestmark = pytest.mark.skipif(NATIVE is None,
                                reason="the C presolve is not built (scripts/build_native_bots.py)")


def native(puzzle: Puzzle) -> Presolved | None:
    """The C presolve's answer for a puzzle, as presolve() wraps it."""
    geo = puzzle.geometry
    fields = NATIVE(puzzle.clues, geo.ends, geo.lanes_of, geo.crossings)
    return None if fields is None else Presolved(*fields)


def random_puzzles(count: int, seed: int, size: int) -> list[Puzzle]:
    """Random puzzles on a size x size grid: clues from random bridges (many solvable), or any clue."""
    rng = random.Random(seed)
    out: list[Puzzle] = []
    while len(out) < count:
        cells = {(rng.randrange(size), rng.randrange(size)) for _ in range(rng.randrange(2, 3 * size))}
        geo = build_geometry(size, size, cells)
        counts = [rng.choice((0, 1, 1, 2)) for _ in geo.lanes]
        if rng.random() < 0.3:
            clues = [rng.randint(1, 8) for _ in geo.positions]
        else:
            clues = [sum(counts[k] for k in geo.lanes_of[i]) or rng.randint(1, 3) for i in range(len(cells))]
        islands = [(*pos, c) for pos, c in zip(geo.positions, clues, strict=True)]
        try:
            out.append(Puzzle.build(size, size, islands))
        except PuzzleError:
            continue
    return out


def test_the_c_presolve_writes_the_same_formula_for_every_stored_puzzle():
    puzzles = [parse_tatham_id(pid) for _, pid in tatham_fixture()]
    assert len(puzzles) == 90
    encoded = 0
    for puzzle in puzzles:
        expected = presolve_python(puzzle)
        assert native(puzzle) == expected, puzzle
        encoded += expected is not None and bool(expected.clauses)
    assert encoded >= 1  # most settle by propagation alone; the random puzzles below leave more open


def test_the_c_presolve_agrees_on_random_puzzles_contradictions_included():
    outcomes = {"none": 0, "settled": 0, "open": 0, "groups": 0}
    for size in (4, 7, 12):
        for puzzle in random_puzzles(400, seed=size, size=size):
            expected = presolve_python(puzzle)
            assert native(puzzle) == expected, puzzle
            if expected is None:
                outcomes["none"] += 1
            else:
                outcomes["open" if expected.variables else "settled"] += 1
                outcomes["groups"] += expected.groups > 1
    assert min(outcomes.values()) > 20, outcomes


def test_the_c_presolve_agrees_on_the_janko_set(shared_data):
    data = json.loads((shared_data / "janko-hashi.json").read_text())["data"]
    for name, entry in data.items():
        puzzle = parse_text_grid(entry["problem"], name)
        assert native(puzzle) == presolve_python(puzzle), name


def test_presolve_uses_the_c_one_only_when_built_from_this_presolve(monkeypatch):
    assert presolve_module.native_presolve() is NATIVE
    assert_mirror_guard(monkeypatch, "hashi_print.puzzle._presolve_native", [presolve_module.__file__],
                        "HASHI_PURE_PRESOLVE", presolve_module.native_presolve, attr="presolve")


@pytest.mark.parametrize("args, message", [
    (((9999,), ((0, 0),), ((0,),), ((),)), "clues: 9999 is out of range"),
    (((1, 1), ((0, 2),), ((0,), (0,)), ((),)), "ends: 2 is out of range"),
    (((1, 1), ((0,),), ((0,), (0,)), ((),)), "ends: a lane needs two islands"),
    (((1, 1), ((0, 1),), ((0,),), ((),)), "lanes_of: 1 items, expected 2"),
    (((1, 1, 1), ((0, 1),), ((0,), (0,), (0,)), ((),)), "does not end at its island"),
    (((1, 1), ((0, 1),), ((0,), (0,)), ((5,),)), "crossings: 5 is out of range"),
    (((), (), (), ()), "clues: no island"),
])
def test_bad_arguments_are_refused(args, message):
    with pytest.raises(ValueError, match=message):
        NATIVE(*args)
