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
from hashi_print.scan.read import Scan, ScanStatus
from hashi_print.scan.resolve import Uncertain, _fits, consistent, resolve
from hashi_print.scan.stakes import staked
from hashi_print.sheets.formats import parse_sheet
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
        # Change the numerals of uncircled islands as the reader may (empty, or above the island's bridges,
        # and none on a flagged island that no bridge reaches).
        numerals = [
            n if i in truth.circled or rng.random() < 0.6 else rng.choice([None, *range(counts[i] + 1, 7)])
            for i, n in enumerate(truth.numerals)
        ]
        numerals = [None if counts[i] == 0 and side.islands[i].flag else n for i, n in enumerate(numerals)]
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
    # A digit read at 0.7 or more, or five times likelier than the bridges' v, is left to a person; one
    # read at 0.3 with v at 0.1 is settled by the rules.
    for sure, bridges, review in ((0.948, 0.018, True), (0.75, 0.018, True), (0.3, 0.018, True),
                                  (0.3, 0.1, False)):
        numerals = [{n: 1.0} for n in truth.numerals]
        rest = (1.0 - sure - bridges) / 4
        numerals[i] = {d: rest for d in range(1, 7)} | {w: sure, v: bridges}
        got = resolve(_firm(truth, deck, numerals), side, deck)
        # The reading that keeps the rules is chosen either way ...
        assert got.consistent and got.marks.numerals == truth.numerals
        # ... but a digit read surely that the rules overrode is left to a person.
        doubt = [u for u in got.uncertain if u.field == "number" and u.where == label]
        assert bool(doubt) == review
        if review:
            assert doubt[0].read == v and w in doubt[0].alternatives
            assert doubt[0].confidence <= 1 - sure + 1e-9


def _spare_card(truth, deck):
    """A crossed-off card position whose numeral the sheet does not need (another card shows it too)."""
    need = Counter(n for n in truth.numerals if n is not None)
    have = Counter(deck.cards[p - 1].numeral for p in truth.cards)
    return next(p for p in sorted(truth.cards) if have[(n := deck.cards[p - 1].numeral)] > need[n])


def test_a_doubt_that_changes_nothing_that_counts_does_not_send_the_sheet_to_a_person():
    deck, scoring = load_deck(), load_scoring()
    truth = game_marks(builtin_side("A"), deck, scoring, 3)
    side = truth.side
    card = _spare_card(truth, deck)
    measured = _firm(truth, deck, [{n: 1.0} for n in truth.numerals])
    cards = list(measured.cards)
    cards[card - 1] = {True: 0.7, False: 0.3}  # a faint cross through a card nothing else needs
    got = resolve(dataclasses.replace(measured, cards=tuple(cards)), side, deck)
    assert got.marks == dataclasses.replace(truth, player=None, setup=None)
    doubts = staked(got.uncertain, got.marks, deck, scoring)
    assert [(u.field, u.where, u.affects) for u in doubts] == [("card", str(card), ())]
    # Independently: without that card the sheet is still valid, with the same score and goal turns.
    want, other = (validate(sheet_of(m), deck, scoring) for m in (truth, dataclasses.replace(
        truth, cards=truth.cards - {card})))
    assert other.ok and other.score == want.score and other.goal_turns() == want.goal_turns()


def test_doubts_at_a_circled_island_and_a_goal_turn_change_the_score_verdict_and_race():
    deck, scoring = load_deck(), load_scoring()
    truth = game_marks(builtin_side("B"), deck, scoring, 4)
    side = truth.side
    i = min(truth.circled)
    lanes = side.geometry.lanes
    k = next(k for k, b in enumerate(truth.bridges) if b and i in (lanes[k].a, lanes[k].b))
    goal, turn = truth.goals[0]
    doubts = (
        Uncertain("bridges", side.lane_name(k), truth.bridges[k], (3 - truth.bridges[k],), 0.6),
        Uncertain("bonus", goal, turn, (turn + 1,), 0.6),
    )
    lane, race = staked(doubts, truth, deck, scoring)
    assert lane.affects == ("score", "verdict") and race.affects == ("race",)
    # Independently: the other bridge count breaks the circle's rule, so there is no score.
    bridges = truth.bridges[:k] + (3 - truth.bridges[k],) + truth.bridges[k + 1 :]
    other = dataclasses.replace(truth, bridges=bridges)
    assert validate(sheet_of(other), deck, scoring).score is None


def _first_game(deck, scoring, seeds, islands):
    """The first simulated game (sides A and B in turn) with islands that `islands(truth, counts)` lists,
    and those islands."""
    for seed in seeds:
        truth = game_marks(builtin_side("AB"[seed % 2]), deck, scoring, seed)
        found = islands(truth, GameState(truth.side, truth.numerals, truth.bridges).counts)
        if found:
            return truth, found
    raise AssertionError("no fixture game fits")


