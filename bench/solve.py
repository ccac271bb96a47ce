"""Benchmark the solver lab: every mode and backend on the janko and Coelho sets, side by side.

Run: .venv/bin/python bench/solve.py [--repeat 3] [--eager-limit 200] [--coelho-step 6] [--split-only]
Prints markdown tables; numbers are medians over --repeat runs of the whole set. The first table
splits the default solver's time into its stages, so the distance to the pure search stays visible.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hashi_print.puzzle.formats import parse_has, parse_text_grid  # noqa: E402
from hashi_print.puzzle.sat import BACKENDS, CARDINALITIES  # noqa: E402
from hashi_print.puzzle.solve import SolveStats, solve  # noqa: E402

DATA = ROOT.parent / "shared" / "data"


def janko_puzzles(limit: int | None = None) -> list:
    """The janko puzzles, smallest first when limited."""
    data = json.loads((DATA / "janko-hashi.json").read_text())["data"]
    names = sorted(data, key=lambda n: len(data[n]["problem"])) if limit else list(data)
    return [parse_text_grid(data[n]["problem"], n) for n in names[:limit]]


def coelho_puzzles(size: int, step: int) -> list:
    """Every `step`-th Coelho instance with `size` islands."""
    files = sorted((DATA / "coelho-2019" / str(size)).glob("*.has"))[::step]
    return [parse_has(f.read_text(), f.name) for f in files]


def run_set(puzzles: list, mode: str, backend: str, card: str = "direct") -> tuple[float, float, dict]:
    """Solve a set once: total wall seconds, median seconds per puzzle, verdict counts."""
    times, verdicts = [], {}
    start = time.perf_counter()
    for p in puzzles:
        r = solve(p, mode, backend, card)
        times.append(r.seconds)
        verdicts[r.status] = verdicts.get(r.status, 0) + 1
    return time.perf_counter() - start, statistics.median(times), verdicts


def median_run(puzzles: list, mode: str, backend: str, repeat: int, card: str = "direct") -> tuple:
    """Median total and median-per-puzzle over several runs of a set."""
    runs = [run_set(puzzles, mode, backend, card) for _ in range(repeat)]
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), runs[0][2])


STAGES = ("encode", "add", "search", "connect", "decode")


def split_run(puzzles: list) -> tuple[float, float, SolveStats, dict, list[tuple[float, float]]]:
    """Solve a set once with the defaults: wall and CPU seconds, stage times, verdicts, seconds per puzzle."""
    stats, verdicts, times = SolveStats(), {}, []
    start, cpu = time.perf_counter(), time.process_time()
    for p in puzzles:
        before = time.process_time()
        r = solve(p, stats=stats)
        times.append((r.seconds, time.process_time() - before))
        verdicts[str(r.status)] = verdicts.get(str(r.status), 0) + 1
    return time.perf_counter() - start, time.process_time() - cpu, stats, verdicts, times


def median_max(seconds: Iterable[float]) -> str:
    """The median and the largest of some per-puzzle seconds, as table text."""
    values = list(seconds)
    return f"{statistics.median(values):.4f}, {max(values):.3f}"


def print_split(sets: list[tuple[str, list]], repeat: int) -> None:
    """Print where the default solver's time goes on each set: the median run of `repeat`."""
    print("## Where the time goes (lazy, cadical195, direct; median run by total)\n")
    print("| set | puzzles | total s | CPU s | " + " | ".join(f"{s} s" for s in STAGES)
          + " | rest s | cuts | s/puzzle median, max | CPU s/puzzle median, max | verdicts |")
    print("|---|---|---|---|" + "---|" * len(STAGES) + "---|---|---|---|---|")
    for name, puzzles in sets:
        runs = sorted((split_run(puzzles) for _ in range(repeat)), key=lambda r: r[0])
        total, cpu, stats, verdicts, times = runs[len(runs) // 2]
        stages = [getattr(stats, s) for s in STAGES]
        cells = " | ".join(f"{t:.3f}" for t in stages)
        print(f"| {name} | {len(puzzles)} | {total:.3f} | {cpu:.3f} | {cells}"
              + f" | {total - sum(stages):.3f} | {stats.cuts} | {median_max(t for t, _ in times)} | "
              f"{median_max(c for _, c in times)} | {verdicts} |", flush=True)
    print()


def main() -> None:
    """Run the benchmark and print the tables."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--eager-limit", type=int, default=150, help="smallest janko puzzles for eager mode")
    ap.add_argument("--coelho-step", type=int, default=6, help="take every n-th Coelho instance")
    ap.add_argument("--split-only", action="store_true", help="print only the stage split table")
    args = ap.parse_args()
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
          f"{platform.system()}; repeat {args.repeat}\n")
    janko = janko_puzzles()
    sets = [("janko", janko)] + [(f"Coelho {n}", coelho_puzzles(n, args.coelho_step)) for n in (100, 400)]
    print_split(sets, args.repeat)
    if args.split_only:
        return
    print("## janko (910 hand-made, all must be unique)\n")
    print("| mode | backend | card | puzzles | total s (median run) | median ms/puzzle | verdicts |")
    print("|---|---|---|---|---|---|---|")
    for backend in BACKENDS:
        total, med, v = median_run(janko, "lazy", backend, args.repeat)
        print(f"| lazy | {backend} | direct | 910 | {total:.2f} | {med * 1000:.2f} | {v} |")
    for card in CARDINALITIES[1:]:
        total, med, v = median_run(janko, "lazy", "cadical195", args.repeat, card)
        print(f"| lazy | cadical195 | {card} | 910 | {total:.2f} | {med * 1000:.2f} | {v} |")
    small = janko_puzzles(args.eager_limit)
    for mode in ("lazy", "eager"):
        total, med, v = median_run(small, mode, "cadical195", 1)
        label = f"{len(small)} smallest"
        print(f"| {mode} | cadical195 | direct | {label} | {total:.2f} | {med * 1000:.2f} | {v} |")
    print("\n## Coelho et al. 2019 (none unique: time to reach the `multiple` verdict)\n")
    print("| islands | mode | backend | instances | median s | max s | verdicts |")
    print("|---|---|---|---|---|---|---|")
    for size in (100, 200, 300, 400):
        puzzles = coelho_puzzles(size, args.coelho_step)
        modes = [("lazy", b) for b in BACKENDS]
        if size == 100:
            modes.append(("eager", "cadical195"))
        for mode, backend in modes:
            runs = [[solve(p, mode, backend) for p in puzzles] for _ in range(args.repeat)]
            med = statistics.median(statistics.median(r.seconds for r in run) for run in runs)
            worst = statistics.median(max(r.seconds for r in run) for run in runs)
            verdicts = {}
            for r in runs[0]:
                verdicts[r.status] = verdicts.get(r.status, 0) + 1
            print(f"| {size} | {mode} | {backend} | {len(puzzles)} | {med:.4f} | {worst:.3f} | {verdicts} |")


if __name__ == "__main__":
    main()
