"""Measure every field of a rectified sheet: each value it may hold, with how likely the ink makes it.

All positions come from the sheet layout the renderer drew (`sheets.layout.sheet_layout`), never
recomputed here. The ink map is 0 for paper and 1 for black; printed parts are avoided by position.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from hashi_print.game.board import BoardSide
from hashi_print.scan.digits import INK_LEVEL, features, probabilities, strokes
from hashi_print.sheets.layout import SheetLayout

INK = 0.28  # ink level that counts as a stroke
DIGIT_SPAN = 2.5  # mm: ink this tall or wide in a numeral box is even odds to be a digit however thin
# A numeral box too faint for the ink test is looked at again with FAINT as its ink level: a digit when
# strokes of real size cover FAINT_AREA mm^2 there (even odds). Chosen on seed 3's photos (not reported):
# of 280 empty boxes none kept any ink at levels 0.12-0.20 (their largest blot at 0.16, at the crop's
# edge, 0.69 mm^2); 22 of the 30 strokes digits the ink test missed (of 1,160) cover 1.0 mm^2 or more.
FAINT = 0.16
FAINT_AREA = 1.0
FAINT_CAP = 0.9  # a faint digit is never read surely on its own: an empty box read so stays a doubt
BARE_CORNER = 0.1  # of a card's corner inked at most where nothing was written there
OUTLINE_MARGIN = 0.15  # ink this far above a printed outline's level is a stroke crossing it
Probs = dict[int | None, float]  # value (a count, a numeral, True/False or None) -> probability
Box = tuple[float, float, float, float]  # x, y, width, height in mm


@dataclass(frozen=True)
class Measured:
    """The likely values of every field: lanes 0/1/2, circled, numerals (None or 1-6), cards, goal turns,
    and whether each goal's "first" bonus box is crossed off."""

    lanes: tuple[Probs, ...]
    circles: tuple[Probs, ...]
    numerals: tuple[Probs, ...]
    cards: tuple[Probs, ...]
    goals: dict[str, Probs]
    lost_first: dict[str, Probs]


def _likely(measured: float, middle: float, steepness: float) -> float:
    """How likely a mark is there, from a measure that is even odds at `middle` and rises with `steepness`."""
    return 1.0 / (1.0 + math.exp(-(measured - middle) * steepness))


def sample(ink: np.ndarray, xs: np.ndarray, ys: np.ndarray, ppm: float) -> np.ndarray:
    """Ink at page positions (mm), bilinear; arrays of any equal shape."""
    mx = (xs * ppm - 0.5).astype(np.float32)
    my = (ys * ppm - 0.5).astype(np.float32)
    shape = mx.shape
    out = cv2.remap(ink, mx.reshape(1, -1), my.reshape(1, -1), cv2.INTER_LINEAR, borderValue=0.0)
    return out.reshape(shape)


def measure(ink: np.ndarray, side: BoardSide, lay: SheetLayout, ppm: float) -> Measured:
    """Measure all fields of one sheet."""
    found = rings(ink, side, lay, ppm)
    return Measured(
        lanes=tuple(_lanes(ink, side, lay, ppm)),
        circles=tuple(_circles(ink, side, lay, ppm, found)),
        numerals=_numerals(ink, lay, ppm, found),
        cards=tuple(_cards(ink, lay, ppm)),
        goals=_goals(ink, lay, ppm),
        lost_first={goal: _crossed(ink, boxes[0], ppm, 2.5) for goal, boxes in lay.bonus_boxes.items()},
    )


def _runs(profile: np.ndarray) -> int:
    """Number of separate strokes across one profile (runs of ink at least two samples wide)."""
    on = profile > INK
    count, length = 0, 0
    for v in on:
        if v:
            length += 1
        else:
            count += length >= 2
            length = 0
    return count + (length >= 2)


