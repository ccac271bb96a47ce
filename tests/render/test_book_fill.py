"""Full pages and one scale per grid size, measured from the book's PDF (and on plans, by hypothesis)."""

from __future__ import annotations

import dataclasses
import io
import re
from collections import defaultdict
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from hashi_print.errors import OptionError
from hashi_print.puzzle.book import book_plan_requests, generate_puzzles
from hashi_print.puzzle.generate import resolve_density
from hashi_print.puzzle.model import GRADES
from hashi_print.render.book import BookOptions, planned_shapes, render_book
from hashi_print.render.book_plan import PUZZLE_SLOT, Layout, content_box, plan_book, rows_height
from tests.pdfink import page_ink

BLACK = ("RG", 0.0, 0.0, 0.0)  # the frame around every puzzle grid is black
SIZE = re.compile(r"(\d+)\D(\d+)$")  # "easy · 7×7" (the × comes back as a raw code)
POOL_SIZES = [(5, 5), (7, 7), (8, 8), (10, 7), (10, 10), (12, 12), (15, 15)]


@dataclass(frozen=True)
class Block:
    """One printed puzzle as found on the page: number, grid size, grade, island width, its box in mm, the
    least distance from an island to the frame, and the page its solution is said to be on."""

    number: int
    size: tuple[int, int]
    grade: str
    island: float
    top: float
    bottom: float
    left: float
    right: float
    frame_gap: float
    solution_page: int


def puzzle_blocks(reader: PdfReader, index: int) -> list[Block]:
    """Find every puzzle grid on a page by its frame, with its number and label above and its solution's page
    below."""
    glyphs, inks = page_ink(reader, index)
    blocks = []
    frames = [i for i in inks
              if i.stroked and not i.filled and i.stroke == BLACK and i.box[2] - i.box[0] > 15]
    for frame in frames:
        left, top, right, bottom = frame.box
        number = next(g for g in glyphs if "Bold" in g.font and abs(g.box[0] - left) < 0.5
                      and 0 < top - g.box[3] < 3.5)
        label = next(g for g in glyphs if abs(g.box[2] - right) < 0.5 and 0 < top - g.box[3] < 3.5
                     and "Bold" not in g.font)
        ref = next(g for g in glyphs if abs(g.box[2] - right) < 0.5 and 0 <= g.box[1] - bottom < 3.0)
        assert ref.text.startswith("Solution p. ") and ref.size >= 7.0, ref
        size = SIZE.search(label.text)
        circles = [i.box for i in inks if i.filled and i.stroked and i.fill == ("rg", 1.0, 1.0, 1.0)
                   and left <= i.box[0] and i.box[2] <= right and top <= i.box[1] and i.box[3] <= bottom]
        islands = {round(c[2] - c[0], 2) for c in circles}
        assert len(islands) == 1, (index + 1, islands)
        # The frame's line is 0.2 mm wide and each island's outline is inside its box: measure ink to ink.
        gap = min(min(c[0] - left, c[1] - top, right - c[2], bottom - c[3]) for c in circles) - 0.2
        blocks.append(Block(int(number.text), (int(size[1]), int(size[2])), label.text.split()[0],
                            islands.pop(), number.box[1], ref.box[3], left, right, gap,
                            int(ref.text.split()[-1])))
    return blocks


def measured_rows(blocks: list[Block]) -> list[list[Block]]:
    """Group a page's blocks into rows by their tops, top to bottom, each left to right."""
    rows: list[list[Block]] = []
    for b in sorted(blocks, key=lambda b: (round(b.top), b.left)):
        if rows and abs(rows[-1][0].top - b.top) < 1.0:
            rows[-1].append(b)
        else:
            rows.append([b])
    return [sorted(r, key=lambda b: b.left) for r in rows]


