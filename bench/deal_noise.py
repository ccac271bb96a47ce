"""How much a measured goal rate depends on the card orders: why the design plays each game on its own deal.

Usage: .venv/bin/python bench/deal_noise.py [--deals 30] [--seed 777] [--out FILE]

Plays the strong bot on each shipped side with the shipped deck and scoring: every setup (each unflagged
island with a 3 and with a 4) on the same `deals` deals. For each goal it reports the rate, how much the
rate varies from one deal to the next (over all setups of that deal), and the standard error of a rate
measured the two ways the design run could measure its random setup with the same number of games:
every setup on k shared deals, or every game on a deal of its own (k = the design's 3 deals per setup in
the search and 20 in the final games). The score row gives how much a deal's mean score varies, beside
the mean spread of the scores within one deal (over its setups), which is what ranking setups meets.
Deterministic for a seed; run it under `nice`.
"""

from __future__ import annotations

import argparse
import statistics
import sys

from hashi_print.files import write_atomic
from hashi_print.game.board import builtin_side
from hashi_print.game.deck import GOALS, load_deck
from hashi_print.game.design import plain_setups
from hashi_print.game.scoring import load_scoring
from hashi_print.game.simulate import simulate

KS = (3, 20)


def side_rows(name: str, deals: int, seed: int) -> list[str]:
    """The table rows of one side: each goal's rate, its spread between deals and both standard errors."""
    side, deck, scoring = builtin_side(name), load_deck(), load_scoring()
    setups = plain_setups(side)
    m = len(setups)
    sim = simulate(side, deck, ["strong"], deals * m, seed, scoring=scoring, setup=setups, workers=2)
    records = sim.records["strong"]
    rows = []
    for goal in GOALS:
        per_deal = [0.0] * deals
        for r in records:
            per_deal[r.index // m] += (r.goal_turn(goal) is not None) / m
        p = statistics.fmean(per_deal)
        spread = statistics.pstdev(per_deal)
        errors = " | ".join(f"{spread / k ** 0.5:.3f} | {(p * (1 - p) / (k * m)) ** 0.5:.3f}" for k in KS)
        rows.append(f"| {name} | {goal} | {p:.0%} | {spread:.2f} | {errors} |")
    scores = [[0.0] * m for _ in range(deals)]
    for r in records:
        scores[r.index // m][r.index % m] = r.score
    between = statistics.pstdev([statistics.fmean(d) for d in scores])
    within = statistics.fmean(statistics.pstdev(d) for d in scores)
    rows.append(f"| {name} | score | {statistics.fmean(r.score for r in records):.1f} points | "
                f"{between:.2f} (within a deal: {within:.2f}) |" + " |" * (2 * len(KS)))
    return rows


def main(argv: list[str]) -> int:
    """Run the measurement and print (or write) the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=777)
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    head = " | ".join(f"se, {k} shared deals | se, {k} x setups own deals" for k in KS)
    lines = [f"Strong bot, every setup on the same {args.deals} deals (seed {args.seed}).", "",
             f"| side | goal | rate | sd of a deal's rate | {head} |",
             "|---|---|---|---|" + "---|" * (2 * len(KS))]
    for name in ("A", "B"):
        lines += side_rows(name, args.deals, args.seed)
    text = "\n".join(lines) + "\n"
    if args.out:
        write_atomic(args.out, text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
