"""The shipped digit network on handwriting it never saw: the held-out writers' digits that the pen
model writes (`handwriting.npz`: scikit-learn's 8 x 8 digits and MNIST's last test digits), drawn here
into a numeral box at the reader's 6 pixels per mm."""

from __future__ import annotations

import math
from importlib import resources

import cv2
import numpy as np
import pytest

from hashi_print.render.fill import glyph_outlines, shipped_glyphs
from hashi_print.scan.digits import CNN_LAYERS, NORM, _conv, _pool, features, probabilities
from hashi_print.scan.register import PPM


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


@pytest.mark.parametrize(
    "writers,count,right,sure",
    [("optdigits", 900, 0.95, 0.6), ("mnist", 900, 0.99, 0.9)],
)
def test_the_network_reads_held_out_handwriting_and_knows_when_it_is_sure(writers, count, right, sure):
    glyphs = shipped_glyphs(writers)
    rows, truth = [], []
    for digit in range(1, 7):
        for grid in glyphs[digit]:
            f = features(_drawn(grid, 0.35))
            assert f is not None
            rows.append(f)
            truth.append(digit)
    p = probabilities(np.array(rows))[:, 1:7]
    p /= p.sum(axis=1, keepdims=True)
    read, conf, truth = p.argmax(axis=1) + 1, p.max(axis=1), np.array(truth)
    assert len(truth) == count
    assert np.mean(read == truth) >= right
    # Calibrated: what it reads at 0.99 or more is (almost) never wrong, and that is many digits.
    confident = conf >= 0.99
    assert confident.mean() >= sure
    assert np.sum(read[confident] != truth[confident]) <= 1


def test_empty_box_and_specks_are_no_digit():
    assert features(np.zeros((50, 50), np.float32)) is None
    specks = np.zeros((50, 50), np.float32)
    specks[3, 3] = specks[40, 45] = specks[25, 1] = 1.0
    assert features(specks) is None


def test_the_weights_ship_small_with_their_temperature():
    with resources.files("hashi_print.scan").joinpath("digits.npz").open("rb") as fh:
        data = fh.read()
    assert len(data) < 2_000_000
    with resources.files("hashi_print.scan").joinpath("digits.npz").open("rb") as fh, np.load(fh) as d:
        names = {f"{kind}{i}" for kind in "wb" for i in range(CNN_LAYERS)}
        assert names | {"temperature"} == set(d.files)
        assert 0.5 <= float(d["temperature"]) <= 6.0
        nets = {len(d[name]) for name in names}
        assert len(nets) == 1 and nets.pop() >= 2  # every layer holds one slice per averaged network
        assert d["w0"].shape[1:] == (32, 1, 3, 3) and d["w5"].shape[1:] == (10, 128)


def test_the_numpy_convolution_and_pooling_match_a_plain_loop():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(2, 3, 7, 5)).astype(np.float32)
    w = rng.normal(size=(4, 3, 3, 3)).astype(np.float32)
    b = rng.normal(size=4).astype(np.float32)
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    want = np.zeros((2, 4, 7, 5), np.float32)
    for n in range(2):
        for o in range(4):
            for i in range(7):
                for j in range(5):
                    window = padded[n, :, i : i + 3, j : j + 3]
                    want[n, o, i, j] = max(0.0, float((window * w[o]).sum() + b[o]))
    got = _conv(x.transpose(0, 2, 3, 1), w, b)  # the reader keeps channels last
    assert np.allclose(got.transpose(0, 3, 1, 2), want, atol=1e-5)
    pooled = _pool(got)
    assert pooled.shape == (2, 3, 2, 4)
    assert pooled[1, 2, 1, 2] == got[1, 4:6, 2:4, 2].max()


def test_the_network_sees_the_digit_in_the_middle_of_its_square():
    ink = np.zeros((60, 40), np.float32)
    ink[10:50, 18:22] = 1.0  # a tall bar, like a 1
    f = features(ink)
    square = f.reshape(NORM, NORM)
    ys, xs = np.nonzero(square > 0.5)
    assert ys.max() - ys.min() + 1 == 20  # scaled to fill 20 pixels in height
    middle = (NORM - 1) / 2
    assert abs((ys.min() + ys.max()) / 2 - middle) <= 1 and abs((xs.min() + xs.max()) / 2 - middle) <= 1
