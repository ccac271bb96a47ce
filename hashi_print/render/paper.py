"""What every printed product is printed on and with: paper sizes, book trims, print profiles and inks."""

from __future__ import annotations

from hashi_print.options import ColorModel, PaperType, Profile, Trim, values
from hashi_print.sheets.paper import INCH, PAPER

# Book trims: the game's papers and the book sizes, (width, height) in mm.
TRIMS = {**PAPER, Trim.TRADE.value: (6 * INCH, 9 * INCH), Trim.US_LETTER_TRIM.value: (8.5 * INCH, 11 * INCH)}
# How a book is printed: at home (pnp: print and play) or as a print-on-demand interior (kdp).
PROFILES = values(Profile)
# How colours are written into a PDF: RGB for screens and home printers, CMYK for print shops.
COLOR_MODELS = values(ColorModel)
# KDP's interior papers and their thickness per page in inches (it sets a paperback's spine width).
PAPER_THICKNESS_IN = {PaperType.WHITE.value: 0.002252, PaperType.CREAM.value: 0.0025}
PAPER_TYPES = values(PaperType)

# The inks: pure black text and puzzle grids (black plate only in CMYK), the game's blue, and a grey
# for secondary text of 7 pt and more.
INK = "#000000"
BLUE = "#1b3d8f"
GREY = "#6b6b6b"
