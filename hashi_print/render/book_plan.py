"""The plan of a book: margins and gutter, one scale per grid size, and which puzzles go on which page.

Everything here works from the shape of each puzzle (grid size, grade, ID length) and can run
before a single puzzle exists, so a book that cannot be printed is refused before the work.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from hashi_print.errors import OptionError
from hashi_print.puzzle.model import Grade
from hashi_print.render.canvas import PT, text_width
from hashi_print.render.paper import TRIMS
from hashi_print.render.preflight import HOME_MIN_TEXT_PT, KDP_MIN_TEXT_PT
from hashi_print.render.puzzle import (
    DIGIT_HEIGHT,
    FRAME_PAD,
    PUZZLE_STYLE,
    SOLUTION_STYLE,
    min_cell_for_island,
)
from hashi_print.sheets.paper import INCH, PAPER

# KDP's minimum inside margin by page count (pages up to, inches).
KDP_GUTTERS = ((150, 0.375), (300, 0.5), (500, 0.625), (700, 0.75), (828, 0.875))
KDP_MIN_PAGES = 24
KDP_MAX_PAGES = 828
# KDP's minimum outside, top and bottom margin for an interior without bleed.
KDP_MIN_OUTSIDE = 0.25 * INCH
MIN_ISLAND_MM = 5.0
# Islands of 6 mm are comfortable to write round; a page's grids grow up to 8 mm where they have room.
GOOD_ISLAND_MM = 6.0
MAX_ISLAND_MM = 8.0
MIN_SOLUTION_ISLAND_MM = 2.5
# The page references under a puzzle ("Solution p. 41") and over a solution ("Puzzle p. 12").
REF_PT = 7.0
# Crop marks sit 3 to 7 mm outside the trim, and 5 mm more keeps them on a home printer's paper.
CROP_SPACE = 12.0
ID_LEADING = 1.25
# How far the first line of an ID sits below its grid, and how far a grid's heading sits above it.
ID_GAP = 1.2
FRONT_KINDS = ("title", "copyright", "contents", "howto")
# The index of puzzle IDs at the back: a monospace face, IDs cut into blocks of this many characters.
INDEX_PT = 7.0
INDEX_LEADING = 1.4
INDEX_BLOCK = 5
INDEX_HEAD = 22.0  # mm from the type area's top to the first entry (under the heading and its note)


@dataclass(frozen=True)
class Margins:
    """Page margins in mm; `inside` is at the spine (left on right-hand pages)."""

    top: float
    bottom: float
    inside: float
    outside: float


@dataclass(frozen=True)
class SlotStyle:
    """The space around each grid: heading above, gaps, and the cell size limits and goal."""

    above: float
    gap: float
    min_cell: float
    good_cell: float
    max_cell: float
    max_per_page: int
    with_id: bool
    # Room under the grid's frame for its page reference (0 where the reference sits in the heading).
    below: float = 0.0
    # Solutions: the most per page that keep their digits legible; puzzles: comfortable cells first.
    most_per_page: bool = False


PUZZLE_SLOT = SlotStyle(above=6.5, gap=7.0, min_cell=min_cell_for_island(MIN_ISLAND_MM),
                        good_cell=min_cell_for_island(GOOD_ISLAND_MM),
                        max_cell=min_cell_for_island(MAX_ISLAND_MM), max_per_page=6, with_id=True,
                        below=ID_GAP + REF_PT * PT * ID_LEADING)
SOLUTION_SLOT = SlotStyle(above=4.5, gap=5.0,
                          min_cell=min_cell_for_island(MIN_SOLUTION_ISLAND_MM, SOLUTION_STYLE),
                          good_cell=4.6, max_cell=6.5, max_per_page=12, with_id=False, most_per_page=True)


def solution_slot(min_text_pt: float) -> SlotStyle:
    """The solution slot of a profile: its cells never so small that a clue's digit is under `min_text_pt`."""
    island = min_text_pt * PT * DIGIT_HEIGHT / SOLUTION_STYLE.digit_ratio
    least = min_cell_for_island(island, SOLUTION_STYLE)
    return replace(SOLUTION_SLOT, min_cell=max(SOLUTION_SLOT.min_cell, least))


