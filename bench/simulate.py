"""Benchmark the bots: games per second per bot (one process), and a batch of strong games on 2 cores.

Run: .venv/bin/python bench/simulate.py [--games N] [--batch N] [--runs R]
Reports wall-clock and CPU rates: the machine is shared, so CPU seconds show the bots' own cost.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from hashi_print.game.board import builtin_side
from hashi_print.game.deck import load_deck
from hashi_print.game.scoring import load_scoring
from hashi_print.game.simulate import play_game, simulate


def cpu_seconds() -> float:
    """CPU time of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def per_bot(side_name: str, games: int, runs: int) -> None:
    """Games per second of each bot in one process (median of `runs`)."""
    side, deck, scoring = builtin_side(side_name), load_deck(), load_scoring()
    for bot in ("random", "greedy", "strong"):
        wall, cpu = [], []
        for r in range(runs):
            w, c = time.perf_counter(), cpu_seconds()
            for i in range(games):
                play_game(side, deck, scoring, bot, "hostile", i, 1000 + r)
            wall.append(games / (time.perf_counter() - w))
            cpu.append(games / (cpu_seconds() - c))
        print(f"side {side_name} {bot:6s}: {statistics.median(wall):7.1f} games/s wall, "
              f"{statistics.median(cpu):7.1f} games/s per CPU second (median of {runs} x {games} games)")


def batch(side_name: str, games: int) -> None:
    """Time `games` strong-bot games on 2 worker processes."""
    side, deck, scoring = builtin_side(side_name), load_deck(), load_scoring()
    w, c = time.perf_counter(), cpu_seconds()
    sim = simulate(side, deck, ["strong"], games, 7, scoring=scoring, workers=2)
    wall, cpu = time.perf_counter() - w, cpu_seconds() - c
    print(f"side {side_name}: {games} strong games on 2 workers in {wall:.1f} s wall, {cpu:.1f} CPU s "
          f"(mean score {sim.summary['strong'].mean:.2f}); 10,000 games would take about "
          f"{wall * 10000 / games:.0f} s wall here, {cpu * 10000 / games / 2:.0f} s on 2 idle cores")


def main() -> None:
    """Parse arguments and run the benchmarks."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20, help="games per bot and run")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--batch", type=int, default=400, help="strong games per side on 2 workers")
    args = ap.parse_args()
    for name in ("A", "B"):
        per_bot(name, args.games, args.runs)
        batch(name, args.batch)


if __name__ == "__main__":
    main()
