"""The digit-training script reads the third-party MNIST file as arrays only, never as code."""

from __future__ import annotations

import io
import os
import pickle

import numpy as np
import pytest

from tests.scripts import load_script


def _script():
    return load_script("train_digits")


class _Payload:
    """An object whose pickle would run a command when loaded by a plain unpickler."""

    def __reduce__(self):
        return (os.system, ("echo unpickled",))


def test_arrays_come_back_as_they_were_pickled():
    pictures = np.arange(2 * 784, dtype=np.float32).reshape(2, 784) / 2000.0
    labels = np.array([4, 6], dtype=np.int64)
    blob = pickle.dumps(((pictures, labels),), protocol=2)
    (got_pictures, got_labels), = _script()._ArraysOnly(io.BytesIO(blob), encoding="latin1").load()
    assert np.array_equal(got_pictures, pictures) and got_pictures.dtype == np.float32
    assert got_labels.tolist() == [4, 6]


def test_anything_but_arrays_is_refused_before_it_runs():
    blob = pickle.dumps(_Payload(), protocol=2)
    with pytest.raises(pickle.UnpicklingError, match="system"):
        _script()._ArraysOnly(io.BytesIO(blob)).load()
