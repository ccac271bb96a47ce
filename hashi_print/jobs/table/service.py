"""The use cases of a game night, each one transaction on the table store: make a table, join, set up,
reveal, play a phone turn, hand in a paper sheet, settle its doubts, read the table and a seat's record."""

from __future__ import annotations

import json
import random
import sqlite3
import time
from dataclasses import dataclass
from typing import Any

from hashi_print.game.deck import CARDS_PLAYED
from hashi_print.i18n import _
from hashi_print.jobs.table import paper
from hashi_print.jobs.table.model import (
    MAX_SEATS,
    MODES,
    NotAllowed,
    NotNow,
    NoToken,
    Table,
    TableError,
    TooMany,
    all_in,
    check_setup,
    clean_code,
    move_words,
    new_code,
    new_token,
    phone_state,
    play_turn,
    player_name,
    race,
    record_name,
    record_text,
    scoreboard,
    sheet_view,
)
from hashi_print.jobs.table.store import (
    Event,
    TableStore,
    add_event,
    events_after,
    expire,
    is_host,
    last_event,
    load_table,
    seat_of_token,
    token_hash,
)

TABLE_LIFE = 24 * 3600          # a table untouched for a day is deleted
JOINS_PER_MINUTE = 20           # join attempts one address may make a minute
MAX_SEED = 2**48


@dataclass(frozen=True)
class Who:
    """Whom a token names at a table: the host, or a player's seat."""

    host: bool
    seat: int | None = None


def _oldest(now: float) -> float:
    """The last touch a table may have had and still be alive."""
    return now - TABLE_LIFE


def create(store: TableStore, side: object, seed: object, keep_photos: object = False,
           now: float | None = None) -> dict[str, Any]:
    """Make a table of `side` ("A" or "B") dealt with `seed` (random when None): its code, host token."""
    if not isinstance(side, str) or side.upper() not in ("A", "B"):
        raise TableError('"side" must be "A" or "B"')
    if seed is None:
        seed = random.SystemRandom().randrange(MAX_SEED)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise TableError(f'"seed" must be a whole number from 0 to {MAX_SEED}')
    if not isinstance(keep_photos, bool):
        raise TableError('"keep_photos" must be true or false')
    now = time.time() if now is None else now
    host = new_token()
    with store.write() as db:
        expire(db, _oldest(now))
        code = new_code()
        while db.execute("SELECT 1 FROM tables WHERE code = ?", (code,)).fetchone():
            code = new_code()
        db.execute("INSERT INTO tables (code, side, seed, host, keep_photos, created, touched) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)", (code, side.upper(), seed, token_hash(host), keep_photos,
                                                    now, now))
    return {"code": code, "host_token": host, "side": side.upper(), "seed": seed}


def who(store: TableStore, code: str, token: str | None) -> Who:
    """Whom the token names at the table (NoToken when it names nobody there)."""
    if not token:
        raise NoToken(_("this needs the token you got when you made or joined the table "
                        "(Authorization: Bearer ...)"))
    db = store.db
    load_table(db, code, _oldest(time.time()))
    if is_host(db, code, token):
        return Who(True)
    seat = seat_of_token(db, code, token)
    if seat is None:
        raise NoToken(_("this token belongs to no one at this table"))
    return Who(False, seat)


def _player(store: TableStore, code: str, token: str | None) -> int:
    """The seat of the player the token names (the host has none)."""
    found = who(store, code, token)
    if found.host or found.seat is None:
        raise NotAllowed(_("the host's token plays no sheet; use a player's token"))
    return found.seat


