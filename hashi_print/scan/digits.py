"""Handwritten digits: the picture the classifier sees and the small networks that read it.

One pipeline serves training and reading: the digit's strokes are kept (specks of print and noise
dropped) and scaled to fit 20 x 20 pixels in the middle of a 28 x 28 square. The shipped networks
(`digits.npz`) are four small convolutional networks on that square, trained on MNIST's training
writers by `scripts/train_digits_cnn.py`; their mean score, softened by the temperature that
calibrates it, gives the probabilities. A weights file may instead hold dense networks on the
square's stroke directions and coarse ink (`scripts/train_digits.py`, which trains them on the CPU
from several sources and is what the held-out benchmark trains); the file's keys say which kind it
is. Either runs here in numpy, so reading needs nothing but numpy and OpenCV.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import IO

import cv2
import numpy as np

INK_LEVEL = 0.25
MIN_PART = 6  # pixels: a smaller blot is a speck, not part of a digit
NORM = 28
CNN_LAYERS = 6  # a convolutional network: four 3 x 3 convolutions, two dense layers
# One network: its layers as (weights, bias); a weights file: the networks, the dense inputs' mean and
# scale (None for convolutional networks, which read the square itself), and the temperature that
# calibrates their probabilities.
Net = tuple[tuple[np.ndarray, np.ndarray], ...]
Weights = tuple[tuple[Net, ...], np.ndarray | None, np.ndarray | None, float]


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
    return fit_square(crop / max(float(crop.max()), 1e-6))


def fit_square(crop: np.ndarray) -> np.ndarray:
    """A digit's crop scaled to fit 20 x 20 pixels (keeping its shape) in the middle of a 28 x 28 square."""
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


# The networks read a digit's shape as stroke directions (a histogram of gradient directions, 9 bins,
# in each 7 x 7 cell; normalised over each 2 x 2 block of cells) and as ink in a coarse 14 x 14
# picture: both forgive a stroke drawn a pixel off, which a network on raw pixels learns only from
# far more training drawings.
CELL = 7
BINS = 9
COARSE = 14


def directions(squares: np.ndarray) -> np.ndarray:
    """Histograms of stroke directions of (N, 28, 28) squares, block by block: (N, 324)."""
    n = len(squares)
    gx, gy = np.zeros_like(squares), np.zeros_like(squares)
    gx[:, :, 1:-1] = squares[:, :, 2:] - squares[:, :, :-2]
    gy[:, 1:-1, :] = squares[:, 2:, :] - squares[:, :-2, :]
    magnitude = np.hypot(gx, gy)
    turn = np.mod(np.arctan2(gy, gx), np.pi)  # a stroke's direction, not which side is dark
    bins = np.minimum((turn / np.pi * BINS).astype(np.int64), BINS - 1)
    hist = np.zeros((n, NORM, NORM, BINS), np.float32)
    np.put_along_axis(hist, bins[..., None], magnitude[..., None], axis=3)
    cells = NORM // CELL
    hist = hist.reshape(n, cells, CELL, cells, CELL, BINS).sum(axis=(2, 4))
    corners = [(y, x) for y in range(cells - 1) for x in range(cells - 1)]
    blocks = [hist[:, y : y + 2, x : x + 2].reshape(n, -1) for y, x in corners]
    out = np.stack(blocks, axis=1)
    out /= np.sqrt((out**2).sum(axis=2, keepdims=True) + 1e-3)
    return out.reshape(n, -1)


