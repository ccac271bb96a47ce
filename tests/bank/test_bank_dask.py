"""A fill on a Dask LocalCluster of two worker processes stores the same puzzles as the local pool, even when
a worker is killed mid-fill; and the local pool still finds its worker processes to end them."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import closing
from functools import partial
from multiprocessing.connection import wait
from pathlib import Path

import pytest
from click.testing import CliRunner

from hashi_print.bank.executors import (
    BATCH_TARGET_SECONDS,
    MAX_BATCH,
    DaskCluster,
    _stop,
    batch_size,
    take,
    worker_processes,
)
from hashi_print.bank.fill import fill, make_entry
from hashi_print.bank.store import open_bank
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


def slowly(task, spec, index):
    """Run task(spec, index) a fifth of a second late (the result is the same)."""
    time.sleep(0.2)
    return task(spec, index)


class KillingOneWorker:
    """A Dask executor that kills (SIGKILL) a worker process busy with a batch once the first result is in."""

    def __init__(self, cluster: distributed.LocalCluster):
        self.cluster = cluster
        self.inner = DaskCluster(cluster.scheduler_address)
        self.killed: list[tuple[str, int, int]] = []  # (worker, pid, batches it was running)

    def describe(self) -> str:
        return self.inner.describe()

    def completed(self, task, spec, next_index):
        # each puzzle made slower, so that batches are still running when the first one is back
        for n, pair in enumerate(self.inner.completed(partial(slowly, task), spec, next_index)):
            if n == 0:
                self.kill_a_busy_worker()
            yield pair

    def kill_a_busy_worker(self) -> None:
        with distributed.Client(self.cluster.scheduler_address, set_as_default=False) as client:
            busy = {w: len(keys) for w, keys in client.processing().items() if keys}
            worker = max(busy, key=busy.__getitem__)
            pid = client.run(os.getpid, workers=[worker])[worker]
        os.kill(pid, signal.SIGKILL)
        self.killed.append((worker, pid, busy[worker]))


def test_a_worker_killed_mid_fill_still_gives_the_complete_bank_of_the_local_pool(small_bank, tmp_path):
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        executor = KillingOneWorker(cluster)
        with closing(open_bank(tmp_path / "dask.sqlite", create=True)) as conn:
            report = fill(conn, SMALL, SMALL_COUNT, executor)
    assert len(executor.killed) == 1 and executor.killed[0][2] >= 1, executor.killed
    assert report.added == SMALL_COUNT
    assert listing(tmp_path / "dask.sqlite") == listing(small_bank)
    # independent of the fill: every stored puzzle is the one its index makes, in index order
    stored = listing(tmp_path / "dask.sqlite")
    assert [row[1] for row in stored] == [make_entry(SMALL, row[0]).tatham_id for row in stored]


def test_batches_take_indices_in_the_order_they_are_handed_out():
    handed = iter([3, 4, 5, 6, 7])
    assert take(lambda: next(handed, None), 3) == (3, 4, 5)
    assert take(lambda: next(handed, None), 3) == (6, 7)
    assert take(lambda: None, 3) == ()
    assert batch_size(0.020) == round(BATCH_TARGET_SECONDS / 0.020)
    assert batch_size(10.0) == 1 and batch_size(0.0) == MAX_BATCH
    assert batch_size(0.020, 1.0) == 50 and batch_size(0.020, 0) == 1  # 0: one puzzle per task


def _pid(_: int) -> int:
    return os.getpid()


def _start_then_sleep(path) -> None:
    path.touch()
    time.sleep(30)


def _all_ended(processes, seconds: float) -> bool:
    """Whether every process has exited within `seconds`, told by its exit sentinel.

    Not by is_alive(): the pool's own thread reaps its workers as it shuts down, and a join racing it
    can see waitpid fail and leave a dead worker reported alive (seen once in a full run)."""
    waiting = {p.sentinel for p in processes}
    deadline = time.monotonic() + seconds
    while waiting and time.monotonic() < deadline:
        waiting -= set(wait(list(waiting), timeout=max(0.0, deadline - time.monotonic())))
    return not waiting


def test_the_local_pools_worker_processes_are_found_and_can_be_ended(tmp_path):
    # worker_processes reads ProcessPoolExecutor's private `_processes`: this fails if Python moves it.
    pool = ProcessPoolExecutor(2)
    try:
        pids = set(pool.map(_pid, range(8)))
        processes = worker_processes(pool)
        assert {p.pid for p in processes} >= pids and all(p.is_alive() for p in processes)
        started = tmp_path / "started"
        busy = pool.submit(_start_then_sleep, started)
        while not started.exists():  # the task must be running, not just queued, when the pool stops
            time.sleep(0.01)
        _stop(pool)
        assert _all_ended(processes, 10.0)
        assert busy.cancelled() or busy.exception(timeout=10) is not None
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def test_the_worker_settings_docs_advise_are_read_by_dask():
    # docs/bank.md advises environment variables for the workers: each must name a setting Dask has,
    # and Dask must read the value given.
    doc = (Path(__file__).resolve().parents[2] / "docs" / "bank.md").read_text()
    advised = dict(re.findall(r"^export (DASK_\w+)=(\S+)$", doc, re.M))
    assert len(advised) == 4
    keys = {name: name.removeprefix("DASK_").lower().replace("__", ".") for name in advised}
    probe = ("import dask, distributed, json, sys\n"
             "print(json.dumps([str(dask.config.get(k)) for k in sys.argv[1:]]))")
    plain = {k: v for k, v in os.environ.items() if not k.startswith("DASK_")}
    default = subprocess.run([sys.executable, "-c", probe, *keys.values()], capture_output=True, text=True,
                             env=plain, check=True)
    assert len(json.loads(default.stdout)) == 4  # every setting exists (an unknown one raises KeyError)
    got = subprocess.run([sys.executable, "-c", probe, *keys.values()], capture_output=True, text=True,
                         env={**os.environ, **advised}, check=True)
    assert json.loads(got.stdout) == list(advised.values())
    assert json.loads(got.stdout) != json.loads(default.stdout)
