"""Where the generator runs: a pool of local processes, or the workers of a Dask cluster.

Both keep a bounded number of tasks in flight, ask `next_index` for more whenever a slot is free, and
yield (index, result) pairs in the order the tasks finish; the caller puts them back in index order.
The Dask workers get indices in batches, one task per batch; a result depends only on its index, so
batching changes nothing stored.
Dask is imported only by `DaskCluster`, so the local pool works without it.
"""

from __future__ import annotations

import logging
import multiprocessing.process
import os
import re
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Hashable
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, TypeVar

from hashi_print.errors import BankError

if TYPE_CHECKING:
    from distributed import Client

log = logging.getLogger(__name__)

Spec = TypeVar("Spec")
Result = TypeVar("Result")
NextIndex = Callable[[], int | None]
MAX_WORKERS = 256
# A pool whose workers die this many times in a row without finishing a task is not restarted again.
MAX_RESTARTS = 3
ORPHAN_CHECK_SECONDS = 1.0
# A Dask task runs a batch of puzzles: long enough that scheduling is small beside it, short enough that
# the last batches share out evenly and a lost worker costs little. The first batch measures the speed.
BATCH_TARGET_SECONDS = 0.25
FIRST_BATCH = 4
MAX_BATCH = 64


def default_workers() -> int:
    """Return the number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def _worker_setup(parent: int) -> None:
    """Leave Ctrl-C to the parent (it saves the finished puzzles, then stops us), and die with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True).start()


def _exit_with_parent(parent: int) -> None:
    """End this worker once its parent is gone (killed with -9, say) instead of waiting forever."""
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK_SECONDS)
    os._exit(1)


def _new_pool(workers: int) -> ProcessPoolExecutor:
    """Start a pool of worker processes that ignore Ctrl-C and end with this process."""
    return ProcessPoolExecutor(workers, initializer=_worker_setup, initargs=(os.getpid(),))


def _stop(pool: ProcessPoolExecutor) -> None:
    """Shut a pool down at once, ending the workers' running tasks too."""
    terminate = getattr(pool, "terminate_workers", None)
    # Before Python 3.14 a running task cannot be cancelled; end its process instead. The processes are
    # looked up first: shutdown() forgets them, even with wait=False.
    processes = worker_processes(pool) if terminate is None else []
    pool.shutdown(wait=False, cancel_futures=True)
    if terminate is not None:
        terminate()
    # SIGKILL, not SIGTERM: a worker forked from a process that handles SIGTERM in Python inherits that
    # handler, and a sleeping or blocked task then outlives terminate().
    for process in processes:
        process.kill()


def worker_processes(pool: ProcessPoolExecutor) -> list[multiprocessing.process.BaseProcess]:
    """Return a pool's live worker processes (Python before 3.14 has no public way to reach them).

    The one use of the executor's private `_processes`; tests/bank/test_bank_dask.py fails when it moves.
    """
    processes = pool._processes  # noqa: SLF001 - no public API before Python 3.14's terminate_workers()
    if processes is None:  # a pool shut down with wait=True forgets its processes
        return []
    return list(processes.values())


class LocalPool:
    """Processes on this machine, `workers` of them (default: every core)."""

    def __init__(self, workers: int | None = None):
        workers = default_workers() if workers is None else workers
        if not 1 <= workers <= MAX_WORKERS:
            raise BankError(f"--workers {workers}: use 1 to {MAX_WORKERS} processes")
        self.workers = workers

    def describe(self) -> str:
        """Say where the work runs."""
        return f"{self.workers} local worker{'s' if self.workers != 1 else ''}"

    def completed(self, task: Callable[[Spec, int], Result], spec: Spec,
                  next_index: NextIndex) -> Generator[tuple[int, Result]]:
        """Run task(spec, index) for each index handed out, yielding (index, result) as they finish.

        When a worker process dies (killed, out of memory), the pool is restarted and the tasks that
        were in flight run again: their results do not depend on which process computes them.
        """
        window = 2 * self.workers
        retry: deque[int] = deque()
        pool = _new_pool(self.workers)
        inflight: dict[Future[Result], int] = {}
        restarts = 0
        finished = False
        try:
            while True:
                # a worker may die at any moment, so submitting can find the pool broken too
                try:
                    while len(inflight) < window:
                        index = retry.popleft() if retry else next_index()
                        if index is None:
                            break
                        try:
                            inflight[pool.submit(task, spec, index)] = index
                        except BrokenProcessPool:
                            retry.appendleft(index)
                            raise
                    if not inflight:
                        finished = True
                        return
                    done, _ = wait(inflight, return_when=FIRST_COMPLETED)
                    results = [(inflight[f], f.result()) for f in sorted(done, key=inflight.__getitem__)]
                except BrokenProcessPool:
                    restarts += 1
                    if restarts > MAX_RESTARTS:
                        raise BankError("the worker processes keep dying (out of memory?); the puzzles "
                                        "finished so far are stored, run the same command to go on") from None
                    log.warning("a worker process died; restarting the pool and redoing %d puzzle(s)",
                                len(inflight) + len(retry))
                    retry = deque(sorted([*retry, *inflight.values()]))
                    inflight.clear()
                    _stop(pool)
                    pool = _new_pool(self.workers)
                    continue
                restarts = 0
                for future in done:
                    del inflight[future]
                yield from results
        finally:
            if finished:
                pool.shutdown()
            else:
                _stop(pool)


