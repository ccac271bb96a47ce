"""The KDP paperback cover, measured from its PDF: size from page count and paper, spine text, safe areas."""

from __future__ import annotations

import io
import re
import shutil
import subprocess

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from hashi_print.cli import cli
from hashi_print.i18n import language, ngettext, translations
from hashi_print.puzzle.book import book_plan_requests, generate_puzzles
from hashi_print.render.book import BookOptions
from hashi_print.render.cover import back_text, render_cover
from tests.pdfink import page_ink, page_size_mm

INCH = 25.4
# KDP's published paper thickness per page, in inches.
THICKNESS = {"white": 0.002252, "cream": 0.0025}


@pytest.fixture(scope="module")
def puzzles():
    """Four small generated puzzles (the cover only counts and describes them)."""
    return list(generate_puzzles(book_plan_requests(4, [(7, 7)], "mixed"), seed=9))


def _cover(puzzles, pages: int, paper: str = "white", **kw):
    """Render a 6x9 cover for a book of `pages` pages and read it back."""
    options = BookOptions(title="Island Hopping", trim="6x9", profile="kdp", author="Ann Example", **kw)
    data, what = render_cover(puzzles, options, pages, paper)
    return PdfReader(io.BytesIO(data)), what


@pytest.mark.parametrize("pages,paper", [(24, "white"), (120, "white"), (120, "cream"), (300, "cream")])
def test_the_cover_is_back_spine_and_front_with_bleed_sized_from_pages_and_paper(puzzles, pages, paper):
    reader, _ = _cover(puzzles, pages, paper)
    w, h = page_size_mm(reader)
    spine = pages * THICKNESS[paper] * INCH
    assert w == pytest.approx((0.125 + 6 + 6 + 0.125) * INCH + spine, abs=0.01)
    assert h == pytest.approx((0.125 + 9 + 0.125) * INCH, abs=0.01)
    page = reader.pages[0]
    assert float(page.trimbox.width) * 25.4 / 72 == pytest.approx(12 * INCH + spine, abs=0.01)
    assert float(page.bleedbox.width) == pytest.approx(float(page.mediabox.width), abs=0.01)


def _spine_glyphs(reader, pages, paper):
    """The glyphs whose boxes touch the spine, and the spine's left and right folds in mm."""
    left = (0.125 + 6) * INCH
    right = left + pages * THICKNESS[paper] * INCH
    glyphs, _ = page_ink(reader, 0)
    return [g for g in glyphs if g.box[0] < right and g.box[2] > left], left, right


def test_no_spine_text_below_79_pages_nor_where_7_pt_would_not_fit(puzzles):
    reader, what = _cover(puzzles, 78, "cream")
    touching, _, _ = _spine_glyphs(reader, 78, "cream")
    assert touching == [] and "from 79 pages" in what
    # 80 pages of white paper make a 4.6 mm spine: 1.4 mm between the margins, too little for 7 pt.
    reader, what = _cover(puzzles, 80, "white")
    touching, _, _ = _spine_glyphs(reader, 80, "white")
    assert touching == [] and "too narrow" in what


@pytest.mark.parametrize("pages", [120, 200])
def test_spine_text_from_79_pages_keeps_a_sixteenth_inch_from_each_fold(puzzles, pages):
    reader, what = _cover(puzzles, pages, "white")
    touching, left, right = _spine_glyphs(reader, pages, "white")
    assert touching and "with spine text" in what
    for g in touching:
        assert g.box[0] >= left + 0.0625 * INCH - 1e-3 and g.box[2] <= right - 0.0625 * INCH + 1e-3
        # It runs down the spine: taller than wide.
        assert g.box[3] - g.box[1] > 5 * (g.box[2] - g.box[0])
        assert g.size >= 7.0


def test_cover_text_is_7_pt_or_more_inside_the_trim_and_clear_of_the_barcode_area(puzzles):
    reader, _ = _cover(puzzles, 200, "white", isbn="978-3-16-148410-0")
    w, h = page_size_mm(reader)
    glyphs, inks = page_ink(reader, 0)
    safe = (0.125 + 0.125) * INCH
    back_right, bottom = (0.125 + 6) * INCH, h - 0.125 * INCH
    barcode = (back_right - 0.25 * INCH - 2 * INCH, bottom - 0.25 * INCH - 1.2 * INCH,
               back_right - 0.25 * INCH, bottom - 0.25 * INCH)
    assert any("ISBN 978-3-16-148410-0" in g.text for g in glyphs)
    for g in glyphs:
        left, top, right, low = g.box
        assert g.size >= 7.0
        assert min(left, top, w - right, h - low) >= safe - 1e-3
        assert right <= barcode[0] or left >= barcode[2] or low <= barcode[1] or top >= barcode[3], g.text
    for ink in inks:
        if ink.stroked:
            left, top, right, low = ink.box
            assert right <= barcode[0] or left >= barcode[2] or low <= barcode[1] or top >= barcode[3]


