"""Tests of the layout engine: constraint checks, side and deck search moves, calibration, report."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from hashi_print.game.board import BoardSide, side_from_json, side_to_json
from hashi_print.game.deck import Card, Deck, deck_from_json
from hashi_print.game.design import (
    SEARCH_MARGIN,
    Budget,
    DesignResult,
    base_deck,
    calibrate_six,
    deck_problems,
    design,
    finalists,
    goal_penalty,
    mutate_deck,
    mutate_side,
    objective_problems,
    provisional_scoring,
    random_side,
    rating_bands,
    side_objective,
    side_of,
    side_problems,
    solo_tables,
)
from hashi_print.game.design_report import curves_svg, histogram_svg, layout_files, write_design
from hashi_print.game.scoring import scoring_from_json
from hashi_print.game.simulate import GameRecord, Simulation, Summary, summarise


def grid_side() -> BoardSide:
    """A hand-made acceptable 9x9 side: five crossings, flags spread out.

    A* .  B  .  c  .  D  .  E*
    F  .  .  .  g  .  .  .  H        (row 2)
    I  .  J  .  K  .  l  .  .        (row 4)
    M  .  .  .  .  .  .  .  N*       (row 6)
    .  .  O* .  P  .  Q  .  R        (row 8)
    """
    cells = ([(0, c) for c in (0, 2, 4, 6, 8)] + [(2, c) for c in (0, 4, 8)] + [(4, c) for c in (0, 2, 4, 6)]
             + [(6, 0), (6, 8)] + [(8, c) for c in (2, 4, 6, 8)])
    layout = dict.fromkeys(cells)
    for cell in [(0, 0), (0, 8), (8, 2), (6, 8)]:
        layout[cell] = "red"
    for cell in [(2, 4), (4, 6), (0, 4)]:
        layout[cell] = "blue"
    return side_of("T", 9, 9, layout)


def test_hand_made_side_is_acceptable():
    assert side_problems(grid_side()) == []


def test_touching_islands_are_reported():
    layout = {(i.row, i.col): i.flag for i in grid_side().islands}
    del layout[(8, 8)]
    layout[(5, 2)] = None  # right below J at (4, 2)
    assert any("touch" in p for p in side_problems(side_of("T", 9, 9, layout)))


def test_red_islands_close_together_are_reported():
    layout = {(i.row, i.col): i.flag for i in grid_side().islands}
    layout[(6, 8)], layout[(2, 0)] = None, "red"
    problems = side_problems(side_of("T", 9, 9, layout))
    assert problems == ["red islands A and F are too close"]


def test_too_few_crossings_and_disconnection_are_reported():
    # Two separate blocks of islands: no lane joins them.
    cells = [(r, c) for r in (0, 2, 4) for c in (0, 2, 4)]
    cells += [(r, c) for r in (8, 10, 12) for c in (8, 10, 12)]
    layout = dict.fromkeys(cells)
    for cell in [(0, 0), (4, 4), (8, 12), (12, 8)]:
        layout[cell] = "red"
    for cell in [(2, 2), (10, 10), (0, 4)]:
        layout[cell] = "blue"
    problems = side_problems(side_of("T", 13, 13, layout))
    assert "the lane graph is not connected" in problems
    assert any("crossing" in p for p in problems)


def test_random_and_mutated_sides_meet_every_constraint_and_load_back():
    rng = random.Random(4)
    side = random_side("A", 9, 9, rng)
    for _ in range(5):
        side = mutate_side(side, rng)
        assert side_problems(side) == []
    assert side_from_json(json.loads(json.dumps(side_to_json(side)))) == side


def test_lane_cap_is_reported_and_kept_by_search_moves():
    side = grid_side()
    lanes = len(side.geometry.lanes)
    assert side_problems(side, max_lanes=lanes) == []
    assert side_problems(side, max_lanes=lanes - 1) == [f"{lanes} lanes; at most {lanes - 1} wanted"]
    rng = random.Random(6)
    capped = random_side("A", 9, 9, rng, max_lanes=19)
    assert len(capped.geometry.lanes) <= 19
    for _ in range(5):
        capped = mutate_side(capped, rng, max_lanes=19)
        assert len(capped.geometry.lanes) <= 19 and side_problems(capped) == []


def summary_with(mean: float, rates: tuple[float, float, float], forced: float = 0.0) -> Summary:
    """A made-up summary with the given mean score, red/blue/six rates and forced skips."""
    goals = ("red", "blue", "six")
    return Summary(40, mean, 5.0, (mean - 3, mean, mean + 3), 10.0, dict(zip(goals, rates, strict=True)),
                   dict.fromkeys(goals), 4.0, forced, 30.0)


def test_goal_penalty_counts_distance_outside_the_band():
    assert goal_penalty(summary_with(30, (0.5, 0.2, 0.8))) == 0
    assert goal_penalty(summary_with(30, (0.1, 0.5, 0.95))) == pytest.approx(0.1 + 0.15)
    assert goal_penalty(summary_with(30, (0.5, 0.2, 0.8)), margin=0.05) == pytest.approx(0.1)


def test_side_objective_prefers_rates_inside_the_band_and_a_clear_strong_edge():
    inside = summary_with(36, (0.5, 0.5, 0.6))
    six_too_often = summary_with(38, (0.5, 0.5, 0.9))
    assert side_objective(inside, None) > side_objective(six_too_often, None)
    # Side B aims at a target mean rather than the highest one.
    assert side_objective(summary_with(30, (0.5, 0.5, 0.5)), 30) > side_objective(inside, 30)
    # A rate just inside 20-80 % still pays for the search margin.
    edge_rate = 0.8 - SEARCH_MARGIN / 2
    assert side_objective(summary_with(36, (0.5, 0.5, edge_rate)), None) < side_objective(inside, None)
    close_greedy, far_greedy = summary_with(34, (0.3, 0.3, 0.3)), summary_with(24, (0.3, 0.3, 0.3))
    assert side_objective(inside, None, close_greedy) < side_objective(inside, None, far_greedy)
    assert side_objective(inside, None, far_greedy) == side_objective(inside, None)


def test_finalists_are_the_best_distinct_candidates():
    a, b, c = (random_side("A", 9, 9, random.Random(k)) for k in (1, 2, 3))
    measured = [(5.0, 1, a), (9.0, 2, b), (9.0, 3, b), (7.0, 4, c), (1.0, 5, a)]
    assert finalists(measured) == [(2, b), (4, c), (1, a)]


def test_random_side_is_deterministic():
    assert random_side("A", 10, 10, random.Random(8)) == random_side("A", 10, 10, random.Random(8))


def test_deck_constraints():
    deck = base_deck()
    assert deck_problems(deck) == []
    assert sum(c.bridges for c in deck.cards) == 34
    rng = random.Random(2)
    for _ in range(20):
        deck = mutate_deck(deck, rng)
        assert deck_problems(deck) == []
    bad = Deck(tuple(Card(1, 3) for _ in range(18)))
    problems = deck_problems(bad)
    assert any("numeral 2" in p for p in problems)
    assert any("bridges in the deck" in p for p in problems)


def fake_sim(turns: dict[str, list[int | None]], scores: list[int]) -> Simulation:
    """A Simulation of strong-bot records with the given goal turns and scores."""
    records = []
    for k, score in enumerate(scores):
        goals = tuple((g, t[k]) for g, t in turns.items() if t[k] is not None)
        records.append(GameRecord(k, "strong", score, score // 2, goals, 0, 0, 0, 20, (0, 3)))
    recs = tuple(records)
    return Simulation({"strong": recs}, {"strong": summarise(recs)})


def bots_sim(strong: list[int], greedy: list[int], reached: dict[str, int]) -> Simulation:
    """Strong and greedy records; the strong bot reaches each goal in its first `reached[goal]` games."""
    recs = {}
    for bot, scores in (("strong", strong), ("greedy", greedy)):
        rows = []
        for k, score in enumerate(scores):
            goals = tuple((g, 10) for g, n in reached.items() if bot == "strong" and k < n)
            rows.append(GameRecord(k, bot, score, score // 2, goals, 0, 0, 0, 20, (0, 3)))
        recs[bot] = tuple(rows)
    return Simulation(recs, {b: summarise(r) for b, r in recs.items()})


def test_objective_problems_name_each_missed_objective():
    side_a = bots_sim([40] * 10, [30] * 10, {"red": 5, "blue": 5, "six": 5})
    side_b = bots_sim([30] * 10, [25] * 10, {"red": 3, "blue": 3, "six": 3})
    result = DesignResult({}, base_deck(), provisional_scoring(), (), {"A": side_a, "B": side_b}, {}, {}, 1,
                          Budget())
    assert objective_problems(result) == []
    hard_b = bots_sim([38] * 10, [36] * 10, {"red": 1, "blue": 3, "six": 9})
    assert objective_problems(replace(result, final={"A": side_a, "B": hard_b})) == [
        "side B: red reached in 10% of strong games", "side B: six reached in 90% of strong games",
        "side B: strong bot only 1.056x greedy", "side A / side B mean 1.053, below 1.15"]


def test_solo_tables_use_quartile_turns():
    # red turns 10, 12, 14, 16: quartiles 11.5, 13, 14.5, rounded up in the player's favour.
    sim = fake_sim({"red": [10, 12, 14, 16, None], "blue": [None] * 5, "six": [8, 8, 8, 8, 8]},
                   [30, 32, 34, 36, 38])
    levels = solo_tables(sim)
    assert levels["easy"]["red"] == 15 and levels["normal"]["red"] == 13 and levels["hard"]["red"] == 12
    assert levels["normal"]["blue"] == 17  # never reached: the whole game
    assert levels["hard"]["six"] == 8


def test_six_value_balances_expected_bonus():
    sim = fake_sim({"red": [10, None, None, None], "blue": [9, 9, None, None], "six": [5, 6, 7, None]},
                   [30, 30, 30, 30])
    (first, later), info = calibrate_six([sim])
    # red 9 x 25 % and blue 7 x 50 % average 2.875 points; six is reached 75 %: 2.875 / 0.75 = 3.8 -> 5.
    assert info["expected_red_blue"] == pytest.approx(2.875)
    assert (first, later) == (5, 2)


def test_rating_bands_descend_and_end_at_zero():
    bands = rating_bands(list(range(10, 60)))
    mins = [m for m, _ in bands]
    assert mins == sorted(mins, reverse=True) and mins[-1] == 0
    assert len(set(mins)) == len(mins)


def test_svg_plots_parse():
    svg = histogram_svg({"strong": [30, 32, 40], "greedy": [20, 22, 31]}, "t")
    root = ET.fromstring(svg)
    lines = [e for e in root.iter() if e.tag.endswith("polyline")]
    assert len(lines) == 2
    svg = curves_svg({"red": [k / 17 for k in range(17)]}, "c")
    assert any(e.tag.endswith("polyline") for e in ET.fromstring(svg).iter())


def test_tiny_design_is_deterministic_and_writes_a_report(tmp_path):
    budget = Budget(side_steps=1, deck_steps=1, games=3, final_games=5)
    one = design(3, budget, workers=1)
    two = design(3, budget, workers=1)
    assert layout_files(one) == layout_files(two)
    files = layout_files(one)
    side_a = side_from_json(json.loads(files["side-a.json"]))
    assert side_problems(side_a) == []
    assert deck_problems(deck_from_json(json.loads(files["deck.json"]))) == []
    scoring = scoring_from_json(json.loads(files["scoring.json"]))
    assert set(scoring.solo) == {"A", "B"} and set(scoring.solo_levels["B"]) == {"easy", "normal", "hard"}
    written = write_design(one, str(tmp_path))
    report = (tmp_path / "design.md").read_text()
    assert "strong" in report and f"**{scoring.bonus['six'][0]}**" in report
    assert "- Objectives: " in report
    assert {r.setup for r in one.solo["B"].records["strong"]} <= {
        (i, v) for i, isl in enumerate(side_from_json(json.loads(files["side-b.json"])).islands)
        if isl.flag is None for v in (3, 4)}
    for path in written:
        if path.endswith(".svg"):
            ET.parse(path)


def test_design_command_writes_report_and_layouts(tmp_path):
    from click.testing import CliRunner

    from hashi_print.cli import cli

    out = tmp_path / "design"
    result = CliRunner().invoke(cli, ["design", "--seed", "5", "--budget", "1", "--games", "2",
                                      "--final-games", "3", "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "design.md").read_text().startswith("# Hashi layout design report")
    side = side_from_json(json.loads((out / "layouts" / "side-b.json").read_text()))
    assert side.name == "B" and side_problems(side) == []
    assert str(out / "scores-A.svg") in result.output
