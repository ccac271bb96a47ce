"""The card deck: poker-size fronts and a common back, nine per page for home printing or with bleed.

`card_sheet_layout` is pure: it places the nine card slots, the shared cut lines and the mirrored
back slots (long-edge duplex) on a page. The drawing functions draw one card into a box.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hashi_print.errors import OptionError
from hashi_print.files import write_atomic
from hashi_print.game.deck import Card, Deck
from hashi_print.i18n import _, language, ngettext
from hashi_print.options import Format
from hashi_print.render.canvas import Canvas, PdfCanvas, make_canvas
from hashi_print.render.paper import BLUE
from hashi_print.render.preflight import (
    HOME_MIN_TEXT_PT,
    HOME_SAFE_MM,
    SHOP_SAFE_MM,
    Preflight,
    home_sheet,
    uniform,
)
from hashi_print.render.sheet import draw_card_pips
from hashi_print.sheets.paper import PAPER

CARD_W, CARD_H = 63.5, 88.9
BLEED = 3.0
MIN_BLEED, MAX_BLEED = 1.0, 10.0
COLS, ROWS = 3, 3
PER_PAGE = COLS * ROWS
FRONT_BG = "#fbf6e9"
BACK_BG = "#dbe7f5"
CUT = "#b0b0b0"
CROP_GAP, CROP_LEN, MIN_CROP_LEN, CROP_WIDTH = 1.0, 4.0, 2.0, 0.25
# Colour runs a little past the outer cut lines so a slightly shifted duplex print leaves no white edge.
HOME_BLEED = 1.5
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class CardSheetLayout:
    """Nine card slots on a page (row by row), their mirrored back slots, and the shared cut lines."""

    width: float
    height: float
    fronts: tuple[Box, ...]
    backs: tuple[Box, ...]
    cut_xs: tuple[float, ...]
    cut_ys: tuple[float, ...]


def card_sheet_layout(paper: str = "a4") -> CardSheetLayout:
    """Place a 3 x 3 grid of touching poker cards in the middle of the page; backs mirror left-right."""
    if paper not in PAPER:
        raise OptionError(f"unknown paper {paper!r}; use a4 or letter")
    w, h = PAPER[paper]
    x0, y0 = (w - COLS * CARD_W) / 2, (h - ROWS * CARD_H) / 2
    fronts = tuple((x0 + c * CARD_W, y0 + r * CARD_H, CARD_W, CARD_H)
                   for r in range(ROWS) for c in range(COLS))
    # Turning the sheet over its long (vertical) edge maps x to w - x: a slot's back sits mirrored.
    backs = tuple((w - x - bw, y, bw, bh) for x, y, bw, bh in fronts)
    cut_xs = tuple(x0 + c * CARD_W for c in range(COLS + 1))
    cut_ys = tuple(y0 + r * CARD_H for r in range(ROWS + 1))
    return CardSheetLayout(w, h, fronts, backs, cut_xs, cut_ys)


def draw_card_front(cv: Canvas, card: Card, box: Box, *, bleed: float = 0.0, id: str | None = None) -> None:
    """Draw a card's face: a large numeral, its bridges as a chain of islands, corner island indexes."""
    x, y, w, h = box
    with cv.group(id or "card"):
        cv.rect(x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed, stroke=None, fill=FRONT_BG)
        cv.rect(x + 3.5, y + 3.5, w - 7.0, h - 7.0, stroke=BLUE, width=0.5)
        # Corner indexes as on playing cards: the bottom one turned, so a card reads the same either way up.
        for cx, cy, turn in ((x + 10.0, y + 11.0, 1), (x + w - 10.0, y + h - 11.0, -1)):
            cv.circle(cx, cy, 4.6, stroke="#000000", fill="#ffffff", width=0.45)
            cv.text(cx, cy + turn * 1.6, str(card.numeral), size_pt=12, anchor="middle", bold=True,
                    angle=0 if turn == 1 else 180)
            for k in range(card.bridges):
                yy = cy + turn * (6.6 + 1.3 * k)
                cv.line(cx - 3.0, yy, cx + 3.0, yy, width=0.5, color=BLUE)
        cv.text(x + w / 2, y + 50.0, str(card.numeral), size_pt=88, anchor="middle", bold=True, color=BLUE)
        # The bridges as the sheet's card strip shows them: one bar per bridge, to draw on any lanes.
        draw_card_pips(cv, x + w / 2, y + 60.5, card.bridges, 22.0, 3.2, width=1.4)
        count = ngettext("{n} bridge", "{n} bridges", card.bridges).format(n=card.bridges)
        cv.text(x + w / 2, y + 60.5 + 3.2 * (card.bridges - 1) + 7.0, count, size_pt=8, anchor="middle",
                color="#000000")