def join(store: TableStore, code: str, name: object, mode: object, address: str,
         now: float | None = None) -> dict[str, Any]:
    """Seat a new player (before the first reveal); join attempts are limited per address."""
    now = time.time() if now is None else now
    with store.write() as db:
        tries = db.execute("SELECT COUNT(*) FROM joins WHERE address = ? AND at > ?",
                           (address, now - 60)).fetchone()[0]
        if tries >= JOINS_PER_MINUTE:
            raise TooMany(_("too many join attempts from this address; wait a minute (at most {most} a "
                            "minute)").format(most=JOINS_PER_MINUTE))
        db.execute("INSERT INTO joins (address, at) VALUES (?, ?)", (address, now))
    code = clean_code(code)
    name = player_name(name)
    if mode not in MODES:
        raise TableError('"mode" must be "phone" or "paper"')
    token = new_token()
    with store.write() as db:
        table = load_table(db, code, _oldest(now))
        if table.turn:
            raise NotNow(_("the game has started: players join before the first card is revealed"))
        if len(table.seats) >= MAX_SEATS:
            raise NotNow(_("the table is full ({most} players)").format(most=MAX_SEATS))
        seat = len(table.seats)
        db.execute("INSERT INTO seats (code, seat, name, mode, token) VALUES (?, ?, ?, ?, ?)",
                   (code, seat, name, mode, token_hash(token)))
        add_event(db, code, "join", {"seat": seat, "name": name, "mode": mode})
    return {"player_token": token, "seat": seat}


def give_setup(store: TableStore, code: str, token: str | None, island: object,
               numeral: object) -> dict[str, Any]:
    """Write the setup numeral a player chose on the sheet of the player on their left."""
    code = clean_code(code)
    seat = _player(store, code, token)
    with store.write() as db:
        table = load_table(db, code, _oldest(time.time()))
        if table.turn:
            raise NotNow(_("the setup is done before the first card is revealed"))
        label, value = check_setup(table, island, numeral)
        db.execute("UPDATE seats SET gives = ? WHERE code = ? AND seat = ?",
                   (json.dumps([label, value]), code, seat))
        left = table.left_of(seat)
        add_event(db, code, "setup", {"seat": seat, "for": left})
    return {"seat": seat, "for": left, "island": label, "numeral": value}


def reveal(store: TableStore, code: str, token: str | None) -> dict[str, Any]:
    """Reveal the next card (the host only, once every sheet has its setup)."""
    code = clean_code(code)
    if not who(store, code, token).host:
        raise NotAllowed(_("only the host reveals cards"))
    with store.write() as db:
        table = load_table(db, code, _oldest(time.time()))
        if table.turn >= CARDS_PLAYED:
            raise NotNow(_("all {cards} cards are revealed").format(cards=CARDS_PLAYED))
        if not table.seats:
            raise NotNow(_("no player has joined yet"))
        waiting = [table.seats[(s.seat - 1) % len(table.seats)].name for s in table.seats
                   if table.setup_of(s.seat) is None]
        if waiting:
            raise NotNow(_("waiting for the setup from {players}").format(players=", ".join(waiting)))
        turn = table.turn + 1
        card = table.cards[turn - 1]
        db.execute("UPDATE tables SET turn = ? WHERE code = ?", (turn, code))
        answer = {"turn": turn, "card": {"numeral": card.numeral, "bridges": card.bridges}}
        add_event(db, code, "reveal", answer)
        if turn == CARDS_PLAYED:
            _finish_if_all_in(db, load_table(db, code, 0))
    return answer


def play(store: TableStore, code: str, token: str | None, turn: int, numeral: object,
         bridges: object) -> dict[str, Any]:
    """Play a phone player's turn on their own sheet, refereed by the rules engine."""
    code = clean_code(code)
    seat = _player(store, code, token)
    with store.write() as db:
        table = load_table(db, code, _oldest(time.time()))
        move, state = play_turn(table, seat, turn, numeral, bridges)
        place, lanes = move_words(table.board, move)
        moves = [*table.seats[seat].moves, (place, lanes)]
        done = state.turn == CARDS_PLAYED
        db.execute("UPDATE seats SET moves = ?, done = ? WHERE code = ? AND seat = ?",
                   (json.dumps([[p, list(ls)] for p, ls in moves]), done, code, seat))
        if done:
            add_event(db, code, "done", {"seat": seat})
            _finish_if_all_in(db, load_table(db, code, 0))
        else:
            db.execute("UPDATE tables SET touched = ? WHERE code = ?", (time.time(), code))
    return sheet_view(table, state)


