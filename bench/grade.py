"""Measure the deducer: the janko set (grades, published solutions, speed) and Tatham's three levels.

Usage: .venv/bin/python bench/grade.py [--runs 3] [--tatham 30] [--sizes 10x10,15x15,25x25]
       .venv/bin/python bench/grade.py --large IDS_FILE [--runs 7]
Prints a markdown report on stdout. Seconds per puzzle are the median over --runs runs of grade().
Tatham puzzles come fresh from /usr/games/sgt-bridges (skipped when it is absent).
--large times only grade_puzzle() and hint() (what the `grade` and `hint` commands run) on the
puzzles of IDS_FILE (one Bridges ID a line) and on a 10x10 hard puzzle tiled 4x4 into a 40x40 one,
and prints one JSON object. With PYTHONPATH set to another checkout's root, it times that version.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

# The janko solution reader is the tests' own, shared so both read the published grids the same way.
# Appended, not prepended: PYTHONPATH may point at another version of hashi_print to compare with.
sys.path.append(str(Path(__file__).resolve().parents[1]))
from hashi_print.puzzle.deduce import deduce, grade, grade_puzzle, hint
from hashi_print.puzzle.formats import parse_tatham_id, parse_text_grid
from hashi_print.puzzle.model import Grade, Puzzle
from tests.independent import janko_bridges  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
JANKO = ROOT.parent / "shared" / "data" / "janko-hashi.json"
SGT = shutil.which("sgt-bridges") or "/usr/games/sgt-bridges"
GRADES = tuple(Grade)
TATHAM = ("Easy", "Medium", "Hard")


def seconds(puzzle: Puzzle, runs: int) -> float:
    """Median seconds of grade(puzzle) over `runs` runs."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        grade(puzzle)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def size_class(puzzle: Puzzle) -> str:
    """Bucket a puzzle by grid area."""
    area = puzzle.cols * puzzle.rows
    classes = ((100, "up to 10x10"), (225, "up to 15x15"), (400, "up to 20x20"), (625, "up to 25x25"))
    for limit, name in classes:
        if area <= limit:
            return name
    return "larger"


def timing_rows(samples: dict[str, list[float]]) -> list[str]:
    """Markdown rows: count, median, 90th percentile and max milliseconds per group."""
    rows = ["| group | puzzles | median ms | p90 ms | max ms |", "|---|---|---|---|---|"]
    for key in sorted(samples):
        v = sorted(samples[key])
        rows.append(f"| {key} | {len(v)} | {v[len(v) // 2] * 1e3:.1f} | {v[int(len(v) * 0.9)] * 1e3:.1f} "
                    f"| {v[-1] * 1e3:.1f} |")
    return rows


def janko_report(runs: int) -> list[str]:
    """Grade every janko puzzle and compare the deduced solution with the published one."""
    if not JANKO.is_file():
        return [f"janko set not found at {JANKO}"]
    data = json.loads(JANKO.read_text())["data"]
    grades: Counter[str] = Counter()
    wrong = []
    times: dict[str, list[float]] = {}
    techniques: Counter[str] = Counter()
    total = 0.0
    for name in sorted(data):
        pz = parse_text_grid(data[name]["problem"], name)
        result = deduce(pz, explain=False)
        level = result.grade if result.solved else Grade.BEYOND
        grades[level] += 1
        if result.solved:
            got = {tuple(b.as_list()) for b in result.solution(pz).bridges}
            if got != janko_bridges(data[name]["solution"]):
                wrong.append(name)
        for step in deduce(pz).steps:
            techniques[step.technique] += 1
        t = seconds(pz, runs)
        total += t
        times.setdefault(f"{size_class(pz)}", []).append(t)
        times.setdefault(f"{size_class(pz)}, {level}", []).append(t)
    out = [f"### janko.at set ({len(data)} puzzles)", "",
           "| grade | " + " | ".join(GRADES) + " |", "|---" * (len(GRADES) + 1) + "|",
           "| puzzles | " + " | ".join(str(grades[g]) for g in GRADES) + " |", "",
           f"Solved at expert or below: {len(data) - grades['beyond']} / {len(data)}; deduced solution "
           f"differs from the published one: {len(wrong)} {wrong[:5] if wrong else ''}", "",
           f"Total grade() time over the set: {total:.1f} s (median of {runs} runs per puzzle).", "",
           *timing_rows(times), "",
           "Steps by technique over the whole set: "
           + ", ".join(f"{k} {v}" for k, v in techniques.most_common()), ""]
    return out


