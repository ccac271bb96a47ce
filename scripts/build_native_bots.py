"""Compile the bots' search kernel (hashi_print/game/botsearch.py) with mypyc, for games about 2-3x faster.

Run: .venv/bin/python scripts/build_native_bots.py   (needs mypy, from the [test] extra, and a C compiler)

Writes hashi_print/game/_botsearch_native*.so beside botsearch.py. The bots use it only while it was
built from the botsearch.py beside it (its SHA-256 is compiled in), so an edit of botsearch.py falls
back to the pure Python kernel until this is run again; HASHI_PURE_BOTS=1 forces the pure one. Both
play the same moves (tests/game/test_bot_replay.py replays the recorded games with each).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

GAME = Path(__file__).resolve().parent.parent / "hashi_print" / "game"
NAME = "_botsearch_native"


def main() -> None:
    """Compile a copy of botsearch.py that records its source's hash, and put the extension in place."""
    source = (GAME / "botsearch.py").read_bytes()
    digest = hashlib.sha256(source).hexdigest()
    with tempfile.TemporaryDirectory() as tmp:
        pkg = Path(tmp) / "hashi_print" / "game"
        pkg.mkdir(parents=True)
        (pkg.parent / "__init__.py").write_text("")
        (pkg / "__init__.py").write_text("")
        text = source.decode() + f'\n\nSOURCE_SHA256 = "{digest}"\n'
        (pkg / f"{NAME}.py").write_text(text)
        subprocess.run([sys.executable, "-m", "mypyc", f"hashi_print/game/{NAME}.py"], cwd=tmp, check=True)
        for old in GAME.glob(f"{NAME}*.so"):
            old.unlink()
        for built in pkg.glob(f"{NAME}*.so"):
            shutil.copy2(built, GAME / built.name)
            print(GAME / built.name)


if __name__ == "__main__":
    main()
