"""The script that retrains the shipped convolutional networks reads the MNIST file as arrays only."""

from __future__ import annotations

import io
import os
import pickle
from pathlib import Path

import numpy as np
import pytest

from tests.scripts import load_script


class _Payload:
    """An object whose pickle would run a command when loaded by a plain unpickler."""

    def __reduce__(self):
        return (os.system, ("echo unpickled",))


def test_arrays_come_back_as_they_were_pickled_and_anything_else_is_refused():
    script = load_script("train_digits_cnn")
    pictures = np.arange(2 * 784, dtype=np.float32).reshape(2, 784) / 2000.0
    blob = pickle.dumps(((pictures, np.array([4, 6], dtype=np.int64)),), protocol=2)
    (got, labels), = script._ArraysOnly(io.BytesIO(blob), encoding="latin1").load()
    assert np.array_equal(got, pictures) and got.dtype == np.float32 and labels.tolist() == [4, 6]
    with pytest.raises(pickle.UnpicklingError, match="system"):
        script._ArraysOnly(io.BytesIO(pickle.dumps(_Payload(), protocol=2))).load()


def test_the_script_writes_the_weights_where_the_reader_loads_them():
    from importlib import resources

    script = load_script("train_digits_cnn")
    shipped = resources.files("hashi_print.scan").joinpath("digits.npz")
    assert script.OUT.resolve() == Path(str(shipped)).resolve() and script.OUT.is_file()
    assert script.GLYPHS.is_file()
