"""Books from the bank: only never-used puzzles, and the use recorded with the book, all or nothing."""

from __future__ import annotations

import json
import shutil
from contextlib import closing

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from hashi_print.bank.store import bank_stats, draw_unused, open_bank, record_book, stored_puzzles
from hashi_print.cli import cli
from hashi_print.errors import BankError
from hashi_print.puzzle.formats import parse_tatham_id
from tests.bank.conftest import SMALL_COUNT
from tests.independent import is_valid_solution


@pytest.fixture
def bank(small_bank, tmp_path):
    """A private copy of the small bank."""
    path = tmp_path / "bank.sqlite"
    shutil.copy(small_bank, path)
    return path


def make_book(bank, tmp_path, name: str, count: int, *extra: str):
    """Run `book --from-bank` into tmp_path/<name>.pdf with a manifest; return the result."""
    stem = tmp_path / name.replace(" ", "-")
    return CliRunner().invoke(cli, ["book", "--from-bank", str(bank), "--count", str(count),
                                    "--mark-used", name, "--out", f"{stem}.pdf", "--manifest", f"{stem}.json",
                                    *extra])


def ids_in_pdf(path) -> list[str]:
    """The Tatham IDs printed in a book, read back from the PDF's text."""
    text = "\n".join(page.extract_text() for page in PdfReader(path).pages)
    return [word for word in text.split() if "m2:" in word]


def stats(bank) -> dict:
    """The bank's stats as JSON."""
    with closing(open_bank(bank)) as conn:
        return bank_stats(conn).to_json()


def test_books_never_share_a_puzzle_and_stats_show_who_used_what(bank, tmp_path):
    with closing(open_bank(bank)) as conn:
        stored = {p.tatham_id: p for p in stored_puzzles(conn)}
    seen: set[str] = set()
    for name in ("Volume 1", "Volume 2"):
        result = make_book(bank, tmp_path, name, 5, "--difficulty", "easy", "--ids-under-grids")
        assert result.exit_code == 0, result.output
        manifest = json.loads((tmp_path / f"{name.replace(' ', '-')}.json").read_text())
        ids = [p["id"] for p in manifest["puzzles"]]
        assert sorted(ids_in_pdf(tmp_path / f"{name.replace(' ', '-')}.pdf")) == sorted(ids)
        assert len(set(ids)) == 5 and not set(ids) & seen and set(ids) <= set(stored)
        for entry in manifest["puzzles"]:
            assert is_valid_solution(parse_tatham_id(entry["id"]), stored[entry["id"]].solution)
        seen |= set(ids)
    now = stats(bank)
    assert (now["used"], now["unused"]) == (10, SMALL_COUNT - 10)
    assert [(b["name"], b["puzzles"]) for b in now["books"]] == [("Volume 1", 5), ("Volume 2", 5)]
    with closing(open_bank(bank)) as conn:
        marks = {p.tatham_id: p.book for p in stored_puzzles(conn) if p.book}
    assert set(marks) == seen
    # The first book took the first five stored puzzles.
    assert [p for p, b in marks.items() if b == "Volume 1"] == list(stored)[:5]

    too_many = make_book(bank, tmp_path, "Volume 3", 5)
    assert too_many.exit_code == 2 and "has 2 unused puzzle(s), 5 asked for" in too_many.output
    assert not (tmp_path / "Volume-3.pdf").exists() and stats(bank) == now
    again = make_book(bank, tmp_path, "Volume 1", 1)
    assert again.exit_code == 2 and "already has a book named 'Volume 1'" in again.output
    assert stats(bank) == now


def test_a_failed_write_leaves_no_book_and_no_marks(bank, tmp_path):
    before = stats(bank)
    (tmp_path / "taken.pdf").mkdir()
    result = CliRunner().invoke(cli, ["book", "--from-bank", str(bank), "--count", "3", "--mark-used", "V",
                                      "--out", str(tmp_path / "taken.pdf")])
    assert result.exit_code == 2
    assert stats(bank) == before


def test_a_bank_busy_at_commit_leaves_no_book_and_no_marks(bank, tmp_path):
    out = tmp_path / "book.pdf"
    with closing(open_bank(bank)) as holder, closing(open_bank(bank, timeout=0.1)) as conn:
        drawn = draw_unused(conn, 3)
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(BankError, match="busy"):
            record_book(conn, "Held", drawn, [(out, b"%PDF-1.4 stand-in")])
        holder.execute("ROLLBACK")
    assert not out.exists()
    assert stats(bank)["used"] == 0 and stats(bank)["books"] == []


@pytest.mark.parametrize("args, message", [
    (["--from-bank", "{bank}"], "--mark-used"),
    (["--mark-used", "V"], "--from-bank"),
    (["--from-bank", "{bank}", "--mark-used", " "], "book name"),
    (["--from-bank", "{tmp}/none.sqlite", "--mark-used", "V"], "no puzzle bank"),
    (["--from-bank", "{bank}", "--mark-used", "V", "--size", "9x9"], "0 unused 9x9"),
])
def test_bad_bank_book_requests_are_one_line_and_exit_2(bank, tmp_path, args, message):
    argv = ["book", "--count", "2", "--out", str(tmp_path / "b.pdf"),
            *[a.format(bank=bank, tmp=tmp_path) for a in args]]
    result = CliRunner().invoke(cli, argv)
    assert result.exit_code == 2 and message in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "b.pdf").exists()


def test_stats_and_export_commands(bank):
    result = CliRunner().invoke(cli, ["bank", "stats", "--db", str(bank), "--json"])
    assert result.exit_code == 0 and json.loads(result.output) == stats(bank)
    table = CliRunner().invoke(cli, ["bank", "stats", "--db", str(bank)])
    assert "7x7" in table.output and "easy" in table.output and str(SMALL_COUNT) in table.output
    with closing(open_bank(bank)) as conn:
        stored = list(stored_puzzles(conn))
    lines = {}
    for fmt in ("tatham", "puzzlink", "json"):
        out = CliRunner().invoke(cli, ["bank", "export", "--db", str(bank), "--format", fmt]).output
        lines[fmt] = out.splitlines()
    assert lines["tatham"] == [p.tatham_id for p in stored]
    from hashi_print.puzzle.formats import parse_puzzlink, puzzle_from_json

    assert [parse_puzzlink(u) for u in lines["puzzlink"]] == [p.puzzle for p in stored]
    for line, p in zip(lines["json"], stored, strict=True):
        puzzle, solution, extra = puzzle_from_json(json.loads(line))
        assert (puzzle, solution) == (p.puzzle, p.solution)
        assert (extra["difficulty"], extra["index"]) == (p.grade, p.index)
        assert extra["techniques"] == list(p.techniques)
