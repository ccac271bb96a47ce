"""Root propagation before search: sound against published solutions and brute force, same verdicts."""

from __future__ import annotations

import json
import random
from itertools import islice, product

from hashi_print.errors import PuzzleError
from hashi_print.geometry import build_geometry
from hashi_print.puzzle.formats import parse_has, parse_text_grid
from hashi_print.puzzle.model import Island, Puzzle, Solution
from hashi_print.puzzle.presolve import _first_bounds, lane_bounds, presolve
from hashi_print.puzzle.repair_solver import RepairSolver
from hashi_print.puzzle.sat import encode
from hashi_print.puzzle.solve import SolveStats, other_solution, solutions, solve
from tests.independent import is_valid_solution, janko_bridges


def janko(shared_data) -> dict:
    """All janko puzzles by name."""
    return json.loads((shared_data / "janko-hashi.json").read_text())["data"]


def test_bounds_hold_the_published_janko_solutions_and_settle_most_lanes(shared_data) -> None:
    settled = lanes = clauses = whole = 0
    for name, entry in janko(shared_data).items():
        puzzle = parse_text_grid(entry["problem"], name)
        geo = puzzle.geometry
        found = lane_bounds(puzzle)
        assert found is not None, name
        lo, hi, _, _ = found
        published = [0] * len(geo.lanes)
        for r1, c1, r2, c2, k in janko_bridges(entry["solution"]):
            published[geo.lane_at[((r1, c1), (r2, c2))]] = k
        assert all(a <= k <= b for a, k, b in zip(lo, published, hi, strict=True)), name
        settled += sum(a == b for a, b in zip(lo, hi, strict=True))
        lanes += len(lo)
        pre = presolve(puzzle)
        assert pre is not None
        clauses += len(pre.clauses)
        whole += len(encode(puzzle).clauses)
    # Measured: 71 % of the lanes settle and the formula keeps a seventh of its clauses.
    assert settled > 0.55 * lanes
    assert clauses < 0.25 * whole


def brute_force(puzzle: Puzzle, limit: int) -> list[Solution]:
    """Every solution by trying each bridge count on each lane (checked by the tests' own checker)."""
    geo = puzzle.geometry
    found = []
    for counts in product(range(3), repeat=len(geo.lanes)):
        solution = Solution.from_lane_counts(geo, counts)
        if is_valid_solution(puzzle, solution):
            found.append(solution)
            if len(found) == limit:
                break
    return found


def random_puzzles(count: int, seed: int) -> list[Puzzle]:
    """Small random puzzles with few lanes, most of them without a solution or with several."""
    rng = random.Random(seed)
    out: list[Puzzle] = []
    while len(out) < count:
        cells = {(rng.randrange(5), rng.randrange(5)) for _ in range(rng.randrange(2, 7))}
        geo = build_geometry(5, 5, cells)
        if not 1 <= len(geo.lanes) <= 6:
            continue
        # Clues drawn from a random bridge count per lane, so many puzzles have solutions.
        counts = [rng.choice((0, 1, 1, 2)) for _ in geo.lanes]
        clues = [sum(counts[k] for k in geo.lanes_of[i]) or rng.randrange(1, 3) for i in range(len(cells))]
        try:
            out.append(Puzzle.build(5, 5, [(*pos, c) for pos, c in zip(geo.positions, clues, strict=True)]))
        except PuzzleError:
            continue
    return out


def test_every_solution_matches_brute_force_on_small_random_puzzles() -> None:
    kinds = set()
    texts = ("3.3\n...\n3.3", "2.3.1\n.....\n1.4.2\n.....\n..2.1", "2.2.2\n.....\n2.2.2")
    several = [parse_text_grid(t) for t in texts]
    for puzzle in several + random_puzzles(150, seed=39):
        expected = brute_force(puzzle, limit=10)
        got = list(islice(solutions(puzzle), 10))
        assert sorted(got, key=Solution.as_lists) == sorted(expected, key=Solution.as_lists), puzzle
        assert solve(puzzle).status == solve(puzzle, presolved=False).status
        kinds.add(min(len(got), 2))
    assert kinds == {0, 1, 2}


def test_the_whole_formula_and_the_presolved_one_agree(shared_data) -> None:
    data = janko(shared_data)
    for name in list(data)[::30]:
        puzzle = parse_text_grid(data[name]["problem"], name)
        fast, whole = solve(puzzle), solve(puzzle, presolved=False)
        assert fast.status == whole.status == "unique" and fast.solution == whole.solution
    files = sorted((shared_data / "coelho-2019").glob("*/*.has"))
    for path in files[::120]:
        puzzle = parse_has(path.read_text(), str(path))
        result = solve(puzzle)
        assert result.status == solve(puzzle, presolved=False).status == "multiple", path.name
        second = other_solution(puzzle, result.solution)
        assert second is not None and second != result.solution and is_valid_solution(puzzle, second)