def test_a_numeral_read_at_093_is_written_with_a_question_mark_and_validate_cannot_check_it():
    # The pencil 4 read as a 6 at 0.93 on an uncircled island: its score is right, but the typed sheet
    # must not carry the 6 as sure.
    deck, scoring = load_deck(), load_scoring()

    def fours(truth, counts):
        free = Counter(deck.cards[p - 1].numeral for p in truth.cards)
        free.subtract(n for n in truth.numerals if n is not None)
        return [i for i, v in enumerate(truth.numerals)
                if v == 4 and i not in truth.circled and free[6] > 0 and counts[i] < 4]

    truth, (i, *_) = _first_game(deck, scoring, range(1, 12), fours)
    side = truth.side
    numerals = [{n: 1.0} for n in truth.numerals]
    numerals[i] = {6: 0.93, 4: 0.07}
    got = resolve(_firm(truth, deck, numerals), side, deck)
    doubts = staked(got.uncertain, got.marks, deck, scoring)
    label = side.islands[i].label
    assert [(u.field, u.where, u.read, u.affects) for u in doubts] == [("number", label, 6, ())]
    scan = Scan("photo", ScanStatus.OK, side.name, "a4", got.marks, doubts)
    text = scan.sheet_text()
    assert f"# ? number {label}: read 6" in text
    report = validate(parse_sheet(text), deck, scoring)
    line = next(n for n, row in enumerate(text.splitlines(), start=1) if row.startswith("# ?"))
    notes = [u for u in report.unchecked if u.startswith(f"line {line}: number {label}")]
    assert len(notes) == 1 and "not checkable" in notes[0]


def _settled(got, label):
    return next(t for t in got.settled if t.where == label)


def test_the_rules_settle_digits_and_say_which_rule():
    deck, scoring = load_deck(), load_scoring()
    truth = game_marks(builtin_side("A"), deck, scoring, 3)
    side = truth.side
    counts = GameState(side, truth.numerals, truth.bridges).counts
    circled = min(truth.circled)
    low = next(i for i, v in enumerate(truth.numerals) if v and i not in truth.circled and counts[i] >= 1)
    numerals = [{n: 1.0} for n in truth.numerals]
    wrong = next(d for d in (6, 5, 1, 2) if d != truth.numerals[circled])
    numerals[circled] = {truth.numerals[circled]: 0.55, wrong: 0.45}
    numerals[low] = {truth.numerals[low]: 0.55, counts[low]: 0.45}  # as many as its bridges: not uncircled
    got = resolve(_firm(truth, deck, numerals), side, deck)
    assert got.marks.numerals == truth.numerals
    assert {u.where for u in got.uncertain if u.field == "number"} == set()
    labels = [isl.label for isl in side.islands]
    assert _settled(got, labels[circled]).ruled_out == ((wrong, "circled-equals-bridges"),)
    assert _settled(got, labels[low]).ruled_out == ((counts[low], "uncircled-above-bridges"),)
    obj = _settled(got, labels[low]).to_json()
    assert obj == {"field": "number", "where": labels[low], "read": truth.numerals[low], "ink": 0.55,
                   "ruled_out": [{"value": counts[low], "by": "uncircled-above-bridges"}]}


def test_a_flagged_island_that_no_bridge_reaches_holds_no_numeral():
    deck, scoring = load_deck(), load_scoring()

    def bare(truth, counts):
        return [i for i, isl in enumerate(truth.side.islands) if isl.flag and counts[i] == 0]

    truth, (i, *_) = _first_game(deck, scoring, range(1, 20), bare)
    side = truth.side
    # Independently of the reader: a numeral there breaks the flag rule.
    drawn = dataclasses.replace(truth, numerals=truth.numerals[:i] + (5,) + truth.numerals[i + 1 :])
    assert "flag-no-bridge" in {v.rule for v in validate(sheet_of(drawn), deck, scoring).violations}
    numerals = [{n: 1.0} for n in truth.numerals]
    numerals[i] = {None: 0.3, 5: 0.45, 3: 0.25}  # a smudge that looks a little like a 5 or a 3
    got = resolve(_firm(truth, deck, numerals), side, deck)
    assert got.marks.numerals[i] is None
    ruled = _settled(got, side.islands[i].label).ruled_out
    assert ruled == ((5, "flag-needs-bridge"), (3, "flag-needs-bridge"))


def _swappable(deck, scoring):
    """Two uncircled islands i and j whose numerals may swap (the sheet stays valid) though island i alone
    may not hold j's numeral (no spare card shows it)."""

    def put(marks, i, v):
        return dataclasses.replace(marks, numerals=marks.numerals[:i] + (v,) + marks.numerals[i + 1 :])

    def valid(marks):
        return validate(sheet_of(marks), deck, scoring).ok

    def pairs(truth, counts):
        un = [i for i, v in enumerate(truth.numerals) if v and i not in truth.circled]
        return [(i, j) for i in un for j in un
                if truth.numerals[i] > truth.numerals[j] > counts[i]
                and not valid(put(truth, i, truth.numerals[j]))
                and valid(put(put(truth, i, truth.numerals[j]), j, truth.numerals[i]))]

    return _first_game(deck, scoring, range(1, 30), pairs)


