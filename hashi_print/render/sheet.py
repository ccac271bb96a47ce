"""The score sheet of a board side, and the board drawing shared with the rules leaflet.

`sheet_layout` (in sheets/layout.py) places every part of the sheet in millimetres; `draw_sheet` draws
that layout; `draw_board` draws islands, lanes and (optionally) a game state's numerals, bridges and circles.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from hashi_print.files import write_atomic
from hashi_print.game.board import BoardSide
from hashi_print.game.deck import GOALS, Deck
from hashi_print.game.rules import GameState
from hashi_print.game.scoring import Scoring
from hashi_print.i18n import N_, _, language
from hashi_print.options import Format
from hashi_print.render.canvas import (
    PT,
    Canvas,
    check_format,
    draw_fitted,
    fit_text,
    make_canvas,
    text_width,
)
from hashi_print.render.markers import draw_marker
from hashi_print.render.paper import BLUE
from hashi_print.render.preflight import HOME_MIN_TEXT_PT, home_sheet
from hashi_print.sheets.layout import (
    MARGIN,
    MARKER,
    BoardGeometry,
    Point,
    SheetLayout,
    sheet_layout,
)
from hashi_print.sheets.markers import CORNERS

# Red light and blue dark, so that a grey print still tells them apart by their grey (56 % and 81 % black
# by luminance), and by shape and letter.
FLAG_COLORS = {"red": "#e0442b", "blue": "#15336f"}
# The letter on each flag's cloth; the same in every language (rot/rouge/rosso, blau/bleu/blu).
FLAG_LETTERS = {"red": "R", "blue": "B"}
FLAG_LETTER_MIN_PT = 8.0
FLAG_MIN_MM = 3.2          # the smallest cloth that holds an 8 pt letter
FLAG_POLE_GAP = 0.9        # bare pole below the cloth, as a share of the cloth's height
NEW_THIS_TURN = "#e07b00"
LANE_DOTS = "#7a7a7a"
# The two faint tracks a double bridge is drawn on: light, but 35 % black by luminance, so that a mono
# printer keeps them (a lighter tint is dropped or dithered away).
LANE_TRACK = "#95a9c9"
RULER_TEXT_GAP = 3.0  # mm between the print-scale sentence and the ruler or the corner marker
GOAL_TEXT = {"red": N_("all 4 red flags circled"), "blue": N_("all 3 blue flags circled"),
             "six": N_("6 circled islands joined by bridges")}


@dataclass(frozen=True)
class FlagShape:
    """A flag drawn on a pole: the pole line, the cloth's outline and its letter (x, baseline, size in pt)."""

    pole: tuple[float, float, float, float]
    cloth: tuple[Point, ...]
    letter: tuple[float, float, float]


def flag_shape(flag: str, px: float, base: float, height: float) -> FlagShape:
    """Place a flag whose pole stands at x = px from y = base upwards and whose cloth is `height` mm tall.

    Red is a long triangular pennant, blue a square-ended banner: the shapes differ so that a grey
    copy (where the two colours print as the same grey) still tells them apart.
    """
    h = max(height, FLAG_MIN_MM)
    top = base - FLAG_POLE_GAP * height - h
    size = max(FLAG_LETTER_MIN_PT, min(9.0, 1.8 * h))
    cap = 0.73 * size * PT  # the face's capital height
    baseline = top + h / 2 + cap / 2
    cloth: tuple[tuple[float, float], ...]
    if flag == "red":
        cloth = ((px, top), (px + 2.0 * h, top + h / 2), (px, top + h))
        letter = (px + 0.42 * h, baseline, size)
    else:
        cloth = ((px, top), (px + 1.35 * h, top), (px + 1.35 * h, top + h), (px, top + h))
        letter = (px + 0.675 * h, baseline, size)
    return FlagShape((px, base, px, top), cloth, letter)