def test_a_puzzle_settled_by_propagation_needs_no_search() -> None:
    # Every lane is forced by the clues alone: 4 in a corner with two lanes, 2s beside it.
    puzzle = parse_text_grid("4.2\n...\n2..")
    pre = presolve(puzzle)
    assert pre is not None and pre.variables == 0 and pre.clauses == ()
    stats = SolveStats()
    result = solve(puzzle, stats=stats)
    assert result.status == "unique" and is_valid_solution(puzzle, result.solution)
    assert stats.search == 0
    assert solve(puzzle, presolved=False).solution == result.solution


def test_a_settled_puzzle_in_two_groups_has_no_solution() -> None:
    # Two rows of 1-2-1 with no lane between them: every lane is forced, and the groups stay apart.
    puzzle = parse_text_grid("1.2.1.\n......\n.1.2.1")
    pre = presolve(puzzle)
    assert pre is not None and pre.variables == 0 and pre.clauses == () and pre.groups == 2
    assert solve(puzzle).status == solve(puzzle, presolved=False).status == "none"


def test_first_bounds_cap_each_lane_by_its_ends_clues() -> None:
    # Three islands in a row, every pair of clues (and clues above 8, which take the computed rule).
    for x, y in product(range(1, 11), repeat=2):
        clue = (x, y, 1)
        _, hi, _, most = _first_bounds(clue, ((0, 1), (1, 2)), ((0,), (0, 1), (1,)))
        first = x - 1 if x == y <= 2 else 2 if x > 1 < y else 1
        second = 0 if y == 1 else 1
        assert hi == [first, second], (x, y)
        assert most == [first, first + second, second]


def test_a_lane_that_would_close_two_groups_off_is_lowered() -> None:
    # The 1 at the top right and the 2 below it are bridged for sure; a bridge from that 2 down to the
    # 1 in the corner would fill all three and cut them off, so the 2's other bridge comes from the 3.
    puzzle = parse_text_grid("1..1\n3..2\n....\n2..1")
    geo = puzzle.geometry
    found = lane_bounds(puzzle)
    assert found is not None
    lo, hi, _, _ = found
    assert lo == hi  # every lane settled; the clues alone leave four lanes open
    assert hi[geo.lane_at[((1, 3), (3, 3))]] == 0
    assert lo[geo.lane_at[((1, 0), (1, 3))]] == 1
    pre = presolve(puzzle)
    assert pre is not None and pre.variables == 0
    result = solve(puzzle)
    assert result.status == "unique" and is_valid_solution(puzzle, result.solution)
    assert result.solution == solve(puzzle, presolved=False).solution


def test_contradicting_clues_say_none_before_any_search() -> None:
    puzzle = parse_text_grid("3.1\n...\n1..")
    assert lane_bounds(puzzle) is None
    assert solve(puzzle).status == solve(puzzle, presolved=False).status == "none"


def test_solutions_come_with_their_bridges_in_order() -> None:
    rng = random.Random(3)
    for _ in range(100):
        cells = {(rng.randrange(8), rng.randrange(8)) for _ in range(rng.randrange(2, 20))}
        geo = build_geometry(8, 8, cells)
        counts = [rng.randrange(3) for _ in geo.lanes]
        bridges = Solution.from_lane_counts(geo, counts).bridges
        assert list(bridges) == sorted(bridges)
        assert Solution.from_lists([b.as_list() for b in bridges]).bridges == bridges


def test_one_repair_solver_answers_for_every_clue_set_on_its_islands(shared_data) -> None:
    # Clue sets on one geometry, each with a known solution: a janko puzzle's, and its solution with
    # one lane's single and double bridge swapped (the clues at the lane's ends follow).
    data = janko(shared_data)
    base = parse_text_grid(data["03_15x25"]["problem"], "03_15x25")
    geo = base.geometry
    cases = []
    for found in islice(solutions(base), 1):
        counts = list(found.lane_counts(geo))
        for k in [k for k, c in enumerate(counts) if c]:
            changed = counts.copy()
            changed[k] = 3 - changed[k]
            clues = [sum(changed[x] for x in geo.lanes_of[i]) for i in range(len(geo.positions))]
            puzzle = Puzzle(base.cols, base.rows, tuple(Island(r, c, n) for (r, c), n in
                                                        zip(geo.positions, clues, strict=True)))
            cases.append((puzzle, Solution.from_lane_counts(geo, changed)))
    verdicts = set()
    with RepairSolver(geo) as checker:
        for puzzle, known in cases:
            assert puzzle.geometry is geo
            other = checker.other_solution(puzzle, known)
            fresh = other_solution(puzzle, known)
            assert (other is None) == (fresh is None) == (solve(puzzle).status == "unique")
            if other is not None:
                assert other != known and is_valid_solution(puzzle, other)
            verdicts.add(other is None)
    assert verdicts == {True, False}
