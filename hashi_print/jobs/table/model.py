"""A table's state as frozen values, and the pure rules of a game night: seats, setup, cards, scores."""

from __future__ import annotations

import random
import re
import secrets
from dataclasses import dataclass
from functools import cache
from typing import Any

from hashi_print.errors import RefusedRequest, RuleError
from hashi_print.game.board import BoardSide, builtin_side
from hashi_print.game.deck import CARDS_PLAYED, GOALS, Card, Deck, load_deck
from hashi_print.game.rules import GameState, Move, apply, new_game, setup_violations
from hashi_print.game.scoring import Scoring, load_scoring
from hashi_print.game.simulate import deal
from hashi_print.i18n import _
from hashi_print.sheets.formats import (
    format_record,
    parse_bridge,
    parse_numeral,
    parse_sheet,
    record_from_moves,
)
from hashi_print.sheets.validate import score_players, validate

# Codes skip letters and digits people confuse (0/O, 1/I/L) and are read aloud across a table.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 8
MAX_SEATS = 8
MAX_NAME = 40
MODES = ("phone", "paper")


class TableError(RefusedRequest):
    """A request a table cannot take; `status` is the HTTP status the web layer answers with."""

    status = 400


class NoTable(TableError):
    """No table has this code (never made, or expired)."""

    status = 404


class NotAllowed(TableError):
    """The token does not allow this (a player revealing, a host playing, a player on another's sheet)."""

    status = 403


class NoToken(TableError):
    """The request carries no token, or one this table does not know."""

    status = 401


class NotNow(TableError):
    """The table is not at the point where this can happen (a reveal after the 17th card, a late join)."""

    status = 409


class TooMany(TableError):
    """Too many attempts from one address in a short time."""

    status = 429


class TooLarge(TableError):
    """An upload over the table's limits."""

    status = 413


@dataclass(frozen=True)
class Seat:
    """One player at a table: seat, name, how they play, the setup they give their left-hand neighbour,
    their turns (phone), their sheet text (paper, once read) and whether their sheet is in."""

    seat: int
    name: str
    mode: str
    gives: tuple[str, int] | None = None
    moves: tuple[tuple[str | None, tuple[str, ...]], ...] = ()
    sheet: str | None = None
    done: bool = False


@dataclass(frozen=True)
class Table:
    """A table: code, side, seed of its deck, cards revealed, players, and the scoreboard once every sheet
    is in; `keep_photos` keeps the paper players' pictures after scoring."""

    code: str
    side: str
    seed: int
    turn: int
    seats: tuple[Seat, ...]
    keep_photos: bool = False
    scoreboard: dict[str, Any] | None = None

    @property
    def board(self) -> BoardSide:
        """The board side every sheet at the table uses."""
        return builtin_side(self.side)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The 17 cards of this table's deal, in the order they are revealed."""
        return table_cards(self.seed)

    def left_of(self, seat: int) -> int:
        """The seat on this seat's left (the next one, wrapping round)."""
        return (seat + 1) % len(self.seats)

    def setup_of(self, seat: int) -> tuple[str, int] | None:
        """The setup numeral on this seat's sheet: what the player on its right chose."""
        return self.seats[(seat - 1) % len(self.seats)].gives


def new_code() -> str:
    """A table code nobody can guess: CODE_LENGTH symbols from the operating system's random source."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_token() -> str:
    """A secret token for a host or a player."""
    return secrets.token_urlsafe(24)


def clean_code(code: str) -> str:
    """A code as typed (any case, spaces or dashes) in its stored form, or NoTable when it cannot be one."""
    typed = re.sub(r"[\s-]", "", code).upper()
    if len(typed) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in typed):
        raise NoTable(_("there is no table with the code {code}").format(code=repr(code[:20])))
    return typed


@cache
def table_cards(seed: int) -> tuple[Card, ...]:
    """The 17 cards dealt from the designed deck with `seed` (shuffled, one card put away unseen)."""
    return deal(designed_deck(), random.Random(seed))


@cache
def designed_deck() -> Deck:
    """The deck shipped in the package (read once)."""
    return load_deck()


@cache
def designed_scoring() -> Scoring:
    """The scoring shipped in the package (read once)."""
    return load_scoring()


def player_name(name: object) -> str:
    """A player's name: 1 to MAX_NAME printable characters on one line."""
    if not isinstance(name, str) or not name.strip():
        raise TableError('"name" must be a name of 1 to 40 characters')
    clean = " ".join(name.split())
    if len(clean) > MAX_NAME or not clean.isprintable() or "#" in clean:
        raise TableError(f'"name" must be at most {MAX_NAME} printable characters without "#"')
    return clean


def check_setup(table: Table, island: object, numeral: object) -> tuple[str, int]:
    """The setup a player chose (an unflagged island's label and a 3 or 4), checked by the rules."""
    side = table.board
    if not isinstance(island, str) or island.upper() not in side.label_index:
        raise TableError(f'"island" must be a label of side {side.name} ({side.islands[0].label} to '
                         f'{side.islands[-1].label})')
    if isinstance(numeral, bool) or not isinstance(numeral, int):
        raise TableError('"numeral" must be 3 or 4')
    index = side.label_index[island.upper()]
    broken = setup_violations(side, index, numeral)
    if broken:
        raise TableError(_("setup refused: {reason}").format(reason=broken[0].message))
    return side.islands[index].label, numeral


