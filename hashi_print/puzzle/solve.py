"""Solving classic puzzles with one incremental SAT solver: all solutions, verdicts, uniqueness."""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypedDict

import pysolvers
from pysat.solvers import Solver

from hashi_print.errors import HashiError
from hashi_print.geometry import Geometry
from hashi_print.puzzle.model import Puzzle, Solution, Status
from hashi_print.puzzle.presolve import presolve
from hashi_print.puzzle.sat import BACKENDS, MODES, blocking_clause, built_lanes, cut_clauses, decode, encode


class SolveJson(TypedDict):
    """The `solve --json` object: the verdict, one solution as [r1, c1, r2, c2, bridges] rows, the time."""

    status: str
    solution: list[list[int]] | None
    seconds: float


@dataclass(frozen=True)
class SolveResult:
    """The verdict on a puzzle, a solution if any (one of them when there are several), and the time taken."""

    status: Status
    solution: Solution | None
    seconds: float
    cuts: int = 0

    def to_json(self) -> SolveJson:
        """Return the `solve --json` contract object."""
        return {"status": self.status, "solution": self.solution.as_lists() if self.solution else None,
                "seconds": round(self.seconds, 6)}


@dataclass
class SolveStats:
    """What the solving loop spent: cuts, seconds per stage, and (when a list) each disconnected candidate."""

    cuts: int = 0
    encode: float = 0.0
    add: float = 0.0
    search: float = 0.0
    connect: float = 0.0
    decode: float = 0.0
    rounds: list[tuple[tuple[int, ...], list[list[int]], list[list[int]]]] | None = None


@dataclass(frozen=True)
class Round:
    """One disconnected candidate: its bridges per lane, its groups, and per group the lanes of its cut.

    A group's cut says that at least one of the lanes leaving it must carry a bridge.
    """

    counts: tuple[int, ...]
    groups: tuple[tuple[int, ...], ...]
    cuts: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class TracedSolve:
    """A solve with the size of its encoding and every cut round, for showing how the solver worked."""

    result: SolveResult
    variables: int
    clauses: int
    rounds: tuple[Round, ...]


def _check_options(mode: str, backend: str) -> None:
    """Reject a mode or backend the lab does not have; kissat is refused on purpose."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; choose one of {', '.join(MODES)}")
    if backend not in BACKENDS:
        # kissat ignores assumptions and fails on clauses added after a solve, which this loop needs.
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")


class TimeLimitError(HashiError):
    """A solve ran past its time limit (`--time-limit`) and was stopped."""

    @classmethod
    def after(cls, seconds: float) -> TimeLimitError:
        """The error for a limit of `seconds`, as the command line says it."""
        return cls(f"stopped at the time limit of {seconds:g} s (--time-limit allows more)")


def _search(solver: Solver, assumptions: Sequence[int] = ()) -> bool:
    """One SAT call; a Ctrl-C during it is a KeyboardInterrupt like anywhere else.

    pysat catches SIGINT inside the native search and raises its own error instead (the solver is
    unusable afterwards, and is dropped). tests/puzzle/test_solve_limits.py fails if pysat changes this.
    """
    try:
        return bool(solver.solve(assumptions=list(assumptions)))
    except pysolvers.error as err:
        if "keyboard interrupt" in str(err).lower():
            raise KeyboardInterrupt from None
        raise


# Run beside a long solve, with only the standard library: write a progress line on stderr every
# EVERY seconds and, at the time limit, send SIGINT to the solving process (the one signal pysat's
# native search stops for; a thread cannot, as the search holds the GIL).
_WATCHDOG = """
import os, signal, sys, time
parent, limit, every, note = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
start = time.monotonic()
while os.getppid() == parent:
    left = limit - (time.monotonic() - start)
    if left <= 0:
        os.kill(parent, signal.SIGINT)
        break
    time.sleep(min(every, left))
    spent = time.monotonic() - start
    if note and spent < limit:
        sys.stderr.write(note.format(seconds=round(spent), limit=round(limit)) + "\\n")
        sys.stderr.flush()
