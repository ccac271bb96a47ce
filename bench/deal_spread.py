"""How far do the final games' verdicts on side B depend on their deals?

Usage: .venv/bin/python bench/deal_spread.py [--flags "red D G L M, blue B E H" ...] [--seeds 21,101,102,103]
       [--moves] [--out FILE]

Plays the shipped side A and side B with each flag placement given (always the shipped one too) at
the size of the design run's final games (20 games x every setup, 240 under the adversary's setup,
strong and greedy bot) on the deals of each seed, and lists for each: side A / side B under both
setups, the voluntary numeral skips, and every objective missed besides six. Seed 21 is the deals the
design report's final games use for seed 1. `--moves` first measures every one-flag move of the
shipped side B on the first seed's deals and adds those that miss nothing besides six. Deterministic;
run it under `nice` (about 17 s a side and seed on two idle cores).
"""

from __future__ import annotations

import argparse
import sys

# The flag bench beside this one writes an objective's two setups and the misses the same way.
from flag_places import both, missed_besides_six

from hashi_print.files import write_atomic
from hashi_print.game.board import BoardSide, builtin_side
from hashi_print.game.deck import load_deck
from hashi_print.game.design import (
    MAX_LANES,
    SIDE_CROSSINGS,
    Budget,
    Check,
    Pool,
    _fmt,
    aim_checks,
    flag_moves,
    flag_text,
    measure_side,
    side_of,
    side_problems,
)
from hashi_print.game.scoring import load_scoring

BOTS = ("strong", "greedy")


def with_flags(side: BoardSide, text: str) -> BoardSide:
    """Side B's islands with the flags of `text` (as the report writes them: `red D G L M, blue B E H`)."""
    cells = {i.label: (i.row, i.col) for i in side.islands}
    placement = {cell: None for cell in cells.values()}
    for part in text.split(","):
        colour, *labels = part.split()
        if colour not in ("red", "blue") or any(label not in cells for label in labels):
            sys.exit(f"deal_spread: --flags {text!r}: expected e.g. 'red D G L M, blue B E H'")
        placement.update({cells[label]: colour for label in labels})
    out = side_of(side.name, side.rows, side.cols, placement)
    if problems := side_problems(out, SIDE_CROSSINGS[side.name]):
        sys.exit(f"deal_spread: --flags {text!r}: {problems[0]}")
    return out


def row(side_b: BoardSide, seed: int, checks: list[Check]) -> str:
    """One table row: A / B and numeral skips under both setups, and the objectives missed besides six."""
    value = {(c.setup, c.objective): _fmt(c) for c in checks}
    missed = missed_besides_six(checks)
    said = f"{len(missed)}: " + "; ".join(missed) if missed else "0"
    return "| " + " | ".join((flag_text(side_b), str(seed), both(value, "side A / side B mean"),
                               both(value, "voluntary numeral skips"), said)) + " |"


def main() -> None:
    """Measure the placements on every seed's deals and print (or write) a Markdown table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--flags", action="append", default=[], help="a side B flag placement to measure too")
    ap.add_argument("--seeds", default="21,101,102,103", help="the deal sets, as seeds")
    ap.add_argument("--moves", action="store_true", help="try every one-flag move on the first seed first")
    ap.add_argument("--out", help="write the report here instead of printing it")
    args = ap.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")][:10]
    deck, scoring, pool = load_deck(), load_scoring(), Pool(2)
    side_a, shipped = builtin_side("A"), builtin_side("B")
    sides = [shipped, *(with_flags(shipped, text) for text in args.flags)]
    a_measures = {s: measure_side(side_a, deck, scoring, Budget().final, s, pool, BOTS) for s in seeds}
    seen: dict[tuple[str, int], list[Check]] = {}

    def checks_of(side_b: BoardSide, seed: int) -> list[Check]:
        """Side B's objectives on the deals of `seed`, measured once per placement."""
        key = (flag_text(side_b), seed)
        if key not in seen:
            m = measure_side(side_b, deck, scoring, Budget().final, seed, pool, BOTS)
            seen[key] = aim_checks("B", m, a_measures[seed])
        return seen[key]

    def value(checks: list[Check], objective: str, setup: str) -> float:
        """One objective's measured value under one setup."""
        return next(c.value for c in checks if c.objective == objective and c.setup == setup)

    lines = []
    if args.moves:
        moves = flag_moves(shipped, MAX_LANES.get("B"), SIDE_CROSSINGS["B"])
        measured = [checks_of(c, seeds[0]) for c in moves]
        kept = [c for c, cs in zip(moves, measured, strict=True) if not missed_besides_six(cs)]
        harder = [cs for cs in measured if value(cs, "side A / side B mean", "random") >= 1.15]
        calm = [cs for cs in harder
                if max(value(cs, "voluntary numeral skips", k) for k in ("adversary", "random")) <= 4]
        lines += [f"Every one-flag move of the shipped side B, seed {seeds[0]}'s deals: {len(moves)} moves; "
                  f"{len(kept)} miss nothing besides six; {len(harder)} make side A / side B >= 1.15 with a "
                  f"random setup, {len(calm)} of those with numeral skips <= 4 under both setups.", ""]
        sides += [c for c in kept if c not in sides]
    lines += ["| side B flags | deals (seed) | side A / side B (adv. / random) | voluntary numeral skips | "
              "missed besides six |", "|---|---|---|---|---|"]
    for seed in seeds:
        for side in sides:
            lines.append(row(side, seed, checks_of(side, seed)))
            print(lines[-1], file=sys.stderr, flush=True)
    text = "\n".join(lines) + "\n"
    if args.out:
        write_atomic(args.out, text)
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
