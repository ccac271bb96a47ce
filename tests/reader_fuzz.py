"""Every reader of outside input, with a Hypothesis strategy of hostile and careless inputs for it.

Shared by the fuzz tests (a few hundred inputs each) and bench/fuzz.py (tens of thousands).
Each reader is a function of one text; the only exception it may raise is HashiError.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from hypothesis import strategies as st

from hashi_print.files import designed_text, parse_json
from hashi_print.game.board import side_from_json
from hashi_print.game.deck import deck_from_json
from hashi_print.game.scoring import scoring_from_json
from hashi_print.puzzle.formats import (
    format_has,
    format_puzzlink,
    parse_bridges,
    parse_has,
    parse_puzzle,
    parse_puzzle_lines,
    parse_puzzlink,
    parse_tatham_id,
    parse_text_grid,
    puzzle_text,
    puzzle_to_json,
)
from hashi_print.sheets.formats import parse_sheet

FIXTURES = Path(__file__).resolve().parent / "fixtures"
IDS = [line.split()[1] for line in (FIXTURES / "tatham-bridges-ids.txt").read_text().splitlines()
       if line.startswith("d")][:6]
PUZZLES = [parse_tatham_id(i) for i in IDS]
SMALL = PUZZLES[0]
SHEETS = [(FIXTURES / n).read_text() for n in ("fixture-sheet-ann.txt", "fixture-record-ann.txt",
                                               "wheel-sheet-ann.txt", "fixture-record-broken.txt")]
HOSTILE = ["1e400", "-1e400", "NaN", "Infinity", "1" + "0" * 30, "true", "null", "9.0", '"9"', "[]", "{}",
           "[" * 3000 + "]" * 3000, "\ufeff", "\x00", "\udcff", "-0", "99999999", "²"]


def _edit(text: str, edits: list[tuple[int, int, str]]) -> str:
    """Apply insertions, deletions and replacements at positions taken modulo the text's length."""
    for pos, op, piece in edits:
        at = pos % (len(text) + 1)
        if op == 0:
            text = text[:at] + piece + text[at:]
        elif op == 1:
            text = text[:at] + text[at + len(piece) + 1:]
        else:
            text = text[:at] + piece + text[at + len(piece):]
    return text


def mutations(seeds: list[str]) -> st.SearchStrategy[str]:
    """Valid texts with a few characters inserted, deleted or replaced (often with hostile pieces)."""
    piece = st.one_of(st.text(max_size=4), st.sampled_from(HOSTILE))
    edits = st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 2), piece), min_size=1, max_size=5)
    return st.tuples(st.sampled_from(seeds), edits).map(lambda t: _edit(*t))


def texts(seeds: list[str]) -> st.SearchStrategy[str]:
    """Mutated valid texts, valid texts with a byte-order mark, and noise."""
    return st.one_of(mutations(seeds), st.sampled_from(seeds).map(lambda s: "\ufeff" + s),
                     st.text(max_size=200), st.binary(max_size=200).map(lambda b: b.decode("latin-1")))


_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-5, 100), st.floats(allow_nan=False),
                  st.text(max_size=5), st.sampled_from(["A", "red", "blue", "six", "5/2", "C-D", "K4"]))
JSON_VALUE = st.recursive(
    _LEAF,
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.dictionaries(st.text(max_size=6), inner, max_size=5)),
    max_leaves=20)


def json_docs(seeds: list[dict]) -> st.SearchStrategy[str]:
    """Valid JSON objects with one key replaced by any JSON value, or a hostile literal spliced in."""
    def spoil(seed: dict, key_pick: int, value: object) -> str:
        keys = list(seed)
        obj = dict(seed)
        obj[keys[key_pick % len(keys)]] = value
        return json.dumps(obj)

    replaced = st.builds(spoil, st.sampled_from(seeds), st.integers(0, 50), JSON_VALUE)
    spliced = st.builds(lambda seed, key_pick, lit: spoil(seed, key_pick, "@@").replace('"@@"', lit),
                        st.sampled_from(seeds), st.integers(0, 50), st.sampled_from(HOSTILE))
    return st.one_of(replaced, spliced, texts([json.dumps(s) for s in seeds]))


def _nested_islands(seed: dict) -> list[dict]:
    """Variants of a side whose first island is spoilt field by field."""
    out = []
    for key, bad in (("row", 1.0), ("col", True), ("label", 7), ("flag", ["red"]), ("row", 10**9)):
        obj = json.loads(json.dumps(seed))
        obj["islands"][0][key] = bad
        out.append(obj)
    return out


SIDE = json.loads(designed_text("side-a.json"))
DECK = json.loads(designed_text("deck.json"))
SCORING = json.loads(designed_text("scoring.json"))
PUZZLE_JSON = [puzzle_to_json(p) for p in PUZZLES]
SHEET_JSON = [{"format": "hashi-sheet/1", "side": "A", "player": "Ann", "numbers": ["Q4", "P2", "R2"],
               "bridges": ["Q=P", "Q=R"], "circled": ["Q", "P", "R"], "cards": [4, 6], "bonus": {"red": 9}},
              {"format": "hashi-record/1", "side": "A", "setup": "Q4",
               "turns": [{"turn": 1, "card": "5/2", "number": "P5", "bridges": ["P-Q", "P-Q"]}]}]

# name -> (strategy of inputs, the reader applied to one input)
READERS: dict[str, tuple[st.SearchStrategy[str], Callable[[str], object]]] = {
    "tatham-id": (texts(IDS), lambda t: parse_tatham_id(t, "fuzz")),
    "puzzlink-url": (texts([format_puzzlink(p) for p in PUZZLES]), lambda t: parse_puzzlink(t, "fuzz")),
    "text-grid": (texts([puzzle_text(p) for p in PUZZLES]), lambda t: parse_text_grid(t, "fuzz")),
    "has-file": (texts([format_has(p) for p in PUZZLES]), lambda t: parse_has(t, "fuzz")),
    "puzzle-json": (json_docs(PUZZLE_JSON), lambda t: parse_puzzle(t, "fuzz")),
    "puzzle-any": (texts(IDS + [json.dumps(PUZZLE_JSON[0]), puzzle_text(SMALL)]),
                   lambda t: parse_puzzle(t, "fuzz")),
    "puzzle-lines": (texts(["\n".join(IDS), "\n".join(json.dumps(o) for o in PUZZLE_JSON)]),
                     lambda t: parse_puzzle_lines(t, "fuzz")),
    "bridges-state": (texts(["A1=E1 C4-C6", "A1-A4, A1-A4; E1=E4", "[[0, 0, 0, 4, 2], [0, 0, 3, 0, 1]]"]),
                      lambda t: parse_bridges(SMALL, t, "fuzz")),
    "sheet-text": (texts(SHEETS), lambda t: parse_sheet(t, "fuzz", base=FIXTURES)),
    "sheet-json": (json_docs(SHEET_JSON), lambda t: parse_sheet(t, "fuzz", base=FIXTURES)),
    "side-json": (json_docs([SIDE, *_nested_islands(SIDE)]),
                  lambda t: side_from_json(parse_json(t, "f"), "f")),
    "deck-json": (json_docs([DECK]), lambda t: deck_from_json(parse_json(t, "f"), "f")),
    "scoring-json": (json_docs([SCORING]), lambda t: scoring_from_json(parse_json(t, "f"), "f")),
}
