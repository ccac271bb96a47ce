"""Tests of the layout engine: constraint checks, side and deck search moves, calibration, report."""

from __future__ import annotations

import hashlib
import json
import random
import statistics
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from hashi_print.game.board import BoardSide, side_from_json, side_to_json
from hashi_print.game.deck import Card, Deck, deck_from_json
from hashi_print.game.design import (
    CONFIRM_SEED,
    FINALISTS,
    FLAG_FINALISTS,
    MARGINS,
    QUICK,
    Budget,
    Context,
    DesignResult,
    Measure,
    Pool,
    aim_checks,
    base_deck,
    calibrate_six,
    circleable,
    deck_problems,
    deck_text,
    design,
    design_checks,
    finalists,
    flag_moves,
    flag_text,
    measure_side,
    mutate_deck,
    mutate_side,
    objective_problems,
    place_flags,
    placement_of,
    plain_setups,
    provisional_scoring,
    race_timing,
    random_side,
    rating_bands,
    side_checks,
    side_objective,
    side_of,
    side_problems,
    solo_tables,
)
from hashi_print.game.design_report import curves_svg, histogram_svg, layout_files, write_design
from hashi_print.game.scoring import scoring_from_json
from hashi_print.game.simulate import GameRecord, Simulation, simulate, summarise


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
    layout = placement_of(grid_side())
    del layout[(8, 8)]
    layout[(5, 2)] = None  # right below J at (4, 2)
    assert any("touch" in p for p in side_problems(side_of("T", 9, 9, layout)))


def test_red_islands_close_together_are_reported():
    layout = placement_of(grid_side())
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


def test_single_lane_islands_are_reported_and_never_made():
    layout = placement_of(grid_side())
    # Q at (8, 6) moved to (7, 6): it keeps only the lane to l at (4, 6) above it... and P and R lose theirs.
    del layout[(8, 6)]
    layout[(7, 6)] = None
    side = side_of("T", 9, 9, layout)
    single = [isl.label for k, isl in enumerate(side.islands) if len(side.geometry.lanes_of[k]) < 2]
    assert single
    problems = side_problems(side)
    for label in single:
        assert any(p.startswith(f"island {label} has 1 lane") for p in problems), problems
    rng = random.Random(9)
    for _ in range(3):
        made = random_side("A", 9, 9, rng)
        assert all(len(lanes) >= 2 for lanes in made.geometry.lanes_of)


def test_every_unflagged_island_can_take_a_setup_three_or_four():
    side = grid_side()
    for k, isl in enumerate(side.islands):
        lanes = len(side.geometry.lanes_of[k])
        # Independent count: two bridges per lane; 3 and 4 fit exactly when the island has two lanes.
        assert circleable(side, k, 4) == (2 * lanes >= 4)
        assert circleable(side, k, 3) == (2 * lanes >= 3)
        if isl.flag is None:
            assert circleable(side, k, 3) and circleable(side, k, 4)


def test_crossing_minimum_is_per_side():
    side = grid_side()
    assert any("crossing" in p for p in side_problems(side, min_crossings=50))
    rng = random.Random(3)
    b = random_side("B", 10, 10, rng, min_crossings=6)
    assert side_problems(b, 6) == []
    assert side_problems(mutate_side(b, rng, min_crossings=6), 6) == []


def test_lane_cap_is_reported_and_kept_by_search_moves():
    side = grid_side()
    lanes = len(side.geometry.lanes)
    assert side_problems(side, max_lanes=lanes) == []
    assert side_problems(side, max_lanes=lanes - 1) == [f"{lanes} lanes; at most {lanes - 1} wanted"]
    rng = random.Random(6)
    capped = random_side("A", 9, 9, rng, max_lanes=23)
    assert len(capped.geometry.lanes) <= 23
    for _ in range(5):
        capped = mutate_side(capped, rng, max_lanes=23)
        assert len(capped.geometry.lanes) <= 23 and side_problems(capped) == []


def record(index: int, bot: str, score: int, goals: dict[str, int] | None = None, numeral_skips: int = 2,
           forced_numerals: int = 0, bridge_skips: int = 3, forced: int = 1) -> GameRecord:
    """A made-up game record."""
    return GameRecord(index, bot, score, score // 3, tuple((goals or {}).items()), numeral_skips,
                      bridge_skips, forced, 20, (0, 3), forced_numerals, 17 * 8, 17 * 3)


