"""Tests of the shipped layouts: hard constraints, solo tables, and the bots' ranking on both sides."""

from __future__ import annotations

import pytest

from hashi_print.game.board import builtin_side
from hashi_print.game.deck import CARDS_PLAYED, GOALS, load_deck
from hashi_print.game.design import GOAL_BAND, MAX_LANES, deck_problems, side_problems
from hashi_print.game.scoring import load_scoring
from hashi_print.game.simulate import simulate

# Enough games that the bots' means are stable to about a point (the same deals for every bot).
GAMES = 100
SEED = 2024
# 100 games measure a goal rate to about +-5 points; the design report's 400 games are inside 20-80 %.
RATE_SLACK = 0.05


@pytest.fixture(scope="module")
def results():
    """Strong, greedy and random games on both shipped sides, the same deals for every bot."""
    deck, scoring = load_deck(), load_scoring()
    return {name: simulate(builtin_side(name), deck, ["strong", "greedy", "random"], GAMES, SEED,
                           scoring=scoring, workers=2).summary
            for name in ("A", "B")}


@pytest.mark.parametrize("name", ["A", "B"])
def test_shipped_sides_meet_every_design_constraint(name):
    side = builtin_side(name)
    assert side.name == name
    assert side_problems(side) == []
    assert len(side.flagged("red")) == 4 and len(side.flagged("blue")) == 3


def test_side_a_keeps_the_searchs_lane_cap():
    assert len(builtin_side("A").geometry.lanes) <= MAX_LANES["A"]


def test_sides_differ():
    a, b = builtin_side("A"), builtin_side("B")
    assert [(i.row, i.col) for i in a.islands] != [(i.row, i.col) for i in b.islands]


def test_shipped_deck_meets_its_constraints():
    deck = load_deck()
    assert deck_problems(deck) == []
    assert all(count >= 2 for count in deck.numeral_counts().values())
    assert deck.max_bridges() <= 34


def test_shipped_scoring_is_complete_and_ordered():
    scoring = load_scoring()
    assert scoring.per_circled == 2
    assert scoring.bonus["red"] == (9, 5) and scoring.bonus["blue"] == (7, 3)
    first, later = scoring.bonus["six"]
    assert 5 <= first <= 11 and 2 <= later < first
    for side in ("A", "B"):
        levels = scoring.solo_levels[side]
        assert scoring.solo[side] == levels["normal"]
        for goal in GOALS:
            assert 1 <= levels["hard"][goal] <= levels["normal"][goal] <= levels["easy"][goal] <= CARDS_PLAYED
        mins = [m for m, _ in scoring.ratings[side]]
        assert mins == sorted(mins, reverse=True) and mins[-1] == 0


@pytest.mark.parametrize("name", ["A", "B"])
def test_strong_beats_greedy_beats_random(results, name):
    s = results[name]
    assert s["strong"].mean > s["greedy"].mean > s["random"].mean
    assert s["strong"].mean >= 1.15 * s["greedy"].mean
    assert s["greedy"].mean >= 1.5 * s["random"].mean


def test_side_a_is_gentler_than_side_b(results):
    assert results["A"]["strong"].mean >= 1.15 * results["B"]["strong"].mean


@pytest.mark.parametrize("name", ["A", "B"])
def test_every_goal_is_reached_in_some_games_but_not_all(results, name):
    low, high = GOAL_BAND
    rates = results[name]["strong"].goal_rate
    for goal in GOALS:
        assert low - RATE_SLACK <= rates[goal] <= high + RATE_SLACK, (goal, rates[goal])


@pytest.mark.parametrize("name", ["A", "B"])
def test_greedy_bot_alone_does_not_solve_the_side(results, name):
    # The strong bot reaches the goals clearly more often than the greedy one.
    strong, greedy = results[name]["strong"].goal_rate, results[name]["greedy"].goal_rate
    assert sum(strong.values()) >= 1.2 * sum(greedy.values())
