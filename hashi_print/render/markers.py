"""Drawing the sheet's registration markers; their ids and bits are the layout contract's (sheets/markers)."""

from __future__ import annotations

from hashi_print.render.canvas import Canvas
from hashi_print.sheets.markers import CELLS, marker_bits


def draw_marker(
    cv: Canvas, x: float, y: float, size: float, marker_id: int, *, id: str | None = None
) -> None:
    """Draw marker `marker_id` with its top-left corner at (x, y), `size` mm wide, as vector cells."""
    cell = size / CELLS
    bits = marker_bits(marker_id)
    with cv.group(id or f"marker-{marker_id}"):
        cv.rect(x, y, size, size, stroke=None, fill="#000000")
        for r, row in enumerate(bits):
            for c, bit in enumerate(row):
                if not bit:
                    cv.rect(x + (c + 1) * cell, y + (r + 1) * cell, cell, cell, stroke=None, fill="#ffffff")