def _lanes(ink: np.ndarray, side: BoardSide, lay: SheetLayout, ppm: float) -> Iterator[Probs]:
    """Bridges per lane: count strokes across the lane between its printed dots, away from crossings."""
    bg = lay.board
    geo = side.geometry
    dot = max(0.3, min(0.55, bg.r * 0.09))
    period = dot * 2.8
    half = bg.track + 1.4
    offsets = np.arange(-half, half + 1e-6, 1.0 / ppm)
    for k, (x1, y1, x2, y2) in enumerate(bg.lanes):
        horizontal = geo.lanes[k].horizontal
        length = math.hypot(x2 - x1, y2 - y1)
        along = np.arange(0.5, (length / period) - 0.5) * period
        along = along[(along > 1.2) & (along < length - 1.2)]
        for c in (_crossing_at(bg.lanes[j], x1, y1, horizontal) for j in geo.crossings[k]):
            along = along[np.abs(along - c) > half + 0.8]
        if len(along) == 0:
            yield {0: 1 / 3, 1: 1 / 3, 2: 1 / 3}
            continue
        a, o = np.meshgrid(along, offsets, indexing="ij")
        xs, ys = (x1 + a, y1 + o) if horizontal else (x1 + o, y1 + a)
        prof = sample(ink, xs, ys, ppm)
        counts = np.array([min(2, _runs(row)) for row in prof])
        # Each column votes; neighbouring columns share pen and blur, so three count as one witness
        # that is right nine times in ten.
        votes = np.array([(counts == v).sum() for v in range(3)], float) / 3.0
        logits = votes * math.log(0.9 / 0.05)
        e = np.exp(logits - logits.max())
        yield dict(zip((0, 1, 2), (e / e.sum()).tolist(), strict=True))


def _crossing_at(seg: tuple[float, float, float, float], x1: float, y1: float, horizontal: bool) -> float:
    """Distance along a lane (from its start) at which a crossing lane passes."""
    return (seg[0] - x1) if horizontal else (seg[1] - y1)


def _ray_angles(flag: bool) -> np.ndarray:
    """The directions (radians, every 5 degrees) around an island where only its ring is printed: not
    along a lane, not through its label (upper left) or, with `flag`, its flag (upper right)."""
    deg = np.arange(0, 360, 5.0)
    keep = np.ones(len(deg), bool)
    for axis in (0, 90, 180, 270, 360):
        keep &= np.abs(deg - axis) > 13
    keep &= ~((deg > 190) & (deg < 245))  # the island's label, upper left
    if flag:
        keep &= ~((deg > 280) & (deg < 345))  # the flag, upper right
    return np.asarray(np.radians(deg[keep]))


@dataclass(frozen=True)
class Ring:
    """What the band of an island's printed ring shows, and the space between it and the numeral box: the
    ring's darkest ink and its ink summed across (mm), the ink summed along rays inside it, and on each of
    those rays (`angles`) where a stroke begins (mm from the centre; the ring's radius where none does)."""

    peak: float
    mass: float
    inner: float
    angles: np.ndarray
    reach: np.ndarray


def rings(ink: np.ndarray, side: BoardSide, lay: SheetLayout, ppm: float) -> tuple[Ring, ...]:
    """The ring band and the space inside it of every island."""
    return tuple(_ring(ink, side, lay, ppm, i) for i in range(len(side.islands)))


def _ring(ink: np.ndarray, side: BoardSide, lay: SheetLayout, ppm: float, i: int) -> Ring:
    """One island's ring band (its median over the rays) and the strokes between it and the numeral box."""
    bg = lay.board
    cx, cy = bg.centres[i]
    # The same directions on every island, flagged or not: a motion blur smears the ring along one
    # direction, and rings compared over different directions would differ by that alone.
    angles = _ray_angles(True)
    step = 0.5 / ppm
    across = np.arange(bg.r - 0.5, bg.r + 0.8, step)
    a, r = np.meshgrid(angles, across, indexing="ij")
    band = sample(ink, cx + r * np.cos(a), cy + r * np.sin(a), ppm)
    peak, mass = float(np.median(band.max(axis=1))), float(np.median(band.sum(axis=1) * step))
    # Between the numeral box (its outline and a margin) and the ring's outside: no lane, label or flag
    # is printed inside the ring, and every direction within 30 degrees of an axis leaves a millimetre
    # between the box and the ring (near the box's corners there is no room).
    deg = np.arange(0, 360, 5.0)
    inside = np.radians(deg[(deg % 90 <= 30) | (deg % 90 >= 60)])
    half = bg.numeral_boxes[i][2] / 2
    start = half / np.maximum(np.abs(np.cos(inside)), np.abs(np.sin(inside))) + 0.35
    a, r = np.meshgrid(inside, np.arange(half, bg.r - 0.3, step), indexing="ij")
    rays = sample(ink, cx + r * np.cos(a), cy + r * np.sin(a), ppm)
    rays[r < start[:, None]] = 0.0
    inner = float(np.median(rays.sum(axis=1) * step))
    # Where a pen stroke begins on each ray, seen from the box (the ring's radius where none does).
    on = rays > INK
    reach = np.where(on.any(axis=1), np.where(on, r, np.inf).min(axis=1), bg.r)
    return Ring(peak, mass, inner, inside, reach)


