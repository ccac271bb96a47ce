"""Draw what was read onto the rectified sheet: confident fields in green, doubtful ones in orange (blue
where a misreading would change nothing that counts)."""

from __future__ import annotations

import cv2
import numpy as np

from hashi_print.errors import LayoutError
from hashi_print.scan.read import Scan
from hashi_print.scan.register import PPM
from hashi_print.scan.resolve import first_box
from hashi_print.sheets.layout import sheet_layout

SURE = (40, 160, 40)  # BGR
DOUBT = (0, 140, 255)  # a doubt that could change the score, the verdict or the race
MINOR = (200, 120, 0)  # a doubt that changes nothing that counts


def overlay_png(scan: Scan, deck_cards: int) -> bytes:
    """The rectified sheet with the reading drawn on it, as PNG bytes."""
    m, rectified, paper = scan.marks, scan.rectified, scan.paper
    if m is None or rectified is None or paper is None:
        raise LayoutError(f"{scan.file}: the picture was not read, so there is no reading to draw")
    img = (rectified.astype(np.float32) * 0.6 + 255 * 0.4).astype(np.uint8)
    lay = sheet_layout(m.side, paper, deck_cards, custom=m.side.name.upper() not in ("A", "B"))
    doubt = {(u.field, u.where): DOUBT if u.affects else MINOR for u in scan.uncertain}
    bg = lay.board

    def p(x: float, y: float) -> tuple[int, int]:
        """A point in millimetres as a pixel of the rectified sheet."""
        return round(x * PPM), round(y * PPM)

    def colour(field: str, where: str) -> tuple[int, int, int]:
        """The colour of a field: doubtful, doubtful but harmless, or sure."""
        return doubt.get((field, where), SURE)

    for k, n in enumerate(m.bridges):
        x1, y1, x2, y2 = bg.lanes[k]
        c = colour("bridges", m.side.lane_name(k))
        if n or c != SURE:
            cv2.line(img, p(x1, y1), p(x2, y2), c, 3 if n else 1)
            cv2.putText(
                img, str(n), p((x1 + x2) / 2 + 1, (y1 + y2) / 2 - 1), cv2.FONT_HERSHEY_SIMPLEX, 0.5, c, 2
            )
    for i, isl in enumerate(m.side.islands):
        cx, cy = bg.centres[i]
        c = colour("circled", isl.label)
        if i in m.circled or c != SURE:
            cv2.circle(img, p(cx, cy), round(bg.r * 1.3 * PPM), c, 2)
        v = m.numerals[i]
        c = colour("number", isl.label)
        cv2.putText(
            img,
            "-" if v is None else str(v),
            p(cx + bg.r * 0.9, cy + bg.r * 1.2),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.8,
            c,
            2,
        )
    for j, (x, y, w, h) in enumerate(lay.card_slots):
        c = colour("card", str(j + 1))
        if j + 1 in m.cards or c != SURE:
            cv2.rectangle(img, p(x, y), p(x + w, y + h), c, 2)
    for goal, cells in lay.goal_turn_cells.items():
        turn, c = m.goal_turn(goal), colour("bonus", goal)
        if turn is not None:
            x, y, w, h = cells[turn - 1]
            cv2.rectangle(img, p(x, y), p(x + w, y + h), c, 2)
        elif c != SURE:
            (x, y, _, h), (x2, _, w2, _) = cells[0], cells[-1]
            cv2.rectangle(img, p(x, y), p(x2 + w2, y + h), c, 2)
    for goal, (first, _) in lay.bonus_boxes.items():
        x, y, w, h = first
        c = colour("bonus", first_box(goal))
        if goal in m.lost_first or c != SURE:
            cv2.line(img, p(x, y + h), p(x + w, y), c, 2)
            cv2.line(img, p(x, y), p(x + w, y + h), c, 2)
    return _png(img)


def player_crop_png(scan: Scan) -> bytes:
    """The player's name as written, cut out of the rectified sheet (kept as a picture only)."""
    box, rectified = scan.player_box, scan.rectified
    if box is None or rectified is None:
        raise LayoutError(f"{scan.file}: the picture was not read, so there is no player's name to cut out")
    x, y, w, h = box
    return _png(rectified[int(y * PPM) : int((y + h) * PPM), int(x * PPM) : int((x + w) * PPM)])


def _png(img: np.ndarray) -> bytes:
    """An image as PNG bytes."""
    ok, data = cv2.imencode(".png", img)
    if not ok:
        raise LayoutError("OpenCV could not encode the picture as PNG")
    return data.tobytes()
