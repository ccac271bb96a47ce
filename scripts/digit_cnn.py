"""The photo reader's convolutional digit network, trained in numpy on the CPU (no GPU stack).

The network is the one `hashi_print/scan/digits.py` runs: four 3 x 3 convolutions with ReLU (2 x 2 max
pooling after the second, third and fourth), a dense ReLU layer and a dense output layer. The forward
pass here builds its convolutions from the reader's own `columns` and `kernel_matrix` and keeps what the
backward pass needs; the weights are stored in the reader's layout ((O, C, 3, 3) kernels, (out, in)
dense matrices), so a trained network drops straight into a weights file. Randomness comes only from
the generator passed in; with BLAS on one thread the same seed gives the same weights bit for bit.
The shipped plan's schedule is PyTorch's recipe written out: dropout before each dense layer and
the one-cycle learning rate (with Adam's first moment cycled against it).
"""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass

import numpy as np

from hashi_print.scan.digits import NORM, columns, kernel_matrix

# The layers, as the reader runs them: (input channels, output channels, pool after it).
CONVS = ((1, 32, False), (32, 32, True), (32, 64, True), (64, 64, True))
HIDDEN = 128
CLASSES = 10
FLAT = 64 * 3 * 3  # 28 -> 14 -> 7 -> 3 pixels after the three poolings

