"""What every printed product is printed on and with: paper sizes, book trims, print profiles and inks."""

from __future__ import annotations

from hashi_print.sheets.paper import INCH, PAPER

# Book trims: the game's papers and the book sizes, (width, height) in mm.
TRIMS = {**PAPER, "6x9": (6 * INCH, 9 * INCH), "8.5x11": (8.5 * INCH, 11 * INCH)}
# How a book is printed: at home (pnp: print and play) or as a print-on-demand interior (kdp).
PROFILES = ("pnp", "kdp")
# How colours are written into a PDF: RGB for screens and home printers, CMYK for print shops.
COLOR_MODELS = ("rgb", "cmyk")
# KDP's interior papers and their thickness per page in inches (it sets a paperback's spine width).
PAPER_THICKNESS_IN = {"white": 0.002252, "cream": 0.0025}
PAPER_TYPES = tuple(PAPER_THICKNESS_IN)

# The inks: pure black text and puzzle grids (black plate only in CMYK), the game's blue, and a grey
# for secondary text of 7 pt and more.
INK = "#000000"
BLUE = "#1b3d8f"
GREY = "#6b6b6b"
