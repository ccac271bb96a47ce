"""The sheet job: one score sheet, blank (side A, B or a layout of one's own) or filled with a game."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from hashi_print.errors import HashiError, OptionError
from hashi_print.files import inside
from hashi_print.game.board import builtin_side, load_side
from hashi_print.game.deck import load_deck
from hashi_print.game.scoring import load_scoring
from hashi_print.i18n import language
from hashi_print.options import Format, Paper, PenKind
from hashi_print.render.fill import Pen, hand_pen, render_filled
from hashi_print.render.sheet import render_sheet
from hashi_print.sheets.formats import read_sheet
from hashi_print.sheets.marks import marks_of


@dataclass(frozen=True)
class SheetRequest:
    """What `hashi-print sheet` asks for; `fill` names a record or sheet whose end is drawn on the sheet."""

    side: str | None = None
    layout: str | None = None
    paper: Paper = Paper.A4
    fmt: Format = Format.PDF
    out: str | None = None
    deck: str | None = None
    scoring: str | None = None
    fill: str | None = None
    hand: int | None = None
    pen: PenKind = PenKind.BLUE
    lang: str = "en"


@dataclass(frozen=True)
class SheetResult:
    """The file written and whether it shows a game's marks."""

    path: Path
    filled: bool


def make_sheet(request: SheetRequest) -> SheetResult:
    """Write the sheet the request describes."""
    if request.side and request.layout:
        raise OptionError("--side and --layout both choose the board: give one")
    if request.fill is not None:
        return SheetResult(_filled(request, request.fill), True)
    if request.fmt == Format.PNG:
        raise HashiError("--format png needs --fill (blank sheets print as pdf or svg)")
    return SheetResult(print_sheet(request.side, request.layout, request.paper, request.fmt, request.out,
                                   request.deck, request.scoring, request.lang.lower()), False)


def print_sheet(side: str | None, layout: str | Path | None, paper: str, fmt: str, out: str | Path | None,
                deck: str | Path | None = None, scoring: str | Path | None = None, lang: str = "en") -> Path:
    """Print one score sheet for side A/B or a user's own layout file; return the file written."""
    if layout:
        board = load_side(layout)
    elif side and side.strip().upper() in ("A", "B"):
        board = builtin_side(side)
    else:
        raise OptionError("say which board: --side A or --side B, or --layout FILE")
    d = load_deck(deck)
    s = load_scoring(scoring)
    target = Path(out) if out else inside("output", f"sheet-{board.name}-{paper}.{fmt}")
    return render_sheet(board, d, s, paper, fmt, target, custom=bool(layout), lang=lang)


def _filled(request: SheetRequest, fill: str) -> Path:
    """Draw the end of the game record or sheet `fill` onto its side's sheet; return the file."""
    board = load_side(request.layout) if request.layout else None
    doc = read_sheet(fill, board)
    deck, scoring = load_deck(request.deck), load_scoring(request.scoring)
    marks = marks_of(doc, deck)
    drawn = hand_pen(random.Random(request.hand), request.pen) if request.hand is not None else Pen()
    custom = request.layout is not None or doc.side.name.upper() not in ("A", "B")
    target = request.out or inside("output", f"sheet-{doc.side.name}-{request.paper}-filled.{request.fmt}")
    with language(request.lang.lower()):
        return render_filled(marks, deck, scoring, request.paper, request.fmt, target, drawn, custom)
