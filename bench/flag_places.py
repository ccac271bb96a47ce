"""Where the flags sit: does moving side B's flags make it harder without making the strong bot pass more?

Usage: .venv/bin/python bench/flag_places.py [--colour blue] [--side FILE] [--deals 2] [--confirm 8]
       [--seed 11] [--out FILE]

Keeps side B's islands (the shipped side, or the side file given) and its flags of the other colour,
and tries every placement of the flags of `--colour` that the design's constraints allow. Each
placement is screened with the strong bot under a random setup (`deals` games per setup, each on a
deal of its own). The report gives the spread of the mean score and of the voluntary numeral skips
over all placements and how the two go together, then measures the `--confirm` placements with the
lowest screened means, and the given one, the way the design run checks its finalists (both setups,
strong and greedy bot, the shipped side A as the other
side) and lists what each misses besides six. Deterministic for a seed; run it under `nice`.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys

from hashi_print.files import write_atomic
from hashi_print.game.board import BoardSide, builtin_side, load_side
from hashi_print.game.deck import Deck, load_deck
from hashi_print.game.design import (
    AIMS,
    CONFIRM_SEED,
    SIDE_CROSSINGS,
    Budget,
    Check,
    Pool,
    _fmt,
    aim_checks,
    measure_side,
    placement_of,
    plain_setups,
    reached,
    side_of,
    side_problems,
)
from hashi_print.game.scoring import Scoring, load_scoring
from hashi_print.game.simulate import simulate

FLAGS = {"red": 4, "blue": 3}


def placements(side: BoardSide, colour: str) -> list[BoardSide]:
    """Every side with the same islands and other flags and `colour`'s flags placed anew, constraints met."""
    base = placement_of(side)
    kept = {c: f for c, f in base.items() if f and f != colour}
    free = sorted(c for c in base if c not in kept)
    out = []
    for chosen in itertools.combinations(free, FLAGS[colour]):
        placement = {c: kept.get(c, colour if c in chosen else None) for c in base}
        cand = side_of(side.name, side.rows, side.cols, placement)
        if not side_problems(cand, SIDE_CROSSINGS[side.name]):
            out.append(cand)
    return out


def flag_labels(side: BoardSide, colour: str) -> str:
    """The labels of the islands carrying `colour`'s flag, e.g. `GKL`."""
    return "".join(side.islands[i].label for i in side.flagged(colour))


def screen(side: BoardSide, deck: Deck, scoring: Scoring, deals: int, seed: int) -> tuple[float, float]:
    """The strong bot's mean and voluntary numeral skips under a random setup."""
    setups = plain_setups(side)
    sim = simulate(side, deck, ["strong"], deals * len(setups), seed, scoring=scoring, setup=setups,
                   workers=2, share_deals=False)
    s = sim.summary["strong"]
    return s.mean, s.voluntary_numeral_skips


def both(value: dict[tuple[str, str], str], objective: str) -> str:
    """An objective's values under the adversary's and a random setup, e.g. `4.28 / 4.01`."""
    return " / ".join(value[(k, objective)] for k in ("adversary", "random"))


def missed_besides_six(checks: list[Check]) -> list[str]:
    """The objectives missed, six aside, each as `ran. side A / side B mean 1.126`."""
    return [f"{c.setup[:3]}. {c.objective} {_fmt(c)}" for c in checks
            if not c.met and c.objective != reached("six")]


def report(given: BoardSide, colour: str, deals: int, confirm: int, seed: int) -> list[str]:
    """The report's lines: the screening's spread, then the confirmed placements with their misses."""
    name = given.name
    deck, scoring, budget, pool = load_deck(), load_scoring(), Budget(), Pool(2)
    cands = placements(given, colour)
    rows = [(screen(c, deck, scoring, deals, seed), c) for c in cands]
    means = [r[0][0] for r in rows]
    skips = [r[0][1] for r in rows]
    lines = [f"Side {name}, {colour} flags moved: {len(cands)} placements meet the constraints; "
             f"screened with {deals} deals per setup (random setup, strong bot).", "",
             f"- mean score {min(means):.1f}-{max(means):.1f}, voluntary numeral skips "
             f"{min(skips):.2f}-{max(skips):.2f}; correlation of the two over the placements "
             f"{statistics.correlation(means, skips):+.2f}",
             f"- the placement given ({flag_labels(given, colour)}): mean "
             f"{next(r[0][0] for r in rows if r[1] == given):.1f}", ""]
    other = measure_side(builtin_side("A"), deck, scoring, budget.confirm, 1 + CONFIRM_SEED, pool,
                         ("strong", "greedy"))
    picked = [c for _r, c in sorted(rows, key=lambda r: (r[0][0], flag_labels(r[1], colour)))[:confirm]]
    if given not in picked:
        picked.append(given)
    lines += ["| flags | mean (both setups) | side A / side B | voluntary numeral skips | "
              "numerals written | misses besides six |", "|---|---|---|---|---|---|"]
    for cand in picked:
        m = measure_side(cand, deck, scoring, budget.confirm, 1 + CONFIRM_SEED, pool, ("strong", "greedy"))
        checks = aim_checks(name, m, other)
        value = {(c.setup, c.objective): _fmt(c) for c in checks}
        misses = missed_besides_six(checks)
        lines.append(f"| {flag_labels(cand, colour)}{' (as given)' if cand == given else ''} | "
                     f"{m.mean():.1f} | {both(value, 'side A / side B mean')} | "
                     f"{both(value, 'voluntary numeral skips')} | {both(value, 'numerals written')} | "
                     f"{len(misses)}: {'; '.join(misses) or '-'} |")
    target = AIMS.get(name, AIMS["B"])
    lines += ["", f"Adversary / random setup; side {name} wants at most {target.numeral_skips:g} voluntary "
              "numeral skips, side A / side B at least 1.15."]
    return lines


def main(argv: list[str]) -> int:
    """Run the measurement and print (or write) the report."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--colour", choices=tuple(FLAGS), default="blue")
    ap.add_argument("--side", help="a hashi-side file of side B (default: the shipped side B)")
    ap.add_argument("--deals", type=int, default=2)
    ap.add_argument("--confirm", type=int, default=8)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    side = load_side(args.side) if args.side else builtin_side("B")
    text = "\n".join(report(side, args.colour, args.deals, args.confirm, args.seed)) + "\n"
    if args.out:
        write_atomic(args.out, text)
    else:
        print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