def _circles(
    ink: np.ndarray, side: BoardSide, lay: SheetLayout, ppm: float, found: tuple[Ring, ...]
) -> Iterator[Probs]:
    """Circled islands: a stroke rising outside the printed ring in enough directions, a ring band unlike
    the print of this sheet's other rings (a circle traced over it), or a circle drawn inside it.

    Along each ray the ink must climb again after the printed circle's edge has faded, so a blurred
    print never passes for a pen circle.
    """
    bg = lay.board
    radii = np.arange(bg.r + 0.3, bg.r * 1.65, 1.0 / ppm)
    outside = []
    for i, (cx, cy) in enumerate(bg.centres):
        a, r = np.meshgrid(_ray_angles(side.islands[i].flag is not None), radii, indexing="ij")
        rays = sample(ink, cx + r * np.cos(a), cy + r * np.sin(a), ppm)
        rise = rays - np.minimum.accumulate(rays, axis=1)
        stroke = ((rise > 0.18) & (rays > INK)).any(axis=1)
        covered = float(np.mean(stroke))
        # Photographed sheets (the bench's seed 2) show strokes on at most a tenth of the rays around an
        # uncircled island and, but for one in thousands, on at least three tenths around a circled one:
        # either side of that gap the measure is read at 19 to 1; inside it the rules or a person decide.
        outside.append(_likely(covered, 0.2, 30.0))
    # The print's look is taken from rings with no circle around them: a blurred circle around a ring
    # (motion blur smears it by a millimetre) darkens its band.
    traced, inside = _traced(found, [p < 0.5 for p in outside]), _inside(found)
    for i in range(len(bg.centres)):
        # Any one of the three ways of circling is a circle; the likeliest one speaks (so that an island
        # with none stays as surely uncircled as the outside measure alone says).
        p = max(outside[i], traced[i], inside[i])
        yield {True: p, False: 1.0 - p}


def _traced(found: tuple[Ring, ...], bare: list[bool]) -> list[float]:
    """How likely each ring band holds a circle traced over the print: how far it is from the printed
    rings of the same sheet (log units; 0 is print).

    Print is the same on every ring of a sheet and the darkest thing on it; a pen traced over a ring
    either covers it with a lighter ink or widens it. The print's look is taken from the `bare` rings (no
    circle around them; all of them when none is) that show the darkest ink (when every ring is traced,
    the rest is left to the rules and a person).
    """
    peaks = np.log(np.maximum([f.peak for f in found], 1e-3))
    masses = np.log(np.maximum([f.mass for f in found], 1e-3))
    if not len(peaks):
        return []
    pool = np.array(bare) if any(bare) else np.ones(len(peaks), bool)
    darkest = pool & (peaks >= peaks[pool].max() - 0.03)
    peak, mass = float(np.median(peaks[darkest])), float(np.median(masses[darkest]))
    # Lighter ink counts in full; added width at half, as a circle drawn around the ring may brush the band.
    away = [peak - p + 0.5 * max(0.0, m - mass) for p, m in zip(peaks, masses, strict=True)]
    # On the bench's seed 1 the print's rings were at most 0.085 from the darkest (1 MP photos) and the
    # traced ones at least 0.10 (pencil, 0.23 and more): 1 to 1,000 at 0 (plain print), 19 to 1 at 0.12.
    return [_likely(d, 0.085, 80.0) for d in away]


def _inside(found: tuple[Ring, ...]) -> list[float]:
    """How likely each island has a circle drawn between its ring and its numeral box.

    Nothing is printed there but the blurred inner edge of the ring, the same on every island of a sheet
    (0.07-0.17 mm of ink summed along a ray on the bench's seed 1): the ink is measured above the
    emptiest island's, or above what blur alone leaves when every island holds more.
    """
    inner = [f.inner for f in found]
    if not inner:
        return []
    empty = min(min(inner), 0.18)
    # Seed 1: print at most 0.083 above the emptiest, circles drawn inside at least 0.26 (19 to 1 at
    # 0.1 and 0.24).
    return [_likely(v - empty, 0.17, 42.0) for v in inner]


