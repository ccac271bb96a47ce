"""Tests of the shipped layouts: hard constraints, solo tables, the objectives, and their reproduction."""

from __future__ import annotations

import pytest

from hashi_print.files import designed_json, designed_text
from hashi_print.game.board import builtin_side
from hashi_print.game.deck import CARDS_PLAYED, GOALS, load_deck
from hashi_print.game.design import (
    SIDE_CROSSINGS,
    Measure,
    deck_problems,
    design,
    plain_setups,
    side_checks,
    side_problems,
)
from hashi_print.game.design_report import layout_files
from hashi_print.game.scoring import load_scoring
from hashi_print.game.simulate import simulate

# 6 games x every setup (132 games) for the random setup, as the design plays them: each game on a deal
# of its own, since a goal's rate swings widely with the card order. 60 games under the adversary's
# setup. Every bot plays the same deals.
DEALS = 6
GAMES = 60
SEED = 2024
# Negative margins: each target widened by about 2-3 standard errors of these games.
SLACK = {"rate": -0.1, "skips": -0.6, "share": -0.03, "edge": -0.05, "ratio": -0.05}
# The targets of game-rules.md (round 3) the shipped design misses on these games (bench/design.md).
KNOWN_MISSES: set[tuple[str, str, str]] = set()


def adversary(name: str) -> tuple[int, int]:
    """The setup the design run's adversary chose for a side (noted in scoring.json, e.g. `H4`)."""
    side = builtin_side(name)
    text = designed_json("scoring.json")["design"]["adversary"][name]
    return side.island(text[:-1]), int(text[-1])


@pytest.fixture(scope="module")
def results():
    """Strong, greedy and random games on both shipped sides under both setups, as the design measures."""
    deck, scoring = load_deck(), load_scoring()
    out = {}
    for name in ("A", "B"):
        side = builtin_side(name)
        setups = plain_setups(side)
        bots = ["strong", "greedy", "random"]
        sims = {"random": simulate(side, deck, bots, DEALS * len(setups), SEED, scoring=scoring,
                                   setup=setups, workers=2, share_deals=False),
                "adversary": simulate(side, deck, bots, GAMES, SEED, scoring=scoring,
                                      setup=(adversary(name),), workers=2)}
        out[name] = Measure(adversary(name), (), sims)
    return out


@pytest.mark.parametrize("name", ["A", "B"])
def test_shipped_sides_meet_every_design_constraint(name):
    side = builtin_side(name)
    assert side.name == name
    assert side_problems(side, SIDE_CROSSINGS[name]) == []
    assert len(side.flagged("red")) == 4 and len(side.flagged("blue")) == 3
    # Independently of the checker: two lanes at every island, so a setup 4 fits anywhere (2 + 2).
    for k in range(len(side.islands)):
        assert len(side.geometry.lanes_of[k]) >= 2


@pytest.mark.parametrize("name", ["A", "B"])
def test_the_adversarys_setup_is_a_legal_one(name):
    side = builtin_side(name)
    island, value = adversary(name)
    assert side.islands[island].flag is None and value in (3, 4)


def test_sides_differ():
    a, b = builtin_side("A"), builtin_side("B")
    assert [(i.row, i.col) for i in a.islands] != [(i.row, i.col) for i in b.islands]


def test_shipped_deck_meets_its_constraints():
    deck = load_deck()
    assert deck_problems(deck) == []
    assert all(count >= 2 for count in deck.numeral_counts().values())


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
        assert set(scoring.level_ratings[side]) == {"easy", "normal", "hard"}
        for bands in scoring.level_ratings[side].values():
            mins = [m for m, _ in bands]
            assert mins == sorted(mins, reverse=True) and mins[-1] == 0


@pytest.mark.parametrize("setup", ["random", "adversary"])
@pytest.mark.parametrize("name", ["A", "B"])
def test_strong_beats_greedy_beats_random(results, name, setup):
    s = results[name].sims[setup].summary
    assert s["strong"].mean > s["greedy"].mean > s["random"].mean


def test_every_target_is_met_or_a_known_miss(results):
    # The design's own checks on these games, with the slack of about 2-3 standard errors of 60 games.
    checks = (side_checks("A", results["A"], margins=SLACK, side=builtin_side("A"))
              + side_checks("B", results["B"], results["A"], margins=SLACK, side=builtin_side("B")))
    # Lanes, numeral skips, numerals written, strong / greedy (and A / B on side B), under both setups.
    assert len(checks) == 2 * 4 + 2 * 5
    missed = {(c.side, c.setup, c.objective) for c in checks if not c.met}
    # The shipped design (seed 1) against round 3's targets; how often each goal is reached is reported,
    # not targeted. A design that misses a target fails here.
    assert missed == KNOWN_MISSES, sorted(missed ^ KNOWN_MISSES)


@pytest.mark.slow
def test_design_seed_1_reproduces_the_shipped_files():
    # The full design run (several minutes on 2 cores): what `hashi-print design --seed 1 --write-layouts`
    # writes must be the shipped files, byte for byte.
    for name, text in layout_files(design(1)).items():
        assert text == designed_text(name), name
