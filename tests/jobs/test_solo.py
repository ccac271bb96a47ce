"""The solo game job: a seeded deal, the start of a game, and turns replayed by the rules engine with
typed results; a finished game's record is checked by the validator, which shares no code with it."""

from __future__ import annotations

import random

import pytest

from hashi_print.errors import FormatError
from hashi_print.game.board import builtin_side
from hashi_print.game.deck import load_deck
from hashi_print.game.rules import apply, legal_moves, new_game
from hashi_print.game.simulate import deal
from hashi_print.jobs.score import validate_text
from hashi_print.jobs.solo import (
    Position,
    Refused,
    SoloRequest,
    SoloStart,
    Turn,
    deal_cards,
    play_solo,
    start_solo,
)


def _game(seed: int) -> tuple[str, tuple[Turn, ...], object]:
    """A random legal game on side A: its setup, its turns in words and the rules engine's end state."""
    side = builtin_side("A")
    setup = next(i for i, isl in enumerate(side.islands) if isl.flag is None)
    state = new_game(side, (setup, 4))
    turns, rng = [], random.Random(seed)
    for card in deal(load_deck(), random.Random(seed)):
        move = rng.choice(legal_moves(state, card))
        state = apply(state, card, move)
        number = None if move.numeral is None else f"{side.islands[move.numeral[0]].label}{move.numeral[1]}"
        turns.append(Turn(number, tuple(side.lane_name(k) for k in move.bridges)))
    return f"{side.islands[setup].label}4", tuple(turns), state


def test_start_gives_the_levels_limits_and_the_deal_is_the_seeds():
    start = start_solo("a", "normal", 4)
    assert isinstance(start, SoloStart) and start.side.name == "A"
    assert set(start.limits) == {"red", "blue", "six"}
    assert start.to_json()["goals"][0]["limit"] == start.limits["red"]
    assert deal_cards(4) == deal(load_deck(), random.Random(4)) and len(deal_cards(4)) == 17
    with pytest.raises(FormatError, match="unknown level"):
        start_solo("A", "impossible", 4)


def test_a_whole_game_ends_with_a_score_and_a_record_the_validator_accepts():
    setup, turns, end = _game(7)
    halfway = play_solo(SoloRequest("A", "normal", 7, setup, turns[:8]))
    assert isinstance(halfway, Position) and halfway.finished is None
    assert halfway.state.turn == 8 and halfway.to_json()["card"] is not None
    done = play_solo(SoloRequest("A", "normal", 7, setup, turns, player="Ann"))
    assert isinstance(done, Position) and done.state == end and done.finished is not None
    report = validate_text(done.finished["record"])
    assert report.ok and report.score.total == done.finished["score"]["total"]


def test_the_first_broken_turn_is_refused_with_its_rule():
    setup, turns, _ = _game(9)
    side = builtin_side("A")
    flagged = next(isl.label for isl in side.islands if isl.flag)
    numeral = deal_cards(9)[2].numeral
    bad = (*turns[:2], Turn(f"{flagged}{numeral}"), *turns[3:5])
    refused = play_solo(SoloRequest("A", "normal", 9, setup, bad))
    assert isinstance(refused, Refused) and refused.turn == 3
    assert refused.to_json() == {"legal": False, "turn": 3, "rule": refused.rule, "reason": refused.reason}
    assert "flag" in refused.reason
    with pytest.raises(FormatError, match="17 turns"):
        play_solo(SoloRequest("A", "normal", 9, setup, turns + turns[:1]))