def _crop(ink: np.ndarray, box: Box, ppm: float, pad: float) -> np.ndarray:
    """The ink inside a box (mm) grown by `pad` mm on every side."""
    x, y, w, h = box
    x0, y0 = max(0, int((x - pad) * ppm)), max(0, int((y - pad) * ppm))
    x1, y1 = int(math.ceil((x + w + pad) * ppm)), int(math.ceil((y + h + pad) * ppm))
    return ink[y0:y1, x0:x1].copy()


def _clear_outline(crop: np.ndarray, pad: float, ppm: float, width_mm: float = 0.45) -> np.ndarray:
    """Fade the printed outline of a box inside a crop made with `pad` mm around it.

    On the outline only dark ink survives (a pen stroke crossing it); the grey print does not.
    """
    h, w = crop.shape
    p, d = int(round(pad * ppm)), max(1, int(round(width_mm * ppm)))
    # The print's own level along each row and column of the outline (its median: a stroke crosses
    # only a little of it); ink clearly above that is a stroke, even a light pencil one.
    level = np.full(crop.shape, -1.0, np.float32)
    for a in (p, h - 1 - p):
        rows = slice(max(0, a - d), a + d + 1)
        level[rows, :] = np.maximum(level[rows, :], np.median(crop[rows, :], axis=1)[:, None])
    for a in (p, w - 1 - p):
        cols = slice(max(0, a - d), a + d + 1)
        level[:, cols] = np.maximum(level[:, cols], np.median(crop[:, cols], axis=0)[None, :])
    band = level >= 0.0
    crop[band & (crop < np.minimum(level + OUTLINE_MARGIN, 0.6))] = 0.0
    return crop


def _digit_ink(crop: np.ndarray, ppm: float) -> tuple[float, np.ndarray] | None:
    """How likely a cleaned crop holds a written digit, and the network's input for it; None if empty."""
    found = _ink_test(crop, ppm)
    if found is not None and found[0] >= 0.5:
        return found
    # A light pencil or a thin pen leaves only a fragment above the ink level: the box is looked at again
    # with its ink scaled so that FAINT counts as the ink level, and read as written when strokes of real
    # size cover FAINT_AREA there, never surely (FAINT_CAP: an empty box read so stays a doubt).
    boosted = np.minimum(crop * (INK_LEVEL / FAINT), 1.0).astype(np.float32)
    kept = strokes(boosted)
    f = None if kept is None else features(boosted)
    if kept is None or f is None:
        return found
    p = FAINT_CAP * _likely(float((kept > INK).sum()) / (ppm * ppm), FAINT_AREA, 4.0)
    return (p, f) if found is None or p > found[0] else found


def _ink_test(crop: np.ndarray, ppm: float) -> tuple[float, np.ndarray] | None:
    """How likely a crop holds a digit at the ink level, and the network's input for it; None if empty."""
    kept = strokes(crop)  # specks and ink reaching in from the next cell left out
    if kept is None:
        return None
    on = kept > INK
    strong = float(on.sum()) / (ppm * ppm)  # mm^2 of ink
    ys, xs = np.nonzero(on)
    # A thin digit (a pencil 1, a fine pen) inks little but spans half the box or more (digits are written
    # about 5 mm tall); a speck does neither.
    extent = (max(int(np.ptp(ys)), int(np.ptp(xs))) + 1) / ppm if len(ys) else 0.0
    f = features(crop)
    return None if f is None else (max(_likely(strong, 1.6, 4.0), _likely(extent, DIGIT_SPAN, 4.0)), f)


def _digit_probs(p_ink: float, p: np.ndarray, allowed: tuple[int, ...]) -> Probs:
    """Empty or a digit among `allowed`, from the chance of ink and the network's 0-9 probabilities."""
    sub = np.array([p[d] for d in allowed])
    plausible = float(sub.sum())
    sub = sub / max(plausible, 1e-9)
    # Ink that looks like no allowed digit keeps some weight on every allowed one (doubt, not a pick).
    sub = plausible * sub + (1.0 - plausible) / len(allowed)
    out: Probs = {None: 1.0 - p_ink}
    out.update({d: p_ink * float(q) for d, q in zip(allowed, sub, strict=True)})
    return out


