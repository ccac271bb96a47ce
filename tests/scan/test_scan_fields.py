"""The photo reader's field measures on hand-drawn ink maps (no photo, no layout): what counts as a stroke,
and how a row of boxes is fitted to its print."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from hashi_print.scan.align import smoothed
from hashi_print.scan.fields import FAINT_CAP, INK, _cards, _crossed, _digit_ink

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


def _numeral_box(*strokes: tuple[float, float, float, float], width: float = 0.25) -> np.ndarray:
    """The cleaned ink of a 7 mm numeral box with pen strokes (x0, y0, x1, y1 in mm) of `width` mm."""
    ink = np.zeros((int(7 * PPM), int(7 * PPM)), np.float32)
    for x0, y0, x1, y1 in strokes:
        cv2.line(ink, (round(x0 * PPM), round(y0 * PPM)), (round(x1 * PPM), round(y1 * PPM)), 1.0,
                 max(1, round(width * PPM)))
    return ink


def test_a_thin_tall_one_is_ink_and_a_speck_is_not():
    # A fine pencil 1, 4.5 mm tall: under 1.6 mm² of ink, the area alone took it for an empty box.
    one = _numeral_box((3.5, 1.2, 3.3, 5.7), width=0.15)
    assert float((one > INK).sum()) / PPM**2 < 1.6
    found = _digit_ink(one, PPM)
    assert found is not None and found[0] > 0.9
    # A short thin mark (a stray touch of the pen) stays unlikely to be a digit.
    speck = _digit_ink(_numeral_box((3.2, 3.0, 4.2, 3.4), width=0.15), PPM)
    assert speck is None or speck[0] < 0.1


def test_a_faint_digit_is_likely_written_but_never_surely():
    # A light pencil 4 whose strokes stay below the ink level: the old test found no ink at all and a
    # circled island's box read as empty (the sheet breaking the circle's rule).
    four = 0.2 * _numeral_box((2.2, 1.2, 1.8, 4.2), (1.8, 4.2, 4.6, 4.2), (3.8, 2.4, 3.8, 5.8), width=0.45)
    assert float((four > INK).sum()) == 0.0
    found = _digit_ink(four, PPM)
    assert found is not None and 0.5 < found[0] <= FAINT_CAP
    # Paper grain and a speck of print stay an empty box however the ink is scaled; a faint short dash
    # (0.6 mm^2 at the faint level) leans to empty.
    rng = np.random.default_rng(1)
    empty = rng.uniform(0.0, 0.12, (int(7 * PPM), int(7 * PPM))).astype(np.float32)
    empty[20:23, 20:23] = 0.55
    grain = _digit_ink(empty, PPM)
    assert grain is None or grain[0] < 0.1
    dash = _digit_ink(0.2 * _numeral_box((3.2, 3.0, 4.2, 3.4), width=0.3), PPM)
    assert dash is None or dash[0] < 0.2


CARD = (5.0, 5.0, 9.58, 13.0)  # a card of the strip (x, y, width, height in mm), as on side A's sheet


Stroke = tuple[tuple[float, float], tuple[float, float]]  # from and to, as fractions of the card


def card_ink(shift: float, strokes: tuple[Stroke, ...] = ()) -> np.ndarray:
    """Ink (0-1) of one printed card (outline, numeral, two bars) lying `shift` mm right of where the
    layout puts it, blurred as a 1 MP photo blurs it, with pen strokes across it."""
    ink = np.zeros((int(25 * PPM), int(20 * PPM)), np.float32)
    x, y, w, h = ((CARD[0] + shift) * PPM, CARD[1] * PPM, CARD[2] * PPM, CARD[3] * PPM)
    cv2.rectangle(ink, (round(x), round(y)), (round(x + w), round(y + h)), 0.9, 2)
    cv2.line(ink, (round(x + w / 2), round(y + 1.5 * PPM)), (round(x + w / 2), round(y + 5.5 * PPM)), 0.9, 3)
    for k in range(2):
        bar = round(y + (7.5 + 1.2 * k) * PPM)
        cv2.line(ink, (round(x + 0.225 * w), bar), (round(x + 0.775 * w), bar), 0.9, 2)
    for (ax, ay), (bx, by) in strokes:
        cv2.line(ink, (round(x + ax * w), round(y + ay * h)), (round(x + bx * w), round(y + by * h)), 0.9, 3)
    return cv2.GaussianBlur(ink, (0, 0), 2.0)


def crossed_card(ink: np.ndarray) -> float:
    """How likely the reader finds the card crossed off."""
    return next(_cards(ink, SimpleNamespace(card_slots=[CARD]), PPM))[True]


def test_print_in_a_card_strip_beside_bare_corners_is_not_a_cross():
    ink = card_ink(0.4)
    # The blurred print inks one strip end to end and the other as much as 0.39 mm² (a pen's stroke
    # across a strip inks 0.9 mm² or more), and no corner: read as 0.25 crossed before, a doubt on the score.
    strips = [float((ink[int(5.8 * PPM):int(17.2 * PPM), int(sx * PPM):int((sx + 1.3) * PPM)] > INK).sum())
              / PPM**2 for sx in (5.6, 5.0 + 9.58 - 1.9)]
    assert min(strips) > 0.3 and max(strips) > 3.0
    assert crossed_card(ink) < 0.01


@pytest.mark.parametrize("shift", [0.0, 0.4])
def test_a_card_crossed_off_with_an_x_or_one_slash_is_crossed(shift):
    x = (((0.0, 0.0), (1.0, 1.0)), ((1.0, 0.0), (0.0, 1.0)))
    assert crossed_card(card_ink(shift, x)) > 0.99
    assert crossed_card(card_ink(shift, x[1:])) > 0.95


def test_a_box_pulled_off_its_print_moves_no_neighbour_even_at_a_rows_end():
    # The sixth box of a row holds a cross that pulled its outline match 2.5 mm down; the rest are in place.
    for pulled in (0, 1, 4, 5):
        raw = [(0.0, 0.0)] * 6
        raw[pulled] = (0.0, 2.5)
        assert smoothed(raw) == [(0.0, 0.0)] * 6
    # A whole row moved (a fold) moves with the boxes' own shifts.
    moved = smoothed([(0.1 * k, 1.0) for k in range(4)])
    assert [dx for dx, _ in moved] == pytest.approx([0.1, 0.1, 0.2, 0.2])
    assert [dy for _, dy in moved] == [1.0] * 4
