"""Fuzz every reader of outside input with many inputs: count escapes (anything but HashiError), time, memory.

Times are CPU seconds of this process (time.process_time), so a busy machine does not inflate them;
memory is the process's high-water mark (max RSS) after each reader, so it bounds every input so far.

Usage: .venv/bin/python bench/fuzz.py [--inputs 10000] [--readers tatham-id,sheet-text]
Prints a markdown table on stdout; exits 1 when any input made a reader raise something else.
The readers and their input strategies are the fuzz tests' own (tests/reader_fuzz.py).
"""

from __future__ import annotations

import argparse
import platform
import resource
import statistics
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from hashi_print.errors import HashiError  # noqa: E402
from tests.reader_fuzz import READERS  # noqa: E402


def fuzz(name: str, inputs: int) -> dict:
    """Run one reader on `inputs` generated inputs; return counts, escapes, times and peak memory."""
    strategy, read = READERS[name]
    seen = {"inputs": 0, "refused": 0, "escapes": [], "seconds": []}

    @settings(max_examples=inputs, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def one(text: str) -> None:
        seen["inputs"] += 1
        start = time.process_time()
        try:
            read(text)
        except HashiError:
            seen["refused"] += 1
        except Exception as err:  # noqa: BLE001 - counting exactly these is the point
            seen["escapes"].append(f"{type(err).__name__}: {err} <- {text[:80]!r}")
        seen["seconds"].append(time.process_time() - start)

    one()
    seen["max_rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return seen


def main() -> None:
    """Fuzz the chosen readers and print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--inputs", type=int, default=10_000)
    parser.add_argument("--readers", default=",".join(sorted(READERS)))
    args = parser.parse_args()
    print(f"Machine: {platform.machine()}, Python {platform.python_version()}; "
          f"{args.inputs} inputs asked per reader")
    print()
    print("| reader | inputs | refused (HashiError) | escapes | median CPU ms | max CPU ms | max RSS |")
    print("|---|---|---|---|---|---|---|")
    escaped = 0
    for name in args.readers.split(","):
        seen = fuzz(name, args.inputs)
        escaped += len(seen["escapes"])
        print(f"| {name} | {seen['inputs']} | {seen['refused']} | {len(seen['escapes'])} | "
              f"{1000 * statistics.median(seen['seconds']):.2f} | {1000 * max(seen['seconds']):.1f} | "
              f"{seen['max_rss'] / 2**20:.0f} MiB |", flush=True)
        for line in seen["escapes"][:5]:
            print(f"  - {line}")
    sys.exit(1 if escaped else 0)


if __name__ == "__main__":
    main()
