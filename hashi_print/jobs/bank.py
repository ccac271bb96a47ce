"""The bank fill job: generate puzzles into a bank on local processes or a Dask cluster."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass

from hashi_print.bank.executors import DaskCluster, LocalPool
from hashi_print.bank.fill import FillReport, check_count, fill, make_spec
from hashi_print.bank.store import FillState, fill_state, open_bank
from hashi_print.puzzle.book import parse_size

FillProgress = Callable[[FillState, int], None]


@dataclass(frozen=True)
class FillRequest:
    """What `hashi-print bank fill` asks for: the bank, the puzzles wanted, and where to compute them."""

    db: str
    count: int
    size: str = "10x10"
    difficulty: str = "medium"
    seed: int = 1
    density: str | None = None
    workers: int | None = None
    scheduler: str | None = None


@dataclass(frozen=True)
class FillResult:
    """What the fill holds now and what this run did, and where it ran."""

    report: FillReport
    cols: int
    rows: int
    ran_on: str


class FillInterrupted(KeyboardInterrupt):
    """Ctrl-C during a fill, after the puzzles ready in order were stored; `kept`: how many the fill holds."""

    def __init__(self, kept: int):
        super().__init__(kept)
        self.kept = kept


def _ignore(state: FillState, added: int) -> None:
    """Report nothing."""


def fill_bank(request: FillRequest, progress: FillProgress = _ignore) -> FillResult:
    """Bring the fill up to `count` puzzles; `progress(state, added)` is called after each stored batch."""
    spec = make_spec(*parse_size(request.size), request.difficulty, request.seed, request.density)
    check_count(request.count)
    executor = DaskCluster(request.scheduler) if request.scheduler else LocalPool(request.workers)
    with closing(open_bank(request.db, create=True)) as conn:
        try:
            report = fill(conn, spec, request.count, executor, progress=progress)
        except KeyboardInterrupt:
            raise FillInterrupted(fill_state(conn, spec).stored) from None
    return FillResult(report, spec.cols, spec.rows, executor.describe())
