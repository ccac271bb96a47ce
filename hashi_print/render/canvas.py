"""A small drawing surface in millimetres (origin top-left, y downwards) with PDF and SVG backends."""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Protocol, overload

import svgwrite
from reportlab.lib.colors import CMYKColor, Color, HexColor
from reportlab.lib.units import mm as MM
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas as _RlCanvas

from hashi_print.errors import OptionError
from hashi_print.files import write_atomic
from hashi_print.options import Format
from hashi_print.render.fonts import (
    FAKE_BOLD,
    FAKE_BOLD_STROKE,
    LATIN,
    font_for,
    register,
    svg_family,
    svg_font_faces,
)
from hashi_print.render.paper import COLOR_MODELS
from hashi_print.render.preflight import Preflight

if TYPE_CHECKING:
    import budoux

FONT = "HashiSans"
FONT_BOLD = "HashiSans-Bold"
PT = 25.4 / 72.0
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
# Greys this dark are the kit's ink: in CMYK they print as solid black on the black plate alone.
SOLID_K_BELOW = 0x30
# A subset font's name where the font dictionaries give it, never inside a page's (ASCII85) content
# stream, where the same letters can turn up by chance and changing them would corrupt the page.
_SUBSET_NAME = re.compile(rb"(?:(?<=/FontName )|(?<=/BaseFont ))/([A-Z]{6})\+([A-Za-z0-9._-]+)")
Point = tuple[float, float]


class Canvas(Protocol):
    """What every drawing backend offers; all lengths in mm, colours as "#rrggbb"."""

    width: float
    height: float

    def line(self, x1: float, y1: float, x2: float, y2: float, *, width: float = 0.3,
             color: str = "#000000", dash: tuple[float, ...] | None = None, cap: str = "butt",
             id: str | None = None) -> None:
        """Draw a straight line, optionally dashed (dash lengths in mm)."""

    def circle(self, cx: float, cy: float, r: float, *, stroke: str | None = "#000000",
               fill: str | None = None, width: float = 0.3, id: str | None = None) -> None:
        """Draw a circle."""

    def rect(self, x: float, y: float, w: float, h: float, *, stroke: str | None = "#000000",
             fill: str | None = None, width: float = 0.3, id: str | None = None) -> None:
        """Draw an axis-aligned rectangle with its top-left corner at (x, y)."""

    def polygon(self, points: Sequence[Point], *, stroke: str | None = "#000000",
                fill: str | None = None, width: float = 0.3, id: str | None = None) -> None:
        """Draw a closed polygon."""

    def text(self, x: float, y: float, s: str, *, size_pt: float = 10, anchor: str = "start",
             bold: bool = False, color: str = "#000000", id: str | None = None, angle: float = 0,
             mono: bool = False) -> None:
        """Draw one line of text whose baseline is at y, turned `angle` degrees anticlockwise."""

    def new_page(self) -> None:
        """Start a new page."""

    def group(self, id: str) -> AbstractContextManager[None]:
        """Group the drawing calls made inside the `with` block under one id."""

    def finish(self, name: str) -> bytes:
        """End the drawing and return the file's bytes; `name` is what a failed preflight calls it."""


def register_fonts() -> None:
    """Register the Latin TrueType fonts with reportlab (idempotent); the CJK ones come when needed."""
    for name in (FONT, FONT_BOLD):
        register(name)


def text_width(s: str, size_pt: float, bold: bool = False, mono: bool = False) -> float:
    """Width in mm of a string set in the face it is printed in (see fonts.py) at `size_pt` points."""
    register_fonts()
    return pdfmetrics.stringWidth(s, register(font_for(s, bold, mono)), size_pt) / MM


def _with_mode(draw: Callable[..., None], mode: int) -> Callable[[float, float, str], None]:
    """Wrap a reportlab draw*String call so it uses text render `mode`."""
    def drawn(x: float, y: float, s: str) -> None:
        """Draw with the render mode set."""
        draw(x, y, s, mode=mode)
    return drawn


@overload
def _check_color(color: str) -> str: ...
@overload
def _check_color(color: None) -> None: ...
def _check_color(color: str | None) -> str | None:
    """Return the colour unchanged, or raise ValueError if it is not "#rrggbb" or None."""
    if color is not None and not _COLOR.match(color):
        raise ValueError(f"colour {color!r} is not of the form #rrggbb")
    return color