def draw_flag(cv: Canvas, px: float, base: float, height: float, flag: str, *, id: str | None = None) -> None:
    """Draw a red or blue flag with its letter (R, B) on a pole standing at (px, base); see `flag_shape`."""
    shape = flag_shape(flag, px, base, height)
    x1, y1, x2, y2 = shape.pole
    cv.line(x1, y1, x2, y2, width=max(0.25, 0.07 * height), color="#000000")
    cv.polygon(shape.cloth, stroke="#000000", fill=FLAG_COLORS[flag], width=0.15, id=id)
    x, y, size = shape.letter
    cv.text(x, y, FLAG_LETTERS[flag], size_pt=size, anchor="middle", bold=True, color="#ffffff")


def draw_island_flag(cv: Canvas, cx: float, cy: float, r: float, flag: str) -> None:
    """Draw an island's flag on a pole at the upper right of its circle (centre cx, cy, radius r)."""
    draw_flag(cv, cx + 0.7 * r, cy - 0.72 * r, 0.66 * r, flag)


def draw_board(cv: Canvas, side: BoardSide, bg: BoardGeometry, *, state: GameState | None = None,
               prefix: str = "", highlight: Mapping[int, int] | None = None, forbidden: tuple[int, ...] = (),
               numerals: Mapping[int, int] | None = None,
               crossings: tuple[tuple[int, int], ...] = ()) -> None:
    """Draw lanes and islands; with a game state also its numerals, bridges and circled islands.

    `highlight` marks the lanes whose bridges (already in the state) were drawn this turn, shown in
    the highlight colour; `forbidden` lists lanes drawn as refused bridges; `crossings` pairs of
    lanes whose crossing point gets a cross; `numerals` maps islands to numerals just written (or
    attempted), shown in the highlight colour.
    """
    label_pt = label_size(bg)
    dot = max(0.3, min(0.55, bg.r * 0.09))
    for k, (x1, y1, x2, y2) in enumerate(bg.lanes):
        name = side.lane_name(k)
        horizontal = side.geometry.lanes[k].horizontal
        dx, dy = (0.0, bg.track) if horizontal else (bg.track, 0.0)
        with cv.group(f"{prefix}lane-{name}"):
            for s in (-1, 1):
                cv.line(x1 + s * dx, y1 + s * dy, x2 + s * dx, y2 + s * dy, width=0.18, color=LANE_TRACK)
            cv.line(x1, y1, x2, y2, width=dot, color=LANE_DOTS, dash=(0.0, dot * 2.8), cap="round")
    if state is not None:
        new = set(highlight or ())
        _draw_state_bridges(cv, side, bg, state.bridges, BLUE, prefix + "bridge",
                            only=set(range(len(bg.lanes))) - new)
        _draw_state_bridges(cv, side, bg, state.bridges, NEW_THIS_TURN, prefix + "new", only=new)
    for k in forbidden:
        x1, y1, x2, y2 = bg.lanes[k]
        cv.line(x1, y1, x2, y2, width=0.6, color=FLAG_COLORS["red"], dash=(1.0, 0.8),
                id=f"{prefix}forbidden-{side.lane_name(k)}")
    for a, b in crossings:
        mx, my = crossing_point(side, bg, a, b)
        arm = bg.r * 0.55
        with cv.group(f"{prefix}crossing-{side.lane_name(a)}-{side.lane_name(b)}"):
            cv.line(mx - arm, my - arm, mx + arm, my + arm, width=0.7, color=FLAG_COLORS["red"])
            cv.line(mx - arm, my + arm, mx + arm, my - arm, width=0.7, color=FLAG_COLORS["red"])
    for i, isl in enumerate(side.islands):
        cx, cy = bg.centres[i]
        with cv.group(f"{prefix}island-{isl.label}"):
            cv.circle(cx, cy, bg.r, stroke="#000000", fill="#ffffff", width=max(0.3, bg.r * 0.07))
            bx, by, bw, bh = bg.numeral_boxes[i]
            cv.rect(bx, by, bw, bh, stroke="#9a9a9a", width=0.2)
            cv.text(cx - 0.8 * bg.r, cy - 0.78 * bg.r, isl.label, size_pt=label_pt, anchor="end", bold=True)
            if isl.flag:
                draw_island_flag(cv, cx, cy, bg.r, isl.flag)
        written = None if state is None else state.numerals[i]
        if numerals and i in numerals:
            written, colour = numerals[i], NEW_THIS_TURN
        else:
            colour = BLUE
        if written is not None:
            # Never below the smallest type a home print allows, even on a small example board.
            size = max(HOME_MIN_TEXT_PT, bh / PT * 0.95)
            cv.text(cx, by + bh * 0.85, str(written), size_pt=size, anchor="middle", bold=True, color=colour,
                    id=f"{prefix}numeral-{isl.label}")
        if state is not None and i in state.circled:
            cv.circle(cx, cy, bg.r * 1.28, stroke=BLUE, width=max(0.35, bg.r * 0.08),
                      id=f"{prefix}circled-{isl.label}")


