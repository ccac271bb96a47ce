"""A pool of worker processes for the web app's CPU work, with a time limit on every job."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from hashi_print.errors import HashiError

log = logging.getLogger(__name__)


class TooSlow(HashiError):
    """A job ran past the time limit and was stopped."""


class WorkPool:
    """Run picklable functions in worker processes so the event loop never computes."""

    def __init__(self, workers: int, seconds: float):
        self.workers = max(1, workers)
        self.seconds = seconds
        self._pool = ProcessPoolExecutor(self.workers)

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
        self._pool = ProcessPoolExecutor(self.workers)
        # The executor cannot cancel a running job; ending its processes is the only way to free the core.
        for proc in list(getattr(pool, "_processes", {}).values()):
            proc.kill()
        pool.shutdown(wait=False, cancel_futures=True)
        log.warning("worker pool restarted after a job ran too long")

    def close(self) -> None:
        """Stop the workers."""
        self._pool.shutdown(wait=False, cancel_futures=True)