def grid_extent(cells: int, cell: float) -> float:
    """The width or height in mm a grid of `cells` cells takes with its frame."""
    return cells * cell + 2 * FRAME_PAD


def block_height(grid_rows: int, cell: float, slot: SlotStyle, id_lines_: int, id_pt: float) -> float:
    """The height of one grid's block: heading, framed grid, page reference and ID lines."""
    return slot.above + grid_extent(grid_rows, cell) + slot.below + id_block(id_lines_, id_pt)




@dataclass(frozen=True)
class Shape:
    """What the layout needs of a puzzle: grid size, grade and its ID (or the longest it can be)."""

    cols: int
    rows: int
    grade: Grade
    id: str


@dataclass(frozen=True)
class Arrangement:
    """How grids of one size sit on a page: `cols` x `rows` slots of `slot_w` x `slot_h` mm, one cell size."""

    cols: int
    rows: int
    cell: float
    slot_w: float
    slot_h: float
    id_lines: int
    block_h: float

    @property
    def per_page(self) -> int:
        """How many grids of this size fill a page."""
        return self.cols * self.rows


@dataclass(frozen=True)
class Row:
    """One row of grids of one size on a page, numbered in book order."""

    numbers: tuple[int, ...]
    grid: tuple[int, int]
    arrangement: Arrangement


@dataclass(frozen=True)
class Page:
    """One page: its kind (title, copyright, contents, howto, puzzles, blank, solutions, notes), its rows."""

    kind: str
    rows: tuple[Row, ...] = ()
    section: str = ""
    # Full pages spread their rows over the type area; a section's last page keeps them at the top.
    full: bool = False
    # The cell size every grid of this page is drawn at (0: each row's own arrangement).
    cell: float = 0.0
    # An index page: the puzzle numbers whose IDs it lists.
    entries: tuple[int, ...] = ()

    @property
    def numbers(self) -> tuple[int, ...]:
        """The puzzle numbers on this page, in reading order."""
        return tuple(n for row in self.rows for n in row.numbers)


