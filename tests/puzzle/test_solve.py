"""The SAT solver against hand-made puzzles with published solutions, benchmarks and small fixtures."""

from __future__ import annotations

import json
from itertools import islice

import pytest

from hashi_print.puzzle.check import check_solution
from hashi_print.puzzle.formats import parse_has, parse_tatham_id, parse_text_grid
from hashi_print.puzzle.sat import BACKENDS, CARDINALITIES, MODES
from hashi_print.puzzle.solve import other_solution, solutions, solve
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