def _paper_seat(table: Table, seat: int) -> None:
    """Refuse a paper sheet from a phone player, before the last card, or twice."""
    player = table.seats[seat]
    if player.mode != "paper":
        raise NotAllowed(_("this seat plays on a phone: its turns are its record"))
    if table.turn < CARDS_PLAYED:
        raise NotNow(_("paper sheets are handed in after card {last}; {left} to come").format(
            last=CARDS_PLAYED, left=CARDS_PLAYED - table.turn))
    if player.done:
        raise NotNow(_("your sheet is already in"))


def paper_seat(store: TableStore, code: str, token: str | None) -> tuple[Table, int]:
    """The table and the seat of a paper player who may hand in a sheet now."""
    code = clean_code(code)
    seat = _player(store, code, token)
    table = load_table(store.db, code, _oldest(time.time()))
    _paper_seat(table, seat)
    return table, seat


def hand_in_typed(store: TableStore, code: str, token: str | None, text: object) -> dict[str, Any]:
    """Hand in a paper sheet typed as `hashi-sheet 1` text."""
    table, seat = paper_seat(store, code, token)
    sheet = paper.typed_sheet(text, table.board, table.seats[seat].name, table.setup_of(seat),
                              _giver(table, seat))
    with store.write() as db:
        table = load_table(db, table.code, 0)
        _paper_seat(table, seat)
        _sheet_in(db, table, seat, sheet)
    return {"sheet": sheet, "done": True}


def hand_in_reading(store: TableStore, table: Table, seat: int, reading: paper.Reading,
                    photo: bytes | None) -> dict[str, Any]:
    """Keep a photo's reading; the sheet is in at once when no doubt that matters is left."""
    with store.write() as db:
        current = load_table(db, table.code, 0)
        _paper_seat(current, seat)
        # The table knows the setup numeral: a doubt about it is no question for the player.
        reading = paper.with_setup(reading, current.setup_of(seat))
        db.execute("UPDATE seats SET reading = ?, overlay = ?, photo = ? WHERE code = ? AND seat = ?",
                   (json.dumps(paper.reading_to_json(reading)), reading.overlay,
                    photo if current.keep_photos else None, table.code, seat))
        done = _sheet_if_settled(db, current, seat, reading)
    return paper.reading_json(reading) | {"done": done}


def settle(store: TableStore, code: str, token: str | None, field: object, where: object,
           value: object) -> dict[str, Any]:
    """Settle one doubt of a paper player's reading with the value they tap."""
    code = clean_code(code)
    seat = _player(store, code, token)
    with store.write() as db:
        table = load_table(db, code, _oldest(time.time()))
        _paper_seat(table, seat)
        reading = _stored_reading(db, table, seat)
        if reading is None:
            raise NotNow(_("send a photo of your sheet first"))
        reading = paper.settle(reading, field, where, value)
        db.execute("UPDATE seats SET reading = ? WHERE code = ? AND seat = ?",
                   (json.dumps(paper.reading_to_json(reading)), code, seat))
        done = _sheet_if_settled(db, table, seat, reading)
    return paper.reading_json(reading) | {"done": done}


def _stored_reading(db: sqlite3.Connection, table: Table, seat: int) -> paper.Reading | None:
    """The photo reading kept for a seat, or None."""
    row = db.execute("SELECT reading, overlay FROM seats WHERE code = ? AND seat = ?",
                     (table.code, seat)).fetchone()
    return None if row[0] is None else paper.reading_from_json(json.loads(row[0]), table.board, row[1])


def _sheet_if_settled(db: sqlite3.Connection, table: Table, seat: int, reading: paper.Reading) -> bool:
    """Hand the sheet in when every doubt that matters is settled; tell whether it is in."""
    if reading.open_doubts():
        return False
    marks = paper.settled_marks(reading)
    problem = paper.setup_problem(marks.numerals, table.board, table.setup_of(seat), _giver(table, seat))
    if problem is not None:
        raise TableError(problem)
    _sheet_in(db, table, seat, paper.final_sheet(marks, table.seats[seat].name))
    return True


