"""The solo table: turn limits per side, goal and level, the score rating bands, and how to use them."""

from __future__ import annotations

from pathlib import Path

from hashi_print.errors import LayoutError, OptionError
from hashi_print.files import write_atomic
from hashi_print.game.deck import GOALS
from hashi_print.game.scoring import Scoring
from hashi_print.i18n import N_, _, language
from hashi_print.options import Format
from hashi_print.render.canvas import (
    PT,
    Canvas,
    check_format,
    draw_fitted,
    draw_lead_paragraph,
    draw_paragraph,
    fit_text,
    make_canvas,
    text_width,
)
from hashi_print.render.paper import BLUE
from hashi_print.render.preflight import HOME_MIN_TEXT_PT, home_sheet
from hashi_print.render.sheet import FLAG_COLORS, FLAG_MIN_MM, draw_flag, flag_shape
from hashi_print.sheets.paper import PAPER

GOAL_NAMES = {"red": N_("Red flags"), "blue": N_("Blue flags"), "six": N_("Six joined")}
HOW_TO = (
    N_("Play a normal game on your own: choose a side, write a 3 or a 4 on an unflagged island yourself, "
       "shuffle the 18 cards and put one away unseen, then play the 17 others one by one."),
    N_("Pick a level before you start. A goal's bonus counts (its higher value) only if you reach it on or "
       "before the turn shown for your side and level; reached later, it scores nothing. When you reach a "
       "goal, cross off the box under that turn in the goal's row on the sheet."),
    N_("At the end, score {per} points per circled island plus the bonuses you earned, and look up your "
       "total in the rating bands of your side."),
)
READING = (N_("How to read the table:"),
           N_("find the row of your side and level. \u201cBy turn 12\u201d under a goal means its bonus "
              "counts if you reach the goal on turn 12 or earlier: the turn whose box you cross off in the "
              "goal's row on the sheet. On the right, your final score earns the best rating whose "
              "lowest score it reaches."))

# The level names and rating words of the designed scoring file, so that the catalogs carry them.
DATA_WORDS = (N_("standard"), N_("easy"), N_("normal"), N_("hard"), N_("master builder"), N_("excellent"),
              N_("good"), N_("fair"), N_("keep building"))


def solo_levels(scoring: Scoring, side: str) -> list[tuple[str, dict[str, int]]]:
    """The (level name, limits per goal) rows for a side: the levels if given, else the standard limits."""
    levels = scoring.solo_levels.get(side, {})
    if levels:
        return list(levels.items())
    if side in scoring.solo:
        return [("standard", scoring.solo[side])]
    return []


def solo_sides(scoring: Scoring) -> list[str]:
    """The sides that have solo limits, in name order."""
    return sorted(set(scoring.solo) | set(scoring.solo_levels))


def draw_solo(cv: Canvas, scoring: Scoring) -> None:
    """Draw the solo page: how to play solo, then per side the turn-limit table and the rating bands."""
    left, width = 18.0, cv.width - 36.0
    draw_fitted(cv, left, 24.0, _("Hashi \u2013 solo play"), width, size_pt=20, min_pt=12, bold=True,
                id="solo-title")
    y = 34.0
    for para in HOW_TO:
        y = draw_paragraph(cv, left, y, _(para).format(per=scoring.per_circled), width, size_pt=10) + 1.5
    lead, rest = (_(t) for t in READING)
    y = draw_lead_paragraph(cv, left, y + 1.0, lead, rest, width, size_pt=10) + 4.0
    sides = solo_sides(scoring)
    if not sides:
        raise LayoutError("the scoring file has no solo limits (keys \"solo\" or \"solo_levels\")")
    for side in sides:
        y = _side_block(cv, scoring, side, left, y, width) + 8.0
    _score_log(cv, left, y, width, min(10, int((cv.height - 20.0 - y) / 8.0) - 1))


def _score_log(cv: Canvas, left: float, y: float, width: float, rows: int) -> None:
    """Draw an empty log to write down solo games (date, side, level, score, rating)."""
    if rows < 2:
        return
    cols = ((_("Date"), 0.0), (_("Side"), 0.22), (_("Level"), 0.34), (_("Score"), 0.52), (_("Rating"), 0.66))
    with cv.group("solo-log"):
        cv.text(left, y, _("My solo games"), size_pt=12, bold=True)
        top = y + 3.0
        for r in range(rows + 1):
            cv.line(left, top + r * 8.0, left + width, top + r * 8.0, width=0.3 if r < 2 else 0.15,
                    color="#000000" if r < 2 else "#999999")
        ends = [frac for _name, frac in cols[1:]] + [1.0]
        for (name, frac), end in zip(cols, ends, strict=True):
            draw_fitted(cv, left + frac * width + 1.5, top + 5.8, name, (end - frac) * width - 3.0, size_pt=9,
                        min_pt=HOME_MIN_TEXT_PT, bold=True)