def sim_of(rows: dict[str, list[GameRecord]]) -> Simulation:
    """A Simulation from records per bot."""
    recs = {bot: tuple(r) for bot, r in rows.items()}
    return Simulation(recs, {bot: summarise(r) for bot, r in recs.items()})


def fake_measure(strong: int, greedy: int | None, reached: dict[str, int], games: int = 10,
                 numeral_skips: int = 2) -> Measure:
    """Both setups alike: the strong bot scores `strong` and reaches goal g in its first reached[g] games."""
    rows = {"strong": [record(k, "strong", strong, {g: 9 for g, n in reached.items() if k < n},
                              numeral_skips=numeral_skips) for k in range(games)]}
    if greedy is not None:
        rows["greedy"] = [record(k, "greedy", greedy) for k in range(games)]
    sim = sim_of(rows)
    return Measure((0, 3), (((0, 3), float(strong)),), {"adversary": sim, "random": sim})


def test_aim_checks_cover_every_aim_under_both_setups():
    # The search's aims: issue 13's bands, stricter than round 3's targets.
    good = fake_measure(40, 30, {"red": 5, "blue": 5, "six": 5})
    checks = aim_checks("A", good)
    assert {c.setup for c in checks} == {"adversary", "random"}
    assert all(c.met for c in checks)
    names = {c.objective for c in checks}
    assert names == {"voluntary numeral skips", "voluntary bridge skips", "numerals written", "red reached",
                     "blue reached", "six reached", "strong / greedy mean"}
    # 5 numeral skips: 3 voluntary is A's aim, so 5 misses it and writes 12/17 = 71 % < 75 %.
    skippy = fake_measure(40, 30, {"red": 5, "blue": 5, "six": 5}, numeral_skips=5)
    missed = {c.objective for c in aim_checks("A", skippy) if not c.met}
    assert missed == {"voluntary numeral skips", "numerals written"}
    # Side B aims at 4 voluntary numeral skips but still wants 75 % of the numerals written.
    four = fake_measure(30, 20, {"red": 3, "blue": 3, "six": 3}, numeral_skips=4)
    assert all(c.met for c in aim_checks("B", four) if c.objective != "side A / side B mean")
    # Goal bands: A 25-85 %, B 15-70 %.
    b_checks = aim_checks("B", fake_measure(30, 20, {"red": 1, "blue": 8, "six": 3}), good)
    assert {c.objective for c in b_checks if not c.met} == {"red reached", "blue reached"}
    close = fake_measure(36, 33, {"red": 5, "blue": 5, "six": 5})
    missed = {(c.objective, c.setup) for c in aim_checks("B", close, good) if not c.met}
    assert missed == {("strong / greedy mean", k) for k in ("adversary", "random")} | {
        ("side A / side B mean", k) for k in ("adversary", "random")}


def test_side_checks_are_round_3s_targets_and_leave_the_goal_rates_to_the_report():
    good = fake_measure(40, 30, {"red": 5, "blue": 5, "six": 5})
    checks = side_checks("A", good, side=grid_side())
    assert {c.setup for c in checks} == {"adversary", "random"}
    assert {c.objective for c in checks} == {"islands with fewer than 2 lanes", "voluntary numeral skips",
                                             "numerals written", "strong / greedy mean"}
    assert all(c.met for c in checks)
    # Goals reached in no game or in every game: reported, not targeted.
    assert all(c.met for c in side_checks("A", fake_measure(40, 30, {"red": 0, "blue": 10, "six": 10})))
    # 4 numeral skips (none forced): over A's 3.2, within B's 4.5; 13/17 = 76 % written, >= 72 %.
    four = fake_measure(40, 30, {}, numeral_skips=4)
    assert {c.objective for c in side_checks("A", four) if not c.met} == {"voluntary numeral skips"}
    assert all(c.met for c in side_checks("B", four))
    # 5 skips: 12/17 = 70.6 % written, under 72 %, and over B's 4.5 too.
    five = fake_measure(40, 30, {}, numeral_skips=5)
    assert {c.objective for c in side_checks("B", five) if not c.met} == {"voluntary numeral skips",
                                                                          "numerals written"}
    # Edge and ratio: 100 / 88 = 1.136 and 113 / 100 = 1.13 meet round 3's 1.12 (not the search's 1.15
    # aims); 100 / 90 = 1.111 and 111 / 100 = 1.11 miss.
    half = {"red": 5, "blue": 5, "six": 5}
    b_edge, a_ratio = fake_measure(100, 88, half), fake_measure(113, 100, half)
    assert all(c.met for c in side_checks("B", b_edge, a_ratio))
    assert {c.objective for c in aim_checks("B", b_edge, a_ratio) if not c.met} == {
        "strong / greedy mean", "side A / side B mean"}
    missed = {(c.objective, c.setup) for c in side_checks("B", fake_measure(100, 90, half),
                                                          fake_measure(111, 100, half)) if not c.met}
    assert missed == {(o, k) for o in ("strong / greedy mean", "side A / side B mean")
                      for k in ("adversary", "random")}
    # An island with one lane is a miss under both setups.
    layout = placement_of(grid_side())
    del layout[(8, 6)]
    layout[(7, 6)] = None  # as in test_single_lane_islands_are_reported_and_never_made
    thin = side_of("T", 9, 9, layout)
    one_lane = sum(1 for lanes in thin.geometry.lanes_of if len(lanes) < 2)
    assert one_lane >= 1
    bad = [c for c in side_checks("A", good, side=thin) if not c.met]
    assert [(c.objective, c.value) for c in bad] == [("islands with fewer than 2 lanes", one_lane)] * 2


