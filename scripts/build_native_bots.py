"""Compile the bots' search kernel (hashi_print/game/botsearch.py) with mypyc, for games about 2-3x faster.

Run: .venv/bin/python scripts/build_native_bots.py   (needs mypy, from the [test] extra, and a C compiler)

Installing the package does the same when it can (setup.py); this rebuilds the kernel of a checkout
after botsearch.py changed. It writes hashi_print/game/_botsearch_native*.so beside botsearch.py. The
bots use it only while it was built from the botsearch.py beside it (its SHA-256 is compiled in), so
an edit of botsearch.py falls back to the pure Python kernel until this is run again;
HASHI_PURE_BOTS=1 forces the pure one. Both play the same moves (tests/game/test_bot_replay.py
replays the recorded games with each).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from setup import compile_kernel  # noqa: E402 - setup.py sits at the top of the checkout


def main() -> None:
    """Compile the kernel beside botsearch.py and name the files written."""
    for path in compile_kernel(ROOT):
        print(path)


if __name__ == "__main__":
    main()
