"""The SAT solver against hand-made puzzles with published solutions, benchmarks and small fixtures."""

from __future__ import annotations

import json
import random
from itertools import islice, product

import pytest

from hashi_print.geometry import build_geometry
from hashi_print.puzzle.check import check_solution
from hashi_print.puzzle.formats import parse_has, parse_tatham_id, parse_text_grid
from hashi_print.puzzle.sat import BACKENDS, CARDINALITIES, MODES, direct_clue_clauses
from hashi_print.puzzle.solve import SolveStats, other_solution, solutions, solve
from tests.independent import is_valid_solution, janko_bridges


def janko(shared_data) -> dict:
    """All janko puzzles by name."""
    return json.loads((shared_data / "janko-hashi.json").read_text())["data"]


def test_every_janko_puzzle_is_unique_with_the_published_solution(shared_data) -> None:
    data = janko(shared_data)
    assert len(data) == 910
    wrong = []
    for name, entry in data.items():
        puzzle = parse_text_grid(entry["problem"], name)
        result = solve(puzzle)
        if result.status != "unique":
            wrong.append((name, result.status))
            continue
        got = {tuple(b.as_list()) for b in result.solution.bridges}
        if got != janko_bridges(entry["solution"]) or not is_valid_solution(puzzle, result.solution):
            wrong.append((name, "different solution"))
        elif check_solution(puzzle, result.solution):
            wrong.append((name, "the project's checker disagrees"))
    assert wrong == []


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_all_modes_and_backends_agree(shared_data, mode: str, backend: str) -> None:
    data = janko(shared_data)
    small = sorted(data, key=lambda n: len(data[n]["problem"]))[:12]
    for name in small:
        puzzle = parse_text_grid(data[name]["problem"], name)
        result = solve(puzzle, mode, backend)
        assert result.status == "unique", name
        got = {tuple(b.as_list()) for b in result.solution.bridges}
        assert got == janko_bridges(data[name]["solution"])


@pytest.mark.parametrize("card", CARDINALITIES)
def test_cardinality_encodings_agree(card: str) -> None:
    puzzle = parse_tatham_id("7x7m2:3c5a1c1a1b2b2b2g4a5a4h2d2a")
    first = solve(puzzle, card=card)
    assert first.status == "unique" and is_valid_solution(puzzle, first.solution)
    assert first.solution == solve(puzzle).solution


def test_coelho_instances_have_several_solutions(shared_data) -> None:
    files = sorted((shared_data / "coelho-2019").glob("*/*.has"))
    for path in files[::180]:
        puzzle = parse_has(path.read_text(), str(path))
        result = solve(puzzle)
        assert result.status == "multiple", path.name
        assert is_valid_solution(puzzle, result.solution)
        second = other_solution(puzzle, result.solution)
        assert second is not None and second != result.solution
        assert is_valid_solution(puzzle, second)


def test_four_threes_on_a_square_have_two_solutions() -> None:
    puzzle = parse_text_grid("3.3\n...\n3.3")
    found = list(islice(solutions(puzzle), 5))
    assert len(found) == 2
    assert all(is_valid_solution(puzzle, s) for s in found)
    assert solve(puzzle).status == "multiple"
    assert solve(puzzle, "eager").status == "multiple"


def test_a_puzzle_without_solution_says_none() -> None:
    # Two separate pairs that can never meet: clues are met only inside each pair.
    puzzle = parse_text_grid("1.1\n...\n1.1\n")
    assert solve(puzzle).status == "none"
    assert solve(puzzle, "eager").status == "none"
    odd = parse_text_grid("3.1\n...\n1..\n")
    assert solve(odd).status == "none"


def test_connectivity_needs_a_cut() -> None:
    # Without connectivity this has two-island groups; the lazy cuts must join them.
    puzzle = parse_text_grid("2.2\n...\n2.2")
    result = solve(puzzle)
    assert result.status == "unique"
    assert is_valid_solution(puzzle, result.solution)


def test_kissat_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown backend"):
        solve(parse_text_grid("2.2\n...\n2.2"), backend="kissat404")


def test_direct_clue_clauses_allow_exactly_the_clue() -> None:
    # A hub with 1-4 lanes, each to a one-lane neighbour whose clue is that lane's count: the clauses
    # must hold exactly when the hub's own count is its clue, for every clue and every lane count 0-2.
    for degree in range(1, 5):
        geo = build_geometry(4, 4, [(1, 1), (1, 3), (3, 1), (1, 0), (0, 1)][:degree + 1])
        hub = geo.index_of[(1, 1)]
        lanes = geo.lanes_of[hub]
        assert len(lanes) == degree == len(geo.lanes)
        e1 = [k + 1 for k in range(degree)]
        e2 = [degree + k + 1 for k in range(degree)]
        for clue, counts in product(range(1, 9), product(range(3), repeat=degree)):
            clues = [0] * (degree + 1)
            clues[hub] = clue
            for k, n in zip(lanes, counts, strict=True):
                clues[geo.lanes[k].other(hub)] = n
            true = {e1[k] for k, n in zip(lanes, counts, strict=True) if n >= 1}
            true |= {e2[k] for k, n in zip(lanes, counts, strict=True) if n == 2}
            clauses = direct_clue_clauses(geo, clues, e1, e2)
            satisfied = all(any((v > 0) == (abs(v) in true) for v in c) for c in clauses)
            assert satisfied == (sum(counts) == clue), (degree, clue, counts)


def test_groups_match_a_plain_flood_fill() -> None:
    rng = random.Random(7)
    for _ in range(200):
        cells = {(rng.randrange(9), rng.randrange(9)) for _ in range(rng.randrange(1, 30))}
        geo = build_geometry(9, 9, cells)
        built = [k for k in range(len(geo.lanes)) if rng.random() < 0.5]
        seen: dict[int, int] = {}
        groups = []
        for start in range(len(geo.positions)):
            if start in seen:
                continue
            group, todo = [], [start]
            seen[start] = start
            while todo:
                i = todo.pop()
                group.append(i)
                for k in built:
                    lane = geo.lanes[k]
                    for a, b in ((lane.a, lane.b), (lane.b, lane.a)):
                        if a == i and b not in seen:
                            seen[b] = start
                            todo.append(b)
            groups.append(sorted(group))
        assert geo.components(built) == groups


def test_stage_times_add_up_within_the_total(shared_data) -> None:
    path = sorted((shared_data / "coelho-2019" / "100").glob("*.has"))[0]
    puzzle = parse_has(path.read_text(), str(path))
    stats = SolveStats()
    result = solve(puzzle, stats=stats)
    stages = [stats.encode, stats.add, stats.search, stats.connect, stats.decode]
    assert all(t > 0 for t in stages)
    assert sum(stages) <= result.seconds
    assert stats.cuts == result.cuts
    again = solve(puzzle, stats=stats)
    assert stats.cuts == result.cuts + again.cuts and again.solution == result.solution
