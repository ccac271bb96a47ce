"""Score sheet tests: the PDF read back, the SVG parsed, the layout checked against the drawing."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import cv2
import pytest
from pypdf import PdfReader

from hashi_print.errors import LayoutError, OptionError
from hashi_print.game.board import LABELS, BoardIsland, BoardSide, load_side
from hashi_print.game.deck import load_deck
from hashi_print.game.scoring import load_scoring
from hashi_print.render.paper import PAPER
from hashi_print.render.sheet import render_sheet
from hashi_print.sheets.layout import sheet_layout
from hashi_print.sheets.markers import CELLS, aruco_dictionary, sheet_marker_ids
from tests.pdftext import MM_PER_PT, page_texts

FIX = Path(__file__).resolve().parents[1] / "fixtures"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def data():
    """The kit fixture sides, deck and scoring."""
    return (load_side(FIX / "kit-fixture-side-a.json"), load_side(FIX / "kit-fixture-side-b.json"),
            load_deck(FIX / "kit-fixture-deck.json"), load_scoring(FIX / "kit-fixture-scoring.json"))


def pdf_of(tmp_path, side, deck, scoring, paper="a4") -> bytes:
    """Render a sheet PDF and return its bytes."""
    path = render_sheet(side, deck, scoring, paper, "pdf", tmp_path / f"s-{side.name}-{paper}.pdf")
    return path.read_bytes()


def svg_of(tmp_path, side, deck, scoring, paper="a4") -> ET.Element:
    """Render a sheet SVG and parse it."""
    path = render_sheet(side, deck, scoring, paper, "svg", tmp_path / f"s-{side.name}-{paper}.svg")
    return ET.parse(path).getroot()


def texts(data: bytes, page: int = 0) -> list[tuple[str, float, float, float]]:
    """Text items of a PDF page given as bytes: (text, x mm, y mm from the top, size pt)."""
    return page_texts(PdfReader(io.BytesIO(data)), page)


def fonts_embedded(data: bytes) -> list[bool]:
    """For every font on every page, whether its descriptor carries an embedded TrueType file."""
    out = []
    for page in PdfReader(io.BytesIO(data)).pages:
        for ref in page["/Resources"].get_object().get("/Font", {}).values():
            desc = ref.get_object().get("/FontDescriptor")
            out.append(desc is not None and "/FontFile2" in desc.get_object())
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_sheet_pdf_page_size_labels_cards_bonus(tmp_path, data, paper):
    side_a, _, deck, scoring = data
    pdf = pdf_of(tmp_path, side_a, deck, scoring, paper)
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 1
    w, h = PAPER[paper]
    assert float(reader.pages[0].mediabox.width) * MM_PER_PT == pytest.approx(w, abs=0.01)
    assert float(reader.pages[0].mediabox.height) * MM_PER_PT == pytest.approx(h, abs=0.01)
    items = texts(pdf)
    words = [t for t, *_ in items]
    assert all(label in words for label in LABELS)
    for goal, (first, later) in scoring.bonus.items():
        assert str(first) in words and str(later) in words, goal
    lay = sheet_layout(side_a, paper)
    strip = sorted((x, t) for t, x, y, size in items if size == 15)
    assert [t for _, t in strip] == [str(c.numeral) for c in deck.cards]
    for (x, _), (sx, _, sw, _) in zip(strip, lay.card_slots, strict=True):
        assert sx < x < sx + sw
    assert all(fonts_embedded(pdf)) and fonts_embedded(pdf)
    assert b"Helvetica" not in pdf


def test_sheet_pdf_is_byte_identical(tmp_path, data):
    side_a, _, deck, scoring = data
    assert pdf_of(tmp_path, side_a, deck, scoring) == pdf_of(tmp_path / "again", side_a, deck, scoring)


@pytest.mark.parametrize("which", [0, 1])
def test_sheet_svg_one_element_per_island_and_lane(tmp_path, data, which):
    side, deck, scoring = data[which], data[2], data[3]
    root = svg_of(tmp_path, side, deck, scoring)
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert len(ids) == len(set(ids))
    islands = sorted(i for i in ids if re.fullmatch(r"island-[A-R]", i))
    lanes = sorted(i for i in ids if re.fullmatch(r"lane-[A-R]-[A-R]", i))
    assert islands == sorted(f"island-{c}" for c in LABELS)
    assert lanes == sorted(f"lane-{side.lane_name(k)}" for k in range(len(side.geometry.lanes)))
    cards = [i for i in ids if re.fullmatch(r"card-\d+", i)]
    assert len(cards) == 18


def test_sheet_svg_islands_at_layout_positions_and_readable(tmp_path, data):
    side_b, deck, scoring = data[1], data[2], data[3]
    root = svg_of(tmp_path, side_b, deck, scoring)
    lay = sheet_layout(side_b, "a4")
    for k, isl in enumerate(side_b.islands):
        group = root.find(f".//{SVG}g[@id='island-{isl.label}']")
        circle = group.find(f"{SVG}circle")
        cx, cy = lay.board.centres[k]
        assert float(circle.get("cx")) == pytest.approx(cx, abs=0.1)
        assert float(circle.get("cy")) == pytest.approx(cy, abs=0.1)
        assert float(circle.get("r")) >= 4.5
        box = group.find(f"{SVG}rect")
        assert float(box.get("width")) >= 5.0
    lane = root.find(f".//{SVG}g[@id='lane-{side_b.lane_name(0)}']")
    lines = lane.findall(f"{SVG}line")
    dotted = [ln for ln in lines if ln.get("stroke-dasharray")]
    tracks = [ln for ln in lines if not ln.get("stroke-dasharray")]
    assert len(dotted) == 1 and len(tracks) == 2
    # Lanes are lighter than a pen bridge (about 0.5 mm black): grey dots, faint tracks.
    assert dotted[0].get("stroke") != "#000000" and float(dotted[0].get("stroke-width")) <= 0.6
    assert all(float(t.get("stroke-width")) < 0.3 for t in tracks)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_sheet_layout_parts_do_not_overlap(data, paper):
    for side in data[:2]:
        lay = sheet_layout(side, paper)
        bx, by, bw, bh = lay.board.box
        assert by > lay.markers[0][1] + lay.markers[0][2]
        assert by + bh + 2.0 < lay.card_slots[0][1]
        assert lay.card_slots[0][1] + lay.card_slots[0][3] < lay.turn_boxes[0][1]
        assert lay.turn_boxes[0][1] + lay.turn_boxes[0][3] < lay.bonus_boxes["red"][0][1]
        assert bx > 0 and bx + bw < lay.width
        assert all(x > 0 and x + w <= lay.width and y + h <= lay.height for x, y, w, h in lay.card_slots)
        assert lay.ruler[2] == 50.0
        assert len(lay.turn_boxes) == 17


def test_sheet_markers_are_the_opencv_aruco_markers_of_the_side(tmp_path, data):
    side_a, _, deck, scoring = data
    root = svg_of(tmp_path, side_a, deck, scoring)
    for corner, marker_id in zip(("top-left", "top-right", "bottom-right", "bottom-left"),
                                 sheet_marker_ids("A", "a4"), strict=True):
        g = root.find(f".//{SVG}g[@id='marker-{corner}']")
        rects = g.findall(f"{SVG}rect")
        x0, y0, size = float(rects[0].get("x")), float(rects[0].get("y")), float(rects[0].get("width"))
        cell = size / CELLS
        drawn = [[0] * CELLS for _ in range(CELLS)]
        for r in rects[1:]:
            drawn[round((float(r.get("y")) - y0) / cell)][round((float(r.get("x")) - x0) / cell)] = 255
        # OpenCV's own picture of the marker is the reference.
        want = cv2.aruco.generateImageMarker(aruco_dictionary(), marker_id, CELLS)
        assert drawn == want.tolist(), corner


def test_custom_layout_gets_other_markers(data):
    side_a = data[0]
    assert [m[3] for m in sheet_layout(side_a, "a4").markers] == list(sheet_marker_ids("A", "a4"))
    assert [m[3] for m in sheet_layout(side_a, "letter", custom=True).markers] == \
        list(sheet_marker_ids("mine", "letter"))
    assert set(sheet_marker_ids("A", "a4")).isdisjoint(sheet_marker_ids("mine", "a4"))
    assert set(sheet_marker_ids("A", "a4")).isdisjoint(sheet_marker_ids("A", "letter"))


def test_sheet_too_big_grid_is_a_layout_error():
    islands = tuple(BoardIsland(LABELS[k], k, k % 2) for k in range(18))
    with pytest.raises(LayoutError, match="does not fit"):
        sheet_layout(BoardSide("X", 18, 2, islands), "a4")
    with pytest.raises(OptionError, match="paper"):
        sheet_layout(BoardSide("X", 18, 2, islands), "a5")