def tatham_report(count: int, sizes: list[str], runs: int) -> list[str]:
    """Grade fresh puzzles of Tatham's three levels: confusion table, mean grade and speed."""
    if not Path(SGT).exists():
        return [f"{SGT} not found: Tatham comparison skipped"]
    out = []
    for size in sizes:
        table: dict[int, Counter[str]] = {}
        times: dict[str, list[float]] = {}
        for d in range(3):
            ids = subprocess.run([SGT, "--generate", str(count), f"{size}i30e10m2d{d}"], capture_output=True,
                                 text=True, check=True).stdout.split()
            table[d] = Counter()
            for pid in ids:
                pz = parse_tatham_id(pid)
                table[d][grade(pz)] += 1
                times.setdefault(f"Tatham {TATHAM[d]}", []).append(seconds(pz, runs))
        out += [f"### Tatham's generator, {size}, {count} puzzles per level", "",
                "| Tatham level | " + " | ".join(GRADES) + " | mean grade (easy=0) |",
                "|---" * (len(GRADES) + 2) + "|"]
        for d in range(3):
            n = sum(table[d].values())
            mean = sum(GRADES.index(g) * k for g, k in table[d].items()) / n
            cells = " | ".join(str(table[d][g]) for g in GRADES)
            out.append(f"| {TATHAM[d]} | {cells} | {mean:.2f} |")
        out += ["", *timing_rows(times), ""]
    return out


# The 10x10 hard puzzle that tests/puzzle/test_deduce.py also tiles 4x4 (sixteen copies: "beyond").
TILE = "10x10m2:a1d2a2a2b3j2a3n1a4b5a5k4b3d2l1a4b4a1a3c3d1"


def large_report(ids_file: str, runs: int) -> dict[str, object]:
    """Median seconds of grade_puzzle() and hint() per large puzzle, with the hashi_print timed."""
    puzzles = {f"{pid.split(':')[0]} #{n}": parse_tatham_id(pid)
               for n, pid in enumerate(Path(ids_file).read_text().split(), 1)}
    tile = parse_tatham_id(TILE)
    puzzles["40x40 tiled 10x10 hard"] = Puzzle.build(40, 40, [
        (i.row + 10 * a, i.col + 10 * b, i.clue) for a in range(4) for b in range(4) for i in tile.islands])
    out: dict[str, object] = {"hashi_print": str(Path(sys.modules["hashi_print"].__file__).parent)}
    for name, pz in puzzles.items():
        for what, fn in (("grade", grade_puzzle), ("hint", hint)):
            times = []
            for _ in range(runs):
                start = time.perf_counter()
                fn(pz)
                times.append(time.perf_counter() - start)
            out[f"{name} {what}"] = statistics.median(times)
    return out


def main() -> None:
    """Run the measurements and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tatham", type=int, default=30)
    parser.add_argument("--sizes", default="10x10,15x15,25x25")
    parser.add_argument("--skip-janko", action="store_true")
    parser.add_argument("--large", metavar="IDS_FILE")
    args = parser.parse_args()
    if args.large:
        print(json.dumps(large_report(args.large, args.runs)))  # noqa: T201 - a bench script reports on stdout
        return
    lines = [f"Machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
             f"`{' '.join(['bench/grade.py', '--runs', str(args.runs), '--tatham', str(args.tatham)])}`", ""]
    if not args.skip_janko:
        lines += janko_report(args.runs)
    lines += tatham_report(args.tatham, args.sizes.split(","), args.runs)
    print("\n".join(lines))  # noqa: T201 - a bench script reports on stdout


if __name__ == "__main__":
    main()
