"""The bank's SQLite store: puzzles with their solution, grade and key, the fills that made them, books.

One file, WAL mode, every batch in one transaction. A puzzle's canonical key is UNIQUE, so a copy of
a stored puzzle under any symmetry is refused by the database itself, whoever writes it.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hashi_print.errors import BankError, HashiError
from hashi_print.files import check_not_special, write_atomic
from hashi_print.puzzle.generate import GENERATOR_VERSION
from hashi_print.puzzle.model import Grade, Puzzle, Solution

FORMAT = "hashi-bank/1"
STATS_FORMAT = "hashi-bank-stats/1"
MAX_BOOK_NAME = 200

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS fills (
    id INTEGER PRIMARY KEY,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    grade TEXT NOT NULL,
    density REAL NOT NULL,
    seed INTEGER NOT NULL,
    next_index INTEGER NOT NULL DEFAULT 0,
    duplicates INTEGER NOT NULL DEFAULT 0,
    generator INTEGER NOT NULL DEFAULT 1,
    UNIQUE (width, height, grade, density, seed)
);
CREATE TABLE IF NOT EXISTS books (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    made_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS puzzles (
    id INTEGER PRIMARY KEY,
    fill INTEGER NOT NULL REFERENCES fills (id),
    fill_index INTEGER NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    grade TEXT NOT NULL,
    techniques TEXT NOT NULL,
    puzzle TEXT NOT NULL,
    solution TEXT NOT NULL,
    seed INTEGER NOT NULL,
    tatham_id TEXT NOT NULL,
    canonical_key TEXT NOT NULL UNIQUE,
    book INTEGER REFERENCES books (id),
    UNIQUE (fill, fill_index)
);
CREATE INDEX IF NOT EXISTS puzzles_unused ON puzzles (book, grade, width, height, id);
"""


# --- the nouns ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FillSpec:
    """What a fill makes: grid size, grade, island density, the seed every puzzle derives from, and the
    generator version (a fill keeps the version it was started with, so continuing it stays consistent)."""

    cols: int
    rows: int
    grade: Grade
    density: float
    seed: int
    generator: int = GENERATOR_VERSION


@dataclass(frozen=True)
class FillState:
    """How far a fill has come: the next index to generate, puzzles stored, duplicates skipped."""

    id: int
    spec: FillSpec
    next_index: int
    stored: int
    duplicates: int


@dataclass(frozen=True)
class Entry:
    """One generated puzzle as a worker hands it back: plain values, cheap to send between machines."""

    index: int
    cols: int
    rows: int
    grade: Grade
    techniques: tuple[str, ...]
    islands: str
    solution: str
    seed: int
    tatham_id: str
    key: str


@dataclass(frozen=True)
class StoredPuzzle:
    """A puzzle read back from the bank, with where it came from and the book that used it, if any."""

    id: int
    puzzle: Puzzle
    solution: Solution
    grade: Grade
    techniques: tuple[str, ...]
    seed: int
    fill_seed: int
    index: int
    tatham_id: str
    key: str
    book: str | None
    generator: int = 1


@dataclass(frozen=True)
class Group:
    """The puzzles of one size and grade: how many, and how many a book has used."""

    cols: int
    rows: int
    grade: Grade
    puzzles: int
    used: int

    def to_json(self) -> dict[str, object]:
        """Return the group as a JSON object."""
        return {"size": f"{self.cols}x{self.rows}", "cols": self.cols, "rows": self.rows,
                "grade": self.grade, "puzzles": self.puzzles, "used": self.used,
                "unused": self.puzzles - self.used}


@dataclass(frozen=True)
class BookUse:
    """A book made from the bank: its name, when, and how many puzzles it took."""

    name: str
    made_at: str
    puzzles: int

    def to_json(self) -> dict[str, object]:
        """Return the book as a JSON object."""
        return {"name": self.name, "made_at": self.made_at, "puzzles": self.puzzles}


@dataclass(frozen=True)
class BankStats:
    """What a bank holds: counts by size and grade, the books that used puzzles, and the fills."""

    groups: tuple[Group, ...]
    books: tuple[BookUse, ...]
    fills: tuple[FillState, ...]

    @property
    def puzzles(self) -> int:
        """All stored puzzles."""
        return sum(g.puzzles for g in self.groups)

    @property
    def used(self) -> int:
        """Puzzles some book has used."""
        return sum(g.used for g in self.groups)

    def to_json(self) -> dict[str, object]:
        """Return the `hashi-bank-stats/1` object."""
        return {
            "format": STATS_FORMAT,
            "puzzles": self.puzzles,
            "used": self.used,
            "unused": self.puzzles - self.used,
            "groups": [g.to_json() for g in self.groups],
            "books": [b.to_json() for b in self.books],
            "fills": [{"size": f"{f.spec.cols}x{f.spec.rows}", "grade": f.spec.grade,
                       "density": f.spec.density, "seed": f.spec.seed, "generator": f.spec.generator,
                       "stored": f.stored,
                       "duplicates": f.duplicates, "next_index": f.next_index} for f in self.fills],
        }


# --- opening and transactions ---------------------------------------------------------------------

