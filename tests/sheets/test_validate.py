"""Tests of the validator: scripted records and sheets, every violation located, and the replay going on."""

from __future__ import annotations

from hashi_print.game.rules import GameState, apply, legal_moves, new_game
from hashi_print.sheets.formats import Sheet, parse_sheet, read_sheet, record_from_moves
from hashi_print.sheets.validate import report_lines, validate, validate_file
from tests.fixture_game import FIXTURES, fixture_deck, fixture_scoring, fixture_side


def check(name: str, **kw):
    """Validate a fixture file with the fixture deck and scoring."""
    return validate_file(FIXTURES / name, deck=fixture_deck(), scoring=fixture_scoring(), **kw)


def found(report) -> list[tuple]:
    """Return (rule, where, line, turn) of each violation."""
    return [(v.rule, v.where, v.line, v.turn) for v in report.violations]


def test_scripted_record_is_valid_and_scored():
    report = check("fixture-record-ann.txt")
    assert report.ok and report.unchecked == ()
    assert dict(report.state.goals) == {"six": 7, "red": 11}
    assert report.score.to_json() == {"circled": 12, "circled_points": 24, "bonus": {"red": 9, "six": 8},
                                      "total": 41}
    assert report.to_json()["rules"] == {"partial_bridges": False}


def test_record_replay_matches_sheet():
    record = check("fixture-record-ann.txt")
    sheet = check("fixture-sheet-ann.txt")
    assert sheet.ok
    assert record.state.numerals == sheet.state.numerals and record.state.bridges == sheet.state.bridges
    assert record.state.goals == sheet.state.goals
    assert record.score == sheet.score


def test_sheet_lists_order_rules_as_unchecked_never_passed():
    report = check("fixture-sheet-ann.txt")
    text = " ".join(report.unchecked)
    for rule in ("numeral-flag-needs-bridge", "bridge-needs-numbered-end", "bridge-count", "bonus turns"):
        assert rule in text
    assert not any(v.rule == "numeral-flag-needs-bridge" for v in report.violations)


def test_broken_record_reports_every_violation_with_turn_and_line(side):
    report = check("fixture-record-broken.txt")
    assert not report.ok and report.score is None
    assert found(report) == [
        ("setup", "island A", 3, None),
        ("bridge-needs-numbered-end", "lane C-H", 4, 1),
        ("numeral-flag-needs-bridge", "island B", 5, 2),
        ("bridge-count", "bridges", 6, 3),
        ("bridge-crossing", "lane E-O", 7, 4),
        ("bridge-no-lane", "lane A-R", 8, 5),
        ("numeral-taken", "island F", 9, 6),
    ]
    state = report.state
    # The legal parts were applied: F2 and A-F on turn 2, the single G-H on turn 3, E4 on turn 4.
    assert state.numerals[side.island("F")] == 2 and state.numerals[side.island("B")] is None
    assert state.bridges[side.geometry.lane_between(side.island("G"), side.island("H"))] == 1
    assert state.numerals[side.island("E")] == 4 and state.turn == 6


def test_broken_sheet_reports_every_violation_with_line():
    report = check("fixture-sheet-broken.txt")
    got = set(found(report))
    want = {
        ("bridge-no-lane", "lane C-D", 4, None),
        ("bridge-needs-numbered-end", "lane E-O", 4, None),
        ("lane-max-two", "lane G-H", 5, None),
        ("bridge-crossing", "lane G-H", 5, None),
        ("island-over-numeral", "island F", 3, None),
        ("island-over-numeral", "island G", 3, None),
        ("flag-no-bridge", "island A", 3, None),
        ("flag-no-bridge", "island J", 3, None),
        ("circle-mismatch", "island A", 6, None),
        ("circle-mismatch", "island F", 6, None),
        ("cards-crossed", "card 1", 7, None),
        ("deck-numerals", "numeral 2", 3, None),
        ("deck-numerals", "numeral 3", 3, None),
        ("bridge-total", "bridges", 5, None),
    }
    assert got == want
    lines = [v.line for v in report.violations]
    assert lines == sorted(lines)


