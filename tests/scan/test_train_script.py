"""The digit-training script: every source reads, training on a tiny subset twice gives the same bytes,
and the reader runs what it trains."""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import json
import zipfile

import numpy as np
import pytest

from hashi_print.scan import digits

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("sklearn") is None or importlib.util.find_spec("threadpoolctl") is None,
    reason="needs the [train] extra (scikit-learn, threadpoolctl)",
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
    plan = script.Plan(("optdigits",), seed=5, nets=2, copies=1, epochs=1, limit=40, least=0)
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
        nets, temperature = digits.read_weights(fh)
    assert len(nets) == 2 and [w.shape for w, _ in nets[0]][::5] == [(32, 1, 3, 3), (10, 128)]
    assert temperature > 0
    with np.load(outs[0]) as d:
        assert str(d["plan"]) == script.plan_json(plan) and json.loads(str(d["plan"]))["seed"] == 5
    # Another seed gives other weights.
    other, _ = script.train(dataclasses.replace(plan, seed=6), workers=1)
    assert not np.array_equal(other["w0"], arrays["w0"])


def test_the_handwriting_fonts_give_every_digit(script):
    missing = [p for p, folder in script.FONT_PACKAGES.items() if not list(script.Path(folder).glob("*"))]
    if missing:
        pytest.skip(f"needs the Debian packages {' '.join(missing)}")
    src = script.fonts()
    assert len(script.font_files()) >= len(script.FONT_PACKAGES)
    assert np.bincount(src.labels, minlength=10).min() >= len(script.FONT_PACKAGES)
