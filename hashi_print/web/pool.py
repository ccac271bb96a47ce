"""Worker processes for the web app's CPU work: each job has its own time limit and, over it, ends alone.

Every worker is a process of its own with a pipe to the server. A job is sent to a free worker and the
clock starts then (time in the queue does not count); a job over its limit has its worker killed and
replaced, and no other job notices. Small jobs (a 7x7 puzzle, a solo turn) have workers of their own
that large ones never take, so a few slow requests cannot hold up everyone's. The queue is bounded:
when it is full a request is refused at once (the web app answers 503 with Retry-After).
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import math
import multiprocessing
import os
import signal
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TypeVar

from hashi_print.errors import HashiError

log = logging.getLogger(__name__)
T = TypeVar("T")


class TooSlow(HashiError):
    """A job ran past its time limit or memory and was stopped."""


class Busy(HashiError):
    """The queue is full or the server is stopping: try again after `retry_after` seconds."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


class JobFailed(Exception):
    """A job raised an error that is not bad input: a bug in our code (the worker's traceback)."""


@dataclass(eq=False)
class _Worker:
    """One worker process, the server's end of its pipe, and whether it takes small jobs only."""

    proc: BaseProcess
    conn: Connection
    small_only: bool


class WorkPool:
    """Run picklable functions in worker processes so the event loop never computes."""

    def __init__(self, workers: int, seconds: float, preload: tuple[str, ...] = (), *, small_workers: int = 1,
                 queue: int = 32, memory_mb: int | None = None):
        self.workers = max(1, workers)
        self.small_workers = max(0, small_workers)
        self.seconds = seconds
        self.queue = max(1, queue)
        self.preload = preload
        self.memory_mb = memory_mb
        self._context = multiprocessing.get_context("spawn")
        self._free: list[_Worker] = []
        self._alive: set[_Worker] = set()
        self._waiting: deque[tuple[asyncio.Future[_Worker], bool]] = deque()
        self._tasks: set[asyncio.Task[None]] = set()
        self._started = False
        self._closed = False

    @property
    def retry_after(self) -> int:
        """Seconds a refused client should wait: about one job's time limit."""
        return max(1, math.ceil(self.seconds))

    def _start(self) -> None:
        """Start every worker once (on warm-up or the first job)."""
        if not self._started:
            self._started = True
            for n in range(self.workers + self.small_workers):
                self._spawn(small_only=n >= self.workers)

    async def warm(self) -> None:
        """Start every worker now and wait until each has imported its modules (a moment)."""
        self._start()
        for _ in range(600):
            if len(self._free) == len(self._alive) or self._closed:
                return
            await asyncio.sleep(0.05)

    def _spawn(self, small_only: bool) -> None:
        """Start one worker; it joins the free ones once it says it is ready."""
        # Spawned, not forked: a forked worker would inherit the listening socket and the server's
        # signal handlers, and outlive the server holding its port.
        ours, theirs = self._context.Pipe()
        # The workers that take large jobs run at a lower priority, so the event loop and the quick
        # jobs get a core first when a few slow solves keep the machine busy.
        proc = self._context.Process(target=_worker_main, args=(theirs, os.getpid(), self.preload,
                                                                 self.memory_mb, 0 if small_only else 10),
                                     daemon=True)
        proc.start()
        theirs.close()
        worker = _Worker(proc, ours, small_only)
        self._alive.add(worker)
        self._background(self._await_ready(worker))

    def _background(self, coro: Coroutine[object, object, None]) -> None:
        """Run a coroutine on the loop, keeping a reference until it ends."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _await_ready(self, worker: _Worker) -> None:
        """Hand a new worker out once it has started; a worker that dies starting is logged and dropped."""
        try:
            await _readable(worker.conn, 120.0)
            ready = worker.conn.recv() == "ready"
        except (TimeoutError, EOFError, OSError):
            ready = False
        if ready:
            self._release(worker)
        elif not self._closed:
            log.error("a worker process failed to start")
            self._end(worker)

    async def run(self, func: Callable[..., T], *args: object, small: bool = False) -> T:
        """Run func(*args) in a worker and return its result; stop it after the time limit.

        `small` says the job is bounded and quick (it may also use the workers kept for such jobs).
        """
        if self._closed:
            raise Busy("the server is stopping; try again in a moment", self.retry_after)
        self._start()
        worker = await self._acquire(small)
        try:
            worker.conn.send((func, args))
            await _readable(worker.conn, self.seconds)
            kind, value = worker.conn.recv()
        except TimeoutError:
            self._replace(worker)
            raise TooSlow(f"stopped after {self.seconds:g} s; try a smaller puzzle") from None
        except (EOFError, OSError):
            self._replace(worker)
            if self._closed:
                raise Busy("the server is stopping; try again in a moment", self.retry_after) from None
            raise TooSlow("the worker stopped (out of memory?); try a smaller puzzle") from None
        except BaseException:
            # Cancelled (the client went away) or a job that could not be sent: the worker may be busy.
            self._replace(worker)
            raise
        self._release(worker)
        if kind == "refused":
            raise HashiError(value)
        if kind == "failed":
            raise JobFailed(value)
        result: T = value
        return result

    async def _acquire(self, small: bool) -> _Worker:
        """A free worker that may take this job, waiting in the bounded queue for one."""
        for worker in sorted(self._free, key=lambda w: not w.small_only):
            if small or not worker.small_only:
                self._free.remove(worker)
                return worker
        if len(self._waiting) >= self.queue:
            raise Busy("the server is busy; try again in a moment", self.retry_after)
        waiting: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        entry = (waiting, small)
        self._waiting.append(entry)
        try:
            return await waiting
        except asyncio.CancelledError:
            if entry in self._waiting:
                self._waiting.remove(entry)
            elif entry[0].done() and not entry[0].cancelled():
                self._release(entry[0].result())
            raise

    def _release(self, worker: _Worker) -> None:
        """Give a worker to the first waiting job it may take, else put it with the free ones."""
        if self._closed or worker not in self._alive:
            return
        for entry in self._waiting:
            future, small = entry
            if small or not worker.small_only:
                self._waiting.remove(entry)
                future.set_result(worker)
                return
        self._free.append(worker)

    def _replace(self, worker: _Worker) -> None:
        """End a worker that ran too long (or died) and start another in its place."""
        self._end(worker)
        if not self._closed:
            log.warning("a job was stopped; its worker is replaced")
            self._spawn(worker.small_only)

    def _end(self, worker: _Worker, busy: bool = False) -> None:
        """Kill a worker and reap it in the background; a busy one's job sees its pipe end and stops."""
        self._alive.discard(worker)
        if worker in self._free:
            self._free.remove(worker)
        if not busy:
            worker.conn.close()
        if worker.proc.is_alive():
            worker.proc.kill()
        threading.Thread(target=worker.proc.join, args=(5.0,), daemon=True).start()

    def close(self) -> None:
        """Stop the workers, busy or not; waiting jobs are refused as the server stops."""
        self._closed = True
        while self._waiting:
            future, _small = self._waiting.popleft()
            if not future.done():
                future.set_exception(Busy("the server is stopping; try again in a moment", self.retry_after))
        for worker in list(self._alive):
            self._end(worker, busy=worker not in self._free)


