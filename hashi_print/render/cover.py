"""A KDP paperback cover: back, spine and front on one sheet with 0.125 in bleed, sized from the page count.

KDP's published rules (Create a Paperback Cover): bleed of 0.125 in on the outer edges; spine width
is the page count times the paper's thickness per page (white 0.002252 in, cream 0.0025 in); spine
text only for books of at least 79 pages, kept 0.0625 in from each spine edge; text at least
0.125 in inside the trim; a 2 x 1.2 in barcode area at the foot of the back cover kept clear.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from hashi_print.errors import OptionError
from hashi_print.i18n import _, language, ngettext
from hashi_print.puzzle.book import BookPuzzle
from hashi_print.render.book import BookOptions, grade_mix, size_mix
from hashi_print.render.book_plan import trim_size
from hashi_print.render.canvas import PT, Canvas, PdfCanvas, text_width, wrap_text
from hashi_print.render.paper import BLUE, INK, PAPER_THICKNESS_IN, PAPER_TYPES
from hashi_print.render.preflight import KDP_MIN_TEXT_PT, Insets, Preflight, PrintRules
from hashi_print.render.puzzle import PICTURE_STYLE, draw_puzzle
from hashi_print.sheets.paper import INCH

BLEED = 0.125 * INCH
SAFE = 0.125 * INCH
SPINE_TEXT_MIN_PAGES = 79
SPINE_MARGIN = 0.0625 * INCH
BARCODE_W, BARCODE_H = 2.0 * INCH, 1.2 * INCH
# KDP places the barcode 0.25 in from the spine fold and from the bottom trim of the back cover.
BARCODE_INSET = 0.25 * INCH
WHITE = "#ffffff"
PALE = "#dbe7f5"
AMBER = "#f2a007"
NAVY = "#14213d"
CREAM = "#f6f1e4"
BRICK = "#c8431a"
SPINE_PT = 10.0
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class CoverStyle:
    """One cover design: background, the colours of title, text and small print, and of the art (a large
    solved puzzle of the book, its bridges in a second colour), on a panel or straight on the background."""

    background: str
    title: str
    text: str
    soft: str
    panel: str | None
    bridge: str
    # The art's share of the front's width.
    art: float


COVER_STYLES = {
    # The game's blue, the solved grid on a white panel with amber bridges.
    "classic": CoverStyle(BLUE, WHITE, WHITE, PALE, WHITE, AMBER, 0.74),
    # A night-blue cover: white islands and amber bridges straight on the background, as large as fits.
    "night": CoverStyle(NAVY, WHITE, WHITE, PALE, None, AMBER, 0.86),
    # Cream paper: blue title, black islands and brick-red bridges.
    "paper": CoverStyle(CREAM, BLUE, INK, INK, None, BRICK, 0.8),
}
DEFAULT_COVER_STYLE = "classic"


@dataclass(frozen=True)
class CoverGeometry:
    """Where the panels of a flat cover lie, in mm from the top-left corner of the sheet with bleed."""

    trim_w: float
    trim_h: float
    spine: float

    @property
    def width(self) -> float:
        """The sheet's width: bleed, back, spine, front, bleed."""
        return 2 * BLEED + 2 * self.trim_w + self.spine

    @property
    def height(self) -> float:
        """The sheet's height: bleed, trim height, bleed."""
        return 2 * BLEED + self.trim_h

    @property
    def back(self) -> Box:
        """The back cover's trimmed panel (x, y, w, h)."""
        return BLEED, BLEED, self.trim_w, self.trim_h

    @property
    def spine_box(self) -> Box:
        """The spine between its two folds (x, y, w, h)."""
        return BLEED + self.trim_w, BLEED, self.spine, self.trim_h

    @property
    def front(self) -> Box:
        """The front cover's trimmed panel (x, y, w, h)."""
        return BLEED + self.trim_w + self.spine, BLEED, self.trim_w, self.trim_h

    @property
    def barcode(self) -> tuple[float, float, float, float]:
        """The barcode area on the back cover as (left, top, right, bottom)."""
        right = BLEED + self.trim_w - BARCODE_INSET
        bottom = BLEED + self.trim_h - BARCODE_INSET
        return right - BARCODE_W, bottom - BARCODE_H, right, bottom


def spine_width(pages: int, paper: str) -> float:
    """Return the spine width in mm of a paperback of `pages` pages on white or cream paper."""
    if paper not in PAPER_THICKNESS_IN:
        raise OptionError(f"paper {paper!r}: use {' or '.join(PAPER_TYPES)}")
    return pages * PAPER_THICKNESS_IN[paper] * INCH


def cover_geometry(trim: str, pages: int, paper: str) -> CoverGeometry:
    """Lay out a cover for a trim, page count and paper."""
    w, h = trim_size(trim)
    return CoverGeometry(w, h, spine_width(pages, paper))


