"""Flags, the crossing mark, the leaflet's cards, the starting-island and goal-turn boxes, the solo table's
reading aid: each measured from what was printed (a grey raster, PDF text, the parsed SVG)."""

from __future__ import annotations

import dataclasses
import io
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import cv2
import numpy as np
import pytest
from pypdf import PdfReader

from hashi_print.game.board import builtin_side, load_side
from hashi_print.game.deck import Card, Deck, load_deck
from hashi_print.game.scoring import load_scoring
from hashi_print.jobs.leaflet import leaflet_examples
from hashi_print.render.leaflet import render_leaflet
from hashi_print.render.sheet import render_sheet
from hashi_print.render.solo import render_solo, solo_levels
from tests.pdfink import page_ink
from tests.pdftext import page_texts

FIX = Path(__file__).resolve().parents[1] / "fixtures"
SVG = "{http://www.w3.org/2000/svg}"
DPI = 200
PPM = DPI / 25.4  # pixels per mm


@pytest.fixture(scope="module")
def data():
    """The kit fixture sides, deck and scoring."""
    return (load_side(FIX / "kit-fixture-side-a.json"), load_side(FIX / "kit-fixture-side-b.json"),
            load_deck(FIX / "kit-fixture-deck.json"), load_scoring(FIX / "kit-fixture-scoring.json"))


# --- flags on a grey print --------------------------------------------------------------------------

def grey_raster(pdf: Path) -> np.ndarray:
    """The first page as a mono printer sees it: pdftoppm's grey rendering (0 black, 255 paper)."""
    stem = pdf.with_suffix("")
    subprocess.run(["pdftoppm", "-gray", "-r", str(DPI), "-singlefile", str(pdf), str(stem)], check=True)
    return cv2.imread(f"{stem}.pgm", cv2.IMREAD_GRAYSCALE)


@dataclasses.dataclass(frozen=True)
class Blob:
    """A solid grey shape found on the page: its box (mm), how much of the box it fills, its mean grey."""

    x: float
    y: float
    w: float
    h: float
    fill: float
    grey: float

    @property
    def shape(self) -> str:
        """A half-filled box is a triangle (a pennant), a full one a banner."""
        return "triangle" if self.fill < 0.8 else "banner"