def test_side_objective_pays_for_misses_and_margins():
    inside = fake_measure(36, 20, {"red": 5, "blue": 5, "six": 5})
    six_too_often = fake_measure(37, 20, {"red": 5, "blue": 5, "six": 10})
    red_too_often = fake_measure(37, 20, {"red": 10, "blue": 5, "six": 5})
    assert side_objective("A", inside) > side_objective("A", six_too_often)
    # The six band counts far less than the other goals' bands (it is out of reach within the rules) ...
    assert side_objective("A", six_too_often) > side_objective("A", red_too_often) + 10
    # ... and less than one voluntary numeral skip over the limit.
    skippy = fake_measure(36, 20, {"red": 5, "blue": 5, "six": 5}, numeral_skips=4)
    assert side_objective("A", six_too_often) > side_objective("A", skippy)
    # Side B aims at a target mean rather than the highest one.
    assert side_objective("B", fake_measure(30, 20, {"red": 5, "blue": 5, "six": 5}), target=30) > \
        side_objective("B", inside, target=30)
    # A rate on the band's edge pays for the search margin.
    edge = fake_measure(36, 20, {"red": 17, "blue": 10, "six": 10}, games=20)
    assert all(c.met for c in aim_checks("A", edge))
    assert [c for c in aim_checks("A", edge, margins=MARGINS) if not c.met]
    assert side_objective("A", edge) < side_objective("A", inside)


def test_finalists_are_the_best_distinct_candidates():
    a, b, c = (random_side("A", 9, 9, random.Random(k)) for k in (1, 2, 3))
    m = fake_measure(30, None, {})
    measured = [(5.0, 1, a, m), (9.0, 2, b, m), (9.0, 3, b, m), (7.0, 4, c, m), (1.0, 5, a, m)]
    assert [(step, side) for step, side, _m in finalists(measured)] == [(2, b), (4, c), (1, a)][:FINALISTS]


def test_adversary_is_the_setup_with_the_lowest_mean():
    side = grid_side()
    deck, scoring = base_deck(), provisional_scoring()
    m = measure_side(side, deck, scoring, QUICK.confirm, 4, Pool(workers=1))
    setups = plain_setups(side)
    assert len(setups) == 2 * sum(1 for isl in side.islands if isl.flag is None)
    assert [s for s, _ in m.setup_means] == list(setups)
    assert m.adversary in setups
    # The random-setup games play every setup equally often, each game on a deal of its own.
    taken = [r.setup for r in m.sims["random"].records["strong"]]
    assert sorted(taken) == sorted(setups * QUICK.confirm.screen_deals)
    own = simulate(side, deck, ["strong"], len(taken), 4, scoring=scoring, setup=setups, workers=1,
                   share_deals=False)
    assert own.records["strong"] == m.sims["random"].records["strong"]
    assert {r.setup for r in m.sims["adversary"].records["strong"]} == {m.adversary}
    # Among the two suspects (lowest screening means) the adversary has the lower re-measured mean.
    lowest = sorted(m.setup_means, key=lambda x: x[1])[:2]
    assert m.adversary in [s for s, _ in lowest]


