"""Shared fixtures: the fixture game's files (read once per session) and the reference puzzle data."""

from __future__ import annotations

from pathlib import Path

import pytest

from hashi_print.game.board import BoardSide
from hashi_print.game.deck import Deck
from hashi_print.game.scoring import Scoring
from tests.fixture_game import fixture_deck, fixture_scoring, fixture_side

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The reference puzzle data folder, or skip when this checkout has none beside it."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"reference data not found at {SHARED_DATA} (../shared/data beside the repo)")
    return SHARED_DATA


@pytest.fixture(scope="session")
def side() -> BoardSide:
    """Side F of the fixture game."""
    return fixture_side()


@pytest.fixture(scope="session")
def deck() -> Deck:
    """The fixture game's deck."""
    return fixture_deck()


@pytest.fixture(scope="session")
def scoring() -> Scoring:
    """The fixture game's scoring."""
    return fixture_scoring()