def spine_text_size(geo: CoverGeometry, pages: int, text: str) -> float | None:
    """Return the spine text size in points, or None where KDP allows no spine text or it does not fit."""
    if pages < SPINE_TEXT_MIN_PAGES:
        return None
    room = geo.spine - 2 * SPINE_MARGIN
    # The text's height across the spine is about its ascent plus descent: one em of Vera Sans.
    size = min(SPINE_PT, 0.95 * room / PT)
    if size < KDP_MIN_TEXT_PT:
        return None
    while size >= KDP_MIN_TEXT_PT and text_width(text, size, bold=True) > geo.trim_h - 2 * SAFE - 20:
        size -= 0.5
    return size if size >= KDP_MIN_TEXT_PT else None


def cover_rules(geo: CoverGeometry) -> PrintRules:
    """KDP's cover rules as a preflight: safe area inside the trim, folds and barcode area kept clear."""
    inset = BLEED + SAFE
    sx, _, sw, _ = geo.spine_box
    folds = tuple(((x - SPINE_MARGIN, 0.0, x + SPINE_MARGIN, geo.height), f"the spine fold at {x:.1f} mm")
                  for x in (sx, sx + sw))
    return PrintRules("a KDP cover", KDP_MIN_TEXT_PT, lambda page: Insets(inset, inset, inset, inset),
                      fills_may_bleed=True, keep_out=(*folds, (geo.barcode, "the barcode area")))


def _centred_lines(cv: Canvas, cx: float, y: float, lines: Sequence[str], size: float, bold: bool,
                   color: str) -> float:
    """Draw lines centred on cx from baseline y; return the baseline after the last."""
    for line in lines:
        cv.text(cx, y, line, size_pt=size, anchor="middle", bold=bold, color=color)
        y += size * PT * 1.25
    return y


def cover_art(puzzles: Sequence[BookPuzzle]) -> BookPuzzle:
    """The puzzle the front shows solved: the book's largest grid, the one with most islands among those."""
    return max(puzzles, key=lambda bp: (bp.puzzle.cols * bp.puzzle.rows, len(bp.puzzle.islands)))


def _draw_art(cv: Canvas, style: CoverStyle, bp: BookPuzzle, cx: float, top: float, side: float) -> float:
    """Draw a solved puzzle centred on cx from `top`, at most `side` mm wide and tall; return its bottom."""
    cell = side / max(bp.puzzle.cols, bp.puzzle.rows)
    gw, gh = bp.puzzle.cols * cell, bp.puzzle.rows * cell
    x = cx - gw / 2
    if style.panel is not None:
        cv.rect(x - 5, top - 5, gw + 10, gh + 10, stroke=None, fill=style.panel)
    grid = replace(PICTURE_STYLE, bridge=style.bridge, bold_bridges=True)
    draw_puzzle(cv, bp.puzzle, x, top, cell, solution=bp.solution, style=grid)
    return top + gh


def _draw_front(cv: Canvas, geo: CoverGeometry, options: BookOptions, puzzles: Sequence[BookPuzzle],
                style: CoverStyle) -> None:
    """The front: the title large, what is inside, a large solved puzzle of the book, and the author."""
    x, y, w, h = geo.front
    cx, inner = x + w / 2, w - 2 * SAFE - 8
    size = 40.0
    words = options.title.split() or [""]
    while size > 20 and max(text_width(word, size, bold=True) for word in words) > inner:
        size -= 1
    lines = wrap_text(options.title, size, inner, bold=True)[:3]
    yy = _centred_lines(cv, cx, y + SAFE + 12 + size * PT, lines, size, True, style.title)
    cv.line(cx - 14, yy - size * PT * 0.45, cx + 14, yy - size * PT * 0.45, width=0.6, color=style.bridge)
    count = len(puzzles)
    what = ngettext("{count} bridge-building logic puzzle", "{count} bridge-building logic puzzles", count)
    yy = _centred_lines(cv, cx, yy + 5, [what.format(count=count)], 15, False, style.text)
    yy = _centred_lines(cv, cx, yy + 0.5, [grade_mix(puzzles)], 11, False, style.soft)
    author_y = y + h - SAFE - 10
    room = author_y - 16 - (yy + 6)
    side = min(inner, w * style.art, room)
    art = cover_art(puzzles)
    ratio = max(art.puzzle.cols, art.puzzle.rows)
    top = yy + 6 + (room - side * art.puzzle.rows / ratio) / 2
    _draw_art(cv, style, art, cx, top, side)
    if options.author:
        _centred_lines(cv, cx, author_y, [options.author], 16, False, style.title)