def test_flag_moves_are_every_single_flag_move_that_keeps_the_constraints():
    side = grid_side()
    before = placement_of(side)
    moves = flag_moves(side, None, 4)
    seen = set()
    for cand in moves:
        after = placement_of(cand)
        assert set(after) == set(before) and side_problems(cand, 4) == []
        changed = {c for c in before if before[c] != after[c]}
        # One flag left its island for an unflagged one, colours unchanged.
        assert len(changed) == 2
        src, dst = sorted(changed, key=lambda c: after[c] is not None)
        assert before[dst] is None and after[src] is None and after[dst] == before[src]
        seen.add((src, dst))
    assert len(seen) == len(moves)
    # Every other single move breaks a constraint (counted independently of flag_moves).
    flagged = [c for c, f in before.items() if f]
    plain = [c for c, f in before.items() if f is None]
    for src in flagged:
        for dst in plain:
            if (src, dst) not in seen:
                cand = side_of("T", 9, 9, {**before, src: None, dst: before[src]})
                assert side_problems(cand, 4) != []
    assert 0 < len(moves) < len(flagged) * len(plain)
    assert flag_text(side) == "red A E N O, blue C G L"


def test_place_flags_keeps_a_move_only_when_it_betters_the_objective():
    side, deck, scoring = grid_side(), base_deck(), provisional_scoring()
    budget = replace(QUICK, flag_rounds=2)
    ctx = Context(1, Pool(workers=2), budget, None)
    start = measure_side(side, deck, scoring, budget.confirm, 1 + CONFIRM_SEED, ctx.pool,
                         ("strong", "greedy"))
    trials: list = []
    # A few of the moves keep the test short (flag_moves is tested above).
    chosen, m = place_flags("A", side, start, deck, scoring, ctx, trials,
                            moves=lambda s: flag_moves(s, None, 4)[::12])
    assert {t.stage for t in trials} == {"side A flags"} and {t.step for t in trials} == {1, 2}
    # On these deals a move betters the objective in each round: two flags moved.
    kept = [t for t in trials if t.kept]
    assert chosen != side and kept[-1].description == flag_text(chosen)
    assert sum(placement_of(side)[c] != f for c, f in placement_of(chosen).items()) == 4
    assert side_objective("A", m) == kept[-1].objective > side_objective("A", start)
    # Each kept move betters the one kept before it; the others do not.
    best = side_objective("A", start)
    for t in trials:
        assert t.kept == (t.objective > best)
        best = max(best, t.objective)
    # The measurement returned is the finalists' measurement of the side returned, made again here.
    again = measure_side(chosen, deck, scoring, budget.confirm, 1 + CONFIRM_SEED, Pool(workers=1),
                         ("strong", "greedy"))
    assert again.sims["random"].records == m.sims["random"].records
    assert place_flags("A", side, start, deck, scoring, replace(ctx, budget=replace(budget, flag_rounds=0)),
                       []) == (side, start)


def test_place_flags_simulates_each_placement_once_and_still_reports_it_each_round(monkeypatch):
    import hashi_print.game.design_search as design_module

    side, deck, scoring = grid_side(), base_deck(), provisional_scoring()
    budget = replace(QUICK, flag_rounds=3)
    ctx = Context(1, Pool(workers=2), budget, None)
    bots = ("strong", "greedy")
    start = measure_side(side, deck, scoring, budget.confirm, 1 + CONFIRM_SEED, ctx.pool, bots)
    fixed = flag_moves(side, None, 4)[::12]
    simulated = []

    def counted(cand, *args, **kwargs):
        simulated.append((args[2], flag_text(cand)))
        return measure_side(cand, *args, **kwargs)

    monkeypatch.setattr(design_module, "measure_side", counted)
    trials: list = []
    # Every round offers the same placements, so after the first round nothing new is simulated.
    chosen, m = place_flags("A", side, start, deck, scoring, ctx, trials, moves=lambda s: fixed)
    assert chosen != side and [t.kept for t in trials[:FLAG_FINALISTS]].count(True) >= 1
    assert len(simulated) == len(set(simulated)) == len(fixed) + FLAG_FINALISTS
    # Round 2 measured the same finalists again from what round 1 simulated, found nothing better, stopped.
    rounds = [[(t.description, t.objective) for t in trials if t.step == r] for r in (1, 2)]
    assert sorted(rounds[0]) == sorted(rounds[1]) and {t.step for t in trials} == {1, 2}
    assert not any(t.kept for t in trials if t.step == 2)
    again = measure_side(chosen, deck, scoring, budget.confirm, 1 + CONFIRM_SEED, Pool(workers=1), bots)
    assert m.sims["random"].records == again.sims["random"].records


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


