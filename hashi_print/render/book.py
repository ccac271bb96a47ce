"""Puzzle books: front matter, puzzle and solution pages drawn from the plan, checked before writing."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from hashi_print.checks import check_isbn
from hashi_print.errors import OptionError
from hashi_print.i18n import N_, _, language, ngettext
from hashi_print.puzzle.book import BookPuzzle, Request, order_puzzles
from hashi_print.puzzle.model import GRADES, Puzzle, Solution
from hashi_print.render.book_plan import (
    CROP_SPACE,
    ID_GAP,
    ID_LEADING,
    INDEX_HEAD,
    INDEX_LEADING,
    INDEX_PT,
    KDP_MIN_OUTSIDE,
    PUZZLE_SLOT,
    REF_PT,
    SOLUTION_SLOT,
    Layout,
    Margins,
    Page,
    Row,
    Shape,
    SlotStyle,
    content_box,
    grid_extent,
    id_lines,
    index_entry_height,
    index_lines,
    index_number_width,
    kdp_gutter,
    longest_id,
    plan_book,
    row_tops,
    solution_slot,
    trim_size,
)
from hashi_print.render.canvas import PT, Canvas, PdfCanvas, Point, text_width, wrap_text
from hashi_print.render.paper import GREY, INK, TRIMS
from hashi_print.render.preflight import HOME_SAFE_MM, Insets, Preflight, PrintRules
from hashi_print.render.puzzle import FRAME_PAD, PICTURE_STYLE, PUZZLE_STYLE, SOLUTION_STYLE, draw_puzzle

# Ruled lines of the notes pages that pad a kdp book: about college-ruled spacing, in a light grey.
Box = tuple[float, float, float, float]  # x, y, width, height in mm
NOTES_RULE_SPACING = 8.0
NOTES_RULE_COLOR = "#c4c4c4"
SECTION_TITLES = {"title": N_("Title"), "copyright": N_("Copyright"), "contents": N_("Contents"),
                  "howto": N_("How to play"), "solutions": N_("Solutions"), "notes": N_("Notes"),
                  "index": N_("Puzzle IDs")}
# A section of puzzles is named after its grade.
GRADE_SECTIONS = {"easy": N_("Easy puzzles"), "medium": N_("Medium puzzles"), "hard": N_("Hard puzzles"),
                  "expert": N_("Expert puzzles")}
# The grades, so that the catalogs carry them.
GRADE_WORDS = (N_("easy"), N_("medium"), N_("hard"), N_("expert"))


@dataclass(frozen=True)
class BookOptions:
    """What the book looks like and says: title, trim, profile, order, front matter and print options."""

    title: str = "Hashi"
    trim: str = "a4"
    profile: str = "pnp"
    order: str = "progression"
    crop_marks: bool = False
    per_page: int | None = None
    author: str = ""
    year: int | None = None
    isbn: str = ""
    credit: bool = True
    note: str = ""
    color: str = "rgb"
    lang: str = "en"
    # Print each puzzle's ID under its grid (as before) instead of in the index at the back.
    ids_under: bool = False
    # The design of the KDP cover (see render/cover.py).
    cover_style: str = "classic"

    @property
    def layout(self) -> Layout:
        """The part of the options the page plan depends on."""
        return Layout(self.trim, self.profile, self.per_page, self.crop_marks, self.ids_under)


@dataclass(frozen=True)
class Book:
    """A finished book: the PDF bytes, the manifest (what is on which page) and any warnings."""

    pdf: bytes
    manifest: dict[str, object]
    pages: int
    warnings: tuple[str, ...]


# --- before any puzzle exists ----------------------------------------------------------------------

def shapes_of(puzzles: Sequence[BookPuzzle]) -> list[Shape]:
    """The shapes the plan needs, from finished puzzles."""
    return [Shape(bp.puzzle.cols, bp.puzzle.rows, bp.grade, bp.id) for bp in puzzles]


def planned_shapes(requests: Sequence[Request], order: str, fraction: float) -> list[Shape]:
    """The shapes of puzzles still to be generated (a `fraction` of cells islands), in book order, each with
    the longest ID it can have."""
    shapes = [Shape(cols, rows, grade, longest_id(cols, rows, fraction)) for cols, rows, grade in requests]
    if order == "as-generated":
        return shapes
    rank = {g: i for i, g in enumerate(GRADES)}
    return sorted(shapes, key=lambda s: (rank[s.grade], s.cols * s.rows, s.cols, s.rows))


def check_book_plan(requests: Sequence[Request], options: BookOptions, fraction: float) -> int:
    """Plan the book from the requests alone (a `fraction` of cells islands) and raise what would stop it;
    return its page count."""
    check_isbn(options.isbn)
    shapes = planned_shapes(requests, options.order, fraction)
    grouped = options.order == "progression"
    try:
        pages = plan_book(shapes, options.layout, grouped).pages
    except OptionError as err:
        if "does not fit this page" not in err.message or any(
                _plans(shapes, dataclasses.replace(options.layout, trim=trim), grouped) for trim in TRIMS):
            raise
        # No trim takes the grid, so "a larger trim" is no way out.
        raise OptionError(err.message.replace("use a larger trim or a smaller grid",
                                              "no trim takes a grid this large: use a smaller one")) from None
    if options.profile == "kdp":
        kdp_gutter(len(pages))
    return len(pages)


def _plans(shapes: Sequence[Shape], layout: Layout, grouped: bool) -> bool:
    """Whether the book's pages can be planned with this layout."""
    try:
        plan_book(shapes, layout, grouped)
    except OptionError:
        return False
    return True


