"""The two-page rules leaflet, with small board examples: game states played by jobs/leaflet.py."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from hashi_print.errors import LayoutError, OptionError
from hashi_print.files import write_atomic
from hashi_print.game.board import BoardIsland, BoardSide
from hashi_print.game.deck import GOALS, Card
from hashi_print.game.rules import GameState, Move
from hashi_print.game.scoring import Scoring
from hashi_print.i18n import N_, _, language, ngettext
from hashi_print.options import Format
from hashi_print.render.canvas import (
    PT,
    Canvas,
    check_format,
    draw_fitted,
    draw_lead_paragraph,
    draw_paragraph,
    make_canvas,
    text_width,
    wrap_text,
)
from hashi_print.render.cards import CARD_H, CARD_W, draw_card_mini
from hashi_print.render.preflight import HOME_MIN_TEXT_PT, home_sheet
from hashi_print.render.sheet import FLAG_COLORS, FLAG_MIN_MM, board_extent, draw_board, draw_flag, six_mark
from hashi_print.sheets.layout import board_geometry
from hashi_print.sheets.paper import PAPER

LEFT = 16.0


TITLES = {"legal": N_("A legal turn"), "crossing": N_("Not allowed: a crossing"),
          "circle": N_("A circled island")}


@dataclass(frozen=True)
class Example:
    """A drawn example: a game state plus what the turn adds (new numeral, new or refused bridges).

    `kind` is legal, crossing or circle; title and caption are worded in the current language.
    """

    kind: str
    state: GameState
    highlight: dict[int, int] = field(default_factory=dict)
    numerals: dict[int, int] = field(default_factory=dict)
    forbidden: tuple[int, ...] = ()
    before: GameState | None = None
    card: Card | None = None
    move: Move | None = None
    crossed: int | None = None

    @property
    def title(self) -> str:
        """The example's heading."""
        return _(TITLES[self.kind])

    @property
    def caption(self) -> str:
        """What happens in the example, in words."""
        side, card, move, before = self.state.side, self.card, self.move, self.before
        if card is None or move is None or before is None:
            raise LayoutError(f"the {self.kind} example lacks its card, its move or the state before it")
        if self.kind == "legal":
            setup = next(i for i, n in enumerate(before.numerals) if n is not None)
            text = ngettext("{island}{numeral} was written at setup. Card {card} with {bridges} bridge: "
                            "{move} (orange).",
                            "{island}{numeral} was written at setup. Card {card} with {bridges} bridges: "
                            "{move} (orange).", card.bridges)
            return text.format(island=side.islands[setup].label, numeral=before.numerals[setup],
                               card=card.numeral, bridges=card.bridges, move=move_words(side, move))
        if self.kind == "crossing" and self.crossed is not None:
            reason = _("lane {lane} crosses the bridge on {other}").format(
                lane=side.lane_name(self.forbidden[0]), other=side.lane_name(self.crossed))
            return _("Card {card}/{bridges}: {move} is refused: {reason}.").format(
                card=card.numeral, bridges=card.bridges, move=move_words(side, move), reason=reason)
        new = sorted(self.state.circled - before.circled)
        return ngettext("Card {card}/{bridges}: {move}. Now {islands} has as many bridges as the numeral: "
                        "circle it; a circled island takes no more bridges.",
                        "Card {card}/{bridges}: {move}. Now {islands} each have as many bridges as the "
                        "numeral: circle them; a circled island takes no more bridges.", len(new)).format(
            card=card.numeral, bridges=card.bridges, move=move_words(side, move),
            islands=and_list([side.islands[i].label for i in new]))


def move_words(side: BoardSide, move: Move) -> str:
    """Write a move the way a game record does (`number D5 bridges D-G D-G`), in the current language."""
    num = "-" if move.numeral is None else f"{side.islands[move.numeral[0]].label}{move.numeral[1]}"
    bridges = " ".join(side.lane_name(k) for k in sorted(move.bridges)) or "-"
    return _("number {numeral} bridges {bridges}").format(numeral=num, bridges=bridges)


