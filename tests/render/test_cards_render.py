"""Card deck tests: slots on the cut lines, duplex mirroring, bleed boxes, text and fonts read back."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pypdf import PdfReader

from hashi_print.game.deck import load_deck
from hashi_print.render.canvas import text_width
from hashi_print.render.cards import (
    BLEED,
    CARD_H,
    CARD_W,
    card_sheet_layout,
    render_cards_pdf,
    render_cards_printshop,
    render_cards_svg,
)
from hashi_print.render.paper import PAPER
from tests.pdftext import MM_PER_PT, page_texts

FIX = Path(__file__).resolve().parents[1] / "fixtures"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def deck():
    """The fixture deck."""
    return load_deck(FIX / "kit-fixture-deck.json")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_layout_slots_share_cut_lines_and_fit(paper):
    lay = card_sheet_layout(paper)
    w, h = PAPER[paper]
    assert len(lay.fronts) == 9
    for x, y, cw, ch in lay.fronts:
        assert (cw, ch) == (CARD_W, CARD_H)
        assert min(abs(x - c) for c in lay.cut_xs) < 1e-9 and min(abs(x + cw - c) for c in lay.cut_xs) < 1e-9
        assert min(abs(y - c) for c in lay.cut_ys) < 1e-9 and min(abs(y + ch - c) for c in lay.cut_ys) < 1e-9
        assert x > 5.0 and x + cw < w - 5.0 and y > 5.0 and y + ch < h - 5.0
    for (fx, fy, fw, _), (bx, by, _, _) in zip(lay.fronts, lay.backs, strict=True):
        assert bx == pytest.approx(w - fx - fw) and by == fy


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_svg_cards_drawn_on_the_layout(tmp_path, deck, paper):
    paths = render_cards_svg(deck, paper, tmp_path)
    assert [p.name for p in paths] == ["cards-front-1.svg", "cards-front-2.svg", "cards-back.svg"]
    lay = card_sheet_layout(paper)
    for page, path in enumerate(paths[:2]):
        root = ET.parse(path).getroot()
        for slot, (x, y, w, h) in enumerate(lay.fronts):
            rect = root.find(f".//{SVG}rect[@id='card-{page * 9 + slot + 1}-trim']")
            got = [float(rect.get(a)) for a in ("x", "y", "width", "height")]
            assert got == pytest.approx([x, y, w, h], abs=0.1)
        for i, cx in enumerate(lay.cut_xs):
            line = root.find(f".//{SVG}line[@id='cut-x-{i}']")
            assert float(line.get("x1")) == pytest.approx(cx, abs=0.1)
        for j, cy in enumerate(lay.cut_ys):
            line = root.find(f".//{SVG}line[@id='cut-y-{j}']")
            assert float(line.get("y1")) == pytest.approx(cy, abs=0.1)
    back = ET.parse(paths[2]).getroot()
    for slot, (x, y, _, _) in enumerate(lay.backs):
        rect = back.find(f".//{SVG}rect[@id='back-{slot + 1}-trim']")
        assert float(rect.get("x")) == pytest.approx(x, abs=0.1) and float(rect.get("y")) == pytest.approx(y)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pdf_fronts_and_backs_align_under_duplex(tmp_path, deck, paper):
    data = render_cards_pdf(deck, paper, tmp_path / "c.pdf").read_bytes()
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 4
    w, h = PAPER[paper]
    lay = card_sheet_layout(paper)
    for page in (0, 2):
        big = [(t, x, y) for t, x, y, size in page_texts(reader, page) if size == 88]
        assert [t for t, _, _ in big] == [str(c.numeral) for c in deck.cards[page // 2 * 9:page // 2 * 9 + 9]]
        backs = [(x, y) for t, x, y, size in page_texts(reader, page + 1) if t == "HASHI"]
        assert len(backs) == 9
        for k, (t, x, _) in enumerate(big):
            fx, fy, fw, fh = lay.fronts[k]
            centre = x + text_width(t, 88, bold=True) / 2
            assert centre == pytest.approx(fx + fw / 2, abs=0.1)
            # The back printed behind this card: same slot seen through the sheet (x mirrored).
            bx, by = backs[k]
            back_centre = bx + text_width("HASHI", 17, bold=True) / 2
            assert w - back_centre == pytest.approx(fx + fw / 2, abs=0.1)
            assert fy < by < fy + fh
    for page in reader.pages:
        assert float(page.mediabox.width) * MM_PER_PT == pytest.approx(w, abs=0.01)
    assert b"Helvetica" not in data


def test_printshop_pdf_has_bleed_and_trim_boxes(tmp_path, deck):
    data = render_cards_printshop(deck, tmp_path / "shop.pdf").read_bytes()
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 36
    for page in reader.pages:
        trim = [float(v) * MM_PER_PT for v in page.trimbox]
        bleed = [float(v) * MM_PER_PT for v in page.bleedbox]
        media = [float(v) * MM_PER_PT for v in page.mediabox]
        assert trim == pytest.approx([BLEED, BLEED, BLEED + CARD_W, BLEED + CARD_H], abs=0.01)
        assert bleed == pytest.approx(media, abs=0.01)
        assert media[2] == pytest.approx(CARD_W + 2 * BLEED, abs=0.01)
    numerals = [next(t for t, *_ , size in page_texts(reader, k) if size == 88) for k in range(0, 36, 2)]
    assert numerals == [str(c.numeral) for c in deck.cards]


def test_cards_pdf_is_byte_identical(tmp_path, deck):
    a = render_cards_pdf(deck, "a4", tmp_path / "a.pdf").read_bytes()
    b = render_cards_pdf(deck, "a4", tmp_path / "b.pdf").read_bytes()
    assert a == b


def _groups(root, prefix: str):
    """The SVG groups whose id is prefix-N (one per card), in order."""
    return [g for g in root.iter(f"{SVG}g") if (g.get("id") or "").startswith(prefix)
            and g.get("id")[len(prefix):].isdigit()]


def test_a_card_reads_the_same_either_way_up_and_shows_its_bridges_as_the_strip_does(tmp_path, deck):
    paths = render_cards_svg(deck, "a4", tmp_path)
    cards = list(enumerate(deck.cards, 1))
    for path in paths[:2]:
        root = ET.parse(path).getroot()
        for group in _groups(root, "card-"):
            n = int(group.get("id")[5:])
            card = cards[n - 1][1]
            indexes = [t for t in group.iter(f"{SVG}text") if t.text == str(card.numeral)
                       and float(t.get("font-size")) < 5]
            assert len(indexes) == 2
            top, bottom = sorted(indexes, key=lambda t: float(t.get("y")))
            assert top.get("transform") is None
            assert (bottom.get("transform") or "").startswith("rotate(-180"), n
            # One thick bar per bridge, as on the sheet's card strip (no chain of islands).
            bars = [ln for ln in group.iter(f"{SVG}line") if float(ln.get("stroke-width")) >= 1.3]
            assert len(bars) == card.bridges and len(list(group.iter(f"{SVG}circle"))) == 2


def test_every_bridge_on_the_card_back_runs_from_island_to_island(tmp_path, deck):
    back = ET.parse(render_cards_svg(deck, "letter", tmp_path)[-1]).getroot()
    for group in _groups(back, "back-"):
        circles = [(float(c.get("cx")), float(c.get("cy")), float(c.get("r")))
                   for c in group.iter(f"{SVG}circle")]
        lines = [ln for ln in group.iter(f"{SVG}line")]
        assert lines
        for ln in lines:
            for end in (("x1", "y1"), ("x2", "y2")):
                x, y = (float(ln.get(a)) for a in end)
                assert any(abs(x - cx) <= r + 0.01 and abs(y - cy) <= r + 0.01
                           for cx, cy, r in circles), (x, y)