def check_book(book, per_page: int | None) -> dict:
    """Read every puzzle page back and assert full pages, one island size per page (5 to 8 mm), edge islands
    clear of the frame, solution pages named, and no small grid alone but on its grade's last page; return
    the island sizes of each grid size."""
    reader = PdfReader(io.BytesIO(book.pdf))
    manifest = book.manifest
    m = manifest["margins_mm"]
    box_h = manifest["trim_mm"][1] - m["top"] - m["bottom"]
    pages = {}
    for index, kind in enumerate(manifest["page_kinds"]):
        if kind == "puzzles":
            pages[index + 1] = measured_rows(puzzle_blocks(reader, index))
    rows = [row for page in pages.values() for row in page]
    blocks = [b for row in rows for b in row]
    # Every puzzle once, numbered in reading order.
    assert [b.number for b in blocks] == list(range(1, len(manifest["puzzles"]) + 1))
    islands = defaultdict(set)
    height, widest = {}, defaultdict(int)
    solution_at = {e["number"]: e["solution_page"] for e in manifest["puzzles"]}
    for row in rows:
        for b in row:
            islands[b.size].add(b.island)
            height[b.size] = max(height.get(b.size, 0.0), b.bottom - b.top)
            assert b.top >= m["top"] - 0.5 and b.bottom <= m["top"] + box_h + 0.5
            # Islands of 5 to 8 mm (measured over their outline, at most 0.45 mm wide).
            assert 5.0 - 0.01 <= b.island <= 8.0 + 0.46, b
            assert b.frame_gap >= 1.5 - 0.01, b
            assert b.solution_page == solution_at[b.number]
        widest[row[0].size] = max(widest[row[0].size], len(row))
    for page_no, page in pages.items():
        assert len({b.island for row in page for b in row}) == 1, page_no
    gaps = [b[0].top - max(x.bottom for x in a)
            for page in pages.values() for a, b in zip(page, page[1:], strict=False)]
    # The least white the book leaves between two rows; a book without stacked rows shows it across a row
    # (where the grids are spread, so it can only be larger), and one grid a page is taken at 7 mm.
    across = [b.left - a.right for row in rows for a, b in zip(row, row[1:], strict=False)]
    gap = min(gaps or across or [7.0])
    sections = defaultdict(list)
    for page_no, page in pages.items():
        grades = {b.grade for row in page for b in row}
        assert len(grades) == 1, (page_no, grades)
        sections[grades.pop()].append(page_no)
    assert list(sections) == [g for g in GRADES if g in sections]
    for section_pages in sections.values():
        assert section_pages == list(range(section_pages[0], section_pages[-1] + 1))
        for k, page_no in enumerate(section_pages[:-1]):
            page = pages[page_no]
            count = sum(len(r) for r in page)
            if count == 1:
                # One grid alone (not on its grade's last page) only where two of its size cannot share.
                lone = page[0][0]
                w_box = manifest["trim_mm"][0] - m["inside"] - m["outside"]
                small = min(5.0 / 0.78 * x + 3.0 for x in lone.size)
                assert 2 * small + 7.0 > min(w_box, box_h), (page_no, lone.size)
            if count == (per_page or PUZZLE_SLOT.max_per_page):
                continue
            later = {b.size for p in section_pages[k + 1:] for row in pages[p] for b in row}
            # A size's block is as tall as its tallest printed grid (the longest ID of the size).
            free = box_h - sum(height[r[0].size] for r in page) - gap * (len(page) - 1)
            # Not half empty (a gap's worth of slack for two rows that each need just over half the page).
            assert free <= box_h / 2 + gap, (page_no, free, box_h)
            room = [s for s in later if height[s] + gap + 1.0 <= free]
            holes = [r[0].size for r in page if r[0].size in later and len(r) < widest[r[0].size]]
            assert not room and not holes, (page_no, free, room, holes)
    return dict(islands)


@pytest.fixture(scope="module")
def pool():
    """Two generated puzzles of each pool size, to lay out in many books (layout only needs their shapes)."""
    requests = [(c, r, "easy") for c, r in POOL_SIZES for _ in range(2)]
    made = list(generate_puzzles(requests, seed=11))
    return {size: [p for p in made if (p.puzzle.cols, p.puzzle.rows) == size] for size in POOL_SIZES}


