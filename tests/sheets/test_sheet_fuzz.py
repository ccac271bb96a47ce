"""Fuzz tests: no text, however odd, makes the sheet parser or validator raise anything but HashiError."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hashi_print.errors import HashiError
from hashi_print.sheets.formats import parse_sheet
from hashi_print.sheets.validate import validate
from tests.fixture_game import FIXTURES, fixture_deck, fixture_scoring, fixture_side

WORDS = ["numbers", "bridges", "circled", "cards", "bonus", "player", "setup", "turn", "card", "number",
         "side", "F", "-", "#", "red", "blue", "six", "C3", "A1", "G4", "Z9", "C-D", "D=F", "A-R", "B=G",
         "1", "17", "18", "0", "5/2", "1/1", "7/4", "x", "", "C-", "=D", "a0", "K99"]
token = st.one_of(st.sampled_from(WORDS), st.text(max_size=6))
line = st.lists(token, max_size=8).map(" ".join)
HEADERS = st.sampled_from(["hashi-sheet 1", "hashi-record 1", "HASHI-RECORD 1", "", "{"])
structured = st.tuples(HEADERS, st.lists(line, max_size=12)).map(
    lambda t: "\n".join([t[0], "side F", *t[1]]))
raw = st.one_of(st.text(), st.binary().map(lambda b: b.decode("latin-1")),
                st.text().map(lambda t: "hashi-sheet 1\nside F\n" + t),
                st.text().map(lambda t: "hashi-record 1\nside F\nsetup G4\n" + t))
json_value = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 30), st.sampled_from(WORDS), st.text(max_size=4)),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from(["turn", "card", "number", "bridges", "red"]),
                                            inner, max_size=4)),
    max_leaves=12)
json_doc = st.fixed_dictionaries(
    {"format": st.sampled_from(["hashi-sheet/1", "hashi-record/1"])},
    optional={k: json_value for k in ("side", "player", "numbers", "bridges", "circled", "cards", "bonus",
                                      "setup", "turns")},
).map(json.dumps)
anything = st.one_of(structured, raw, json_doc)


def survive(text: str) -> None:
    """Parse and validate `text`: it may be refused, but only with a located HashiError."""
    try:
        parse_sheet(text, source="fuzz.txt", base=FIXTURES)
    except HashiError as err:
        assert err.source == "fuzz.txt"
    try:
        doc = parse_sheet(text, source="fuzz.txt", layout=fixture_side())
    except HashiError as err:
        assert err.source == "fuzz.txt" and str(err).startswith("fuzz.txt")
        return
    report = validate(doc, fixture_deck(), fixture_scoring())
    assert report.ok == (not report.violations)
    report.to_json()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(anything)
def test_random_text_never_raises_a_traceback(text):
    survive(text)


@pytest.mark.slow
@settings(max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(anything)
def test_random_text_never_raises_a_traceback_long(text):
    survive(text)
