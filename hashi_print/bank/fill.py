"""Filling a bank: puzzle i of a fill comes from its own seed, derived from (seed, i), on any worker.

Because a puzzle depends only on its index, the workers may finish in any order: results wait until
every lower index is in, then go into the bank in index order, in batches of one transaction each.
So the same seed gives the same bank whatever the number of workers, and an interrupted fill loses
only what was in flight: running it again continues at the first index not stored.
"""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
import time
from collections.abc import Callable, Generator
from contextlib import closing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from hashi_print.bank.keys import canonical_key
from hashi_print.bank.store import Entry, FillSpec, FillState, fill_state, store_batch
from hashi_print.errors import BankError
from hashi_print.puzzle.deduce import TECHNIQUES, deduce
from hashi_print.puzzle.formats import format_tatham_id
from hashi_print.puzzle.generate import check_request, generate, resolve_density
from hashi_print.puzzle.model import Grade

if TYPE_CHECKING:
    from hashi_print.bank.executors import NextIndex

MAX_COUNT = 10_000_000
MAX_SEED = 2**63 - 1
# A batch is committed when this many puzzles are ready in order, or after BATCH_SECONDS.
BATCH_SIZE = 64
BATCH_SECONDS = 1.0
# A fill that meets only copies of stored puzzles for this many indices in a row gives up.
MAX_DUPLICATES_IN_A_ROW = 1000

Progress = Callable[[FillState, int], None]  # the fill now, and how many this run added


class Executor(Protocol):
    """Runs a task for each index it is handed and yields (index, result) as they finish."""

    def describe(self) -> str:
        """Say where the work runs."""

    def completed(self, task: Callable[[FillSpec, int], Entry], spec: FillSpec,
                  next_index: NextIndex) -> Generator[tuple[int, Entry]]:
        """Yield (index, result) pairs in the order the tasks finish."""


@dataclass(frozen=True)
class FillReport:
    """The outcome of one run of a fill: where it stands now, and what this run added."""

    state: FillState
    added: int
    duplicates: int
    seconds: float

    @property
    def rate(self) -> float:
        """Puzzles stored per second in this run."""
        return self.added / self.seconds if self.seconds > 0 else 0.0


def make_spec(cols: int, rows: int, grade: str, seed: int, density: float | str | None = None) -> FillSpec:
    """Check a fill request and return its spec, or raise a HashiError saying what is wrong."""
    check_request(cols, rows, grade)
    if not 0 <= seed <= MAX_SEED:
        raise BankError(f"--seed {seed}: use a whole number from 0 to {MAX_SEED}")
    return FillSpec(cols, rows, Grade(grade), resolve_density(density), seed)


def check_count(count: int) -> None:
    """Raise BankError unless `count` is a number of puzzles a fill can be asked for."""
    if not 1 <= count <= MAX_COUNT:
        raise BankError(f"--count {count}: use 1 to {MAX_COUNT}")


def puzzle_seed(seed: int, index: int) -> int:
    """Derive the seed of puzzle `index` of a fill from the fill's seed alone."""
    digest = hashlib.blake2b(f"hashi-bank/{seed}/{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def make_entry(spec: FillSpec, index: int) -> Entry:
    """Generate, verify and grade puzzle `index` of a fill (this runs on the workers)."""
    rng = random.Random(puzzle_seed(spec.seed, index))
    made = generate(spec.cols, spec.rows, spec.grade, rng, spec.density, version=spec.generator)
    used = deduce(made.puzzle, explain=False).techniques
    techniques = tuple(t for t in TECHNIQUES if t in used)
    islands = json.dumps([[i.row, i.col, i.clue] for i in made.puzzle.islands], separators=(",", ":"))
    solution = json.dumps(made.solution.as_lists(), separators=(",", ":"))
    return Entry(index, spec.cols, spec.rows, made.grade, techniques, islands, solution, made.seed,
                 format_tatham_id(made.puzzle), canonical_key(made.puzzle))


def fill(conn: sqlite3.Connection, spec: FillSpec, count: int, executor: Executor,
         progress: Progress | None = None) -> FillReport:
    """Bring the fill of `spec` up to `count` stored puzzles, continuing where it stopped.

    Duplicates under symmetry (of this fill or anything else in the bank) are skipped and the fill
    goes on to later indices. On any interruption the puzzles ready in order are stored first.
    """
    check_count(count)
    started = time.perf_counter()
    state = first = fill_state(conn, spec)
    ready: dict[int, Entry] = {}
    issued = state.next_index
    last_commit = time.monotonic()
    last_new = state.next_index

    def next_index() -> int | None:
        """Hand out the next index while the outstanding ones may not yet make up the count."""
        nonlocal issued
        if state.stored + (issued - state.next_index) >= count:
            return None
        issued += 1
        return issued - 1

    def flush(force: bool) -> None:
        """Store the entries that continue the fill in order, if enough are ready or it is time."""
        nonlocal state, last_commit, last_new
        batch: list[Entry] = []
        while state.next_index + len(batch) in ready:
            batch.append(ready[state.next_index + len(batch)])
        if not batch:
            return
        everything = state.next_index + len(batch) == issued
        if force or everything or len(batch) >= BATCH_SIZE or time.monotonic() - last_commit >= BATCH_SECONDS:
            for entry in batch:
                del ready[entry.index]
            before, state = state, store_batch(conn, state, batch)
            last_commit = time.monotonic()
            if state.stored > before.stored:
                last_new = state.next_index
            elif state.next_index - last_new >= MAX_DUPLICATES_IN_A_ROW:
                raise BankError(f"the last {state.next_index - last_new} puzzles were all copies of stored "
                                "ones; this size and grade seem exhausted, try a larger grid")
            if progress is not None:
                progress(state, state.stored - first.stored)

    try:
        while state.stored < count:
            with closing(executor.completed(make_entry, state.spec, next_index)) as results:
                for index, entry in results:
                    ready[index] = entry
                    flush(force=False)
            flush(force=True)
            issued = state.next_index
    finally:
        flush(force=True)
    return FillReport(state, state.stored - first.stored, state.duplicates - first.duplicates,
                      time.perf_counter() - started)
