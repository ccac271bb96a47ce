"""Shared test helpers: where the reference puzzle data lives."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The reference puzzle data folder, or skip when this checkout has none beside it."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"reference data not found at {SHARED_DATA} (../shared/data beside the repo)")
    return SHARED_DATA
