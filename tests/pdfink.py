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
    height = float(page.mediabox.height)
    fonts = {name: _Font(f) for name, f in page["/Resources"].get("/Font", {}).items()}
    content = ContentStream(page.get_contents(), reader)
    ctm = [1, 0, 0, 1, 0, 0]
    stack = []
    lw, stroke, fill = 1.0, (0.0,), (0.0,)
    tm = tlm = [1, 0, 0, 1, 0, 0]
    font, size, leading = None, 0.0, 0.0
    path: list[tuple[float, float]] = []
    glyphs: list[Glyphs] = []
    inks: list[Ink] = []

    def to_mm(x, y):
        """Device points to (x mm, y mm from the top)."""
        return x * MM, (height - y) * MM

    def box_of(points, pad):
        """Bounding box in mm, grown by pad points."""
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        left, top = to_mm(min(xs) - pad, max(ys) + pad)
        right, bottom = to_mm(max(xs) + pad, min(ys) - pad)
        return left, top, right, bottom

    for operands, op in content.operations:
        op = op.decode() if isinstance(op, bytes) else op
        if op == "q":
            stack.append((ctm, lw, stroke, fill))
        elif op == "Q":
            ctm, lw, stroke, fill = stack.pop()
        elif op == "cm":
            ctm = _mul([float(v) for v in operands], ctm)
        elif op == "w":
            lw = float(operands[0])
        elif op in ("rg", "k", "g"):
            fill = (op, *[round(float(v), 4) for v in operands])
        elif op in ("RG", "K", "G"):
            stroke = (op, *[round(float(v), 4) for v in operands])
        elif op == "m" or op == "l":
            path.append(_apply(ctm, float(operands[0]), float(operands[1])))
        elif op == "c":
            vals = [float(v) for v in operands]
            path += [_apply(ctm, vals[i], vals[i + 1]) for i in (0, 2, 4)]
        elif op in ("v", "y"):
            vals = [float(v) for v in operands]
            path += [_apply(ctm, vals[i], vals[i + 1]) for i in (0, 2)]
        elif op == "re":
            x, y, w, h = (float(v) for v in operands)
            path += [_apply(ctm, x, y), _apply(ctm, x + w, y + h), _apply(ctm, x + w, y),
                     _apply(ctm, x, y + h)]
        elif op in ("S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n"):
            if path and op != "n":
                stroked = op in ("S", "s", "B", "B*", "b", "b*")
                scale = math.sqrt(abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]))
                inks.append(Ink(box_of(path, lw * scale / 2 if stroked else 0.0), stroked,
                                op not in ("S", "s"), stroke, fill))
            path = []
        elif op == "BT":
            tm = tlm = [1, 0, 0, 1, 0, 0]
        elif op == "Tf":
            font, size = fonts.get(operands[0]), float(operands[1])
        elif op == "TL":
            leading = float(operands[0])
        elif op == "Tm":
            tm = tlm = [float(v) for v in operands]
        elif op in ("Td", "TD"):
            tlm = _mul([1, 0, 0, 1, float(operands[0]), float(operands[1])], tlm)
            tm = tlm
        elif op == "T*":
            tlm = _mul([1, 0, 0, 1, 0, -leading], tlm)
            tm = tlm
        elif op in ("Tj", "TJ", "'"):
            parts = operands[0] if op == "TJ" else [operands[0]]
            codes = b"".join(bytes(p.original_bytes if hasattr(p, "original_bytes") else p)
                             for p in parts if not isinstance(p, (int, float)))
            m = _mul(tm, ctm)
            advance = font.width(codes) * size
            corners = [_apply(m, x, y * size / 1000) for x in (0, advance)
                       for y in (font.descent, font.ascent)]
            text = codes.decode("latin-1")
            glyphs.append(Glyphs(text, size * math.sqrt(m[0] ** 2 + m[1] ** 2), font.name,
                                 box_of(corners, 0.0), fill))
            tm = _mul([1, 0, 0, 1, advance, 0], tm)
    return glyphs, inks


def edge_gaps(box, page_w: float, page_h: float) -> tuple[float, float, float, float]:
    """Distances in mm from a box to the top, right, bottom and left edges of the page."""
    left, top, right, bottom = box
    return top, page_w - right, page_h - bottom, left


def page_size_mm(reader: PdfReader, index: int = 0) -> tuple[float, float]:
    """The page's media box in mm."""
    box = reader.pages[index].mediabox
    return float(box.width) * MM, float(box.height) * MM