def numeral_crops(
    ink: np.ndarray, lay: SheetLayout, ppm: float, found: tuple[Ring, ...] = ()
) -> Iterator[np.ndarray]:
    """The cleaned ink of each island's numeral box (without a circle drawn inside the ring, where the
    rings `found` show one)."""
    pad = 0.9
    bg = lay.board
    inside = _inside(found) if found else [0.0] * len(bg.centres)
    for i, (box, (cx, cy)) in enumerate(zip(bg.numeral_boxes, bg.centres, strict=True)):
        crop = _clear_outline(_crop(ink, box, ppm, pad), pad, ppm)
        # Keep only the inside of the island's printed circle, and of a pen circle drawn inside it.
        x0, y0 = max(0, int((box[0] - pad) * ppm)), max(0, int((box[1] - pad) * ppm))
        yy, xx = np.mgrid[0 : crop.shape[0], 0 : crop.shape[1]]
        dx, dy = (xx + x0 + 0.5) / ppm - cx, (yy + y0 + 0.5) / ppm - cy
        limit: float | np.ndarray = bg.r - 0.45
        if inside[i] > 0.5:
            ring = found[i]
            # The pen circle begins at `reach` on each ray; between the rays (and across the lanes and
            # the label, where there are none) its start is interpolated around the circle.
            order = np.argsort(ring.angles)
            at = np.interp(np.arctan2(dy, dx) % (2 * math.pi), ring.angles[order], ring.reach[order],
                           period=2 * math.pi)
            limit = np.minimum(limit, at - 0.15)
        crop[np.hypot(dx, dy) > limit] = 0.0
        yield crop


def _numerals(ink: np.ndarray, lay: SheetLayout, ppm: float, found: tuple[Ring, ...]) -> tuple[Probs, ...]:
    """The numeral in each island's box: empty or 1-6 (the network reads all boxes in one batch)."""
    inks = [_digit_ink(crop, ppm) for crop in numeral_crops(ink, lay, ppm, found)]
    written = [found for found in inks if found is not None]
    probs = iter(probabilities(np.array([f for _, f in written])) if written else ())
    return tuple(
        {None: 1.0} if found is None else _digit_probs(found[0], next(probs), (1, 2, 3, 4, 5, 6))
        for found in inks
    )


def _cards(ink: np.ndarray, lay: SheetLayout, ppm: float) -> Iterator[Probs]:
    """Crossed-off cards: strokes through both side strips of a card, where nothing is printed, or one
    slash across the card's corners beside its printed numeral and bars."""
    for x, y, w, h in lay.card_slots:
        strips = []
        for sx in (x + 0.6, x + w - 0.6 - 1.3):
            crop = _crop(ink, (sx, y + 0.8, 1.3, h - 1.6), ppm, 0.0)
            strips.append(float((crop > INK).sum()) / (ppm * ppm))
        weakest = min(strips)
        corner = _slashed(ink, _card_corners((x, y, w, h)), ppm)
        # A stroke across a strip inks 0.9 mm² or more even in pencil; print and noise leave under 0.2,
        # but a blurred card's printed edge up to 0.45. Every way of crossing a card off (an X, a slash,
        # a tick, a filled card) also runs through a corner (a quarter of one at least), so strip ink
        # beside bare corners is taken for a stroke only when there is plainly more of it.
        p = _likely(weakest, 0.45 if corner >= BARE_CORNER else 0.7, 18.0)
        slash = _likely(corner, 0.3, 20.0)
        yield {True: 1.0 - (1.0 - p) * (1.0 - slash), False: (1.0 - p) * (1.0 - slash)}


def _slashed(ink: np.ndarray, corners: Sequence[Box], ppm: float) -> float:
    """How well a stroke runs through one of a box's corners where nothing is printed: the share of the
    corner's columns it inks, and (twice) of its rows, whichever is less, at the best corner.

    A slash crosses a corner on its way from one to the other (a short one reaches at least one of
    them); the print's edges bleed into one column or one row of a corner, not into both.
    """
    best = 0.0
    for corner in corners:
        on = _crop(ink, corner, ppm, 0.0) > INK
        # A box's printed edge that the photo blurred, or a fold moved, into a corner inks a row or a
        # column of it end to end, which a slash never does: such rows and columns at its sides are left out.
        on = on[_inside_rows(on, ppm)]
        on = on[:, _inside_rows(on.T, ppm)]
        if on.size:
            best = max(best, min(float(on.any(axis=0).mean()), 2.0 * float(on.any(axis=1).mean())))
    return best


