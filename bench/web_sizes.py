"""Measure which size and difficulty pairs the web's New puzzle form may offer, and write the table.

Each square size and grade is generated from a few seeds, each in its own process stopped at the web's
time limit (`hashi-print serve --time-limit`, 10 s). A pair is offered only when every seed gave a
puzzle in time. The table ships in the package (hashi_print/web/static/generate-sizes.json) and the
New puzzle form offers only its pairs.

    .venv/bin/python bench/web_sizes.py            # about 10 minutes on a loaded 2-core machine
"""

from __future__ import annotations

import json
import multiprocessing
import random
import sys
import time
from pathlib import Path

from hashi_print.puzzle.generate import generate
from hashi_print.puzzle.model import GRADES

SIZES = (5, 6, 7, 8, 10, 12, 15, 20)
SEEDS = (1, 2, 3)
LIMIT = 10.0
OUT = Path(__file__).resolve().parents[1] / "hashi_print" / "web" / "static" / "generate-sizes.json"


def _one(size: int, grade: str, seed: int) -> None:
    """Generate one puzzle (in a child process: the parent stops it at the limit)."""
    generate(size, size, grade, random.Random(seed))


def timed(size: int, grade: str, seed: int) -> float | None:
    """Seconds one generation took, or None when it failed or ran past the limit."""
    proc = multiprocessing.get_context("spawn").Process(target=_one, args=(size, grade, seed))
    start = time.monotonic()
    proc.start()
    proc.join(LIMIT)
    took = time.monotonic() - start
    if proc.is_alive():
        proc.kill()
        proc.join()
        return None
    return took if proc.exitcode == 0 else None


def main() -> None:
    """Measure every pair and write the offered ones with their slowest time."""
    table: dict[str, dict[str, float]] = {}
    for size in SIZES:
        for grade in (g.value for g in GRADES):
            times = [timed(size, grade, seed) for seed in SEEDS]
            ok = all(t is not None for t in times)
            print(f"{size}x{size} {grade}: {['-' if t is None else round(t, 2) for t in times]}",
                  file=sys.stderr, flush=True)
            if ok:
                table.setdefault(str(size), {})[grade] = round(max(times), 2)
    OUT.write_text(json.dumps({"limit": LIMIT, "seeds": list(SEEDS), "sizes": table}, indent=1) + "\n")


if __name__ == "__main__":
    main()
