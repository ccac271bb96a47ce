"""The benchmark's rule-breaking sheets break the rule they name, at one island."""

from __future__ import annotations

import random

import pytest

from bench.scan import broken_marks
from hashi_print.game.board import builtin_side
from hashi_print.game.deck import load_deck
from hashi_print.game.rules import GameState
from hashi_print.game.scoring import load_scoring
from hashi_print.sheets.marks import sheet_of
from hashi_print.sheets.validate import validate
from tests.photos import game_marks


@pytest.mark.parametrize("kind", ["circle", "deck"])
def test_a_broken_sheet_breaks_its_rule_at_one_island(kind):
    deck, scoring = load_deck(), load_scoring()
    made = 0
    for seed in range(1, 13):
        truth = game_marks(builtin_side("AB"[seed % 2]), deck, scoring, seed)
        drawn = broken_marks(truth, deck, kind, random.Random(seed))
        if drawn is None:
            continue
        changed = [i for i, (a, b) in enumerate(zip(truth.numerals, drawn.numerals, strict=True)) if a != b]
        assert len(changed) == 1 and drawn.bridges == truth.bridges and drawn.circled == truth.circled
        (i,) = changed
        counts = GameState(truth.side, truth.numerals, truth.bridges).counts
        if kind == "circle":
            assert i in truth.circled and drawn.numerals[i] != counts[i]
        else:
            assert i not in truth.circled and drawn.numerals[i] > counts[i]
        report = validate(sheet_of(drawn), deck, scoring)
        assert not report.ok, report.violations
        made += 1
    assert made >= 3