def _giver(table: Table, seat: int) -> str:
    """The name of the player who chose this seat's setup numeral (the one on its right)."""
    return table.seats[(seat - 1) % len(table.seats)].name


def _sheet_in(db: sqlite3.Connection, table: Table, seat: int, sheet: str) -> None:
    """Store a paper player's final sheet and score the table when it was the last one."""
    db.execute("UPDATE seats SET sheet = ?, done = 1 WHERE code = ? AND seat = ?", (sheet, table.code, seat))
    add_event(db, table.code, "done", {"seat": seat})
    _finish_if_all_in(db, load_table(db, table.code, 0))


def _finish_if_all_in(db: sqlite3.Connection, table: Table) -> None:
    """Score the table once every sheet is in; forget the photos unless the table keeps them."""
    if not all_in(table) or table.scoreboard is not None:
        return
    board = scoreboard(table)
    db.execute("UPDATE tables SET scoreboard = ? WHERE code = ?", (json.dumps(board), table.code))
    if not table.keep_photos:
        db.execute("UPDATE seats SET overlay = NULL, photo = NULL WHERE code = ?", (table.code,))
    add_event(db, table.code, "scoreboard", {"winners": board["winners"]})


def table_view(store: TableStore, code: str) -> dict[str, Any]:
    """What anyone with the code sees: side, cards revealed, players, the scoreboard and why."""
    code = clean_code(code)
    db = store.db
    table = load_table(db, code, _oldest(time.time()))
    n = len(table.seats)
    players = [{"seat": s.seat, "name": s.name, "mode": s.mode, "done": s.done,
                "turns": len(s.moves) if s.mode == "phone" else None,
                "left": table.left_of(s.seat), "setup_given": s.gives is not None,
                "setup_by": (s.seat - 1) % n} for s in table.seats]
    cards = [{"numeral": c.numeral, "bridges": c.bridges} for c in table.cards[:table.turn]]
    board = table.scoreboard
    return {"code": code, "side": table.side, "turn": table.turn, "cards": cards,
            "to_come": CARDS_PLAYED - table.turn, "players": players, "scoreboard": board,
            "race": None if board is None else race(table, board),
            "records": None if board is None else [record_name(table, s.seat) for s in table.seats],
            "event": last_event(db, code)}


def seat_view(store: TableStore, code: str, token: str | None) -> dict[str, Any]:
    """What a player sees of their own seat: the setup they give and get, and their sheet or reading."""
    code = clean_code(code)
    seat = _player(store, code, token)
    table = load_table(store.db, code, _oldest(time.time()))
    player = table.seats[seat]
    out = {"seat": seat, "name": player.name, "mode": player.mode, "done": player.done,
           "left": table.left_of(seat), "gives": player.gives, "setup": table.setup_of(seat)}
    if player.mode == "phone":
        out["sheet"] = sheet_view(table, phone_state(table, seat)) if table.setup_of(seat) else None
    else:
        reading = _stored_reading(store.db, table, seat)
        out["reading"] = None if reading is None else paper.reading_json(reading)
        out["sheet"] = player.sheet
    return out


def seat_record(store: TableStore, code: str, seat: object) -> tuple[str, str]:
    """A seat's record or sheet and its file name, once the table is scored."""
    code = clean_code(code)
    table = load_table(store.db, code, _oldest(time.time()))
    if not isinstance(seat, int) or not 0 <= seat < len(table.seats):
        raise TableError(f"this table has seats 0 to {len(table.seats) - 1}")
    if table.scoreboard is None:
        raise NotNow(_("records are downloaded once every sheet is in and the table is scored"))
    return record_name(table, seat), record_text(table, seat)


def events_since(store: TableStore, code: str, after: int) -> list[Event]:
    """The table's events after event `after` (for a page that reconnects)."""
    return events_after(store.db, after, clean_code(code))
