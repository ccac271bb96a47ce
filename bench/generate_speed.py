"""Issue 39 item 2, side by side: our generator in one or more checkouts next to Tatham's, run by run.

Usage: .venv/bin/python bench/generate_speed.py [--runs 5] [CHECKOUT ...]   (default: this checkout)
Each run is a fresh process per checkout, alternating: 20 15x15 hard puzzles through `generate_many`
(seed 1000), `sgt-bridges --generate 20 15x15i30e10m2d2` timed in the same process, then 4 25x25
expert puzzles. Wall and CPU milliseconds per puzzle (Tatham's CPU from the child's rusage), the
load average, and a digest of the puzzles made, so that checkouts of one generator version can be
seen to make the same puzzles. Prints the medians per checkout, and each checkout's ratio to the
median of every Tatham run (Tatham's own time moves by a third between processes).

The first puzzles of a process also pay for importing the solver and deducer modules (imported on
first use). Each checkout's package is byte-compiled first, as `pip install .` does, so that this is
what a user's process pays; --no-compile leaves that out, and where .pyc files are not written
(PYTHONDONTWRITEBYTECODE, as on the project's machine) every process then compiles the modules too
(about 20 ms more). --warm makes two
15x15 hard and one 25x25 expert puzzle from another seed (999) before the timing, so the figures
are per puzzle once started; the puzzles timed are the same.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

# Run inside each checkout's process: prints one JSON line.
_ONE_RUN = """
import hashlib, json, os, random, resource, subprocess, sys, time
sys.path.insert(0, sys.argv[1])
from hashi_print.puzzle.generate import generate_many

def ours(width, height, grade, count):
    wall, cpu = time.perf_counter(), time.process_time()
    made = list(generate_many(width, height, grade, count, random.Random(1000)))
    return (time.perf_counter() - wall) / count * 1e3, (time.process_time() - cpu) / count * 1e3, made

def tatham(count):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    subprocess.run([sys.argv[2], "--generate", str(count), "15x15i30e10m2d2"], capture_output=True,
                   check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return (time.perf_counter() - wall) / count * 1e3, cpu / count * 1e3

if sys.argv[3] == "warm":
    list(generate_many(15, 15, "hard", 2, random.Random(999)))
    list(generate_many(25, 25, "expert", 1, random.Random(999)))
load = os.getloadavg()[0]
hard_wall, hard_cpu, hard = ours(15, 15, "hard", 20)
tat_wall, tat_cpu = tatham(20)
exp_wall, exp_cpu, expert = ours(25, 25, "expert", 4)
digest = hashlib.sha256(repr([(g.puzzle, g.seed) for g in hard + expert]).encode()).hexdigest()[:12]
print(json.dumps({"load": load, "hard": [hard_wall, hard_cpu], "tatham": [tat_wall, tat_cpu],
                  "expert": [exp_wall, exp_cpu], "digest": digest}))
"""


def one_run(checkout: Path, sgt: str, warm: bool = False) -> dict[str, Any]:
    """Time one run of the three workloads in a fresh process importing `checkout`'s package."""
    out = subprocess.run([sys.executable, "-c", _ONE_RUN, str(checkout), sgt, "warm" if warm else "cold"],
                         capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def medians(pairs: list[list[float]]) -> list[float]:
    """The median wall and the median CPU figure over several runs."""
    return [statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)]


def pair(values: list[float], digits: int = 1) -> str:
    """A wall / CPU pair as table text."""
    return f"{values[0]:.{digits}f} / {values[1]:.{digits}f}"


def main() -> None:
    """Alternate the checkouts run by run and print each run and the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="*", type=Path, default=[ROOT])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sgt", default="/usr/games/sgt-bridges")
    parser.add_argument("--warm", action="store_true",
                        help="make puzzles of another seed before the timing (start-up costs left out)")
    parser.add_argument("--no-compile", action="store_true",
                        help="do not byte-compile the checkouts first (each process compiles its imports)")
    args = parser.parse_args()
    if not args.no_compile:
        for checkout in args.checkouts:
            package = checkout.resolve() / "hashi_print"
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True)
    runs: dict[Path, list[dict[str, Any]]] = {c: [] for c in args.checkouts}
    for _ in range(args.runs):
        for checkout in args.checkouts:
            run = one_run(checkout.resolve(), args.sgt, args.warm)
            runs[checkout].append(run)
            print(f"{checkout}: load {run['load']:.1f}, 15x15 hard {pair(run['hard'])}, Tatham "
                  f"{pair(run['tatham'])}, 25x25 expert {pair(run['expert'])} ms, {run['digest']}",
                  flush=True)
    every_tatham = medians([r["tatham"] for done in runs.values() for r in done])
    print(f"\n{'warm' if args.warm else 'cold'} runs; Tatham over all runs: {pair(every_tatham)} ms")
    print("\n| checkout | load | 15x15 hard wall / CPU ms | Tatham wall / CPU ms | ratio wall / CPU | "
          "ratio to all Tatham runs wall / CPU | 25x25 expert wall / CPU ms | puzzles |")
    print("|---|---|---|---|---|---|---|---|")
    for checkout, done in runs.items():
        hard, tat, expert = (medians([r[key] for r in done]) for key in ("hard", "tatham", "expert"))
        loads = [r["load"] for r in done]
        ratio = [hard[0] / tat[0], hard[1] / tat[1]]
        pooled = [hard[0] / every_tatham[0], hard[1] / every_tatham[1]]
        print(f"| {checkout} | {min(loads):.1f}-{max(loads):.1f} | {pair(hard)} | {pair(tat)} | "
              f"{pair(ratio, 2)} | {pair(pooled, 2)} | {pair(expert)} | "
              f"{', '.join(sorted({r['digest'] for r in done}))} |")
    if os.getloadavg()[0] > 1.5:
        print("\n(load above 1.5: the CPU columns are the steadier figures)")


if __name__ == "__main__":
    main()