def book_of(pool, count: int, sizes, grades) -> list:
    """A book's puzzles: `count` of them, sizes and grades taken round-robin from the pool."""
    out = []
    for i in range(count):
        size = sizes[(i // len(grades)) % len(sizes)]
        out.append(dataclasses.replace(pool[size][i % 2], grade=grades[i % len(grades)]))
    return out


BOOKS = [
    ("6x9", "kdp", 40, [(7, 7), (10, 10), (15, 15)], GRADES, None),
    ("letter", "pnp", 30, [(5, 5), (8, 8), (12, 12)], GRADES, None),
    ("a4", "pnp", 27, [(7, 7), (10, 7), (10, 10), (15, 15)], ("easy", "hard"), None),
    ("a4", "kdp", 33, [(8, 8), (12, 12)], ("medium",), None),
    ("6x9", "pnp", 17, [(5, 5), (7, 7)], ("easy", "expert"), 3),
    ("letter", "kdp", 22, [(7, 7), (10, 10)], GRADES, 2),
]


@pytest.mark.parametrize(("trim", "profile", "count", "sizes", "grades", "per_page"), BOOKS)
def test_every_page_but_a_sections_last_is_full_and_its_grids_share_one_scale(pool, trim, profile, count,
                                                                              sizes, grades, per_page):
    puzzles = book_of(pool, count, sizes, list(grades))
    book = render_book(puzzles, BookOptions(trim=trim, profile=profile, per_page=per_page))
    scales = check_book(book, per_page)
    assert set(scales) == set(sizes)


def test_a_40_puzzle_kdp_book_has_no_page_holding_a_lone_10x10(pool):
    puzzles = book_of(pool, 40, [(7, 7), (10, 10), (15, 15)], list(GRADES))
    book = render_book(puzzles, BookOptions(trim="6x9", profile="kdp"))
    check_book(book, None)
    by_page = defaultdict(list)
    for entry in book.manifest["puzzles"]:
        by_page[entry["page"]].append(entry)
    last_of_grade = {max(e["page"] for e in book.manifest["puzzles"] if e["difficulty"] == g) for g in GRADES}
    for page, entries in by_page.items():
        if page not in last_of_grade:
            assert [e["width"] for e in entries] != [10], page


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(trim=st.sampled_from(["6x9", "letter", "a4"]), profile=st.sampled_from(["pnp", "kdp"]),
       count=st.integers(1, 45),
       sizes=st.lists(st.sampled_from(POOL_SIZES), min_size=1, max_size=4, unique=True),
       grades=st.sampled_from([GRADES, ("easy",), ("medium", "expert")]),
       per_page=st.sampled_from([None, None, 2, 4]))
def test_property_full_pages_and_one_scale_per_size_in_the_pdf(pool, trim, profile, count, sizes, grades,
                                                              per_page):
    puzzles = book_of(pool, count, sizes, list(grades))
    try:
        book = render_book(puzzles, BookOptions(trim=trim, profile=profile, per_page=per_page))
    except OptionError:
        return  # a size too large for the trim, or a --per-page it cannot hold: refused in words
    check_book(book, per_page)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(trim=st.sampled_from(["6x9", "letter", "a4", "8.5x11"]), profile=st.sampled_from(["pnp", "kdp"]),
       count=st.integers(1, 120),
       sizes=st.lists(st.tuples(st.integers(5, 15), st.integers(5, 15)), min_size=1, max_size=5, unique=True),
       grade=st.sampled_from(["mixed", "easy"]), per_page=st.sampled_from([None, None, 1, 2, 3, 4, 5, 6]))
def test_property_planned_pages_leave_no_room_for_what_comes_later(trim, profile, count, sizes, grade,
                                                                    per_page):
    shapes = planned_shapes(book_plan_requests(count, sizes, grade), "progression", resolve_density(None))
    layout = Layout(trim, profile, per_page)
    try:
        plan = plan_book(shapes, layout)
    except OptionError:
        return
    assert sorted(plan.order) == list(range(count))
    box_h = content_box(1, trim, plan.margins)[3]
    cap = per_page or PUZZLE_SLOT.max_per_page
    pages = [p for p in plan.pages if p.kind == "puzzles"]
    assert [n for p in pages for n in p.numbers] == list(range(1, count + 1))
    scale = {}
    sections = defaultdict(list)
    for page in pages:
        sections[page.section].append(page)
        assert len(page.numbers) <= cap and rows_height(page.rows, PUZZLE_SLOT.gap) <= box_h + 1e-6
        for row in page.rows:
            assert scale.setdefault(row.grid, row.arrangement) == row.arrangement
            assert all(shapes[plan.order[n - 1]].grade == page.section for n in row.numbers)
    for section in sections.values():
        for k, page in enumerate(section[:-1]):
            if len(page.numbers) == cap:
                continue
            later = {row.grid: row.arrangement for p in section[k + 1:] for row in p.rows}
            free = box_h - rows_height(page.rows, PUZZLE_SLOT.gap)
            assert free <= box_h / 2 + PUZZLE_SLOT.gap
            assert not [g for g, a in later.items() if a.block_h + PUZZLE_SLOT.gap <= free + 1e-6]
            assert not [r for r in page.rows if r.grid in later and len(r.numbers) < r.arrangement.cols]