def label_size(bg: BoardGeometry) -> float:
    """The type size of the island letters on a board drawn at this geometry."""
    return max(6.0, min(9.0, bg.pitch * 0.45))


def board_extent(side: BoardSide, bg: BoardGeometry) -> tuple[float, float, float, float]:
    """Where `draw_board` puts ink, as (left, top, right, bottom): islands with their circling rings,
    letters and flags (a flag reaches well right of and above its island)."""
    boxes = []
    size = label_size(bg)
    for (cx, cy), isl in zip(bg.centres, side.islands, strict=True):
        ring = bg.r * 1.28 + 0.3
        boxes.append((cx - ring, cy - ring, cx + ring, cy + ring))
        lx, ly = cx - 0.8 * bg.r, cy - 0.78 * bg.r
        boxes.append((lx - text_width(isl.label, size, bold=True), ly - 0.75 * size * PT, lx, ly))
        if isl.flag:
            shape = flag_shape(isl.flag, cx + 0.7 * bg.r, cy - 0.72 * bg.r, 0.66 * bg.r)
            xs = [p[0] for p in shape.cloth] + [shape.pole[0]]
            ys = [p[1] for p in shape.cloth] + [shape.pole[1]]
            boxes.append((min(xs) - 0.1, min(ys) - 0.1, max(xs) + 0.1, max(ys) + 0.1))
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
            max(b[3] for b in boxes))


def crossing_point(side: BoardSide, bg: BoardGeometry, a: int, b: int) -> Point:
    """Where lanes `a` and `b` (one horizontal, one vertical) meet on the drawing."""
    horizontal, vertical = (a, b) if side.geometry.lanes[a].horizontal else (b, a)
    return bg.lanes[vertical][0], bg.lanes[horizontal][1]


def _draw_state_bridges(cv: Canvas, side: BoardSide, bg: BoardGeometry, bridges: tuple[int, ...], colour: str,
                        prefix: str, only: set[int] | None = None) -> None:
    """Draw 1 bridge on the lane's centre line and 2 on its guide tracks, as a pen would."""
    for k, n in enumerate(bridges):
        if not n or (only is not None and k not in only):
            continue
        x1, y1, x2, y2 = bg.lanes[k]
        dx, dy = (0.0, bg.track) if side.geometry.lanes[k].horizontal else (bg.track, 0.0)
        offsets = (0.0,) if n == 1 else (-1.0, 1.0)
        for j, s in enumerate(offsets):
            cv.line(x1 + s * dx, y1 + s * dy, x2 + s * dx, y2 + s * dy, width=0.6, color=colour,
                    cap="round", id=f"{prefix}-{side.lane_name(k)}-{j + 1}")