def _card_corners(box: Box) -> tuple[Box, ...]:
    """The four corners of a card beside its numeral (15 pt, bold: 3.6 mm wide) and its bars (55 % of
    the card's width), 0.6 mm inside its edge."""
    x, y, w, h = box
    side, low = w / 2 - 2.1 - 0.6, w * 0.225 - 0.6 - 0.6
    return ((x + 0.6, y + 0.8, side, 6.0), (x + w - 0.6 - side, y + 0.8, side, 6.0),
            (x + 0.6, y + 7.2, low, h - 8.0), (x + w - 0.6 - low, y + 7.2, low, h - 8.0))


def _bonus_corners(box: Box) -> tuple[Box, ...]:
    """The four corners of a bonus box beside its value (12 pt, bold, up to two digits: 4.8 mm wide)
    and the word under it, 0.6 mm inside its edge."""
    x, y, w, h = box
    side, half = w / 2 - 2.9 - 0.6, (h - 1.6) / 2
    columns, rows = (x + 0.6, x + w - 0.6 - side), (y + 0.8, y + 0.8 + half)
    return tuple((cx, cy, side, half) for cx in columns for cy in rows)


def _crossed(ink: np.ndarray, box: Box, ppm: float, strip: float) -> Probs:
    """A bonus box crossed off: a stroke runs right through both side strips (`strip` mm wide) of it.

    The strips hold no print; a stroke across a strip inks every column of it, a speck only a few.
    """
    x, y, w, h = box
    inner = (y + 0.8, h - 1.6)
    # A blurred photo spreads the box's printed top and bottom edge into the strips, and one such row
    # inks every column of them, as a stroke would. The edge runs on through the middle of the box,
    # where a cross's strokes are far from the top and bottom: rows inked there are the edge's.
    middle = _crop(ink, (x + w / 2 - 1.5, inner[0], 3.0, inner[1]), ppm, 0.0) > INK
    keep = _inside_rows(middle, ppm)
    cover = []
    for sx in (x + 0.6, x + w - 0.6 - strip):
        on = (_crop(ink, (sx, inner[0], strip, inner[1]), ppm, 0.0) > INK)[keep]
        cover.append(float(np.mean(on.any(axis=0))) if on.size else 0.0)
    p = _likely(min(cover), 0.5, 14.0)
    # A motion blur smears the value and the edge a millimetre into the corners (up to 0.29 on seed 1's
    # photos); a slash across them reached 0.58 or more.
    slash = _likely(_slashed(ink, _bonus_corners(box), ppm), 0.42, 25.0)
    return {True: 1.0 - (1.0 - p) * (1.0 - slash), False: (1.0 - p) * (1.0 - slash)}


def _inside_rows(on: np.ndarray, ppm: float, reach: float = 1.0) -> slice:
    """The rows left after dropping those within `reach` mm of the top and bottom that ink at least
    half of `on`'s columns."""
    edge = max(1, int(round(reach * ppm)))
    top, bottom = 0, on.shape[0]
    while top < min(edge, bottom) and on[top].mean() >= 0.5:
        top += 1
    while bottom > max(top, on.shape[0] - edge) and on[bottom - 1].mean() >= 0.5:
        bottom -= 1
    return slice(top, bottom)


def _goals(ink: np.ndarray, lay: SheetLayout, ppm: float) -> dict[str, Probs]:
    """The turn each goal was reached: None, or the turn whose box in the goal's row is crossed."""
    out: dict[str, Probs] = {}
    for goal, cells in lay.goal_turn_cells.items():
        crossed = [_cell_crossed(ink, cell, ppm) for cell in cells]
        # One crossed box is a turn; none is no turn; two or more leave the weight split between them.
        blank = [1.0 - p for p in crossed]
        total_blank = math.prod(blank)
        turns: Probs = {None: total_blank}
        for t, p in enumerate(crossed, start=1):
            turns[t] = p * total_blank / max(blank[t - 1], 1e-12)
        total = sum(turns.values()) or 1.0
        out[goal] = {k: v / total for k, v in turns.items()}
    return out


def _cell_crossed(ink: np.ndarray, box: Box, ppm: float) -> float:
    """How likely a small empty box is crossed: a stroke inks a good share of its columns and rows."""
    x, y, w, h = box
    crop = _crop(ink, (x + 0.5, y + 0.5, w - 1.0, h - 1.0), ppm, 0.0)
    if not crop.size:
        return 0.0
    on = crop > INK
    cover = min(float(np.mean(on.any(axis=0))), float(np.mean(on.any(axis=1))))
    return _likely(cover, 0.45, 14.0)
