"""The resolver's quick numeral check agrees with the full rules check on numerals the reader may choose."""

from __future__ import annotations

import dataclasses
import random

import pytest

from hashi_print.game.board import builtin_side
from hashi_print.game.deck import load_deck
from hashi_print.game.rules import GameState
from hashi_print.game.scoring import load_scoring
from hashi_print.sheets.scan.resolve import _fits, consistent
from tests.photos import game_marks


@pytest.mark.parametrize("name, seed", [("A", 3), ("B", 4), ("A", 11)])
def test_quick_numeral_check_agrees_with_the_rules(name, seed):
    deck, scoring = load_deck(), load_scoring()
    truth = game_marks(builtin_side(name), deck, scoring, seed)
    side = truth.side
    counts = GameState(side, (None,) * len(side.islands), truth.bridges).counts
    spare = [0] * 7
    for p in truth.cards:
        spare[deck.cards[p - 1].numeral] += 1
    ends = [(side.geometry.lanes[k].a, side.geometry.lanes[k].b) for k, b in enumerate(truth.bridges) if b]
    assert _fits(list(truth.numerals), spare, ends) and consistent(truth, deck)
    rng = random.Random(seed)
    verdicts = set()
    for _ in range(400):
        # Change the numerals of uncircled islands as the reader may (empty, or above the island's bridges).
        numerals = [
            n if i in truth.circled or rng.random() < 0.6 else rng.choice([None, *range(counts[i] + 1, 7)])
            for i, n in enumerate(truth.numerals)
        ]
        fits = _fits(numerals, spare, ends)
        assert fits == consistent(dataclasses.replace(truth, numerals=tuple(numerals)), deck)
        verdicts.add(fits)
    assert verdicts == {True, False}
