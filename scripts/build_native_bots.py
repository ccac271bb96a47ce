"""Compile the C modules of a checkout: the bots' search kernel, the solver's root propagation, the deducer.

Run: .venv/bin/python scripts/build_native_bots.py   (needs a C compiler and Python's headers)

Installing the package does the same when it can (setup.py); this rebuilds them in a checkout after a
C file or a Python file it mirrors changed. It writes hashi_print/game/_botsearch_native*.so (the
search of botsearch.py), hashi_print/puzzle/_presolve_native*.so (presolve.py's root propagation
and formula) and hashi_print/puzzle/_deduce_native*.so (the quiet run of deduce_engine.py and
deduce_techniques.py). Each is used only while it was built beside the Python files it mirrors (their
SHA-256 is compiled in), so an edit of one falls back to Python until the C file is brought in line and
this is run again; HASHI_PURE_BOTS=1, HASHI_PURE_PRESOLVE=1 and HASHI_PURE_DEDUCE=1 force the Python
code. Both give the same results (tests/game/test_bot_replay.py, tests/game/test_bot_kernel.py,
tests/puzzle/test_presolve_native.py and tests/puzzle/test_deduce_native.py compare them).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from setup import build_in_place  # noqa: E402 - setup.py sits at the top of the checkout


def main() -> None:
    """Compile the C modules in place and name the files written."""
    for path in build_in_place():
        print(path)


if __name__ == "__main__":
    main()
