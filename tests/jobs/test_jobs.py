"""The use-case layer: each job takes a typed request, returns a typed result and reports progress; the
files it writes are opened and checked (pypdf, PNG decode, the puzzles re-checked independently)."""

from __future__ import annotations

import dataclasses
import json
import random
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np
import pytest
from pypdf import PdfReader

from hashi_print.errors import HashiError, OptionError
from hashi_print.game.board import builtin_side
from hashi_print.game.deck import load_deck
from hashi_print.game.rules import apply, move_violations, new_game
from hashi_print.game.scoring import load_scoring
from hashi_print.jobs.bank import FillRequest, fill_bank
from hashi_print.jobs.book import BookRequest, copyright_year, make_book
from hashi_print.jobs.design import seed_list
from hashi_print.jobs.kit import KitRequest, Written, make_kit
from hashi_print.jobs.leaflet import leaflet_examples
from hashi_print.jobs.scan import ScanRequest, scan_sheets
from hashi_print.jobs.score import ScoreRequest, SheetFiles, ValidateRequest, score_game, validate_sheet
from hashi_print.jobs.sheet import SheetRequest, make_sheet
from hashi_print.options import Format, PenKind
from hashi_print.puzzle.formats import parse_puzzle
from hashi_print.puzzle.model import Solution
from tests.independent import is_valid_solution
from tests.photos import Camera, filled_sheet, photograph, simulated_record

FIX = Path(__file__).resolve().parents[1] / "fixtures"


def test_kit_job_returns_every_file_it_wrote_and_reports_each_language(tmp_path):
    calls = []
    result = make_kit(KitRequest(tmp_path / "kit", paper="a4", lang="de"), lambda d, t: calls.append((d, t)))
    assert calls == [(1, 1)]
    assert all(isinstance(w, Written) and w.path.is_file() for w in result.files)
    names = sorted(w.path.relative_to(tmp_path / "kit").as_posix() for w in result.files)
    assert names == sorted(p.relative_to(tmp_path / "kit").as_posix()
                           for p in (tmp_path / "kit").rglob("*") if p.is_file())
    assert len(PdfReader(tmp_path / "kit" / "rules-a4.pdf").pages) == 2
    index = (tmp_path / "kit" / "index.md").read_text()
    assert "`rules-a4.pdf`" in index and "Spielblatt" in index   # German, as asked


def test_kit_job_checks_the_bleed_before_writing_anything(tmp_path):
    with pytest.raises(OptionError, match="--bleed 20"):
        make_kit(KitRequest(tmp_path / "kit", paper="a4", bleed=20))
    assert not (tmp_path / "kit").exists()


def test_leaflet_examples_are_legal_and_refused_moves_of_the_rules_engine():
    side, deck = builtin_side("A"), load_deck()
    legal, crossing, circle = leaflet_examples(side, deck)
    assert (legal.kind, crossing.kind, circle.kind) == ("legal", "crossing", "circle")
    # Replayed by the rules engine: the legal turn leads to the state shown; the refused one breaks
    # exactly the crossing rule; the circling turn circles a new island.
    assert apply(new_game(side, setup=next((i, n) for i, n in enumerate(legal.before.numerals)
                                           if n is not None)), legal.card, legal.move) == legal.state
    refused = move_violations(crossing.state, crossing.card, crossing.move)
    assert [v.rule for v in refused] == ["bridge-crossing"]
    assert circle.state.circled - circle.before.circled


def test_book_job_reports_each_puzzle_and_writes_a_book_of_unique_puzzles(tmp_path):
    calls = []
    request = BookRequest(count=3, sizes="7x7", difficulty="easy", seed=4, out=str(tmp_path / "b.pdf"),
                          manifest=str(tmp_path / "m.json"))
    result = make_book(request, lambda d, t: calls.append((d, t)))
    assert calls == [(1, 3), (2, 3), (3, 3)]
    assert (result.puzzles, result.trim, result.profile, result.cover) == (3, "a4", "pnp", None)
    assert len(PdfReader(result.path).pages) == result.pages
    manifest = json.loads((tmp_path / "m.json").read_text())
    for entry in manifest["puzzles"]:
        puzzle = parse_puzzle(entry["id"], "manifest")
        solution = Solution.from_lists(entry["solution"])
        assert is_valid_solution(puzzle, solution)


def test_book_job_refuses_bad_options_before_generating(tmp_path):
    calls = []
    with pytest.raises(OptionError, match="--isbn"):
        make_book(BookRequest(isbn="978-3-16-148410-1", out=str(tmp_path / "b.pdf")),
                  lambda *a: calls.append(a))
    with pytest.raises(OptionError, match="--cover"):
        make_book(BookRequest(cover=str(tmp_path / "c.pdf"), out=str(tmp_path / "b.pdf")))
    assert calls == [] and not (tmp_path / "b.pdf").exists()


