"""Preflight: the rules a print file keeps (smallest text, safe area, embedded fonts), checked as it is drawn.

A canvas given a `Preflight` reports every glyph and mark to it; the file is written only when
`problems()` is empty, so a file that breaks a rule never reaches the disk.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass

from reportlab.pdfbase import pdfmetrics

from hashi_print.errors import LayoutError

PT = 25.4 / 72.0
INCH = 25.4
# Home printers cannot print the last few millimetres of a sheet; 5 mm is safe on every common model.
HOME_SAFE_MM = 5.0
HOME_MIN_TEXT_PT = 6.0
KDP_MIN_TEXT_PT = 7.0
# A print shop trims within about 3 mm of the cut line: keep marks and text this far inside the trim.
SHOP_SAFE_MM = 3.0
# Problems named in one error message; the rest are counted.
SHOWN = 5


class PrintError(LayoutError):
    """A print file breaks a rule of its print profile; the message says what and where."""


@dataclass(frozen=True)
class Insets:
    """Distances in mm from the page's edges that glyphs and marks must keep."""

    top: float
    right: float
    bottom: float
    left: float


@dataclass(frozen=True)
class PrintRules:
    """The limits of one kind of print file: who sets them, the smallest text, and the safe area per page."""

    name: str
    min_text_pt: float
    safe: Callable[[int], Insets]
    # Backgrounds (fill-only shapes) may run to the page edge: into the bleed of a print-shop file.
    fills_may_bleed: bool = False
    # Areas no glyph or line may touch, with their names (a cover's spine folds, its barcode box).
    keep_out: tuple[tuple[tuple[float, float, float, float], str], ...] = ()


def uniform(name: str, min_text_pt: float, inset: float, fills_may_bleed: bool = False) -> PrintRules:
    """Rules with the same safe distance on every edge of every page."""
    insets = Insets(inset, inset, inset, inset)
    return PrintRules(name, min_text_pt, lambda page: insets, fills_may_bleed)


def home_print() -> PrintRules:
    """Rules of a sheet printed at home: text of 6 pt or more, nothing within 5 mm of the paper's edge."""
    return uniform("home printing", HOME_MIN_TEXT_PT, HOME_SAFE_MM)


def home_sheet(page_w: float, page_h: float) -> Preflight:
    """A preflight for a page printed at home at 100 %."""
    return Preflight(home_print(), page_w, page_h)


def glyph_box(x: float, y: float, s: str, size_pt: float, anchor: str, bold: bool, font: str,
              angle: float = 0.0) -> tuple[float, float, float, float]:
    """Return (left, top, right, bottom) in mm of a line of text drawn at baseline (x, y), y downwards."""
    # Every reportlab font has a face (Type 1 and TrueType alike); types-reportlab leaves it out of Font.
    face = pdfmetrics.getFont(font).face  # type: ignore[attr-defined]
    width = pdfmetrics.stringWidth(s, font, size_pt) * PT
    ascent, descent = face.ascent * size_pt / 1000 * PT, -face.descent * size_pt / 1000 * PT
    start = {"start": 0.0, "middle": -width / 2, "end": -width}[anchor]
    if angle % 360 == 0:
        return x + start, y - ascent, x + start + width, y + descent
    if angle % 360 == 180:
        # Upside down (a card's turned corner index): the text runs leftwards, its tops downwards.
        return x - start - width, y - descent, x - start, y + ascent
    if angle % 360 == 90:
        # Turned a quarter anticlockwise: the text runs up the page, its tops to the left.
        return x - ascent, y - start - width, x + descent, y - start
    if angle % 360 == 270:
        return x - descent, y + start, x + ascent, y + start + width
    raise ValueError(f"text angle {angle}: use 0, 90, 180 or 270")


