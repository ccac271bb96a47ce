"""The solo game job: deal a seeded game, start it on a side and level, and replay the turns played so far
with the rules engine (the web app's solo page calls it for every turn)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hashi_print.errors import FormatError, HashiError, RuleError
from hashi_print.game.board import BoardSide, builtin_side
from hashi_print.game.deck import CARDS_PLAYED, GOALS, Card, load_deck
from hashi_print.game.rules import GameState, Move, apply, new_game
from hashi_print.game.scoring import Scoring, load_scoring, rating, rating_bands_of, score_sheet
from hashi_print.game.simulate import deal
from hashi_print.i18n import _
from hashi_print.sheets.formats import format_record, parse_bridge, parse_numeral, record_from_moves


@dataclass(frozen=True)
class Turn:
    """One turn as a player writes it: the numeral placed (`D5`) and the bridges drawn (`D-G`)."""

    number: str | None = None
    bridges: tuple[str, ...] = ()


@dataclass(frozen=True)
class SoloRequest:
    """A solo game: side, level and seed of its deal, the starting numeral, and the turns played so far."""

    side: str
    level: str
    seed: int
    setup: str | None = None
    turns: tuple[Turn, ...] = ()
    player: str | None = None


@dataclass(frozen=True)
class SoloStart:
    """A solo game about to start: the side, the level's turn limits, bonus values and ratings."""

    side: BoardSide
    level: str
    seed: int
    scoring: Scoring
    limits: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        """The web app's game object."""
        return {
            "layout": side_json(self.side), "level": self.level, "seed": self.seed,
            "levels": list(self.scoring.solo_levels.get(self.side.name, {})),
            "goals": [{"goal": g, "limit": self.limits.get(g), "bonus": self.scoring.bonus[g][0]}
                      for g in GOALS],
            "per_circled": self.scoring.per_circled,
            "ratings": [list(b) for b in rating_bands_of(self.scoring, self.side.name, self.level)],
            "turns": CARDS_PLAYED,
        }


@dataclass(frozen=True)
class Refused:
    """A turn the rules refuse: which turn (0 for the setup), the rule and the reason in words."""

    turn: int
    rule: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        """The web app's answer to a refused turn."""
        return {"legal": False, "turn": self.turn, "rule": self.rule, "reason": self.reason}


@dataclass(frozen=True)
class Position:
    """The game after the turns played: the state, the next card, and at the end the score and record."""

    side: BoardSide
    state: GameState
    cards: tuple[Card, ...]
    limits: Mapping[str, int]
    finished: Mapping[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The web app's answer to a legal turn."""
        side, state, cards = self.side, self.state, self.cards
        out: dict[str, Any] = {
            "legal": True, "turn": state.turn,
            "card": card_json(cards[state.turn]) if state.turn < len(cards) else None,
            "numerals": {side.islands[i].label: v for i, v in enumerate(state.numerals) if v is not None},
            "bridges": {side.lane_name(k): n for k, n in enumerate(state.bridges) if n},
            "circled": sorted(side.islands[i].label for i in state.circled),
            "goals": dict(state.goals), "limits": dict(self.limits),
        }
        return out | dict(self.finished or {})


def side_json(side: BoardSide) -> dict[str, Any]:
    """A board side as the sheet draws it: labelled islands with flags, lanes and crossings."""
    geo = side.geometry
    return {
        "side": side.name, "rows": side.rows, "cols": side.cols,
        "islands": [{"label": i.label, "row": i.row, "col": i.col, "flag": i.flag} for i in side.islands],
        "lanes": [{"a": ln.a, "b": ln.b, "horizontal": ln.horizontal, "name": side.lane_name(ln.index),
                   "cells": [list(c) for c in ln.cells]} for ln in geo.lanes],
        "crossings": [list(c) for c in geo.crossings],
    }


def card_json(card: Card) -> dict[str, Any]:
    """A card as the page shows it."""
    return {"numeral": card.numeral, "bridges": card.bridges}


def deal_cards(seed: int) -> tuple[Card, ...]:
    """Shuffle the designed deck with `seed` and put one card away unseen: the 17 cards in order."""
    return deal(load_deck(), random.Random(seed))


def solo_limits(scoring: Scoring, side: str, level: str) -> Mapping[str, int]:
    """The solo turn limits of a side and level."""
    levels = scoring.solo_levels.get(side, {})
    if level not in levels:
        raise FormatError(f"unknown level {level!r}; choose one of {', '.join(levels) or 'none'}")
    return levels[level]


def start_solo(side_name: str, level: str, seed: int) -> SoloStart:
    """Start a solo game on a designed side at a level."""
    side = builtin_side(side_name)
    scoring = load_scoring()
    return SoloStart(side, level, seed, scoring, solo_limits(scoring, side.name, level))


def parse_turn(side: BoardSide, turn: Turn, number: int) -> Move:
    """Turn a played turn in the record's words (`D5`, `D-G`) into the rules' Move."""
    numeral = parse_numeral(side, turn.number, number) if turn.number else None
    lanes = []
    for token in turn.bridges:
        for a, b in parse_bridge(side, token, number):
            lane = side.geometry.lane_between(a, b)
            if lane is None:
                raise RuleError(_("{token}: there is no lane between those islands").format(token=token),
                                rule="bridge-lane", where=token)
            lanes.append(lane)
    return Move(numeral, tuple(sorted(lanes)))


def play_solo(request: SoloRequest) -> Position | Refused:
    """Replay the turns with the rules engine; the first turn a rule refuses ends the replay."""
    side = builtin_side(request.side)
    scoring = load_scoring()
    limits = solo_limits(scoring, side.name, request.level)
    cards = deal_cards(request.seed)
    if len(request.turns) > len(cards):
        raise FormatError(f"a game has {len(cards)} turns")
    setup = parse_numeral(side, request.setup, None) if request.setup else None
    try:
        state = new_game(side, setup)
    except RuleError as err:
        return Refused(0, err.rule, err.message)
    moves: list[Move] = []
    for n, turn in enumerate(request.turns, start=1):
        try:
            move = parse_turn(side, turn, n)
            state = apply(state, cards[n - 1], move)
        except RuleError as err:
            return Refused(n, err.rule, err.message)
        except HashiError as err:
            return Refused(n, "format", err.message)
        moves.append(move)
    if state.turn < len(cards):
        return Position(side, state, cards, limits)
    return Position(side, state, cards, limits, _finished(request, side, scoring, state, setup, cards, moves))


def _finished(request: SoloRequest, side: BoardSide, scoring: Scoring, state: GameState,
              setup: tuple[int, int] | None, cards: Sequence[Card], moves: Sequence[Move]) -> dict[str, Any]:
    """The end of a game: its solo score, rating and game record."""
    score = score_sheet(state, scoring, solo_side=side.name, solo_level=request.level)
    record = record_from_moves(side, setup, cards, moves, player=request.player)
    return {"score": score.to_json(), "rating": rating(scoring, side.name, score.total, request.level),
            "record": format_record(record)}