def draw_card_mini(cv: Canvas, card: Card, x: float, y: float, w: float) -> None:
    """Draw a card `w` mm wide with its top-left corner at (x, y): colours, numeral, one bar per bridge."""
    h = w * CARD_H / CARD_W
    cv.rect(x, y, w, h, stroke=BLUE, fill=FRONT_BG, width=0.3)
    cv.text(x + w / 2, y + h * 0.52, str(card.numeral), size_pt=w * 1.15, anchor="middle", bold=True,
            color=BLUE)
    draw_card_pips(cv, x + w / 2, y + h * 0.66, card.bridges, w * 0.55, h * 0.09, width=0.5)


def draw_card_back(cv: Canvas, box: Box, *, bleed: float = 0.0, id: str | None = None) -> None:
    """Draw the common card back: a small bridged island pattern around the game's name."""
    x, y, w, h = box
    with cv.group(id or "back"):
        cv.rect(x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed, stroke=None, fill=BACK_BG)
        cv.rect(x + 3.5, y + 3.5, w - 7.0, h - 7.0, stroke=BLUE, width=0.5)
        cols, rows = (x + 13.0, x + w / 2, x + w - 13.0), (y + 16.0, y + h / 2, y + h - 16.0)
        # A ring of islands round the name; the top right and bottom left bridges are double, and every
        # bridge runs from island to island.
        cv.line(cols[0], rows[0], cols[1], rows[0], width=0.9, color=BLUE)
        cv.line(cols[1], rows[2], cols[2], rows[2], width=0.9, color=BLUE)
        for a, b, yy in ((cols[1], cols[2], rows[0]), (cols[0], cols[1], rows[2])):
            cv.line(a, yy - 1.1, b, yy - 1.1, width=0.6, color=BLUE)
            cv.line(a, yy + 1.1, b, yy + 1.1, width=0.6, color=BLUE)
        for xx in (cols[0], cols[2]):
            cv.line(xx, rows[0], xx, rows[2], width=0.9, color=BLUE)
        for xx in cols:
            for yy in rows:
                if (xx, yy) != (cols[1], rows[1]):
                    cv.circle(xx, yy, 3.6, stroke=BLUE, fill="#ffffff", width=0.6)
        cv.text(x + w / 2, y + h / 2 + 3.5, "HASHI", size_pt=17, anchor="middle", bold=True, color=BLUE)


def crop_lengths(lay: CardSheetLayout) -> tuple[float, float]:
    """Return the lengths of the side and the top/bottom crop marks: as long as fits 5 mm inside the paper.

    A mark that would be shorter than 2 mm is left out (0): the grey cut lines still show the cut.
    """
    def fit(margin: float) -> float:
        """The longest mark up to CROP_LEN that keeps the safe distance from the paper's edge."""
        room = margin - HOME_SAFE_MM - CROP_GAP - CROP_WIDTH / 2
        return min(CROP_LEN, room) if room >= MIN_CROP_LEN else 0.0

    return fit(lay.cut_xs[0]), fit(lay.cut_ys[0])


def home_bleed(lay: CardSheetLayout) -> float:
    """Return how far the card colour runs past the outer cut lines: up to HOME_BLEED, 5 mm from the edge."""
    return max(0.0, min(HOME_BLEED, lay.cut_xs[0] - HOME_SAFE_MM, lay.cut_ys[0] - HOME_SAFE_MM))


def draw_crop_marks(cv: Canvas, lay: CardSheetLayout, prefix: str) -> None:
    """Draw the shared cut lines across the grid and crop marks outside it where they fit the paper."""
    top, bottom = lay.cut_ys[0], lay.cut_ys[-1]
    left, right = lay.cut_xs[0], lay.cut_xs[-1]
    side_len, end_len = crop_lengths(lay)
    for i, cx in enumerate(lay.cut_xs):
        cv.line(cx, top, cx, bottom, width=0.15, color=CUT, id=f"{prefix}cut-x-{i}")
        if end_len:
            cv.line(cx, top - CROP_GAP, cx, top - CROP_GAP - end_len, width=CROP_WIDTH,
                    id=f"{prefix}crop-x-{i}-top")
            cv.line(cx, bottom + CROP_GAP, cx, bottom + CROP_GAP + end_len, width=CROP_WIDTH,
                    id=f"{prefix}crop-x-{i}-bottom")
    for j, cy in enumerate(lay.cut_ys):
        cv.line(left, cy, right, cy, width=0.15, color=CUT, id=f"{prefix}cut-y-{j}")
        if side_len:
            cv.line(left - CROP_GAP, cy, left - CROP_GAP - side_len, cy, width=CROP_WIDTH,
                    id=f"{prefix}crop-y-{j}-left")
            cv.line(right + CROP_GAP, cy, right + CROP_GAP + side_len, cy, width=CROP_WIDTH,
                    id=f"{prefix}crop-y-{j}-right")


def draw_front_page(cv: Canvas, lay: CardSheetLayout, cards: list[tuple[int, Card]]) -> None:
    """Draw up to nine numbered cards (deck position, card) into the slots of one page."""
    for (n, card), box in zip(cards, lay.fronts, strict=False):
        draw_card_front(cv, card, box, bleed=home_bleed(lay), id=f"card-{n}")
        cv.rect(*box, stroke=None, fill=None, id=f"card-{n}-trim")
    draw_crop_marks(cv, lay, "")