def solid_grey_shapes(grey: np.ndarray) -> list[Blob]:
    """Shapes of at least 4 mm² filled with mid grey (not black type, not white paper), in reading order.

    Outlines are filled (a letter on a flag leaves no hole), then everything thinner than 0.7 mm
    (lines, type, poles, lane dots) is opened away.
    """
    ink = (grey < 200).astype(np.uint8)
    contours, _ = cv2.findContours(ink, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    filled = np.zeros_like(ink)
    cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
    k = int(round(0.7 * PPM)) | 1
    solid = cv2.morphologyEx(filled, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(solid)
    blobs = []
    for n in range(1, count):
        x, y, w, h, area = stats[n]
        pixels = grey[labels == n]
        median = float(np.median(pixels))
        if area / PPM**2 >= 4.0 and 40 < median < 170:
            blobs.append(Blob(x / PPM, y / PPM, w / PPM, h / PPM, area / (w * h), float(pixels.mean())))
    blobs.sort(key=lambda b: b.y)
    rows: list[list[Blob]] = []
    for b in blobs:
        if rows and abs(b.y + b.h / 2 - (rows[-1][0].y + rows[-1][0].h / 2)) < 2.0:
            rows[-1].append(b)
        else:
            rows.append([b])
    return [b for row in rows for b in sorted(row, key=lambda b: b.x)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("which", [0, 1])
def test_red_and_blue_flags_are_told_apart_on_a_grey_print(tmp_path, data, which, paper):
    side, deck, scoring = data[which], data[2], data[3]
    pdf = render_sheet(side, deck, scoring, paper, "pdf", tmp_path / "sheet.pdf")
    shapes = solid_grey_shapes(grey_raster(pdf))
    # The board's flags in reading order, then the symbols of the red and the blue goal rows under the
    # turn tracker, then those of the red and the blue bonus rows.
    flags = [isl.flag for isl in sorted(side.islands, key=lambda i: (i.row, i.col)) if isl.flag]
    expected = ["triangle" if f == "red" else "banner" for f in flags] + ["triangle", "banner"] * 2
    assert [b.shape for b in shapes] == expected
    # In grey the two colours still differ clearly (red light, blue dark), besides their shapes.
    red = np.mean([b.grey for b in shapes if b.shape == "triangle"])
    blue = np.mean([b.grey for b in shapes if b.shape == "banner"])
    assert red - blue >= 40, (red, blue)
    # Each flag carries its letter, at 8 pt or more: the one text item printed inside its box.
    texts = page_texts(PdfReader(pdf))
    for b in shapes:
        inside = [(t, size) for t, x, y, size in texts
                  if b.x - 0.5 <= x <= b.x + b.w + 0.5 and b.y - 0.5 <= y <= b.y + b.h + 0.5 and size >= 6.0]
        assert [t for t, _ in inside] == ["R" if b.shape == "triangle" else "B"]
        assert inside[0][1] >= 8.0 - 1e-6


def flag_polygons(root: ET.Element) -> list[tuple[str, int, str]]:
    """Every flag cloth of an SVG page: (fill colour, corner count, the letter drawn inside it)."""
    texts = [(el.text, float(el.get("x")), float(el.get("y"))) for el in root.iter(f"{SVG}text")]
    out = []
    for poly in root.iter(f"{SVG}polygon"):
        pts = [tuple(map(float, p.split(","))) for p in poly.get("points").split()]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        inside = [t for t, x, y in texts if min(xs) <= x <= max(xs) and min(ys) <= y <= max(ys)]
        out.append((poly.get("fill"), len(pts), "".join(inside)))
    return out


def test_sheet_leaflet_and_solo_table_draw_the_same_flags(tmp_path, data):
    side, deck, scoring = data[0], data[2], data[3]
    examples = leaflet_examples(side, deck)
    pages = {
        "sheet": render_sheet(side, deck, scoring, "a4", "svg", tmp_path / "sheet.svg"),
        "rules-1": render_leaflet(side, scoring, "a4", "svg", tmp_path / "r1.svg", examples, page=1),
        "rules-2": render_leaflet(side, scoring, "a4", "svg", tmp_path / "r2.svg", examples, page=2),
        "solo": render_solo(scoring, "a4", "svg", tmp_path / "solo.svg"),
    }
    for name, path in pages.items():
        found = flag_polygons(ET.parse(path).getroot())
        reds = [f for f in found if f[0] == "#e0442b"]
        blues = [f for f in found if f[0] == "#15336f"]
        assert reds and blues, name
        assert all(n == 3 and letter == "R" for _, n, letter in reds), name
        assert all(n == 4 and letter == "B" for _, n, letter in blues), name


# --- the leaflet ------------------------------------------------------------------------------------

def lines_of(el: ET.Element) -> list[tuple[float, float, float, float]]:
    """The line segments of an SVG element and its children."""
    return [tuple(float(ln.get(a)) for a in ("x1", "y1", "x2", "y2")) for ln in el.iter(f"{SVG}line")]


@pytest.mark.parametrize("source", ["fixture-a", "fixture-b", "designed-a", "designed-b"])
def test_crossing_figure_marks_the_point_where_the_two_lanes_cross(tmp_path, data, source):
    kind, name = source.split("-")
    side = data["ab".index(name)] if kind == "fixture" else builtin_side(name)
    deck = data[2] if kind == "fixture" else load_deck()
    examples = leaflet_examples(side, deck)
    root = ET.parse(render_leaflet(side, data[3], "a4", "svg", tmp_path / "r.svg", examples, 1)).getroot()
    ids = {el.get("id"): el for el in root.iter() if el.get("id")}
    marks = [i for i in ids if i.startswith("ex2-crossing-")]
    assert len(marks) == 1
    refused, built = re.fullmatch(r"ex2-crossing-([A-R]-[A-R])-([A-R]-[A-R])", marks[0]).groups()
    assert f"ex2-bridge-{built}-1" in ids  # the lane crossed carries a bridge in the figure
    (fx1, fy1, fx2, fy2), = lines_of(ids[f"ex2-forbidden-{refused}"])
    # The crossed lane's centre line is its dotted one.
    dotted = [ln for ln in ids[f"ex2-lane-{built}"].iter(f"{SVG}line") if ln.get("stroke-dasharray")]
    (lx1, ly1, lx2, ly2), = [tuple(float(ln.get(a)) for a in ("x1", "y1", "x2", "y2")) for ln in dotted]
    # One lane is horizontal and the other vertical: they meet at the vertical's x and the horizontal's y.
    if fy1 == fy2:
        point = (lx1, fy1)
        assert lx1 == lx2 and min(fx1, fx2) < lx1 < max(fx1, fx2) and min(ly1, ly2) < fy1 < max(ly1, ly2)
    else:
        point = (fx1, ly1)
        assert ly1 == ly2 and min(fy1, fy2) < ly1 < max(fy1, fy2) and min(lx1, lx2) < fx1 < max(lx1, lx2)
    strokes = lines_of(ids[marks[0]])
    assert len(strokes) == 2
    cx = np.mean([s[0] for s in strokes] + [s[2] for s in strokes])
    cy = np.mean([s[1] for s in strokes] + [s[3] for s in strokes])
    assert cx == pytest.approx(point[0], abs=0.05) and cy == pytest.approx(point[1], abs=0.05)


CAPTION_CARDS = (re.compile(r"Card\s+(\d)/(\d)"), re.compile(r"Card\s+(\d)\s+with\s+(\d)\s+bridges?"))


def printed_cards(pdf: Path) -> list[Card]:
    """The cards the leaflet's captions name, read from the PDF's text."""
    text = PdfReader(pdf).pages[0].extract_text()
    return [Card(int(n), int(b)) for pattern in CAPTION_CARDS for n, b in pattern.findall(text)]


def test_leaflet_examples_name_only_cards_of_the_deck(tmp_path, data):
    side, scoring = builtin_side("a"), data[3]
    for name, deck in (("shipped", load_deck()), ("fixture", data[2]),
                       ("narrow", Deck(tuple(Card(*c) for c in [(5, 2), (6, 1), (4, 2), (2, 1)] * 4
                                             + [(5, 2), (6, 1)])))):
        examples = leaflet_examples(side, deck)
        cards = printed_cards(render_leaflet(side, scoring, "a4", "pdf", tmp_path / f"{name}.pdf", examples))
        assert len(cards) == 3, name
        assert set(cards) <= set(deck.cards), name
    # The examples' own cards are the deck's too, and are what the captions say.
    examples = leaflet_examples(side, load_deck())
    assert sorted(ex.card for ex in examples) == sorted(printed_cards(tmp_path / "shipped.pdf"))


def test_leaflet_says_how_the_turn_tracker_and_starting_island_box_are_used(tmp_path, data):
    side, deck, scoring = data[0], data[2], data[3]
    examples = leaflet_examples(side, deck)
    text = " ".join(PdfReader(render_leaflet(side, scoring, "letter", "pdf", tmp_path / "r.pdf", examples))
                    .pages[0].extract_text().split())
    assert "4. Turn tracker and goals." in text
    assert "Cross off this turn's box on the turn tracker" in text
    assert "also cross off the box under this turn in that goal's row (marked with its symbol)" in text
    assert "“starting island” box at the start of the turn tracker" in text


# --- the sheet's boxes --------------------------------------------------------------------------------

def rect_of(el: ET.Element) -> tuple[float, float, float, float]:
    """(x, y, w, h) of an SVG rect."""
    return tuple(float(el.get(a)) for a in ("x", "y", "width", "height"))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_sheet_has_a_starting_island_box_before_turn_1(tmp_path, data, lang):
    side, deck, scoring = data[1], data[2], data[3]
    pdf = render_sheet(side, deck, scoring, "letter", "pdf", tmp_path / "s.pdf", lang=lang)
    svg = render_sheet(side, deck, scoring, "letter", "svg", tmp_path / "s.svg", lang=lang)
    root = ET.parse(svg).getroot()
    ids = {el.get("id"): el for el in root.iter() if el.get("id")}
    (sx, sy, sw, sh), = [rect_of(r) for r in ids["setup"].iter(f"{SVG}rect")]
    tx, ty, tw, th = rect_of(ids["turn-1"])
    assert sy == pytest.approx(ty) and sh == pytest.approx(th)
    assert sx + sw < tx < sx + sw + 3.0
    assert sw >= 15.0 and sh >= 8.0  # room to write a letter
    caption = {"en": "starting island", "ja": "開始の島"}[lang]
    found = [(x, y) for t, x, y, size in page_texts(PdfReader(pdf)) if t == caption and size >= 6.0]
    assert len(found) == 1
    x, y = found[0]
    assert sx < x < sx + sw and sy < y < sy + sh / 2  # at the top, leaving the box's lower part to write in


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_goal_has_a_row_of_turn_boxes_under_the_turn_tracker(tmp_path, data, paper):
    side, deck, scoring = data[0], data[2], data[3]
    root = ET.parse(render_sheet(side, deck, scoring, paper, "svg", tmp_path / "s.svg")).getroot()
    ids = {el.get("id"): el for el in root.iter() if el.get("id")}
    turns = [rect_of(ids[f"turn-{t}"]) for t in range(1, 18)]
    below = turns[0][1] + turns[0][3]
    for goal in ("red", "blue", "six"):
        row = ids[f"goal-turns-{goal}"]
        cells = sorted(rect_of(r) for r in row.iter(f"{SVG}rect"))
        # One box under each turn, in its column, all on one line below the previous row.
        assert len(cells) == 17
        for (x, y, w, h), (tx, _, tw, _) in zip(cells, turns, strict=True):
            assert x == pytest.approx(tx) and w == pytest.approx(tw)
            assert y == pytest.approx(cells[0][1]) and h >= 3.5  # room for a cross
        assert cells[0][1] >= below - 0.01
        below = cells[0][1] + cells[0][3]
        # The goal's symbol opens the row: its flag (red pennant, blue banner) or three joined circles.
        corners = [len(p.get("points").split()) for p in row.iter(f"{SVG}polygon")]
        circles = list(row.iter(f"{SVG}circle"))
        assert (corners, len(circles)) == {"red": ([3], 0), "blue": ([4], 0), "six": ([], 3)}[goal]
    # The bonus rows below no longer hold a written turn.
    assert not any(i.startswith("bonus-") and i.endswith("-turn") for i in ids)


# --- the solo table ---------------------------------------------------------------------------------------

def test_solo_table_explains_how_to_read_it(tmp_path, data):
    text = " ".join(PdfReader(render_solo(data[3], "a4", "pdf", tmp_path / "solo.pdf")).pages[0]
                    .extract_text().split())
    assert "How to read the table: find the row of your side and level." in text
    assert "“By turn 12” under a goal means its bonus counts if you reach the goal on turn 12" in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_solo_table_shows_rating_bands_per_level_on_the_level_rows(tmp_path, data, paper):
    scoring = data[3]
    shift = {"easy": 5, "normal": 0, "hard": -4}
    by_level = {side: {level: tuple((max(0, low + shift[level]), w) for low, w in scoring.ratings[side])
                       for level, _limits in solo_levels(scoring, side)} for side in scoring.ratings}
    per_level = dataclasses.replace(scoring, level_ratings=by_level)
    root = ET.parse(render_solo(per_level, paper, "svg", tmp_path / "solo.svg")).getroot()
    ids = {el.get("id"): el for el in root.iter() if el.get("id")}
    for side, levels in by_level.items():
        for level, bands in levels.items():
            row_y = float(ids[f"solo-{side}-{level}-red"].get("y"))
            for k, (low, _words) in enumerate(bands):
                cell = ids[f"solo-rating-{side}-{level}-{k}"]
                # The best band is open-ended, each other ends one below the band above it.
                assert cell.text == (f"{low}+" if k == 0 else f"{low}\u2013{bands[k - 1][0] - 1}")
                assert float(cell.get("y")) == pytest.approx(row_y)
    pdf = render_solo(per_level, paper, "pdf", tmp_path / "solo.pdf")
    words = " ".join(PdfReader(io.BytesIO(pdf.read_bytes())).pages[0].extract_text().split())
    for _low, w in scoring.ratings["A"]:
        assert w in words


def test_a_filled_record_writes_its_starting_island_into_the_box(tmp_path):
    from click.testing import CliRunner

    from hashi_print.cli import cli

    record = FIX / "fixture-record-ann.txt"
    out = tmp_path / "ann.svg"
    result = CliRunner().invoke(cli, ["sheet", "--fill", str(record), "--format", "svg",
                                      "--deck", str(FIX / "fixture-deck.json"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    # The island named on the record's setup line, read by the test from the file itself.
    label = re.search(r"^setup ([A-R])[34]", record.read_text(), re.M).group(1)
    root = ET.parse(out).getroot()
    ids = {el.get("id"): el for el in root.iter() if el.get("id")}
    (sx, sy, sw, sh), = [rect_of(r) for r in ids["setup"].iter(f"{SVG}rect")]
    inside = [t.text for t in root.iter(f"{SVG}text")
              if sx < float(t.get("x")) < sx + sw and sy + sh / 2 < float(t.get("y")) <= sy + sh]
    assert inside == [label]


def darkness(colour: tuple) -> float:
    """How much black a stroke colour prints as on a mono printer: 1 - luminance (0 white, 1 black)."""
    op, *v = colour
    if op.lower() == "rg":
        return 1 - (0.299 * v[0] + 0.587 * v[1] + 0.114 * v[2])
    if op.lower() == "k":
        return 1 - (1 - v[3]) * (1 - max(v[:3]))
    return 1 - v[0]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("which", [0, 1])
def test_every_line_of_a_sheet_is_dark_enough_for_a_mono_printer(tmp_path, data, which, paper):
    side, deck, scoring = data[which], data[2], data[3]
    pdf = render_sheet(side, deck, scoring, paper, "pdf", tmp_path / "sheet.pdf")
    _, inks = page_ink(PdfReader(pdf), 0)
    strokes = [i for i in inks if i.stroked]
    assert strokes
    light = sorted({round(darkness(i.stroke), 3) for i in strokes if darkness(i.stroke) < 0.3})
    assert not light, light


@pytest.mark.parametrize("which", [0, 1])
def test_letter_sheets_have_10_mm_islands_or_a_6_mm_numeral_box(tmp_path, data, which):
    side, deck, scoring = data[which], data[2], data[3]
    pdf = render_sheet(side, deck, scoring, "letter", "pdf", tmp_path / "sheet.pdf")
    _, inks = page_ink(PdfReader(pdf), 0)
    # Island circles: white, outlined, the largest round shapes; numeral boxes: the squares inside them.
    circles = [i.box for i in inks if i.filled and i.stroked and i.box[2] - i.box[0] > 7
               and abs((i.box[2] - i.box[0]) - (i.box[3] - i.box[1])) < 0.05]
    assert len(circles) == len(side.islands)
    boxes = [i.box for i in inks if i.stroked and not i.filled and any(
        c[0] < i.box[0] and i.box[2] < c[2] and c[1] < i.box[1] and i.box[3] < c[3] for c in circles)
        and abs((i.box[2] - i.box[0]) - (i.box[3] - i.box[1])) < 0.05]
    island = min(c[2] - c[0] for c in circles)
    box = min(b[2] - b[0] for b in boxes)
    assert island >= 10.0 or box >= 6.0, (island, box)


@pytest.mark.parametrize("lang", ["en", "de", "fr", "it", "ko", "ja"])
def test_solo_limit_tables_keep_their_text_clear_of_the_frame_and_one_size_per_column(tmp_path, lang):
    # The designed scoring: its levels are the ones printed in the kit (easy, normal, hard).
    pdf = render_solo(load_scoring(), "a4", "pdf", tmp_path / "solo.pdf", lang=lang)
    glyphs, inks = page_ink(PdfReader(pdf), 0)
    frames = sorted((i.box for i in inks if i.stroked and not i.filled and i.box[2] - i.box[0] > 50
                     and i.box[3] - i.box[1] > 20), key=lambda b: (round(b[1]), b[0]))
    limit_tables = [f for f in frames if not any(g[1] == f[1] and g[0] < f[0] for g in frames)]
    assert len(limit_tables) == 2
    for left, top, right, bottom in limit_tables:
        inside = [g for g in glyphs if left < g.box[0] and g.box[2] < right + 5 and top < g.box[1] < bottom]
        assert inside
        for g in inside:
            assert g.box[0] - left >= 1.0 and right - g.box[2] >= 1.0, (lang, g.text)
        # The level names (the first column, below the heading row) share one size of 9 pt or more.
        names = [g for g in inside if g.box[0] - left < 3.0 and g.box[1] > top + 8.0]
        sizes = {round(g.size, 2) for g in names}
        assert len(sizes) == 1 and names[0].size >= 9.0, [(g.text, g.size) for g in names]


def element_boxes(el: ET.Element) -> list[tuple[float, float, float, float]]:
    """The ink boxes (left, top, right, bottom) of an SVG element's lines, circles, shapes and text."""
    from hashi_print.render.canvas import text_width

    boxes = []
    for ln in el.iter(f"{SVG}line"):
        x1, y1, x2, y2 = (float(ln.get(a)) for a in ("x1", "y1", "x2", "y2"))
        boxes.append((min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)))
    for c in el.iter(f"{SVG}circle"):
        cx, cy, r = (float(c.get(a)) for a in ("cx", "cy", "r"))
        boxes.append((cx - r, cy - r, cx + r, cy + r))
    for p in el.iter(f"{SVG}polygon"):
        pts = [tuple(map(float, q.split(","))) for q in p.get("points").split()]
        boxes.append((min(q[0] for q in pts), min(q[1] for q in pts), max(q[0] for q in pts),
                      max(q[1] for q in pts)))
    for t in el.iter(f"{SVG}text"):
        x, y, size = float(t.get("x")), float(t.get("y")), float(t.get("font-size"))
        w = text_width(t.text, size / (25.4 / 72), bold=t.get("font-weight") == "bold")
        left = {"start": x, "middle": x - w / 2, "end": x - w}[t.get("text-anchor", "start")]
        boxes.append((left, y - 0.75 * size, left + w, y))
    return boxes


@pytest.mark.parametrize("source", ["designed-a", "designed-b", "fixture-a"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_leaflet_example_boards_with_their_letters_and_flags_never_touch(tmp_path, data, source, paper):
    kind, name = source.split("-")
    side = data["ab".index(name)] if kind == "fixture" else builtin_side(name)
    examples = leaflet_examples(side, data[2] if kind == "fixture" else load_deck())
    root = ET.parse(render_leaflet(side, data[3], paper, "svg", tmp_path / "r.svg", examples, 1)).getroot()
    groups = {g.get("id"): g for g in root.iter(f"{SVG}g") if g.get("id") in ("ex1", "ex2", "ex3")}
    assert len(groups) == 3
    spans = []
    for key in ("ex1", "ex2", "ex3"):
        boxes = element_boxes(groups[key])
        spans.append((min(b[0] for b in boxes), max(b[2] for b in boxes)))
    for (_l1, r1), (l2, _r2) in zip(spans, spans[1:], strict=False):
        assert l2 - r1 >= 2.0, spans


def test_leaflet_shows_each_examples_card_says_who_reveals_and_gives_no_software_command(tmp_path, data):
    side, scoring = builtin_side("A"), load_scoring()
    examples = leaflet_examples(side, load_deck())
    page1 = ET.parse(render_leaflet(side, scoring, "a4", "svg", tmp_path / "r1.svg", examples, 1)).getroot()
    texts = [(t.text, float(t.get("x")), float(t.get("y"))) for t in page1.iter(f"{SVG}text")]
    cards = [r for r in page1.iter(f"{SVG}rect") if r.get("fill") == "#fbf6e9"]
    assert len(cards) == 3
    for rect, ex in zip(sorted(cards, key=lambda r: float(r.get("x"))), examples, strict=True):
        x, y, w, h = (float(rect.get(a)) for a in ("x", "y", "width", "height"))
        inside = [t for t, tx, ty in texts if x <= tx <= x + w and y <= ty <= y + h]
        assert inside == [str(ex.card.numeral)]
    words = " ".join(t for t, _x, _y in texts)
    assert "turns over the next card" in words and "card strip" in words
    page2 = " ".join(t.text for t in ET.parse(render_leaflet(side, scoring, "a4", "svg", tmp_path / "r2.svg",
                                                            examples, 2)).getroot().iter(f"{SVG}text"))
    assert "hashi-print" not in page2 and "validate" not in page2


def test_every_goal_of_the_leaflet_has_its_symbol_in_the_margin(tmp_path):
    side = builtin_side("A")
    root = ET.parse(render_leaflet(side, load_scoring(), "a4", "svg", tmp_path / "r2.svg",
                                   leaflet_examples(side, load_deck()), 2)).getroot()
    texts = {t.text: float(t.get("y")) for t in root.iter(f"{SVG}text") if t.text}
    six_y = next(y for text, y in texts.items() if text.startswith("Six ("))
    margin = [c for c in root.iter(f"{SVG}circle") if float(c.get("cx")) < 16.0]
    assert len([c for c in margin if abs(float(c.get("cy")) - (six_y - 1.2)) < 1.0]) == 3
    flags = [p for p in root.iter(f"{SVG}polygon")
             if min(float(q.split(",")[0]) for q in p.get("points").split()) < 16]
    assert len(flags) == 2


def test_english_print_uses_one_kind_of_apostrophe():
    from babel.messages.extract import extract_from_file

    import hashi_print.render.book as book_module

    root = Path(book_module.__file__).parent
    keywords = {"_": None, "N_": None, "ngettext": (1, 2)}
    said = [msg if isinstance(msg, str) else msg[0]
            for name in ("leaflet.py", "sheet.py", "solo.py", "cards.py", "book.py", "cover.py")
            for _line, msg, _c, _ctx in extract_from_file("python", root / name, keywords=keywords)]
    assert any("'" in s for s in said)
    assert [s for s in said if "\u2019" in s] == []


@pytest.mark.parametrize("lang", ["en", "de", "fr", "it", "ko", "ja"])
def test_each_caption_row_of_the_leaflet_is_set_in_one_size(tmp_path, lang):
    side = builtin_side("A")
    examples = leaflet_examples(side, load_deck())
    path = render_leaflet(side, load_scoring(), "a4", "pdf", tmp_path / "r.pdf", examples, lang=lang)
    reader = PdfReader(path)
    glyphs, inks = page_ink(reader, 0)
    # Page 1: the example captions, below the lowest island of the boards (card numerals excluded).
    boards_bottom = max(i.box[3] for i in inks if i.filled and i.stroked and i.box[2] - i.box[0] < 8)
    captions = [g for g in glyphs if g.box[1] > boards_bottom and len(g.text.strip()) > 1]
    assert captions and len({round(g.size, 2) for g in captions}) == 1, {(g.text, g.size) for g in captions}
    # Page 2: the legend's captions, between the first two headings (island letters and numerals excluded).
    glyphs, _ = page_ink(reader, 1)
    headings = sorted(g.box[3] for g in glyphs if g.size >= 12.9)
    legend = [g for g in glyphs if headings[0] < g.box[1] and g.box[3] < headings[1] - 5
              and len(g.text.strip()) > 1]
    assert legend and len({round(g.size, 2) for g in legend}) == 1, {(g.text, g.size) for g in legend}
