"""Fit the layout's boxes to where their printed outlines lie in the straightened photo.

The markers place the sheet as a flat page; a fold or a curl moves the middle of the paper by a
millimetre or two, enough to put a card's printed edge into the strip the reader expects empty. Each
printed box of the card strip, the goals' turn rows and the bonus boxes is looked for near its place
(its outline matched against the ink), and the shift found is smoothed along its row, so one box
full of pen strokes cannot pull itself off its print.
"""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np

from hashi_print.game.board import BoardSide
from hashi_print.sheets.layout import BoardGeometry, Box, SheetLayout

REACH = 2.5  # mm a box is looked for around its place
OUTLINE = 0.35  # mm: the printed outline's width
ISLAND_REACH = 3.0  # mm an island's ring is looked for around its place (a 6 mm fold moves it up to 2.4)


def _shift(ink: np.ndarray, box: Box, ppm: float) -> tuple[float, float, float]:
    """Where the outline of `box` matches the ink best, as (dx, dy) in mm, and how well (0-1)."""
    x, y, w, h = box
    pad = REACH + OUTLINE
    x0, y0 = int((x - pad) * ppm), int((y - pad) * ppm)
    x1, y1 = int(math.ceil((x + w + pad) * ppm)), int(math.ceil((y + h + pad) * ppm))
    if x0 < 0 or y0 < 0 or x1 > ink.shape[1] or y1 > ink.shape[0]:
        return 0.0, 0.0, 0.0
    crop = ink[y0:y1, x0:x1].astype(np.float32)
    tw, th = int(round((w + 2 * OUTLINE) * ppm)), int(round((h + 2 * OUTLINE) * ppm))
    template = np.zeros((th, tw), np.float32)
    edge, o = max(1, int(round(OUTLINE * ppm))), int(round(OUTLINE * ppm))
    cv2.rectangle(template, (o, o), (tw - 1 - o, th - 1 - o), 1.0, edge)  # on the box's edge, as printed
    if crop.shape[0] < th or crop.shape[1] < tw:
        return 0.0, 0.0, 0.0
    score = cv2.matchTemplate(crop, template, cv2.TM_CCORR_NORMED)
    _, best, _, (bx, by) = cv2.minMaxLoc(score)
    # The template's top-left sits at (x - OUTLINE) when the box is where the layout says.
    return (x0 + bx) / ppm - (x - OUTLINE), (y0 + by) / ppm - (y - OUTLINE), float(best)


def _row_shifts(ink: np.ndarray, boxes: tuple[Box, ...], ppm: float) -> list[tuple[float, float]]:
    """Each box's shift, smoothed over its neighbours in the row (`smoothed`)."""
    return smoothed([_shift(ink, b, ppm)[:2] for b in boxes])


def smoothed(raw: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Each shift replaced by the median of three neighbouring boxes' shifts: its own and the next on
    either side, or at a row's end the two next inward.

    A box full of pen strokes matches its outline off its print; a median of three keeps it from
    moving a neighbour, where a median of the two boxes at a row's end (their mean) moved the last
    box by half its error, onto its own printed edge (a goal row's last box read as crossed).
    """
    out = []
    for k in range(len(raw)):
        start = max(0, min(k - 1, len(raw) - 3))
        near = raw[start : start + 3]
        out.append((float(np.median([d[0] for d in near])), float(np.median([d[1] for d in near]))))
    return out


def _moved(boxes: tuple[Box, ...], shifts: list[tuple[float, float]]) -> tuple[Box, ...]:
    """The boxes moved by their shifts."""
    return tuple((x + dx, y + dy, w, h) for (x, y, w, h), (dx, dy) in zip(boxes, shifts, strict=True))


def _ring_shift(ink: np.ndarray, centre: tuple[float, float], r: float, ppm: float) -> tuple[float, float]:
    """Where an island's printed ring matches the ink best around its place, as (dx, dy) in mm."""
    cx, cy = centre
    reach = ISLAND_REACH + r + 1.0
    x0, y0 = int((cx - reach) * ppm), int((cy - reach) * ppm)
    x1, y1 = int(math.ceil((cx + reach) * ppm)), int(math.ceil((cy + reach) * ppm))
    if x0 < 0 or y0 < 0 or x1 > ink.shape[1] or y1 > ink.shape[0]:
        return 0.0, 0.0
    crop = ink[y0:y1, x0:x1].astype(np.float32)
    size = int(math.ceil(2 * (r + 1.0) * ppm)) | 1
    template = np.zeros((size, size), np.float32)
    mid = size // 2
    cv2.circle(template, (mid, mid), int(round(r * ppm)), 1.0, max(1, int(round(max(0.3, 0.07 * r) * ppm))))
    score = cv2.matchTemplate(crop, template, cv2.TM_CCORR_NORMED)
    _, _, _, (bx, by) = cv2.minMaxLoc(score)
    return (x0 + bx + mid + 0.5) / ppm - cx, (y0 + by + mid + 0.5) / ppm - cy


def _board_aligned(ink: np.ndarray, board: BoardGeometry, side: BoardSide, ppm: float) -> BoardGeometry:
    """The islands, their numeral boxes and the lanes between them moved to where the photo shows the
    rings; each island's shift is the median of its own and its neighbours' (within 1.5 pitches), so a
    pen circle cannot pull an island off its print."""
    raw = [_ring_shift(ink, c, board.r, ppm) for c in board.centres]
    shifts = []
    for cx, cy in board.centres:
        near = [d for (x, y), d in zip(board.centres, raw, strict=True)
                if math.hypot(x - cx, y - cy) <= 1.5 * board.pitch]
        shifts.append((float(np.median([d[0] for d in near])), float(np.median([d[1] for d in near]))))
    centres = tuple((x + dx, y + dy) for (x, y), (dx, dy) in zip(board.centres, shifts, strict=True))
    boxes = _moved(board.numeral_boxes, shifts)
    lanes = []
    for (x1, y1, x2, y2), lane in zip(board.lanes, side.geometry.lanes, strict=True):
        (ax, ay), (bx, by) = shifts[lane.a], shifts[lane.b]
        # A lane keeps its direction: it moves along its length with each end, across it by their mean.
        if lane.horizontal:
            lanes.append((x1 + ax, y1 + (ay + by) / 2, x2 + bx, y2 + (ay + by) / 2))
        else:
            lanes.append((x1 + (ax + bx) / 2, y1 + ay, x2 + (ax + bx) / 2, y2 + by))
    return dataclasses.replace(board, centres=centres, numeral_boxes=boxes, lanes=tuple(lanes))


def aligned(ink: np.ndarray, lay: SheetLayout, ppm: float, side: BoardSide | None = None) -> SheetLayout:
    """The layout with the card strip, the goals' turn rows and the bonus boxes (and, given the side, the
    islands and lanes) where the photo shows them."""
    board = lay.board if side is None else _board_aligned(ink, lay.board, side, ppm)
    cards = _moved(lay.card_slots, _row_shifts(ink, lay.card_slots, ppm))
    cells = {g: _moved(row, _row_shifts(ink, row, ppm)) for g, row in lay.goal_turn_cells.items()}
    pairs = list(lay.bonus_boxes.items())
    flat = tuple(b for _, pair in pairs for b in pair)
    moved = _moved(flat, _row_shifts(ink, flat, ppm))
    bonus = {g: (moved[2 * k], moved[2 * k + 1]) for k, (g, _) in enumerate(pairs)}
    return dataclasses.replace(lay, board=board, card_slots=cards, goal_turn_cells=cells, bonus_boxes=bonus)
