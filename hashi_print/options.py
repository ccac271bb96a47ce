"""Every option word of hashi-print, defined once: the CLI's choices, the web's fields and the JSON use them.

Each option is a StrEnum, so a member is also the plain string the contracts (docs/formats.md) carry;
`DEFAULTS` names the default of each, and `values` gives the words in their documented order.
"""

from __future__ import annotations

from enum import StrEnum


class Mode(StrEnum):
    """How the solver encodes connectivity: cuts added lazily, or an eager reachability encoding."""

    LAZY = "lazy"
    EAGER = "eager"


class Backend(StrEnum):
    """The SAT solver pysat runs."""

    CADICAL195 = "cadical195"
    GLUCOSE4 = "glucose4"
    MINISAT22 = "minisat22"


class CardEncoding(StrEnum):
    """How clue counts are encoded: direct lane clauses, or one of pysat's cardinality encodings."""

    DIRECT = "direct"
    SEQCOUNTER = "seqcounter"
    TOTALIZER = "totalizer"
    SORTNETWRK = "sortnetwrk"


class Paper(StrEnum):
    """The paper sizes of the game's products."""

    A4 = "a4"
    LETTER = "letter"


class Trim(StrEnum):
    """The page sizes of a puzzle book: the game's papers and KDP's 6x9 in and 8.5x11 in trims."""

    A4 = "a4"
    LETTER = "letter"
    TRADE = "6x9"
    US_LETTER_TRIM = "8.5x11"


class Profile(StrEnum):
    """How a book is printed: at home (pnp, print and play) or as a KDP print-on-demand interior."""

    PNP = "pnp"
    KDP = "kdp"


class ColorModel(StrEnum):
    """How colours are written into a PDF: RGB for screens and home printers, CMYK for print shops."""

    RGB = "rgb"
    CMYK = "cmyk"


class PaperType(StrEnum):
    """KDP's interior papers (their thickness sets a paperback's spine width)."""

    WHITE = "white"
    CREAM = "cream"


class CoverStyle(StrEnum):
    """The designs of a paperback cover: classic (blue), night (night blue) or paper (cream)."""

    CLASSIC = "classic"
    NIGHT = "night"
    PAPER = "paper"


class Order(StrEnum):
    """The order of a book's puzzles: easy to expert, or as they were made."""

    PROGRESSION = "progression"
    AS_GENERATED = "as-generated"


class Format(StrEnum):
    """The file formats a sheet is drawn in."""

    PDF = "pdf"
    SVG = "svg"
    PNG = "png"


class PenKind(StrEnum):
    """The pens a hand draws a filled sheet with."""

    BLUE = "blue"
    BLACK = "black"
    FELT = "felt"
    PENCIL = "pencil"


class Goal(StrEnum):
    """The three bonus goals of the roll-and-write game."""

    RED = "red"
    BLUE = "blue"
    SIX = "six"


class Technique(StrEnum):
    """The deducer's techniques, in the order of the ladder that grades a puzzle."""

    COMPLETE = "complete"
    CROSSING = "crossing"
    FILL = "fill"
    SPREAD = "spread"
    CAPACITY = "capacity"
    NEEDS = "needs"
    PAIR = "pair"
    ISOLATION = "isolation"
    IMPOSSIBLE = "impossible"
    ONLY_WAY_OUT = "only-way-out"
    CONTRADICTION = "contradiction"


class ExportFormat(StrEnum):
    """How `bank export` prints a puzzle: Tatham ID, puzz.link URL or a hashi-puzzle/1 JSON line."""

    TATHAM = "tatham"
    PUZZLINK = "puzzlink"
    JSON = "json"


# The default of each option where the CLI, the web app and the library agree on one.
DEFAULTS: dict[type[StrEnum], StrEnum] = {
    Mode: Mode.LAZY,
    Backend: Backend.CADICAL195,
    CardEncoding: CardEncoding.DIRECT,
    Paper: Paper.A4,
    Trim: Trim.A4,
    Profile: Profile.PNP,
    ColorModel: ColorModel.RGB,
    PaperType: PaperType.WHITE,
    CoverStyle: CoverStyle.CLASSIC,
    Order: Order.PROGRESSION,
    Format: Format.PDF,
    PenKind: PenKind.BLUE,
    ExportFormat: ExportFormat.TATHAM,
}


def values(option: type[StrEnum]) -> tuple[str, ...]:
    """The words of an option as plain strings, in the order they are documented."""
    return tuple(member.value for member in option)


def default(option: type[StrEnum]) -> str:
    """The default word of an option as a plain string."""
    return DEFAULTS[option].value