def parse_move(side: BoardSide, numeral: object, bridges: object, turn: int) -> Move:
    """A phone turn as sent ({"numeral": "C4" or null, "bridges": ["C-D", ...]}) as the rules' Move."""
    if numeral is not None and (not isinstance(numeral, str) or len(numeral) > 8):
        raise TableError('"numeral" must be a label and a numeral like "C4", or null')
    if not isinstance(bridges, list) or len(bridges) > 6 or not all(
            isinstance(b, str) and len(b) <= 8 for b in bridges):
        raise TableError('"bridges" must be a list of at most 6 lanes like "C-D"')
    lanes = []
    for token in bridges:
        for a, b in parse_bridge(side, token, turn):
            lane = side.geometry.lane_between(a, b)
            if lane is None:
                raise RuleError(_("{token}: there is no lane between those islands").format(token=token),
                                rule="bridge-lane",
                                where=token)
            lanes.append(lane)
    place = parse_numeral(side, numeral, turn) if numeral else None
    return Move(place, tuple(sorted(lanes)))


def move_words(side: BoardSide, move: Move) -> tuple[str | None, tuple[str, ...]]:
    """A move in the record's words: the numeral (`C4`) or None, and one lane name per bridge."""
    place = None if move.numeral is None else f"{side.islands[move.numeral[0]].label}{move.numeral[1]}"
    return place, tuple(side.lane_name(k) for k in move.bridges)


def phone_state(table: Table, seat: int) -> GameState:
    """A phone player's sheet now: the setup and every turn played, replayed by the rules engine."""
    side = table.board
    state = new_game(side, _setup_move(table, seat))
    for n, (place, lanes) in enumerate(table.seats[seat].moves, start=1):
        state = apply(state, table.cards[n - 1], parse_move(side, place, list(lanes), n))
    return state


def _setup_move(table: Table, seat: int) -> tuple[int, int] | None:
    """The setup numeral on a seat's sheet as (island index, value), or None while it is not chosen."""
    given = table.setup_of(seat)
    return None if given is None else (table.board.label_index[given[0].upper()], given[1])


def play_turn(table: Table, seat: int, turn: int, numeral: object, bridges: object) -> tuple[Move, GameState]:
    """Referee one phone turn; return the move and the sheet after it, or raise naming the broken rule."""
    player = table.seats[seat]
    if player.mode != "phone":
        raise NotAllowed(_("this seat plays on paper: send its sheet when the game ends"))
    if not 1 <= turn <= CARDS_PLAYED:
        raise TableError(f"a game has turns 1 to {CARDS_PLAYED}")
    if turn > table.turn:
        raise NotNow(_("card {turn} is not revealed yet").format(turn=turn))
    if turn != len(player.moves) + 1:
        raise NotNow(_("your sheet is at turn {turn}: play turn {next} next").format(
            turn=len(player.moves), next=len(player.moves) + 1))
    state = phone_state(table, seat)
    move = parse_move(table.board, numeral, bridges, turn)
    return move, apply(state, table.cards[turn - 1], move)


def sheet_view(table: Table, state: GameState) -> dict[str, Any]:
    """A phone sheet as the page draws it: numerals, bridges per lane, circled islands, goals reached."""
    side = table.board
    return {"turn": state.turn,
            "numerals": {side.islands[i].label: v for i, v in enumerate(state.numerals) if v is not None},
            "bridges": {side.lane_name(k): n for k, n in enumerate(state.bridges) if n},
            "circled": sorted(side.islands[i].label for i in state.circled),
            "goals": dict(state.goals), "done": state.turn == CARDS_PLAYED}


def record_name(table: Table, seat: int) -> str:
    """The file name of a seat's record or sheet, as downloaded and as the scoreboard names its source."""
    return f"table-{table.code}-seat-{seat}.txt"


def record_text(table: Table, seat: int) -> str:
    """A seat's game: the phone player's game record, or the paper player's sheet as read and settled."""
    player = table.seats[seat]
    if player.mode == "paper":
        if player.sheet is None:
            raise NotNow(_("{player}'s sheet is not in yet").format(player=player.name))
        return player.sheet
    side = table.board
    moves = [parse_move(side, place, list(lanes), n) for n, (place, lanes) in enumerate(player.moves, 1)]
    record = record_from_moves(side, _setup_move(table, seat), table.cards[:len(moves)], moves,
                               player=player.name)
    return format_record(record)


def scoreboard(table: Table) -> dict[str, Any]:
    """The object `hashi-print score --json` prints for the table's records, each named by its file."""
    deck, scoring = designed_deck(), designed_scoring()
    reports = [validate(parse_sheet(record_text(table, s.seat), source=record_name(table, s.seat)), deck,
                        scoring) for s in table.seats]
    return score_players(reports, scoring).to_json()


def race(table: Table, board: dict[str, Any]) -> list[dict[str, object]]:
    """Why each bonus went where it did: per goal, the firsts with their turn, the later ones, and who
    was out of the race for breaking a rule."""
    scoring = designed_scoring()
    out: list[dict[str, object]] = []
    for goal in GOALS:
        high, low = scoring.bonus[goal]
        firsts, later, out_of_race = [], [], []
        for seat, player in enumerate(board["players"]):
            turn = player["goals"].get(goal, "missing")
            if turn == "missing":
                continue
            entry = {"seat": seat, "name": table.seats[seat].name, "turn": turn}
            if not player["ok"]:
                out_of_race.append(entry)
            elif player["score"]["bonus"].get(goal) == high:
                firsts.append(entry | {"points": high})
            else:
                later.append(entry | {"points": player["score"]["bonus"].get(goal, low)})
        out.append({"goal": goal, "first": firsts, "later": later, "out": out_of_race})
    return out


def all_in(table: Table) -> bool:
    """True when every card is revealed and every sheet is in."""
    return table.turn == CARDS_PLAYED and bool(table.seats) and all(s.done for s in table.seats)
