"""Tests of the typed sheet and record formats: parsing, errors with lines, JSON and round trips."""

from __future__ import annotations

import json

import pytest

from hashi_print.errors import FormatError
from hashi_print.game.deck import Card
from hashi_print.sheets.formats import (
    Record,
    Sheet,
    format_record,
    format_sheet,
    parse_sheet,
    read_sheet,
)
from tests.fixture_game import FIXTURES, fixture_side


def lab(i: int) -> str:
    """Return the fixture label of an island index."""
    return fixture_side().islands[i].label


def test_record_fixture_parses_every_turn():
    rec = read_sheet(FIXTURES / "fixture-record-ann.txt")
    assert isinstance(rec, Record)
    assert rec.player == "Ann" and rec.side.name == "F"
    assert (lab(rec.setup[0]), rec.setup[1], rec.setup[2]) == ("G", 4, 4)
    assert len(rec.turns) == 12
    t2 = rec.turns[1]
    assert t2.card == Card(1, 1) and (lab(t2.numeral[0]), t2.numeral[1]) == ("A", 1) and t2.line == 7
    assert [(lab(a), lab(b)) for a, b in t2.bridges] == [("F", "K")]
    t3 = rec.turns[2]
    assert [(lab(a), lab(b)) for a, b in t3.bridges] == [("K", "P"), ("K", "P")]
    assert rec.turns[4].numeral is None and rec.turns[4].bridges == ()


def test_sheet_fixture_parses_continuation_lines():
    sheet = read_sheet(FIXTURES / "fixture-sheet-ann.txt")
    assert isinstance(sheet, Sheet)
    assert [(lab(i), v) for i, v, _ in sheet.numerals][5:7] == [("L", 2), ("Q", 3)]
    assert {line for _, _, line in sheet.numerals} == {4, 5}
    assert sum(1 for a, b, _ in sheet.bridges if {lab(a), lab(b)} == {"B", "G"}) == 2
    assert [p for p, _ in sheet.cards] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14]
    assert [(g, t) for g, t, _ in sheet.bonus] == [("six", 7), ("red", 11)]
    assert len(sheet.circled) == 12


def test_text_round_trips(side):
    for name in ("fixture-record-ann.txt", "fixture-sheet-ann.txt"):
        doc = read_sheet(FIXTURES / name)
        fmt = format_record if isinstance(doc, Record) else format_sheet
        again = parse_sheet(fmt(doc), layout=side)
        assert fmt(again) == fmt(doc)


@pytest.mark.parametrize("text, line, words", [
    ("hello\n", 1, "hashi-sheet 1"),
    ("", None, "empty"),
    ("# only a comment\nhashi-sheet 2\n", 2, "hashi-sheet 1"),
    ("hashi-sheet 1\nlayout fixture-side.json\nnumbers C3 Q\n", 3, "like C3"),
    ("hashi-sheet 1\nlayout fixture-side.json\nnumbers Z3\n", 3, "no island 'Z'"),
    ("hashi-sheet 1\nlayout fixture-side.json\nbridges C-D D~F\n", 3, "C-D (one)"),
    ("hashi-sheet 1\nlayout fixture-side.json\nbonus red\n", 3, "turn on which red"),
    ("hashi-sheet 1\nlayout fixture-side.json\nbonus gold 4\n", 3, "expected a goal"),
    ("hashi-sheet 1\nlayout fixture-side.json\ncards 1 19\n", 3, "card-strip position"),
    ("hashi-sheet 1\nlayout fixture-side.json\nfoo bar\n", 3, "expected one of side"),
    ("hashi-sheet 1\nnumbers C3\n", None, "`side A`"),
    ("hashi-sheet 1\nside A\nlayout fixture-side.json\n", 3, "second side"),
    ("hashi-sheet 1\nlayout no-such-file.json\n", 2, "cannot read"),
    ("hashi-sheet 1\nside Q\n", 2, "unknown side"),
    ("hashi-record 1\nlayout fixture-side.json\nturn 2 card 1/1\n", 3, "turn number 1"),
    ("hashi-record 1\nlayout fixture-side.json\nturn 1 card 7/1\n", 3, "card like 5/2"),
    ("hashi-record 1\nlayout fixture-side.json\nturn 1 number C1\n", 3, "card N/B"),
    ("hashi-record 1\nlayout fixture-side.json\nturn 1 card 1/1 number C1 D2\n", 3, "one numeral"),
    ("hashi-record 1\nlayout fixture-side.json\nturn 1 card 1/1 bridges\n", 3, "bridges like"),
    ("hashi-record 1\nlayout fixture-side.json\nsetup G4\nsetup G3\n", 4, "second setup"),
    ("hashi-record 1\nlayout fixture-side.json\ncircled C\n", 3, "expected one of side"),
    ("hashi-record 1\nlayout fixture-side.json\n"
     + "".join(f"turn {n} card 1/1\n" for n in range(1, 19)), 20, "17 turns"),
])
def test_parse_errors_name_file_line_and_expectation(text, line, words):
    with pytest.raises(FormatError) as info:
        parse_sheet(text, source="my.txt", base=FIXTURES)
    err = info.value
    assert err.source == "my.txt" and err.line == line
    assert words in err.message
    assert str(err).startswith("my.txt" + (f" line {line}" if line else "") + ": ")


