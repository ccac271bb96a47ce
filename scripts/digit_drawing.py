"""How a written digit reaches the photo reader, shared by both plans of the digit trainer: optdigits'
8 x 8 ink counts, random distortions, the pen model drawing it into a numeral box or a narrow cell, and
the calibration helpers (16-bit weights, temperature)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from hashi_print.render.fill import placed_glyph
from hashi_print.scan.digits import softmax
from hashi_print.scan.register import PPM


def optdigits_grid(img28: np.ndarray, light: bool = True) -> np.ndarray:
    """A digit (0-255) as optdigits recorded theirs: a 32 x 32 bitmap filled to its height, 8 x 8 counts
    (`light`: a light pencil digit's ink counts too, not only strokes over half black)."""
    m = img28 > (min(127, int(img28.max()) // 2) if light else 127)
    ys, xs = np.nonzero(m)
    c = m[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].astype(np.float32)
    h, w = c.shape
    s = 32.0 / max(h, w)
    nh, nw = max(1, round(h * s)), max(1, round(w * s))
    bitmap = np.zeros((32, 32), np.float32)
    y0, x0 = (32 - nh) // 2, (32 - nw) // 2
    bitmap[y0 : y0 + nh, x0 : x0 + nw] = cv2.resize(c, (nw, nh), interpolation=cv2.INTER_LINEAR) > 0.5
    return bitmap.reshape(8, 4, 8, 4).sum(axis=(1, 3))


def distort(img28: np.ndarray, rng: np.random.Generator, light: bool = True) -> np.ndarray:
    """A random turn, slant, width, elastic warp and stroke weight of one digit (0-255); a warp that
    leaves almost no ink (over half the digit's darkest, or black unless `light`) keeps the digit."""
    n = 56
    big = cv2.resize(img28.astype(np.float32), (n, n), interpolation=cv2.INTER_LINEAR)
    m = cv2.getRotationMatrix2D((n / 2, n / 2), rng.uniform(-12, 12), 1.0)
    m[:, :2] = m[:, :2] @ np.array([[rng.uniform(0.6, 1.2), rng.uniform(-0.3, 0.3)], [0.0, 1.0]])
    m[:, 2] += (n / 2, n / 2) - m[:, :2] @ (n / 2, n / 2)
    out = cv2.warpAffine(big, m, (n, n), flags=cv2.INTER_LINEAR)
    if rng.random() < 0.7:
        amount = rng.uniform(30, 80)
        dx = cv2.GaussianBlur(rng.uniform(-1, 1, (n, n)).astype(np.float32), (0, 0), 6.0) * amount
        dy = cv2.GaussianBlur(rng.uniform(-1, 1, (n, n)).astype(np.float32), (0, 0), 6.0) * amount
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
        out = cv2.remap(out, xx + dx, yy + dy, cv2.INTER_LINEAR)
    weight = rng.integers(0, 5)
    if weight == 1:
        out = cv2.dilate(out, np.ones((3, 3), np.uint8))
    elif weight == 2:
        out = cv2.erode(out, np.ones((2, 2), np.uint8))
    elif weight == 3:  # a felt tip or a heavy hand: strokes a fifth of the digit's width
        out = cv2.dilate(out, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))
    out = cv2.resize(out, (28, 28), interpolation=cv2.INTER_AREA)
    return out if (out > (min(127, img28.max() / 2) if light else 127)).sum() >= 5 else img28


def draw_glyph(big: np.ndarray, grid, level: float, size: float, cx: float, cy: float, angle: float,
               s: float):
    """Fill a glyph's outlines (as the pen model traces them) into a supersampled picture."""
    for pts, hole in placed_glyph(grid, level, size, cx, cy, angle):
        cv2.fillPoly(big, [(np.array(pts) * PPM * s).astype(np.int32)], 0 if hole else 255)


def sheet_crop(grid, rng: np.random.Generator, cell: bool, neighbour=None, *,
               turn_first: bool = True) -> np.ndarray:
    """A digit as the reader cuts it from a photo: a numeral box, or a narrow cell beside another."""
    level = rng.choice([0.3, 0.45]) + rng.uniform(-0.05, 0.05)
    if cell:  # a 5.5 x 8.5 mm cell, the digit written in it shrunk by 0.9 mm, cut 0.25 mm around
        box_w, box_h, pad = rng.uniform(5.2, 5.8), rng.uniform(8.2, 8.8), 0.25
        inner_w, inner_h = box_w - 1.8, box_h - 1.8
    else:  # an island's square numeral box, cut 0.9 mm around, inside the printed circle
        box_w = box_h = rng.uniform(5.4, 7.0)
        pad = 0.9
        inner_w, inner_h = box_w, box_h
    width, height = box_w + 2 * pad, box_h + 2 * pad
    s = 4
    big = np.zeros((int(math.ceil(height * PPM)) * s, int(math.ceil(width * PPM)) * s), np.uint8)
    size = inner_h * rng.uniform(0.85, 1.1)
    cx = width / 2 + rng.uniform(-0.1, 0.1) * inner_w
    cy = height / 2 + rng.uniform(-0.08, 0.08) * inner_h
    draw_glyph(big, grid, level, size, cx, cy, math.radians(rng.uniform(-8, 8)), s)
    if neighbour is not None:  # the digit in the next cell reaches into this one
        nx = cx + rng.choice([-1.0, 1.0]) * 6.0
        # The two plans draw the neighbour's turn and size in opposite orders (the shipped plan as the
        # PyTorch trainer before it did); each keeps its own so that its drawings stay as they were.
        if turn_first:
            turn = math.radians(rng.uniform(-8, 8))
            size = inner_h * rng.uniform(0.85, 1.1)
        else:
            size = inner_h * rng.uniform(0.85, 1.1)
            turn = math.radians(rng.uniform(-8, 8))
        draw_glyph(big, neighbour, level, size, nx, cy, turn, s)
    img = cv2.resize(
        big.astype(np.float32) / 255.0, (big.shape[1] // s, big.shape[0] // s), interpolation=cv2.INTER_AREA
    )
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.3))
    img *= rng.uniform(0.45, 1.0)
    img += rng.normal(0.0, rng.uniform(0.0, 0.05), img.shape)
    if not cell:
        yy, xx = np.mgrid[0 : img.shape[0], 0 : img.shape[1]]
        r = box_w / 1.2
        img[np.hypot((xx + 0.5) / PPM - width / 2, (yy + 0.5) / PPM - height / 2) > r - 0.45] = 0.0
    return np.clip(img, 0.0, 1.0).astype(np.float32)


def half(a: np.ndarray) -> np.ndarray:
    """An array as it ships (16-bit floats), back in 32 bits."""
    return a.astype(np.float16).astype(np.float32)


def temperature(z: np.ndarray, y: np.ndarray) -> float:
    """The temperature that makes the softened scores most likely on the calibration digits."""
    grid = np.arange(0.5, 6.0, 0.05)
    nll = [-np.mean(np.log(softmax(z, t)[np.arange(len(y)), y] + 1e-12)) for t in grid]
    return float(grid[int(np.argmin(nll))])
