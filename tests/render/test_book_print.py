"""Publisher rules of books, measured from the PDF: text sizes, safe areas, scales, pages, front matter."""

from __future__ import annotations

import io
import json
from collections import Counter, defaultdict
from datetime import UTC, datetime

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from hashi_print.checks import check_isbn
from hashi_print.cli import cli
from hashi_print.errors import OptionError
from hashi_print.puzzle import book as puzzle_book
from hashi_print.puzzle.book import book_plan_requests, generate_puzzles
from hashi_print.render.book import BookOptions, render_book
from tests.pdfink import edge_gaps, page_ink, page_size_mm

INCH = 25.4


@pytest.fixture(scope="module")
def mixed_puzzles():
    """Fourteen generated puzzles: 7x7 and 10x10, all four grades."""
    return list(generate_puzzles(book_plan_requests(14, [(7, 7), (10, 10)], "mixed"), seed=5))


def _pages(book):
    """The PDF reader of a book."""
    return PdfReader(io.BytesIO(book.pdf))


def _kdp_insets(page_no: int, pages: int) -> tuple[float, float, float, float]:
    """KDP's top, right, bottom, left minimum distances (the gutter at the spine; odd pages right-hand)."""
    gutter = (0.375 if pages <= 150 else 0.5) * INCH
    edge = 0.25 * INCH
    return (edge, edge, edge, gutter) if page_no % 2 == 1 else (edge, gutter, edge, edge)


@pytest.mark.parametrize("trim", ["6x9", "8.5x11"])
def test_a_kdp_book_sets_no_text_under_7_pt_and_keeps_all_ink_inside_kdp_margins(mixed_puzzles, trim):
    options = BookOptions(title="Bridges", trim=trim, profile="kdp", author="A. Author", year=2026,
                          isbn="978-3-16-148410-0")
    book = render_book(mixed_puzzles, options)
    reader = _pages(book)
    sizes = Counter()
    for index in range(len(reader.pages)):
        w, h = page_size_mm(reader, index)
        need = _kdp_insets(index + 1, len(reader.pages))
        glyphs, inks = page_ink(reader, index)
        for g in glyphs:
            sizes[round(g.size, 2)] += 1
            assert g.size >= 7.0 - 1e-6, (index + 1, g.text, g.size)
            gaps = edge_gaps(g.box, w, h)
            assert all(gap >= n - 1e-3 for gap, n in zip(gaps, need, strict=True)), (index + 1, g.text, gaps)
        for ink in inks:
            gaps = edge_gaps(ink.box, w, h)
            assert all(gap >= n - 1e-3 for gap, n in zip(gaps, need, strict=True)), (index + 1, ink.box)
    assert sizes[7.0] >= len(mixed_puzzles)  # the IDs, at KDP's minimum and not below


def test_a_print_and_play_book_keeps_6_pt_and_5_mm_and_its_crop_marks_on_the_paper(mixed_puzzles):
    book = render_book(mixed_puzzles, BookOptions(trim="6x9", crop_marks=True))
    reader = _pages(book)
    for index in range(len(reader.pages)):
        w, h = page_size_mm(reader, index)
        assert w <= 215.9 and h <= 279.4
        glyphs, inks = page_ink(reader, index)
        assert all(g.size >= 6.0 - 1e-6 for g in glyphs)
        assert all(min(edge_gaps(i.box, w, h)) >= 5.0 - 1e-3 for i in inks)
        assert all(min(edge_gaps(g.box, w, h)) >= 5.0 - 1e-3 for g in glyphs)


def test_crop_marks_are_refused_with_the_reason_where_the_sheet_would_not_fit_the_paper(tmp_path):
    out = tmp_path / "b.pdf"
    result = CliRunner().invoke(cli, ["book", "--count", "2", "--size", "7x7", "--trim", "letter",
                                      "--crop-marks", "--out", str(out)])
    assert result.exit_code == 2
    assert "239.9 x 303.4 mm" in result.output and "--trim 6x9" in result.output
    assert not out.exists()


def test_every_page_prints_its_grids_at_one_scale(mixed_puzzles):
    book = render_book(mixed_puzzles, BookOptions(trim="6x9", profile="kdp"))
    reader = _pages(book)
    per_page = defaultdict(set)
    for entry in book.manifest["puzzles"]:
        per_page[entry["page"]].add(entry["island_mm"])
    assert all(len(v) == 1 for v in per_page.values()) and min(min(v) for v in per_page.values()) >= 5.0
    for page, (island,) in per_page.items():
        _, inks = page_ink(reader, page - 1)
        # Every island on the page is that size (its outline is drawn over the circle's edge).
        circles = [i.box[2] - i.box[0] - island for i in inks if i.filled and i.stroked]
        assert circles and min(circles) > 0 and max(circles) <= 0.5, page
        assert max(circles) - min(circles) < 0.01, page