class Preflight:
    """Collects what breaks the rules while a file is drawn, page by page, in page millimetres."""

    def __init__(self, rules: PrintRules, page_w: float, page_h: float):
        self.rules = rules
        self.page_w, self.page_h = page_w, page_h
        self.page = 1
        self._problems: list[str] = []

    def new_page(self) -> None:
        """Move on to the next page."""
        self.page += 1

    def text(self, x: float, y: float, s: str, size_pt: float, anchor: str, bold: bool, font: str,
             angle: float = 0.0) -> None:
        """Check one line of text: its size and where its glyphs reach."""
        if not s.strip():
            return
        shown = s if len(s) <= 24 else s[:22] + "…"
        if size_pt < self.rules.min_text_pt - 1e-6:
            self._problems.append(f"page {self.page}: the text {shown!r} is set at {size_pt:.2g} pt; "
                                  f"{self.rules.name} needs at least {self.rules.min_text_pt:g} pt")
        box = glyph_box(x, y, s, size_pt, anchor, bold, font, angle)
        self._inside(box, f"the text {shown!r}")
        self._clear_of(box, f"the text {shown!r}")

    def mark(self, box: tuple[float, float, float, float], what: str, fill_only: bool = False) -> None:
        """Check a line or shape whose ink covers `box` (left, top, right, bottom)."""
        if fill_only and self.rules.fills_may_bleed:
            self._inside(box, what, Insets(0.0, 0.0, 0.0, 0.0), "the page")
        else:
            self._inside(box, what)
            self._clear_of(box, what)

    def _clear_of(self, box: tuple[float, float, float, float], what: str) -> None:
        """Record a problem when the box touches an area that must stay clear."""
        left, top, right, bottom = box
        for (x0, y0, x1, y1), name in self.rules.keep_out:
            if left < x1 and right > x0 and top < y1 and bottom > y0:
                self._problems.append(f"page {self.page}: {what} reaches into {name}")

    def _inside(self, box: tuple[float, float, float, float], what: str, insets: Insets | None = None,
                area: str | None = None) -> None:
        """Record a problem for each page edge the box comes closer to than the safe area allows."""
        safe = insets or self.rules.safe(self.page)
        left, top, right, bottom = box
        gaps = (("top", top, safe.top), ("bottom", self.page_h - bottom, safe.bottom),
                ("left", left, safe.left), ("right", self.page_w - right, safe.right))
        for edge, gap, need in gaps:
            if gap < need - 0.005:
                rule = area or self.rules.name
                self._problems.append(f"page {self.page}: {what} reaches {max(gap, 0):.2f} mm from the "
                                      f"{edge} edge; {rule} needs at least {need:.2f} mm")
                return

    def problems(self) -> list[str]:
        """Return every problem found so far, in drawing order."""
        return list(self._problems)

    def check(self, name: str, pdf: bytes | None = None) -> None:
        """Raise PrintError naming the file and its first problems, including fonts, if there are any."""
        found = self.problems() + (font_problems(pdf) if pdf is not None else [])
        if found:
            more = f" (and {len(found) - SHOWN} more)" if len(found) > SHOWN else ""
            raise PrintError(f"{name} was not written: " + "; ".join(found[:SHOWN]) + more)


_TAG = re.compile(r"^([A-Z]{6})\+")


def font_problems(pdf: bytes) -> list[str]:
    """Name every font of a PDF that is not embedded, and subset tags shared by different fonts."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf))
    problems: list[str] = []
    tags: dict[str, str] = {}
    seen: set[int] = set()
    for number, page in enumerate(reader.pages, 1):
        fonts = page.get("/Resources", {}).get("/Font", {})
        for ref in fonts.values():
            if getattr(ref, "idnum", None) in seen:
                continue
            seen.add(getattr(ref, "idnum", -1))
            font = ref.get_object()
            name = str(font.get("/BaseFont", "?")).lstrip("/")
            descendants = font.get("/DescendantFonts")
            descriptor = (descendants[0].get_object() if descendants else font).get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            if not any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                problems.append(f"page {number}: the font {name} is not embedded")
            tag = _TAG.match(name)
            if tag and tags.setdefault(tag.group(1), name) != name:
                problems.append(f"page {number}: the fonts {tags[tag.group(1)]} and {name} share the "
                                f"subset tag {tag.group(1)}")
    return problems