def level_bands(scoring: Scoring, side: str, levels: list[str]) -> list[tuple[tuple[int, str], ...]] | None:
    """The rating bands of each level of a side, or None when the scoring file rates the side as a whole."""
    by_level = scoring.level_ratings.get(side, {})
    if not levels or any(level not in by_level for level in levels):
        return None
    return [by_level[level] for level in levels]


def _side_block(cv: Canvas, scoring: Scoring, side: str, left: float, y: float, width: float) -> float:
    """Draw one side's limit table and rating bands starting at y; return the y below them."""
    cv.text(left, y, _("Side {side}").format(side=side), size_pt=14, bold=True, id=f"solo-side-{side}")
    rows = solo_levels(scoring, side)
    per_level = level_bands(scoring, side, [level for level, _limits in rows])
    y += 4.0
    col0, colw, rowh = limit_columns(rows, per_level is not None, width)
    table_w = col0 + colw * len(GOALS)
    names = [_(level) for level, _limits in rows]
    cells = [[_limit_text(limits.get(goal)) for goal in GOALS] for _level, limits in rows]
    # One size for every level name and one for every cell, each the largest at which all of them fit
    # with a clear margin from the cell's lines.
    name_pt = min(fit_text(n, col0 - 2 * CELL_PAD, 10, HOME_MIN_TEXT_PT)[0] for n in names)
    cell_pt = min(fit_text(t, colw - 2 * CELL_PAD, 10, HOME_MIN_TEXT_PT, bold=True)[0]
                  for row in cells for t in row)
    with cv.group(f"solo-limits-{side}"):
        cv.rect(left, y, table_w, rowh, stroke=None, fill="#e8eef8")
        draw_fitted(cv, left + CELL_PAD, y + 5.8, _("Level"), col0 - 2 * CELL_PAD, size_pt=9,
                    min_pt=HOME_MIN_TEXT_PT, bold=True)
        _goal_heads(cv, scoring, left + col0, y, colw, rowh)
        for r, (level, _limits) in enumerate(rows):
            yy = y + (r + 1) * rowh
            cv.line(left, yy, left + table_w, yy, width=0.2, color="#999999")
            draw_fitted(cv, left + CELL_PAD, yy + 5.8, names[r], col0 - 2 * CELL_PAD, size_pt=name_pt,
                        min_pt=name_pt)
            for k, goal in enumerate(GOALS):
                draw_fitted(cv, left + col0 + k * colw + colw / 2, yy + 5.8, cells[r][k], colw - 2 * CELL_PAD,
                            size_pt=cell_pt, min_pt=cell_pt, anchor="middle", bold=True,
                            id=f"solo-{side}-{level}-{goal}")
        bottom = y + (len(rows) + 1) * rowh
        cv.rect(left, y, table_w, bottom - y, width=0.4)
    rx = left + table_w + (3.0 if per_level else 8.0)
    if per_level:
        levels = [level for level, _limits in rows]
        _level_ratings(cv, side, levels, per_level, rx, y, left + width - rx, rowh)
        return bottom + 4.0
    bands = scoring.ratings.get(side, ())
    if bands:
        with cv.group(f"solo-ratings-{side}"):
            room = left + width - rx
            draw_fitted(cv, rx, y + 5.8, _("Your final score"), room, size_pt=9, min_pt=HOME_MIN_TEXT_PT,
                        bold=True)
            for k, (_low, words) in enumerate(bands):
                yy = y + (k + 1) * 6.5 + 5.8
                cv.text(rx, yy, band_span(bands, words), size_pt=10, bold=True, id=f"solo-rating-{side}-{k}")
                draw_fitted(cv, rx + 15.0, yy, _(words), room - 15.0, size_pt=9, min_pt=HOME_MIN_TEXT_PT)
        bottom = max(bottom, y + (len(bands) + 1) * 6.5 + 2.0)
    return bottom + 4.0


CELL_PAD = 1.5  # mm between a table cell's text and its lines


def _limit_text(limit: int | None) -> str:
    """A goal's turn limit as the table prints it, or a dash where the level has none."""
    return "\u2013" if limit is None else _("by turn {turn}").format(turn=limit)


def limit_columns(rows: list[tuple[str, dict[str, int]]], per_level: bool,
                  width: float) -> tuple[float, float, float]:
    """The level column's width, each goal column's width and the row height of a side's limit table.

    Columns are as wide as their widest text at 10 pt plus a margin, at least the usual 18 (or 28) and
    24 (or 31) mm, and the table takes at most 62 % of the width when the ratings sit beside it.
    """
    least0, leastw = (18.0, 24.0) if per_level else (28.0, 31.0)
    names = max(text_width(_(level), 10) for level, _limits in rows) + 2 * CELL_PAD
    cells = max(text_width(_limit_text(limits.get(goal)), 10, bold=True) for _level, limits in rows
                for goal in GOALS) + 2 * CELL_PAD
    col0, colw = max(least0, names), max(leastw, cells)
    room = width * (0.62 if per_level else 1.0)
    if col0 + len(GOALS) * colw > room:
        colw = max(leastw, (room - col0) / len(GOALS))
    return col0, colw, 8.5


