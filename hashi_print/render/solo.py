"""The solo table: turn limits per side, goal and level, the score rating bands, and how to use them."""

from __future__ import annotations

from pathlib import Path

from hashi_print.errors import LayoutError, OptionError
from hashi_print.game.deck import GOALS
from hashi_print.game.scoring import Scoring
from hashi_print.i18n import N_, _, language
from hashi_print.render.canvas import Canvas, PdfCanvas, SvgCanvas, draw_fitted, draw_paragraph
from hashi_print.render.paper import BLUE, PAPER
from hashi_print.render.preflight import HOME_MIN_TEXT_PT, home_sheet
from hashi_print.render.sheet import FLAG_COLORS

GOAL_NAMES = {"red": N_("Red flags"), "blue": N_("Blue flags"), "six": N_("Six joined")}
HOW_TO = (
    N_("Play a normal game on your own: choose a side, write a 3 or a 4 on an unflagged island yourself, "
       "shuffle the 18 cards and put one away unseen, then play the 17 others one by one."),
    N_("Pick a level before you start. A goal's bonus counts (its higher value) only if you reach it on or "
       "before the turn shown for your side and level; reached later, it scores nothing. Note the turn on "
       "the turn tracker when you reach a goal."),
    N_("At the end, score {per} points per circled island plus the bonuses you earned, and look up your "
       "total in the rating bands of your side."),
)

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
    y += 4.0
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


def _side_block(cv: Canvas, scoring: Scoring, side: str, left: float, y: float, width: float) -> float:
    """Draw one side's limit table and rating bands starting at y; return the y below them."""
    cv.text(left, y, _("Side {side}").format(side=side), size_pt=14, bold=True, id=f"solo-side-{side}")
    y += 4.0
    col0, colw, rowh = 28.0, 31.0, 8.5
    with cv.group(f"solo-limits-{side}"):
        cv.rect(left, y, col0 + colw * len(GOALS), rowh, stroke=None, fill="#e8eef8")
        draw_fitted(cv, left + 2.0, y + 5.8, _("Level"), col0 - 3.0, size_pt=9, min_pt=HOME_MIN_TEXT_PT,
                    bold=True)
        for k, goal in enumerate(GOALS):
            x = left + col0 + k * colw
            high = scoring.bonus[goal][0]
            colour = FLAG_COLORS.get(goal, BLUE)
            draw_fitted(cv, x + colw / 2, y + 5.8, f"{_(GOAL_NAMES[goal])} ({high})", colw - 2.0, size_pt=9,
                        min_pt=HOME_MIN_TEXT_PT, bold=True, anchor="middle", color=colour)
        rows = solo_levels(scoring, side)
        for r, (level, limits) in enumerate(rows):
            yy = y + (r + 1) * rowh
            cv.line(left, yy, left + col0 + colw * len(GOALS), yy, width=0.2, color="#999999")
            draw_fitted(cv, left + 2.0, yy + 5.8, _(level), col0 - 3.0, size_pt=10, min_pt=HOME_MIN_TEXT_PT)
            for k, goal in enumerate(GOALS):
                limit = limits.get(goal)
                txt = "\u2013" if limit is None else _("by turn {turn}").format(turn=limit)
                draw_fitted(cv, left + col0 + k * colw + colw / 2, yy + 5.8, txt, colw - 2.0, size_pt=10,
                            min_pt=HOME_MIN_TEXT_PT, anchor="middle", bold=True,
                            id=f"solo-{side}-{level}-{goal}")
        bottom = y + (len(rows) + 1) * rowh
        cv.rect(left, y, col0 + colw * len(GOALS), bottom - y, width=0.4)
    return _ratings_block(cv, scoring, side, [level for level, _limits in rows], left, bottom + 3.0,
                          col0, colw) + 4.0


def _ratings_block(cv: Canvas, scoring: Scoring, side: str, levels: list[str], left: float, y: float,
                   col0: float, colw: float) -> float:
    """Draw the rating bands under the limits, one column per level (or one for the standard limits);
    return the y below them."""
    by_level = scoring.level_ratings.get(side, {})
    columns = [(level, by_level[level]) for level in levels if level in by_level]
    if not columns and scoring.ratings.get(side):
        columns = [(levels[0] if len(levels) == 1 else "standard", scoring.ratings[side])]
    if not columns:
        return y
    words = list(dict.fromkeys(w for _level, bands in columns for _least, w in bands))
    rowh = 6.5
    total_w = col0 + colw * len(columns)
    with cv.group(f"solo-ratings-{side}"):
        cv.rect(left, y, total_w, rowh, stroke=None, fill="#e8eef8")
        draw_fitted(cv, left + 2.0, y + 4.6, _("Your final score"), col0 - 3.0, size_pt=8,
                    min_pt=HOME_MIN_TEXT_PT, bold=True)
        for k, (level, _bands) in enumerate(columns):
            draw_fitted(cv, left + col0 + k * colw + colw / 2, y + 4.6, _(level), colw - 2.0, size_pt=9,
                        min_pt=HOME_MIN_TEXT_PT, bold=True, anchor="middle")
        for r, word in enumerate(words):
            yy = y + (r + 1) * rowh
            cv.line(left, yy, left + total_w, yy, width=0.2, color="#999999")
            draw_fitted(cv, left + 2.0, yy + 4.6, _(word), col0 - 3.0, size_pt=9, min_pt=HOME_MIN_TEXT_PT)
            for k, (level, bands) in enumerate(columns):
                cv.text(left + col0 + k * colw + colw / 2, yy + 4.6, _band_span(bands, word), size_pt=10,
                        bold=True, anchor="middle", id=f"solo-rating-{side}-{level}-{r}")
        bottom = y + (len(words) + 1) * rowh
        cv.rect(left, y, total_w, bottom - y, width=0.4)
    return bottom


def _band_span(bands: tuple[tuple[int, str], ...], word: str) -> str:
    """The score range of the band named `word` (e.g. `36–39` or `40+`), or a dash."""
    for k, (low, words) in enumerate(bands):
        if words == word:
            return f"{low}+" if k == 0 else f"{low}–{bands[k - 1][0] - 1}"
    return "–"


def render_solo(scoring: Scoring, paper: str, fmt: str, out: str | Path, lang: str = "en") -> Path:
    """Write the solo table as PDF or SVG in language `lang`."""
    if paper not in PAPER:
        raise OptionError(f"unknown paper {paper!r}; use a4 or letter")
    w, h = PAPER[paper]
    with language(lang):
        if fmt == "pdf":
            cv = PdfCanvas(out, w, h, title=_("Hashi solo table"), preflight=home_sheet(w, h))
            draw_solo(cv, scoring)
            cv.save()
        else:
            svg = SvgCanvas(w, h, title=_("Hashi solo table"), preflight=home_sheet(w, h))
            draw_solo(svg, scoring)
            svg.save(out)
    return Path(out)
