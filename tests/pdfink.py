"""Where the ink of a PDF page lies, read from its content stream alone (for the print-rule tests).

Text boxes come from the font's own /Widths and /FontDescriptor in the file; path boxes from the path
points with half the line width around them. Nothing here uses the drawing code's numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pypdf import PdfReader
from pypdf.generic import ContentStream

MM = 25.4 / 72


@dataclass(frozen=True)
class Glyphs:
    """One shown string: text, size in points, font, and box (left, top, right, bottom) in mm."""

    text: str
    size: float
    font: str
    box: tuple[float, float, float, float]
    fill: tuple


@dataclass(frozen=True)
class Ink:
    """One painted path: its box in mm from the top-left, whether stroked/filled, and its colours."""

    box: tuple[float, float, float, float]
    stroked: bool
    filled: bool
    stroke: tuple
    fill: tuple


def _mul(a, b):
    """Multiply two PDF matrices [a b c d e f]."""
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def _apply(m, x, y):
    """Transform a point by a matrix."""
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


class _Font:
    """Widths and vertical extent of one font, from the PDF's font dictionary."""

    def __init__(self, font):
        font = font.get_object()
        self.name = str(font.get("/BaseFont", "?"))
        self.first = int(font.get("/FirstChar", 0))
        self.widths = [float(w) for w in font.get("/Widths", [])]
        desc = font.get("/FontDescriptor")
        desc = desc.get_object() if desc is not None else {}
        self.ascent = float(desc.get("/Ascent", 1000))
        self.descent = float(desc.get("/Descent", -250))

    def width(self, codes: bytes) -> float:
        """Width of a string of one-byte codes in text space units per 1 pt of size (/1000)."""
        total = 0.0
        for c in codes:
            k = c - self.first
            total += self.widths[k] if 0 <= k < len(self.widths) else 1000.0
        return total / 1000


def page_ink(reader: PdfReader, index: int) -> tuple[list[Glyphs], list[Ink]]:
    """Read every shown string and painted path of a page."""
    page = reader.pages[index]
    fonts = {name: _Font(f) for name, f in page["/Resources"].get("/Font", {}).items()}
    state = _PageState(float(page.mediabox.height), fonts)
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        op = op.decode() if isinstance(op, bytes) else op
        handler = _HANDLERS.get(op)
        if handler is not None:
            handler(state, op, operands)
    return state.glyphs, state.inks