def book_rules(options: BookOptions, pages: int, pad: float) -> PrintRules:
    """The preflight rules of a book: KDP's margins and 7 pt, or 6 pt and 5 mm from a home-printed sheet."""
    if options.profile != "kdp":
        return PrintRules("home printing", options.layout.min_text_pt,
                          lambda page: Insets(HOME_SAFE_MM, HOME_SAFE_MM, HOME_SAFE_MM, HOME_SAFE_MM))
    gutter, edge = kdp_gutter(pages), KDP_MIN_OUTSIDE

    def safe(page: int) -> Insets:
        """KDP's margins: the gutter at the spine, a quarter inch elsewhere (right-hand pages are odd)."""
        return Insets(edge, edge, edge, gutter) if page % 2 == 1 else Insets(edge, gutter, edge, edge)

    return PrintRules(f"KDP ({pages} pages)", options.layout.min_text_pt, safe)


# --- drawing helpers ---------------------------------------------------------------------------------

class _Shifted:
    """A Canvas that draws onto another one moved by (dx, dy): the trimmed page inside crop marks."""

    def __init__(self, canvas: PdfCanvas, dx: float, dy: float, width: float, height: float):
        self._c, self._dx, self._dy = canvas, dx, dy
        self.width, self.height = width, height

    def line(self, x1: float, y1: float, x2: float, y2: float, **kw: Any) -> None:
        """Draw a line on the shifted page."""
        self._c.line(x1 + self._dx, y1 + self._dy, x2 + self._dx, y2 + self._dy, **kw)

    def circle(self, cx: float, cy: float, r: float, **kw: Any) -> None:
        """Draw a circle on the shifted page."""
        self._c.circle(cx + self._dx, cy + self._dy, r, **kw)

    def rect(self, x: float, y: float, w: float, h: float, **kw: Any) -> None:
        """Draw a rectangle on the shifted page."""
        self._c.rect(x + self._dx, y + self._dy, w, h, **kw)

    def polygon(self, points: Sequence[Point], **kw: Any) -> None:
        """Draw a polygon on the shifted page."""
        self._c.polygon([(x + self._dx, y + self._dy) for x, y in points], **kw)

    def text(self, x: float, y: float, s: str, **kw: Any) -> None:
        """Draw text on the shifted page."""
        self._c.text(x + self._dx, y + self._dy, s, **kw)

    def group(self, id: str) -> AbstractContextManager[None]:
        """Group drawing calls (a no-op in PDF)."""
        return self._c.group(id)

    def new_page(self) -> None:
        """Start the next page."""
        self._c.new_page()

    def finish(self, name: str) -> bytes:
        """End the drawing and return the PDF's bytes."""
        return self._c.finish(name)


def _crop_marks(canvas: PdfCanvas, dx: float, dy: float, w: float, h: float) -> None:
    """Draw the eight crop marks 3 to 7 mm outside the trimmed page's corners."""
    gap, length = 3.0, 3.8
    for x in (dx, dx + w):
        for y in (dy, dy + h):
            sx = -1 if x == dx else 1
            sy = -1 if y == dy else 1
            canvas.line(x + sx * gap, y, x + sx * (gap + length), y, width=0.2)
            canvas.line(x, y + sy * gap, x, y + sy * (gap + length), width=0.2)