def _check_anchor(anchor: str) -> str:
    """Return the anchor unchanged, or raise ValueError for an unknown one."""
    if anchor not in ("start", "middle", "end"):
        raise ValueError(f"text anchor {anchor!r}: use start, middle or end")
    return anchor


def cmyk_of(color: str) -> CMYKColor:
    """Convert "#rrggbb" to CMYK: greys on the black plate alone (dark ones solid), colours as usual."""
    r, g, b = (int(_check_color(color)[i:i + 2], 16) for i in (1, 3, 5))
    if r == g == b:
        return CMYKColor(0, 0, 0, 1 if r < SOLID_K_BELOW else round(1 - r / 255, 4))
    k = 1 - max(r, g, b) / 255
    c, m, y = ((1 - v / 255 - k) / (1 - k) for v in (r, g, b))
    return CMYKColor(round(c, 4), round(m, 4), round(y, 4), round(k, 4))


def _retag_subsets(pdf: bytes) -> bytes:
    """Give each font subset its own tag (reportlab names every font's first subset AAAAAA+)."""
    def tag(match: re.Match[bytes]) -> bytes:
        """A six-letter tag derived from the font's name and its original tag, so it is deterministic."""
        digest = hashlib.sha256(match.group(2) + b"+" + match.group(1)).digest()
        return b"/" + bytes(65 + d % 26 for d in digest[:6]) + b"+" + match.group(2)

    # Same length in, same length out: the cross-reference offsets stay valid.
    return _SUBSET_NAME.sub(tag, pdf)


def _ink_box(x1: float, y1: float, x2: float, y2: float, pad: float) -> tuple[float, float, float, float]:
    """Return (left, top, right, bottom) of a segment's or box's ink, `pad` mm beyond its geometry."""
    return min(x1, x2) - pad, min(y1, y2) - pad, max(x1, x2) + pad, max(y1, y2) + pad


