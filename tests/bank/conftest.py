"""Fixtures for the bank tests: a small bank filled once per session."""

from __future__ import annotations

from contextlib import closing

import pytest

from hashi_print.bank.executors import LocalPool
from hashi_print.bank.fill import fill, make_spec
from hashi_print.bank.store import open_bank

SMALL = make_spec(7, 7, "easy", seed=5)
SMALL_COUNT = 12


@pytest.fixture(scope="session")
def small_bank(tmp_path_factory):
    """A bank of 12 easy 7x7 puzzles of seed 5, made on two local workers (copy it before changing it)."""
    path = tmp_path_factory.mktemp("bank") / "small.sqlite"
    with closing(open_bank(path, create=True)) as conn:
        fill(conn, SMALL, SMALL_COUNT, LocalPool(2))
    return path
