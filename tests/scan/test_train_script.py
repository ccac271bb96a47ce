"""The digit-training script: every source reads, training on a tiny subset twice gives the same bytes,
and the reader's numpy pass reads those weights as scikit-learn does."""

from __future__ import annotations

import importlib
import importlib.util
import zipfile

import numpy as np
import pytest

from hashi_print.scan import digits

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("sklearn") is None, reason="needs the [train] extra (scikit-learn)"
)


@pytest.fixture(scope="module")
def script():
    # Imported by name (not loaded from its path) so that its training jobs reach worker processes.
    return importlib.import_module("scripts.train_digits")


def test_the_stroke_model_writes_every_digit_the_same_from_its_seed(script):
    a, b = script.strokes(seed=3, per_digit=2), script.strokes(seed=3, per_digit=2)
    assert np.array_equal(a.pictures, b.pictures)
    assert a.labels.tolist() == [d for d in range(10) for _ in "ab"]
    assert not np.array_equal(a.pictures, script.strokes(seed=4, per_digit=2).pictures)
    # Each picture holds one digit's ink, fitted to 20 pixels in a 28 x 28 square.
    for p in a.pictures:
        ys, xs = np.nonzero(p > 40)
        assert p.shape == (28, 28) and max(np.ptp(ys), np.ptp(xs)) + 1 in range(18, 22)


def test_a_tiny_training_run_twice_gives_the_same_bytes_and_the_reader_agrees(script, tmp_path):
    plan = script.Plan(("optdigits", "strokes"), seed=5, nets=2, copies=1, epochs=2, limit=40, least=0)
    outs = []
    for k in range(2):
        arrays, lines = script.train(plan, workers=1)
        outs.append(tmp_path / f"w{k}.npz")
        script.write_weights(outs[-1], arrays)
    assert outs[0].read_bytes() == outs[1].read_bytes()
    assert any(line.startswith("calibration digits: digits 0-9") for line in lines)
    # The file is a plain numpy archive whose members all carry the same fixed time.
    assert {i.date_time for i in zipfile.ZipFile(outs[0]).infolist()} == {script.ZIP_TIME}
    with open(outs[0], "rb") as fh:
        nets, mean, scale, temperature = digits.read_weights(fh)
    assert len(nets) == 2 and nets[0][0][0].shape == (mean.size, script.HIDDEN[0]) and temperature > 0
    # Another seed gives other weights.
    other, _ = script.train(script.Plan(plan.sources, 6, 2, 1, 2, 40, 0), workers=1)
    assert not np.array_equal(other["w0"], arrays["w0"])


def test_the_readers_numpy_pass_gives_scikit_learns_probabilities():
    from sklearn.neural_network import MLPClassifier

    rng = np.random.default_rng(0)
    x = rng.random((200, 28 * 28)).astype(np.float32)
    y = np.arange(200) % 10
    z = digits.inputs(x)
    net = MLPClassifier((16, 8), max_iter=60, tol=0.0, n_iter_no_change=100, random_state=0)
    with pytest.warns(UserWarning):  # every pass is run on purpose
        net.fit(z, y)
    layers = tuple(zip(net.coefs_, net.intercepts_, strict=True))
    weights = ((layers,), np.zeros(z.shape[1], np.float32), np.ones(z.shape[1], np.float32), 1.0)
    got = digits.softmax(digits.logits(x, weights))
    assert np.abs(got - net.predict_proba(z)).max() < 1e-5


def test_the_handwriting_fonts_give_every_digit(script):
    missing = [p for p, folder in script.FONT_PACKAGES.items() if not list(script.Path(folder).glob("*"))]
    if missing:
        pytest.skip(f"needs the Debian packages {' '.join(missing)}")
    src = script.fonts()
    assert len(script.font_files()) >= len(script.FONT_PACKAGES)
    assert np.bincount(src.labels, minlength=10).min() >= len(script.FONT_PACKAGES)