class PdfCanvas:
    """A Canvas writing a PDF with reportlab: embedded fonts, byte-identical output (invariant).

    With `color="cmyk"` every colour is written in CMYK (greys on the black plate only); with a
    `preflight`, every glyph and mark is checked as it is drawn and a file that breaks a rule is
    never written.
    """

    def __init__(self, path_or_buffer: str | Path | BinaryIO | None, page_w_mm: float, page_h_mm: float, *,
                 title: str = "", author: str = "hashi_print", subject: str = "", color: str = "rgb",
                 preflight: Preflight | None = None):
        register_fonts()
        if color not in COLOR_MODELS:
            raise ValueError(f"colour model {color!r}: use rgb or cmyk")
        self.width = float(page_w_mm)
        self.height = float(page_h_mm)
        self._target = path_or_buffer
        self._buffer = io.BytesIO()
        self._cmyk = color == "cmyk"
        self.preflight = preflight
        self._c = _RlCanvas(self._buffer, pagesize=(self.width * MM, self.height * MM), invariant=1,
                            initialFontName=FONT,  # type: ignore[arg-type]  # the stubs call it a number
                            initialFontSize=10, pageCompression=1)
        self._c.setTitle(title)
        self._c.setAuthor(author)
        self._c.setSubject(subject)
        self._c.setCreator("hashi_print")
        self._c.setFont(FONT, 10)
        self.pages = 1

    def _y(self, y: float) -> float:
        """Convert a top-down mm coordinate into reportlab's bottom-up points."""
        return (self.height - y) * MM

    def _color(self, color: str) -> Color:
        """Return the reportlab colour for "#rrggbb" in this file's colour model."""
        return cmyk_of(color) if self._cmyk else HexColor(_check_color(color))

    def _mark(self, box: tuple[float, float, float, float], what: str, fill_only: bool = False) -> None:
        """Tell the preflight, if any, where a mark's ink lies."""
        if self.preflight is not None:
            self.preflight.mark(box, what, fill_only)

    def _stroke_style(self, color: str, width: float, dash: tuple[float, ...] | None, cap: str) -> None:
        """Set stroke colour, width, dash pattern and line cap."""
        self._c.setStrokeColor(self._color(color))
        self._c.setLineWidth(width * MM)
        self._c.setDash([d * MM for d in dash] if dash else [])
        self._c.setLineCap({"butt": 0, "round": 1, "square": 2}[cap])

    def _paint(self, stroke: str | None, fill: str | None, width: float) -> tuple[int, int]:
        """Set fill and stroke for a closed shape; return reportlab's (stroke, fill) flags."""
        if stroke is not None:
            self._stroke_style(stroke, width, None, "butt")
            self._c.setLineJoin(0)
        if fill is not None:
            self._c.setFillColor(self._color(fill))
        return int(stroke is not None), int(fill is not None)

    def line(self, x1: float, y1: float, x2: float, y2: float, *, width: float = 0.3, color: str = "#000000",
             dash: tuple[float, ...] | None = None, cap: str = "butt", id: str | None = None) -> None:
        """Draw a straight line, optionally dashed (dash lengths in mm)."""
        self._stroke_style(color, width, dash, cap)
        self._c.line(x1 * MM, self._y(y1), x2 * MM, self._y(y2))
        self._mark(_ink_box(x1, y1, x2, y2, width / 2), f"a line at ({x1:.1f}, {y1:.1f}) mm")

    def circle(self, cx: float, cy: float, r: float, *, stroke: str | None = "#000000",
               fill: str | None = None, width: float = 0.3, id: str | None = None) -> None:
        """Draw a circle."""
        s, f = self._paint(stroke, fill, width)
        if s or f:
            self._c.circle(cx * MM, self._y(cy), r * MM, stroke=s, fill=f)
            pad = r + (width / 2 if s else 0.0)
            self._mark(_ink_box(cx, cy, cx, cy, pad), f"a circle at ({cx:.1f}, {cy:.1f}) mm", not s)

    def rect(self, x: float, y: float, w: float, h: float, *, stroke: str | None = "#000000",
             fill: str | None = None, width: float = 0.3, id: str | None = None) -> None:
        """Draw an axis-aligned rectangle with its top-left corner at (x, y)."""
        s, f = self._paint(stroke, fill, width)
        if s or f:
            self._c.rect(x * MM, self._y(y + h), w * MM, h * MM, stroke=s, fill=f)
            self._mark(_ink_box(x, y, x + w, y + h, width / 2 if s else 0.0),
                       f"a rectangle at ({x:.1f}, {y:.1f}) mm", not s)

    def polygon(self, points: Sequence[Point], *, stroke: str | None = "#000000", fill: str | None = None,
                width: float = 0.3, id: str | None = None) -> None:
        """Draw a closed polygon."""
        s, f = self._paint(stroke, fill, width)
        if not (s or f) or len(points) < 2:
            return
        path = self._c.beginPath()
        path.moveTo(points[0][0] * MM, self._y(points[0][1]))
        for x, y in points[1:]:
            path.lineTo(x * MM, self._y(y))
        path.close()
        self._c.drawPath(path, stroke=s, fill=f)
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        self._mark(_ink_box(min(xs), min(ys), max(xs), max(ys), width / 2 if s else 0.0),
                   f"a shape at ({xs[0]:.1f}, {ys[0]:.1f}) mm", not s)

    def text(self, x: float, y: float, s: str, *, size_pt: float = 10, anchor: str = "start",
             bold: bool = False, color: str = "#000000", id: str | None = None, angle: float = 0,
             mono: bool = False) -> None:
        """Draw one line of text whose baseline is at y, turned `angle` degrees anticlockwise."""
        _check_anchor(anchor)
        font = register(font_for(s, bold, mono))
        self._c.setFont(font, size_pt)
        self._c.setFillColor(self._color(color))
        draw: Callable[[float, float, str], None] = {
            "start": self._c.drawString, "middle": self._c.drawCentredString, "end": self._c.drawRightString,
        }[anchor]
        if bold and font in FAKE_BOLD:
            # A face without a bold cut: fill and outline the glyphs (text render mode 2).
            self._c.setStrokeColor(self._color(color))
            self._c.setLineWidth(size_pt * FAKE_BOLD_STROKE)
            draw = _with_mode(draw, 2)
        if angle:
            self._c.saveState()
            self._c.translate(x * MM, self._y(y))
            self._c.rotate(angle)
            draw(0, 0, s)
            self._c.restoreState()
        else:
            draw(x * MM, self._y(y), s)
        if self.preflight is not None:
            self.preflight.text(x, y, s, size_pt, anchor, bold, font, angle)

    def set_boxes(self, *, trim: tuple[float, float, float, float] | None = None,
                  bleed: tuple[float, float, float, float] | None = None) -> None:
        """Set TrimBox/BleedBox (x, y, w, h in mm, top-left origin) for this page and the next ones."""
        for box, setter in ((trim, self._c.setTrimBox), (bleed, self._c.setBleedBox)):
            if box is not None:
                x, y, w, h = box
                setter([round(x * MM, 3), round(self._y(y + h), 3), round((x + w) * MM, 3),
                        round(self._y(y), 3)])

    def new_page(self) -> None:
        """Finish this page and start the next one of the same size."""
        self._c.showPage()
        self.pages += 1
        if self.preflight is not None:
            self.preflight.new_page()

    @contextmanager
    def group(self, id: str) -> Iterator[None]:
        """Group drawing calls (a no-op in PDF, where ids are not kept)."""
        yield

    def bookmark(self, title: str, level: int = 0) -> None:
        """Add a PDF outline entry (bookmark) for the current page, and open the outline pane."""
        key = f"outline-{self.pages}-{level}-{title}"
        self._c.bookmarkPage(key)
        self._c.addOutlineEntry(title, key, level=level)
        self._c.showOutline()

    def tobytes(self, name: str = "the PDF") -> bytes:
        """Finish the document and return the PDF bytes; with a preflight, raise PrintError if it fails."""
        self._c.showPage()
        self._c.save()
        data = _retag_subsets(self._buffer.getvalue())
        if self.preflight is not None:
            self.preflight.check(name, data)
        return data

    def finish(self, name: str = "the PDF") -> bytes:
        """Finish the document and return the PDF bytes (the Canvas protocol's name for `tobytes`)."""
        return self.tobytes(name)

    def save(self) -> None:
        """Finish the document and write it to the path (atomically) or buffer given at creation."""
        target = self._target
        if target is None:
            raise ValueError("this PdfCanvas was made without a path or buffer: use tobytes()")
        if isinstance(target, (str, Path)):
            write_atomic(target, self.tobytes(Path(target).name))
        else:
            target.write(self.tobytes())


