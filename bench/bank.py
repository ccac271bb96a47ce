"""Puzzles per second when filling a bank on local worker processes and on Dask LocalClusters.

Usage: .venv/bin/python bench/bank.py [--size 10x10] [--difficulty medium] [--count 240] [--runs 3]
                                      [--workers 1,2] [--dask-workers 1,2,4] [--batch-seconds 0.25]
                                      [--no-dask] [--out bench/bank.md]
Each run fills a fresh bank with the same seed; the time covers the whole fill (pool start, generation
with uniqueness proof, re-verification and grading on the workers, SQLite commits), and every run must
store the same puzzles. A Dask LocalCluster (--dask-workers processes, 1 thread each) is started for
each run, its workers importing hashi_print outside the timing; --batch-seconds 0 sends one puzzle
per Dask task (as before batching). --dask-config default,lean also runs each cluster with the
worker settings docs/bank.md recommends for throughput (LEAN: no sampling profiler, slower
monitors). The machine's load average is printed with the results: on a
shared machine the numbers move with the other jobs.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import statistics
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

from hashi_print.bank.executors import DaskCluster, LocalPool
from hashi_print.bank.fill import fill, make_spec
from hashi_print.bank.store import open_bank, stored_puzzles
from hashi_print.files import write_atomic
from hashi_print.puzzle.book import parse_size

# The Dask settings docs/bank.md recommends for bank workers: Dask's sampling profiler (every 10 ms)
# and its monitors (every 20-500 ms) cost each worker several per cent beside batches of pure Python.
LEAN = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "500ms",
        "distributed.worker.memory.monitor-interval": "1s", "distributed.admin.system-monitor.interval": "2s"}


def timed_fill(spec, count: int, executor) -> tuple[float, list[str]]:
    """Fill a fresh bank; return the rate in puzzles per second and the stored Tatham IDs."""
    with tempfile.TemporaryDirectory() as tmp, \
            closing(open_bank(Path(tmp) / "b.sqlite", create=True)) as conn:
        started = time.perf_counter()
        report = fill(conn, spec, count, executor)
        elapsed = time.perf_counter() - started
        ids = [p.tatham_id for p in stored_puzzles(conn)]
    assert report.added == count
    return count / elapsed, ids


def report(args: argparse.Namespace, runs: int, rates: dict[str, list[float]],
           load_before: tuple[float, ...], load_after: tuple[float, ...]) -> list[str]:
    """The markdown table and the round-by-round ratios."""
    base = statistics.median(rates[next(iter(rates))])
    lines = [
        "# Puzzle bank fill rate (`bench/bank.py`)",
        "",
        f"Command: `.venv/bin/python bench/bank.py --size {args.size} --difficulty {args.difficulty} "
        f"--count {args.count} --runs {runs} --workers {args.workers} --dask-workers {args.dask_workers} "
        f"--batch-seconds {args.batch_seconds} --dask-config {args.dask_config}"
        f"{' --no-dask' if args.no_dask else ''}`",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; load "
        f"average (1 min) {load_before[0]:.1f} before and {load_after[0]:.1f} after: the cores were shared "
        "with other jobs, so these rates are lower bounds and the ratios are noisy.",
        "",
        "| executor | runs (puzzles/s) | median puzzles/s | vs 1 worker |",
        "| --- | --- | --- | --- |",
    ]
    first = rates[next(iter(rates))]
    for label, got in rates.items():
        median = statistics.median(got)
        runs_text = ", ".join(f"{r:.1f}" for r in got)
        lines.append(f"| {label} | {runs_text} | {median:.1f} | {median / base:.2f}x |")
    lines.append("")
    for label, got in list(rates.items())[1:]:
        rounds = ", ".join(f"{r / f:.2f}x" for r, f in zip(got, first, strict=True))
        lines.append(f"Round by round, {label} vs 1 worker: {rounds}.")
    dask = [label for label in rates if label.startswith("Dask")]
    for label in dask:
        # each cluster against the smallest cluster with the same settings and batch size
        one = next(d for d in dask if (d.split(",", 1)[0], d.rsplit(",", 1)[1])
                   == (label.split(",", 1)[0], label.rsplit(",", 1)[1]))
        if one != label:
            rounds = ", ".join(f"{r / f:.2f}x" for r, f in zip(rates[label], rates[one], strict=True))
            lines.append(f"Round by round, {label} vs {one}: {rounds}.")
    lines.append("")
    lines.append(f"Every run stored the same {args.count} puzzles in the same order.")
    return lines


def main() -> None:
    """Run the bench and write the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="10x10")
    ap.add_argument("--difficulty", default="medium")
    ap.add_argument("--count", type=int, default=240)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dask-workers", default="1,2,4")
    ap.add_argument("--batch-seconds", default="0.25", help="Dask batch sizes to try, in seconds of work")
    ap.add_argument("--dask-config", default="default",
                    help="Dask worker settings to try: default (Dask's own), lean (as docs/bank.md advises)")
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--out", default="bench/bank.md")
    args = ap.parse_args()
    spec = make_spec(*parse_size(args.size), args.difficulty, args.seed)
    load_before = os.getloadavg()
    rates: dict[str, list[float]] = {}
    reference: list[str] | None = None

    def record(label: str, executor) -> None:
        """Time the runs of one executor and check that each stores the same puzzles."""
        nonlocal reference
        for _ in range(args.runs):
            rate, ids = timed_fill(spec, args.count, executor)
            if reference is None:
                reference = ids
            if ids != reference:
                raise SystemExit(f"{label}: the bank differs from the first run's")
            rates.setdefault(label, []).append(rate)
            print(f"{label}: {rate:.1f} puzzles/s", file=sys.stderr)

    # Interleave the configurations run by run so that a change in the machine's load hits all alike.
    counts = [int(w) for w in args.workers.split(",")]
    runs, args.runs = args.runs, 1
    dask_counts = [] if args.no_dask else [int(w) for w in args.dask_workers.split(",")]
    if dask_counts:
        import dask
        from distributed import Client, LocalCluster
    for _ in range(runs):
        for k in counts:
            record(f"local pool, {k} worker{'s' if k > 1 else ''}", LocalPool(k))
        for config in args.dask_config.split(","):
            for k in dask_counts:
                for batch in (float(b) for b in args.batch_seconds.split(",")):
                    # a cluster per run, started and warmed outside the timing (idle clusters slow the
                    # others); the settings reach the workers through their nanny
                    with dask.config.set(LEAN if config == "lean" else {}), \
                            LocalCluster(n_workers=k, threads_per_worker=1, processes=True,
                                         dashboard_address=None) as cluster, Client(cluster) as client:
                        client.run(importlib.import_module, "hashi_print.bank.fill")  # warm, as in use
                        name = "Dask LocalCluster" + (" (lean workers)" if config == "lean" else "")
                        label = f"{name}, {k} worker process{'es' if k > 1 else ''}, {batch:g} s batch"
                        record(label, DaskCluster(cluster.scheduler_address, batch_seconds=batch))
    lines = report(args, runs, rates, load_before, os.getloadavg())
    text = "\n".join(lines) + "\n"
    write_atomic(args.out, text)
    print(text)


if __name__ == "__main__":
    main()
