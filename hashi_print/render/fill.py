"""Draw a game's marks onto a score sheet: neatly, or as a hand would (a seeded pen model).

The pen model draws wobbly strokes of varying width and pressure, circles that do not quite close,
crosses over played cards, and numerals from real handwriting by writers the photo reader's classifier
never saw in training (`handwriting.npz`): scikit-learn's digits, recorded as 8 x 8 ink counts, or
MNIST test digits by the writers kept out of its calibration too, at their full 28 x 28.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from hashi_print.files import write_atomic
from hashi_print.game.deck import Deck
from hashi_print.game.scoring import Scoring
from hashi_print.options import PenKind
from hashi_print.render.canvas import Canvas, make_canvas
from hashi_print.render.paper import BLUE
from hashi_print.render.sheet import draw_sheet
from hashi_print.sheets.layout import SheetLayout, sheet_layout
from hashi_print.sheets.marks import Marks

if TYPE_CHECKING:
    import numpy as np

Glyphs = dict[int, list["np.ndarray"]]  # digit -> ink-count grids of one writer set
Box = tuple[float, float, float, float]

PENS = {
    PenKind.BLUE.value: ("#1b3d8f", 0.45),
    PenKind.BLACK.value: ("#202020", 0.45),
    PenKind.FELT.value: ("#14206b", 0.8),
    PenKind.PENCIL.value: ("#707070", 0.35),
}


@dataclass(frozen=True)
class Pen:
    """How the marks are drawn: colour, stroke width (mm), and for a hand its randomness."""

    color: str = BLUE
    width: float = 0.6
    rng: random.Random | None = None
    glyphs: Glyphs | None = None

    @property
    def hand(self) -> bool:
        """True when drawing as a hand would."""
        return self.rng is not None


def hand_pen(rng: random.Random, kind: str | None = None, glyphs: Glyphs | None = None) -> Pen:
    """A random pen of `kind` (blue, black, felt, pencil; random when None) held by a hand."""
    name = kind or rng.choice(sorted(PENS))
    color, width = PENS[name]
    return Pen(color, width * rng.uniform(0.85, 1.25), rng, glyphs or shipped_glyphs())


WRITERS = ("optdigits", "mnist")  # the held-out writers whose digits the pen model can write


@cache
def shipped_glyphs(writers: str = "optdigits") -> Glyphs:
    """The held-out writers' digits shipped with the package: digit -> list of ink-count grids (0-16)."""
    import numpy as np

    with resources.files("hashi_print.render").joinpath("handwriting.npz").open("rb") as fh, np.load(fh) as d:
        if writers == "mnist":
            images, labels = [ink_counts(a) for a in d["mnist_images"]], d["mnist_labels"]
        else:
            images, labels = d["images"], d["labels"]
    return {k: [images[i] for i in range(len(labels)) if labels[i] == k] for k in range(10)}