def and_list(items: list[str]) -> str:
    """Join names as `A`, `A and B` or `A, B and C` in the current language."""
    if len(items) < 2:
        return "".join(items)
    return _("{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


SETUP = (
    N_("Every player takes a score sheet of the same side (A is gentler, B harder) and a pen."),
    N_("Write a 3 or a 4 on one island without a flag on your sheet and that island's letter in the "
       "\u201cstarting island\u201d box at the start of the turn tracker, then pass the sheet to the player "
       "on your left: your opponent picks your starting island. Playing alone, pick it yourself."),
    N_("Shuffle the 18 cards and put one away unseen. The other 17 are played, one per turn."),
)
TURN = (
    (N_("1. Numeral (optional)."), N_("Write the card's numeral on an island with no numeral yet. A flagged "
     "island takes a numeral only once a bridge touches it, and a numeral may not be smaller than the "
     "bridges already touching its island.")),
    (N_("2. Bridges (optional)."), N_("Draw exactly as many bridges as the card shows, on any lanes, or "
     "none. Each bridge lies on a dotted lane with a numeral at one end at least; a lane holds at most 2 "
     "bridges (draw 1 on the dots, 2 on the two faint tracks); a bridge never crosses a lane that "
     "already carries one; a numbered island never gets more bridges than its numeral. Bridges may "
     "reach an island that has no numeral yet.")),
    (N_("3. Circle"), N_("every island whose bridges now equal its numeral. A circled island is finished.")),
    (N_("4. Turn tracker and goals."), N_("Cross off this turn's box on the turn tracker (the boxes 1 to "
     "17), so that you always know which turn it is. When you reach one of the three goals (page 2), also "
     "cross off the box under this turn in that goal's row (marked with its symbol): it decides who was "
     "first.")),
)


def _goal_text(scoring: Scoring) -> tuple[tuple[str, str], ...]:
    """The goals paragraph, with the bonus values from the scoring file, in the current language."""
    b = scoring.bonus
    return (
        (_("Red ({first} / {later}):").format(first=b["red"][0], later=b["red"][1]),
         _("all 4 red-flag islands circled.")),
        (_("Blue ({first} / {later}):").format(first=b["blue"][0], later=b["blue"][1]),
         _("all 3 blue-flag islands circled.")),
        (_("Six ({first} / {later}):").format(first=b["six"][0], later=b["six"][1]),
         _("six circled islands joined to each other by bridges (a connected group of at least 6 circled "
           "islands, using only bridges between circled islands).")),
        (_("First or later:"), _("whoever reaches a goal first (several players may, on the same card) "
                                 "scores the higher value; everybody else crosses that box off and can score "
                                 "only the lower value later.")),
    )


def _heading(cv: Canvas, y: float, s: str) -> float:
    """Draw a section heading and return the baseline for its text."""
    cv.text(LEFT, y, s, size_pt=13, bold=True, color="#1b3d8f")
    return y + 6.0


def _item(cv: Canvas, y: float, lead: str, rest: str, width: float, size: float = 9.5) -> float:
    """Draw a paragraph starting with a bold lead-in at the left margin; return the next baseline."""
    return draw_lead_paragraph(cv, LEFT, y, lead, rest, width, size_pt=size) + 1.2


def draw_examples(cv: Canvas, side: BoardSide, examples: list[Example], y: float,
                  prefix: str = "ex") -> float:
    """Draw the examples side by side from y; return the y below their captions."""
    width = cv.width - 2 * LEFT
    slot = width / len(examples)
    room = cv.height - 12.0 - y - 9.0 - 6.0 - 16.0
    pitch = example_pitch(side, slot, room)
    left, top, right, _bottom = board_extent(side, board_geometry(side, 0.0, 0.0, pitch))
    bottom = y
    for k, ex in enumerate(examples):
        # The board with its letters and flags centred in its slot, clear of its neighbours.
        x0 = LEFT + k * slot + (slot - (right - left)) / 2 - left
        draw_fitted(cv, LEFT + k * slot + slot / 2, y, ex.title, slot - 2.0, size_pt=10, min_pt=7.0,
                    bold=True, anchor="middle")
        bg = board_geometry(side, x0, y + 6.0 - top, pitch)
        with cv.group(f"{prefix}{k + 1}"):
            crossings = tuple((f, ex.crossed) for f in ex.forbidden if ex.crossed is not None)
            draw_board(cv, side, bg, state=ex.state, prefix=f"{prefix}{k + 1}-", highlight=ex.highlight,
                       forbidden=ex.forbidden, numerals=ex.numerals, crossings=crossings)
        cy = y + 6.0 - top + (side.rows - 1) * pitch + bg.r + 6.0
        # The example's card, as printed, beside its caption.
        card_x = LEFT + k * slot + 2.0
        if ex.card is not None:
            draw_card_mini(cv, ex.card, card_x, cy - 2.6, MINI_CARD_W)
        text_x = card_x + MINI_CARD_W + 2.0
        cy = max(draw_paragraph(cv, text_x, cy, ex.caption, slot - 6.0 - (text_x - card_x), size_pt=7.5,
                                leading=1.25), cy - 2.6 + MINI_CARD_W * CARD_H / CARD_W + 3.0)
        bottom = max(bottom, cy)
    return bottom


EXAMPLE_GAP = 4.0  # mm of white between two example boards, letters and flags included
MINI_CARD_W = 9.0  # the card shown beside each example's caption


def example_pitch(side: BoardSide, slot: float, room: float) -> float:
    """The pitch at which a board, its letters and its flags fit a slot with EXAMPLE_GAP to spare."""
    pitch = min((slot - 8.0) / max(side.cols - 1, 1), room / max(side.rows - 1, 1), 9.0)
    for _step in range(20):
        left, _top, right, _low = board_extent(side, board_geometry(side, 0.0, 0.0, pitch))
        if right - left <= slot - EXAMPLE_GAP:
            break
        pitch *= 0.97
    return pitch


LEGEND_PT = 7.5
LEGEND_LEADING = 1.15
LEGEND = (
    (N_("a lane: a bridge may go here"), None, 0),
    (N_("one bridge: on the dots"), None, 1),
    (N_("two bridges: on the faint tracks"), None, 2),
    (N_("3 bridges on a 3: circle it"), 3, 3),
)


def _legend_states() -> list[tuple[str, GameState]]:
    """Two-island boards with 0, 1 or 2 bridges (and a numeral) for the sheet legend."""
    pair = BoardSide("legend", 1, 3, (BoardIsland("X", 0, 0), BoardIsland("Y", 0, 2)))
    three = BoardSide("legend", 1, 5, tuple(BoardIsland(c, 0, 2 * k) for k, c in enumerate("XYZ")))
    out = []
    for text, numeral, bridges in LEGEND:
        if numeral is None:
            out.append((text, GameState(pair, (None, None), (bridges,))))
        else:
            out.append((text, GameState(three, (None, numeral, None), (2, 1))))
    return out


def draw_legend(cv: Canvas, y: float) -> float:
    """Draw how lanes, bridges and circles look on a sheet, in one row from y; return the y below."""
    slot = (cv.width - 2 * LEFT) / len(LEGEND)
    size = caption_size([_(text) for text, *_rest in LEGEND], slot - 2.0)
    most = 1
    for k, (text, state) in enumerate(_legend_states()):
        pitch = 11.0 if len(state.side.islands) == 2 else 9.0
        x0 = LEFT + k * slot + (slot - (state.side.cols - 1) * pitch) / 2
        bg = board_geometry(state.side, x0, y + 6.0, pitch)
        with cv.group(f"legend-{k + 1}"):
            draw_board(cv, state.side, bg, state=state, prefix=f"legend{k + 1}-")
        _size, lines = draw_fitted(cv, LEFT + k * slot + slot / 2, y + 17.0, _(text), slot - 2.0,
                                   size_pt=size, min_pt=size, max_lines=2, leading=LEGEND_LEADING,
                                   anchor="middle")
        most = max(most, lines)
    return y + 22.0 + (most - 1) * size * PT * LEGEND_LEADING


def caption_size(captions: list[str], width_mm: float) -> float:
    """The largest size (7.5 pt down to the smallest home-print size) at which every caption fits in
    two lines of `width_mm`: captions side by side read as one row only in one size."""
    size = LEGEND_PT
    while size > HOME_MIN_TEXT_PT and not all(
            len(lines := wrap_text(c, size, width_mm)) <= 2
            and all(text_width(line, size) <= width_mm for line in lines) for c in captions):
        size -= 0.25
    return max(size, HOME_MIN_TEXT_PT)


def draw_leaflet_page(cv: Canvas, page: int, side: BoardSide, scoring: Scoring,
                      examples: list[Example]) -> None:
    """Draw page 1 (setup, a turn) or page 2 (examples, goals, end, solo) of the leaflet."""
    width = cv.width - 2 * LEFT
    if page == 1:
        cv.text(LEFT, 22.0, _("Hashi \u2013 how to play"), size_pt=22, bold=True, id="rules-title")
        cv.text(LEFT, 29.0, _("A flip-and-write game of building bridges \u00b7 1\u20134 players \u00b7 "
                "about 20 minutes"), size_pt=10, color="#555555")
        y = _heading(cv, 40.0, _("You need"))
        need = _("A score sheet for each player (all on the same side, A or B), a pen each, and the 18 "
                 "cards. Each sheet shows 18 islands; dotted lines (lanes) join islands that can be bridged: "
                 "neighbours in a row or column with nothing between them.")
        y = draw_paragraph(cv, LEFT, y, need, width, size_pt=9.5) + 3.0
        y = _heading(cv, y, _("Setup"))
        for k, s in enumerate(SETUP):
            y = _item(cv, y, f"{k + 1}.", _(s), width)
        y = _heading(cv, y + 2.0, _("A turn"))
        reveal = _("One player turns over the next card for everybody (take turns at this if you like). "
                   "Everybody crosses it off on the card strip of their sheet, then plays it at the same "
                   "time on their own sheet, in this order:")
        y = draw_paragraph(cv, LEFT, y, reveal, width, size_pt=9.5) + 1.0
        for lead, rest in TURN:
            y = _item(cv, y, _(lead), _(rest), width)
        y += 4.0
        draw_examples(cv, side, examples, y)
        return
    y = _heading(cv, 20.0, _("On the sheet"))
    y = draw_legend(cv, y)
    y = _heading(cv, y + 2.0, _("The three goals"))
    for goal, (lead, rest) in zip((*GOALS, None), _goal_text(scoring), strict=True):
        if goal in FLAG_COLORS:
            # The flag as printed on the sheet, in the margin beside its goal.
            draw_flag(cv, LEFT - 7.0, y + 2.5, FLAG_MIN_MM, goal)
        elif goal is not None:
            # The six goal's symbol as on the sheet: three joined circles.
            six_mark(cv, LEFT - 7.2, y - 1.2, 0.9, step=2.3)
        y = _item(cv, y, lead, rest, width)
    y = _heading(cv, y + 2.0, _("End of the game and scoring"))
    y = draw_paragraph(cv, LEFT, y, _("After the 17th card, score {per} points per circled "
                       "island plus your bonuses. The highest total wins; players who tie share the win. For "
                       "interest, also note how many numerals you wrote, bridges you drew and cards you "
                       "skipped.").format(per=scoring.per_circled), width, size_pt=9.5) + 3.0
    y = _heading(cv, y, _("Solo"))
    solo = _("Play the same way on your own. A goal's bonus (its higher value) counts only if you reach it "
             "within the turn limit for your side and level printed in the solo table; the table also rates "
             "your final score.")
    y = draw_paragraph(cv, LEFT, y, solo, width, size_pt=9.5) + 3.0
    y = _heading(cv, y, _("Tips"))
    for lead, rest in (
            (_("Skipping is allowed:"), _("you may skip the numeral, the bridges or both on any turn.")),
            (_("Plan your crossings:"),
             _("one bridge on a lane closes every lane that crosses it for good.")),
            (_("Flags need a bridge first:"), _("bridge into a flagged island before you number it.")),
            (_("Circle at once:"), _("circle an island as soon as its bridges equal its numeral; one missed "
             "now is easily missed at the end."))):
        y = _item(cv, y, lead, rest, width)


def render_leaflet(side: BoardSide, scoring: Scoring, paper: str, fmt: str, out: str | Path,
                   examples: list[Example], page: int | None = None, lang: str = "en") -> Path:
    """Write the leaflet in `lang`: both pages in one file, or only page `page` (1 or 2).

    SVG holds one page, so an SVG leaflet is one page (page 1 unless `page` says otherwise). The
    examples are game states played with the rules engine (jobs.leaflet.leaflet_examples).
    """
    if paper not in PAPER:
        raise OptionError(f"unknown paper {paper!r}; use a4 or letter")
    kind = check_format(fmt, (Format.PDF, Format.SVG))
    w, h = PAPER[paper]
    pages = (1, 2) if page is None and kind is Format.PDF else (page or 1,)
    with language(lang):
        title = _("Hashi rules") if len(pages) == 2 else _("Hashi rules, page {page}").format(page=pages[0])
        cv = make_canvas(kind, w, h, title=title, preflight=home_sheet(w, h))
        for k, number in enumerate(pages):
            if k:
                cv.new_page()
            draw_leaflet_page(cv, number, side, scoring, examples)
        return write_atomic(out, cv.finish(Path(out).name))