def test_copyright_year_comes_from_source_date_epoch_or_now():
    now = datetime(2031, 5, 1, tzinfo=UTC)
    assert copyright_year({}, now) == 2031
    assert copyright_year({"SOURCE_DATE_EPOCH": "946684800"}, now) == 2000
    with pytest.raises(OptionError, match="SOURCE_DATE_EPOCH"):
        copyright_year({"SOURCE_DATE_EPOCH": "yesterday"}, now)


def test_bank_fill_job_reports_batches_and_a_book_job_draws_from_the_bank(tmp_path):
    db = str(tmp_path / "bank.sqlite")
    seen = []
    result = fill_bank(FillRequest(db, 3, size="7x7", difficulty="easy", workers=1),
                       lambda state, added: seen.append(state.stored))
    assert (result.report.state.stored, result.cols, result.rows) == (3, 7, 7)
    assert seen and seen[-1] == 3
    book = make_book(BookRequest(count=2, bank=db, mark_used="first", out=str(tmp_path / "b.pdf")))
    assert (book.puzzles, book.bank, book.used_by) == (2, db, "first")
    assert len(PdfReader(book.path).pages) == book.pages
    with pytest.raises(HashiError, match="first"):
        make_book(BookRequest(count=1, bank=db, mark_used="first", out=str(tmp_path / "c.pdf")))


def test_sheet_job_draws_a_filled_sheet_in_each_format(tmp_path):
    sheet = str(FIX / "fixture-sheet-ann.txt")
    layout = str(FIX / "fixture-side.json")
    for fmt in Format:
        result = make_sheet(SheetRequest(layout=layout, fill=sheet, fmt=fmt, out=str(tmp_path / f"s.{fmt}")))
        assert result.filled and result.path.is_file()
    png = cv2.imdecode(np.frombuffer((tmp_path / "s.png").read_bytes(), np.uint8), cv2.IMREAD_COLOR)
    assert png.shape[0] > png.shape[1] > 1000   # portrait A4 at 8 pixels per mm
    assert len(PdfReader(tmp_path / "s.pdf").pages) == 1
    with pytest.raises(HashiError, match="png needs --fill"):
        make_sheet(SheetRequest(side="A", fmt=Format.PNG, out=str(tmp_path / "x.png")))


def test_validate_and_score_jobs_give_the_reports(tmp_path):
    files = SheetFiles(layout=str(FIX / "fixture-side.json"), deck=str(FIX / "fixture-deck.json"),
                       scoring=str(FIX / "fixture-scoring.json"))
    assert validate_sheet(ValidateRequest(str(FIX / "fixture-sheet-ann.txt"), files)).ok
    assert not validate_sheet(ValidateRequest(str(FIX / "fixture-sheet-broken.txt"), files)).ok
    with pytest.raises(OptionError, match="--solo"):
        validate_sheet(ValidateRequest(str(FIX / "fixture-sheet-ann.txt"), files, level="easy"))
    game = score_game(ScoreRequest((str(FIX / "wheel-sheet-ann.txt"), str(FIX / "wheel-sheet-bob.txt"))))
    assert [p.player for p in game.players] == ["Ann", "Bob"] and game.winners


def test_scan_job_reads_a_photo_and_writes_the_typed_sheet(tmp_path):
    deck, scoring = load_deck(), load_scoring()
    side = builtin_side("A")
    record = simulated_record(side, deck, scoring, 5)
    from hashi_print.sheets.marks import marks_of

    truth = marks_of(record, deck)
    rng = random.Random(5)
    photo = photograph(filled_sheet(truth, deck, scoring, "a4", rng, "blue"), Camera(megapixels=2.0), rng)
    image = tmp_path / "game.jpg"
    image.write_bytes(photo)
    junk = tmp_path / "junk.jpg"
    junk.write_text("not a picture")
    calls = []
    request = ScanRequest((str(image), str(junk)), write_dir=str(tmp_path / "out"))
    result = scan_sheets(request, lambda d, t: calls.append((d, t)))
    assert calls == [(1, 2), (2, 2)]
    read, junk_read = result.scans
    assert read.marks is not None and read.marks.bridges == truth.bridges
    assert junk_read.status == "unreadable" and result.verdict == "unreadable"
    typed = (tmp_path / "out" / "game.jpg.sheet.txt").read_text().splitlines()
    assert typed[:2] == ["hashi-sheet 1", "side A"]
    assert dataclasses.replace(result, scans=(read,)).verdict in ("ok", "review")


def test_design_seed_list_is_checked():
    assert seed_list("2, 3,4") == (2, 3, 4)
    with pytest.raises(OptionError, match="'x'"):
        seed_list("2,x")
    with pytest.raises(OptionError, match="at most 10"):
        seed_list(",".join(map(str, range(11))))


def test_pen_kinds_are_the_pens_the_hand_holds():
    from hashi_print.render.fill import PENS, hand_pen

    assert set(PENS) == set(PenKind)
    assert hand_pen(random.Random(1), PenKind.PENCIL).color == PENS["pencil"][0]
