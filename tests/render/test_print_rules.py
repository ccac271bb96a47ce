"""Print rules of the kit, measured from the files: text sizes, the safe area, fonts, crop marks, SVG."""

from __future__ import annotations

import dataclasses
import io
import re
import xml.etree.ElementTree as ET

import pytest
from pypdf import PdfReader

from hashi_print.errors import LayoutError
from hashi_print.jobs.kit import build_kit
from hashi_print.puzzle.book import generate_puzzles
from hashi_print.puzzle.model import GRADES
from hashi_print.render.book import BookOptions, render_book
from hashi_print.render.canvas import PdfCanvas, SvgCanvas, _retag_subsets
from hashi_print.render.preflight import PrintError, home_sheet
from tests.pdfink import edge_gaps, page_ink, page_size_mm

HOME_PRODUCTS = ("sheet-A", "sheet-B", "cards", "solo", "rules")
SVG = "{http://www.w3.org/2000/svg}"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    """The shipped kit for both papers, built once."""
    out = tmp_path_factory.mktemp("kit")
    build_kit(out, "both")
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("stem", HOME_PRODUCTS)
def test_home_print_text_is_6_pt_or_more_and_all_ink_keeps_5_mm_from_the_edge(kit, paper, stem):
    reader = PdfReader(kit / f"{stem}-{paper}.pdf")
    for index in range(len(reader.pages)):
        w, h = page_size_mm(reader, index)
        glyphs, inks = page_ink(reader, index)
        assert glyphs and inks
        for g in glyphs:
            assert g.size >= 6.0 - 1e-6, (stem, index, g.text, g.size)
            assert min(edge_gaps(g.box, w, h)) >= 5.0 - 1e-3, (stem, index, g.text, g.box)
        for ink in inks:
            assert min(edge_gaps(ink.box, w, h)) >= 5.0 - 1e-3, (stem, index, ink.box)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_home_card_sheets_keep_crop_marks_on_the_printable_paper(kit, paper):
    reader = PdfReader(kit / f"cards-{paper}.pdf")
    w, h = page_size_mm(reader)
    _, inks = page_ink(reader, 0)
    # Crop marks are the short black strokes outside the grid of cards.
    marks = [i for i in inks if i.stroked and not i.filled and i.stroke == ("RG", 0, 0, 0)
             and max(i.box[2] - i.box[0], i.box[3] - i.box[1]) < 6]
    assert marks, "no crop marks found"
    nearest = min(min(edge_gaps(m.box, w, h)) for m in marks)
    assert nearest >= 5.0
    # On A4 there is room above the cards for the vertical marks; on Letter only at the sides.
    vertical = [m for m in marks if m.box[3] - m.box[1] > m.box[2] - m.box[0]]
    assert bool(vertical) == (paper == "a4")


def test_the_two_font_subsets_carry_different_tags(kit):
    reader = PdfReader(kit / "sheet-A-a4.pdf")
    names = {str(f.get_object()["/BaseFont"]) for f in reader.pages[0]["/Resources"]["/Font"].values()}
    tags = {n.split("+")[0] for n in names}
    assert len(names) == 2 and len(tags) == 2, names
    assert all(re.fullmatch(r"/[A-Z]{6}", t) for t in tags)


def test_retagging_subsets_leaves_page_content_alone():
    # A page stream (ASCII85, so printable) can hold "/KYAUGF+M" by chance: a book of 12x12 puzzles
    # once came out with such a page corrupted. Only the font dictionaries' names may change.
    stream = b"stream\nGapQh0E=F,/KYAUGF+M&/fK3~>\nendstream"
    pdf = (b"<< /BaseFont /AAAAAA+Vera-Bold >>\n<< /FontName /AAAAAA+Vera-Bold >>\n"
           b"<< /BaseFont /AAAAAA+Vera-Roman >>\n" + stream)
    out = _retag_subsets(pdf)
    assert len(out) == len(pdf) and out.endswith(stream)
    bold, bold_again, roman = re.findall(rb"/([A-Z]{6})\+Vera-(\w+)", out[:-len(stream)])
    assert bold == bold_again and bold[1] == b"Bold" and roman[1] == b"Roman" and bold[0] != roman[0]
    assert b"AAAAAA" not in out


def test_every_page_of_a_12x12_book_decodes(tmp_path):
    # The book whose page 6 was corrupted by retagging inside its content stream.
    sizes = [(5, 5), (7, 7), (8, 8), (10, 7), (10, 10), (12, 12), (15, 15)]
    made = list(generate_puzzles([(c, r, "easy") for c, r in sizes for _ in range(2)], seed=11))
    twelve = [p for p in made if p.puzzle.cols == 12]
    puzzles = [dataclasses.replace(twelve[i % 2], grade=GRADES[i % 4]) for i in range(13)]
    book = render_book(puzzles, BookOptions(trim="letter", per_page=2))
    reader = PdfReader(io.BytesIO(book.pdf), strict=True)
    for index, page in enumerate(reader.pages):
        data = page.get_contents().get_data()
        assert data.rstrip().endswith(b"Q") or data.rstrip().endswith(b"ET"), index
        glyphs, _ = page_ink(reader, index)
        assert glyphs


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_svgs_exist_for_both_papers_with_their_page_size_and_keep_spaces(kit, paper):
    expected = {"a4": "210mm", "letter": "215.9mm"}[paper]
    files = sorted((kit / "svg" / paper).glob("*.svg"))
    assert {f.stem for f in files} >= {"sheet-A", "sheet-B", "solo", "rules-1", "rules-2", "cards-back"}
    for f in files:
        root = ET.parse(f).getroot()
        assert root.get("width") == expected
        texts = list(root.iter(f"{SVG}text"))
        assert texts and all(t.get(XML_SPACE) == "preserve" for t in texts), f
    sheet = ET.parse(kit / "svg" / paper / "sheet-A.svg").getroot()
    assert any("  " in (t.text or "") for t in sheet.iter(f"{SVG}text"))


