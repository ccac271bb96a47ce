"""Registration markers: a small ArUco-style dictionary of our own, drawn as vector cells, and its decoder.

Each marker is a 6 x 6 grid of cells: a one-cell black border around 4 x 4 data bits (1 = black),
read row by row from the top-left, most significant bit first. The twelve codes below were picked
by a seeded search (a 16-bit linear congruential sequence from 0x9E37) keeping codes with 6-10 black
bits, at least 4 bits from each of their own rotations and at least 5 bits from every rotation of
every code kept before; so a photo reader can find the id and the rotation, and correct one bit.
Ids: side A uses 0-3, side B 4-7, any other layout 8-11, in the corner order top-left, top-right,
bottom-right, bottom-left.
"""

from __future__ import annotations

from collections.abc import Sequence

from hashi_print.render.canvas import Canvas

CODES = (0xCC5C, 0x48A5, 0x7EE2, 0xDB23, 0x5EB8, 0x8A4F, 0x4D30, 0x3709, 0xEE16, 0x65C2, 0x2BFA, 0xB6DA)
BITS = 4
CELLS = BITS + 2
CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")
Grid = tuple[tuple[int, ...], ...]


def marker_bits(marker_id: int) -> Grid:
    """Return the 4 x 4 data bits of a marker, rows from the top."""
    code = CODES[marker_id]
    return tuple(tuple((code >> (15 - (r * BITS + c))) & 1 for c in range(BITS)) for r in range(BITS))


def rotate(grid: Grid) -> Grid:
    """Rotate a square bit grid a quarter turn clockwise."""
    n = len(grid)
    return tuple(tuple(grid[n - 1 - c][r] for c in range(n)) for r in range(n))


def _code_of(grid: Grid) -> int:
    """Pack a 4 x 4 bit grid into an integer, most significant bit first."""
    return sum(bit << (15 - k) for k, bit in enumerate(b for row in grid for b in row))


def decode(grid: Sequence[Sequence[int]], max_errors: int = 1) -> tuple[int, int] | None:
    """Identify read data bits: return (marker id, quarter turns clockwise the marker was rotated) or None."""
    g: Grid = tuple(tuple(int(b) for b in row) for row in grid)
    best: tuple[int, int, int] | None = None
    for turns in range(4):
        code = _code_of(g)
        for marker_id, want in enumerate(CODES):
            dist = bin(code ^ want).count("1")
            if dist <= max_errors and (best is None or dist < best[0]):
                best = (dist, marker_id, (4 - turns) % 4)
        g = rotate(g)
    return None if best is None else (best[1], best[2])


def side_marker_ids(side_name: str) -> tuple[int, int, int, int]:
    """The marker ids for the four corners of a sheet of this side (A, B, or any other layout)."""
    base = {"A": 0, "B": 4}.get(side_name.upper(), 8)
    return (base, base + 1, base + 2, base + 3)


def draw_marker(cv: Canvas, x: float, y: float, size: float, marker_id: int, *,
                id: str | None = None) -> None:
    """Draw marker `marker_id` with its top-left corner at (x, y), `size` mm wide, on a white quiet zone."""
    cell = size / CELLS
    bits = marker_bits(marker_id)
    with cv.group(id or f"marker-{marker_id}"):
        cv.rect(x, y, size, size, stroke=None, fill="#000000")
        for r, row in enumerate(bits):
            for c, bit in enumerate(row):
                if not bit:
                    cv.rect(x + (c + 1) * cell, y + (r + 1) * cell, cell, cell, stroke=None, fill="#ffffff")