def draw_card_pips(cv: Canvas, cx: float, y: float, bridges: int, length: float, gap: float,
                   width: float = 0.6, color: str = "#000000") -> None:
    """Draw `bridges` short parallel bars centred on cx, the first at y, as a card's bridge count."""
    for k in range(bridges):
        yy = y + k * gap
        cv.line(cx - length / 2, yy, cx + length / 2, yy, width=width, color=color, cap="round")


def draw_sheet(cv: Canvas, side: BoardSide, deck: Deck, scoring: Scoring, lay: SheetLayout) -> None:
    """Draw a complete score sheet from its layout."""
    px, py, pw, ph = lay.player
    # Title and subtitle end before the player's name line; longer wording shrinks, down to 6 pt.
    room = px - 3.0 - lay.title[0]
    title = _("Hashi \u2013 side {side}").format(side=side.name)
    draw_fitted(cv, lay.title[0], lay.title[1], title, room, size_pt=16, min_pt=10, bold=True, id="title")
    subtitle = _("score sheet \u2013 draw bridges along the dots")
    draw_fitted(cv, lay.title[0], lay.title[1] + 5.5, subtitle, room, size_pt=8, min_pt=HOME_MIN_TEXT_PT,
                color="#555555", id="subtitle")
    player = _("Player")
    cv.text(px, py + ph - 1.5, player, size_pt=9, id="player-label")
    line_x = max(px + 13.0, px + text_width(player, 9) + 2.0)
    cv.line(line_x, py + ph - 1.0, px + pw, py + ph - 1.0, width=0.3, id="player-line")
    for (x, y, s, mid), corner in zip(lay.markers, CORNERS, strict=True):
        draw_marker(cv, x, y, s, mid, id=f"marker-{corner}")
    _draw_ruler(cv, *lay.ruler)
    with cv.group("board"):
        draw_board(cv, side, lay.board)
    _draw_card_strip(cv, deck, lay)
    _draw_turns(cv, lay)
    _draw_bonus(cv, scoring, lay)
    _draw_score(cv, scoring, lay)


def _draw_ruler(cv: Canvas, x: float, y: float, length: float) -> None:
    """Draw a ruler of `length` mm with mm ticks, to check the print scale."""
    with cv.group("ruler"):
        cv.line(x, y, x + length, y, width=0.25)
        for k in range(int(length) + 1):
            tick = 3.0 if k % 10 == 0 else (2.0 if k % 5 == 0 else 1.0)
            cv.line(x + k, y, x + k, y - tick, width=0.15 if k % 5 else 0.25)
        cv.text(x, y + 3.2, "0", size_pt=6, anchor="middle")
        cv.text(x + length, y + 3.2, f"{length:g} mm", size_pt=6, anchor="middle")
        # "100 %" is passed in so that gettext tools do not read "% i" as a printf placeholder.
        scale = _("printed at {percent} if this is 50 mm").format(percent="100 %")
        # The sentence sits on one line left of the ruler, where every language has room; under it, it
        # had to wrap in German, French and Italian.
        room = x - RULER_TEXT_GAP - (MARGIN + MARKER + RULER_TEXT_GAP)
        draw_fitted(cv, x - RULER_TEXT_GAP, y, scale, room, size_pt=6, min_pt=HOME_MIN_TEXT_PT,
                    anchor="end", color="#555555", id="ruler-label")


def _draw_card_strip(cv: Canvas, deck: Deck, lay: SheetLayout) -> None:
    """Draw the deck as a strip of small cards to cross off as they are revealed."""
    label = _("Cards \u2013 cross off each card as it is revealed (numeral / bridges)")
    room = lay.card_slots[-1][0] + lay.card_slots[-1][2] - lay.card_label[0]
    draw_fitted(cv, lay.card_label[0], lay.card_label[1], label, room, size_pt=7.5, min_pt=HOME_MIN_TEXT_PT,
                bold=True, id="cards-label")
    for k, (card, (x, y, w, h)) in enumerate(zip(deck.cards, lay.card_slots, strict=True)):
        with cv.group(f"card-{k + 1}"):
            cv.rect(x, y, w, h, stroke="#000000", width=0.3)
            cv.text(x + w / 2, y + 6.4, str(card.numeral), size_pt=15, anchor="middle", bold=True)
            draw_card_pips(cv, x + w / 2, y + 8.5, card.bridges, w * 0.55, 1.5, width=0.55)


