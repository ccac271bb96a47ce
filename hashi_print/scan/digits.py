"""Handwritten digits: the picture the classifier sees and the small convolutional networks that read it.

One pipeline serves training and reading: the digit's strokes are kept (specks of print and noise
dropped) and scaled to fit 20 x 20 pixels in the middle of a 28 x 28 square. Four small
convolutional networks, trained by `scripts/train_digits.py` on real handwriting (MNIST's 60,000
training digits), calibrated on other writers (MNIST's test digits) and tested on others again
(scikit-learn's digits), read that square; their mean score, softened by the temperature that
calibrates it, gives the probabilities. Their weights ship beside this module in `digits.npz` and run
here in numpy, so reading needs no deep-learning library.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import cv2
import numpy as np

INK_LEVEL = 0.25
MIN_PART = 6  # pixels: a smaller blot is a speck, not part of a digit
NORM = 28
LAYERS = 6  # four 3 x 3 convolutions, two dense layers


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


def features(ink: np.ndarray) -> np.ndarray | None:
    """The classifier's input for a crop of ink (0 paper .. 1 ink): the normalised square, or None."""
    img = normalised(ink)
    return None if img is None else img.ravel()


@cache
def _weights() -> tuple[tuple[tuple[np.ndarray, np.ndarray], ...], float]:
    """Each network's layers as (weights, bias) pairs, and the temperature, from the shipped weights file."""
    with resources.files(__package__).joinpath("digits.npz").open("rb") as fh, np.load(fh) as d:
        stacked = [(d[f"w{i}"].astype(np.float32), d[f"b{i}"].astype(np.float32)) for i in range(LAYERS)]
        nets = tuple(tuple((w[k], b[k]) for w, b in stacked) for k in range(len(stacked[0][0])))
        return nets, float(d["temperature"])


def _conv(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A 3 x 3 convolution with one pixel of zero padding, then ReLU: (N, H, W, C) -> (N, H, W, O)."""
    n, h, wd, c = x.shape
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    # The nine shifted copies side by side: one matrix product does the whole convolution.
    shifts = [padded[:, dy : dy + h, dx : dx + wd, :] for dy in range(3) for dx in range(3)]
    cols = np.concatenate(shifts, axis=3)
    kernel = w.transpose(2, 3, 1, 0).reshape(9 * c, -1)  # (dy, dx, c) rows, as the copies lie
    return np.maximum(cols.reshape(-1, 9 * c) @ kernel + b, 0.0).reshape(n, h, wd, -1)


def _pool(x: np.ndarray) -> np.ndarray:
    """2 x 2 max pooling of (N, H, W, C) (an odd last row or column dropped)."""
    n, h, w, c = x.shape
    return x[:, : h // 2 * 2, : w // 2 * 2, :].reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))


def _forward(x: np.ndarray, net: tuple[tuple[np.ndarray, np.ndarray], ...]) -> np.ndarray:
    """One network's scores: conv, conv, pool, conv, pool, conv, pool, dense (ReLU), dense."""
    (c1, d1), (c2, d2), (c3, d3), (c4, d4), (f1, e1), (f2, e2) = net
    x = _pool(_conv(_conv(x, c1, d1), c2, d2))
    x = _pool(_conv(x, c3, d3))
    x = _pool(_conv(x, c4, d4))
    x = x.transpose(0, 3, 1, 2).reshape(len(x), -1)  # flattened channel by channel, as trained
    return np.maximum(x @ f1.T + e1, 0.0) @ f2.T + e2


def logits(batch: np.ndarray, nets=None) -> np.ndarray:
    """The networks' mean raw scores (digits 0-9) for rows of features."""
    nets = nets if nets is not None else _weights()[0]
    x = batch.reshape(-1, NORM, NORM, 1).astype(np.float32)
    return np.mean([_forward(x, net) for net in nets], axis=0)


def softmax(z: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    """Probabilities from scores, softened by `temperature`."""
    z = z / temperature
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def probabilities(batch: np.ndarray) -> np.ndarray:
    """Calibrated class probabilities (digits 0-9) for rows of features."""
    nets, temperature = _weights()
    return softmax(logits(batch, nets), temperature)
