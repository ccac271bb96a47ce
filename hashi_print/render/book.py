"""Puzzle books: margins and gutters, puzzles per page, and the pages of a printed book."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from hashi_print.errors import OptionError
from hashi_print.i18n import N_, _, language, ngettext
from hashi_print.puzzle.book import BookPuzzle, order_puzzles
from hashi_print.puzzle.model import GRADES, Puzzle, Solution
from hashi_print.render.canvas import PT, PdfCanvas, text_width, wrap_text
from hashi_print.render.paper import GREY, INCH, INK, TRIMS
from hashi_print.render.puzzle import (
    PICTURE_STYLE,
    PUZZLE_STYLE,
    SOLUTION_STYLE,
    draw_puzzle,
    min_cell_for_island,
)

# KDP's minimum inside margin by page count (pages up to, inches).
KDP_GUTTERS = ((150, 0.375), (300, 0.5), (500, 0.625), (700, 0.75), (828, 0.875))
KDP_MIN_PAGES = 24
KDP_MIN_OUTSIDE = 0.25 * INCH
MIN_ISLAND_MM = 5.0
MIN_SOLUTION_ISLAND_MM = 3.0
CROP_SPACE = 12.0
# Ruled lines of the notes pages that pad a kdp book: about college-ruled spacing, in a light grey.
NOTES_RULE_SPACING = 8.0
NOTES_RULE_COLOR = "#c4c4c4"


# --- the nouns ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BookOptions:
    """What the book looks like: title, trim, print profile, puzzle order and crop marks."""

    title: str = "Hashi"
    trim: str = "a4"
    profile: str = "pnp"
    order: str = "progression"
    crop_marks: bool = False
    author: str = "hashi_print"
    note: str = ""
    lang: str = "en"


@dataclass(frozen=True)
class Margins:
    """Page margins in mm; `inside` is at the spine (left on right-hand pages)."""

    top: float
    bottom: float
    inside: float
    outside: float


@dataclass(frozen=True)
class Arrangement:
    """A page of equal grids: `cols` x `rows` slots, each grid drawn with `cell` mm per cell."""

    cols: int
    rows: int
    cell: float
    slot_w: float
    slot_h: float

    @property
    def per_page(self) -> int:
        """How many grids fit on one page."""
        return self.cols * self.rows


@dataclass(frozen=True)
class Page:
    """One page: its kind (title, howto, puzzles, blank, solutions, notes) and, on grid pages, its puzzles."""

    kind: str
    numbers: tuple[int, ...] = ()
    arrangement: Arrangement | None = None
    grid: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class Book:
    """A finished book: the PDF bytes, the manifest (what is on which page) and any warnings."""

    pdf: bytes
    manifest: dict
    pages: int
    warnings: tuple[str, ...]


@dataclass(frozen=True)
class SlotStyle:
    """The space around each grid in a slot: label above, ID below, gaps, and cell limits."""

    above: float
    below: float
    gap: float
    min_cell: float
    good_cell: float
    max_cell: float
    max_per_page: int


PUZZLE_SLOT = SlotStyle(above=6.5, below=7.5, gap=7.0, min_cell=min_cell_for_island(MIN_ISLAND_MM),
                        good_cell=7.0, max_cell=12.0, max_per_page=6)
SOLUTION_SLOT = SlotStyle(above=4.5, below=0.0, gap=6.0,
                          min_cell=min_cell_for_island(MIN_SOLUTION_ISLAND_MM, SOLUTION_STYLE),
                          good_cell=4.6, max_cell=6.5, max_per_page=12)


# --- page geometry ----------------------------------------------------------------------------------

def trim_size(trim: str) -> tuple[float, float]:
    """Return the (width, height) in mm of a named trim size."""
    if trim not in TRIMS:
        raise OptionError(f"unknown trim {trim!r}: use one of {', '.join(TRIMS)}")
    return TRIMS[trim]


def kdp_gutter(pages: int) -> float:
    """Return KDP's minimum inside margin in mm for a book of `pages` pages."""
    for limit, inches in KDP_GUTTERS:
        if pages <= limit:
            return inches * INCH
    raise OptionError(f"{pages} pages is more than KDP's 828-page limit for a paperback; "
                      "make fewer puzzles or use a larger trim")


