"""Fuzz every reader of outside input: only HashiError escapes, and no input takes much memory."""

from __future__ import annotations

import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hashi_print.errors import HashiError
from tests.reader_fuzz import READERS

MEMORY_BOUND = 64 * 1024 * 1024   # bytes any one input may make a reader allocate at its peak


def survives(read, text: str) -> None:
    """Run one reader on one input: it returns or raises HashiError, within the memory bound."""
    tracemalloc.start()
    try:
        read(text)
    except HashiError as err:
        assert str(err), "an error must say what is wrong"
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak < MEMORY_BOUND, f"{peak} bytes for an input of {len(text)} characters"


@pytest.mark.parametrize("name", sorted(READERS))
@settings(max_examples=150, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_reader_lets_only_hashi_errors_escape(name, data) -> None:
    strategy, read = READERS[name]
    survives(read, data.draw(strategy, label=name))
