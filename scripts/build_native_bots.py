"""Compile the bots' search kernel in C (hashi_print/game/_botsearch_native.c) beside botsearch.py.

Run: .venv/bin/python scripts/build_native_bots.py   (needs a C compiler and Python's headers)

Installing the package does the same when it can (setup.py); this rebuilds the kernel of a checkout
after botsearch.py or the C file changed. It writes hashi_print/game/_botsearch_native*.so. The bots
use it only while it was built beside the botsearch.py it mirrors (that file's SHA-256 is compiled
in), so an edit of botsearch.py falls back to the pure Python kernel until the C file is brought in
line and this is run again; HASHI_PURE_BOTS=1 forces the pure one. Both play the same moves
(tests/game/test_bot_replay.py replays the recorded games with each).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from setup import build_in_place  # noqa: E402 - setup.py sits at the top of the checkout


def main() -> None:
    """Compile the kernel beside botsearch.py and name the files written."""
    for path in build_in_place():
        print(path)


if __name__ == "__main__":
    main()