def margins_for(trim: str, profile: str, pages: int) -> Margins:
    """Return the margins of a trim: even for print-and-play, mirrored with KDP's gutter for kdp."""
    w, _ = trim_size(trim)
    small = w < 180
    top, bottom, side = (14.0, 17.0, 13.0) if small else (15.0, 18.0, 17.0)
    if profile == "pnp":
        return Margins(top, bottom, side, side)
    if profile != "kdp":
        raise OptionError(f"unknown profile {profile!r}: use pnp or kdp")
    outside = max(KDP_MIN_OUTSIDE, 12.7 if small else 15.0)
    return Margins(top, bottom, kdp_gutter(pages) + 0.25 * INCH, outside)


def content_box(page_no: int, trim: str, margins: Margins) -> tuple[float, float, float, float]:
    """Return (x, y, w, h) of the type area of page `page_no` (1 = a right-hand page)."""
    w, h = trim_size(trim)
    left = margins.inside if page_no % 2 == 1 else margins.outside
    return left, margins.top, w - margins.inside - margins.outside, h - margins.top - margins.bottom


@lru_cache(maxsize=256)
def arrange(grid_w: int, grid_h: int, box_w: float, box_h: float, slot: SlotStyle) -> Arrangement:
    """Choose how many grids of this size share a page: the most that keep a comfortable cell size."""
    options = []
    for cols in range(1, slot.max_per_page + 1):
        for rows in range(1, slot.max_per_page // cols + 1):
            slot_w = (box_w - (cols - 1) * slot.gap) / cols
            slot_h = (box_h - (rows - 1) * slot.gap) / rows
            cell = min(slot_w / grid_w, (slot_h - slot.above - slot.below) / grid_h, slot.max_cell)
            if cell >= slot.min_cell:
                options.append(Arrangement(cols, rows, cell, slot_w, slot_h))
    if not options:
        need_w, need_h = slot.min_cell * grid_w, slot.min_cell * grid_h + slot.above + slot.below
        island = slot.min_cell * PUZZLE_STYLE.island_ratio
        largest = int(min(box_w / slot.min_cell, (box_h - slot.above - slot.below) / slot.min_cell))
        raise OptionError(f"a {grid_w}x{grid_h} grid does not fit this trim with islands of at least "
                          f"{island:.0f} mm: it needs {need_w:.0f} x {need_h:.0f} mm and the page has "
                          f"{box_w:.0f} x {box_h:.0f} mm (up to {largest}x{largest} fits); "
                          "use a larger trim or a smaller grid")
    good = [a for a in options if a.cell >= slot.good_cell]
    if good:
        return max(good, key=lambda a: (a.per_page, a.cell, a.cols))
    return max(options, key=lambda a: (a.cell, a.per_page, a.cols))


def check_sizes_fit(sizes: Sequence[tuple[int, int]], trim: str, profile: str) -> None:
    """Raise OptionError before any generating when a grid size cannot be printed on the trim."""
    _, _, w, h = content_box(1, trim, margins_for(trim, profile, KDP_MIN_PAGES))
    for grid_w, grid_h in sizes:
        arrange(grid_w, grid_h, w, h, PUZZLE_SLOT)
        arrange(grid_w, grid_h, w, h, SOLUTION_SLOT)


# --- pagination ------------------------------------------------------------------------

def _chunks(puzzles: Sequence[BookPuzzle], box: tuple[float, float], slot: SlotStyle,
            kind: str) -> list[Page]:
    """Fill pages with consecutive puzzles, numbered from 1; a page's largest grid sets its cell size."""
    pages: list[Page] = []
    current: list[int] = []
    grid = (0, 0)
    arrangement: Arrangement | None = None
    for number, bp in enumerate(puzzles, 1):
        if current:
            wider = (max(grid[0], bp.puzzle.cols), max(grid[1], bp.puzzle.rows))
            fits = arrange(*wider, *box, slot)
            if len(current) < fits.per_page:
                current.append(number)
                grid, arrangement = wider, fits
                continue
            pages.append(Page(kind, tuple(current), arrangement, grid))
        current = [number]
        grid = (bp.puzzle.cols, bp.puzzle.rows)
        arrangement = arrange(*grid, *box, slot)
    pages.append(Page(kind, tuple(current), arrangement, grid))
    return pages


def kdp_padding(pages: int) -> int:
    """Return how many pages to add so a kdp book has at least KDP_MIN_PAGES and an even count."""
    target = max(pages, KDP_MIN_PAGES)
    return target + target % 2 - pages


def plan_pages(puzzles: Sequence[BookPuzzle], trim: str, profile: str,
               margins: Margins) -> list[Page]:
    """Lay the book out: title, how to play, puzzles, solutions; kdp adds right-hand starts and notes."""
    _, _, box_w, box_h = content_box(1, trim, margins)
    pages = [Page("title"), Page("howto")]
    pages += _chunks(puzzles, (box_w, box_h), PUZZLE_SLOT, "puzzles")
    if profile == "kdp" and len(pages) % 2 == 1:
        pages.append(Page("blank"))
    pages += _chunks(puzzles, (box_w, box_h), SOLUTION_SLOT, "solutions")
    if profile == "kdp":
        # KDP refuses interiors under 24 pages or with an odd count; ruled notes pages beat blank ones.
        pages += [Page("notes")] * kdp_padding(len(pages))
    return pages


def plan_book(puzzles: Sequence[BookPuzzle], trim: str, profile: str) -> tuple[Margins, list[Page]]:
    """Find margins and pages that agree: the kdp gutter depends on the (padded) page count it produces."""
    pages_guess = KDP_MIN_PAGES
    for _attempt in range(8):
        margins = margins_for(trim, profile, pages_guess)
        pages = plan_pages(puzzles, trim, profile, margins)
        if profile == "pnp" or kdp_gutter(len(pages)) == kdp_gutter(pages_guess):
            return margins, pages
        pages_guess = len(pages)
    return margins, pages


# --- text helpers -------------------------------------------------------------------------------------

def wrap_chars(text: str, width: float, size_pt: float) -> list[str]:
    """Break a string without spaces (an ID) into lines no wider than `width` mm."""
    advance = {ch: text_width(ch, size_pt) for ch in set(text)}
    lines: list[str] = []
    line, used = "", 0.0
    for ch in text:
        if line and used + advance[ch] > width:
            lines.append(line)
            line, used = "", 0.0
        line += ch
        used += advance[ch]
    if line:
        lines.append(line)
    return lines


def fit_id(text: str, width: float, max_lines: int = 2) -> tuple[float, list[str]]:
    """Choose a font size (6 pt down to 4 pt) that fits the ID in `max_lines`, and the wrapped lines."""
    size = 6.0
    while size > 4.0 and len(wrap_chars(text, width, size)) > max_lines:
        size -= 0.25
    return size, wrap_chars(text, width, size)


# --- drawing ------------------------------------------------------------------------------------------

class _Shifted:
    """A Canvas that draws onto another one moved by (dx, dy): the trimmed page inside crop marks."""

    def __init__(self, canvas: PdfCanvas, dx: float, dy: float, width: float, height: float):
        self._c, self._dx, self._dy = canvas, dx, dy
        self.width, self.height = width, height

    def line(self, x1, y1, x2, y2, **kw):
        """Draw a line on the shifted page."""
        self._c.line(x1 + self._dx, y1 + self._dy, x2 + self._dx, y2 + self._dy, **kw)

    def circle(self, cx, cy, r, **kw):
        """Draw a circle on the shifted page."""
        self._c.circle(cx + self._dx, cy + self._dy, r, **kw)

    def rect(self, x, y, w, h, **kw):
        """Draw a rectangle on the shifted page."""
        self._c.rect(x + self._dx, y + self._dy, w, h, **kw)

    def polygon(self, points, **kw):
        """Draw a polygon on the shifted page."""
        self._c.polygon([(x + self._dx, y + self._dy) for x, y in points], **kw)

    def text(self, x, y, s, **kw):
        """Draw text on the shifted page."""
        self._c.text(x + self._dx, y + self._dy, s, **kw)

    def group(self, id):
        """Group drawing calls (a no-op in PDF)."""
        return self._c.group(id)


def _crop_marks(canvas: PdfCanvas, dx: float, dy: float, w: float, h: float) -> None:
    """Draw the eight crop marks just outside the trimmed page's corners."""
    gap, length = 3.0, 6.0
    for x in (dx, dx + w):
        for y in (dy, dy + h):
            sx = -1 if x == dx else 1
            sy = -1 if y == dy else 1
            canvas.line(x + sx * gap, y, x + sx * (gap + length), y, width=0.2)
            canvas.line(x, y + sy * gap, x, y + sy * (gap + length), width=0.2)


def _grade_mix(puzzles: Sequence[BookPuzzle]) -> str:
    """Say how many puzzles of each grade the book holds, easiest first."""
    counts = Counter(bp.grade for bp in puzzles)
    names = [d for d in GRADES if counts[d]]
    return " · ".join(f"{counts[d]} {_(d)}" for d in names)


def _size_mix(puzzles: Sequence[BookPuzzle]) -> str:
    """Say which grid sizes the book holds, smallest first."""
    sizes = sorted({(bp.puzzle.cols, bp.puzzle.rows) for bp in puzzles}, key=lambda s: (s[0] * s[1], s))
    names = [f"{w}×{h}" for w, h in sizes]
    if len(names) == 1:
        return _("{size} grids").format(size=names[0])
    return _("{sizes} and {last} grids").format(sizes=", ".join(names[:-1]), last=names[-1])


def example_puzzle() -> tuple[Puzzle, Solution]:
    """The small solved example shown on the how-to-play page (unique; checked by the tests)."""
    puzzle = Puzzle.build(6, 6, [(0, 0, 4), (0, 3, 4), (2, 1, 1), (2, 3, 6), (2, 5, 2), (3, 0, 4),
                                 (4, 3, 2), (5, 0, 3), (5, 5, 2)])
    solution = Solution.from_lists([[0, 0, 0, 3, 2], [0, 0, 3, 0, 2], [0, 3, 2, 3, 2], [2, 1, 2, 3, 1],
                                    [2, 3, 2, 5, 1], [2, 3, 4, 3, 2], [2, 5, 5, 5, 1], [3, 0, 5, 0, 2],
                                    [5, 0, 5, 5, 1]])
    return puzzle, solution


RULES = (
    N_("Every island must end up with exactly as many bridges as the number written in it."),
    N_("Bridges run in straight lines, across or down, from one island to another."),
    N_("Bridges never cross each other and never pass over an island."),
    N_("Two islands may be joined by one bridge or by two, never more."),
    N_("When you are done, all the islands form one connected group: you can walk over bridges "
       "from any island to any other."),
)
TIPS = (
    N_("Start where there is no choice: an island whose number needs every bridge it can have, "
       "such as a 4 in a corner, a 6 on an edge or an 8 anywhere."),
    N_("A pencil and an eraser help. Tick off an island once its number is reached."),
    N_("The puzzles get harder through the book. Easy ones need only counting; expert ones ask you "
       "to think a few bridges ahead."),
)
ABOUT = N_("The small code under each puzzle is its ID. Type it into Simon Tatham's Bridges "
           "(Game > Specific…) to play the puzzle on a computer or phone. The grey dots mark the "
           "grid: bridges run along them. Solutions are at the back of the book, by puzzle number.")
# The grades, so that the catalogs carry them.
GRADE_WORDS = (N_("easy"), N_("medium"), N_("hard"), N_("expert"))


def _draw_paragraphs(canvas, x: float, y: float, width: float, paragraphs: Sequence[str], size_pt: float,
                     *, bullets: bool = False) -> float:
    """Set paragraphs of wrapped text from baseline y; return the y below the last one."""
    lead = size_pt * PT * 1.45
    indent = 6.0 if bullets else 0.0
    for i, para in enumerate(paragraphs, 1):
        lines = wrap_text(_(para), size_pt, width - indent)
        if bullets:
            canvas.text(x, y, f"{i}.", size_pt=size_pt, bold=True, color=INK)
        for line in lines:
            canvas.text(x + indent, y, line, size_pt=size_pt, color=INK)
            y += lead
        y += lead * 0.45
    return y


def _draw_title_page(canvas, options: BookOptions, puzzles: Sequence[BookPuzzle], box) -> None:
    """Draw the title page: title, what is inside, and a solved example as the picture."""
    x, y, w, h = box
    cx = x + w / 2
    size = 34.0
    while size > 22 and text_width(options.title, size, bold=True) > w:
        size -= 1
    lines = wrap_text(options.title, size, w, bold=True)[:3] or [""]
    lead = size * PT * 1.2
    title_y = y + h * 0.2 - (len(lines) - 1) * lead
    for line in lines:
        canvas.text(cx, title_y, line, size_pt=size, anchor="middle", bold=True, color=INK)
        title_y += lead
    title_y -= lead
    canvas.line(cx - 20, title_y + 8, cx + 20, title_y + 8, width=0.5, color=INK)
    count = len(puzzles)
    what = ngettext("{count} bridge-building logic puzzle", "{count} bridge-building logic puzzles", count)
    canvas.text(cx, title_y + 18, what.format(count=count), size_pt=15, anchor="middle", color=INK)
    canvas.text(cx, title_y + 27, _size_mix(puzzles), size_pt=11, anchor="middle", color=GREY)
    canvas.text(cx, title_y + 34, _grade_mix(puzzles), size_pt=11, anchor="middle", color=GREY)
    puzzle, solution = example_puzzle()
    cell = min(w * 0.6, h * 0.35) / puzzle.cols
    gx = cx - puzzle.cols * cell / 2
    gy = y + h * 0.5
    draw_puzzle(canvas, puzzle, gx, gy, cell, solution=solution, style=PICTURE_STYLE)
    canvas.text(cx, y + h - 6, _("with solutions"), size_pt=10, anchor="middle", color=GREY)
    if options.note:
        canvas.text(cx, y + h, options.note, size_pt=7, anchor="middle", color=GREY)


class _Measure:
    """A Canvas that draws nothing: used to measure how tall a page's text would be."""

    width = height = 0.0

    def line(self, *args, **kw):
        """Draw nothing."""

    circle = rect = polygon = text = line


def _draw_howto_page(canvas, box) -> None:
    """Draw the rules in plain words with the example puzzle, at the largest scale that fits the page."""
    x, y, w, h = box
    for scale in (1.0, 0.94, 0.88, 0.82, 0.76, 0.7):
        if _howto(_Measure(), box, scale) <= y + h:
            break
    _howto(canvas, box, scale)


def _howto(canvas, box, scale: float) -> float:
    """Draw (or measure) the how-to-play page at a type scale; return the y below the last line."""
    x, y, w = box[:3]
    body, small = 10.5 * scale, 9.5 * scale
    canvas.text(x, y + 8 * scale, _("How to play"), size_pt=20 * scale, bold=True, color=INK)
    intro = N_("Each circle is an island. The number in it says how many bridges touch it. "
               "Draw the bridges so that:")
    yy = _draw_paragraphs(canvas, x, y + 18 * scale, w, [intro], body)
    yy = _draw_paragraphs(canvas, x, yy + 1, w, RULES, body, bullets=True)
    puzzle, solution = example_puzzle()
    cell = min((w - 20) / 2 / puzzle.cols, 9.0 * scale)
    gw = puzzle.cols * cell
    left, right = x + w / 2 - 8 - gw, x + w / 2 + 8
    top = yy + 9 * scale
    canvas.text(left, top - 3, _("A puzzle"), size_pt=9 * scale, bold=True, color=INK)
    canvas.text(right, top - 3, _("and its solution"), size_pt=9 * scale, bold=True, color=INK)
    draw_puzzle(canvas, puzzle, left, top, cell)
    draw_puzzle(canvas, puzzle, right, top, cell, solution=solution, style=SOLUTION_STYLE)
    yy = top + puzzle.rows * cell + 11 * scale
    canvas.text(x, yy, _("Tips"), size_pt=12 * scale, bold=True, color=INK)
    yy = _draw_paragraphs(canvas, x, yy + 7 * scale, w, TIPS, small)
    canvas.text(x, yy + 3 * scale, _("Playing on screen"), size_pt=12 * scale, bold=True, color=INK)
    return _draw_paragraphs(canvas, x, yy + 10 * scale, w, [ABOUT], small)


def notes_rules(top: float, bottom: float, spacing: float = NOTES_RULE_SPACING) -> list[float]:
    """Return the y of evenly spaced ruled lines below `top`, about `spacing` apart, the last at `bottom`."""
    count = max(1, round((bottom - top) / spacing))
    step = (bottom - top) / count
    return [top + i * step for i in range(1, count + 1)]


def _draw_notes_page(canvas, box) -> None:
    """Draw a notes page: the heading, then light ruled lines across the type area down to its foot."""
    x, y, w, h = box
    # The heading sits where "How to play" does, so the two text pages of the book match.
    canvas.text(x, y + 8, _("Notes"), size_pt=20, bold=True, color=INK)
    for rule_y in notes_rules(y + 12, y + h):
        canvas.line(x, rule_y, x + w, rule_y, width=0.2, color=NOTES_RULE_COLOR)


def _spread(total: float, block: float, n: int, gap: float) -> list[float]:
    """Place n equal blocks along a length: even spacing, half of it at the ends, never closer than `gap`."""
    free = total - n * block
    if n == 1:
        return [free / 2]
    between = max(free / n, min(gap, free / (n - 1)))
    start = (free - between * (n - 1)) / 2
    return [start + i * (block + between) for i in range(n)]


def _block_origins(arrangement: Arrangement, box, block_w: float, block_h: float,
                   gap: float) -> list[tuple[float, float]]:
    """Return the top-left corner of each slot's block (grid with its labels) in reading order."""
    x, y, w, h = box
    cols = arrangement.cols
    xs = _spread(w, block_w, cols, gap)
    ys = _spread(h, block_h, arrangement.rows, gap)
    return [(x + xs[i % cols], y + ys[i // cols]) for i in range(arrangement.per_page)]


def _draw_puzzle_block(canvas, bp: BookPuzzle, number: int, cell: float, origin, slot: SlotStyle) -> None:
    """Draw one numbered puzzle: label, grid, and the ID in small print."""
    gw, gh = bp.puzzle.cols * cell, bp.puzzle.rows * cell
    gx, gy = origin[0], origin[1] + slot.above
    canvas.text(gx, gy - 2.2, str(number), size_pt=13, bold=True, color=INK)
    canvas.text(gx + gw, gy - 2.2, f"{_(bp.grade)} · {bp.puzzle.cols}×{bp.puzzle.rows}", size_pt=8,
                anchor="end", color=GREY)
    draw_puzzle(canvas, bp.puzzle, gx, gy, cell)
    size, lines = fit_id(bp.id, gw)
    ly = gy + gh + 1.2 + size * PT
    for line in lines:
        canvas.text(gx, ly, line, size_pt=size, color=GREY)
        ly += size * PT * 1.25


def _draw_solution_block(canvas, bp: BookPuzzle, number: int, cell: float, origin, slot: SlotStyle) -> None:
    """Draw one numbered solution."""
    gx, gy = origin[0], origin[1] + slot.above
    canvas.text(gx, gy - 1.5, str(number), size_pt=9, bold=True, color=INK)
    draw_puzzle(canvas, bp.puzzle, gx, gy, cell, solution=bp.solution, style=SOLUTION_STYLE)


def _draw_grid_page(canvas, page: Page, puzzles: Sequence[BookPuzzle], box) -> None:
    """Draw a page of puzzles or of solutions, each centred in a slot sized for the page's largest grid."""
    slot = PUZZLE_SLOT if page.kind == "puzzles" else SOLUTION_SLOT
    draw = _draw_puzzle_block if page.kind == "puzzles" else _draw_solution_block
    cell = page.arrangement.cell
    block_w, block_h = page.grid[0] * cell, slot.above + page.grid[1] * cell + slot.below
    origins = _block_origins(page.arrangement, box, block_w, block_h, slot.gap)
    for number, (ox, oy) in zip(page.numbers, origins[:len(page.numbers)], strict=True):
        bp = puzzles[number - 1]
        draw(canvas, bp, number, cell, (ox + (block_w - bp.puzzle.cols * cell) / 2, oy), slot)


def _running_head(canvas, page: Page, page_no: int, trim: str, margins: Margins, profile: str) -> None:
    """Draw the page number at the foot and, on puzzle and solution pages, a small running head."""
    w, h = trim_size(trim)
    if page.kind in ("title", "blank"):
        return
    foot = h - margins.bottom * 0.45
    if profile == "kdp":
        x, anchor = (w - margins.outside, "end") if page_no % 2 == 1 else (margins.outside, "start")
    else:
        x, anchor = w / 2, "middle"
    canvas.text(x, foot, str(page_no), size_pt=9, anchor=anchor, color=GREY)
    if page.kind in ("puzzles", "solutions"):
        first, last = page.numbers[0], page.numbers[-1]
        if page.kind == "puzzles":
            what = _("Puzzle {n}") if first == last else _("Puzzles {first}–{last}")
        else:
            what = _("Solution {n}") if first == last else _("Solutions {first}–{last}")
        what = what.format(n=first, first=first, last=last)
        head_y = margins.top * 0.55
        box = content_box(page_no, trim, margins)
        hx, hanchor = (box[0] + box[2], "end") if page_no % 2 == 1 or profile == "pnp" else (box[0], "start")
        canvas.text(hx, head_y, what, size_pt=8, anchor=hanchor, color=GREY)


# --- the book ---------------------------------------------------------------------------------------

def render_book(puzzles: Sequence[BookPuzzle], options: BookOptions) -> Book:
    """Compose and draw the book in its language; return the PDF bytes, the manifest and any warnings."""
    with language(options.lang):
        return _render_book(puzzles, options)


def _render_book(puzzles: Sequence[BookPuzzle], options: BookOptions) -> Book:
    """Compose and draw the whole book in the current language."""
    if not puzzles:
        raise OptionError("a book needs at least one puzzle")
    if options.crop_marks and options.profile == "kdp":
        raise OptionError("a kdp interior must not carry crop marks; drop --crop-marks or use --profile pnp")
    ordered = order_puzzles(puzzles, options.order)
    margins, pages = plan_book(ordered, options.trim, options.profile)
    w, h = trim_size(options.trim)
    pad = CROP_SPACE if options.crop_marks else 0.0
    subject = _("{count} Hashiwokakero puzzles with solutions").format(count=len(ordered))
    pdf = PdfCanvas(None, w + 2 * pad, h + 2 * pad, title=options.title, author=options.author,
                    subject=subject)
    if options.crop_marks:
        pdf.set_boxes(trim=(pad, pad, w, h))
    canvas = _Shifted(pdf, pad, pad, w, h) if pad else pdf
    bookmarks = options.profile == "pnp"
    where: dict[int, dict[str, float]] = {}
    for page_no, page in enumerate(pages, 1):
        if page_no > 1:
            pdf.new_page()
        if options.crop_marks:
            _crop_marks(pdf, pad, pad, w, h)
        box = content_box(page_no, options.trim, margins)
        _running_head(canvas, page, page_no, options.trim, margins, options.profile)
        if bookmarks:
            _bookmark(pdf, page, page_no, pages)
        if page.kind == "title":
            _draw_title_page(canvas, options, ordered, box)
        elif page.kind == "howto":
            _draw_howto_page(canvas, box)
        elif page.kind == "notes":
            _draw_notes_page(canvas, box)
        elif page.kind in ("puzzles", "solutions"):
            _draw_grid_page(canvas, page, ordered, box)
            for number in page.numbers:
                where.setdefault(number, {})[page.kind] = page_no
                where[number][f"{page.kind}_cell"] = page.arrangement.cell
    data = pdf.tobytes()
    manifest = _manifest(ordered, options, pages, where, margins)
    # No warnings today: notes pages fix a short or odd kdp book, and too many pages is a OptionError.
    return Book(data, manifest, len(pages), ())


def _bookmark(pdf: PdfCanvas, page: Page, page_no: int, pages: Sequence[Page]) -> None:
    """Add an outline entry where a section starts (print-and-play only)."""
    first_of_kind = all(p.kind != page.kind for p in pages[:page_no - 1])
    if not first_of_kind or page.kind == "blank":
        return
    title = {"title": N_("Title"), "howto": N_("How to play"), "puzzles": N_("Puzzles"),
             "solutions": N_("Solutions"), "notes": N_("Notes")}
    pdf.bookmark(_(title[page.kind]))


def _manifest(ordered: Sequence[BookPuzzle], options: BookOptions, pages: Sequence[Page],
              where: dict[int, dict[str, float]], margins: Margins) -> dict:
    """Describe the book: page size, margins, and each puzzle's number, pages, ID and solution."""
    w, h = trim_size(options.trim)
    return {
        "format": "hashi-book-manifest/1",
        "title": options.title,
        "trim": options.trim,
        "trim_mm": [w, h],
        "profile": options.profile,
        "order": options.order,
        "pages": len(pages),
        "margins_mm": {"top": margins.top, "bottom": margins.bottom, "inside": round(margins.inside, 3),
                       "outside": round(margins.outside, 3)},
        "page_kinds": [p.kind for p in pages],
        "puzzles": [
            {"number": n, "page": where[n]["puzzles"], "solution_page": where[n]["solutions"],
             "id": bp.id, "width": bp.puzzle.cols, "height": bp.puzzle.rows,
             "difficulty": bp.grade, "seed": bp.seed,
             "island_mm": round(where[n]["puzzles_cell"] * PUZZLE_STYLE.island_ratio, 3),
             "solution_island_mm": round(where[n]["solutions_cell"] * SOLUTION_STYLE.island_ratio, 3),
             "solution": bp.solution.as_lists()}
            for n, bp in enumerate(ordered, 1)
        ],
    }
