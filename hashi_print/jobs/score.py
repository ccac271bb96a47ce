"""The validate and score jobs: check a typed sheet or record against every rule, or score one game."""

from __future__ import annotations

from dataclasses import dataclass

from hashi_print.errors import OptionError
from hashi_print.files import distinct_files
from hashi_print.game.board import load_side
from hashi_print.game.scoring import GameScore
from hashi_print.sheets.formats import parse_sheet
from hashi_print.sheets.validate import (
    Report,
    default_deck,
    default_scoring,
    score_players,
    validate,
    validate_file,
)


@dataclass(frozen=True)
class SheetFiles:
    """The files a sheet is checked with: a side of one's own, deck and scoring (None: the designed ones),
    and whether the house rule of partial bridges applies."""

    layout: str | None = None
    deck: str | None = None
    scoring: str | None = None
    partial: bool = False


@dataclass(frozen=True)
class ValidateRequest:
    """One sheet or record to check, optionally as a solo game at a level."""

    sheet: str
    files: SheetFiles = SheetFiles()
    solo: bool = False
    level: str | None = None


@dataclass(frozen=True)
class ScoreRequest:
    """The sheets or records of the players of one game."""

    sheets: tuple[str, ...]
    files: SheetFiles = SheetFiles()


def validate_sheet(request: ValidateRequest) -> Report:
    """Check the sheet against every rule; the report says what is broken and the score."""
    if request.level is not None and not request.solo:
        raise OptionError("--level chooses the turn limits of a solo game: add --solo")
    files = request.files
    side = load_side(files.layout) if files.layout else None
    return validate_file(request.sheet, side, default_deck(files.deck), default_scoring(files.scoring),
                         files.partial, request.solo, request.level)


def validate_text(text: str, source: str = "sheet") -> Report:
    """Check a typed sheet or record given as text (a designed side) with the designed deck and scoring."""
    return validate(parse_sheet(text, source=source), default_deck(), default_scoring())


def score_game(request: ScoreRequest) -> GameScore:
    """Validate each player's sheet and score the game, resolving who reached each bonus first."""
    distinct_files(request.sheets)
    files = request.files
    side = load_side(files.layout) if files.layout else None
    scoring = default_scoring(files.scoring)
    deck = default_deck(files.deck)
    reports = [validate_file(s, side, deck, scoring, files.partial) for s in request.sheets]
    return score_players(reports, scoring)