def test_a_misreading_that_breaks_a_rule_the_reading_keeps_counts_only_when_the_ink_leans_to_it():
    deck, scoring = load_deck(), load_scoring()
    truth, ((i, j), *_) = _swappable(deck, scoring)
    side = truth.side
    a, b = truth.numerals[i], truth.numerals[j]
    numerals = [{n: 1.0} for n in truth.numerals]
    # Both islands' ink leans to the true digits, not surely: the swap keeps the rules and changes
    # nothing that counts; island i's digit alone read as b would break the deck rule, which the ink
    # gives only one chance in ten (odds 1:9, far below a player's chance of breaking a rule).
    numerals[i] = {a: 0.9, b: 0.1}
    numerals[j] = {b: 0.6, a: 0.4}
    measured = _firm(truth, deck, numerals)
    got = resolve(measured, side, deck)
    assert got.consistent and got.marks.numerals == truth.numerals
    label = side.islands[i].label
    assert label in {u.where for u in got.uncertain if u.field == "number"}
    doubts = staked(got.uncertain, got.marks, deck, scoring, measured.numerals)
    assert [u.affects for u in doubts] == [()] * len(doubts)
    # Without the ink's chances every misreading counts as likely as the next: island i alone read as b
    # breaks the deck rule, so that doubt changes the verdict.
    assert "verdict" in next(u for u in staked(got.uncertain, got.marks, deck, scoring)
                             if u.where == label).affects


def test_a_rule_breaking_digit_read_surely_still_changes_the_verdict():
    deck, scoring = load_deck(), load_scoring()
    truth, ((i, j), *_) = _swappable(deck, scoring)
    side = truth.side
    a, b = truth.numerals[i], truth.numerals[j]
    numerals = [{n: 1.0} for n in truth.numerals]
    numerals[i] = {b: 0.75, a: 0.25}  # the network reads b surely; the rules (the deck) want a
    measured = _firm(truth, deck, numerals)
    got = resolve(measured, side, deck)
    assert got.marks.numerals == truth.numerals
    doubts = staked(got.uncertain, got.marks, deck, scoring, measured.numerals)
    label = side.islands[i].label
    assert "verdict" in next(u for u in doubts if u.field == "number" and u.where == label).affects


def test_the_rules_never_silently_override_a_digit_the_ink_favours_five_to_one():
    deck, scoring = load_deck(), load_scoring()
    truth = game_marks(builtin_side("A"), deck, scoring, 3)
    side = truth.side
    i = min(truth.circled)
    v = truth.numerals[i]
    w = next(d for d in (1, 2, 6, 5) if d != v)
    # Ink that looks like no digit clearly: w at 0.5, every other digit (the bridges' v among them) at
    # 0.1, below SURE_DIGIT but five to one against the value the circle's rule wants.
    numerals = [{n: 1.0} for n in truth.numerals]
    numerals[i] = {d: 0.1 for d in range(1, 7)} | {w: 0.5}
    measured = _firm(truth, deck, numerals)
    got = resolve(measured, side, deck)
    assert got.consistent and got.marks.numerals == truth.numerals
    label = side.islands[i].label
    doubt = next(u for u in got.uncertain if u.field == "number" and u.where == label)
    assert w in doubt.alternatives and doubt.confidence == pytest.approx(0.1 / 0.6)
    (staked_doubt,) = [u for u in staked(got.uncertain, got.marks, deck, scoring, measured.numerals)
                       if u.where == label]
    assert "verdict" in staked_doubt.affects


@pytest.mark.parametrize("circle", [1.0, 0.9])
def test_a_circled_island_whose_box_shows_no_ink_is_a_doubt_that_changes_the_verdict(circle):
    deck, scoring = load_deck(), load_scoring()
    truth = game_marks(builtin_side("A"), deck, scoring, 3)
    side = truth.side
    i = min(truth.circled)
    numerals = [{n: 1.0} for n in truth.numerals]
    numerals[i] = {None: 1.0}  # a digit too faint for the ink level, or none written
    measured = _firm(truth, deck, numerals)
    circles = list(measured.circles)
    circles[i] = {True: circle, False: 1.0 - circle}
    got = resolve(dataclasses.replace(measured, circles=tuple(circles)), side, deck)
    label = side.islands[i].label
    doubts = staked(got.uncertain, got.marks, deck, scoring, measured.numerals)
    # Whichever reading wins (the circle's rule broken, or the circle dropped), the island is in doubt
    # and what it changes sends the sheet to a person.
    doubt = next(u for u in doubts if u.where == label and u.field in ("number", "circled"))
    assert "verdict" in doubt.affects or "score" in doubt.affects