Layers = list[tuple[np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class Schedule:
    """How one network learns: passes, batch size, peak learning rate, weight decay, shifts, dropout."""

    epochs: int = 5
    batch: int = 64
    peak: float = 3e-3
    decay: float = 1e-4
    warmup: float = 0.3  # share of the steps spent rising to the peak
    shift: int = 2  # a digit this many pixels off the middle of its square reads the same
    dropout: float = 0.0  # share of each dense layer's inputs dropped in training
    one_cycle: bool = False  # PyTorch's OneCycleLR (cosine both ways, Adam's first beta cycled), not `rate`


def initial(rng: np.random.Generator) -> Layers:
    """Fresh layers (He-normal weights, zero biases), in the reader's layout."""
    layers: Layers = []
    shapes = [(cout, cin, 3, 3) for cin, cout, _ in CONVS] + [(HIDDEN, FLAT), (CLASSES, HIDDEN)]
    for shape in shapes:
        fan_in = math.prod(shape[1:])
        weights = rng.normal(0.0, math.sqrt(2.0 / fan_in), shape).astype(np.float32)
        layers.append((weights, np.zeros(shape[0], np.float32)))
    return layers


def _pool(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """2 x 2 max pooling (an odd last row or column dropped) and where each maximum came from."""
    n, h, w, c = x.shape
    blocks = x[:, : h // 2 * 2, : w // 2 * 2, :].reshape(n, h // 2, 2, w // 2, 2, c)
    out = blocks.max(axis=(2, 4))
    return out, blocks == out[:, :, None, :, None, :]


def _unpool(grad: np.ndarray, where: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The gradient of 2 x 2 max pooling: each output's gradient back to its maximum."""
    n, h, w, c = shape
    back = np.zeros(shape, np.float32)
    spread = where * grad[:, :, None, :, None, :]
    back[:, : h // 2 * 2, : w // 2 * 2, :] = spread.reshape(n, h // 2 * 2, w // 2 * 2, c)
    return back


def _dropped(x: np.ndarray, rng: np.random.Generator | None,
             share: float) -> tuple[np.ndarray, np.ndarray | None]:
    """The inputs with a random share of them dropped (the rest scaled up to keep the sum), and the mask."""
    if rng is None or share <= 0.0:
        return x, None
    mask = (rng.random(x.shape, dtype=np.float32) >= share).astype(np.float32) / np.float32(1.0 - share)
    return x * mask, mask


def forward(layers: Layers, x: np.ndarray, rng: np.random.Generator | None = None,
            dropout: float = 0.0) -> tuple[np.ndarray, list]:
    """Scores for (N, 28, 28, 1) squares, and what the backward pass needs of each layer (with `rng`,
    a share `dropout` of each dense layer's inputs dropped, as in training)."""
    tape: list = []
    for (w, b), (_, _, pool) in zip(layers, CONVS, strict=False):
        cols = columns(x)
        out = np.maximum(cols @ kernel_matrix(w) + b, 0.0).reshape(*x.shape[:3], -1)
        tape.append((cols, x.shape, out))
        x = out
        if pool:
            x, where = _pool(out)
            tape.append((where, out.shape))
    flat = x.transpose(0, 3, 1, 2).reshape(len(x), -1)  # channel by channel, as the reader flattens
    (f1, e1), (f2, e2) = layers[len(CONVS) :]
    flat, keep1 = _dropped(flat, rng, dropout)
    hidden = np.maximum(flat @ f1.T + e1, 0.0)
    seen, keep2 = _dropped(hidden, rng, dropout)
    tape.append((flat, x.shape, hidden, seen, keep1, keep2))
    return seen @ f2.T + e2, tape


def backward(layers: Layers, tape: list, dscores: np.ndarray) -> Layers:
    """Each layer's gradients (weights, bias) from the scores' gradient."""
    (f1, _), (f2, _) = layers[len(CONVS) :]
    flat, pooled_shape, hidden, seen, keep1, keep2 = tape[-1]
    grads: Layers = [(dscores.T @ seen, dscores.sum(axis=0))]
    dseen = dscores @ f2
    dhidden = (dseen if keep2 is None else dseen * keep2) * (hidden > 0)
    grads.insert(0, (dhidden.T @ flat, dhidden.sum(axis=0)))
    n, h, w, c = pooled_shape
    dflat = dhidden @ f1
    dflat = dflat if keep1 is None else dflat * keep1
    dx = dflat.reshape(n, c, h, w).transpose(0, 2, 3, 1)
    steps = iter(reversed(tape[:-1]))
    for i in reversed(range(len(CONVS))):
        w_conv = layers[i][0]
        if CONVS[i][2]:
            where, shape = next(steps)
            dx = _unpool(dx, where, shape)
        cols, in_shape, out = next(steps)
        dz = (dx * (out > 0)).reshape(-1, out.shape[3])
        dk = cols.T @ dz  # (9 * C, O), back to the reader's (O, C, 3, 3)
        grads.insert(0, (dk.reshape(3, 3, in_shape[3], -1).transpose(3, 2, 0, 1), dz.sum(axis=0)))
        if i > 0:
            # The input's gradient is the output's gradient convolved with the turned kernel: one
            # product as large as the forward one, instead of spreading nine copies back.
            turned = w_conv.transpose(1, 0, 2, 3)[:, :, ::-1, ::-1]
            dx = (columns(dz.reshape(*in_shape[:3], -1)) @ kernel_matrix(turned)).reshape(in_shape)
    return grads


def loss_gradient(scores: np.ndarray, labels: np.ndarray) -> tuple[float, np.ndarray]:
    """Mean cross-entropy of the scores and its gradient."""
    z = scores - scores.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    picked = p[np.arange(len(labels)), labels]
    p[np.arange(len(labels)), labels] -= 1.0
    return float(-np.mean(np.log(picked + 1e-12))), (p / len(labels)).astype(np.float32)


def rate(step: int, total: int, schedule: Schedule) -> float:
    """The learning rate at a step: a linear rise to the peak, then a cosine fall to nearly nothing."""
    rise = max(1, int(total * schedule.warmup))
    if step < rise:
        return schedule.peak * (0.04 + 0.96 * step / rise)
    fall = (step - rise) / max(1, total - rise)
    return schedule.peak * (1e-4 + 0.5 * (1 - 1e-4) * (1 + math.cos(math.pi * fall)))


def _cosine(start: float, end: float, share: float) -> float:
    """From `start` to `end` along half a cosine, `share` of the way."""
    return end + (start - end) / 2.0 * (1.0 + math.cos(math.pi * share))


def one_cycle(step: int, total: int, schedule: Schedule) -> tuple[float, float]:
    """PyTorch's OneCycleLR at a step: the learning rate (from a 25th of the peak up to it, then down to
    a 10,000th of that start) and Adam's first beta (0.95 down to 0.85 while the rate rises, then back)."""
    start = schedule.peak / 25.0
    rise = schedule.warmup * total - 1.0
    if step <= rise:
        share = step / rise
        return _cosine(start, schedule.peak, share), _cosine(0.95, 0.85, share)
    share = (step - rise) / (total - 1.0 - rise)
    return _cosine(schedule.peak, start / 1e4, share), _cosine(0.85, 0.95, share)


@dataclass
class Adam:
    """Adam's running moments for each parameter, and how many steps it has taken."""

    first: list[np.ndarray]
    second: list[np.ndarray]
    steps: int = 0

    def step(self, params: list[np.ndarray], grads: list[np.ndarray], lr: float, b1: float = 0.9) -> None:
        """Move each parameter (in place) one step along its gradient."""
        b2, eps = 0.999, 1e-8
        self.steps += 1
        fix1, fix2 = 1 - b1**self.steps, 1 - b2**self.steps
        for p, g, m, v in zip(params, grads, self.first, self.second, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            p -= (lr / fix1) * m / (np.sqrt(v / fix2) + eps)


def keep_freed_memory() -> None:
    """Have glibc's malloc keep freed memory for the next batch rather than hand it back to the kernel."""
    # A batch allocates about 115 MB of convolution columns; left to its defaults malloc maps and unmaps
    # them each time and the kernel zeroes every page again (a sixth of the training time, two
    # networks at once). Where this is not glibc nothing changes but the speed.
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return
    m_trim_threshold, m_mmap_threshold = -1, -3
    libc.mallopt(m_mmap_threshold, 1 << 30)
    libc.mallopt(m_trim_threshold, 1 << 30)


def train(x: np.ndarray, y: np.ndarray, rng: np.random.Generator, schedule: Schedule) -> Layers:
    """A network trained with Adam on (N, 784) squares and their digits, in shuffled batches."""
    keep_freed_memory()
    layers = initial(rng)
    params = [a for layer in layers for a in layer]
    adam = Adam([np.zeros_like(p) for p in params], [np.zeros_like(p) for p in params])
    squares = x.reshape(-1, NORM, NORM, 1).astype(np.float32, copy=False)
    total = schedule.epochs * -(-len(y) // schedule.batch)
    for _ in range(schedule.epochs):
        order = rng.permutation(len(y))
        for i in range(0, len(y), schedule.batch):
            pick = order[i : i + schedule.batch]
            dy, dx = (int(v) for v in rng.integers(-schedule.shift, schedule.shift + 1, 2))
            moved = np.roll(squares[pick], (dy, dx), axis=(1, 2))
            scores, tape = forward(layers, moved, rng, schedule.dropout)
            _, dscores = loss_gradient(scores, y[pick])
            grads = [g.astype(np.float32) for layer in backward(layers, tape, dscores) for g in layer]
            # Weight decay pulls the weights (not the biases) towards zero.
            grads = [g + schedule.decay * p if p.ndim > 1 else g for p, g in zip(params, grads, strict=True)]
            if schedule.one_cycle:
                adam.step(params, grads, *one_cycle(adam.steps, total, schedule))
            else:
                adam.step(params, grads, rate(adam.steps, total, schedule))
    return layers