def _num(v: float) -> str:
    """Format a coordinate compactly and deterministically (0.001 mm resolution)."""
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


class SvgCanvas:
    """A one-page Canvas writing SVG with svgwrite; user units are mm and every id is explicit."""

    def __init__(self, page_w_mm: float, page_h_mm: float, *, title: str = "",
                 preflight: Preflight | None = None):
        register_fonts()
        self.preflight = preflight
        self.width = float(page_w_mm)
        self.height = float(page_h_mm)
        self._dwg = svgwrite.Drawing(size=(f"{_num(self.width)}mm", f"{_num(self.height)}mm"),
                                     viewBox=f"0 0 {_num(self.width)} {_num(self.height)}",
                                     profile="full", debug=False)
        if title:
            self._dwg.set_desc(title=title)
        self._stack = [self._dwg]
        self._ids: set[str] = set()
        # The characters drawn in each Korean or Japanese face: the SVG embeds just those glyphs.
        self._embedded: dict[str, set[str]] = {}

    def _add(self, element: Any, id: str | None) -> None:
        """Attach the element to the current group, giving it its id (which must be unique)."""
        if id is not None:
            if id in self._ids:
                raise ValueError(f"SVG id {id!r} used twice")
            self._ids.add(id)
            element["id"] = id
        self._stack[-1].add(element)

    def _mark(self, box: tuple[float, float, float, float], what: str, fill_only: bool) -> None:
        """Tell the preflight, if any, where a mark's ink lies."""
        if self.preflight is not None:
            self.preflight.mark(box, what, fill_only)

    @staticmethod
    def _paint(stroke: str | None, fill: str | None, width: float) -> dict[str, str]:
        """Return SVG presentation attributes for a closed shape."""
        return {"stroke": _check_color(stroke) or "none", "fill": _check_color(fill) or "none",
                "stroke_width": _num(width) if stroke else "0"}

    def line(self, x1: float, y1: float, x2: float, y2: float, *, width: float = 0.3, color: str = "#000000",
             dash: tuple[float, ...] | None = None, cap: str = "butt", id: str | None = None) -> None:
        """Draw a straight line, optionally dashed (dash lengths in mm)."""
        extra = {"stroke_dasharray": ",".join(_num(d) for d in dash)} if dash else {}
        if cap != "butt":
            extra["stroke_linecap"] = cap
        el = self._dwg.line((_num(x1), _num(y1)), (_num(x2), _num(y2)), stroke=_check_color(color),
                            stroke_width=_num(width), **extra)
        self._add(el, id)
        self._mark(_ink_box(x1, y1, x2, y2, width / 2), f"a line at ({x1:.1f}, {y1:.1f}) mm", False)

    def circle(self, cx: float, cy: float, r: float, *, stroke: str | None = "#000000",
               fill: str | None = None, width: float = 0.3, id: str | None = None) -> None:
        """Draw a circle."""
        self._add(self._dwg.circle((_num(cx), _num(cy)), _num(r), **self._paint(stroke, fill, width)), id)
        if stroke or fill:
            pad = r + (width / 2 if stroke else 0.0)
            self._mark(_ink_box(cx, cy, cx, cy, pad), f"a circle at ({cx:.1f}, {cy:.1f}) mm", not stroke)

    def rect(self, x: float, y: float, w: float, h: float, *, stroke: str | None = "#000000",
             fill: str | None = None, width: float = 0.3, id: str | None = None) -> None:
        """Draw an axis-aligned rectangle with its top-left corner at (x, y)."""
        el = self._dwg.rect((_num(x), _num(y)), (_num(w), _num(h)), **self._paint(stroke, fill, width))
        self._add(el, id)
        if stroke or fill:
            self._mark(_ink_box(x, y, x + w, y + h, width / 2 if stroke else 0.0),
                       f"a rectangle at ({x:.1f}, {y:.1f}) mm", not stroke)

    def polygon(self, points: Sequence[Point], *, stroke: str | None = "#000000", fill: str | None = None,
                width: float = 0.3, id: str | None = None) -> None:
        """Draw a closed polygon."""
        pts = [(_num(x), _num(y)) for x, y in points]
        self._add(self._dwg.polygon(pts, **self._paint(stroke, fill, width)), id)
        if (stroke or fill) and points:
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            self._mark(_ink_box(min(xs), min(ys), max(xs), max(ys), width / 2 if stroke else 0.0),
                       f"a shape at ({xs[0]:.1f}, {ys[0]:.1f}) mm", not stroke)

    def text(self, x: float, y: float, s: str, *, size_pt: float = 10, anchor: str = "start",
             bold: bool = False, color: str = "#000000", id: str | None = None, angle: float = 0,
             mono: bool = False) -> None:
        """Draw one line of text whose baseline is at y, turned `angle` degrees anticlockwise."""
        font = font_for(s, bold, mono)
        if font not in LATIN.values():
            self._embedded.setdefault(font, set()).update(s)
        el = self._dwg.text(s, insert=(_num(x), _num(y)), fill=_check_color(color),
                            font_size=_num(size_pt * PT), font_family=svg_family(font),
                            text_anchor=_check_anchor(anchor))
        # Without this, SVG collapses runs of spaces ("written ___  bridges ___") into one.
        el["xml:space"] = "preserve"
        if bold:
            el["font-weight"] = "bold"
        if angle:
            el["transform"] = f"rotate({_num(-angle)} {_num(x)} {_num(y)})"
        self._add(el, id)
        if self.preflight is not None:
            self.preflight.text(x, y, s, size_pt, anchor, bold, font, angle)

    def set_boxes(self, *, trim: tuple[float, float, float, float] | None = None,
                  bleed: tuple[float, float, float, float] | None = None) -> None:
        """Ignore print boxes: SVG has none."""

    def new_page(self) -> None:
        """Refuse: an SVG canvas holds one page."""
        raise ValueError("an SVG canvas holds one page; draw each page on its own SvgCanvas")

    @contextmanager
    def group(self, id: str) -> Iterator[None]:
        """Collect the drawing calls made inside the block in one <g id=...> element."""
        g = self._dwg.g()
        self._add(g, id)
        self._stack.append(g)
        try:
            yield
        finally:
            self._stack.pop()

    def tostring(self, name: str = "the SVG") -> str:
        """Return the SVG document as text; with a preflight, raise PrintError if it fails."""
        if self.preflight is not None:
            self.preflight.check(name)
        if not self._embedded:
            return _svg_document(self._dwg)
        style = self._dwg.style(svg_font_faces({name: "".join(sorted(chars))
                                                for name, chars in self._embedded.items()}))
        self._dwg.defs.add(style)
        try:
            return _svg_document(self._dwg)
        finally:
            self._dwg.defs.elements.remove(style)

    def finish(self, name: str = "the SVG") -> bytes:
        """Return the SVG document as UTF-8 bytes; with a preflight, raise PrintError if it fails."""
        return self.tostring(name).encode("utf-8")

    def save(self, path: str | Path) -> None:
        """Write the SVG document atomically."""
        write_atomic(path, self.tostring(Path(path).name))


