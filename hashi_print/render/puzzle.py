"""Drawing one classic puzzle, or its solution, on a Canvas: islands as circles, bridges as lines."""

from __future__ import annotations

from dataclasses import dataclass

from hashi_print.puzzle.model import Puzzle, Solution
from hashi_print.render.canvas import PT, Canvas
from hashi_print.render.paper import INK

# Height of a digit in Bitstream Vera as a fraction of the font size (1493 / 2048 units).
DIGIT_HEIGHT = 0.729
# The frame stands this far outside the grid, so an edge island keeps at least 1.5 mm from it.
FRAME_PAD = 1.5


@dataclass(frozen=True)
class GridStyle:
    """How a grid looks: island size and line weights relative to the cell, and the colours."""

    island_ratio: float = 0.78
    digit_ratio: float = 0.50
    ink: str = INK
    frame: str | None = INK
    dot: str = "#b4b4b4"
    bridge: str = INK
    dots: bool = True
    bold_digits: bool = False
    # Bridge lines' width as a share of the cell (a cover's art draws them bolder), within 0.25-0.5 mm
    # unless `bold_bridges`.
    bold_bridges: bool = False
    island_fill: str = "#ffffff"


PUZZLE_STYLE = GridStyle()
# Solutions are printed small: larger islands and digits for their cell keep the clues legible.
SOLUTION_STYLE = GridStyle(island_ratio=0.82, digit_ratio=0.62, dots=False)
PICTURE_STYLE = GridStyle(dots=False, frame=None, bold_digits=True)


def grid_size(puzzle: Puzzle, cell: float) -> tuple[float, float]:
    """Return the (width, height) in mm a puzzle takes when drawn with `cell` mm per grid cell."""
    return puzzle.cols * cell, puzzle.rows * cell


def min_cell_for_island(diameter_mm: float, style: GridStyle = PUZZLE_STYLE) -> float:
    """Return the smallest cell size whose islands are at least `diameter_mm` across."""
    return diameter_mm / style.island_ratio


def _stroke(cell: float) -> float:
    """Return the island outline width for a cell size, thin on small grids, firmer on large ones."""
    return min(0.45, max(0.22, 0.05 * cell))


def _centre(x: float, y: float, cell: float, row: int, col: int) -> tuple[float, float]:
    """Return the page position of the centre of grid cell (row, col)."""
    return x + (col + 0.5) * cell, y + (row + 0.5) * cell


def draw_puzzle(canvas: Canvas, puzzle: Puzzle, x: float, y: float, cell: float, *,
                solution: Solution | None = None, style: GridStyle = PUZZLE_STYLE) -> None:
    """Draw the puzzle with its grid's top-left corner at (x, y); with `solution`, draw its bridges too."""
    w, h = grid_size(puzzle, cell)
    if style.frame is not None:
        canvas.rect(x - FRAME_PAD, y - FRAME_PAD, w + 2 * FRAME_PAD, h + 2 * FRAME_PAD, stroke=style.frame,
                    width=0.2)
    if style.dots:
        # One dotted line per row (zero-length dashes with round caps); islands are drawn over them.
        r_dot = max(0.18, 0.035 * cell)
        for row in range(puzzle.rows):
            x1, cy = _centre(x, y, cell, row, 0)
            x2 = x1 + (puzzle.cols - 1) * cell
            canvas.line(x1, cy, x2 + cell / 2, cy, width=2 * r_dot, color=style.dot, dash=(0, cell),
                        cap="round")
    if solution is not None:
        _draw_bridges(canvas, solution, x, y, cell, style)
    _draw_islands(canvas, puzzle, x, y, cell, style)


def _draw_bridges(canvas: Canvas, solution: Solution, x: float, y: float, cell: float,
                  style: GridStyle) -> None:
    """Draw each bridge from island edge to island edge; a double bridge as two parallel lines."""
    radius = style.island_ratio * cell / 2
    width = 0.09 * cell if style.bold_bridges else min(0.5, max(0.25, 0.055 * cell))
    spread = 0.13 * cell
    for b in solution.bridges:
        x1, y1 = _centre(x, y, cell, b.r1, b.c1)
        x2, y2 = _centre(x, y, cell, b.r2, b.c2)
        horizontal = b.r1 == b.r2
        offsets = (0.0,) if b.count == 1 else (-spread, spread)
        for off in offsets:
            if horizontal:
                canvas.line(x1 + radius, y1 + off, x2 - radius, y2 + off, width=width, color=style.bridge)
            else:
                canvas.line(x1 + off, y1 + radius, x2 + off, y2 - radius, width=width, color=style.bridge)


def _draw_islands(canvas: Canvas, puzzle: Puzzle, x: float, y: float, cell: float, style: GridStyle) -> None:
    """Draw every island as a white circle with its clue centred in it."""
    radius = style.island_ratio * cell / 2
    size_mm = style.digit_ratio * 2 * radius / DIGIT_HEIGHT
    size_pt = size_mm / PT
    for isl in puzzle.islands:
        cx, cy = _centre(x, y, cell, isl.row, isl.col)
        canvas.circle(cx, cy, radius, stroke=style.ink, fill=style.island_fill, width=_stroke(cell))
        canvas.text(cx, cy + DIGIT_HEIGHT * size_mm / 2, str(isl.clue), size_pt=size_pt, anchor="middle",
                    bold=style.bold_digits, color=style.ink)
