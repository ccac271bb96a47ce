"""Benchmark: a 100-puzzle 10x10 book with solutions, end to end, and where the time goes.

Run: .venv/bin/python bench/book.py [--runs 3] [--count 100] [--difficulty mixed] [--trim a4]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hashi_print.puzzle.book import book_plan_requests, generate_puzzles
from hashi_print.render.book import BookOptions, render_book


def end_to_end(args: argparse.Namespace, out: Path) -> float:
    """Run `hashi-print book` once as a user would; return the wall-clock seconds."""
    cmd = [sys.executable, "-m", "hashi_print.cli", "book", "--count", str(args.count), "--size", "10x10",
           "--difficulty", args.difficulty, "--seed", str(args.seed), "--trim", args.trim, "--out", str(out)]
    started = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    return time.perf_counter() - started


def split(args: argparse.Namespace) -> tuple[float, float, int, int]:
    """Time generation and page composition separately, in process; return seconds, pages and bytes."""
    started = time.perf_counter()
    requests = book_plan_requests(args.count, [(10, 10)], args.difficulty)
    puzzles = list(generate_puzzles(requests, args.seed))
    generated = time.perf_counter()
    book = render_book(puzzles, BookOptions(trim=args.trim))
    return generated - started, time.perf_counter() - generated, book.pages, len(book.pdf)


def main() -> None:
    """Run the benchmark and print one line per run and the medians."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--difficulty", default="mixed")
    parser.add_argument("--trim", default="a4")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        walls = []
        for run in range(args.runs):
            walls.append(end_to_end(args, Path(tmp) / "book.pdf"))
            print(f"run {run + 1}: end to end {walls[-1]:.2f} s", flush=True)
    gen, comp, pages, size = split(args)
    print(f"median end to end over {args.runs} runs: {statistics.median(walls):.2f} s "
          f"(min {min(walls):.2f}, max {max(walls):.2f})")
    print(f"in process: generating {gen:.2f} s, composing + writing the PDF {comp:.2f} s; "
          f"{pages} pages, {size / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