def _svg_document(dwg: svgwrite.Drawing) -> str:
    """The SVG text of a drawing, with its XML declaration."""
    body: str = dwg.tostring()
    return '<?xml version="1.0" encoding="utf-8" ?>\n' + body + "\n"


def make_canvas(fmt: str, width_mm: float, height_mm: float, *, title: str = "",
                preflight: Preflight | None = None, color: str = "rgb", ppm: float = 8.0) -> Canvas:
    """A blank page in format `fmt` (pdf, svg or png): draw on it, then `finish()` gives the file's bytes.

    The preflight checks PDF and SVG; `color` is the PDF's colour model; `ppm` the PNG's pixels per mm.
    """
    kind = check_format(fmt, tuple(Format))
    if kind is Format.PDF:
        return PdfCanvas(None, width_mm, height_mm, title=title, color=color, preflight=preflight)
    if kind is Format.SVG:
        return SvgCanvas(width_mm, height_mm, title=title, preflight=preflight)
    # Imported here: the raster canvas builds on this module and brings OpenCV, which PDF and SVG never need.
    from hashi_print.render.raster import RasterCanvas

    return RasterCanvas(width_mm, height_mm, ppm)


def check_format(fmt: str, allowed: Sequence[Format]) -> Format:
    """Return `fmt` as a Format when a product is drawn in it, else raise OptionError naming the others."""
    if fmt not in allowed:
        words = [str(f) for f in allowed]
        raise OptionError(f"unknown format {fmt!r}; use {', '.join(words[:-1])} or {words[-1]}")
    return Format(fmt)


