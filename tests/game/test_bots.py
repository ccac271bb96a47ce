"""Tests of the bots and the simulator: legal moves only, determinism, replayable games."""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from hashi_print.game.bots import (
    SETUPS,
    STRATEGIES,
    Context,
    can_bridge,
    greedy_bot,
    strong_bot,
)
from hashi_print.game.deck import Card
from hashi_print.game.rules import apply, check_move, legal_moves, new_game
from hashi_print.game.scoring import score_sheet
from hashi_print.game.simulate import deal, play_game, simulate
from tests.fixture_game import fixture_deck, fixture_scoring, fixture_side


def random_states(count: int, seed: int):
    """Yield (state, card, context) positions reached by random play on the fixture side."""
    rng = random.Random(seed)
    for g in range(count):
        cards = deal(fixture_deck(), rng)
        context = Context(fixture_side(), fixture_deck(), fixture_scoring(), (), random.Random(g))
        state = new_game(fixture_side(), SETUPS["random"](fixture_side(), context))
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


def test_bots_take_an_instant_circle(side, deck, scoring):
    # An unnumbered, unflagged island with two bridges and a card numeral 2: writing it circles it.
    context = Context(side, deck, scoring, (), random.Random(0))
    geo = side.geometry
    g = side.island("G")
    lane = next(k for k in geo.lanes_of[g] if side.islands[geo.lanes[k].other(g)].flag is None)
    other = geo.lanes[lane].other(g)
    state = apply(new_game(side, (g, 4)), Card(5, 2), rules_move(None, (lane, lane)))
    move = greedy_bot(state, Card(2, 1), context)
    assert move.numeral == (other, 2)
    assert other in apply(state, Card(2, 1), move).circled
    # Early on the strong bot may keep the island for a later 2; on the last card it must not wait.
    last = replace(state, turn=16)
    move = strong_bot(last, Card(2, 1), replace(context, seen=deck.cards[:16]))
    assert move.numeral == (other, 2)


def rules_move(numeral, bridges):
    """Build a rules Move."""
    from hashi_print.game.rules import Move

    return Move(numeral, tuple(bridges))


@pytest.mark.parametrize("setup", ["hostile", "kind", "random"])
def test_setups_pick_an_unflagged_island_and_3_or_4(side, deck, scoring, setup):
    island, value = SETUPS[setup](side, Context(side, deck, scoring, (), random.Random(3)))
    assert side.islands[island].flag is None
    assert value in (3, 4)


def test_a_played_game_replays_through_the_referee(side, deck, scoring):
    record, moves, final = play_game(side, deck, scoring, "strong", "hostile", 7, 42)
    cards = deal(deck, random.Random("42/7/cards"))
    state = new_game(side, record.setup)
    for card, move in zip(cards, moves, strict=True):
        state = apply(state, card, move)
    assert state == final
    assert score_sheet(state, scoring).total == record.score
    assert record.circled == len(state.circled)
    assert record.forced_skips <= record.bridge_skips <= 17


@pytest.mark.parametrize(("share", "deal_index"), [(True, 2), (False, 5)])
def test_listed_setups_take_turns_on_shared_or_own_deals(side, deck, scoring, share, deal_index):
    setups = tuple((k, 3) for k, isl in enumerate(side.islands) if isl.flag is None)[:2]
    record, moves, final = play_game(side, deck, scoring, "greedy", setups, 5, 42, share_deals=share)
    assert record.setup == setups[1]
    # Game 5 of two setups: deal 5 // 2 when the setups share their deals, deal 5 when each has its own.
    cards = deal(deck, random.Random(f"42/{deal_index}/cards"))
    assert cards != deal(deck, random.Random(f"42/{7 - deal_index}/cards"))
    state = new_game(side, setups[1])
    for card, move in zip(cards, moves, strict=True):
        state = apply(state, card, move)
    assert state == final


def test_a_process_that_simulated_on_workers_exits_without_leaving_its_pool_running():
    code = ("from hashi_print.game.simulate import simulate\n"
            "from tests.fixture_game import fixture_deck, fixture_scoring, fixture_side\n"
            "r = simulate(fixture_side(), fixture_deck(), ['greedy'], 12, 9, scoring=fixture_scoring(),\n"
            "             workers=2)\n"
            "print(len(r.records['greedy']))\n")
    done = subprocess.run([sys.executable, "-W", "default", "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "12"
    assert "pool" not in done.stderr.lower(), done.stderr


def test_simulation_is_deterministic_and_independent_of_workers(side, deck, scoring):
    one = simulate(side, deck, ["greedy", "random"], 6, 9, scoring=scoring, workers=1)
    two = simulate(side, deck, ["greedy", "random"], 6, 9, scoring=scoring, workers=2)
    assert one.records == two.records
    assert [r.index for r in one.records["greedy"]] == list(range(6))
    s = one.summary["greedy"]
    assert s.games == 6
    assert s.quartiles[0] <= s.quartiles[1] <= s.quartiles[2]
    assert all(0.0 <= r <= 1.0 for r in s.goal_rate.values())


def test_the_kept_worker_pool_plays_each_batch_with_its_own_side_and_seed(side, deck, scoring):
    from hashi_print.game.board import builtin_side
    from hashi_print.game.simulate import _POOLS, close_pools

    other = builtin_side("B")
    alone = [simulate(s, deck, ["greedy"], 12, seed, scoring=scoring, workers=1).records
             for s, seed in ((side, 3), (other, 3), (side, 4))]
    pooled = [simulate(s, deck, ["greedy"], 12, seed, scoring=scoring, workers=2).records
              for s, seed in ((side, 3), (other, 3), (side, 4))]
    assert len(_POOLS) == 1
    assert pooled == alone
    assert alone[0] != alone[1] and alone[0] != alone[2]
    close_pools()
    assert not _POOLS


def test_unknown_strategy_is_refused():
    with pytest.raises(ValueError, match="unknown strategy"):
        simulate(fixture_side(), fixture_deck(), ["clever"], 1, 1, scoring=fixture_scoring(), workers=1)


def test_the_first_turns_moves_are_searched_once_per_position_and_kernel(side, deck, scoring, monkeypatch):
    from hashi_print.game import bots, botsearch

    searched: list[int] = []
    search = bots._search

    def counted(state, *args):
        searched.append(state.turn)
        return search(state, *args)

    monkeypatch.setattr(bots, "_search", counted)
    monkeypatch.setattr(bots, "SEARCH", botsearch.Search)
    bots.tables_of(side).opening_moves.clear()  # other tests may have played this opening
    first = play_game(side, deck, scoring, "strong", "hostile", 11, 5)
    assert searched.count(0) == 1
    searched.clear()
    # The same game again: its first turns come from the kept moves, and the moves are the same.
    assert play_game(side, deck, scoring, "strong", "hostile", 11, 5) == first
    assert min(searched) == bots.OPENING_TURNS and len(searched) == 17 - bots.OPENING_TURNS
    searched.clear()

    class Other(botsearch.Search):
        """Another kernel with the same moves."""

    monkeypatch.setattr(bots, "SEARCH", Other)
    assert play_game(side, deck, scoring, "strong", "hostile", 11, 5) == first
    assert searched.count(0) == 1
