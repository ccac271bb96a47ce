"""The shipped digit network on handwriting it never saw: the held-out writers' digits that the pen
model writes (`handwriting.npz`), drawn here into a numeral box at the reader's 6 pixels per mm."""

from __future__ import annotations

import math
from importlib import resources

import cv2
import numpy as np

from hashi_print.render.fill import glyph_outlines, shipped_glyphs
from hashi_print.sheets.scan.digits import features, probabilities
from hashi_print.sheets.scan.register import PPM


def _drawn(grid, level: float) -> np.ndarray:
    """One glyph filled into a 6.9 mm box with a 0.9 mm margin, as ink (0 paper .. 1 ink), lightly blurred."""
    box, pad, s = 6.9, 0.9, 4
    n = int(math.ceil((box + 2 * pad) * PPM))
    big = np.zeros((n * s, n * s), np.uint8)
    for outline, hole in glyph_outlines(grid, level):
        pts = np.array([(pad + gx * box, pad + gy * box) for gx, gy in outline]) * PPM * s
        cv2.fillPoly(big, [pts.astype(np.int32)], 0 if hole else 255)
    small = cv2.resize(big.astype(np.float32) / 255.0, (n, n), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (0, 0), 0.7) * 0.85


def test_the_network_reads_held_out_handwriting_and_knows_when_it_is_sure():
    glyphs = shipped_glyphs()
    rows, truth = [], []
    for digit in range(1, 7):
        for grid in glyphs[digit]:
            f = features(_drawn(grid, 0.35))
            assert f is not None
            rows.append(f)
            truth.append(digit)
    p = probabilities(np.array(rows))[:, 1:7]
    p /= p.sum(axis=1, keepdims=True)
    read, sure, truth = p.argmax(axis=1) + 1, p.max(axis=1), np.array(truth)
    assert len(truth) == 240
    assert np.mean(read == truth) >= 0.88
    # Calibrated: what it reads at 0.99 or more is (almost) never wrong, and that is most digits.
    confident = sure >= 0.99
    assert confident.mean() >= 0.35
    assert np.sum(read[confident] != truth[confident]) <= 1


def test_empty_box_and_specks_are_no_digit():
    assert features(np.zeros((50, 50), np.float32)) is None
    specks = np.zeros((50, 50), np.float32)
    specks[3, 3] = specks[40, 45] = specks[25, 1] = 1.0
    assert features(specks) is None


def test_the_weights_ship_small_with_their_temperature():
    with resources.files("hashi_print.sheets.scan").joinpath("digits.npz").open("rb") as fh:
        data = fh.read()
    assert len(data) < 2_000_000
    with resources.files("hashi_print.sheets.scan").joinpath("digits.npz").open("rb") as fh, np.load(fh) as d:
        assert {"w1", "b1", "w2", "b2", "temperature"} <= set(d.files)
        assert 0.5 <= float(d["temperature"]) <= 6.0
