"""Old bots against new, side by side: strong-bot games per side on 2 worker processes.

Run: .venv/bin/python bench/bots_speed.py [--old REF | --old-tree DIR] [--games N] [--rounds R]
     [--kinds old,pure,native]

`old` is the package at git REF (default 856e7ec, the bots before issue 39's speed-up), unpacked in a
temporary folder, or with `--old-tree DIR` the checkout in folder DIR, with whatever kernel was built
there (for example the mypyc kernel of a checkout from before the C one); `pure` is this checkout with
the pure Python search kernel (HASHI_PURE_BOTS=1); `native` this checkout with the C kernel built by
scripts/build_native_bots.py. Each round runs every kind on each side in turn (in a fresh process), so
that the machine's load falls on all of them alike; the table gives the median wall and CPU seconds
(workers included) per 10,000 games, the ratio to the first kind and the load average at each run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OLD = "856e7ec"
# One timed batch in a child process: the same simulate() call as bench/simulate.py's batch.
CHILD = """
import json, resource, sys, time
from hashi_print.game.board import builtin_side
from hashi_print.game.deck import load_deck
from hashi_print.game.scoring import load_scoring
from hashi_print.game.simulate import simulate
import hashi_print.game.bots as bots
side, games = sys.argv[1], int(sys.argv[2])
def cpu():
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime
s, d, sc = builtin_side(side), load_deck(), load_scoring()
w, c = time.perf_counter(), cpu()
sim = simulate(s, d, ["strong"], games, 7, scoring=sc, workers=2)
wall = time.perf_counter() - w
try:
    from hashi_print.game.simulate import close_pools
    close_pools()
except ImportError:
    pass
kernel = getattr(bots, "SEARCH", None)
print(json.dumps({"wall": wall, "cpu": cpu() - c, "mean": sim.summary["strong"].mean,
                  "kernel": kernel.__module__ if kernel else "old"}))
"""


def unpack(ref: str, into: Path) -> Path:
    """Unpack the package at git `ref` into a folder; return the folder to put on PYTHONPATH."""
    data = subprocess.run(["git", "archive", ref, "hashi_print"], cwd=ROOT, check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def run(kind: str, side: str, games: int, old_path: Path) -> dict[str, float | str]:
    """Time one batch of `kind` in a fresh process."""
    env = dict(os.environ)
    env.pop("HASHI_PURE_BOTS", None)
    if kind == "old":
        env["PYTHONPATH"] = str(old_path)
    elif kind == "pure":
        env["HASHI_PURE_BOTS"] = "1"
    cwd = old_path if kind == "old" else ROOT
    out = subprocess.run([sys.executable, "-c", CHILD, side, str(games)], env=env, cwd=cwd, check=True,
                         capture_output=True, text=True).stdout
    result: dict[str, float | str] = json.loads(out)
    result["load"] = os.getloadavg()[0]
    return result


def main() -> None:
    """Run the rounds and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", default=OLD, help="git ref of the old bots")
    ap.add_argument("--old-tree", type=Path, help="a checkout whose package (and built kernel) is `old`")
    ap.add_argument("--games", type=int, default=1000, help="games per side and run")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--kinds", default="old,pure,native")
    ap.add_argument("--sides", default="A,B")
    args = ap.parse_args()
    kinds = args.kinds.split(",")
    sides = args.sides.split(",")
    runs: dict[tuple[str, str], list[dict[str, float | str]]] = {(k, s): [] for k in kinds for s in sides}
    with tempfile.TemporaryDirectory() as tmp:
        if args.old_tree:
            old_path = args.old_tree.resolve()
        else:
            old_path = unpack(args.old, Path(tmp)) if "old" in kinds else Path(tmp)
        for r in range(args.rounds):
            for side in sides:
                for kind in kinds:
                    res = run(kind, side, args.games, old_path)
                    runs[(kind, side)].append(res)
                    print(f"round {r + 1} side {side} {kind:6s}: {res['wall']:.1f} s wall, "
                          f"{res['cpu']:.1f} CPU s, mean {res['mean']:.3f}, kernel {res['kernel']}, "
                          f"load {res['load']:.1f}", flush=True)
    scale = 10000 / args.games
    print(f"\nmedian of {args.rounds} rounds, {args.games} games per side and run, scaled to 10,000 games:")
    for side in sides:
        base = statistics.median(float(x["wall"]) for x in runs[(kinds[0], side)])
        for kind in kinds:
            walls = [float(x["wall"]) for x in runs[(kind, side)]]
            cpus = [float(x["cpu"]) for x in runs[(kind, side)]]
            loads = [float(x["load"]) for x in runs[(kind, side)]]
            wall = statistics.median(walls)
            cpu = statistics.median(cpus) * scale
            print(f"side {side} {kind:6s}: {wall * scale:6.1f} s wall, {cpu:6.1f} CPU s ({cpu / 2:5.1f} s on "
                  f"2 idle cores), {base / wall:4.2f}x {kinds[0]}'s wall; loads "
                  f"{', '.join(f'{x:.1f}' for x in loads)}")


if __name__ == "__main__":
    main()