class _PageState:
    """The graphics and text state while a content stream is read, and what it has drawn so far."""

    def __init__(self, height: float, fonts: dict):
        self.height = height
        self.fonts = fonts
        self.ctm = [1, 0, 0, 1, 0, 0]
        self.stack: list = []
        self.lw, self.stroke, self.fill = 1.0, (0.0,), (0.0,)
        self.tm = self.tlm = [1, 0, 0, 1, 0, 0]
        self.font, self.size, self.leading = None, 0.0, 0.0
        self.path: list[tuple[float, float]] = []
        self.glyphs: list[Glyphs] = []
        self.inks: list[Ink] = []

    def to_mm(self, x, y):
        """Device points to (x mm, y mm from the top)."""
        return x * MM, (self.height - y) * MM

    def box_of(self, points, pad):
        """Bounding box in mm, grown by pad points."""
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        left, top = self.to_mm(min(xs) - pad, max(ys) + pad)
        right, bottom = self.to_mm(max(xs) + pad, min(ys) - pad)
        return left, top, right, bottom

    def graphics(self, op, operands):
        """q Q cm w and the colour operators."""
        if op == "q":
            self.stack.append((self.ctm, self.lw, self.stroke, self.fill))
        elif op == "Q":
            self.ctm, self.lw, self.stroke, self.fill = self.stack.pop()
        elif op == "cm":
            self.ctm = _mul([float(v) for v in operands], self.ctm)
        elif op == "w":
            self.lw = float(operands[0])
        elif op in ("rg", "k", "g"):
            self.fill = (op, *[round(float(v), 4) for v in operands])
        else:
            self.stroke = (op, *[round(float(v), 4) for v in operands])

    def path_point(self, op, operands):
        """m l c v y re: points of the path being built, in device space."""
        vals = [float(v) for v in operands]
        if op in ("m", "l"):
            self.path.append(_apply(self.ctm, vals[0], vals[1]))
        elif op == "c":
            self.path += [_apply(self.ctm, vals[i], vals[i + 1]) for i in (0, 2, 4)]
        elif op in ("v", "y"):
            self.path += [_apply(self.ctm, vals[i], vals[i + 1]) for i in (0, 2)]
        else:
            x, y, w, h = vals
            self.path += [_apply(self.ctm, x, y), _apply(self.ctm, x + w, y + h), _apply(self.ctm, x + w, y),
                          _apply(self.ctm, x, y + h)]

    def paint(self, op, operands):
        """The painting operators: the path becomes one Ink (n paints nothing)."""
        if self.path and op != "n":
            stroked = op in ("S", "s", "B", "B*", "b", "b*")
            ctm = self.ctm
            scale = math.sqrt(abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]))
            self.inks.append(Ink(self.box_of(self.path, self.lw * scale / 2 if stroked else 0.0), stroked,
                                 op not in ("S", "s"), self.stroke, self.fill))
        self.path = []

    def text_state(self, op, operands):
        """BT Tf TL Tm Td TD T*: the text font, size, leading and matrices."""
        if op == "BT":
            self.tm = self.tlm = [1, 0, 0, 1, 0, 0]
        elif op == "Tf":
            self.font, self.size = self.fonts.get(operands[0]), float(operands[1])
        elif op == "TL":
            self.leading = float(operands[0])
        elif op == "Tm":
            self.tm = self.tlm = [float(v) for v in operands]
        elif op in ("Td", "TD"):
            self.tlm = _mul([1, 0, 0, 1, float(operands[0]), float(operands[1])], self.tlm)
            self.tm = self.tlm
        else:
            self.tlm = _mul([1, 0, 0, 1, 0, -self.leading], self.tlm)
            self.tm = self.tlm

    def show(self, op, operands):
        """Tj TJ ': one shown string becomes one Glyphs, and the text matrix moves past it."""
        parts = operands[0] if op == "TJ" else [operands[0]]
        codes = b"".join(bytes(p.original_bytes if hasattr(p, "original_bytes") else p)
                         for p in parts if not isinstance(p, (int, float)))
        m = _mul(self.tm, self.ctm)
        size, font = self.size, self.font
        advance = font.width(codes) * size
        corners = [_apply(m, x, y * size / 1000) for x in (0, advance) for y in (font.descent, font.ascent)]
        text = codes.decode("latin-1")
        self.glyphs.append(Glyphs(text, size * math.sqrt(m[0] ** 2 + m[1] ** 2), font.name,
                                  self.box_of(corners, 0.0), self.fill))
        self.tm = _mul([1, 0, 0, 1, advance, 0], self.tm)


_HANDLERS = {
    **dict.fromkeys(("q", "Q", "cm", "w", "rg", "k", "g", "RG", "K", "G"), _PageState.graphics),
    **dict.fromkeys(("m", "l", "c", "v", "y", "re"), _PageState.path_point),
    **dict.fromkeys(("S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n"), _PageState.paint),
    **dict.fromkeys(("BT", "Tf", "TL", "Tm", "Td", "TD", "T*"), _PageState.text_state),
    **dict.fromkeys(("Tj", "TJ", "'"), _PageState.show),
}


def edge_gaps(box, page_w: float, page_h: float) -> tuple[float, float, float, float]:
    """Distances in mm from a box to the top, right, bottom and left edges of the page."""
    left, top, right, bottom = box
    return top, page_w - right, page_h - bottom, left


def page_size_mm(reader: PdfReader, index: int = 0) -> tuple[float, float]:
    """The page's media box in mm."""
    box = reader.pages[index].mediabox
    return float(box.width) * MM, float(box.height) * MM