def ink_counts(picture: np.ndarray) -> np.ndarray:
    """A digit's picture (0-255) cut to its ink and centred in a square, as ink counts 0-16."""
    import numpy as np

    ys, xs = np.nonzero(picture > 40)
    c = picture[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].astype(np.float32) / 255.0 * 16.0
    h, w = c.shape
    n = max(h, w) + 2
    out = np.zeros((n, n), np.float32)
    out[(n - h) // 2 : (n - h) // 2 + h, (n - w) // 2 : (n - w) // 2 + w] = c
    return out


def draw_marks(cv: Canvas, lay: SheetLayout, marks: Marks, pen: Pen) -> None:
    """Draw numerals, bridges, circles, crossed-off cards, goal turns, crossed-off first bonus boxes and the
    starting island onto a sheet."""
    side, bg = marks.side, lay.board
    for k, n in enumerate(marks.bridges):
        if n:
            x1, y1, x2, y2 = bg.lanes[k]
            horizontal = side.geometry.lanes[k].horizontal
            offsets = (0.0,) if n == 1 else (-bg.track, bg.track)
            for s in offsets:
                dx, dy = (0.0, s) if horizontal else (s, 0.0)
                _stroke(cv, pen, [(x1 + dx, y1 + dy), (x2 + dx, y2 + dy)], inset=0.6)
    for i, value in enumerate(marks.numerals):
        if value is not None:
            _numeral(cv, pen, bg.numeral_boxes[i], value)
    for i in sorted(marks.circled):
        cx, cy = bg.centres[i]
        _circle(cv, pen, cx, cy, bg.r * 1.28)
    for pos in sorted(marks.cards):
        _cross_out(cv, pen, lay.card_slots[pos - 1], 0.4)
    for goal, turn in marks.goals:
        _cross_out(cv, pen, lay.goal_turn_cells[goal][turn - 1], 0.4)
    for goal in sorted(marks.lost_first):
        _cross_out(cv, pen, lay.bonus_boxes[goal][0], 0.5)
    if marks.setup is not None:
        # The starting island's letter, written last so that a hand's random strokes above stay the same.
        x, y, w, h = lay.setup_box
        cv.text(x + w / 2, y + h - 0.6, side.islands[marks.setup].label, size_pt=10, anchor="middle",
                color=pen.color)


def _cross_out(cv: Canvas, pen: Pen, box: Box, inset: float) -> None:
    """Cross a box off corner to corner, `inset` mm in: an X (a hand sometimes draws only one stroke)."""
    x, y, w, h = box
    _stroke(cv, pen, [(x + inset, y + h - inset), (x + w - inset, y + inset)])
    if pen.rng is None or pen.rng.random() < 0.5:
        _stroke(cv, pen, [(x + inset, y + inset), (x + w - inset, y + h - inset)])


def _wobble(pen: Pen, points: list[tuple[float, float]], amplitude: float) -> list[tuple[float, float]]:
    """Resample a polyline finely and push it sideways by a smooth random wave."""
    rng = pen.rng
    if rng is None:
        return points
    out = []
    phases = [rng.uniform(0, 2 * math.pi) for _ in range(2)]
    freqs = [rng.uniform(0.1, 0.25), rng.uniform(0.4, 0.9)]
    for (ax, ay), (bx, by) in zip(points, points[1:], strict=False):
        length = math.hypot(bx - ax, by - ay)
        steps = max(2, int(length / 0.8))
        nx, ny = -(by - ay) / (length or 1), (bx - ax) / (length or 1)
        for s in range(steps):
            t = s / steps
            d = t * length
            off = amplitude * (
                0.7 * math.sin(freqs[0] * d + phases[0]) + 0.3 * math.sin(freqs[1] * d + phases[1])
            )
            out.append((ax + (bx - ax) * t + nx * off, ay + (by - ay) * t + ny * off))
    out.append(points[-1])
    return out


def _stroke(cv: Canvas, pen: Pen, points: list[tuple[float, float]], inset: float = 0.0) -> None:
    """One pen stroke through `points`; a hand starts and ends it a little off and varies its width."""
    rng = pen.rng
    if rng is not None and inset:
        (ax, ay), (bx, by) = points[0], points[-1]
        length = math.hypot(bx - ax, by - ay) or 1.0
        ux, uy = (bx - ax) / length, (by - ay) / length
        a, b = rng.uniform(0.0, 2.0 * inset), rng.uniform(0.0, 2.0 * inset)
        jitter = rng.uniform(-0.15, 0.15)
        points = [
            (ax + ux * a - uy * jitter, ay + uy * a + ux * jitter),
            (bx - ux * b + uy * jitter, by - uy * b - ux * jitter),
        ]
    pts = _wobble(pen, points, rng.uniform(0.05, 0.25) if rng is not None else 0.0)
    if rng is None:
        for (ax, ay), (bx, by) in zip(pts, pts[1:], strict=False):
            cv.line(ax, ay, bx, by, width=pen.width, color=pen.color, cap="round")
        return
    base = pen.width
    phase = rng.uniform(0, 6.3)
    for k, ((ax, ay), (bx, by)) in enumerate(zip(pts, pts[1:], strict=False)):
        w = base * (0.85 + 0.2 * math.sin(phase + k * 0.3))
        cv.line(ax, ay, bx, by, width=w, color=pen.color, cap="round")


def _circle(cv: Canvas, pen: Pen, cx: float, cy: float, r: float) -> None:
    """A circle around an island; by hand an oval that starts anywhere and overshoots or falls short."""
    rng = pen.rng
    if rng is None:
        cv.circle(cx, cy, r, stroke=pen.color, width=pen.width)
        return
    start = rng.uniform(0, 2 * math.pi)
    sweep = 2 * math.pi * rng.uniform(0.97, 1.12)
    rx, ry = r * rng.uniform(0.95, 1.08), r * rng.uniform(0.95, 1.08)
    tilt = rng.uniform(0, math.pi)
    ox, oy = rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4)
    pts = []
    steps = 48
    for s in range(steps + 1):
        a = start + sweep * s / steps
        drift = 1.0 + 0.04 * s / steps
        x, y = rx * drift * math.cos(a), ry * drift * math.sin(a)
        pts.append(
            (
                cx + ox + x * math.cos(tilt) - y * math.sin(tilt),
                cy + oy + x * math.sin(tilt) + y * math.cos(tilt),
            )
        )
    for (ax, ay), (bx, by) in zip(pts, pts[1:], strict=False):
        cv.line(ax, ay, bx, by, width=pen.width, color=pen.color, cap="round")