def test_book_cover_command_matches_the_interior_page_count(tmp_path):
    book, cover = tmp_path / "b.pdf", tmp_path / "c.pdf"
    args = ["book", "--count", "3", "--size", "7x7", "--trim", "6x9", "--profile", "kdp", "--out", str(book),
            "--cover", str(cover), "--paper-type", "cream"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    pages = len(PdfReader(book).pages)
    w, _ = page_size_mm(PdfReader(cover))
    assert w == pytest.approx(12.25 * INCH + pages * 0.0025 * INCH, abs=0.01)
    first = cover.read_bytes()
    assert CliRunner().invoke(cli, args).exit_code == 0 and cover.read_bytes() == first
    refused = CliRunner().invoke(cli, ["book", "--count", "1", "--cover", str(tmp_path / "x.pdf"),
                                       "--out", str(tmp_path / "y.pdf")])
    assert refused.exit_code == 2 and "--profile kdp" in refused.output
    assert not (tmp_path / "x.pdf").exists() and not (tmp_path / "y.pdf").exists()


def _pdf_text(data: bytes, tmp_path) -> str:
    """The text of a PDF as poppler's pdftotext reads it, without any white space."""
    path = tmp_path / "cover.pdf"
    path.write_bytes(data)
    out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return "".join(out.split())


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
@pytest.mark.parametrize("lang", ["de", "fr", "it", "ko", "ja"])
def test_the_cover_speaks_the_language_of_the_book(puzzles, lang, tmp_path):
    options = BookOptions(title="Hashi", trim="6x9", profile="kdp", author="Ann Example", lang=lang)
    data, _ = render_cover(puzzles, options, 120, "white")
    text = _pdf_text(data, tmp_path)
    english = "".join(back_text(BookOptions(), puzzles)[2].split())
    assert english not in text and "bridge-buildinglogic" not in text and "Everypuzzle" not in text
    with language(lang):
        paragraphs = back_text(options, puzzles)
        tagline = ngettext("{count} bridge-building logic puzzle", "{count} bridge-building logic puzzles",
                           len(puzzles)).format(count=len(puzzles))
    title = translations(lang).gettext("{title} (cover)").format(title="Hashi")
    for para in [*paragraphs, tagline]:
        assert "".join(para.split()) in text, para
    assert PdfReader(io.BytesIO(data)).metadata.title == title != "Hashi (cover)"
    fonts = subprocess.run(["pdffonts", str(tmp_path / "cover.pdf")], capture_output=True, text=True,
                           check=True).stdout
    rows = fonts.splitlines()[2:]
    assert rows and all(row.split()[-5] == "yes" for row in rows), fonts


def _rgb(hex_colour: str) -> tuple:
    """The stroke operator a hex colour is written with in an RGB PDF."""
    return ("RG", *(round(int(hex_colour[i:i + 2], 16) / 255, 4) for i in (1, 3, 5)))


@pytest.fixture(scope="module")
def mixed():
    """Six generated puzzles of two sizes and three grades (the cover shows the largest solved)."""
    return list(generate_puzzles(book_plan_requests(6, [(7, 7), (10, 10)], "mixed"), seed=38))


STYLE_COLOURS = {"classic": ("#1b3d8f", "#f2a007"), "night": ("#14213d", "#f2a007"),
                 "paper": ("#f6f1e4", "#c8431a")}


@pytest.mark.parametrize("style", list(STYLE_COLOURS))
def test_the_front_shows_the_books_largest_puzzle_solved_with_bridges_in_a_second_colour(mixed, style):
    options = BookOptions(title="Island Hopping", trim="6x9", profile="kdp", author="Ann Example",
                          cover_style=style)
    data, _ = render_cover(mixed, options, 40, "white")
    assert render_cover(mixed, options, 40, "white")[0] == data
    reader = PdfReader(io.BytesIO(data))
    w, _h = page_size_mm(reader)
    glyphs, inks = page_ink(reader, 0)
    background, bridge = STYLE_COLOURS[style]
    assert any(i.filled and i.fill == ("rg", *_rgb(background)[1:]) and i.box[2] - i.box[0] > w - 1
               for i in inks)
    front = w / 2
    # The largest grid of the book, the one with the most islands among those (found here by hand).
    art = max(mixed, key=lambda bp: (bp.puzzle.cols * bp.puzzle.rows, len(bp.puzzle.islands)))
    lines = [i for i in inks if i.stroked and i.stroke == _rgb(bridge) and i.box[0] > front]
    # Every bridge of its solution (a double bridge is two lines), and the short rule under the title.
    assert len(lines) == sum(b.count for b in art.solution.bridges) + 1
    circles = [i for i in inks
               if i.filled and i.stroked and i.fill == ("rg", 1.0, 1.0, 1.0) and i.box[0] > front]
    assert len(circles) == len(art.puzzle.islands)
    # Title, then what is inside, then the author: the title is by far the largest text on the front.
    sizes = {g.text: g.size for g in glyphs if g.box[0] > front}
    assert sizes["Island Hopping"] >= 2 * max(v for k, v in sizes.items() if k != "Island Hopping")
    assert sizes["Ann Example"] >= 14


def test_the_back_counts_the_grades_the_book_really_has_and_keeps_each_count_with_its_grade(mixed):
    hard_only = [bp for bp in mixed if bp.grade == "hard"]
    for puzzles in (mixed, hard_only):
        counts = {g: sum(bp.grade == g for bp in puzzles) for g in ("easy", "medium", "hard", "expert")}
        text = " ".join(back_text(BookOptions(), puzzles))
        for grade, n in counts.items():
            assert (f"{n}\u00a0{grade}" in text) == (n > 0), (grade, n)
        assert "from easy to hard" not in text
    reader, _ = _cover(mixed, 40)
    glyphs, _ = page_ink(reader, 0)
    back = [g.text for g in glyphs if g.box[2] < 6.125 * INCH and len(g.text) > 3]  # not the sample's clues
    # No line of the back ends with a bare count or starts with the separator.
    assert not [t for t in back if re.search(r"\b\d+$", t) or t.startswith("·")], back
