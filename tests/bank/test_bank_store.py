"""The SQLite store: what a puzzle row holds, symmetric copies refused, stats and a bad file."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from dataclasses import replace

import pytest

from hashi_print.bank.fill import make_entry
from hashi_print.bank.keys import SYMMETRIES, canonical_key, image
from hashi_print.bank.store import bank_stats, fill_state, open_bank, store_batch, stored_puzzles
from hashi_print.errors import BankError
from hashi_print.puzzle.deduce import EASY, TECHNIQUES
from hashi_print.puzzle.formats import format_tatham_id, parse_tatham_id
from hashi_print.puzzle.generate import GENERATOR_VERSION
from hashi_print.puzzle.solve import solve
from tests.bank.conftest import SMALL, SMALL_COUNT
from tests.independent import is_valid_solution


def copy_of(path, tmp_path):
    """A private copy of a bank file."""
    target = tmp_path / "bank.sqlite"
    shutil.copy(path, target)
    return target


def test_a_stored_puzzle_keeps_its_solution_grade_techniques_seed_id_and_key(small_bank):
    with closing(open_bank(small_bank)) as conn:
        stored = list(stored_puzzles(conn))
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    assert len(stored) == SMALL_COUNT
    assert [p.index for p in stored] == sorted(p.index for p in stored)
    for p in stored:
        assert is_valid_solution(p.puzzle, p.solution)
        assert solve(p.puzzle).status == "unique"
        assert p.grade == "easy" and p.techniques
        assert {TECHNIQUES[t] for t in p.techniques} == {EASY}
        assert parse_tatham_id(p.tatham_id) == p.puzzle and p.key <= p.tatham_id
        assert p.fill_seed == SMALL.seed and p.book is None
        assert make_entry(SMALL, p.index).seed == p.seed


@pytest.mark.parametrize("symmetry", SYMMETRIES[1:])
def test_a_mirrored_or_rotated_copy_is_refused(small_bank, tmp_path, symmetry):
    path = copy_of(small_bank, tmp_path)
    with closing(open_bank(path)) as conn:
        original = next(stored_puzzles(conn))
        copy = image(original.puzzle, symmetry)
        islands = json.dumps([[i.row, i.col, i.clue] for i in copy.islands])
        entry = replace(make_entry(SMALL, 0), index=SMALL_COUNT, cols=copy.cols, rows=copy.rows,
                        islands=islands, tatham_id=format_tatham_id(copy), key=canonical_key(copy))
        state = fill_state(conn, SMALL)
        after = store_batch(conn, state, [entry])
        assert (after.stored, after.duplicates) == (state.stored, state.duplicates + 1)
        assert after.next_index == state.next_index + 1
        assert conn.execute("SELECT COUNT(*) FROM puzzles").fetchone()[0] == SMALL_COUNT
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute("INSERT INTO puzzles (fill, fill_index, width, height, grade, techniques, "
                         "puzzle, solution, seed, tatham_id, canonical_key) "
                         "VALUES (?, 999, 7, 7, 'easy', '[]', '[]', '[]', 0, 'x', ?)",
                         (state.id, canonical_key(copy)))


def test_stats_count_by_size_and_grade(small_bank):
    with closing(open_bank(small_bank)) as conn:
        stats = bank_stats(conn).to_json()
    assert stats["format"] == "hashi-bank-stats/1"
    assert stats["puzzles"] == stats["unused"] == SMALL_COUNT and stats["used"] == 0
    assert stats["groups"] == [{"size": "7x7", "cols": 7, "rows": 7, "grade": "easy",
                                "puzzles": SMALL_COUNT, "used": 0, "unused": SMALL_COUNT}]
    assert stats["fills"][0]["stored"] == SMALL_COUNT and stats["fills"][0]["seed"] == SMALL.seed
    json.dumps(stats)


@pytest.mark.parametrize("content", [b"", b"hello, not a database\n" * 10, None])
def test_a_file_that_is_not_a_bank_is_refused_in_one_line(tmp_path, content):
    path = tmp_path / "x.sqlite"
    if content is None:
        with closing(sqlite3.connect(path)) as conn:
            conn.execute("CREATE TABLE t (x)")
    else:
        path.write_bytes(content)
    with pytest.raises(BankError, match="bank"):
        open_bank(path).close()
    with pytest.raises(BankError, match="no puzzle bank"):
        open_bank(tmp_path / "missing.sqlite")


def test_a_bank_from_before_generator_versions_is_migrated_and_its_fills_keep_version_1(small_bank, tmp_path):
    from hashi_print.bank.executors import LocalPool
    from hashi_print.bank.fill import fill, make_spec

    path = copy_of(small_bank, tmp_path)
    with closing(sqlite3.connect(path)) as raw:
        # What a bank made before generator versions looks like: no generator column on its fills.
        raw.execute("ALTER TABLE fills DROP COLUMN generator")
        raw.commit()
    with closing(open_bank(path)) as conn:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(fills)")}
        assert "generator" in columns
        assert {p.generator for p in stored_puzzles(conn)} == {1}
        old = fill_state(conn, SMALL)
        assert old.spec.generator == 1
        fill(conn, SMALL, SMALL_COUNT + 2, LocalPool(1))
        added = [p for p in stored_puzzles(conn) if p.index >= old.next_index]
        assert added and {p.generator for p in added} == {1}
        assert [p.tatham_id for p in added] == [make_entry(replace(SMALL, generator=1), p.index).tatham_id
                                                for p in added]
        fresh = fill_state(conn, make_spec(7, 7, "easy", seed=6))
        assert fresh.spec.generator == GENERATOR_VERSION == 3
        stats = bank_stats(conn).to_json()
    assert sorted(f["generator"] for f in stats["fills"]) == [1, 3]
