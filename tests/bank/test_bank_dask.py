"""A fill on a Dask LocalCluster of two worker processes stores the same puzzles as the local pool."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from hashi_print.bank.executors import DaskCluster
from hashi_print.bank.fill import make_entry
from hashi_print.cli import cli
from hashi_print.errors import BankError
from tests.bank.conftest import SMALL, SMALL_COUNT
from tests.bank.test_bank_fill import listing

distributed = pytest.importorskip("distributed")


def test_a_dask_local_cluster_of_two_processes_fills_the_same_bank(small_bank, tmp_path):
    path = tmp_path / "dask.sqlite"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        assert len(cluster.workers) == 2
        result = CliRunner().invoke(cli, ["bank", "fill", "--db", str(path), "--size", "7x7", "--difficulty",
                                          "easy", "--count", str(SMALL_COUNT), "--seed", "5",
                                          "--scheduler", cluster.scheduler_address])
    assert result.exit_code == 0, result.output
    assert "Dask cluster" in result.output
    assert listing(path) == listing(small_bank)


def test_an_unreachable_scheduler_is_a_bank_error_naming_it():
    cluster = DaskCluster("127.0.0.1:9", timeout=1)
    with pytest.raises(BankError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        next(cluster.completed(make_entry, SMALL, lambda: 0))