def test_a_file_that_breaks_a_rule_is_not_written_and_the_message_says_where(tmp_path):
    target = tmp_path / "small.pdf"
    cv = PdfCanvas(target, 100, 100, preflight=home_sheet(100, 100))
    cv.text(20, 20, "fine", size_pt=9)
    cv.new_page()
    cv.text(20, 50, "tiny", size_pt=5)
    message = r"small.pdf was not written: page 2: the text 'tiny' is set at 5 pt"
    with pytest.raises(PrintError, match=message):
        cv.save()
    assert not target.exists()
    edge = tmp_path / "edge.svg"
    svg = SvgCanvas(100, 100, preflight=home_sheet(100, 100))
    svg.line(1, 50, 40, 50, width=0.3)
    with pytest.raises(LayoutError, match=r"page 1: a line .* reaches 0.85 mm from the left edge"):
        svg.save(edge)
    assert not edge.exists()


def test_fonts_are_checked_in_the_written_bytes():
    from hashi_print.render.preflight import font_problems

    cv = PdfCanvas(None, 50, 50)
    cv.text(10, 10, "a")
    cv.text(10, 20, "b", bold=True)
    assert font_problems(cv.tobytes()) == []
    from reportlab.pdfgen.canvas import Canvas

    buf = io.BytesIO()
    plain = Canvas(buf)
    plain.setFont("Helvetica", 10)
    plain.drawString(10, 10, "x")
    plain.save()
    assert any("Helvetica is not embedded" in p for p in font_problems(buf.getvalue()))


@pytest.mark.parametrize("bleed,color", [(3.0, "rgb"), (3.175, "cmyk")])
def test_print_shop_cards_take_the_bleed_asked_for_and_keep_ink_3_mm_inside_the_trim(tmp_path, bleed, color):
    from hashi_print.game.deck import load_deck
    from hashi_print.render.cards import render_cards_printshop

    path = render_cards_printshop(load_deck(), tmp_path / "shop.pdf", bleed, color)
    reader = PdfReader(path)
    assert len(reader.pages) == 36
    for index in (0, 1, 35):
        page = reader.pages[index]
        w, h = page_size_mm(reader, index)
        assert w == pytest.approx(63.5 + 2 * bleed, abs=0.01)
        assert h == pytest.approx(88.9 + 2 * bleed, abs=0.01)
        assert float(page.trimbox.left) * 25.4 / 72 == pytest.approx(bleed, abs=0.01)
        glyphs, inks = page_ink(reader, index)
        for item in [*glyphs, *(i for i in inks if i.stroked)]:
            assert min(edge_gaps(item.box, w, h)) >= bleed + 3.0 - 1e-3
        backgrounds = [i for i in inks if i.filled and not i.stroked and i.box[2] - i.box[0] > w - 0.01]
        assert backgrounds, "the card colour runs to the edge of the bleed"
        if color == "cmyk":
            assert all(g.fill[0] == "k" for g in glyphs)
            assert all(i.stroke[0] == "K" for i in inks if i.stroked)
            assert b" rg" not in page.get_contents().get_data()
    # The file's title names the bleed it has.
    assert reader.metadata.title == f"Hashi cards, print-shop version with {bleed:g} mm bleed"


def test_the_kit_index_names_the_print_shop_cards_bleed_and_colour(tmp_path):
    from click.testing import CliRunner

    from hashi_print.cli import cli

    args = ["kit", "--paper", "a4", "--out", str(tmp_path / "k"), "--bleed", "3.175", "--color", "cmyk"]
    assert CliRunner().invoke(cli, args).exit_code == 0
    line = next(x for x in (tmp_path / "k" / "index.md").read_text().splitlines() if "cards-printshop" in x)
    assert "with 3.175 mm bleed" in line and "[CMYK]" in line and "3 mm" not in line


def test_a_bleed_outside_1_to_10_mm_is_refused(tmp_path):
    from click.testing import CliRunner

    from hashi_print.cli import cli

    result = CliRunner().invoke(cli, ["kit", "--out", str(tmp_path / "k"), "--bleed", "0.2"])
    assert result.exit_code == 2 and "--bleed 0.2" in result.output
    assert not (tmp_path / "k").exists()


def test_a_translated_card_text_takes_the_bleed_in_place_of_its_3_mm():
    from hashi_print.i18n import _, language
    from hashi_print.render.cards import with_bleed

    with language("de"):
        text = with_bleed(_("Hashi cards, print-shop version with 3 mm bleed"), 3.175)
    assert text == "Hashi-Karten, Druckerei-Fassung mit 3.175 mm Beschnitt"
    assert with_bleed("cards with 3 mm bleed", 3.0) == "cards with 3 mm bleed"
    assert with_bleed("cards, bleed 3mm", 5.0) == "cards, bleed 3mm (5 mm)"