def test_layout_override_and_comments():
    text = "HASHI-SHEET 1  # header\nside A\nnumbers c3 # lower case\nbridges c-d\n"
    sheet = parse_sheet(text, layout=fixture_side())
    assert sheet.side is fixture_side() and sheet.side_line == 2
    assert [(lab(i), v) for i, v, _ in sheet.numerals] == [("C", 3)]
    assert sheet.circled is None and sheet.cards is None


def test_json_record_and_sheet_match_text(tmp_path):
    rec = read_sheet(FIXTURES / "fixture-record-ann.txt")
    obj = {"format": "hashi-record/1", "layout": str(FIXTURES / "fixture-side.json"), "player": "Ann",
           "setup": "G4", "turns": [
               {"turn": t.number, "card": str(t.card),
                "number": None if t.numeral is None else f"{lab(t.numeral[0])}{t.numeral[1]}",
                "bridges": [f"{lab(a)}-{lab(b)}" for a, b in t.bridges]} for t in rec.turns]}
    path = tmp_path / "ann.json"
    path.write_text(json.dumps(obj, indent=1))
    again = read_sheet(path)
    assert isinstance(again, Record)
    assert format_record(again) == format_record(rec)
    sheet_obj = {"format": "hashi-sheet/1", "side": "F", "numbers": ["C3"], "bridges": ["C=H"],
                 "circled": [], "cards": [1, 2], "bonus": {"red": 3}}
    sheet = parse_sheet(json.dumps(sheet_obj), layout=fixture_side())
    assert isinstance(sheet, Sheet) and len(sheet.bridges) == 2 and sheet.circled == ()
    assert [(g, t) for g, t, _ in sheet.bonus] == [("red", 3)]


@pytest.mark.parametrize("text, words", [
    ('{"format": "hashi-sheet/1",\n "side": }', "not valid JSON"),
    ('{"format": "nope"}', "hashi-sheet/1"),
    ('{"format": "hashi-sheet/1"}', '"side" or "layout"'),
    ('{"format": "hashi-sheet/1", "side": "F", "numbers": [3]}', '"numbers"'),
    ('{"format": "hashi-record/1", "side": "F", "turns": [{"turn": 2, "card": "1/1"}]}', "expected turn 1"),
    ('{"format": "hashi-record/1", "side": "F", "turns": [{"card": "1/1", "number": 5}]}', '"number"'),
])
def test_json_errors(text, words):
    layout = fixture_side() if '"side"' in text else None
    with pytest.raises(FormatError) as info:
        parse_sheet(text, source="x.json", layout=layout)
    assert words in info.value.message and info.value.source == "x.json"


def test_json_syntax_error_has_line():
    with pytest.raises(FormatError) as info:
        parse_sheet('{"format": "hashi-sheet/1",\n "side": }', source="x.json")
    assert info.value.line == 2
