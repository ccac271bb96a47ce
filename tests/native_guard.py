"""The guard every optional C module shares: used only when built from the Python files beside it."""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from hashi_print.native import digest


def assert_mirror_guard(monkeypatch: pytest.MonkeyPatch, module: str, references: Sequence[str | Path],
                        env: str, load: Callable[[], object], attr: str | None = None,
                        fallback: object = None) -> None:
    """Assert that `load()` hands out the module (its `attr` when given) only when the module records the
    SHA-256 of `references` and `env` is not set, and `fallback` otherwise."""
    monkeypatch.delenv(env, raising=False)
    fake = types.ModuleType(module)
    expected: object = fake
    if attr is not None:
        expected = object()
        setattr(fake, attr, expected)
    fake.SOURCE_SHA256 = "0" * 64  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module, fake)
    assert load() is fallback
    fake.SOURCE_SHA256 = digest(references)  # type: ignore[attr-defined]
    assert load() is expected
    monkeypatch.setenv(env, "1")
    assert load() is fallback
