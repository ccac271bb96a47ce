"""Tests of the millimetre Canvas: PDF fonts, determinism, coordinates, boxes and SVG ids."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
from pypdf import PdfReader

from hashi_print.render.canvas import PdfCanvas, SvgCanvas, draw_paragraph, text_width, wrap_text
from hashi_print.render.paper import PAPER

SVG = "{http://www.w3.org/2000/svg}"


def draw_sample(cv) -> None:
    """Draw one of every primitive."""
    with cv.group("g1"):
        cv.line(10, 10, 50, 10, width=0.5, dash=(1, 2), id="l1")
        cv.circle(30, 40, 5, fill="#ff0000", id="c1")
    cv.rect(60, 20, 20, 10, stroke=None, fill="#0000ff", id="r1")
    cv.polygon([(100, 100), (120, 100), (110, 120)], stroke="#00ff00", id="p1")
    cv.text(20, 60, "Hello A-R", size_pt=12, anchor="middle", bold=True, id="t1")
    cv.text(20, 70, "plain", id="t2")


def pdf_bytes(pages: int = 2) -> bytes:
    """Render the sample onto an A4 PDF in memory."""
    buf = io.BytesIO()
    cv = PdfCanvas(buf, *PAPER["a4"], title="sample")
    for k in range(pages):
        if k:
            cv.new_page()
        draw_sample(cv)
    cv.save()
    return buf.getvalue()


def font_report(data: bytes) -> list[tuple[str, bool]]:
    """List (font name, has /FontFile2) for every font used on every page."""
    out = []
    for page in PdfReader(io.BytesIO(data)).pages:
        fonts = page["/Resources"].get_object().get("/Font", {})
        for ref in fonts.values():
            f = ref.get_object()
            desc = f.get("/FontDescriptor")
            if desc is None and "/DescendantFonts" in f:
                desc = f["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            out.append((str(f["/BaseFont"]), desc is not None and "/FontFile2" in desc.get_object()))
    return out


def test_pdf_page_size_and_count():
    reader = PdfReader(io.BytesIO(pdf_bytes(3)))
    assert len(reader.pages) == 3
    box = reader.pages[0].mediabox
    assert float(box.width) == pytest.approx(210 / 25.4 * 72, abs=0.01)
    assert float(box.height) == pytest.approx(297 / 25.4 * 72, abs=0.01)


def test_pdf_fonts_embedded_no_helvetica():
    report = font_report(pdf_bytes())
    assert report, "expected fonts on the page"
    assert all(embedded for _, embedded in report), report
    assert not any("Helvetica" in name for name, _ in report)
    assert b"Helvetica" not in pdf_bytes()


def test_pdf_is_byte_identical():
    assert pdf_bytes() == pdf_bytes()


def test_pdf_text_position_in_mm():
    positions = []

    def visit(text, cm, tm, font, size):
        """Record one text run with its position."""
        if text.strip():
            positions.append((text.strip(), tm[4], tm[5]))

    reader = PdfReader(io.BytesIO(pdf_bytes(1)))
    reader.pages[0].extract_text(visitor_text=visit)
    plain = [p for p in positions if p[0] == "plain"]
    assert plain
    _, x, y = plain[0]
    assert x / 72 * 25.4 == pytest.approx(20, abs=0.05)
    assert 297 - y / 72 * 25.4 == pytest.approx(70, abs=0.05)


def test_pdf_trim_and_bleed_boxes():
    buf = io.BytesIO()
    cv = PdfCanvas(buf, 100, 100)
    cv.set_boxes(trim=(3, 3, 94, 94), bleed=(0, 0, 100, 100))
    cv.rect(0, 0, 100, 100, fill="#eeeeee")
    cv.save()
    page = PdfReader(io.BytesIO(buf.getvalue())).pages[0]
    assert [round(float(v) / 72 * 25.4, 2) for v in page.trimbox] == [3, 3, 97, 97]
    assert [round(float(v) / 72 * 25.4, 2) for v in page.bleedbox] == [0, 0, 100, 100]


def test_pdf_saves_to_path(tmp_path):
    target = tmp_path / "sub" / "x.pdf"
    cv = PdfCanvas(target, *PAPER["letter"])
    draw_sample(cv)
    cv.save()
    assert PdfReader(str(target)).pages[0].mediabox.width == pytest.approx(612, abs=0.01)


def test_svg_ids_and_units():
    cv = SvgCanvas(210, 297)
    draw_sample(cv)
    root = ET.fromstring(cv.tostring())
    assert root.get("width") == "210mm" and root.get("viewBox") == "0 0 210 297"
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert sorted(ids) == ["c1", "g1", "l1", "p1", "r1", "t1", "t2"]
    g = root.find(f"{SVG}g")
    assert [el.get("id") for el in g] == ["l1", "c1"]
    circle = root.find(f".//{SVG}circle")
    assert (circle.get("cx"), circle.get("cy"), circle.get("r")) == ("30", "40", "5")
    assert root.find(f".//{SVG}line").get("stroke-dasharray") == "1,2"


def test_svg_output_is_deterministic_across_instances():
    a, b = SvgCanvas(50, 50), SvgCanvas(50, 50)
    draw_sample(a)
    draw_sample(b)
    assert a.tostring() == b.tostring()


def test_svg_rejects_duplicate_ids_and_pages():
    cv = SvgCanvas(50, 50)
    cv.circle(1, 1, 1, id="x")
    with pytest.raises(ValueError, match="twice"):
        cv.circle(2, 2, 1, id="x")
    with pytest.raises(ValueError, match="one page"):
        cv.new_page()


def test_bad_colour_and_anchor_rejected():
    cv = SvgCanvas(50, 50)
    with pytest.raises(ValueError, match="colour"):
        cv.line(0, 0, 1, 1, color="red")
    with pytest.raises(ValueError, match="anchor"):
        cv.text(0, 0, "x", anchor="left")


def test_text_width_scales_with_size():
    w10, w20 = text_width("ABC", 10), text_width("ABC", 20)
    assert w10 > 0 and w20 == pytest.approx(2 * w10)
    assert text_width("ABC", 10, bold=True) > w10


def test_wrap_text_respects_width_and_keeps_words():
    text = "Draw exactly the card's number of bridges, spread over any lanes, or skip this part."
    lines = wrap_text(text, 10, 40)
    assert len(lines) > 1
    assert all(text_width(line, 10) <= 40 for line in lines)
    assert " ".join(lines) == text


def test_draw_paragraph_returns_next_baseline():
    cv = SvgCanvas(100, 100)
    y = draw_paragraph(cv, 5, 10, "one two three four five six seven eight nine ten", 20, size_pt=10)
    texts = ET.fromstring(cv.tostring()).findall(f".//{SVG}text")
    assert len(texts) > 1
    assert y == pytest.approx(10 + len(texts) * 10 * 25.4 / 72 * 1.3)


def test_make_canvas_draws_the_same_calls_into_each_format_and_finish_gives_the_file():
    from hashi_print.errors import OptionError
    from hashi_print.options import Format
    from hashi_print.render.canvas import check_format, make_canvas

    files = {}
    for fmt in Format:
        cv = make_canvas(fmt, 40.0, 30.0, title="t")
        cv.rect(5, 5, 30, 20, fill="#1b3d8f")
        cv.text(10, 15, "Hi", size_pt=12)
        files[fmt] = cv.finish("test")
    assert files[Format.PDF].startswith(b"%PDF-")
    assert files[Format.SVG].startswith(b'<?xml version="1.0" encoding="utf-8" ?>\n<svg')
    assert files[Format.PNG].startswith(b"\x89PNG")
    import cv2
    import numpy as np

    picture = cv2.imdecode(np.frombuffer(files[Format.PNG], np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape[:2] == (240, 320)                       # 8 pixels per mm
    assert tuple(picture[50, 200]) == (0x8f, 0x3d, 0x1b)       # inside the blue rectangle (BGR)
    with pytest.raises(OptionError, match="unknown format 'tiff'; use pdf, svg or png"):
        make_canvas("tiff", 10, 10)
    with pytest.raises(OptionError, match="use pdf or svg"):
        check_format("png", (Format.PDF, Format.SVG))