async def _readable(conn: Connection, seconds: float) -> None:
    """Wait until the pipe has a message (or is closed), at most `seconds`; raise TimeoutError after."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()
    fd = conn.fileno()

    def wake() -> None:
        """Mark the pipe readable (once)."""
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(fd, wake)
    try:
        await asyncio.wait_for(ready, seconds)
    finally:
        loop.remove_reader(fd)


def _worker_main(conn: Connection, parent: int, preload: tuple[str, ...], memory_mb: int | None,
                 nice: int = 0) -> None:
    """A worker: run jobs from the pipe one at a time and send back ("ok" | "refused" | "failed", value)."""
    # Ctrl-C in the terminal is the server's to handle: the worker leaves the terminal's process group.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.setpgrp()
    if nice:
        os.nice(nice)
    if memory_mb:
        import resource

        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    for name in preload:
        importlib.import_module(name)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    conn.send("ready")
    while True:
        try:
            func, args = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(_outcome(func, args))


def _outcome(func: Callable[..., object], args: tuple[object, ...]) -> tuple[str, object]:
    """Run one job: its result, the one-line message of bad input, or the traceback of a bug."""
    try:
        return "ok", func(*args)
    except HashiError as err:
        return "refused", " ".join(str(err).split())
    except MemoryError:
        return "refused", "out of memory; try a smaller puzzle"
    except Exception:
        return "failed", traceback.format_exc()


def _watch_parent(parent: int) -> None:
    """End this worker once the server is gone (even killed)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)
