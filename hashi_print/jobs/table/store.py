"""Tables in SQLite (write-ahead log): the one truth that several server processes and restarts share.

Every change runs in one `BEGIN IMMEDIATE` transaction, so two processes never interleave their writes
to a table; every change also appends its events, which each process reads back to push them to pages.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from hashi_print.errors import HashiError
from hashi_print.i18n import _
from hashi_print.jobs.table.model import NoTable, Seat, Table

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY, side TEXT NOT NULL, seed INTEGER NOT NULL, host TEXT NOT NULL,
    turn INTEGER NOT NULL DEFAULT 0, keep_photos INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL, touched REAL NOT NULL, scoreboard TEXT);
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, mode TEXT NOT NULL, token TEXT NOT NULL,
    gives TEXT, moves TEXT NOT NULL DEFAULT '[]', sheet TEXT, reading TEXT, overlay BLOB, photo BLOB,
    done INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (code, seat));
CREATE UNIQUE INDEX IF NOT EXISTS seat_token ON seats (token);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT, code TEXT NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL,
    at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS events_code ON events (code, id);
CREATE TABLE IF NOT EXISTS joins (address TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS joins_address ON joins (address, at);
"""


@dataclass(frozen=True)
class Event:
    """Something that happened at a table, numbered in the order it was stored."""

    id: int
    code: str
    kind: str
    data: str


def token_hash(token: str) -> str:
    """What the store keeps of a token: its SHA-256 (a stolen file gives no one a seat)."""
    return hashlib.sha256(token.encode()).hexdigest()


def default_path() -> Path:
    """The table store in the user's data folder ($XDG_DATA_HOME, else ~/.local/share)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "hashi-print" / "tables.sqlite"


class TableStore:
    """The SQLite file of tables, opened once per thread; changes go through `write()`."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with contextlib.closing(self._open()) as db:
                db.execute("PRAGMA journal_mode=WAL")
                db.executescript(SCHEMA)
        except (OSError, sqlite3.Error) as err:
            raise HashiError(f"cannot open the table store: {err}", source=str(self.path)) from None
        self._local = threading.local()

    def _open(self) -> sqlite3.Connection:
        """A connection in autocommit mode (transactions are explicit) that waits for another writer."""
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA busy_timeout=10000")
        db.execute("PRAGMA synchronous=NORMAL")
        return db

    @property
    def db(self) -> sqlite3.Connection:
        """This thread's connection."""
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = self._open()
        return db

    @contextlib.contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One transaction that holds the write lock from its start (no other writer can slip between)."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def close(self) -> None:
        """Close this thread's connection."""
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None


def load_table(db: sqlite3.Connection, code: str, oldest: float) -> Table:
    """The table with this code, or NoTable (never made, or untouched since `oldest` and so expired)."""
    row = db.execute("SELECT side, seed, turn, keep_photos, scoreboard, touched FROM tables WHERE code = ?",
                     (code,)).fetchone()
    if row is None or row[5] < oldest:
        raise NoTable(_("there is no table with the code {code} (tables expire a day after their last move)")
                      .format(code=code))
    side, seed, turn, keep, board, _touched = row
    seats = tuple(Seat(seat, name, mode, None if gives is None else tuple(json.loads(gives)),
                       tuple((m[0], tuple(m[1])) for m in json.loads(moves)), sheet, bool(done))
                  for seat, name, mode, gives, moves, sheet, done in db.execute(
                      "SELECT seat, name, mode, gives, moves, sheet, done FROM seats WHERE code = ? "
                      "ORDER BY seat", (code,)))
    return Table(code, side, seed, turn, seats, bool(keep), None if board is None else json.loads(board))


def seat_of_token(db: sqlite3.Connection, code: str, token: str) -> int | None:
    """The seat a player's token holds at this table, or None."""
    row = db.execute("SELECT seat FROM seats WHERE code = ? AND token = ?",
                     (code, token_hash(token))).fetchone()
    return None if row is None else row[0]


def is_host(db: sqlite3.Connection, code: str, token: str) -> bool:
    """True when the token is this table's host token."""
    row = db.execute("SELECT host FROM tables WHERE code = ?", (code,)).fetchone()
    return row is not None and row[0] == token_hash(token)


def add_event(db: sqlite3.Connection, code: str, kind: str, data: dict[str, object]) -> None:
    """Append an event to the table's stream and mark the table as touched now."""
    now = time.time()
    db.execute("INSERT INTO events (code, kind, data, at) VALUES (?, ?, ?, ?)",
               (code, kind, json.dumps(data, ensure_ascii=False), now))
    db.execute("UPDATE tables SET touched = ? WHERE code = ?", (now, code))


def events_after(db: sqlite3.Connection, after: int, code: str | None = None,
                 limit: int = 1000) -> list[Event]:
    """The events stored after event `after` (of one table, or of every table), oldest first."""
    if code is None:
        rows = db.execute("SELECT id, code, kind, data FROM events WHERE id > ? ORDER BY id LIMIT ?",
                          (after, limit))
    else:
        rows = db.execute("SELECT id, code, kind, data FROM events WHERE code = ? AND id > ? ORDER BY id "
                          "LIMIT ?", (code, after, limit))
    return [Event(*row) for row in rows]


def last_event(db: sqlite3.Connection, code: str | None = None) -> int:
    """The number of the last event stored (of one table, or of any), 0 when none."""
    if code is None:
        row = db.execute("SELECT MAX(id) FROM events").fetchone()
    else:
        row = db.execute("SELECT MAX(id) FROM events WHERE code = ?", (code,)).fetchone()
    return row[0] or 0


def expire(db: sqlite3.Connection, oldest: float) -> int:
    """Delete every table untouched since `oldest`, with its seats and events; return how many."""
    codes = [c for (c,) in db.execute("SELECT code FROM tables WHERE touched < ?", (oldest,))]
    for code in codes:
        for name in ("seats", "events", "tables"):
            db.execute(f"DELETE FROM {name} WHERE code = ?", (code,))  # noqa: S608 (fixed names)
    db.execute("DELETE FROM joins WHERE at < ?", (time.time() - 3600,))
    return len(codes)