def test_objective_problems_name_each_missed_objective():
    side_a = fake_measure(40, 30, {"red": 5, "blue": 5, "six": 5})
    side_b = fake_measure(30, 25, {"red": 3, "blue": 3, "six": 3})
    result = DesignResult({}, base_deck(), provisional_scoring(), (), {"A": side_a, "B": side_b}, {}, 1,
                          Budget())
    assert objective_problems(result) == []
    assert set(design_checks(result)) == {"A", "B"}
    # Goal rates far outside issue 13's bands are no longer problems (round 3 reports them).
    hard_b = fake_measure(38, 36, {"red": 1, "blue": 3, "six": 9}, numeral_skips=5)
    problems = objective_problems(replace(result, final={"A": side_a, "B": hard_b}))
    assert "side B, random setup: voluntary numeral skips 5.00 (wanted <= 4.5)" in problems
    assert "side B, adversary setup: numerals written 71% (wanted >= 72%)" in problems
    assert "side B, adversary setup: strong / greedy mean 1.056 (wanted >= 1.12)" in problems
    assert "side B, random setup: side A / side B mean 1.053 (wanted >= 1.12)" in problems
    assert not [p for p in problems if "reached" in p]
    assert len(problems) == 8


def test_race_timing_gives_the_rate_and_the_quartiles_of_the_reached_turns():
    # Red on turns 10, 3, 8, 5 in four games of six; blue once, on turn 7; six never.
    turns = [10, 3, None, 8, 5, None]
    rows = [record(k, "strong", 30, {"red": t, **({"blue": 7} if k == 0 else {})} if t else {})
            for k, t in enumerate(turns)]
    rows.append(record(6, "greedy", 20, {"red": 1}))
    sim = sim_of({"strong": rows[:6], "greedy": rows[6:]})
    red = race_timing(sim, "red")
    # Sorted 3 5 8 10: Q1 at position 0.75 -> 3 + 0.75 x 2 = 4.5; median at 1.5 -> 5 + 0.5 x 3 = 6.5;
    # Q3 at 2.25 -> 8 + 0.25 x 2 = 8.5.
    assert (red.games, red.reached, red.quartiles) == (6, 4, (4.5, 6.5, 8.5))
    assert red.rate == pytest.approx(4 / 6)
    assert race_timing(sim, "blue").quartiles == (7, 7, 7)
    six = race_timing(sim, "six")
    assert (six.reached, six.quartiles, six.rate) == (0, None, 0.0)
    assert race_timing(sim, "red", "greedy").quartiles == (1, 1, 1)


def test_solo_limits_are_turns_reached_in_a_share_of_all_games():
    # Ten games; red reached on turns 5, 6, ... 12 in eight of them, never in two.
    rows = [record(k, "strong", 30, {"red": 5 + k} if k < 8 else {}) for k in range(10)]
    limits, shares = solo_tables(sim_of({"strong": rows}))
    # By turn t, (t - 4) games of 10 have red: 60 % at turn 10, 40 % at 8, 20 % at 6.
    assert (limits["easy"]["red"], limits["normal"]["red"], limits["hard"]["red"]) == (10, 8, 6)
    assert shares["easy"]["red"] == pytest.approx(0.6) and shares["hard"]["red"] == pytest.approx(0.2)
    # Never reached: the whole game, with its true share.
    assert limits["easy"]["blue"] == 17 and shares["easy"]["blue"] == 0


def test_six_value_balances_expected_bonus():
    (first, later), info = calibrate_six([{"red": 0.25, "blue": 0.5, "six": 0.75}])
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


# design(3, QUICK) before the targets and the aims were separated: every trial's objective, and the sha256 of
# its four layout files joined in name order.
QUICK_SEED_3_OBJECTIVES = [-14.588235, -130.715274, -145.303509, -141.196638, -40.330156, -162.49537,
                           -131.927415, -159.359982, -200.789035]
QUICK_SEED_3_FILES = "0ea8b3c60e0314e0cde0ed87be14a5fff4c576d8c79a54d820a4fdea776c3000"