def inputs(batch: np.ndarray) -> np.ndarray:
    """The networks' input rows for rows of features (28 x 28 squares): stroke directions, coarse ink."""
    squares = batch.reshape(-1, NORM, NORM).astype(np.float32)
    coarse = squares.reshape(-1, COARSE, NORM // COARSE, COARSE, NORM // COARSE).mean(axis=(2, 4))
    rows: np.ndarray = np.hstack([directions(squares), coarse.reshape(len(squares), -1)]).astype(np.float32)
    return rows


@cache
def _weights() -> Weights:
    """Each network's layers as (weights, bias) pairs, the inputs' mean and scale, and the temperature,
    from the shipped weights file."""
    with resources.files(__package__).joinpath("digits.npz").open("rb") as fh:
        return read_weights(fh)


def read_weights(fh: IO[bytes]) -> Weights:
    """The networks, input mean and scale and temperature stored in a weights file (as `_weights`)."""
    with np.load(fh) as d:
        layers = sum(1 for key in d.files if key.startswith("w"))  # w0, w1, ...: input layer first
        stacked = [(d[f"w{i}"].astype(np.float32), d[f"b{i}"].astype(np.float32)) for i in range(layers)]
        nets: tuple[Net, ...] = tuple(tuple((w[k], b[k]) for w, b in stacked)
                                      for k in range(len(stacked[0][0])))
        if "mean" not in d.files:
            return nets, None, None, float(d["temperature"])
        return nets, d["mean"].astype(np.float32), d["scale"].astype(np.float32), float(d["temperature"])


def use_weights(path: str | Path) -> None:
    """Read digits with the weights in `path` from now on in this process (the bench's held-out runs)."""
    with open(path, "rb") as fh:
        loaded = read_weights(fh)
    _weights.cache_clear()
    globals()["_weights"] = cache(lambda: loaded)


def _conv(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A 3 x 3 convolution with one pixel of zero padding, then ReLU: (N, H, W, C) -> (N, H, W, O)."""
    n, h, wd, c = x.shape
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    # The nine shifted copies side by side: one matrix product does the whole convolution.
    shifts = [padded[:, dy : dy + h, dx : dx + wd, :] for dy in range(3) for dx in range(3)]
    cols = np.concatenate(shifts, axis=3)
    kernel = w.transpose(2, 3, 1, 0).reshape(9 * c, -1)  # (dy, dx, c) rows, as the copies lie
    out: np.ndarray = np.maximum(cols.reshape(-1, 9 * c) @ kernel + b, 0.0).reshape(n, h, wd, -1)
    return out


def _pool(x: np.ndarray) -> np.ndarray:
    """2 x 2 max pooling of (N, H, W, C) (an odd last row or column dropped)."""
    n, h, w, c = x.shape
    even = x[:, : h // 2 * 2, : w // 2 * 2, :]
    pooled: np.ndarray = even.reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))
    return pooled


def _cnn_forward(x: np.ndarray, net: Net) -> np.ndarray:
    """One convolutional network's scores: conv, conv, pool, conv, pool, conv, pool, dense (ReLU), dense."""
    (c1, d1), (c2, d2), (c3, d3), (c4, d4), (f1, e1), (f2, e2) = net
    x = _pool(_conv(_conv(x, c1, d1), c2, d2))
    x = _pool(_conv(x, c3, d3))
    x = _pool(_conv(x, c4, d4))
    x = x.transpose(0, 3, 1, 2).reshape(len(x), -1)  # flattened channel by channel, as trained
    scores: np.ndarray = np.maximum(x @ f1.T + e1, 0.0) @ f2.T + e2
    return scores


def _forward(x: np.ndarray, net: Net) -> np.ndarray:
    """One dense network's scores: dense layers with ReLU between them."""
    for w, b in net[:-1]:
        x = np.maximum(x @ w + b, 0.0)
    w, b = net[-1]
    scores: np.ndarray = x @ w + b
    return scores


def logits(batch: np.ndarray, weights: Weights | None = None) -> np.ndarray:
    """The networks' mean raw scores (digits 0-9) for rows of features."""
    nets, mean, scale, _ = weights if weights is not None else _weights()
    if mean is None or scale is None:
        squares = batch.reshape(-1, NORM, NORM, 1).astype(np.float32)
        cnn_scores: np.ndarray = np.mean([_cnn_forward(squares, net) for net in nets], axis=0)
        return cnn_scores
    x = (inputs(batch) - mean) / scale
    mean_scores: np.ndarray = np.mean([_forward(x, net) for net in nets], axis=0)
    return mean_scores


def softmax(z: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    """Probabilities from scores, softened by `temperature`."""
    z = z / temperature
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    probs: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return probs


def probabilities(batch: np.ndarray) -> np.ndarray:
    """Calibrated class probabilities (digits 0-9) for rows of features."""
    weights = _weights()
    return softmax(logits(batch, weights), weights[3])
