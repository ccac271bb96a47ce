"""A pool of worker processes for the web app's CPU work, with a time limit on every job."""

from __future__ import annotations

import asyncio
import importlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from hashi_print.errors import HashiError

log = logging.getLogger(__name__)


class TooSlow(HashiError):
    """A job ran past the time limit and was stopped."""


class WorkPool:
    """Run picklable functions in worker processes so the event loop never computes."""

    def __init__(self, workers: int, seconds: float, preload: tuple[str, ...] = ()):
        self.workers = max(1, workers)
        self.seconds = seconds
        self.preload = preload
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        """A fresh executor of `workers` processes."""
        # Spawned, not forked: a forked worker would inherit the listening socket and the server's
        # signal handlers, and outlive the server holding its port.
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_start_worker, initargs=(os.getpid(), self.preload))

    async def warm(self) -> None:
        """Start every worker now (a spawned worker takes a moment), not on the first requests."""
        loop = asyncio.get_running_loop()
        starts = [loop.run_in_executor(self._pool, time.sleep, 0.2) for _ in range(self.workers)]
        await asyncio.gather(*starts)

    async def run(self, func: Callable, *args):
        """Run func(*args) in a worker and return its result; stop it after the time limit."""
        loop = asyncio.get_running_loop()
        pool = self._pool
        try:
            return await asyncio.wait_for(loop.run_in_executor(pool, func, *args), self.seconds)
        except TimeoutError:
            self._replace(pool)
            raise TooSlow(f"stopped after {self.seconds:g} s; try a smaller puzzle") from None
        except BrokenProcessPool:
            self._replace(pool)
            raise TooSlow("the worker stopped (out of time or memory); try a smaller puzzle") from None

    def _replace(self, pool: ProcessPoolExecutor) -> None:
        """Start a fresh pool and end the old one's processes, which may still be busy with the slow job."""
        if pool is not self._pool:
            return
        self._pool = self._new_pool()
        _end(pool)
        for _ in range(self.workers):
            self._pool.submit(time.sleep, 0.2)
        log.warning("worker pool restarted after a job ran too long")

    def close(self) -> None:
        """Stop the workers, busy or not, and wait until they are gone."""
        _end(self._pool, wait=True)


def _end(pool: ProcessPoolExecutor, wait: bool = False) -> None:
    """End an executor's processes at once; the executor cannot cancel a job that is running."""
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        proc.kill()
    pool.shutdown(wait=wait, cancel_futures=True)


def _start_worker(parent: int, preload: tuple[str, ...]) -> None:
    """In a new worker: import the modules its jobs need, and end it once the server is gone (even killed)."""
    for name in preload:
        importlib.import_module(name)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()
