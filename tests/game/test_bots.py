"""Tests of the bots and the simulator: legal moves only, determinism, replayable games."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from hashi_print.game.board import load_side
from hashi_print.game.bots import (
    SETUPS,
    STRATEGIES,
    Context,
    can_bridge,
    greedy_bot,
    strong_bot,
)
from hashi_print.game.deck import Card, load_deck
from hashi_print.game.rules import apply, check_move, legal_moves, new_game
from hashi_print.game.scoring import load_scoring, score_sheet
from hashi_print.game.simulate import deal, play_game, simulate

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SIDE = load_side(FIXTURES / "fixture-side.json")
DECK = load_deck(FIXTURES / "fixture-deck.json")
SCORING = load_scoring(FIXTURES / "fixture-scoring.json")


def random_states(count: int, seed: int):
    """Yield (state, card, context) positions reached by random play on the fixture side."""
    rng = random.Random(seed)
    for g in range(count):
        cards = deal(DECK, rng)
        context = Context(SIDE, DECK, SCORING, (), random.Random(g))
        state = new_game(SIDE, SETUPS["random"](SIDE, context))
        for card in cards:
            yield state, card, context
            state = apply(state, card, rng.choice(legal_moves(state, card)))
            context = replace(context, seen=context.seen + (card,))


@pytest.mark.parametrize("name", ["random", "greedy", "strong"])
def test_every_bot_move_is_legal(name):
    for state, card, context in random_states(3, 11):
        move = STRATEGIES[name](state, card, context)
        check_move(state, card, move)


def test_can_bridge_agrees_with_the_rules_engine():
    for state, card, context in random_states(4, 5):
        expected = any(m.bridges for m in legal_moves(state, card))
        assert can_bridge(state, card, context) == expected


def test_bots_take_an_instant_circle():
    # An unnumbered, unflagged island with two bridges and a card numeral 2: writing it circles it.
    context = Context(SIDE, DECK, SCORING, (), random.Random(0))
    geo = SIDE.geometry
    g = SIDE.island("G")
    lane = next(k for k in geo.lanes_of[g] if SIDE.islands[geo.lanes[k].other(g)].flag is None)
    other = geo.lanes[lane].other(g)
    state = apply(new_game(SIDE, (g, 4)), Card(5, 2), rules_move(None, (lane, lane)))
    move = greedy_bot(state, Card(2, 1), context)
    assert move.numeral == (other, 2)
    assert other in apply(state, Card(2, 1), move).circled
    # Early on the strong bot may keep the island for a later 2; on the last card it must not wait.
    last = replace(state, turn=16)
    move = strong_bot(last, Card(2, 1), replace(context, seen=DECK.cards[:16]))
    assert move.numeral == (other, 2)


def rules_move(numeral, bridges):
    """Build a rules Move."""
    from hashi_print.game.rules import Move

    return Move(numeral, tuple(bridges))


@pytest.mark.parametrize("setup", ["hostile", "kind", "random"])
def test_setups_pick_an_unflagged_island_and_3_or_4(setup):
    island, value = SETUPS[setup](SIDE, Context(SIDE, DECK, SCORING, (), random.Random(3)))
    assert SIDE.islands[island].flag is None
    assert value in (3, 4)


def test_a_played_game_replays_through_the_referee():
    record, moves, final = play_game(SIDE, DECK, SCORING, "strong", "hostile", 7, 42)
    cards = deal(DECK, random.Random("42/7/cards"))
    state = new_game(SIDE, record.setup)
    for card, move in zip(cards, moves, strict=True):
        state = apply(state, card, move)
    assert state == final
    assert score_sheet(state, SCORING).total == record.score
    assert record.circled == len(state.circled)
    assert record.forced_skips <= record.bridge_skips <= 17


def test_simulation_is_deterministic_and_independent_of_workers():
    one = simulate(SIDE, DECK, ["greedy", "random"], 6, 9, scoring=SCORING, workers=1)
    two = simulate(SIDE, DECK, ["greedy", "random"], 6, 9, scoring=SCORING, workers=2)
    assert one.records == two.records
    assert [r.index for r in one.records["greedy"]] == list(range(6))
    s = one.summary["greedy"]
    assert s.games == 6
    assert s.quartiles[0] <= s.quartiles[1] <= s.quartiles[2]
    assert all(0.0 <= r <= 1.0 for r in s.goal_rate.values())


def test_unknown_strategy_is_refused():
    with pytest.raises(ValueError, match="unknown strategy"):
        simulate(SIDE, DECK, ["clever"], 1, 1, scoring=SCORING, workers=1)
