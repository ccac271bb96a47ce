"""Drawing one puzzle: islands as circles with their clues, bridges between island edges."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from contextlib import contextmanager

import pytest

from hashi_print.render.book import example_puzzle
from hashi_print.render.canvas import SvgCanvas
from hashi_print.render.puzzle import (
    PUZZLE_STYLE,
    SOLUTION_STYLE,
    draw_puzzle,
    grid_size,
    min_cell_for_island,
)

SVG = "{http://www.w3.org/2000/svg}"


class Recorder:
    """A Canvas that records every call, so tests can read back what was drawn."""

    width = 210.0
    height = 297.0

    def __init__(self):
        self.calls: list[tuple[str, tuple, dict]] = []

    def __getattr__(self, name):
        if name in ("line", "circle", "rect", "polygon", "text"):
            return lambda *args, **kw: self.calls.append((name, args, kw))
        raise AttributeError(name)

    def new_page(self):
        self.calls.append(("new_page", (), {}))

    @contextmanager
    def group(self, id):
        yield

    def of(self, name):
        return [(a, k) for n, a, k in self.calls if n == name]


def test_each_island_is_a_circle_with_its_clue_centred():
    puzzle, _ = example_puzzle()
    rec = Recorder()
    cell = 10.0
    draw_puzzle(rec, puzzle, 20.0, 30.0, cell)
    circles = rec.of("circle")
    texts = rec.of("text")
    assert len(circles) == len(puzzle.islands) == len(texts)
    for isl, (args, kw), (targs, tkw) in zip(puzzle.islands, circles, texts, strict=True):
        cx, cy, r = args
        assert (cx, cy) == pytest.approx((20 + (isl.col + 0.5) * cell, 30 + (isl.row + 0.5) * cell))
        assert 2 * r == pytest.approx(PUZZLE_STYLE.island_ratio * cell)
        assert kw["fill"] == "#ffffff"
        assert targs[2] == str(isl.clue) and tkw["anchor"] == "middle"
        assert targs[0] == pytest.approx(cx) and cy < targs[1] < cy + r


def test_the_puzzle_shows_no_bridges_only_a_dotted_line_per_row():
    puzzle, _ = example_puzzle()
    rec = Recorder()
    cell = 8.0
    draw_puzzle(rec, puzzle, 0, 0, cell)
    lines = rec.of("line")
    assert len(lines) == puzzle.rows
    for row, (args, kw) in enumerate(lines):
        x1, y1, x2, y2 = args
        assert y1 == y2 == pytest.approx((row + 0.5) * cell)
        assert kw["dash"] == (0, cell) and kw["cap"] == "round"
        dots = int((x2 - x1) // cell) + 1
        assert dots == puzzle.cols


def test_the_solution_draws_every_bridge_between_island_edges():
    puzzle, solution = example_puzzle()
    rec = Recorder()
    cell = 6.0
    draw_puzzle(rec, puzzle, 0, 0, cell, solution=solution, style=SOLUTION_STYLE)
    lines = [a for a, _ in rec.of("line")]
    assert len(lines) == sum(b.count for b in solution.bridges)
    radius = SOLUTION_STYLE.island_ratio * cell / 2
    drawn = []
    for x1, y1, x2, y2 in lines:
        if y1 == pytest.approx(y2):
            row = round(y1 / cell - 0.5)
            c1, c2 = round((x1 - radius) / cell - 0.5), round((x2 + radius) / cell - 0.5)
            drawn.append((row, c1, row, c2))
        else:
            assert x1 == pytest.approx(x2)
            col = round(x1 / cell - 0.5)
            r1, r2 = round((y1 - radius) / cell - 0.5), round((y2 + radius) / cell - 0.5)
            drawn.append((r1, col, r2, col))
    expected = []
    for b in solution.bridges:
        expected += [(b.r1, b.c1, b.r2, b.c2)] * b.count
    assert sorted(drawn) == sorted(expected)
    first_circle = next(i for i, c in enumerate(rec.calls) if c[0] == "circle")
    last_line = max(i for i, c in enumerate(rec.calls) if c[0] == "line")
    assert last_line < first_circle


def test_min_cell_gives_five_millimetre_islands():
    cell = min_cell_for_island(5.0)
    assert cell * PUZZLE_STYLE.island_ratio == pytest.approx(5.0)
    puzzle, _ = example_puzzle()
    assert grid_size(puzzle, cell) == pytest.approx((6 * cell, 6 * cell))


def test_svg_drawing_parses_with_one_circle_per_island():
    puzzle, solution = example_puzzle()
    svg = SvgCanvas(80, 80)
    draw_puzzle(svg, puzzle, 5, 5, 10, solution=solution, style=SOLUTION_STYLE)
    root = ET.fromstring(svg.tostring().split("\n", 1)[1])
    circles = root.findall(f".//{SVG}circle")
    texts = sorted(t.text for t in root.findall(f".//{SVG}text"))
    assert len(circles) == len(puzzle.islands)
    assert texts == sorted(str(i.clue) for i in puzzle.islands)
    assert len(root.findall(f".//{SVG}line")) == sum(b.count for b in solution.bridges)
