"""Handwritten digits: the picture the classifier sees and the small networks that read it.

One pipeline serves training and reading: the digit's strokes are kept (specks of print and noise
dropped) and scaled to fit 20 x 20 pixels in the middle of a 28 x 28 square. The shipped networks
(`digits.npz`) are four small convolutional networks on that square, trained on MNIST's training
writers in numpy on the CPU by `scripts/train_digits.py --shipped`, which also trains the same
network from four sources of handwriting (the held-out benchmark's networks).
Their mean score, softened by the temperature that calibrates it, gives the probabilities. They run
here in numpy, so reading needs nothing but numpy and OpenCV.
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
# One network: its layers as (weights, bias); a weights file: the networks and the temperature that
# calibrates their probabilities.
Net = tuple[tuple[np.ndarray, np.ndarray], ...]
Weights = tuple[tuple[Net, ...], float]


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


@cache
def _weights() -> Weights:
    """Each network's layers as (weights, bias) pairs and the temperature, from the shipped weights file."""
    with resources.files(__package__).joinpath("digits.npz").open("rb") as fh:
        return read_weights(fh)


def read_weights(fh: IO[bytes]) -> Weights:
    """The networks and temperature stored in a weights file (as `_weights`)."""
    with np.load(fh) as d:
        layers = sum(1 for key in d.files if key.startswith("w"))  # w0, w1, ...: input layer first
        stacked = [(d[f"w{i}"].astype(np.float32), d[f"b{i}"].astype(np.float32)) for i in range(layers)]
        nets: tuple[Net, ...] = tuple(tuple((w[k], b[k]) for w, b in stacked)
                                      for k in range(len(stacked[0][0])))
        return nets, float(d["temperature"])


def use_weights(path: str | Path) -> None:
    """Read digits with the weights in `path` from now on in this process (the bench's held-out runs)."""
    with open(path, "rb") as fh:
        loaded = read_weights(fh)
    _weights.cache_clear()
    globals()["_weights"] = cache(lambda: loaded)


def columns(x: np.ndarray) -> np.ndarray:
    """Each pixel's 3 x 3 neighbourhood (zero padded) as one row: (N, H, W, C) -> (N * H * W, 9 * C),
    laid out (dy, dx, c), so that one matrix product does a whole convolution."""
    n, h, wd, c = x.shape
    padded = np.zeros((n, h + 2, wd + 2, c), x.dtype)
    padded[:, 1:-1, 1:-1, :] = x
    # A view of every neighbourhood (a pixel's three neighbours in a row lie side by side in memory),
    # copied once: over twice as fast as joining nine shifted copies, and the same rows.
    sn, sh, sw, _ = padded.strides
    view = np.lib.stride_tricks.as_strided(padded, (n, h, wd, 3, 3 * c), (sn, sh, sw, sh, padded.itemsize),
                                           writeable=False)
    cols: np.ndarray = np.ascontiguousarray(view).reshape(-1, 9 * c)
    return cols


def kernel_matrix(w: np.ndarray) -> np.ndarray:
    """A convolution's weights (O, C, 3, 3) as the (9 * C, O) matrix that multiplies `columns`."""
    matrix: np.ndarray = w.transpose(2, 3, 1, 0).reshape(-1, w.shape[0])
    return matrix


def _conv(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A 3 x 3 convolution with one pixel of zero padding, then ReLU: (N, H, W, C) -> (N, H, W, O)."""
    n, h, wd, _ = x.shape
    out: np.ndarray = np.maximum(columns(x) @ kernel_matrix(w) + b, 0.0).reshape(n, h, wd, -1)
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


def logits(batch: np.ndarray, weights: Weights | None = None) -> np.ndarray:
    """The networks' mean raw scores (digits 0-9) for rows of features."""
    nets, _ = weights if weights is not None else _weights()
    squares = batch.reshape(-1, NORM, NORM, 1).astype(np.float32)
    scores: np.ndarray = np.mean([_cnn_forward(squares, net) for net in nets], axis=0)
    return scores


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
    return softmax(logits(batch, weights), weights[1])
