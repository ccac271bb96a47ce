"""Property tests: random legal play, written as a record or a sheet, always passes the validator."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hashi_print.game.board import load_side
from hashi_print.game.deck import load_deck
from hashi_print.game.rules import GameState, apply, legal_moves, new_game
from hashi_print.game.scoring import load_scoring
from hashi_print.sheets.formats import Sheet, format_record, format_sheet, parse_sheet, record_from_moves
from hashi_print.sheets.validate import validate

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SIDE = load_side(FIXTURES / "fixture-side.json")
DECK = load_deck(FIXTURES / "fixture-deck.json")
SCORING = load_scoring(FIXTURES / "fixture-scoring.json")
UNFLAGGED = [i for i, isl in enumerate(SIDE.islands) if isl.flag is None]


def random_game(seed: int, partial: bool, turns: int):
    """Play `turns` cards with uniformly random legal moves; return setup, positions, moves and state."""
    rng = random.Random(seed)
    positions = rng.sample(range(1, 19), 18)[:turns]
    setup = (rng.choice(UNFLAGGED), rng.choice((3, 4)))
    state: GameState = new_game(SIDE, setup)
    moves = []
    for pos in positions:
        card = DECK.cards[pos - 1]
        move = rng.choice(legal_moves(state, card, partial))
        moves.append(move)
        state = apply(state, card, move, partial)
    return setup, positions, moves, state


def sheet_of(state: GameState, positions: list[int]) -> Sheet:
    """Write what a player's paper shows at the end of a game."""
    lanes = SIDE.geometry.lanes
    return Sheet(
        "sheet", SIDE, None,
        tuple((i, v, None) for i, v in enumerate(state.numerals) if v is not None),
        tuple((lanes[k].a, lanes[k].b, None) for k, n in enumerate(state.bridges) for _ in range(n)),
        tuple((i, None) for i in sorted(state.circled)),
        tuple((p, None) for p in positions),
        tuple((g, t, None) for g, t in state.goals),
    )


def check_game(seed: int, partial: bool, turns: int) -> None:
    """Replay a random legal game through text records and sheets and the validator."""
    setup, positions, moves, state = random_game(seed, partial, turns)
    cards = [DECK.cards[p - 1] for p in positions]
    record = record_from_moves(SIDE, setup, cards, moves)
    parsed = parse_sheet(format_record(record), layout=SIDE)
    report = validate(parsed, DECK, SCORING, partial=partial)
    assert report.ok, [v.message for v in report.violations]
    assert report.state == state
    sheet = parse_sheet(format_sheet(sheet_of(state, positions)), layout=SIDE)
    sheet_report = validate(sheet, DECK, SCORING, partial=partial)
    assert sheet_report.ok, [v.message for v in sheet_report.violations]
    assert sheet_report.state.circled == state.circled
    assert sheet_report.score == report.score


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.booleans(), st.integers(1, 17))
def test_random_legal_play_always_validates(seed, partial, turns):
    check_game(seed, partial, turns)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(st.integers(0, 2**32), st.booleans(), st.integers(1, 17))
def test_random_legal_play_always_validates_long(seed, partial, turns):
    check_game(seed, partial, turns)
