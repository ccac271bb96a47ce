"""The score sheet's layout contract: where islands, lanes, boxes and markers sit on each paper, in mm.

`sheet_layout` is pure. The renderer draws this layout and the photo reader reads it back, so both
take every coordinate from here and neither repeats a number.
"""

from __future__ import annotations

from dataclasses import dataclass

from hashi_print.errors import LayoutError, OptionError
from hashi_print.game.board import BoardSide
from hashi_print.game.deck import GOALS
from hashi_print.sheets.markers import sheet_marker_ids
from hashi_print.sheets.paper import PAPER

Box = tuple[float, float, float, float]
Point = tuple[float, float]
MARGIN = 8.0
MARKER = 12.0
RULER_MM = 50.0
MIN_ISLAND_R = 4.5
# An island's radius as a share of the pitch between cell centres. Letter paper is shorter than A4, so
# its islands get a larger share: side B's islands are 10 mm across there (9.1 mm at 0.3) and their
# numeral box 6 mm.
ISLAND_SHARE = {"a4": 0.3, "letter": 0.33}
MAX_ISLAND_R = 7.0
TURNS = 17
TURN_ROW_H = 8.0  # the turn tracker's boxes, crossed off one a turn
GOAL_ROW_H = 4.6  # each goal's row of boxes under them
TRACKER_H = 2.0 + TURN_ROW_H + 0.6 + 3 * GOAL_ROW_H


@dataclass(frozen=True)
class BoardGeometry:
    """Where a side's islands and lanes are drawn: centres, radius, and lane segments between circle edges."""

    pitch: float
    r: float
    centres: tuple[Point, ...]
    lanes: tuple[tuple[float, float, float, float], ...]
    track: float
    numeral_boxes: tuple[Box, ...]

    @property
    def box(self) -> Box:
        """The bounding box (x, y, w, h) of the island circles."""
        xs = [c[0] for c in self.centres]
        ys = [c[1] for c in self.centres]
        return (min(xs) - self.r, min(ys) - self.r, max(xs) - min(xs) + 2 * self.r,
                max(ys) - min(ys) + 2 * self.r)


def board_geometry(side: BoardSide, x0: float, y0: float, pitch: float, share: float = 0.3) -> BoardGeometry:
    """Place a side's grid with cell (0, 0)'s centre at (x0, y0), `pitch` mm between cell centres and islands
    of radius `share` x pitch (at most 7 mm)."""
    r = min(share * pitch, MAX_ISLAND_R)
    centres = tuple((x0 + c * pitch, y0 + row * pitch) for row, c in side.geometry.positions)
    gap = r + 0.8
    segs = []
    for lane in side.geometry.lanes:
        (ax, ay), (bx, by) = centres[lane.a], centres[lane.b]
        if lane.horizontal:
            segs.append((ax + gap, ay, bx - gap, by))
        else:
            segs.append((ax, ay + gap, bx, by - gap))
    box = min(1.2 * r, 8.0)
    boxes = tuple((cx - box / 2, cy - box / 2, box, box) for cx, cy in centres)
    return BoardGeometry(pitch, r, centres, tuple(segs), min(1.3, 0.22 * r), boxes)


@dataclass(frozen=True)
class SheetLayout:
    """Every part of a score sheet, placed in mm on the page (top-left origin)."""

    width: float
    height: float
    board: BoardGeometry
    title: Point
    player: Box
    card_slots: tuple[Box, ...]
    card_label: Point
    turn_boxes: tuple[Box, ...]
    turn_label: Point
    setup_box: Box
    bonus_boxes: dict[str, tuple[Box, Box]]
    goal_turn_cells: dict[str, tuple[Box, ...]]  # per goal, one box per turn under the turn tracker
    bonus_label: Point
    score_boxes: dict[str, Box]
    markers: tuple[tuple[float, float, float, int], ...]
    ruler: tuple[float, float, float]
    score_label: Point