def sheet(body: str) -> Sheet:
    """Parse a finished sheet on the fixture side."""
    return parse_sheet("hashi-sheet 1\nside F\n" + body, layout=fixture_side())


def test_uncircled_complete_island_and_missing_setup(deck, scoring):
    report = validate(sheet("numbers F2 A1\nbridges A-F F-K\ncircled A\n"), deck, scoring)
    rules = {(v.rule, v.where) for v in report.violations}
    assert ("circle-mismatch", "island F") in rules
    assert ("setup", "numbers") in rules


def test_too_many_of_one_numeral():
    body = "numbers G4 C6 D6 E6\nbridges C-H D-I E-O\n"
    report = validate(sheet(body), fixture_deck(), fixture_scoring())
    assert [(v.rule, v.where) for v in report.violations] == [("deck-numerals", "numeral 6")]


def test_bridge_total_beyond_cards_and_partial_rule(deck, scoring):
    body = "numbers G4 D1\nbridges G-H\ncards 1\n"
    strict = validate(sheet(body + "bridges F-G\n"), deck, scoring)
    assert [v.rule for v in strict.violations] == ["bridge-total"]
    partial = validate(sheet(body), deck, scoring, partial=True)
    assert partial.ok and partial.partial


def test_bonus_claims_checked_and_solo_limits(deck, scoring):
    base = read_sheet(FIXTURES / "fixture-sheet-ann.txt")
    assert validate(base, deck, scoring, solo=True).score.bonus == {"red": 9, "six": 8}
    hard = validate(base, deck, scoring, solo=True, level="hard").score
    assert hard.bonus == {"red": 0, "six": 8}
    wrong = validate(sheet("numbers G4\nbonus blue 5\n"), deck, scoring)
    assert [(v.rule, v.where) for v in wrong.violations] == [("bonus-claim", "bonus blue")]


def test_without_deck_the_deck_rules_are_unchecked():
    report = validate_file(FIXTURES / "fixture-sheet-ann.txt", deck=None, scoring=None)
    assert report.ok and report.score is None
    assert any("deck-numerals" in u for u in report.unchecked)
    assert any("score" in u for u in report.unchecked)
    record = validate_file(FIXTURES / "fixture-record-ann.txt")
    assert any("deck-cards" in u for u in record.unchecked)


def test_record_deck_cards_rule():
    text = ("hashi-record 1\nside F\nsetup G4\nturn 1 card 6/3\nturn 2 card 2/1\nturn 3 card 2/1\n"
            "turn 4 card 2/1\n")
    report = validate(parse_sheet(text, layout=fixture_side()), fixture_deck(), fixture_scoring())
    assert found(report) == [("deck-cards", "turn 1", 4, 1), ("deck-cards", "turn 4", 7, 4)]


def test_report_lines_name_rule_set_and_violations():
    lines = report_lines(check("fixture-record-broken.txt", partial=True))
    assert "7 rules broken" in lines[0] or "rules broken" in lines[0]
    assert "partial bridges on" in lines[0]
    assert any(line.strip().startswith("line 7 turn 4: bridge-crossing at lane E-O") for line in lines)


def test_generated_game_record_validates(side, deck, scoring):
    import random

    rng = random.Random(11)
    cards = list(deck.cards)
    rng.shuffle(cards)
    state: GameState = new_game(side, (side.island("D"), 3))
    moves = []
    for card in cards[:17]:
        move = rng.choice(legal_moves(state, card))
        moves.append(move)
        state = apply(state, card, move)
    record = record_from_moves(side, (side.island("D"), 3), cards[:17], moves, player="Bot")
    report = validate(record, deck, scoring)
    assert report.ok, report.violations
    assert report.state == state