def draw_back_page(cv: Canvas, lay: CardSheetLayout, count: int) -> None:
    """Draw the backs behind the first `count` front slots, mirrored for long-edge duplex."""
    for k, box in enumerate(lay.backs[:count]):
        draw_card_back(cv, box, bleed=home_bleed(lay), id=f"back-{k + 1}")
        cv.rect(*box, stroke=None, fill=None, id=f"back-{k + 1}-trim")
    draw_crop_marks(cv, lay, "")


def _pages(deck: Deck) -> list[list[tuple[int, Card]]]:
    """Split the deck into pages of nine (deck position from 1, card)."""
    numbered = list(enumerate(deck.cards, start=1))
    return [numbered[k:k + PER_PAGE] for k in range(0, len(numbered), PER_PAGE)]


def render_cards_pdf(deck: Deck, paper: str, out: str | Path, lang: str = "en") -> Path:
    """Write the home-print deck in `lang`: each page of nine fronts followed by its mirrored backs."""
    lay = card_sheet_layout(paper)
    with language(lang):
        title = _("Hashi cards (print double-sided, flip on long edge)")
        cv = make_canvas(Format.PDF, lay.width, lay.height, title=title,
                         preflight=home_sheet(lay.width, lay.height))
        for k, page in enumerate(_pages(deck)):
            if k:
                cv.new_page()
            draw_front_page(cv, lay, page)
            cv.new_page()
            draw_back_page(cv, lay, len(page))
        return write_atomic(out, cv.finish(Path(out).name))


def check_bleed(bleed: float) -> float:
    """Return the print-shop bleed in mm, or raise OptionError when it is not between 1 and 10 mm."""
    if not MIN_BLEED <= bleed <= MAX_BLEED:
        raise OptionError(f"--bleed {bleed:g}: use {MIN_BLEED:g} to {MAX_BLEED:g} mm (3 is usual, 3.175 for "
                          "US printers)")
    return bleed


def with_bleed(text: str, bleed: float) -> str:
    """Put the bleed into a (translated) text written for the default 3 mm, or after it without "3 mm"."""
    # The catalogs carry the 3 mm wording in every language; the number is all that changes.
    if bleed == BLEED:
        return text
    if "3 mm" in text:
        return text.replace("3 mm", f"{bleed:g} mm", 1)
    return f"{text} ({bleed:g} mm)"


def render_cards_printshop(deck: Deck, out: str | Path, bleed: float = BLEED, color: str = "rgb",
                           lang: str = "en") -> Path:
    """Write one page per card face with bleed, TrimBox and BleedBox: front, back, front, ..."""
    check_bleed(bleed)
    pw, ph = CARD_W + 2 * bleed, CARD_H + 2 * bleed
    # A print shop's cut wanders up to about 3 mm: text and lines keep that far inside the trim.
    rules = uniform("a print shop", HOME_MIN_TEXT_PT, bleed + SHOP_SAFE_MM, fills_may_bleed=True)
    with language(lang):
        title = with_bleed(_("Hashi cards, print-shop version with 3 mm bleed"), bleed)
        cv = PdfCanvas(None, pw, ph, title=title, color=color, preflight=Preflight(rules, pw, ph))
        cv.set_boxes(trim=(bleed, bleed, CARD_W, CARD_H), bleed=(0.0, 0.0, pw, ph))
        box = (bleed, bleed, CARD_W, CARD_H)
        for k, card in enumerate(deck.cards):
            if k:
                cv.new_page()
            draw_card_front(cv, card, box, bleed=bleed)
            cv.new_page()
            draw_card_back(cv, box, bleed=bleed)
        return write_atomic(out, cv.finish(Path(out).name))


def render_cards_svg(deck: Deck, paper: str, out_dir: str | Path, stem: str = "cards",
                     lang: str = "en") -> list[Path]:
    """Write each front page and the back page as SVG files in `lang`; return their paths."""
    lay = card_sheet_layout(paper)
    paths = []
    pages = _pages(deck)
    with language(lang):
        for k, page in enumerate(pages):
            title = _("Hashi cards, fronts page {page}").format(page=k + 1)
            svg = make_canvas(Format.SVG, lay.width, lay.height, title=title,
                              preflight=home_sheet(lay.width, lay.height))
            draw_front_page(svg, lay, page)
            name = f"{stem}-front-{k + 1}.svg"
            paths.append(write_atomic(Path(out_dir) / name, svg.finish(name)))
        svg = make_canvas(Format.SVG, lay.width, lay.height, title=_("Hashi cards, backs"),
                          preflight=home_sheet(lay.width, lay.height))
        draw_back_page(svg, lay, max(len(p) for p in pages))
        paths.append(write_atomic(Path(out_dir) / f"{stem}-back.svg", svg.finish(f"{stem}-back.svg")))
    return paths
