"""The papers a score sheet is laid out on: sizes in millimetres, named once for drawing and reading."""

from __future__ import annotations

from hashi_print.options import Paper

INCH = 25.4
# Sheet sizes (width, height) in mm of the game's products.
PAPER = {Paper.A4.value: (210.0, 297.0), Paper.LETTER.value: (215.9, 279.4)}