def take(next_index: NextIndex, size: int) -> tuple[int, ...]:
    """Take up to `size` indices in the order they are handed out (fewer when they run out)."""
    batch: list[int] = []
    while len(batch) < size and (index := next_index()) is not None:
        batch.append(index)
    return tuple(batch)


def run_batch(task: Callable[[Spec, int], Result], spec: Spec,
              batch: tuple[int, ...]) -> tuple[list[Result], float]:
    """Run task(spec, index) for each index of a batch on one worker; return the results and the seconds."""
    started = time.perf_counter()
    results = [task(spec, index) for index in batch]
    return results, time.perf_counter() - started


def batch_size(seconds_each: float, target: float = BATCH_TARGET_SECONDS) -> int:
    """The number of tasks that take about `target` seconds at `seconds_each` per task."""
    if seconds_each <= 0:
        return MAX_BATCH
    return max(1, min(MAX_BATCH, round(target / seconds_each)))


class DaskCluster:
    """The workers of a running Dask distributed cluster, reached through its scheduler's address."""

    def __init__(self, address: str, timeout: float = 20.0, batch_seconds: float = BATCH_TARGET_SECONDS):
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise BankError("--scheduler needs Dask's distributed scheduler; install it with "
                            "pip install 'hashi-print[cluster]'") from None
        if "://" not in address:
            address = f"tcp://{address}"
        if not re.fullmatch(r"(tcp|tls|inproc|ucx|ws|wss)://[\w.\-\[\]:]+:\d{1,5}", address):
            # Checked here: Dask's Client, given a bad address, waits for its own timeout at exit.
            raise BankError(f"--scheduler {address!r}: expected an address like tcp://HOST:PORT")
        self.address = address
        self.timeout = timeout
        self.batch_seconds = batch_seconds

    def describe(self) -> str:
        """Say where the work runs."""
        return f"the Dask cluster at {self.address}"

    def _connect(self) -> Client:
        """Return a client of the scheduler, or raise BankError naming the address."""
        from distributed import Client

        try:
            return Client(self.address, timeout=self.timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as err:
            raise BankError(f"cannot reach the Dask scheduler at {self.address}: {err}") from None

    def completed(self, task: Callable[[Spec, int], Result], spec: Spec,
                  next_index: NextIndex) -> Generator[tuple[int, Result]]:
        """Run task(spec, index) on the cluster's workers, yielding (index, result) as they finish.

        Indices go out in batches, one Dask task each, sized to take about `batch_seconds`: a
        single puzzle takes milliseconds, less than Dask spends scheduling it. The scheduler itself
        reruns the batches of a worker that dies; losing the scheduler ends the run.
        """
        from distributed import as_completed

        client = self._connect()
        # Losing the scheduler is reported once, by the BankError below, not by Dask's own traceback.
        dask_log = logging.getLogger("distributed.client")
        level = dask_log.level
        dask_log.setLevel(logging.CRITICAL)
        try:
            window = 2 * max(1, sum(client.nthreads().values()))
            inflight: dict[Hashable, tuple[int, ...]] = {}
            running = as_completed(loop=client.loop)
            size = FIRST_BATCH if self.batch_seconds > 0 else 1  # 0: one task per puzzle

            def top_up() -> None:
                """Submit batches until the window is full or no index is handed out."""
                while len(inflight) < window and (batch := take(next_index, size)):
                    future = client.submit(run_batch, task, spec, batch, pure=False)
                    inflight[future.key] = batch
                    running.add(future)

            top_up()
            try:
                for future in running:
                    batch = inflight.pop(future.key)
                    results, seconds = future.result()
                    size = batch_size(seconds / len(batch), self.batch_seconds)
                    yield from zip(batch, results, strict=True)
                    top_up()
            except (CancelledError, OSError, TimeoutError) as err:
                raise BankError(f"lost the Dask cluster at {self.address} ({type(err).__name__}); the "
                                "puzzles finished so far are stored, run the same command to go on") from None
        finally:
            client.close()
            dask_log.setLevel(level)