def _draw_turns(cv: Canvas, lay: SheetLayout) -> None:
    """Draw the turn tracker: the starting island's box, then turns 1-17 to cross off."""
    room = lay.setup_box[0] - 1.0 - lay.turn_label[0]
    draw_fitted(cv, lay.turn_label[0], lay.turn_label[1], _("Turn"), room, size_pt=9, min_pt=HOME_MIN_TEXT_PT,
                bold=True, id="turns-label")
    for k, (x, y, w, h) in enumerate(lay.turn_boxes):
        cv.rect(x, y, w, h, stroke="#777777", width=0.25, id=f"turn-{k + 1}")
        cv.text(x + 0.8, y + 2.6, str(k + 1), size_pt=6, color="#777777")
    # Under each turn, a box per goal: cross the one of the turn on which you reached that goal.
    for goal in GOALS:
        cells = lay.goal_turn_cells[goal]
        with cv.group(f"goal-turns-{goal}"):
            _goal_mark(cv, goal, cells[0][0] - 1.5, cells[0][1] + cells[0][3] / 2)
            for x, y, w, h in cells:
                cv.rect(x, y, w, h, stroke="#9a9a9a", width=0.2)
    x, y, w, h = lay.setup_box
    with cv.group("setup"):
        cv.rect(x, y, w, h, width=0.35)
        draw_fitted(cv, x + 0.8, y + 2.6, _("starting island"), w - 1.6, size_pt=6, min_pt=HOME_MIN_TEXT_PT,
                    color="#555555")


SIX_MARK_STEP = 3.2  # mm between the centres of the six symbol's circles


def _goal_mark(cv: Canvas, goal: str, right: float, mid: float) -> None:
    """Draw a goal's small symbol ending at `right`, centred on `mid`: its flag, or three joined circles."""
    if goal in FLAG_COLORS:
        # The smallest cloth on a short pole, so that the flag fits its row.
        pole, h = 1.0, FLAG_MIN_MM
        top = mid - (FLAG_POLE_GAP * pole + h) / 2
        width = (2.0 if goal == "red" else 1.35) * h
        draw_flag(cv, right - width, top + FLAG_POLE_GAP * pole + h, pole, goal)
        return
    six_mark(cv, right - 8.2, mid, 1.1)


def _goal_icon(cv: Canvas, goal: str, x: float, y: float) -> None:
    """Draw a goal's small symbol with its top-left corner near (x, y)."""
    if goal in FLAG_COLORS:
        cv.circle(x + 2.2, y + 6.2, 2.0, width=0.3)
        draw_island_flag(cv, x + 2.2, y + 6.2, 2.0, goal)
    else:
        six_mark(cv, x + 1.4, y + 5.2, 1.2)


def six_mark(cv: Canvas, first: float, mid: float, r: float, step: float = SIX_MARK_STEP) -> None:
    """Draw the six goal's symbol: three circles of radius `r`, the first centred at (first, mid), joined."""
    for k in range(3):
        cv.circle(first + k * step, mid, r, width=0.25)
    for k in range(2):
        cv.line(first + k * step + r, mid, first + (k + 1) * step - r, mid, width=0.35)