@dataclass(frozen=True)
class Layout:
    """How a book is printed: trim, profile, smallest text, puzzles per page, crop marks."""

    trim: str
    profile: str
    per_page: int | None = None
    crop_marks: bool = False
    # Print each puzzle's ID under its grid instead of in the index at the back.
    ids_under: bool = False

    @property
    def min_text_pt(self) -> float:
        """The smallest text the profile allows (KDP 7 pt, home printing 6 pt)."""
        return KDP_MIN_TEXT_PT if self.profile == "kdp" else HOME_MIN_TEXT_PT


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
    raise OptionError(f"{pages} pages is more than KDP's {KDP_MAX_PAGES}-page limit for a paperback; "
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


def check_crop_marks(layout: Layout) -> None:
    """Refuse crop marks on a kdp interior, or where the marked sheet is larger than A4 and Letter paper."""
    if not layout.crop_marks:
        return
    if layout.profile == "kdp":
        raise OptionError("a kdp interior must not carry crop marks; drop --crop-marks or use --profile pnp")
    w, h = trim_size(layout.trim)
    sheet = (w + 2 * CROP_SPACE, h + 2 * CROP_SPACE)
    if not any(sheet[0] <= pw and sheet[1] <= ph for pw, ph in PAPER.values()):
        fits = [t for t, (tw, th) in TRIMS.items()
                if any(tw + 2 * CROP_SPACE <= pw and th + 2 * CROP_SPACE <= ph for pw, ph in PAPER.values())]
        raise OptionError(f"crop marks need {CROP_SPACE:g} mm around the trim: a {layout.trim} page with its "
                          f"marks is {sheet[0]:.1f} x {sheet[1]:.1f} mm, larger than A4 (210 x 297 mm) and "
                          f"Letter (215.9 x 279.4 mm) paper, so it cannot print at 100 %; drop --crop-marks "
                          f"or use --trim {' or '.join(fits)}")


# --- one scale per grid size -------------------------------------------------------------------------

def id_lines(text: str, width: float, size_pt: float) -> list[str]:
    """Break an ID (no spaces) into lines no wider than `width` mm at `size_pt`."""
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


def id_block(lines: int, size_pt: float) -> float:
    """Height in mm of the space below a grid that holds `lines` lines of ID."""
    return ID_GAP + lines * size_pt * PT * ID_LEADING if lines else 0.0


@lru_cache(maxsize=1024)
def arrange(grid_cols: int, grid_rows: int, box_w: float, box_h: float, slot: SlotStyle, id_chars: str = "",
            id_pt: float = HOME_MIN_TEXT_PT, want: int | None = None) -> Arrangement:
    """Choose how grids of this size share a page: the most with a comfortable cell, or `want` of them."""
    options = []
    for cols in range(1, max(slot.max_per_page, want or 0) + 1):
        for rows in range(1, max(slot.max_per_page, want or 0) // cols + 1):
            slot_w = (box_w - (cols - 1) * slot.gap) / cols
            slot_h = (box_h - (rows - 1) * slot.gap) / rows
            cell = min((slot_w - 2 * FRAME_PAD) / grid_cols, slot.max_cell)
            # A smaller cell narrows the grid, so its ID may need another line: shrink until both agree.
            for _ in range(50):
                lines = len(id_lines(id_chars, grid_cols * cell, id_pt)) if slot.with_id and id_chars else 0
                fit = (slot_h - block_height(grid_rows, 0.0, slot, lines, id_pt)) / grid_rows
                if fit >= cell:
                    break
                cell = fit
            tall = block_height(grid_rows, cell, slot, lines, id_pt)
            if cell >= slot.min_cell and tall <= slot_h + 1e-9:
                options.append(Arrangement(cols, rows, cell, slot_w, slot_h, lines, tall))
    if want is not None:
        enough = [a for a in options if a.per_page >= want]
        if not enough:
            most = max((a.per_page for a in options), default=0)
            raise OptionError(f"--per-page {want}: at most {most} {grid_cols}x{grid_rows} grids fit on a "
                              f"page of {box_w:.0f} x {box_h:.0f} mm with islands of at least "
                              f"{slot.min_cell * PUZZLE_STYLE.island_ratio:.0f} mm")
        return max(enough, key=lambda a: (a.cell, -a.per_page, a.cols))
    if not options:
        island = slot.min_cell * PUZZLE_STYLE.island_ratio
        need_w = grid_extent(grid_cols, slot.min_cell)
        need_h = block_height(grid_rows, slot.min_cell, slot, 0, id_pt)
        largest = int(min((box_w - 2 * FRAME_PAD) / slot.min_cell,
                          (box_h - block_height(0, slot.min_cell, slot, 0, id_pt)) / slot.min_cell))
        more = " and more for its ID" if id_chars else ""
        raise OptionError(f"a {grid_cols}x{grid_rows} grid does not fit this page with islands of at least "
                          f"{island:.0f} mm: it needs {need_w:.0f} x {need_h:.0f} mm{more}, "
                          f"and the type area is {box_w:.0f} x {box_h:.0f} mm (up to about "
                          f"{largest}x{largest} fits); use a larger trim or a smaller grid")
    if slot.most_per_page:
        return max(options, key=lambda a: (a.per_page, a.cell, a.cols))
    good = [a for a in options if a.cell >= slot.good_cell]
    if good:
        return max(good, key=lambda a: (a.per_page, a.cell, a.cols))
    return max(options, key=lambda a: (a.cell, a.per_page, a.cols))


def size_arrangements(shapes: Sequence[Shape], box: tuple[float, float], slot: SlotStyle, layout: Layout,
                      want: int | None) -> dict[tuple[int, int], Arrangement]:
    """Give every grid size of the book one arrangement, so a size prints at one scale throughout.

    A larger grid never gets larger islands than a smaller one: where it would, it is drawn at the
    smaller grid's cell (same slots, so no fewer per page), and grids sharing a page look alike.
    """
    longest: dict[tuple[int, int], str] = {}
    for s in shapes:
        key = (s.cols, s.rows)
        if len(s.id) > len(longest.get(key, "")):
            longest[key] = s.id
    out = {}
    ceiling = math.inf
    for key in sorted(longest, key=lambda k: (k[0] * k[1], k)):
        id_chars = longest[key] if slot.with_id and layout.ids_under else ""
        chosen = arrange(*key, *box, slot, id_chars, layout.min_text_pt, want)
        if chosen.cell > ceiling:
            chosen = _at_cell(chosen, key, ceiling, slot, id_chars, layout.min_text_pt) or chosen
        ceiling = min(ceiling, chosen.cell)
        out[key] = chosen
    return out


def _at_cell(a: Arrangement, grid: tuple[int, int], cell: float, slot: SlotStyle, id_chars: str,
             id_pt: float) -> Arrangement | None:
    """The same slots drawn at a smaller cell, or None when its longer ID would no longer fit the slot."""
    lines = len(id_lines(id_chars, grid[0] * cell, id_pt)) if id_chars else 0
    tall = block_height(grid[1], cell, slot, lines, id_pt)
    if tall > a.slot_h + 1e-9:
        return None
    return Arrangement(a.cols, a.rows, cell, a.slot_w, a.slot_h, lines, tall)


# --- pages ---------------------------------------------------------------------------------------------

def sections(shapes: Sequence[Shape], grouped: bool) -> list[tuple[str, list[int]]]:
    """Split puzzle numbers (1-based, book order) into sections: one per grade, or one for all."""
    if not grouped:
        return [("", list(range(1, len(shapes) + 1)))]
    out: list[tuple[str, list[int]]] = []
    for number, shape in enumerate(shapes, 1):
        if not out or out[-1][0] != shape.grade:
            out.append((shape.grade, []))
        out[-1][1].append(number)
    return out


def _rows(numbers: Sequence[int], shapes: Sequence[Shape],
          arrangements: dict[tuple[int, int], Arrangement]) -> list[Row]:
    """Cut a run of puzzles into rows: consecutive grids of one size, as many as a row of that size holds."""
    rows: list[Row] = []
    for number in numbers:
        key = (shapes[number - 1].cols, shapes[number - 1].rows)
        last = rows[-1] if rows else None
        if last and last.grid == key and len(last.numbers) < last.arrangement.cols:
            rows[-1] = Row((*last.numbers, number), key, last.arrangement)
        else:
            rows.append(Row((number,), key, arrangements[key]))
    return rows


def paginate(rows: Sequence[Row], box_h: float, slot: SlotStyle, cap: int, kind: str,
             section: str) -> list[Page]:
    """Stack rows onto pages while their grids fit the type area and the page holds at most `cap` grids."""
    pages: list[Page] = []
    current: list[Row] = []
    for row in rows:
        if current and not _fits([*current, row], box_h, slot.gap, cap):
            pages.append(Page(kind, tuple(current), section, full=True))
            current = []
        current.append(row)
    if current:
        pages.append(Page(kind, tuple(current), section))
    return pages


def rows_height(rows: Sequence[Row], gap: float) -> float:
    """Height in mm of rows stacked with `gap` between them."""
    return sum(r.arrangement.block_h for r in rows) + gap * max(0, len(rows) - 1)


def _fits(rows: Sequence[Row], box_h: float, gap: float, cap: int) -> bool:
    """Whether these rows fit one type area of height `box_h` and hold at most `cap` grids."""
    return rows_height(rows, gap) <= box_h + 1e-6 and sum(len(r.numbers) for r in rows) <= cap


def fill_section(numbers: Sequence[int], shapes: Sequence[Shape],
                 arrangements: dict[tuple[int, int], Arrangement], box_h: float, slot: SlotStyle,
                 cap: int) -> list[list[Row]]:
    """Lay out one section so that only its last page can be short.

    Pages are filled one at a time: a page starts with a row of the smallest grids left, then takes
    the tallest row of what is left that still fits, until nothing left fits or it holds `cap` grids.
    So no page has room for a grid that comes after it, and at most one page is under half full: the
    emptiest page ends the section, once the pages filled after it have taken what of it they can.
    """
    pool: dict[tuple[int, int], list[int]] = {}
    for number in numbers:
        pool.setdefault((shapes[number - 1].cols, shapes[number - 1].rows), []).append(number)
    rank = {key: i for i, key in enumerate(pool)}
    pages: list[list[Row]] = []
    while any(pool.values()):
        page: list[Row] = []
        while True:
            room = cap - sum(len(r.numbers) for r in page)
            options = [key for key, left in pool.items() if left and room > 0 and
                       _fits([*page, _take(key, left, arrangements, room, peek=True)], box_h, slot.gap, cap)]
            if not options:
                break
            # A page starts with the smallest grids left (so a grade still opens small), then is
            # topped up with the tallest rows that fit, which fills pages best.
            if page:
                key = min(options, key=lambda k: (-arrangements[k].block_h, rank[k]))
            else:
                key = min(options, key=lambda k: rank[k])
            page.append(_take(key, pool[key], arrangements, room))
        pages.append(page)
    if len(pages) > 1:
        fill = [max(sum(len(r.numbers) for r in p) / cap, rows_height(p, slot.gap) / box_h) for p in pages]
        emptiest = min(range(len(pages)), key=lambda i: (fill[i], -i))
        last = pages.pop(emptiest)
        rest: list[Row] = []
        for row in sorted(last, key=lambda r: -r.arrangement.block_h):
            # Pages filled after the emptiest one may still take some of it.
            home = next((p for p in pages[emptiest:] if _fits([*p, row], box_h, slot.gap, cap)), None)
            (home if home is not None else rest).append(row)
        if rest:
            pages.append(rest)
        pages = _close_gaps(pages, cap)
    return [sorted(p, key=lambda r: (rank[r.grid], r.numbers)) for p in pages]


def _close_gaps(pages: list[list[Row]], cap: int) -> list[list[Row]]:
    """Refill each size's rows in reading order, so that only a size's last row can be short."""
    queues: dict[tuple[int, int], list[int]] = {}
    for page in pages:
        for row in page:
            queues.setdefault(row.grid, []).extend(row.numbers)
    out = []
    for page in pages:
        rows: list[Row] = []
        for row in page:
            room = cap - sum(len(r.numbers) for r in rows) - sum(len(r.numbers) for r in page[len(rows) + 1:])
            left = queues[row.grid]
            take = min(row.arrangement.cols, len(left), max(room, len(row.numbers)))
            rows.append(Row(tuple(left[:take]), row.grid, row.arrangement))
            del left[:take]
        out.append([r for r in rows if r.numbers])
    return [p for p in out if p]


def _take(key: tuple[int, int], left: list[int], arrangements: dict[tuple[int, int], Arrangement],
          room: int, peek: bool = False) -> Row:
    """Take the next row of one grid size from what is left: a full row, or fewer at the end or the cap."""
    arrangement = arrangements[key]
    count = min(arrangement.cols, len(left), room)
    taken = tuple(left[:count])
    if not peek:
        del left[:count]
    return Row(taken, key, arrangement)


def solution_pages(shapes: Sequence[Shape], box: tuple[float, float], slot: SlotStyle,
                   layout: Layout) -> list[Page]:
    """Give each page of solutions the next run of numbers that fits, in slots of one size.

    Solutions are looked up by number, so each page holds a run of them, in reading order. A page's
    slots are sized for the largest grid of its run, as many as fit with legible digits (on a 6x9 page
    12 for 7x7 grids, 8 for 10x10 and 6 for 15x15), and every solution on it is drawn at that scale.
    """
    def arrangement(run: Sequence[int]) -> tuple[tuple[int, int], Arrangement]:
        """The slot grid of a run: big enough for its widest and its tallest grid."""
        grid = (max(shapes[n - 1].cols for n in run), max(shapes[n - 1].rows for n in run))
        return grid, arrange(*grid, *box, slot, "", layout.min_text_pt)

    def page_of(run: Sequence[int], full: bool) -> Page:
        """A page holding a run of solutions in rows of its arrangement's width."""
        grid, a = arrangement(run)
        rows = tuple(Row(tuple(run[i:i + a.cols]), grid, a) for i in range(0, len(run), a.cols))
        return Page("solutions", rows, "", full=full)

    pages: list[Page] = []
    run: list[int] = []
    for number in range(1, len(shapes) + 1):
        if run and arrangement([*run, number])[1].per_page < len(run) + 1:
            pages.append(page_of(run, True))
            run = []
        run.append(number)
    if run:
        pages.append(page_of(run, False))
    return pages


def renumber(pages: Sequence[Page]) -> tuple[list[Page], list[int]]:
    """Number the puzzles 1, 2, 3... in reading order; return the pages and the old number of each new one."""
    order: list[int] = []
    out: list[Page] = []
    for page in pages:
        rows = []
        for row in page.rows:
            start = len(order)
            order += row.numbers
            rows.append(Row(tuple(range(start + 1, len(order) + 1)), row.grid, row.arrangement))
        out.append(Page(page.kind, tuple(rows), page.section, page.full))
    return out, order


def row_height(row: Row, cell: float, slot: SlotStyle, id_pt: float) -> float:
    """The height of a row's blocks when its grids are drawn at `cell` (0: its arrangement's own cell)."""
    if not cell:
        return row.arrangement.block_h
    return block_height(row.grid[1], cell, slot, row.arrangement.id_lines, id_pt)


def row_fits_width(row: Row, cell: float, box_w: float, gap: float) -> bool:
    """Whether the row's slots, each as wide as its grid drawn at `cell`, fit across the type area."""
    n = row.arrangement.cols
    return n * grid_extent(row.grid[0], cell) + (n - 1) * gap <= box_w + 1e-6


def page_cell(page: Page, box_w: float, box_h: float, slot: SlotStyle, id_pt: float) -> float:
    """The one cell size a page's grids are drawn at: the largest up to the slot's largest that still fits.

    It is never smaller than the smallest cell its rows were planned with, so never under the minimum.
    """
    if not page.rows:
        return 0.0

    def fits(cell: float) -> bool:
        """Whether every row fits across and all of them down the type area at this cell."""
        tall = sum(row_height(r, cell, slot, id_pt) for r in page.rows) + slot.gap * (len(page.rows) - 1)
        return tall <= box_h + 1e-6 and all(row_fits_width(r, cell, box_w, slot.gap) for r in page.rows)

    lo, hi = min(r.arrangement.cell for r in page.rows), slot.max_cell
    if hi <= lo or fits(hi):
        return max(lo, hi) if fits(max(lo, hi)) else lo
    for _ in range(40):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    # Rounded down, so the rounding never pushes a grid past the type area.
    return math.floor(lo * 1e4) / 1e4


def row_tops(page: Page, box_h: float, slot: SlotStyle, id_pt: float) -> list[float]:
    """Return the top of each row below the type area's top: spread out on a full page, packed otherwise."""
    gap = slot.gap
    heights = [row_height(row, page.cell, slot, id_pt) for row in page.rows]
    free = box_h - sum(heights) - gap * (len(heights) - 1)
    extra = free / len(heights) if page.full else 0.0
    tops, y = [], extra / 2
    for h in heights:
        tops.append(y)
        y += h + gap + extra
    return tops


def kdp_padding(pages: int) -> int:
    """Return how many pages to add so a kdp book has at least KDP_MIN_PAGES and an even count."""
    target = max(pages, KDP_MIN_PAGES)
    return target + target % 2 - pages


@dataclass(frozen=True)
class Plan:
    """A planned book: its margins, its pages, and which puzzle (0-based, as given) is number 1, 2, 3..."""

    margins: Margins
    pages: tuple[Page, ...]
    order: tuple[int, ...]

    def where(self, kind: str) -> dict[int, int]:
        """The page (from 1) of each puzzle number on the pages of one kind (puzzles or solutions)."""
        return {n: page_no for page_no, page in enumerate(self.pages, 1) if page.kind == kind
                for n in page.numbers}


# --- the index of IDs -----------------------------------------------------------------------------------

def index_char_width(size_pt: float = INDEX_PT) -> float:
    """The advance in mm of one character of the index's monospace face."""
    return text_width("0", size_pt, mono=True)


def index_number_width() -> float:
    """The width of the index's number column (four digits and a space)."""
    return 5 * index_char_width()


def index_lines(tatham_id: str, width_mm: float) -> list[str]:
    """An ID cut into blocks of INDEX_BLOCK characters, as many blocks on a line as fit `width_mm`."""
    blocks = [tatham_id[i:i + INDEX_BLOCK] for i in range(0, len(tatham_id), INDEX_BLOCK)]
    per_line = max(1, int((width_mm / index_char_width() + 1) // (INDEX_BLOCK + 1)))
    return [" ".join(blocks[i:i + per_line]) for i in range(0, len(blocks), per_line)]


def index_entry_height(lines: int) -> float:
    """The height in mm an index entry of `lines` lines takes, with a little space after it."""
    return (lines + 0.35) * INDEX_PT * PT * INDEX_LEADING


def index_pages(ids: Sequence[str], box_w: float, box_h: float) -> list[Page]:
    """Lay the IDs, numbered from 1, onto as many index pages as they need, never splitting an entry."""
    width = box_w - index_number_width()
    pages: list[Page] = []
    current: list[int] = []
    used = 0.0
    for number, tatham_id in enumerate(ids, 1):
        need = index_entry_height(len(index_lines(tatham_id, width)))
        if current and used + need > box_h - INDEX_HEAD:
            pages.append(Page("index", entries=tuple(current)))
            current, used = [], 0.0
        current.append(number)
        used += need
    if current:
        pages.append(Page("index", entries=tuple(current)))
    return pages


def plan_pages(shapes: Sequence[Shape], layout: Layout, margins: Margins,
               grouped: bool) -> tuple[list[Page], list[int]]:
    """Lay the book out: front matter, puzzles by section, solutions; kdp adds right-hand starts and notes.

    Grouped (progression) sections are filled so that only their last page is short, which may move
    a few grids after larger ones; ungrouped books keep the puzzles in the order given.
    """
    _, _, box_w, box_h = content_box(1, layout.trim, margins)
    puzzle_sizes = size_arrangements(shapes, (box_w, box_h), PUZZLE_SLOT, layout, layout.per_page)
    cap = layout.per_page or PUZZLE_SLOT.max_per_page
    puzzle_pages: list[Page] = []
    for section, numbers in sections(shapes, grouped):
        if grouped:
            filled = fill_section(numbers, shapes, puzzle_sizes, box_h, PUZZLE_SLOT, cap)
            puzzle_pages += [Page("puzzles", tuple(rows), section, full=i < len(filled) - 1)
                             for i, rows in enumerate(filled)]
        else:
            puzzle_pages += paginate(_rows(numbers, shapes, puzzle_sizes), box_h, PUZZLE_SLOT, cap, "puzzles",
                                     section)
    puzzle_pages, order = renumber(puzzle_pages)
    pages = [Page(kind) for kind in FRONT_KINDS] + puzzle_pages
    if layout.profile == "kdp" and len(pages) % 2 == 1:
        pages.append(Page("blank"))
    in_order = [shapes[n - 1] for n in order]
    solutions = solution_slot(layout.min_text_pt)
    pages += solution_pages(in_order, (box_w, box_h), solutions, layout)
    if not layout.ids_under:
        pages += index_pages([s.id for s in in_order], box_w, box_h)
    pages = [replace(p, cell=page_cell(p, box_w, box_h, PUZZLE_SLOT if p.kind == "puzzles" else solutions,
                                       layout.min_text_pt)) if p.kind in ("puzzles", "solutions") else p
             for p in pages]
    if layout.profile == "kdp":
        # KDP refuses interiors under 24 pages or with an odd count; ruled notes pages beat blank ones.
        pages += [Page("notes")] * kdp_padding(len(pages))
    return pages, [n - 1 for n in order]


def plan_book(shapes: Sequence[Shape], layout: Layout, grouped: bool = True) -> Plan:
    """Find margins and pages that agree: the kdp gutter depends on the (padded) page count it produces."""
    check_crop_marks(layout)
    pages_guess = KDP_MIN_PAGES
    for _ in range(8):
        margins = margins_for(layout.trim, layout.profile, pages_guess)
        try:
            pages, order = plan_pages(shapes, layout, margins, grouped)
        except OptionError as err:
            if layout.profile != "kdp" or pages_guess == KDP_MIN_PAGES:
                raise
            raise OptionError(f"{err} (a kdp book of {pages_guess} pages has a gutter of "
                              f"{kdp_gutter(pages_guess) / INCH:g} in)") from None
        if layout.profile == "pnp" or kdp_gutter(len(pages)) == kdp_gutter(pages_guess):
            break
        pages_guess = len(pages)
    return Plan(margins, tuple(pages), tuple(order))


def longest_id(cols: int, rows: int, density: float) -> str:
    """The widest ID a generated cols x rows puzzle of this island density can have (for planning ahead).

    Each island is one digit after at most one letter, plus one letter per 26 cells of water in a run.
    """
    islands = max(2, round(density * cols * rows))
    letters = islands + 1 + math.ceil(cols * rows / 26)
    # "m" is the widest character an ID can hold.
    return f"{cols}x{rows}m2:" + "m" * (islands + letters)