# Japanese (and Chinese) text has no spaces: a line may break between any two of these characters.
_BREAK_ANYWHERE = re.compile("[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff60]")
# Kinsoku: these never start a line (closing marks, small kana, the long-vowel mark) ...
_NO_LINE_START = set("、。，．・：；？！）」』】〕〉》ー…ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ")
# ... and these never end one (opening brackets).
_NO_LINE_END = set("（「『【〔〈《")
# Only these separate words: a no-break space (French "mot\u00a0:") stays inside its word.
_SPACES = re.compile("[ \t\n]+")


# Kana and kanji: Japanese, which breaks between phrases (BudouX) rather than anywhere.
_JAPANESE = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")


@cache
def _japanese_parser() -> budoux.Parser:
    """BudouX's Japanese phrase model (it ships in the package: nothing is downloaded)."""
    import budoux

    return budoux.load_default_japanese_parser()


def _char_pieces(word: str) -> list[str]:
    """Cut a word where a line may break between CJK characters, keeping kinsoku characters glued."""
    pieces: list[str] = []
    for ch in word:
        glued = pieces and not (_BREAK_ANYWHERE.match(ch) or _BREAK_ANYWHERE.match(pieces[-1][-1]))
        if glued or (pieces and (ch in _NO_LINE_START or pieces[-1][-1] in _NO_LINE_END)):
            pieces[-1] += ch
        else:
            pieces.append(ch)
    return pieces


def _phrase_pieces(word: str) -> list[str]:
    """Cut Japanese into phrases (BudouX), so that a line never ends mid-phrase nor starts with 。 or 、."""
    pieces: list[str] = []
    for phrase in _japanese_parser().parse(word):
        if pieces and (phrase[0] in _NO_LINE_START or pieces[-1][-1] in _NO_LINE_END):
            pieces[-1] += phrase
        else:
            pieces.append(phrase)
    return pieces


