"""Property tests: random legal play, written as a record or a sheet, always passes the validator.

Hypothesis draws the game itself (setup, cards, each move among the legal ones), so a failure
shrinks to a short game with simple moves.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hashi_print.game.rules import GameState, apply, legal_moves, new_game
from hashi_print.sheets.formats import Sheet, format_record, format_sheet, parse_sheet, record_from_moves
from hashi_print.sheets.validate import validate
from tests.fixture_game import fixture_deck, fixture_scoring, fixture_side


def random_game(data: st.DataObject, partial: bool, turns: int):
    """Play `turns` cards with legal moves drawn by Hypothesis; return setup, positions, moves and state."""
    side, deck = fixture_side(), fixture_deck()
    unflagged = [i for i, isl in enumerate(side.islands) if isl.flag is None]
    positions = data.draw(st.permutations(range(1, 19)), label="card order")[:turns]
    setup = (data.draw(st.sampled_from(unflagged), label="setup island"),
             data.draw(st.sampled_from((3, 4)), label="setup numeral"))
    state: GameState = new_game(side, setup)
    moves = []
    for pos in positions:
        card = deck.cards[pos - 1]
        move = data.draw(st.sampled_from(legal_moves(state, card, partial)), label=f"move with {card}")
        moves.append(move)
        state = apply(state, card, move, partial)
    return setup, positions, moves, state


def sheet_of(state: GameState, positions: list[int]) -> Sheet:
    """Write what a player's paper shows at the end of a game."""
    lanes = fixture_side().geometry.lanes
    return Sheet(
        "sheet", fixture_side(), None,
        tuple((i, v, None) for i, v in enumerate(state.numerals) if v is not None),
        tuple((lanes[k].a, lanes[k].b, None) for k, n in enumerate(state.bridges) for _ in range(n)),
        tuple((i, None) for i in sorted(state.circled)),
        tuple((p, None) for p in positions),
        tuple((g, t, None) for g, t in state.goals),
    )


def check_game(data: st.DataObject, partial: bool, turns: int) -> None:
    """Replay a random legal game through text records and sheets and the validator."""
    setup, positions, moves, state = random_game(data, partial, turns)
    cards = [fixture_deck().cards[p - 1] for p in positions]
    record = record_from_moves(fixture_side(), setup, cards, moves)
    parsed = parse_sheet(format_record(record), layout=fixture_side())
    report = validate(parsed, fixture_deck(), fixture_scoring(), partial=partial)
    assert report.ok, [v.message for v in report.violations]
    assert report.state == state
    sheet = parse_sheet(format_sheet(sheet_of(state, positions)), layout=fixture_side())
    sheet_report = validate(sheet, fixture_deck(), fixture_scoring(), partial=partial)
    assert sheet_report.ok, [v.message for v in sheet_report.violations]
    assert sheet_report.state.circled == state.circled
    assert sheet_report.score == report.score


@settings(max_examples=60, deadline=None)
@given(st.data(), st.booleans(), st.integers(1, 17))
def test_random_legal_play_always_validates(data, partial, turns):
    check_game(data, partial, turns)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(st.data(), st.booleans(), st.integers(1, 17))
def test_random_legal_play_always_validates_long(data, partial, turns):
    check_game(data, partial, turns)
