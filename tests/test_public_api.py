"""The curated public API (hashi_print/__init__.py): every name imports and does its job, the version is
the package's, and importing the package loads none of the heavy libraries until a name is used."""

from __future__ import annotations

import importlib.metadata
import random
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

import hashi_print
from tests.independent import is_valid_solution

FIX = Path(__file__).resolve().parent / "fixtures"
PUZZLE = "10x10m2:1b1c5a3j3f5a3j4c4b4m3a2a1a2l2b1g4b3b1a2"


def test_all_lists_exactly_the_entry_points_and_the_version():
    assert set(hashi_print.__all__) == {"__version__", *hashi_print._EXPORTS}
    assert hashi_print.__version__ == importlib.metadata.version("hashi-print")
    with pytest.raises(AttributeError, match="no attribute 'make_everything'"):
        getattr(hashi_print, "make_everything")  # noqa: B009 - a name that is not an entry point


def test_importing_the_package_loads_no_heavy_library():
    heavy = "('reportlab', 'cv2', 'pysat', 'click')"
    code = f"import hashi_print, sys; print(sorted(m for m in {heavy} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_read_solve_and_grade_a_puzzle():
    puzzle = hashi_print.read_puzzle(PUZZLE)
    result = hashi_print.solve(puzzle)
    assert result.status == "unique" and is_valid_solution(puzzle, result.solution)
    assert hashi_print.grade(puzzle).grade in ("easy", "medium", "hard", "expert", "beyond")


def test_generate_makes_a_unique_puzzle_of_the_grade():
    made = hashi_print.generate(7, 7, "easy", random.Random(3))
    assert made.grade == "easy"
    assert hashi_print.solve(made.puzzle).status == "unique"
    assert is_valid_solution(made.puzzle, made.solution)


def test_validate_and_score_typed_sheets():
    fixture = dict(layout=str(FIX / "fixture-side.json"), deck=str(FIX / "fixture-deck.json"),
                   scoring=str(FIX / "fixture-scoring.json"))
    from hashi_print.jobs.score import SheetFiles

    report = hashi_print.validate(hashi_print.ValidateRequest(str(FIX / "fixture-sheet-ann.txt"),
                                                              SheetFiles(**fixture)))
    assert report.ok
    game = hashi_print.score(hashi_print.ScoreRequest((str(FIX / "wheel-sheet-ann.txt"),
                                                       str(FIX / "wheel-sheet-bob.txt"))))
    assert {p.player for p in game.players} == {"Ann", "Bob"}


def test_scan_says_what_it_cannot_read(tmp_path):
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"\x89PNG not really")
    import hashi_print.scan.read  # noqa: F401 - the photo reader's package, loaded as any program may

    result = hashi_print.scan_sheets(hashi_print.ScanRequest((str(junk),)))
    assert result.verdict == "unreadable" and result.scans[0].error


def test_make_kit_and_make_book(tmp_path):
    kit = hashi_print.make_kit(hashi_print.KitRequest(tmp_path / "kit", paper="letter"))
    assert (tmp_path / "kit" / "sheet-A-letter.pdf") in {w.path for w in kit.files}
    book = hashi_print.make_book(hashi_print.BookRequest(count=2, sizes="7x7", out=str(tmp_path / "b.pdf")))
    assert len(PdfReader(book.path).pages) == book.pages
    with pytest.raises(hashi_print.HashiError):
        hashi_print.make_book(hashi_print.BookRequest(count=2, trim="a5", out=str(tmp_path / "c.pdf")))