def _draw_bonus(cv: Canvas, scoring: Scoring, lay: SheetLayout) -> None:
    """Draw the bonus boxes: first value and later value for each goal."""
    x0 = lay.bonus_label[0]
    label = _("Bonuses \u2013 first to reach / later (cross off the box you can no longer score)")
    draw_fitted(cv, x0, lay.bonus_label[1], label, lay.score_label[0] - 3.0 - x0, size_pt=7,
                min_pt=HOME_MIN_TEXT_PT, bold=True, id="bonus-label")
    for goal in GOALS:
        first, later = lay.bonus_boxes[goal]
        _goal_icon(cv, goal, x0, first[1])
        room = first[0] - 1.5 - (x0 + 11.0)
        size, lines = fit_text(_(GOAL_TEXT[goal]), room, 7, HOME_MIN_TEXT_PT, max_lines=2)
        # One line sits at the box's numeral height; two lines straddle it.
        top = first[1] + 5.8 - (len(lines) - 1) * size * PT * 0.6
        for k, line in enumerate(lines):
            cv.text(x0 + 11.0, top + k * size * PT * 1.15, line, size_pt=size)
        for which, (x, y, w, h), value, word in (("first", first, scoring.bonus[goal][0], _("first")),
                                                 ("later", later, scoring.bonus[goal][1], _("later"))):
            with cv.group(f"bonus-{goal}-{which}"):
                cv.rect(x, y, w, h, width=0.35)
                cv.text(x + w / 2, y + 5.2, str(value), size_pt=12, anchor="middle", bold=True)
                draw_fitted(cv, x + w / 2, y + h - 0.8, word, w - 1.0, size_pt=6, min_pt=HOME_MIN_TEXT_PT,
                            anchor="middle", color="#555555")


def _draw_score(cv: Canvas, scoring: Scoring, lay: SheetLayout) -> None:
    """Draw the score area: circled islands x points + bonuses = total."""
    sx, sy = lay.score_label
    cv.text(sx, sy, _("Score"), size_pt=7, bold=True, id="score-label")
    boxes = lay.score_boxes
    x, y, w, h = boxes["circled"]
    cv.circle(sx + 3.0, y + h / 2, 2.6, width=0.3)
    cv.circle(sx + 3.0, y + h / 2, 3.4, width=0.3, stroke=BLUE)
    draw_fitted(cv, sx + 8.0, y + h / 2 + 1.2, _("circled"), x - 1.5 - (sx + 8.0), size_pt=8,
                min_pt=HOME_MIN_TEXT_PT)
    cv.text(x + w + 2.0, y + h / 2 + 1.4, f"\u00d7 {scoring.per_circled} =", size_pt=9)
    x2 = boxes["bonus"][0]
    cv.text(x2 - 2.0, boxes["bonus"][1] + h / 2 + 1.4, _("+ bonuses"), size_pt=9, anchor="end")
    cv.text(x2 - 2.0, boxes["total"][1] + h / 2 + 1.4, _("= total"), size_pt=10, anchor="end", bold=True)
    for name, (bx, by, bw, bh) in boxes.items():
        cv.rect(bx, by, bw, bh, width=0.6 if name == "total" else 0.35, id=f"score-{name}")
    long = _("numbers written ___  bridges drawn ___  cards skipped ___")
    cv.text(sx, boxes["total"][1] + h / 2 + 1.0, long if text_width(long, 6) < x2 - sx - 22
            else _("written ___  bridges ___  skipped ___"), size_pt=6, color="#555555")


def render_sheet(side: BoardSide, deck: Deck, scoring: Scoring, paper: str, fmt: str,
                 out: str | Path, custom: bool = False, lang: str = "en") -> Path:
    """Write one side's score sheet as a PDF or SVG file in language `lang` and return its path."""
    kind = check_format(fmt, (Format.PDF, Format.SVG))
    lay = sheet_layout(side, paper, len(deck.cards), custom)
    with language(lang):
        title = _("Hashi side {side} score sheet").format(side=side.name)
        preflight = home_sheet(lay.width, lay.height)
        cv = make_canvas(kind, lay.width, lay.height, title=title, preflight=preflight)
        draw_sheet(cv, side, deck, scoring, lay)
        return write_atomic(out, cv.finish(Path(out).name))