def band_span(bands: tuple[tuple[int, str], ...], words: str) -> str:
    """The scores of the band named `words` (`36\u201339`, or `40+` for the best), or a dash without it."""
    for k, (low, name) in enumerate(bands):
        if name == words:
            return f"{low}+" if k == 0 else f"{low}\u2013{bands[k - 1][0] - 1}"
    return "\u2013"


def _goal_heads(cv: Canvas, scoring: Scoring, x: float, y: float, w: float, h: float) -> None:
    """Draw the goals' column heads, one type size for all: the flag (as on the sheet), name and bonus."""
    heads = []
    for goal in GOALS:
        label = f"{_(GOAL_NAMES[goal])} ({scoring.bonus[goal][0]})"
        flag_w = (max(px for px, _py in flag_shape(goal, 0.0, 0.0, FLAG_MIN_MM).cloth) + 1.2
                  if goal in FLAG_COLORS else 0.0)
        fitted = fit_text(label, w - 2.0 - flag_w, 9, 6.5, bold=True, max_lines=2)[0]
        heads.append((goal, label, flag_w, fitted))
    size = min(head[3] for head in heads)
    for k, (goal, label, flag_w, _size) in enumerate(heads):
        lines = fit_text(label, w - 2.0 - flag_w, size, size, bold=True, max_lines=2)[1]
        # Flag and name centred together in the column, the name in the goal's colour.
        x0 = x + k * w + (w - flag_w - max(text_width(line, size, bold=True) for line in lines)) / 2
        if flag_w:
            draw_flag(cv, x0, y + h - 1.0, 1.6, goal)
        top = y + 5.8 - (len(lines) - 1) * size * PT * 0.55
        for n, line in enumerate(lines):
            cv.text(x0 + flag_w, top + n * size * PT * 1.1, line, size_pt=size, bold=True,
                    color=FLAG_COLORS.get(goal, BLUE))


def _level_ratings(cv: Canvas, side: str, levels: list[str], bands: list[tuple[tuple[int, str], ...]],
                   x: float, y: float, width: float, rowh: float) -> None:
    """Draw each level's lowest score per rating, level rows beside the limit table's rows."""
    words: list[str] = []
    for level_bands_ in bands:
        words += [w for _low, w in level_bands_ if w not in words]
    # Columns as wide as their longest word (a word does not break) or score range needs, the rest shared.
    need = [max(max(text_width(part, HOME_MIN_TEXT_PT, bold=True) for part in _(w).split()),
                max(text_width(band_span(b, w), 9, bold=True) for b in bands)) + 1.5 for w in words]
    colws = [n * width / sum(need) for n in need]
    xs = [x + sum(colws[:k]) for k in range(len(words))]
    with cv.group(f"solo-ratings-{side}"):
        cv.text(x, y - 4.0, _("Your final score"), size_pt=9, bold=True)
        cv.rect(x, y, width, rowh, stroke=None, fill="#e8eef8")
        for k, w in enumerate(words):
            draw_fitted(cv, xs[k] + colws[k] / 2, y + 3.4, _(w), colws[k] - 1.5, size_pt=8,
                        min_pt=HOME_MIN_TEXT_PT, max_lines=2, leading=1.0, bold=True, anchor="middle")
        for r, (level, level_bands_) in enumerate(zip(levels, bands, strict=True)):
            yy = y + (r + 1) * rowh
            cv.line(x, yy, x + width, yy, width=0.2, color="#999999")
            for k, w in enumerate(words):
                draw_fitted(cv, xs[k] + colws[k] / 2, yy + 5.8, band_span(level_bands_, w), colws[k] - 1.0,
                            size_pt=10, min_pt=HOME_MIN_TEXT_PT, bold=True, anchor="middle",
                            id=f"solo-rating-{side}-{level}-{k}")
        cv.rect(x, y, width, (len(levels) + 1) * rowh, width=0.4)


def render_solo(scoring: Scoring, paper: str, fmt: str, out: str | Path, lang: str = "en") -> Path:
    """Write the solo table as PDF or SVG in language `lang`."""
    if paper not in PAPER:
        raise OptionError(f"unknown paper {paper!r}; use a4 or letter")
    w, h = PAPER[paper]
    kind = check_format(fmt, (Format.PDF, Format.SVG))
    with language(lang):
        cv = make_canvas(kind, w, h, title=_("Hashi solo table"), preflight=home_sheet(w, h))
        draw_solo(cv, scoring)
        return write_atomic(out, cv.finish(Path(out).name))