def open_bank(path: str | os.PathLike[str], *, create: bool = False,
              timeout: float = 30.0) -> sqlite3.Connection:
    """Open a bank (creating it when `create`), in WAL mode, with explicit transactions only."""
    target = Path(path)
    if not create and not target.is_file():
        raise BankError("no puzzle bank here; make one with `hashi-print bank fill`", source=str(target))
    if target.is_dir():
        raise BankError("is a folder, not a puzzle bank", source=str(target))
    # SQLite would write its journal beside a device (/dev/null-journal): only a regular file is a bank.
    check_not_special(target, "a puzzle bank")
    try:
        conn = sqlite3.connect(target, timeout=timeout, isolation_level=None)
    except sqlite3.Error as err:
        raise BankError(f"cannot open the bank: {err}", source=str(target)) from None
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        _check_format(conn, target, create)
    except sqlite3.DatabaseError as err:
        conn.close()
        raise BankError(f"not a puzzle bank ({err})", source=str(target)) from None
    except HashiError:
        conn.close()
        raise
    return conn


def _check_format(conn: sqlite3.Connection, target: Path, create: bool) -> None:
    """Make sure the file is a bank of this format, laying out the tables of a new one."""
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not tables and create:
        with transaction(conn):
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute("INSERT OR IGNORE INTO meta VALUES ('format', ?)", (FORMAT,))
        return
    found = None
    if "meta" in tables:
        found = conn.execute("SELECT value FROM meta WHERE name = 'format'").fetchone()
    if found is None or found[0] != FORMAT:
        raise BankError(f"not a puzzle bank (expected a {FORMAT} SQLite file)", source=str(target))
    _migrate(conn)


def _migrate(conn: sqlite3.Connection) -> None:
    """Bring a bank made by an older hashi-print up to date: its fills were made by generator version 1."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(fills)")}
    if "generator" not in columns:
        with transaction(conn):
            conn.execute("ALTER TABLE fills ADD COLUMN generator INTEGER NOT NULL DEFAULT 1")


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """Run the block in one write transaction: committed when it ends, rolled back when it raises."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as err:
        raise BankError(f"the bank is busy ({err}); another command is writing it, try again") from None
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException as err:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if isinstance(err, sqlite3.OperationalError):
            raise BankError(f"the bank could not save this ({err}); nothing was changed") from None
        raise


# --- fills ----------------------------------------------------------------------------------------

def fill_state(conn: sqlite3.Connection, spec: FillSpec) -> FillState:
    """Return how far the fill of `spec` has come, registering it (with its generator version) when new."""
    params = (spec.cols, spec.rows, spec.grade, spec.density, spec.seed)
    where = "width = ? AND height = ? AND grade = ? AND density = ? AND seed = ?"
    row = conn.execute(f"SELECT id FROM fills WHERE {where}", params).fetchone()
    if row is None:
        with transaction(conn):
            conn.execute("INSERT OR IGNORE INTO fills (width, height, grade, density, seed, generator) "
                         "VALUES (?, ?, ?, ?, ?, ?)", (*params, spec.generator))
        row = conn.execute(f"SELECT id FROM fills WHERE {where}", params).fetchone()
    return _fill_state(conn, row[0])


def _fill_state(conn: sqlite3.Connection, fill_id: int) -> FillState:
    """Read one fill's progress."""
    cols, rows, grade, density, seed, next_index, duplicates, generator = conn.execute(
        "SELECT width, height, grade, density, seed, next_index, duplicates, generator FROM fills "
        "WHERE id = ?", (fill_id,)).fetchone()
    stored = conn.execute("SELECT COUNT(*) FROM puzzles WHERE fill = ?", (fill_id,)).fetchone()[0]
    spec = FillSpec(cols, rows, Grade(grade), density, seed, generator)
    return FillState(fill_id, spec, next_index, stored, duplicates)


def store_batch(conn: sqlite3.Connection, fill: FillState, entries: Sequence[Entry]) -> FillState:
    """Store consecutive entries of a fill in index order, in one transaction; refuse symmetric copies."""
    if not entries:
        return fill
    if [e.index for e in entries] != list(range(fill.next_index, fill.next_index + len(entries))):
        raise BankError(f"a batch must continue the fill at index {fill.next_index}")
    duplicates = 0
    with transaction(conn):
        now = conn.execute("SELECT next_index FROM fills WHERE id = ?", (fill.id,)).fetchone()[0]
        if now != fill.next_index:
            raise BankError("another command is filling the same seed, size and grade into this bank")
        for e in entries:
            cur = conn.execute(
                "INSERT INTO puzzles (fill, fill_index, width, height, grade, techniques, puzzle, solution,"
                " seed, tatham_id, canonical_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (canonical_key) DO NOTHING",
                (fill.id, e.index, e.cols, e.rows, e.grade, json.dumps(list(e.techniques)), e.islands,
                 e.solution, e.seed, e.tatham_id, e.key))
            duplicates += 1 - cur.rowcount
        conn.execute("UPDATE fills SET next_index = ?, duplicates = duplicates + ? WHERE id = ?",
                     (entries[-1].index + 1, duplicates, fill.id))
    return FillState(fill.id, fill.spec, entries[-1].index + 1, fill.stored + len(entries) - duplicates,
                     fill.duplicates + duplicates)