def test_tiny_design_is_deterministic_and_writes_a_report(tmp_path):
    one = design(3, QUICK, workers=1)
    two = design(3, QUICK, workers=2)
    assert layout_files(one) == layout_files(two)
    files = layout_files(one)
    # The search steers by its aims, not by the report's targets: when round 3's targets came in, this run's
    # objectives and files stayed what they were before (recorded then).
    assert [round(t.objective, 6) for t in one.trials] == QUICK_SEED_3_OBJECTIVES
    assert hashlib.sha256("".join(files[k] for k in sorted(files)).encode()).hexdigest() == QUICK_SEED_3_FILES
    side_a = side_from_json(json.loads(files["side-a.json"]))
    assert side_problems(side_a) == []
    assert deck_problems(deck_from_json(json.loads(files["deck.json"]))) == []
    scoring = scoring_from_json(json.loads(files["scoring.json"]))
    assert set(scoring.solo) == {"A", "B"} and set(scoring.solo_levels["B"]) == {"easy", "normal", "hard"}
    assert set(scoring.level_ratings["A"]) == {"easy", "normal", "hard"}
    assert scoring.ratings["A"] == scoring.level_ratings["A"]["normal"]
    written = write_design(one, str(tmp_path), others=[two])
    report = (tmp_path / "design.md").read_text()
    assert "strong" in report and f"**{scoring.bonus['six'][0]}**" in report
    assert "- Targets (shipped seed): " in report
    # The race timing table: one row per side, setup and goal, worked out again from the games.
    race = report.split("## Race timing", 1)[1].split("\n## ", 1)[0]
    rows = [line.split(" | ") for line in race.splitlines() if line.startswith(("| A |", "| B |"))]
    assert len(rows) == 2 * 2 * 3
    for side, setup, goal, games, reached, q1, median, q3 in ([c.strip("| ") for c in r] for r in rows):
        recs = one.final[side].sims[setup].records["strong"]
        turns = sorted(t for r in recs if (t := r.goal_turn(goal)) is not None)
        assert int(games) == len(recs)
        assert reached == f"{len(turns)} ({len(turns) / len(recs):.0%})"
        want = ([turns[0]] * 3 if len(turns) == 1 else statistics.quantiles(turns, n=4, method="inclusive")
                if turns else None)
        assert [q1, median, q3] == (["-"] * 3 if want is None else [f"{v:g}" for v in want])
    # The search's aims are written out beside the targets.
    assert "The **aims** are issue 13's targets" in report
    assert "at most 3.2 (A) and 4.5 (B)" in report
    assert ("| objective | target | seed 3 adversary | seed 3 random | seed 3 adversary | seed 3 random |"
            in report)
    side_b = side_from_json(json.loads(files["side-b.json"]))
    assert {r.setup for r in one.final["B"].sims["random"].records["strong"]} == set(plain_setups(side_b))
    for path in written:
        if path.endswith(".svg"):
            ET.parse(path)


def test_design_command_writes_report_and_layouts(tmp_path):
    from click.testing import CliRunner

    from hashi_print.cli import cli

    out = tmp_path / "design"
    result = CliRunner().invoke(cli, ["design", "--seed", "5", "--quick", "--workers", "1",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "design.md").read_text().startswith("# Hashi layout design report")
    side = side_from_json(json.loads((out / "layouts" / "side-b.json").read_text()))
    assert side.name == "B" and side_problems(side, 6) == []
    assert str(out / "scores-A.svg") in result.output


def test_random_side_alignment_is_a_parameter():
    loose = random_side("A", 9, 9, random.Random(5), aligned=0.5)
    assert side_problems(loose) == []
    assert loose == random_side("A", 9, 9, random.Random(5), aligned=0.5)
    assert loose != random_side("A", 9, 9, random.Random(5))


def test_design_search_starts_from_the_given_deck():
    start = Deck(tuple(sorted(Card(n, b) for n, b in zip(
        [1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 4, 4, 4, 5, 5, 6, 6],
        [1, 1, 2, 3, 1, 2, 2, 2, 3, 1, 3, 1, 2, 2, 1, 2, 1, 2], strict=True))))
    assert deck_problems(start) == []
    result = design(3, QUICK, workers=1, start=start)
    first = next(t for t in result.trials if t.stage == "deck")
    assert first.step == 0 and first.description == deck_text(start)
    assert first.description != deck_text(base_deck())


def test_the_design_command_says_why_when_the_bots_search_in_pure_python(monkeypatch):
    from hashi_print.game import bots, botsearch
    from hashi_print.jobs.design import kernel_note

    monkeypatch.delenv("HASHI_PURE_BOTS", raising=False)
    monkeypatch.setattr(bots, "SEARCH", botsearch.Search)
    assert "C kernel is not built (no C compiler" in kernel_note()
    monkeypatch.setenv("HASHI_PURE_BOTS", "1")
    assert "HASHI_PURE_BOTS is set" in kernel_note()

    class Compiled(botsearch.Search):
        """Another kernel, as the C one is."""

    monkeypatch.setattr(bots, "SEARCH", Compiled)
    assert kernel_note() is None
