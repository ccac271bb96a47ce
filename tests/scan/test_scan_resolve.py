"""The resolver: its quick numeral check agrees with the full rules check, and the deck settles numerals."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from hashi_print.game.board import builtin_side
from hashi_print.game.deck import GOALS, load_deck
from hashi_print.game.rules import GameState
from hashi_print.game.scoring import load_scoring
from hashi_print.scan.fields import Measured
from hashi_print.scan.resolve import _fits, consistent, resolve
from hashi_print.sheets.marks import sheet_of
from hashi_print.sheets.validate import validate
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


def _firm(truth, deck, numerals) -> Measured:
    """What the reader would measure on a clean photo of `truth`, with the numerals' chances as given."""
    return Measured(
        lanes=tuple({b: 1.0} for b in truth.bridges),
        circles=tuple({i in truth.circled: 1.0} for i in range(len(truth.side.islands))),
        numerals=tuple(numerals),
        cards=tuple({j in truth.cards: 1.0} for j in range(1, len(deck.cards) + 1)),
        goals={g: {truth.goal_turn(g): 1.0} for g in GOALS},
        lost_first={g: {False: 1.0} for g in GOALS},
    )


def test_a_doubtful_numeral_is_settled_when_no_spare_card_shows_the_other_digit():
    deck, scoring = load_deck(), load_scoring()
    settled = doubtful = 0
    for seed in range(1, 9):
        truth = game_marks(builtin_side("AB"[seed % 2]), deck, scoring, seed)
        side = truth.side
        counts = GameState(side, truth.numerals, truth.bridges).counts
        # Cards crossed off minus numerals written: the digits a numeral could still be changed into.
        free = Counter(deck.cards[p - 1].numeral for p in truth.cards)
        free.subtract(n for n in truth.numerals if n is not None)
        for i, v in enumerate(truth.numerals):
            if v is None or i in truth.circled:
                continue
            for w in (1, 2, 5, 6):  # never the setup's 3 or 4, which one numeral may show beyond the cards
                if w == v or w <= counts[i]:
                    continue
                numerals = [{n: 1.0} for n in truth.numerals]
                numerals[i] = {v: 0.75, w: 0.25}  # the ink leans to the true digit, not surely
                got = resolve(_firm(truth, deck, numerals), side, deck)
                assert got.consistent and got.marks.numerals == truth.numerals
                doubt = [u for u in got.uncertain if u.field == "number"]
                if free[w] > 0:  # the other digit is on a spare card: a person must look
                    where = side.islands[i].label
                    assert [(u.where, u.read, u.alternatives) for u in doubt] == [(where, v, (w,))]
                    assert doubt[0].confidence == pytest.approx(0.75)
                    doubtful += 1
                else:  # no spare card shows it: the rules settle the numeral
                    assert doubt == []
                    settled += 1
    assert settled and doubtful


@pytest.mark.parametrize("seed", [2, 5])
def test_the_rules_never_silently_override_a_digit_read_surely(seed):
    deck, scoring = load_deck(), load_scoring()
    truth = game_marks(builtin_side("AB"[seed % 2]), deck, scoring, seed)
    side = truth.side
    i = min(truth.circled)
    v = truth.numerals[i]
    w = next(d for d in (6, 5, 1, 2) if d != v)
    # Independently of the reader: a circled w where the bridges make v breaks a rule.
    written = tuple(w if k == i else n for k, n in enumerate(truth.numerals))
    drawn = dataclasses.replace(truth, numerals=written)
    assert not validate(sheet_of(drawn), deck, scoring).ok
    label = side.islands[i].label
    for sure, review in ((0.948, True), (0.85, False)):
        numerals = [{n: 1.0} for n in truth.numerals]
        rest = (1.0 - sure - 0.018) / 4
        numerals[i] = {d: rest for d in range(1, 7)} | {w: sure, v: 0.018}
        got = resolve(_firm(truth, deck, numerals), side, deck)
        # The reading that keeps the rules is chosen either way ...
        assert got.consistent and got.marks.numerals == truth.numerals
        # ... but a digit read at 0.90 or more that the rules overrode is left to a person.
        doubt = [u for u in got.uncertain if u.field == "number" and u.where == label]
        assert bool(doubt) == review
        if review:
            assert doubt[0].read == v and w in doubt[0].alternatives and doubt[0].confidence < 0.1
