"""Islands that can no longer be completed, flagged while playing: closed groups and starved islands."""

from __future__ import annotations

from hashi_print.puzzle.formats import parse_bridges, parse_puzzle
from hashi_print.puzzle.progress import progress


def flags(grid: str, bridges: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    puzzle = parse_puzzle(grid)
    done = progress(puzzle, parse_bridges(puzzle, bridges) if bridges else (0,) * len(puzzle.geometry.lanes),
                    None)
    return done.closed, done.starved


def test_a_closed_pair_is_flagged_and_the_whole_puzzle_is_not():
    # 1 1 / 1 1: joining the top pair closes it off from the bottom pair
    assert flags("11\n11\n", "A1-B1") == (("A1", "B1"), ())
    assert flags("11\n", "A1-B1") == ((), ()), "a finished group that is the whole puzzle is the solution"


def test_an_island_whose_lanes_can_no_longer_carry_its_bridges_is_starved():
    # 2 . 2 / . . . / 2 . .: A3 (a 2) has one lane, to A1; a bridge A1-C1 leaves A1 room for only one more
    grid = "2.2\n...\n2..\n"
    assert flags(grid, "") == ((), ())
    assert flags(grid, "A1-C1") == ((), ("A3",))
    assert flags(grid, "A1-A3") == ((), ("C1",))


def test_the_issues_cut_off_pair():
    closed, starved = flags("10x10m2:a1a3c5a11a3a3a1l12m1b3l6a6d5a2t3a5d5a1", "J1-J3")
    assert closed == ("J1", "J3")
    assert "H1" in starved     # the 5 at H1 loses its lane to J1
