"""How the command line shows long work on stderr: rich progress bars, started so that Ctrl-C stays clean.

The jobs report progress through plain callbacks; these classes are such callbacks for a terminal.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterable, Iterator
from types import TracebackType
from typing import Protocol, TypeVar

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from hashi_print.bank.store import BankStats
from hashi_print.game.scoring import GameScore

T = TypeVar("T")


class FillState(Protocol):
    """What a bank fill reports after each batch (bank.store.FillState has these, read-only)."""

    @property
    def stored(self) -> int:
        """Puzzles the fill has stored so far."""

    @property
    def duplicates(self) -> int:
        """Puzzles it found already in the bank."""


def with_progress(items: Iterable[T], total: int, what: str = "generating") -> Iterator[T]:
    """Yield the items, showing a progress bar on stderr when there is more than one."""
    with ProgressBar(what) as bar:
        bar.update(0, total)
        for done, item in enumerate(items, start=1):
            yield item
            bar.update(done, total)


def start_holding_ctrl_c(progress: Progress) -> None:
    """Start a rich progress display with Ctrl-C held back until it is fully started."""
    # rich marks a display started before it registers it with the console; a Ctrl-C in between left a
    # display that stop() could not undo (IndexError), so the user saw a traceback instead of exit 130.
    # Python runs signal handlers in the main thread only, so swapping the handler holds the Ctrl-C back
    # whichever thread the system hands it to (masking the signal would not, with worker threads about).
    if threading.current_thread() is not threading.main_thread():
        progress.start()
        return
    held: list[int] = []
    before = signal.signal(signal.SIGINT, lambda signum, _frame: held.append(signum))
    try:
        progress.start()
    finally:
        signal.signal(signal.SIGINT, before)
    if held and callable(before):
        before(signal.SIGINT, None)
    elif held and before == signal.SIG_DFL:
        signal.raise_signal(signal.SIGINT)


class FillBar:
    """A rich progress bar on stderr for a fill: stored of wanted, rate of this run, time left."""

    def __init__(self, total: int, what: str):
        self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"),
                                 TimeRemainingColumn(), console=Console(stderr=True), redirect_stdout=False,
                                 redirect_stderr=False)
        self.task = self.progress.add_task(what, total=total, rate="")
        self.shown = False
        self.started = 0.0

    def __enter__(self) -> FillBar:
        self.started = time.perf_counter()
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.progress.stop()

    def update(self, state: FillState, added: int) -> None:
        """Show how many puzzles the fill holds and how fast this run adds them (from the first batch on)."""
        if not self.shown:
            self.shown = True
            start_holding_ctrl_c(self.progress)
        rate = added / max(time.perf_counter() - self.started, 1e-9)
        dups = f", {state.duplicates} dup" if state.duplicates else ""
        self.progress.update(self.task, completed=state.stored, rate=f"{rate:.1f} puzzles/s{dups}")


class RichProgress:
    """A rich progress bar on stderr for batches of games: `update(done, total)`, `describe(text)`."""

    def __init__(self, description: str = "simulating"):
        self._bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                             TimeElapsedColumn(), console=Console(stderr=True), transient=True)
        self._bar.start()
        self._task = self._bar.add_task(description, total=None)

    def update(self, done: int, total: int) -> None:
        """Move the bar to `done` of `total` games."""
        self._bar.update(self._task, completed=done, total=total)

    def describe(self, text: str) -> None:
        """Show what is being simulated now."""
        self._bar.update(self._task, description=text)

    def stop(self) -> None:
        """Remove the bar."""
        self._bar.stop()


class ProgressBar:
    """A transient bar on stderr fed by a job's `progress(done, total)`; shown for two items or more."""

    def __init__(self, what: str):
        self.what = what
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._bar is not None:
            self._bar.stop()

    def update(self, done: int, total: int) -> None:
        """Show `done` of `total`, starting the bar the first time there is more than one item."""
        if total <= 1:
            return
        if self._bar is None:
            self._bar = Progress(console=Console(stderr=True), transient=True, redirect_stdout=False,
                                 redirect_stderr=False)
            self._bar.start()
            self._task = self._bar.add_task(self.what, total=total)
        assert self._task is not None
        self._bar.update(self._task, completed=done, total=total)


def print_score_table(result: GameScore) -> None:
    """Print a game's score table, the winners, and what made the scoring doubtful."""
    table = Table(title="Hashi scores")
    for col in ("player", "rules", "circled", "red", "blue", "six", "total"):
        table.add_column(col, justify="left" if col in ("player", "rules") else "right")
    for player in result.players:
        table.add_row(*player.table_row())
    console = Console(width=100)
    console.print(table)
    console.print(f"winner: {', '.join(result.winners) or 'none (every player broke a rule)'}")
    for problem in result.problems:
        console.print(f"warning: {problem}", markup=False)
    for note in result.unchecked:
        console.print(f"not checkable: {note}", markup=False)


def print_bank_stats(db: str, stats: BankStats) -> None:
    """Print what a bank holds by size and grade, and the books made from it."""
    table = Table(title=f"{db}: {stats.puzzles} puzzles, {stats.puzzles - stats.used} unused")
    for col in ("size", "grade", "puzzles", "used", "unused"):
        table.add_column(col, justify="left" if col in ("size", "grade") else "right")
    for g in stats.groups:
        table.add_row(f"{g.cols}x{g.rows}", g.grade, str(g.puzzles), str(g.used), str(g.puzzles - g.used))
    console = Console(width=100)
    console.print(table)
    for b in stats.books:
        console.print(f"book {b.name!r}: {b.puzzles} puzzles ({b.made_at})", markup=False)