# --- reading --------------------------------------------------------------------------------------

_COLUMNS = ("p.id, p.width, p.height, p.puzzle, p.solution, p.grade, p.techniques, p.seed, f.seed, "
            "p.fill_index, p.tatham_id, p.canonical_key, b.name, f.generator")
_FROM = "FROM puzzles p JOIN fills f ON f.id = p.fill LEFT JOIN books b ON b.id = p.book"


def _stored(row: tuple[Any, ...]) -> StoredPuzzle:
    """Turn one row of _COLUMNS into a StoredPuzzle."""
    (pid, cols, rows, islands, solution, grade, techniques, seed, fill_seed, index, tatham, key, book,
     gen) = row
    return StoredPuzzle(pid, Puzzle.build(cols, rows, json.loads(islands)),
                        Solution.from_lists(json.loads(solution)), Grade(grade),
                        tuple(json.loads(techniques)), seed, fill_seed, index, tatham, key, book, gen)


def stored_puzzles(conn: sqlite3.Connection) -> Iterator[StoredPuzzle]:
    """Yield every stored puzzle in the order it was stored."""
    for row in conn.execute(f"SELECT {_COLUMNS} {_FROM} ORDER BY p.id"):
        yield _stored(row)


def bank_stats(conn: sqlite3.Connection) -> BankStats:
    """Count the puzzles by size and grade (used and unused), and list the books and the fills."""
    groups = tuple(Group(cols, rows, Grade(grade), n, used) for cols, rows, grade, n, used in conn.execute(
        "SELECT width, height, grade, COUNT(*), COUNT(book) FROM puzzles GROUP BY width, height, grade "
        "ORDER BY width * height, width, grade"))
    books = tuple(BookUse(*row) for row in conn.execute(
        "SELECT b.name, b.made_at, COUNT(p.id) FROM books b LEFT JOIN puzzles p ON p.book = b.id "
        "GROUP BY b.id ORDER BY b.id"))
    fills = tuple(_fill_state(conn, row[0]) for row in conn.execute("SELECT id FROM fills ORDER BY id"))
    return BankStats(groups, books, fills)


# --- books ----------------------------------------------------------------------------------------

def draw_unused(conn: sqlite3.Connection, count: int, grade: Grade | None = None,
                size: tuple[int, int] | None = None) -> list[StoredPuzzle]:
    """Return the first `count` puzzles no book has used, in stored order, of a grade and size if given."""
    where: list[str] = ["p.book IS NULL"]
    params: list[str | int] = []
    if grade is not None:
        where.append("p.grade = ?")
        params.append(grade)
    if size is not None:
        where.append("p.width = ? AND p.height = ?")
        params.extend(size)
    rows = conn.execute(f"SELECT {_COLUMNS} {_FROM} WHERE {' AND '.join(where)} ORDER BY p.id LIMIT ?",
                        (*params, count)).fetchall()
    if len(rows) < count:
        what = " ".join(x for x in (grade, f"{size[0]}x{size[1]}" if size else None) if x)
        raise BankError(f"the bank has {len(rows)} unused {what + ' ' if what else ''}puzzle(s), "
                        f"{count} asked for; fill it with `hashi-print bank fill` first")
    return [_stored(row) for row in rows]


def check_book_name(conn: sqlite3.Connection, name: str) -> str:
    """Return the book name, stripped, or raise BankError when it is empty, too long or taken."""
    name = name.strip()
    if not name or len(name) > MAX_BOOK_NAME:
        raise BankError(f"a book name must have 1 to {MAX_BOOK_NAME} characters")
    if conn.execute("SELECT 1 FROM books WHERE name = ?", (name,)).fetchone():
        raise BankError(f"the bank already has a book named {name!r}; choose another name")
    return name


def record_book(conn: sqlite3.Connection, name: str, puzzles: Sequence[StoredPuzzle],
                files: Sequence[tuple[str | os.PathLike[str], bytes | str]]) -> list[Path]:
    """Write a book's files and mark its puzzles used by `name`, in one transaction: all or nothing.

    The files are written (each atomically) inside the transaction and removed again if it does not
    commit, so a failure leaves neither a book nor marked puzzles.
    """
    name = check_book_name(conn, name)
    written: list[Path] = []
    try:
        with transaction(conn):
            made_at = datetime.now(UTC).isoformat(timespec="seconds")
            book_id = conn.execute("INSERT INTO books (name, made_at) VALUES (?, ?)",
                                   (name, made_at)).lastrowid
            marked = sum(conn.execute("UPDATE puzzles SET book = ? WHERE id = ? AND book IS NULL",
                                      (book_id, p.id)).rowcount for p in puzzles)
            if marked != len(puzzles):
                raise BankError("another book took some of these puzzles meanwhile; nothing was written, "
                                "run the command again")
            for path, data in files:
                written.append(write_atomic(path, data))
    except BaseException:
        for path in written:
            path.unlink(missing_ok=True)
        raise
    return written
