"""The fixture game of the tests (side F, its deck and scoring), each file read once per test session."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from hashi_print.game.board import BoardSide, load_side
from hashi_print.game.deck import Deck, load_deck
from hashi_print.game.scoring import Scoring, load_scoring

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@cache
def fixture_side() -> BoardSide:
    """Side F of the fixture game."""
    return load_side(FIXTURES / "fixture-side.json")


@cache
def fixture_deck() -> Deck:
    """The fixture game's deck."""
    return load_deck(FIXTURES / "fixture-deck.json")


@cache
def fixture_scoring() -> Scoring:
    """The fixture game's scoring, with solo limits for side F."""
    return load_scoring(FIXTURES / "fixture-scoring.json")