def sheet_layout(side: BoardSide, paper: str = "a4", cards: int = 18, custom: bool = False) -> SheetLayout:
    """Place a side's score sheet on `paper`; raise LayoutError if the islands would be too small.

    A `custom` layout (a user's own file) gets the "other layout" markers whatever its side name.
    """
    if paper not in PAPER:
        raise OptionError(f"unknown paper {paper!r}; use a4 or letter")
    w, h = PAPER[paper]
    left, right = MARGIN, w - MARGIN
    inner = right - left
    ids = sheet_marker_ids(side.name, paper, custom)
    bottom = h - MARGIN - MARKER
    markers = ((left, MARGIN, MARKER, ids[0]), (right - MARKER, MARGIN, MARKER, ids[1]),
               (right - MARKER, bottom, MARKER, ids[2]), (left, bottom, MARKER, ids[3]))
    ruler = ((w - RULER_MM) / 2, h - MARGIN - 5.0, RULER_MM)
    # Bottom blocks stacked upwards from the marker band: score/bonus, the turn tracker with a row per
    # goal under it, card strip.
    bonus_top = h - MARGIN - MARKER - 33.0
    turn_top = bonus_top - 2.0 - TRACKER_H
    card_top = turn_top - 19.0
    board_top, board_bottom = MARGIN + MARKER + 5.0, card_top - 5.0
    pitch = min(inner / side.cols, (board_bottom - board_top) / side.rows, 24.0)
    share = ISLAND_SHARE[paper]
    if min(share * pitch, MAX_ISLAND_R) < MIN_ISLAND_R:
        raise LayoutError(f"a {side.rows}x{side.cols} grid does not fit on {paper} with islands of at least "
                          f"{2 * MIN_ISLAND_R:g} mm; use at most 10 rows and 13 columns")
    x0 = w / 2 - (side.cols - 1) * pitch / 2
    y0 = (board_top + board_bottom) / 2 - (side.rows - 1) * pitch / 2
    board = board_geometry(side, x0, y0, pitch, share)

    slot_w = inner / cards
    card_slots = tuple((left + k * slot_w + 0.6, card_top + 4.0, slot_w - 1.2, 13.0) for k in range(cards))
    label_w, setup_w = 14.0, 21.0
    # The starting island's box opens the turn row: what was written before turn 1.
    setup_box = (left + label_w + 0.4, turn_top + 2.0, setup_w - 2.0, TURN_ROW_H)
    turn_x = left + label_w + setup_w
    turn_w = (right - turn_x) / TURNS
    turn_boxes = tuple((turn_x + k * turn_w + 0.4, turn_top + 2.0, turn_w - 0.8, TURN_ROW_H)
                       for k in range(TURNS))
    bonus_boxes, goal_turn_cells = {}, {}
    for k, goal in enumerate(GOALS):
        y = bonus_top + 5.0 + k * 9.0
        bonus_boxes[goal] = ((left + 68.0, y, 13.0, 8.0), (left + 84.0, y, 13.0, 8.0))
        # A row of boxes per goal under the turn tracker: the player crosses the box of the turn the
        # goal was reached, which reads back as surely as a crossed-off card (a written number does not).
        gy = turn_top + 2.0 + TURN_ROW_H + 0.6 + k * GOAL_ROW_H
        goal_turn_cells[goal] = tuple(
            (turn_x + t * turn_w + 0.4, gy, turn_w - 0.8, GOAL_ROW_H - 0.6) for t in range(TURNS)
        )
    sx = left + 114.0
    score_boxes = {"circled": (sx + 30.0, bonus_top + 5.0, 13.0, 8.0),
                   "circled_points": (right - 15.0, bonus_top + 5.0, 15.0, 8.0),
                   "bonus": (right - 15.0, bonus_top + 14.0, 15.0, 8.0),
                   "total": (right - 15.0, bonus_top + 23.0, 15.0, 8.0)}
    return SheetLayout(
        width=w, height=h, board=board, title=(left + MARKER + 4.0, MARGIN + 6.0),
        player=(w / 2 + 10.0, MARGIN + 3.0, right - MARKER - 4.0 - (w / 2 + 10.0), 9.0),
        card_slots=card_slots, card_label=(left, card_top + 2.5),
        turn_boxes=turn_boxes, turn_label=(left, turn_top + 2.0 + TURN_ROW_H / 2 + 1.2), setup_box=setup_box,
        bonus_boxes=bonus_boxes, goal_turn_cells=goal_turn_cells, bonus_label=(left, bonus_top + 2.5),
        score_boxes=score_boxes,
        markers=markers, ruler=ruler, score_label=(sx, bonus_top + 2.5))
