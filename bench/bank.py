"""Puzzles per second when filling a bank on local worker processes and on Dask LocalClusters.

Usage: .venv/bin/python bench/bank.py [--size 10x10] [--difficulty medium] [--count 240] [--runs 3]
                                      [--workers 1,2] [--dask-workers 1,2,4] [--no-dask] [--out bench/bank.md]
Each run fills a fresh bank with the same seed; the time covers the whole fill (pool start, generation
with uniqueness proof, re-verification and grading on the workers, SQLite commits), and every run must
store the same puzzles. Each Dask LocalCluster (--dask-workers processes, 1 thread each) is started
once, outside the timing. The machine's load average is printed with the results: on a shared
machine the numbers move with the other jobs.
"""

from __future__ import annotations

import argparse
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
    clusters = {}
    if not args.no_dask:
        from distributed import LocalCluster

        for k in (int(w) for w in args.dask_workers.split(",")):
            clusters[k] = LocalCluster(n_workers=k, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    try:
        for _ in range(runs):
            for k in counts:
                record(f"local pool, {k} worker{'s' if k > 1 else ''}", LocalPool(k))
            for k, cluster in clusters.items():
                record(f"Dask LocalCluster, {k} worker process{'es' if k > 1 else ''}",
                       DaskCluster(cluster.scheduler_address))
    finally:
        for cluster in clusters.values():
            cluster.close()
    load_after = os.getloadavg()
    base = statistics.median(rates[next(iter(rates))])
    lines = [
        "# Puzzle bank fill rate (`bench/bank.py`)",
        "",
        f"Command: `.venv/bin/python bench/bank.py --size {args.size} --difficulty {args.difficulty} "
        f"--count {args.count} --runs {runs} --workers {args.workers} --dask-workers {args.dask_workers}"
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
    if dask:
        one = rates[dask[0]]
        for label in dask[1:]:
            rounds = ", ".join(f"{r / f:.2f}x" for r, f in zip(rates[label], one, strict=True))
            lines.append(f"Round by round, {label} vs {dask[0]}: {rounds}.")
    lines.append("")
    lines.append(f"Every run stored the same {args.count} puzzles in the same order.")
    text = "\n".join(lines) + "\n"
    write_atomic(args.out, text)
    print(text)


if __name__ == "__main__":
    main()