"""
PROGRESS_EVERY = 10.0


@contextmanager
def time_limit(seconds: float | None, note: str = "") -> Iterator[None]:
    """Stop the block with TimeLimitError after `seconds`, writing `note` (with {seconds} and {limit})
    on stderr every PROGRESS_EVERY seconds meanwhile; no limit outside the main thread or for None."""
    if seconds is not None and not (math.isfinite(seconds) and seconds > 0):
        raise HashiError(f"--time-limit {seconds}: use a number of seconds")
    if seconds is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    if _can_fork():
        _fork_and_wait(seconds, note)  # returns in the child only, which runs the block
        yield
        return
    # Where the block cannot run in a forked child (no fork, or output captured in memory, as by click's
    # test runner): a watchdog process sends SIGINT at the limit, which pysat's search stops for.
    # Imported here: only a time limit needs a child process, and generating or grading starts faster.
    import subprocess

    deadline = time.monotonic() + seconds
    watchdog = subprocess.Popen([sys.executable, "-c", _WATCHDOG, str(os.getpid()), str(seconds),
                                 str(PROGRESS_EVERY), note], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, start_new_session=True)
    try:
        try:
            yield
        finally:
            watchdog.kill()
            watchdog.wait()
    except KeyboardInterrupt:
        if time.monotonic() < deadline - 0.05:
            raise
        raise TimeLimitError.after(seconds) from None


def _can_fork() -> bool:
    """Tell whether the block can run in a forked child that writes to the same stdout and stderr."""
    if not hasattr(os, "fork"):
        return False
    try:
        sys.stdout.fileno()
        sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError and ValueError
        return False
    return True


def _fork_and_wait(seconds: float, note: str) -> None:
    """Fork; in the child, return (it runs the block, with no limit of its own); in the parent, wait.

    The parent never returns: it exits with the child's exit code, raises TimeLimitError at the limit
    or KeyboardInterrupt on Ctrl-C, each after killing the child. pysat stops a search on SIGINT by
    jumping out of the solver's C++ code, which can leave the heap corrupt (a crash at the next free,
    seen under load); killing a child instead never runs that jump.
    """
    import select
    import signal

    sys.stdout.flush()
    sys.stderr.flush()
    done_r, done_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(done_r)
        # A group of its own: a Ctrl-C at the terminal reaches the parent only, which stops this child.
        os.setpgid(0, 0)
        return  # done_w stays open until this process ends: its end wakes the parent at once
    os.close(done_w)
    start = time.monotonic()
    deadline = start + seconds
    next_note = start + PROGRESS_EVERY
    try:
        while True:
            finished, status = os.waitpid(pid, os.WNOHANG)
            if finished:
                break
            now = time.monotonic()
            if now >= deadline:
                raise TimeLimitError.after(seconds)
            if note and now >= next_note:
                sys.stderr.write(note.format(seconds=round(now - start), limit=round(seconds)) + "\n")
                sys.stderr.flush()
                next_note += PROGRESS_EVERY
            # Woken by the child's end (its pipe closes), else at the next note, the limit or 0.1 s.
            select.select([done_r], [], [], max(0.0, min(0.1, deadline - now, next_note - now)))
    except BaseException:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise
    finally:
        os.close(done_r)
    code = os.waitstatus_to_exitcode(status)
    if code < 0:
        raise HashiError(f"the search stopped unexpectedly (signal {-code})")
    raise SystemExit(code)


def solutions(puzzle: Puzzle, mode: str = "lazy", backend: str = "cadical195",
              exclude: Iterable[Solution] = (), stats: SolveStats | None = None,
              card: str = "direct", presolved: bool = True) -> Iterator[Solution]:
    """Yield every solution of the puzzle, each once, skipping those in `exclude`.

    The default (lazy, direct) settles what root propagation settles before the solver starts
    (`presolve`); `presolved=False` hands the solver the whole `sat.encode` formula instead, whose
    clause order the generator's versions 1 and 2 depend on for their repairs.
    """
    _check_options(mode, backend)
    stats = stats if stats is not None else SolveStats()
    if presolved and mode == "lazy" and card == "direct":
        yield from _presolved_solutions(puzzle, backend, exclude, stats)
        return
    clock = time.perf_counter
    started = clock()
    geo = puzzle.geometry
    enc = encode(puzzle, mode, card)
    stats.encode += clock() - started
    if not all(enc.clauses):
        return
    with Solver(name=backend) as solver:
        started = clock()
        solver.append_formula(enc.clauses)
        for known in exclude:
            solver.add_clause(blocking_clause(enc, known.lane_counts(geo)))
        stats.add += clock() - started
        yield from _cut_and_block(
            solver, geo, stats,
            lambda model: cut_clauses(geo, enc, built_lanes(enc, model)),
            lambda model: decode(enc, model),
            lambda model, counts: blocking_clause(enc, counts))


def _presolved_solutions(puzzle: Puzzle, backend: str, exclude: Iterable[Solution],
                         stats: SolveStats) -> Iterator[Solution]:
    """Yield every solution, each once, from root propagation and a solver over the lanes left open."""
    clock = time.perf_counter
    started = clock()
    geo = puzzle.geometry
    pre = presolve(puzzle)
    stats.encode += clock() - started
    if pre is None or not all(pre.clauses):
        return
    blocks = [b for known in exclude if (b := pre.blocking(known.lane_counts(geo))) is not None]
    if not pre.variables:
        # Propagation settled every lane: one candidate, a solution when it is connected.
        if pre.groups == 1 and not blocks:
            started = clock()
            solution = Solution.from_lane_counts(geo, pre.base)
            stats.decode += clock() - started
            yield solution
        return
    with Solver(name=backend) as solver:
        started = clock()
        if backend == "cadical195":
            # Its "lucky" phase tries a few fixed assignments before searching: about a quarter of the
            # search time on the janko set, where the formulas left after propagation are small.
            solver.configure({"lucky": 0})
        solver.append_formula(pre.clauses)
        for clause in blocks:
            solver.add_clause(clause)
        stats.add += clock() - started
        # Every variable names a bridge above the base, so the true ones name an arrangement.
        yield from _cut_and_block(solver, geo, stats, pre.cuts, pre.counts,
                                  lambda model, counts: [-v for v in model if v > 0] or None)


def _cut_and_block(solver: Solver, geo: Geometry, stats: SolveStats,
                   cuts_of: Callable[[list[int]], list[list[int]]],
                   counts_of: Callable[[list[int]], tuple[int, ...]],
                   block_of: Callable[[list[int], tuple[int, ...]], list[int] | None]) -> Iterator[Solution]:
    """Search, add the cuts of each disconnected answer, yield each connected one and block it (no
    blocking clause: the last one), until the solver finds no more."""
    clock = time.perf_counter
    while True:
        started = clock()
        found = _search(solver)
        model: list[int] = solver.get_model() if found else []
        searched = clock()
        stats.search += searched - started
        if not found:
            return
        cuts = cuts_of(model)
        if cuts:
            stats.cuts += len(cuts)
            if stats.rounds is not None:
                counts = counts_of(model)
                stats.rounds.append((counts, geo.components(k for k, c in enumerate(counts) if c), cuts))
            if not all(cuts):
                stats.connect += clock() - searched
                return
            for clause in cuts:
                solver.add_clause(clause)
            stats.connect += clock() - searched
            continue
        checked = clock()
        stats.connect += checked - searched
        counts = counts_of(model)
        solution = Solution.from_lane_counts(geo, counts)
        stats.decode += clock() - checked
        yield solution
        block = block_of(model, counts)
        if block is None:
            return
        solver.add_clause(block)


def solve(puzzle: Puzzle, mode: str = "lazy", backend: str = "cadical195",
          card: str = "direct", stats: SolveStats | None = None, presolved: bool = True) -> SolveResult:
    """Find a solution and ask for a second: the verdict unique, multiple or none."""
    start = time.perf_counter()
    stats = stats if stats is not None else SolveStats()
    cuts_before = stats.cuts
    found = []
    for sol in solutions(puzzle, mode, backend, stats=stats, card=card, presolved=presolved):
        found.append(sol)
        if len(found) == 2:
            break
    status = (Status.NONE, Status.UNIQUE, Status.MULTIPLE)[len(found)]
    return SolveResult(status, found[0] if found else None, time.perf_counter() - start,
                       stats.cuts - cuts_before)


def solve_traced(puzzle: Puzzle, mode: str = "lazy", backend: str = "cadical195",
                 card: str = "direct") -> TracedSolve:
    """Solve as `solve` does, also counting the encoding and keeping each round of connectivity cuts."""
    _check_options(mode, backend)
    pre = presolve(puzzle) if mode == "lazy" and card == "direct" else None
    if pre is not None:
        variables, clauses, e1 = pre.variables, pre.clauses, pre.e1
    else:
        enc = encode(puzzle, mode, card)
        variables = max((abs(v) for c in enc.clauses for v in c), default=0)
        clauses, e1 = enc.clauses, enc.e1
    kept: list[tuple[tuple[int, ...], list[list[int]], list[list[int]]]] = []
    stats = SolveStats(rounds=kept)
    result = solve(puzzle, mode, backend, card, stats)
    lane_of = {v: k for k, v in enumerate(e1) if v}
    rounds = tuple(Round(tuple(counts), tuple(tuple(g) for g in groups),
                         tuple(tuple(lane_of[v] for v in clause) for clause in cuts))
                   for counts, groups, cuts in kept)
    return TracedSolve(result, variables, len(clauses), rounds)


def other_solution(puzzle: Puzzle, solution: Solution, mode: str = "lazy",
                   backend: str = "cadical195", presolved: bool = True) -> Solution | None:
    """Return a solution different from `solution`, or None when there is none (it is unique)."""
    return next(solutions(puzzle, mode, backend, exclude=[solution], presolved=presolved), None)