def test_sections_follow_the_grades_and_only_a_sections_last_page_is_short():
    requests = book_plan_requests(30, [(7, 7)], "mixed")
    puzzles = list(generate_puzzles(requests, seed=2))
    book = render_book(puzzles, BookOptions(trim="6x9", profile="kdp", per_page=4))
    reader = _pages(book)
    by_page = defaultdict(list)
    for entry in book.manifest["puzzles"]:
        by_page[entry["page"]].append(entry)
    sections = defaultdict(list)
    for page in sorted(by_page):
        grades = {e["difficulty"] for e in by_page[page]}
        assert len(grades) == 1
        sections[grades.pop()].append(page)
    assert list(sections) == ["easy", "medium", "hard", "expert"]
    for pages in sections.values():
        for page in pages:
            # Count the puzzle numbers printed on the page, in the heading size (13 pt bold).
            glyphs, _ = page_ink(reader, page - 1)
            numbers = [g for g in glyphs if "Bold" in g.font and abs(g.size - 13) < 0.01]
            assert len(numbers) == len(by_page[page])
            assert len(numbers) == 4 or page == pages[-1]


def test_per_page_that_cannot_fit_is_refused_before_any_puzzle_is_made(monkeypatch, tmp_path):
    monkeypatch.setattr(puzzle_book, "generate_puzzles", lambda *a, **k: pytest.fail("generated"))
    result = CliRunner().invoke(cli, ["book", "--count", "4", "--size", "15x15", "--trim", "6x9",
                                      "--per-page", "6", "--out", str(tmp_path / "x.pdf")])
    assert result.exit_code == 2 and "--per-page 6: at most 1 15x15" in result.output


def test_a_large_kdp_book_that_cannot_fit_is_refused_before_generating(monkeypatch, tmp_path):
    monkeypatch.setattr(puzzle_book, "generate_puzzles", lambda *a, **k: pytest.fail("generated"))
    result = CliRunner().invoke(cli, ["book", "--count", "200", "--size", "18x18", "--difficulty", "easy",
                                      "--trim", "6x9", "--profile", "kdp", "--out", str(tmp_path / "x.pdf")])
    assert result.exit_code == 2
    assert "18x18 grid does not fit" in result.output and "gutter of 0.625 in" in result.output
    assert not (tmp_path / "x.pdf").exists()


def test_front_matter_title_copyright_and_contents_read_back_from_the_pdf(tmp_path):
    out, manifest = tmp_path / "b.pdf", tmp_path / "b.json"
    args = ["book", "--count", "8", "--sizes", "7x7,10x10", "--seed", "4", "--title", "Island Hopping",
            "--author", "Ann Example", "--year", "2026", "--isbn", "978-3-16-148410-0", "--trim", "6x9",
            "--profile", "kdp", "--out", str(out), "--manifest", str(manifest)]
    assert CliRunner().invoke(cli, args).exit_code == 0
    reader = PdfReader(out)
    data = json.loads(manifest.read_text())
    title, rights, contents = (reader.pages[i].extract_text() for i in range(3))
    assert "Island Hopping" in title and "Ann Example" in title
    assert "Copyright © 2026 Ann Example. All rights reserved." in rights
    assert "ISBN 978-3-16-148410-0" in rights and "seed 4" in rights
    first = {}
    for entry in data["puzzles"]:
        first.setdefault(entry["difficulty"], entry["page"])
    solutions = min(e["solution_page"] for e in data["puzzles"])
    assert f"solutions start on page {solutions}" in rights
    # Each entry is its name, then its page number on the same baseline, measured from the page.
    glyphs, _ = page_ink(reader, 2)
    bold = {round(g.box[3], 1): g.text for g in glyphs if "Bold" in g.font and abs(g.size - 12) < 0.01}
    numbers = {round(g.box[3], 1): int(g.text) for g in glyphs
               if g.text.isdigit() and abs(g.size - 12) < 0.01}
    listed = {name: numbers[y] for y, name in bold.items()}
    for grade, page in first.items():
        assert listed[f"{grade.capitalize()} puzzles"] == page
    assert listed["Solutions"] == solutions and listed["How to play"] == 4
    again = CliRunner().invoke(cli, [*args[:-4], "--no-credit", "--out", str(tmp_path / "c.pdf")])
    assert again.exit_code == 0
    assert "hashi-print" not in PdfReader(tmp_path / "c.pdf").pages[1].extract_text()


def test_isbns_are_checked_by_their_check_digit(tmp_path):
    assert check_isbn("978-3-16-148410-0") == "978-3-16-148410-0" and check_isbn("0-306-40615-2")
    assert check_isbn("isbn 978 3 16 148410 0") == "978 3 16 148410 0"
    for bad in ("978-3-16-148410-1", "12345", "0-306-40615-3"):
        with pytest.raises(OptionError, match="not a valid ISBN"):
            check_isbn(bad)
    args = ["book", "--count", "1", "--isbn", "978-0", "--out", str(tmp_path / "x.pdf")]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and "ISBN" in result.output


