"""Option words are defined once (hashi_print/options.py): the CLI's choices, the web form's fields, the
solver's checks and the renderers' tables all take them from there."""

from __future__ import annotations

import re

from click.testing import CliRunner

from hashi_print.cli import cli
from hashi_print.game.deck import GOALS
from hashi_print.options import (
    DEFAULTS,
    Backend,
    CardEncoding,
    ColorModel,
    Goal,
    Mode,
    Order,
    Paper,
    PaperType,
    Profile,
    Technique,
    Trim,
    default,
    values,
)
from hashi_print.puzzle.book import ORDERS
from hashi_print.puzzle.deduce import TECHNIQUES
from hashi_print.puzzle.sat import BACKENDS, CARDINALITIES, MODES
from hashi_print.puzzle.solve import solve
from hashi_print.render.paper import COLOR_MODELS, PAPER_TYPES, PROFILES, TRIMS
from hashi_print.sheets.markers import PAPERS
from hashi_print.sheets.paper import PAPER


def test_the_lower_layers_take_their_words_from_the_options():
    assert (values(Mode), values(Backend), values(CardEncoding)) == (MODES, BACKENDS, CARDINALITIES)
    assert values(Profile) == PROFILES and values(ColorModel) == COLOR_MODELS
    assert values(PaperType) == PAPER_TYPES and values(Order) == ORDERS
    assert tuple(TRIMS) == values(Trim) and tuple(PAPER) == PAPERS == values(Paper)
    assert values(Goal) == GOALS and tuple(TECHNIQUES) == values(Technique)


def test_values_are_plain_strings_and_defaults_are_members():
    assert all(type(v) is str for option in DEFAULTS for v in values(option))
    assert all(isinstance(member, option) for option, member in DEFAULTS.items())
    assert default(Mode) == "lazy" and default(Backend) == "cadical195"


def test_the_cli_shows_the_options_words_and_defaults():
    out = CliRunner().invoke(cli, ["solve", "--help"]).output
    flat = re.sub(r"\s+", " ", out)
    assert f"[{'|'.join(values(Backend))}]" in flat
    assert f"[default: {default(Backend)}]" in flat and f"[default: {default(Mode)}]" in flat
    bad = CliRunner().invoke(cli, ["book", "--trim", "a5"])
    assert bad.exit_code == 2 and all(t in bad.output for t in values(Trim))


def test_an_option_member_works_wherever_its_word_does():
    from hashi_print.puzzle.formats import parse_puzzle

    puzzle = parse_puzzle("10x10m2:1b1c5a3j3f5a3j4c4b4m3a2a1a2l2b1g4b3b1a2", "test")
    assert solve(puzzle, mode=Mode.EAGER, backend=Backend.GLUCOSE4).status == solve(puzzle).status