def break_units(s: str) -> list[tuple[bool, str]]:
    """Split text into the pieces a line may break between, each with whether a space precedes it.

    Japanese breaks between phrases; other CJK text between characters; everything else at spaces.
    """
    units: list[tuple[bool, str]] = []
    for word in _SPACES.split(s.strip()):
        pieces = _phrase_pieces(word) if _JAPANESE.search(word) else _char_pieces(word)
        units += [(k == 0 and bool(units), piece) for k, piece in enumerate(pieces)]
    return [u for u in units if u[1]]


def wrap_text(s: str, size_pt: float, width_mm: float, bold: bool = False) -> list[str]:
    """Break a paragraph into lines no wider than `width_mm` (a single overlong word keeps its own line).

    Words break at spaces; Japanese between phrases (BudouX), keeping punctuation off a line's start.
    """
    lines: list[str] = []
    current = ""
    units: list[tuple[bool, str]] = []
    for spaced, piece in break_units(s):
        # A phrase wider than the line (a long compound) is cut between characters after all.
        if _JAPANESE.search(piece) and text_width(piece, size_pt, bold) > width_mm:
            units += [(spaced and k == 0, p) for k, p in enumerate(_char_pieces(piece))]
        else:
            units.append((spaced, piece))
    for spaced, piece in units:
        trial = (f"{current} {piece}" if spaced else current + piece) if current else piece
        if current and text_width(trial, size_pt, bold) > width_mm:
            lines.append(current)
            current = piece
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


def draw_paragraph(cv: Canvas, x: float, y: float, s: str, width_mm: float, *, size_pt: float = 10,
                   leading: float = 1.3, bold: bool = False, color: str = "#000000") -> float:
    """Draw a wrapped paragraph with its first baseline at y; return the baseline after its last line."""
    step = size_pt * PT * leading
    for line in wrap_text(s, size_pt, width_mm, bold):
        cv.text(x, y, line, size_pt=size_pt, bold=bold, color=color)
        y += step
    return y


def draw_lead_paragraph(cv: Canvas, x: float, y: float, lead: str, rest: str, width_mm: float, *,
                        size_pt: float = 10, leading: float = 1.3) -> float:
    """Draw a wrapped paragraph that starts with a bold lead-in; return the baseline after its last line."""
    step = size_pt * PT * leading
    lead_w = text_width(lead + " ", size_pt, bold=True)
    for k, line in enumerate(wrap_text(f"{lead} {rest}", size_pt, width_mm)):
        if k == 0 and line.startswith(lead):
            cv.text(x, y, lead, size_pt=size_pt, bold=True)
            cv.text(x + lead_w, y, line[len(lead):].lstrip(), size_pt=size_pt)
        else:
            cv.text(x, y, line, size_pt=size_pt)
        y += step
    return y


def fit_text(s: str, width_mm: float, size_pt: float, min_pt: float, *, bold: bool = False,
             max_lines: int = 1) -> tuple[float, list[str]]:
    """Fit a label into `width_mm`: the largest size down to `min_pt` (quarter points) on one line, then on
    up to `max_lines` lines; return the size and the lines (at `min_pt`, wrapped as far as it must be)."""
    sizes = [size_pt]
    while sizes[-1] - 0.25 >= min_pt - 1e-9:
        sizes.append(round(sizes[-1] - 0.25, 2))
    for count in range(1, max_lines + 1):
        for size in sizes:
            if text_width(s, size, bold) <= width_mm:
                return size, [s]
            lines = wrap_text(s, size, width_mm, bold)
            if len(lines) <= count and all(text_width(line, size, bold) <= width_mm for line in lines):
                return size, lines
    return sizes[-1], wrap_text(s, sizes[-1], width_mm, bold)


def draw_fitted(cv: Canvas, x: float, y: float, s: str, width_mm: float, *, size_pt: float, min_pt: float,
                max_lines: int = 1, leading: float = 1.15, **style: Any) -> tuple[float, int]:
    """Draw a label fitted by `fit_text` with its first baseline at y; return the size and line count."""
    size, lines = fit_text(s, width_mm, size_pt, min_pt, bold=style.get("bold", False), max_lines=max_lines)
    first_id = style.pop("id", None)
    for k, line in enumerate(lines):
        line_id = first_id if k == 0 or first_id is None else f"{first_id}-{k + 1}"
        cv.text(x, y + k * size * PT * leading, line, size_pt=size, id=line_id, **style)
    return size, len(lines)