def test_cmyk_books_print_text_and_lines_on_the_black_plate_only(mixed_puzzles):
    options = BookOptions(trim="6x9", profile="kdp", color="cmyk")
    book = render_book(mixed_puzzles[:4], options)
    assert render_book(mixed_puzzles[:4], options).pdf == book.pdf
    reader = _pages(book)
    for index in range(len(reader.pages)):
        glyphs, inks = page_ink(reader, index)
        for g in glyphs:
            assert g.fill[0] == "k" and g.fill[1:4] == (0, 0, 0), (index, g.text, g.fill)
        for ink in inks:
            if ink.stroked:
                assert ink.stroke[0] == "K" and ink.stroke[1:4] == (0, 0, 0)
        ink_text = [g for g in glyphs if g.fill == ("k", 0, 0, 0, 1)]
        assert ink_text or index in (book.pages - 1,) or not glyphs
    assert b" rg" not in b"".join(p.get_contents().get_data() for p in reader.pages)


def _copyright_page(tmp_path, monkeypatch, epoch: str | None, *extra: str) -> list[str]:
    """Make a small kdp book with these options and return the copyright page's lines of text."""
    if epoch is None:
        monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    else:
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    out = tmp_path / "c.pdf"
    result = CliRunner().invoke(cli, ["book", "--count", "3", "--size", "7x7", "--seed", "2", "--trim", "6x9",
                                      "--profile", "kdp", "--title", "Bridges", "--out", str(out), *extra])
    assert result.exit_code == 0, result.output
    return [line.strip() for line in PdfReader(out).pages[1].extract_text().splitlines() if line.strip()]


@pytest.mark.parametrize(("epoch", "extra", "notice"), [
    ("1767225600", ["--author", "Ann Example", "--year", "2024"], "Copyright © 2024 Ann Example."),
    ("1767225600", ["--author", "Ann Example"], "Copyright © 2026 Ann Example."),  # 2026-01-01 00:00 UTC
    ("1767225599", ["--author", "Ann Example"], "Copyright © 2025 Ann Example."),  # one second before
    (None, ["--author", "Ann Example"], f"Copyright © {datetime.now(UTC).year} Ann Example."),
    ("1767225600", ["--year", "2025"], "Copyright © 2025."),
    ("1767225600", [], None),
])
def test_the_copyright_notice_takes_the_year_given_or_source_date_epoch_or_now(tmp_path, monkeypatch, epoch,
                                                                                extra, notice):
    lines = _copyright_page(tmp_path, monkeypatch, epoch, *extra)
    assert lines[0] == "Bridges"
    rights = [line for line in lines if "©" in line or "Copyright" in line]
    assert rights == ([f"{notice} All rights reserved."] if notice else [])
    assert not any(line.startswith("ISBN") for line in lines)
    assert any("solutions start on page" in line for line in lines)
    assert lines[-1] == "Puzzles generated, proven unique and graded with hashi-print (seed 2)."


def test_the_copyright_page_with_an_isbn_and_without_credit(tmp_path, monkeypatch):
    # An "ISBN" written before the number is not printed twice.
    lines = _copyright_page(tmp_path, monkeypatch, "1767225600", "--author", "Ann", "--isbn",
                            "ISBN-10: 0-306-40615-2", "--no-credit")
    assert lines[:3] == ["Bridges", "Copyright © 2026 Ann. All rights reserved.", "ISBN 0-306-40615-2"]
    assert len(lines) == 4 and "hashi-print" not in " ".join(lines)


def test_a_book_with_the_default_year_is_byte_identical_under_source_date_epoch(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    runs = []
    for name in ("a.pdf", "b.pdf"):
        args = ["book", "--count", "2", "--size", "7x7", "--author", "Ann", "--out", str(tmp_path / name)]
        assert CliRunner().invoke(cli, args).exit_code == 0
        runs.append((tmp_path / name).read_bytes())
    assert runs[0] == runs[1]


@pytest.mark.parametrize(("env", "args", "words"), [
    ({}, ["--isbn", "978-3-16-148410-1"], "--isbn '978-3-16-148410-1' is not a valid ISBN"),
    ({}, ["--isbn", "ISBN 12"], "is not a valid ISBN-13 or ISBN-10"),
    ({"SOURCE_DATE_EPOCH": "next week"}, ["--author", "Ann"], "SOURCE_DATE_EPOCH='next week' is not a whole"),
])
def test_a_bad_isbn_or_epoch_is_one_line_exit_2_before_any_puzzle_is_made(monkeypatch, tmp_path, env, args,
                                                                          words):
    monkeypatch.setattr(puzzle_book, "generate_puzzles", lambda *a, **k: pytest.fail("generated"))
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    out = tmp_path / "x.pdf"
    result = CliRunner().invoke(cli, ["book", "--count", "4", "--out", str(out), *args])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1 and words in result.output
    assert not out.exists()