def grade_mix(puzzles: Sequence[BookPuzzle]) -> str:
    """Say how many puzzles of each grade the book holds, easiest first."""
    counts = Counter(bp.grade for bp in puzzles)
    names = [d for d in GRADES if counts[d]]
    # No-break spaces keep each count with its grade and the dot with what it follows when a line wraps.
    return "\u00a0· ".join(f"{counts[d]}\u00a0{_(d)}" for d in names)


def _size_names(sizes: Iterable[tuple[int, int]]) -> str:
    """Name grid sizes, smallest first: "7×7, 10×10 and 15×15"."""
    names = [f"{c}×{r}" for c, r in sorted(set(sizes), key=lambda s: (s[0] * s[1], s))]
    if len(names) == 1:
        return names[0]
    return _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])


def size_mix(puzzles: Sequence[BookPuzzle]) -> str:
    """Say which grid sizes the book holds, smallest first."""
    return _("{sizes} grids").format(sizes=_size_names((bp.puzzle.cols, bp.puzzle.rows) for bp in puzzles))


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
ABOUT_INDEX = N_("Under each puzzle is the page of its solution, and over each solution the page of its "
                 "puzzle. Every puzzle also has an ID, listed by number at the very back of the book: type "
                 "it, without the spaces, into Simon Tatham's Bridges (Game > Specific…) to play the puzzle "
                 "on a computer or phone. The grey dots mark the grid: bridges run along them.")
INDEX_NOTE = N_("Type an ID without its spaces into Simon Tatham's Bridges (Game > Specific…) to play the "
                "puzzle on screen.")


