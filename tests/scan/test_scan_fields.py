"""The photo reader's field measures on hand-drawn ink maps (no photo, no layout): what counts as a stroke."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from hashi_print.scan.fields import INK, _crossed

PPM = 6.0  # pixels per mm, as a 5 MP photo of an A4 sheet is read
BOX = (10.0, 10.0, 13.0, 8.5)  # a bonus box (x, y, width, height in mm)


def ink_map(edge_shift: float, cross: bool) -> np.ndarray:
    """Ink (0-1) of one printed bonus box whose outline sits `edge_shift` mm lower than the layout says
    (the sheet found a little off), blurred as a photo blurs it; with `cross`, a pen's X through the box."""
    ink = np.zeros((int(40 * PPM), int(40 * PPM)), np.float32)
    x, y, w, h = (v * PPM for v in BOX)
    shift = edge_shift * PPM
    cv2.rectangle(ink, (round(x), round(y + shift)), (round(x + w), round(y + h + shift)), 0.9, 2)
    if cross:
        for (ax, ay), (bx, by) in (((x, y), (x + w, y + h)), ((x + w, y), (x, y + h))):
            cv2.line(ink, (round(ax), round(ay)), (round(bx), round(by)), 0.9, 3)
    return cv2.GaussianBlur(ink, (0, 0), 1.2)


@pytest.mark.parametrize("shift", [0.0, 0.5, 0.8, -0.8])
def test_a_box_edge_in_the_strip_is_not_a_cross(shift):
    ink = ink_map(shift, cross=False)
    # The printed edge really does reach into the strips for the larger shifts: a row inked across.
    strip = ink[int((BOX[1] + 0.8) * PPM):int((BOX[1] + BOX[3] - 0.8) * PPM),
                int((BOX[0] + 0.6) * PPM):int((BOX[0] + 3.1) * PPM)] > INK
    if abs(shift) >= 0.8:
        assert strip.all(axis=1).any()
    assert _crossed(ink, BOX, PPM, 2.5)[True] < 0.05


@pytest.mark.parametrize("shift", [0.0, 0.5, 0.8, -0.8])
def test_a_pen_cross_is_a_cross(shift):
    assert _crossed(ink_map(shift, cross=True), BOX, PPM, 2.5)[True] > 0.95
