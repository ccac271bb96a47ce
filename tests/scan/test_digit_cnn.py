"""The numpy trainer of the reader's convolutional digit network: its forward pass is the reader's, its
gradients are the loss's, and it learns."""

from __future__ import annotations

import importlib

import numpy as np

from hashi_print.scan import digits


def test_the_trainers_forward_pass_is_the_readers():
    cnn = importlib.import_module("scripts.digit_cnn")
    layers = cnn.initial(np.random.default_rng(3))
    x = np.random.default_rng(4).random((5, 28, 28, 1)).astype(np.float32)
    scores, _ = cnn.forward(layers, x)
    assert np.array_equal(scores, digits.logits(x.reshape(5, -1), ((tuple(layers),), 1.0)))


def test_the_gradients_are_the_losss_slopes():
    cnn = importlib.import_module("scripts.digit_cnn")
    rng = np.random.default_rng(0)
    layers = [(w.astype(np.float64), b.astype(np.float64)) for w, b in cnn.initial(rng)]
    x = rng.random((3, 28, 28, 1))
    y = np.array([1, 4, 7])

    def loss() -> float:
        return cnn.loss_gradient(cnn.forward(layers, x)[0], y)[0]

    scores, tape = cnn.forward(layers, x)
    grads = cnn.backward(layers, tape, cnn.loss_gradient(scores, y)[1].astype(np.float64))
    for layer in range(len(layers)):
        for part in (0, 1):
            values = layers[layer][part]
            # The weight with the largest gradient, so that the slope is not lost in rounding.
            where = np.unravel_index(np.argmax(np.abs(grads[layer][part])), values.shape)
            old = values[where]
            values[where] = old + 1e-5
            up = loss()
            values[where] = old - 1e-5
            down = loss()
            values[where] = old
            slope = (up - down) / 2e-5
            assert abs(slope - grads[layer][part][where]) < 1e-4 * max(1.0, abs(slope))


def test_a_few_passes_learn_to_tell_two_shapes_apart():
    cnn = importlib.import_module("scripts.digit_cnn")
    rng = np.random.default_rng(1)
    x = np.zeros((64, 28, 28), np.float32)
    y = np.arange(64) % 2
    x[y == 0, 4:24, 12:16] = 1.0  # a bar
    x[y == 1, 12:16, 4:24] = 1.0  # a dash
    layers = cnn.train(x.reshape(64, -1), y, rng, cnn.Schedule(epochs=3, batch=16, shift=1))
    scores, _ = cnn.forward(layers, x.reshape(64, 28, 28, 1))
    assert np.mean(scores.argmax(axis=1) == y) == 1.0
