"""Checking drawn bridges: solved, wrong lanes, overfull and complete islands, as the web app shows them."""

from __future__ import annotations

from hashi_print.puzzle.formats import parse_tatham_id
from hashi_print.puzzle.progress import check_drawn
from hashi_print.puzzle.solve import solve
from tests.independent import is_valid_solution

README_ID = "7x7m2:3c5a1c1a1b2b2b2g4a5a4h2d2a"


def test_the_solution_is_solved_and_every_island_complete():
    pz = parse_tatham_id(README_ID)
    solution = solve(pz).solution
    assert is_valid_solution(pz, solution)
    got = check_drawn(pz, solution.lane_counts(pz.geometry))
    assert got.solved and got.wrong == () and got.overfull == ()
    assert len(got.complete) == len(pz.islands)


def test_a_wrong_bridge_and_an_overfull_island_are_named():
    pz = parse_tatham_id(README_ID)
    geo = pz.geometry
    truth = solve(pz).solution.lane_counts(geo)
    # A lane the solution leaves empty, drawn twice: wrong, and it may overfill an end.
    k = truth.index(0)
    counts = [0] * len(geo.lanes)
    counts[k] = 2
    got = check_drawn(pz, counts).to_json()
    lane = geo.lanes[k]
    ends = [pz.islands[lane.a], pz.islands[lane.b]]
    names = [f"{chr(65 + i.col)}{i.row + 1}" for i in ends]
    assert got["solved"] is False and got["wrong"] == ["-".join(names)]
    assert got["overfull"] == [n for n, i in zip(names, ends, strict=True) if i.clue < 2]
    assert got["complete"] == [n for n, i in zip(names, ends, strict=True) if i.clue == 2]
    assert check_drawn(pz, [0] * len(geo.lanes)).to_json() == {"solved": False, "wrong": [], "overfull": [],
                                                               "complete": []}