def back_text(options: BookOptions, puzzles: Sequence[BookPuzzle]) -> list[str]:
    """The paragraphs of the back cover, in the language of the block it runs in."""
    count = len(puzzles)
    sizes = size_mix(puzzles)
    return [
        _("{count} Hashiwokakero puzzles: join the islands with bridges so that each island has as many "
          "bridges as its number says, the bridges never cross, and every island is connected.").format(
            count=count),
        _("{sizes}. Inside: {grades}. Every puzzle has exactly one solution, proven by a computer, and can "
          "be solved by logic alone.").format(sizes=sizes[:1].upper() + sizes[1:], grades=grade_mix(puzzles)),
        _("The rules and a worked example are inside; under each puzzle is the page of its solution."),
    ]


def _draw_back(cv: Canvas, geo: CoverGeometry, options: BookOptions, puzzles: Sequence[BookPuzzle],
               style: CoverStyle) -> None:
    """The back: a few paragraphs about the book, and one of its puzzles to try, clear of the barcode."""
    x, y, w, h = geo.back
    left, width = x + SAFE + 6, w - 2 * SAFE - 12
    yy = y + SAFE + 22
    cv.text(left, yy, options.title, size_pt=18, bold=True, color=style.title)
    yy += 12
    for para in back_text(options, puzzles):
        for line in wrap_text(para, 11, width):
            cv.text(left, yy, line, size_pt=11, color=style.text)
            yy += 11 * PT * 1.45
        yy += 4
    if options.isbn:
        cv.text(left, geo.barcode[1] - 6, f"ISBN {options.isbn}", size_pt=9, color=style.soft)
    # One puzzle to try, left of the barcode area and below the text.
    sample = min(puzzles, key=lambda bp: (bp.puzzle.cols * bp.puzzle.rows, -len(bp.puzzle.islands)))
    side = min(geo.barcode[0] - 12 - left, geo.barcode[1] - 16 - (yy + 12), 70.0)
    if side >= 30:
        top = geo.barcode[1] - 16 - side
        cell = side / max(sample.puzzle.cols, sample.puzzle.rows)
        cv.rect(left - 3, top - 3, sample.puzzle.cols * cell + 6, sample.puzzle.rows * cell + 6, stroke=None,
                fill=WHITE)
        draw_puzzle(cv, sample.puzzle, left, top, cell, style=replace(PICTURE_STYLE, bold_digits=False))
        cv.text(left, top - 6, _("Try one from the book:"), size_pt=10, bold=True, color=style.text)


def _draw_spine(cv: Canvas, geo: CoverGeometry, options: BookOptions, pages: int, color: str) -> bool:
    """Draw the spine text (top to bottom) where KDP allows it and it fits; return whether it was drawn."""
    text = " · ".join(p for p in (options.title, options.author) if p)
    size = spine_text_size(geo, pages, text)
    if size is None:
        return False
    sx, sy, sw, sh = geo.spine_box
    # Turned clockwise, the glyphs' tops face the front cover: centre the line across the spine.
    cv.text(sx + sw / 2 - 0.26 * size * PT, sy + sh / 2, text, size_pt=size, anchor="middle", bold=True,
            color=color, angle=270)
    return True


def render_cover(puzzles: Sequence[BookPuzzle], options: BookOptions, pages: int,
                 paper: str) -> tuple[bytes, str]:
    """Draw and preflight the cover of a `pages`-page book in the book's language; return the PDF and a
    line describing it."""
    if options.profile != "kdp":
        raise OptionError("--cover makes a KDP paperback cover: use it with --profile kdp")
    if options.cover_style not in COVER_STYLES:
        raise OptionError(f"--cover-style {options.cover_style!r}: use {', '.join(COVER_STYLES)}")
    style = COVER_STYLES[options.cover_style]
    geo = cover_geometry(options.trim, pages, paper)
    preflight = Preflight(cover_rules(geo), geo.width, geo.height)
    with language(options.lang):
        cv = PdfCanvas(None, geo.width, geo.height, title=_("{title} (cover)").format(title=options.title),
                       author=options.author, color=options.color, preflight=preflight)
        cv.set_boxes(trim=(BLEED, BLEED, geo.width - 2 * BLEED, geo.trim_h),
                     bleed=(0, 0, geo.width, geo.height))
        cv.rect(0, 0, geo.width, geo.height, stroke=None, fill=style.background)
        _draw_back(cv, geo, options, puzzles, style)
        spine = _draw_spine(cv, geo, options, pages, style.title)
        _draw_front(cv, geo, options, puzzles, style)
        data = cv.tobytes("the cover")
    words = "with spine text" if spine else (
        f"no spine text (KDP allows it from {SPINE_TEXT_MIN_PAGES} pages)" if pages < SPINE_TEXT_MIN_PAGES
        else "no spine text (the spine is too narrow for 7 pt)")
    return data, (f"{geo.width / INCH:.3f} x {geo.height / INCH:.3f} in, spine {geo.spine / INCH:.3f} in "
                  f"on {paper} paper, {words}")