def _numeral(cv: Canvas, pen: Pen, box: Box, value: int) -> None:
    """A digit in a box: set in type, or a real handwritten digit traced as filled outlines."""
    x, y, w, h = box
    rng = pen.rng
    if rng is None:
        cv.text(
            x + w / 2,
            y + h * 0.85,
            str(value),
            size_pt=h / 0.3528 * 0.95,
            anchor="middle",
            bold=True,
            color=pen.color,
        )
        return
    grid = rng.choice((pen.glyphs if pen.glyphs is not None else shipped_glyphs())[value])
    size = h * rng.uniform(0.85, 1.1)
    cx, cy = x + w / 2 + rng.uniform(-0.1, 0.1) * w, y + h / 2 + rng.uniform(-0.08, 0.08) * h
    angle = math.radians(rng.uniform(-8, 8))
    level = {True: 0.3, False: 0.45}[pen.width > 0.6] + rng.uniform(-0.05, 0.05)
    for pts, hole in placed_glyph(grid, level, size, cx, cy, angle):
        cv.polygon(pts, stroke=None, fill="#ffffff" if hole else pen.color)


def placed_glyph(grid: np.ndarray, level: float, size: float, cx: float, cy: float,
                 angle: float) -> list[tuple[list[tuple[float, float]], bool]]:
    """A glyph's outlines with their holes, `size` mm tall, turned by `angle`, centred on (cx, cy)."""
    out = []
    for outline, hole in glyph_outlines(grid, level):
        pts = []
        for gx, gy in outline:
            u, v = (gx - 0.5) * size, (gy - 0.5) * size
            pts.append(
                (
                    cx + u * math.cos(angle) - v * math.sin(angle),
                    cy + u * math.sin(angle) + v * math.cos(angle),
                )
            )
        out.append((pts, hole))
    return out


def glyph_outlines(grid: np.ndarray, level: float) -> list[tuple[list[tuple[float, float]], bool]]:
    """Outlines (unit square coordinates) of an 8 x 8 ink-count digit traced at `level`, outer ones first."""
    import cv2
    import numpy as np

    big = cv2.resize(np.asarray(grid, np.float32) / 16.0, (40, 40), interpolation=cv2.INTER_CUBIC)
    mask = (big > level).astype(np.uint8)
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c, info in zip(contours, [] if hierarchy is None else hierarchy[0], strict=False):
        if len(c) >= 3:
            out.append(([((p[0][0] + 0.5) / 40, (p[0][1] + 0.5) / 40) for p in c], info[3] >= 0))
    out.sort(key=lambda item: item[1])
    return out


def render_filled(marks: Marks, deck: Deck, scoring: Scoring, paper: str, fmt: str, out: str | Path, pen: Pen,
                  custom: bool, ppm: float = 8.0) -> Path:
    """Write the sheet of `marks.side` with the marks drawn on it as PDF, SVG or PNG; return the path."""
    lay = sheet_layout(marks.side, paper, len(deck.cards), custom)
    cv = make_canvas(fmt, lay.width, lay.height, title=f"Hashi side {marks.side.name} score sheet, filled",
                     ppm=ppm)
    draw_sheet(cv, marks.side, deck, scoring, lay)
    draw_marks(cv, lay, marks, pen)
    return write_atomic(out, cv.finish(Path(out).name))