def _draw_paragraphs(canvas: Canvas, x: float, y: float, width: float, paragraphs: Sequence[str],
                     size_pt: float,
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


def _draw_title_page(canvas: Canvas, options: BookOptions, puzzles: Sequence[BookPuzzle], box: Box) -> None:
    """Draw the title page: title, author, what is inside, and a solved example as the picture."""
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
    canvas.text(cx, title_y + 27, size_mix(puzzles), size_pt=11, anchor="middle", color=GREY)
    canvas.text(cx, title_y + 34, grade_mix(puzzles), size_pt=11, anchor="middle", color=GREY)
    puzzle, solution = example_puzzle()
    cell = min(w * 0.6, h * 0.35) / puzzle.cols
    gx = cx - puzzle.cols * cell / 2
    gy = y + h * 0.5
    draw_puzzle(canvas, puzzle, gx, gy, cell, solution=solution, style=PICTURE_STYLE)
    canvas.text(cx, y + h - 8, _("with solutions"), size_pt=10, anchor="middle", color=GREY)
    if options.author:
        canvas.text(cx, y + h, options.author, size_pt=13, anchor="middle", color=INK)


def copyright_lines(options: BookOptions, puzzles: int, solutions_page: int) -> list[str]:
    """The lines of the copyright page, each one paragraph."""
    holder = " ".join(str(p) for p in (options.year, options.author) if p)
    lines = [options.title]
    if holder:
        lines.append(_("Copyright © {holder}. All rights reserved.").format(holder=holder))
    if options.isbn:
        lines.append(f"ISBN {options.isbn}")
    lines.append(_("Each of the {count} puzzles has exactly one solution; the solutions start on page "
                   "{page}.").format(count=puzzles, page=solutions_page))
    if options.credit and options.note:
        lines.append(_("Puzzles generated, proven unique and graded with hashi-print ({note}).")
                     .format(note=options.note))
    elif options.credit:
        lines.append(_("Puzzles generated, proven unique and graded with hashi-print."))
    return lines


def _draw_copyright_page(canvas: Canvas, options: BookOptions, puzzles: int, solutions_page: int, box: Box,
                         size_pt: float) -> None:
    """Draw the copyright page: its short paragraphs set at the foot of the type area."""
    x, y, w, h = box
    paragraphs = [wrap_text(line, size_pt, w) for line in copyright_lines(options, puzzles, solutions_page)]
    lead = size_pt * PT * 1.4
    height = sum(len(p) for p in paragraphs) * lead + (len(paragraphs) - 1) * lead * 0.6
    yy = y + h - height + lead
    for k, para in enumerate(paragraphs):
        for line in para:
            canvas.text(x, yy, line, size_pt=size_pt, bold=k == 0, color=INK)
            yy += lead
        yy += lead * 0.6


def contents_entries(pages: Sequence[Page]) -> list[tuple[str, str, int]]:
    """What the contents page lists: (section, detail, first page) for each section after the contents."""
    entries: list[tuple[str, str, int]] = []
    seen: set[tuple[str, str]] = set()
    for page_no, page in enumerate(pages, 1):
        key = (page.kind, page.section)
        if key in seen or page.kind in ("title", "copyright", "contents", "blank"):
            continue
        seen.add(key)
        if page.kind == "puzzles":
            same = [p for p in pages if (p.kind, p.section) == key]
            numbers = [n for p in same for n in p.numbers]
            sizes = _size_names(row.grid for p in same for row in p.rows)
            entries.append((section_name(page.section), f"{numbers[0]}–{numbers[-1]} · {sizes}", page_no))
        else:
            entries.append((_(SECTION_TITLES[page.kind]), "", page_no))
    return entries


def section_name(section: str) -> str:
    """The heading of a section of puzzles: "Easy puzzles", or "Puzzles" when the book has no grades."""
    if not section:
        return _("Puzzles")
    if section in GRADE_SECTIONS:
        return _(GRADE_SECTIONS[section])
    return f"{section.capitalize()} puzzles"


def _draw_contents_page(canvas: Canvas, pages: Sequence[Page], box: Box, small_pt: float) -> None:
    """Draw the contents: each section with its puzzle numbers and sizes, dotted to its first page."""
    x, y, w = box[:3]
    canvas.text(x, y + 8, _("Contents"), size_pt=20, bold=True, color=INK)
    yy = y + 24
    for name, detail, page_no in contents_entries(pages):
        number = str(page_no)
        canvas.text(x, yy, name, size_pt=12, bold=True, color=INK)
        canvas.text(x + w, yy, number, size_pt=12, anchor="end", color=INK)
        start = x + text_width(name, 12, bold=True) + 2
        end = x + w - text_width(number, 12) - 2
        dots = max(0, int((end - start) / text_width(". ", 12)))
        if dots > 2:
            canvas.text(end, yy, ". " * dots, size_pt=12, anchor="end", color=GREY)
        if detail:
            canvas.text(x, yy + 5.5, detail, size_pt=max(9.0, small_pt), color=GREY)
            yy += 5.5
        yy += 11


class _Measure:
    """A Canvas that draws nothing: used to measure how tall a page's text would be."""

    width = height = 0.0

    def line(self, *args: Any, **kw: Any) -> None:
        """Draw nothing."""

    circle = rect = polygon = text = line

    def group(self, id: str) -> AbstractContextManager[None]:
        """Group nothing."""
        return nullcontext()

    def new_page(self) -> None:
        """Start nothing."""

    def finish(self, name: str) -> bytes:
        """Nothing was drawn."""
        return b""


def _draw_howto_page(canvas: Canvas, box: Box, about: str) -> None:
    """Draw the rules in plain words with the example puzzle, at the largest scale that fits the page."""
    x, y, w, h = box
    for scale in (1.0, 0.94, 0.88, 0.82, 0.76, 0.7):
        if _howto(_Measure(), box, scale, about) <= y + h:
            break
    _howto(canvas, box, scale, about)


def _howto(canvas: Canvas, box: Box, scale: float, about: str) -> float:
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
    return _draw_paragraphs(canvas, x, yy + 10 * scale, w, [about], small)


def notes_rules(top: float, bottom: float, spacing: float = NOTES_RULE_SPACING) -> list[float]:
    """Return the y of evenly spaced ruled lines below `top`, about `spacing` apart, the last at `bottom`."""
    count = max(1, round((bottom - top) / spacing))
    step = (bottom - top) / count
    return [top + i * step for i in range(1, count + 1)]


def _draw_notes_page(canvas: Canvas, box: Box) -> None:
    """Draw a notes page: the heading, then light ruled lines across the type area down to its foot."""
    x, y, w, h = box
    # The heading sits where "How to play" does, so the two text pages of the book match.
    canvas.text(x, y + 8, _("Notes"), size_pt=20, bold=True, color=INK)
    for rule_y in notes_rules(y + 12, y + h):
        canvas.line(x, rule_y, x + w, rule_y, width=0.2, color=NOTES_RULE_COLOR)



@dataclass(frozen=True)
class PageRefs:
    """Where each puzzle and its solution are printed, and whether IDs go under the grids."""

    puzzles: Mapping[int, int]
    solutions: Mapping[int, int]
    ids_under: bool


def _draw_puzzle_block(canvas: Canvas, bp: BookPuzzle, number: int, cell: float, origin: Point, id_pt: float,
                       refs: PageRefs) -> None:
    """Draw one numbered puzzle: number and grade above, its solution's page (and ID) below."""
    gw, gh = bp.puzzle.cols * cell, bp.puzzle.rows * cell
    left, top = origin[0], origin[1] + PUZZLE_SLOT.above
    gx, gy = left + FRAME_PAD, top + FRAME_PAD
    right = left + grid_extent(bp.puzzle.cols, cell)
    canvas.text(left, top - 2.2, str(number), size_pt=13, bold=True, color=INK)
    canvas.text(right, top - 2.2, f"{_(bp.grade)} · {bp.puzzle.cols}×{bp.puzzle.rows}", size_pt=8,
                anchor="end", color=GREY)
    draw_puzzle(canvas, bp.puzzle, gx, gy, cell)
    ly = gy + gh + FRAME_PAD + ID_GAP + REF_PT * PT
    canvas.text(right, ly, _("Solution p. {page}").format(page=refs.solutions[number]), size_pt=REF_PT,
                anchor="end", color=INK)
    if refs.ids_under:
        ly += REF_PT * PT * (ID_LEADING - 1) + ID_GAP + id_pt * PT
        for line in id_lines(bp.id, gw, id_pt):
            canvas.text(left, ly, line, size_pt=id_pt, color=INK)
            ly += id_pt * PT * ID_LEADING


def _draw_solution_block(canvas: Canvas, bp: BookPuzzle, number: int, cell: float, origin: Point,
                         id_pt: float,
                         refs: PageRefs) -> None:
    """Draw one numbered solution, with the page of its puzzle."""
    left, top = origin[0], origin[1] + SOLUTION_SLOT.above
    canvas.text(left, top - 1.5, str(number), size_pt=9, bold=True, color=INK)
    canvas.text(left + grid_extent(bp.puzzle.cols, cell), top - 1.5,
                _("Puzzle p. {page}").format(page=refs.puzzles[number]), size_pt=REF_PT, anchor="end",
                color=INK)
    draw_puzzle(canvas, bp.puzzle, left + FRAME_PAD, top + FRAME_PAD, cell, solution=bp.solution,
                style=SOLUTION_STYLE)


def _spread(total: float, block: float, n: int, gap: float) -> list[float]:
    """Place n equal blocks along a length: even spacing, half of it at the ends, never closer than `gap`."""
    free = total - n * block
    if n == 1:
        return [free / 2]
    between = max(free / n, min(gap, free / (n - 1)))
    start = (free - between * (n - 1)) / 2
    return [start + i * (block + between) for i in range(n)]


def row_origins(row: Row, box: Box, top: float, gap: float, cell: float = 0.0) -> list[tuple[float, float]]:
    """Return the top-left corner of each grid block (frame included) of a row whose block starts at `top`."""
    x, _, w, _ = box
    xs = _spread(w, grid_extent(row.grid[0], cell or row.arrangement.cell), row.arrangement.cols, gap)
    return [(x + xs[i], top) for i in range(len(row.numbers))]


def page_slot(page: Page, min_text_pt: float) -> SlotStyle:
    """The slot style of a page of puzzles or of solutions."""
    return PUZZLE_SLOT if page.kind == "puzzles" else solution_slot(min_text_pt)


def _draw_grid_page(canvas: Canvas, page: Page, puzzles: Sequence[BookPuzzle], box: Box, id_pt: float,
                    refs: PageRefs) -> None:
    """Draw a page of puzzles or solutions: its rows from the top, every grid at the page's one scale."""
    slot = page_slot(page, id_pt)
    draw = _draw_puzzle_block if page.kind == "puzzles" else _draw_solution_block
    cell_of = page.cell or None
    for row, top in zip(page.rows, row_tops(page, box[3], slot, id_pt), strict=True):
        cell = cell_of or row.arrangement.cell
        origins = row_origins(row, box, box[1] + top, slot.gap, cell)
        for number, (ox, oy) in zip(row.numbers, origins, strict=True):
            bp = puzzles[number - 1]
            # A grid smaller than its slot (solutions share slots sized for the page's largest) is centred.
            ox += (grid_extent(row.grid[0], cell) - grid_extent(bp.puzzle.cols, cell)) / 2
            draw(canvas, bp, number, cell, (ox, oy), id_pt, refs)


def _draw_index_page(canvas: Canvas, page: Page, puzzles: Sequence[BookPuzzle], box: Box,
                     first: bool) -> None:
    """Draw a page of the index: each puzzle's number and its ID in blocks, in a monospace face."""
    x, y, w, _h = box
    canvas.text(x, y + 8, _(SECTION_TITLES["index"]), size_pt=20, bold=True, color=INK)
    if first:
        note = wrap_text(_(INDEX_NOTE), 8, w)
        for k, line in enumerate(note[:2]):
            canvas.text(x, y + 14 + k * 8 * PT * 1.3, line, size_pt=8, color=INK)
    number_w = index_number_width()
    lead = INDEX_PT * PT * INDEX_LEADING
    yy = y + INDEX_HEAD
    for number in page.entries:
        lines = index_lines(puzzles[number - 1].id, w - number_w)
        canvas.text(x + number_w - text_width(" ", INDEX_PT, mono=True), yy, str(number), size_pt=INDEX_PT,
                    anchor="end", bold=True, color=INK)
        for k, line in enumerate(lines):
            canvas.text(x + number_w, yy + k * lead, line, size_pt=INDEX_PT, color=INK, mono=True)
        yy += index_entry_height(len(lines))


def _running_head(canvas: Canvas, page: Page, page_no: int, trim: str, margins: Margins,
                  profile: str) -> None:
    """Draw the page number at the foot and, on puzzle and solution pages, a small running head."""
    w, h = trim_size(trim)
    if page.kind in ("title", "copyright", "blank"):
        return
    # Both sit in the margin, clear of the type area and of KDP's quarter inch from the trim.
    foot = h - margins.bottom + 9.0
    if profile == "kdp":
        x, anchor = (w - margins.outside, "end") if page_no % 2 == 1 else (margins.outside, "start")
    else:
        x, anchor = w / 2, "middle"
    canvas.text(x, foot, str(page_no), size_pt=9, anchor=anchor, color=GREY)
    if page.kind in ("puzzles", "solutions"):
        first, last = min(page.numbers), max(page.numbers)
        if page.kind == "puzzles":
            what = _("Puzzle {n}") if first == last else _("Puzzles {first}–{last}")
        else:
            what = _("Solution {n}") if first == last else _("Solutions {first}–{last}")
        what = what.format(n=first, first=first, last=last)
        box = content_box(page_no, trim, margins)
        hx, hanchor = (box[0] + box[2], "end") if page_no % 2 == 1 or profile == "pnp" else (box[0], "start")
        canvas.text(hx, margins.top - 4.5, what, size_pt=8, anchor=hanchor, color=GREY)


# --- the book ---------------------------------------------------------------------------------------

def render_book(puzzles: Sequence[BookPuzzle], options: BookOptions) -> Book:
    """Compose, draw and preflight the book in its language; return the PDF, the manifest and any warnings."""
    with language(options.lang):
        return _render_book(puzzles, options)


def _render_book(puzzles: Sequence[BookPuzzle], options: BookOptions) -> Book:
    """Compose, draw and preflight the whole book in the current language."""
    if not puzzles:
        raise OptionError("a book needs at least one puzzle")
    check_isbn(options.isbn)
    ordered = order_puzzles(puzzles, options.order)
    plan = plan_book(shapes_of(ordered), options.layout, options.order == "progression")
    # The plan may move a few grids of a grade to its last page, so its numbering is the book's.
    ordered = [ordered[i] for i in plan.order]
    margins, pages = plan.margins, plan.pages
    w, h = trim_size(options.trim)
    pad = CROP_SPACE if options.crop_marks else 0.0
    subject = _("{count} Hashiwokakero puzzles with solutions").format(count=len(ordered))
    preflight = Preflight(book_rules(options, len(pages), pad), w + 2 * pad, h + 2 * pad)
    pdf = PdfCanvas(None, w + 2 * pad, h + 2 * pad, title=options.title, author=options.author,
                    subject=subject, color=options.color, preflight=preflight)
    if options.crop_marks:
        pdf.set_boxes(trim=(pad, pad, w, h))
    canvas = _Shifted(pdf, pad, pad, w, h) if pad else pdf
    refs = PageRefs(plan.where("puzzles"), plan.where("solutions"), options.ids_under)
    where: dict[int, dict[str, float]] = {}
    for page_no, page in enumerate(pages, 1):
        if page_no > 1:
            pdf.new_page()
        if options.crop_marks:
            _crop_marks(pdf, pad, pad, w, h)
        box = content_box(page_no, options.trim, margins)
        _running_head(canvas, page, page_no, options.trim, margins, options.profile)
        if options.profile == "pnp":
            _bookmark(pdf, page, page_no, pages)
        _draw_page(canvas, pages, page_no, box, ordered, options, refs)
        if page.kind in ("puzzles", "solutions"):
            for row in page.rows:
                for number in row.numbers:
                    where.setdefault(number, {})[page.kind] = page_no
                    where[number][f"{page.kind}_cell"] = page.cell or row.arrangement.cell
    data = pdf.tobytes("the book")
    manifest = _manifest(ordered, options, pages, where, margins)
    # No warnings today: notes pages fix a short or odd kdp book, and too many pages is an OptionError.
    return Book(data, manifest, len(pages), ())


def _draw_page(canvas: Canvas, pages: Sequence[Page], page_no: int, box: Box, ordered: Sequence[BookPuzzle],
               options: BookOptions, refs: PageRefs) -> None:
    """Draw what page `page_no` holds inside its content box (the running head is drawn apart)."""
    page, id_pt = pages[page_no - 1], options.layout.min_text_pt
    if page.kind == "title":
        _draw_title_page(canvas, options, ordered, box)
    elif page.kind == "copyright":
        solutions_page = next(n for n, p in enumerate(pages, 1) if p.kind == "solutions")
        _draw_copyright_page(canvas, options, len(ordered), solutions_page, box, max(8.0, id_pt))
    elif page.kind == "contents":
        _draw_contents_page(canvas, pages, box, id_pt)
    elif page.kind == "howto":
        _draw_howto_page(canvas, box, ABOUT if options.ids_under else ABOUT_INDEX)
    elif page.kind == "index":
        first_index = next((n for n, p in enumerate(pages, 1) if p.kind == "index"), 0)
        _draw_index_page(canvas, page, ordered, box, page_no == first_index)
    elif page.kind == "notes":
        _draw_notes_page(canvas, box)
    elif page.kind in ("puzzles", "solutions"):
        _draw_grid_page(canvas, page, ordered, box, id_pt, refs)


def _bookmark(pdf: PdfCanvas, page: Page, page_no: int, pages: Sequence[Page]) -> None:
    """Add an outline entry where a section starts (print-and-play only)."""
    first = all((p.kind, p.section) != (page.kind, page.section) for p in pages[:page_no - 1])
    if not first or page.kind == "blank":
        return
    pdf.bookmark(section_name(page.section) if page.kind == "puzzles" else _(SECTION_TITLES[page.kind]))


def _manifest(ordered: Sequence[BookPuzzle], options: BookOptions, pages: Sequence[Page],
              where: dict[int, dict[str, float]], margins: Margins) -> dict[str, object]:
    """Describe the book: page size, margins, and each puzzle's number, pages, ID and solution."""
    w, h = trim_size(options.trim)
    versions = {bp.generator for bp in ordered}
    return {
        "format": "hashi-book-manifest/1",
        "title": options.title,
        # The generator version that made every puzzle, when they agree (null for puzzles read from a file).
        "generator": versions.pop() if len(versions) == 1 else None,
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
             "difficulty": bp.grade, "seed": bp.seed, "generator": bp.generator,
             "island_mm": round(where[n]["puzzles_cell"] * PUZZLE_STYLE.island_ratio, 3),
             "solution_island_mm": round(where[n]["solutions_cell"] * SOLUTION_STYLE.island_ratio, 3),
             "solution": bp.solution.as_lists()}
            for n, bp in enumerate(ordered, 1)
        ],
    }
