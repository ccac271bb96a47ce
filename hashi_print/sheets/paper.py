"""The papers a score sheet is laid out on: sizes in millimetres, named once for drawing and reading."""

from __future__ import annotations

INCH = 25.4
# Sheet sizes (width, height) in mm of the game's products.
PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
