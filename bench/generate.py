"""Time hashi_print's generator next to Tatham's `sgt-bridges --generate` in the same run.

Usage: .venv/bin/python bench/generate.py [--runs 3] [--ours 4] [--theirs 20] [--out bench/generate.md]
Per-puzzle seconds are the median over runs; ours includes uniqueness proof, grading and re-verification.
"""

from __future__ import annotations

import argparse
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from hashi_print.files import write_atomic
from hashi_print.puzzle.generate import GenerationStats, generate_many

SGT = shutil.which("sgt-bridges") or "/usr/games/sgt-bridges"
TATHAM_LEVEL = {"easy": 0, "medium": 1, "hard": 2}
CASES = [(10, 10, "easy"), (10, 10, "medium"), (10, 10, "hard"),
         (15, 15, "easy"), (15, 15, "medium"), (15, 15, "hard")]
OURS_ONLY = [(15, 15, "expert"), (25, 25, "expert")]
DENSE = [(15, 15, "hard"), (25, 25, "expert")]


def time_tatham(width: int, height: int, difficulty: str, count: int) -> float:
    """Seconds per puzzle for `sgt-bridges --generate count` at Tatham's defaults for this size."""
    params = f"{width}x{height}i30e10m2d{TATHAM_LEVEL[difficulty]}"
    started = time.perf_counter()
    out = subprocess.run([SGT, "--generate", str(count), params], capture_output=True, text=True, check=True)
    elapsed = time.perf_counter() - started
    if len(out.stdout.split()) != count:
        raise RuntimeError(f"sgt-bridges printed {len(out.stdout.split())} IDs, expected {count}")
    return elapsed / count


def time_ours(width: int, height: int, difficulty: str, count: int, seed: int,
              density: float | None) -> tuple[float, GenerationStats, float]:
    """Wall seconds per puzzle for our generator, the statistics of the run, and CPU seconds per puzzle."""
    stats = GenerationStats()
    started, cpu = time.perf_counter(), time.process_time()
    items = list(generate_many(width, height, difficulty, count, random.Random(seed), density, stats=stats))
    elapsed = time.perf_counter() - started
    assert len(items) == count
    return elapsed / count, stats, (time.process_time() - cpu) / count


def main() -> None:
    """Run every case a few times, print a Markdown table and write it to --out."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--ours", type=int, default=4, help="our puzzles per run")
    parser.add_argument("--theirs", type=int, default=20, help="Tatham puzzles per run")
    parser.add_argument("--density", type=float, default=None)
    parser.add_argument("--out", default="bench/generate.md")
    args = parser.parse_args()
    rows = []
    cases = [(*case, args.density, True) for case in CASES]
    cases += [(*case, args.density, False) for case in OURS_ONLY]
    cases += [(*case, 0.32, False) for case in DENSE]
    for width, height, difficulty, density, compare in cases:
        ours, theirs, cpus, last = [], [], [], None
        for run in range(args.runs):
            seconds, last, cpu = time_ours(width, height, difficulty, args.ours, 1000 + run, density)
            ours.append(seconds)
            cpus.append(cpu)
            if compare:
                theirs.append(time_tatham(width, height, difficulty, args.theirs))
        mine = statistics.median(ours)
        tat = statistics.median(theirs) if theirs else None
        ratio = f"{mine / tat:.1f}x" if tat else "-"
        tat_text = f"{tat * 1000:.1f}" if tat else "-"
        rows.append(f"| {width}x{height} | {difficulty} | {density or 0.2} | {mine * 1000:.0f} | "
                    f"{statistics.median(cpus) * 1000:.0f} | {tat_text} | {ratio} | {last.summary()} |")
        print(rows[-1], flush=True)
    header = [
        "# Generator speed: hashi_print vs Tatham's sgt-bridges",
        "",
        f"Machine: {platform.machine()}, Python {sys.version.split()[0]}, 2 cores shared with other work.",
        f"Command: `.venv/bin/python bench/generate.py --runs {args.runs} --ours {args.ours} "
        f"--theirs {args.theirs}`; median of {args.runs} runs.",
        "Ours: unique (SAT-proven), graded exactly (deduce.grade), re-verified (checker + fresh solve). "
        f"Tatham: `sgt-bridges --generate {args.theirs} 'WxHi30e10m2dK'` "
        "(d0 easy, d1 medium, d2 hard; about 15-20 % islands), same run.",
        "",
        "| size | difficulty | density | ours ms/puzzle | ours CPU ms/puzzle | Tatham ms/puzzle | ratio | "
        "our last run |",
        "|---|---|---|---|---|---|---|---|",
    ]
    footer = [
        "",
        "Targets (issue 39): 15x15 hard at most 2.0x Tatham's time per puzzle; 25x25 expert at most 30 ms.",
        "Tatham's generator has no expert level, so expert and dense rows are ours only. Ratios come from",
        "one run on a loaded machine, so both sides slow down together; absolute wall times vary by 2x or",
        "more with the load, CPU seconds (process time) much less.",
    ]
    write_atomic(Path(args.out), "\n".join(header + rows + footer) + "\n")


if __name__ == "__main__":
    main()
