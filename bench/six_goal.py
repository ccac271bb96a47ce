"""Why the six goal is reached so often: the strong bot on many candidate sides and decks (issue 13).

Usage: .venv/bin/python bench/six_goal.py [--sides 30] [--deals 2] [--seed 1] [--out bench/six-goal.md]
       .venv/bin/python bench/six_goal.py --design [--seed 1] [--budget STEPS] [--max-lanes A,B] [--out FILE]
       .venv/bin/python bench/six_goal.py --groups [--deals 8] [--out FILE]
       .venv/bin/python bench/six_goal.py --bridges [--deals 4] [--out FILE]

Every measurement plays the strong bot under the random setup (every unflagged island with a 3 and with
a 4, `deals` deals each: the design run's screening) with the design run's provisional six value. It
reports the six, red and blue rates, the voluntary numeral skips, the circled islands and the largest
group of circled islands joined by bridges, for: the shipped sides; random sides that meet every hard
constraint (sparser and denser); the same sides with the flags moved to 2-lane islands; sides annealed
towards a hub-and-leaf lane graph (no lane joins two 2-lane islands or two islands with 3-4 lanes); and
other decks on the shipped and the sparsest sides. With --design it runs the whole design search
starting from the deck with many 1s and 2s and tabulates every objective of its final games (the
shipped layouts are not touched). With --groups it plays the shipped sides and deck (random setup and
the shipped adversary's setup) and reports how often the largest circled group reaches 6 to 14 islands:
how often a goal of that many joined islands would be reached if the bots played as they do now. With
--bridges it plays the shipped sides with the shipped deck's bridges lowered step by step (below the
design's 30-35 bridges) and reports six, the flags and the skips for each bridge total.
Deterministic for a seed; run it under `nice`.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import hashi_print.game.design as design_module
from hashi_print.files import write_atomic
from hashi_print.game.board import BoardSide, builtin_side
from hashi_print.game.deck import CARDS_PLAYED, Card, Deck, card_from_text, designed_json, load_deck
from hashi_print.game.design import (
    AIMS,
    SIDE_CROSSINGS,
    SIZES,
    Placement,
    _free_cells,
    budget_from,
    deck_problems,
    deck_text,
    design,
    plain_setups,
    provisional_scoring,
    random_side,
    side_of,
    side_problems,
)
from hashi_print.game.design_report import objectives_tables
from hashi_print.game.rules import circled_groups
from hashi_print.game.simulate import play_game
from hashi_print.geometry import build_geometry, crossing_pairs
from hashi_print.sheets.formats import parse_numeral

ALIGNS = (0.5, 0.6, 0.7, 0.85)
PROBE_SEED = 5


@dataclass(frozen=True)
class Probe:
    """The strong bot's games on one side and deck: goal rates, skips, circles, the largest circled group."""

    six: float
    red: float
    blue: float
    numeral_skips: float
    numeral_share: float
    circled: float
    largest: float
    mean: float
    lanes: int
    crossings: int
    two_lane: int


_WORK: dict[str, object] = {}


def _init(side: BoardSide, deck: Deck, setups: tuple[tuple[int, int], ...]) -> None:
    """Keep the batch's fixed inputs in the worker."""
    _WORK.update(side=side, deck=deck, setups=setups)


def _play(index: int) -> tuple[int, int, int, int, int, int, int]:
    """One strong game: six/red/blue reached, voluntary numeral skips, skips, circled, largest group."""
    side, deck = _WORK["side"], _WORK["deck"]
    rec, _moves, state = play_game(side, deck, provisional_scoring(), "strong", _WORK["setups"],  # type: ignore[arg-type]
                                   index, PROBE_SEED)
    largest = max((len(g) for g in circled_groups(state)), default=0)
    reached = [rec.goal_turn(g) is not None for g in ("six", "red", "blue")]
    return (*map(int, reached), rec.numeral_skips - rec.forced_numeral_skips, rec.numeral_skips,  # type: ignore[return-value]
            rec.circled, largest, rec.score)


def _games(side: BoardSide, deck: Deck, setups: tuple[tuple[int, int], ...], games: int,
           workers: int) -> list[tuple[int, int, int, int, int, int, int]]:
    """`_play`'s row for each of `games` strong games, the setups taken in turn on common deals."""
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(workers, initializer=_init, initargs=(side, deck, setups)) as pool:
        return pool.map(_play, range(games), chunksize=4)


def groups_table(deals: int, workers: int, note: Callable[[str], None]) -> str:
    """How often the largest circled group reaches each size on the shipped sides, both setups."""
    sizes = range(6, 15)
    adversary = designed_json("scoring.json")["design"]["adversary"]
    lines = ["## A goal of more joined islands: the largest circled group on the shipped sides", "",
             f"Command: `.venv/bin/python bench/six_goal.py --groups --deals {deals}`; strong bot, "
             f"shipped deck, provisional six value {provisional_scoring().bonus['six']}; random setup: "
             f"{deals} deals x every setup; adversary: the shipped adversary's setup on {deals * 25} "
             "deals. Each cell is the share of games whose largest group of circled islands joined by "
             "bridges has at least that many islands. The bot plays for today's six goal, so a goal of "
             "N islands with its own bonus would be reached somewhat more often than shown.", "",
             "| side | setup | games | band | " + " | ".join(f">= {n}" for n in sizes) + " |",
             "|---" * (4 + len(sizes)) + "|"]
    for name in ("A", "B"):
        side = builtin_side(name)
        setups = plain_setups(side)
        text = adversary[name]
        runs = (("random", setups, deals * len(setups)),
                (f"adversary {text}", (parse_numeral(side, text, None),), deals * 25))
        low, high = AIMS[name].goal_band
        for kind, setups, games in runs:
            note(f"side {name}, {kind}: {games} games")
            big = [row[6] for row in _games(side, load_deck(), setups, games, workers)]
            cells = [sum(b >= n for b in big) / len(big) for n in sizes]
            marked = [f"**{_pct(c)}**" if low <= c <= high else _pct(c) for c in cells]
            band = f"{_pct(low)}-{_pct(high)}"
            lines.append(f"| {name} | {kind} | {games} | {band} | " + " | ".join(marked) + " |")
    lines += ["", "Bold: inside the side's goal band."]
    return "\n".join(lines) + "\n"


def measure(side: BoardSide, deck: Deck, deals: int, workers: int) -> Probe:
    """Play every setup on `deals` common deals with the strong bot and summarise."""
    setups = plain_setups(side)
    col = list(zip(*_games(side, deck, setups, deals * len(setups), workers), strict=True))
    geo = side.geometry
    return Probe(six=statistics.fmean(col[0]), red=statistics.fmean(col[1]), blue=statistics.fmean(col[2]),
                 numeral_skips=statistics.fmean(col[3]),
                 numeral_share=1 - statistics.fmean(col[4]) / CARDS_PLAYED,
                 circled=statistics.fmean(col[5]), largest=statistics.fmean(col[6]),
                 mean=statistics.fmean(col[7]), lanes=len(geo.lanes), crossings=len(crossing_pairs(geo)),
                 two_lane=sum(1 for lanes in geo.lanes_of if len(lanes) == 2))


# --- candidate sides --------------------------------------------------------------------------

def random_sides(name: str, count: int, rng: random.Random) -> list[BoardSide]:
    """Random sides meeting every hard constraint, alternating how many islands are placed in line."""
    rows, cols = SIZES[name]
    return [random_side(name, rows, cols, rng, min_crossings=SIDE_CROSSINGS[name],
                        aligned=ALIGNS[k % len(ALIGNS)]) for k in range(count)]


def flags_on_two_lane(side: BoardSide, rng: random.Random, tries: int = 3000) -> BoardSide | None:
    """The same islands with the 7 flags on 2-lane islands (still meeting every constraint), or None."""
    geo = side.geometry
    cells = [(i.row, i.col) for i in side.islands]
    two = [c for c, lanes in zip(cells, geo.lanes_of, strict=True) if len(lanes) == 2]
    if len(two) < 7:
        return None
    for _ in range(tries):
        placement: Placement = dict.fromkeys(cells)
        for k, cell in enumerate(rng.sample(two, 7)):
            placement[cell] = "red" if k < 4 else "blue"
        cand = side_of(side.name, side.rows, side.cols, placement)
        if not side_problems(cand, SIDE_CROSSINGS[side.name]):
            return cand
    return None


def _hub_leaf_cost(rows: int, cols: int, cells: Sequence[tuple[int, int]], crossings: int) -> int:
    """How far islands on these cells are from a hub-and-leaf lane graph meeting the lane constraints."""
    geo = build_geometry(rows, cols, sorted(cells))
    deg = [len(lanes) for lanes in geo.lanes_of]
    cost = 10 * sum(max(0, 2 - d) for d in deg) + (0 if geo.lane_graph_connected() else 10)
    cost += 3 * sum(1 for ln in geo.lanes if (deg[ln.a] >= 3) == (deg[ln.b] >= 3))
    return cost + abs(len(geo.lanes) - 24) + 3 * max(0, crossings - len(crossing_pairs(geo)))


def hub_leaf_side(name: str, rng: random.Random, steps: int = 6000) -> BoardSide | None:
    """Anneal 18 island cells towards a hub-and-leaf lane graph, then flag it (None if no flags fit)."""
    rows, cols = SIZES[name]
    crossings = SIDE_CROSSINGS[name]
    cells: list[tuple[int, int]] = []
    while len(cells) < 18:
        free = _free_cells(rows, cols, cells)
        if not free:
            cells = []
            continue
        cells.append(rng.choice(free))
    cost = _hub_leaf_cost(rows, cols, cells, crossings)
    for step in range(steps):
        heat = 2.0 * (1 - step / steps) + 0.05
        k = rng.randrange(len(cells))
        rest = cells[:k] + cells[k + 1:]
        new = rest + [rng.choice(_free_cells(rows, cols, rest))]
        new_cost = _hub_leaf_cost(rows, cols, new, crossings)
        if new_cost <= cost or rng.random() < math.exp((cost - new_cost) / heat):
            cells, cost = new, new_cost
    for _ in range(3000):
        placement: Placement = dict.fromkeys(cells)
        for k, cell in enumerate(rng.sample(cells, 7)):
            placement[cell] = "red" if k < 4 else "blue"
        side = side_of(name, rows, cols, placement)
        if not side_problems(side, crossings):
            return side
    return None


# --- decks -------------------------------------------------------------------------------------

def _deck(numerals: Sequence[int], bridges: Sequence[int]) -> Deck:
    """A deck from parallel lists, checked against the design's deck constraints."""
    deck = Deck(tuple(sorted(Card(n, b) for n, b in zip(numerals, bridges, strict=True))))
    problems = deck_problems(deck)
    if problems:
        raise ValueError("; ".join(problems))
    return deck


# Many 1s and 2s, the fewest 5s and 6s the deck constraints allow (found by hill climbing the deck on the
# sparsest random side A with the strong bot; 32 bridges).
LOW_DECK = "1/1 1/1 1/2 1/3 2/1 2/2 2/2 2/2 2/3 3/1 3/3 4/1 4/2 4/2 5/1 5/2 6/1 6/2"


def low_deck() -> Deck:
    """LOW_DECK as a Deck (it meets the deck constraints)."""
    deck = Deck(tuple(sorted(card_from_text(t) for t in LOW_DECK.split())))
    assert not deck_problems(deck)
    return deck


def decks() -> dict[str, Deck]:
    """The shipped deck and four others: more 1-4s; more 5-6s, 30 bridges; the shipped numerals, 30;
    many 1s and 2s."""
    return {
        "shipped": load_deck(),
        "many 1-2 (32 bridges)": low_deck(),
        "more 1-4 (34 bridges)": _deck([1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6],
                                        [1, 2, 3, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 1, 2, 1, 2]),
        "more 5-6 (30 bridges)": _deck([1, 1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 6, 6],
                                        [2, 1, 2, 1, 2, 1, 3, 1, 2, 2, 1, 2, 2, 1, 2, 2, 2, 1]),
        "shipped numerals (30 bridges)": _deck([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6],
                                                [1, 1, 2, 1, 2, 2, 1, 2, 2, 1, 2, 3, 1, 2, 2, 1, 2, 2]),
    }


# --- the report --------------------------------------------------------------------------------

def _pct(x: float) -> str:
    """A rate in whole per cent."""
    return f"{x:.0%}"


def _mean(probes: Sequence[Probe], attr: str) -> float:
    """The mean of one field over probes."""
    return statistics.fmean(getattr(p, attr) for p in probes)


def _corr(xs: Sequence[float], ys: Sequence[float]) -> str:
    """Pearson's r as text, `n/a` when either list is constant."""
    try:
        return f"{statistics.correlation(xs, ys):+.2f}"
    except statistics.StatisticsError:
        return "n/a"


def row(label: str, p: Probe) -> str:
    """One table row for a probe."""
    return (f"| {label} | {p.lanes} | {p.crossings} | {p.two_lane} | {_pct(p.six)} | {_pct(p.red)} "
            f"| {_pct(p.blue)} | {p.numeral_skips:.2f} | {_pct(p.numeral_share)} | {p.circled:.1f} "
            f"| {p.largest:.1f} | {p.mean:.1f} |")


HEAD = ("| side | lanes | crossing pairs | 2-lane islands | six | red | blue | voluntary numeral skips "
        "| numerals written | circled | largest circled group | mean |\n" + "|---" * 12 + "|")


def frontier(name: str, probes: Sequence[Probe]) -> list[str]:
    """Six rate by voluntary numeral skips, and the fewest skips among sides with six in the band."""
    want = AIMS[name]
    low, high = want.goal_band
    limit = want.numeral_skips
    edges = (-math.inf, limit, limit + 1, limit + 2, math.inf)
    labels = (f"<= {limit:g}", f"{limit:g}-{limit + 1:g}", f"{limit + 1:g}-{limit + 2:g}", f"> {limit + 2:g}")
    out = ["| voluntary numeral skips | sides | lowest six | median six | median circled "
           "| median largest group |", "|---|---|---|---|---|---|"]
    for k, label in enumerate(labels):
        chosen = [p for p in probes if edges[k] < p.numeral_skips <= edges[k + 1]]
        if chosen:
            out.append(f"| {label} | {len(chosen)} | {_pct(min(p.six for p in chosen))} "
                       f"| {_pct(statistics.median(p.six for p in chosen))} "
                       f"| {statistics.median(p.circled for p in chosen):.1f} "
                       f"| {statistics.median(p.largest for p in chosen):.1f} |")
        else:
            out.append(f"| {label} | 0 | - | - | - | - |")
    in_band = [p for p in probes if low <= p.six <= high]
    fewest = f"{min(p.numeral_skips for p in in_band):.2f}" if in_band else "none"
    both = sum(1 for p in in_band if p.numeral_skips <= limit)
    out.append("")
    out.append(f"Sides with six in {low:.0%}-{high:.0%}: {len(in_band)} of {len(probes)}; fewest voluntary "
               f"numeral skips among them: {fewest} (target <= {limit:g}); sides meeting both: {both}.")
    six = [p.six for p in probes]
    out.append(f"Correlation over these sides: six with voluntary numeral skips "
               f"{_corr(six, [p.numeral_skips for p in probes])}, six with lanes "
               f"{_corr(six, [float(p.lanes) for p in probes])}, largest circled group with circled islands "
               f"{_corr([p.largest for p in probes], [p.circled for p in probes])}.")
    return out


def report(sides: int, deals: int, seed: int, workers: int, note: Callable[[str], None]) -> str:
    """Run every experiment and return the Markdown report."""
    rng = random.Random(seed)
    shipped = load_deck()
    lines = [f"Command: `.venv/bin/python bench/six_goal.py --sides {sides} --deals {deals} --seed {seed}`; "
             f"strong bot, random setup, {deals} deals x every setup (44 games on 11 unflagged islands), "
             f"provisional six value {provisional_scoring().bonus['six']}.", ""]
    probes: dict[str, list[Probe]] = {}
    sparse: dict[str, list[tuple[float, BoardSide]]] = {}
    for name in ("A", "B"):
        note(f"side {name}: shipped and {sides} random sides")
        lines += [f"## Side {name}", "", HEAD,
                  row("shipped", measure(builtin_side(name), shipped, deals, workers))]
        cands = random_sides(name, sides, rng)
        measured = [(measure(s, shipped, deals, workers), s) for s in cands]
        probes[name] = [p for p, _ in measured]
        sparse[name] = sorted(((p.six, s) for p, s in measured), key=lambda x: x[0])[:2]
        for k, (p, _s) in enumerate(sorted(measured, key=lambda x: x[0].six)[:5]):
            lines.append(row(f"random, {k + 1}. lowest six", p))
        lines += ["", f"### Random sides (all {sides} meet every hard constraint): six against skips", ""]
        lines += frontier(name, probes[name])
        note(f"side {name}: flags moved to 2-lane islands")
        pairs = []
        for p, s in measured:
            moved = flags_on_two_lane(s, rng)
            if moved is not None:
                pairs.append((p, measure(moved, shipped, deals, workers)))
        if pairs:
            lines += ["", f"### The same sides with the 7 flags on 2-lane islands ({len(pairs)} sides)", "",
                      "| | six | red | blue | voluntary numeral skips | largest circled group |",
                      "|---|---|---|---|---|---|"]
            for k, label in enumerate(("flags as drawn", "flags on 2-lane islands")):
                mine = [pair[k] for pair in pairs]
                lines.append(f"| {label} | {_pct(_mean(mine, 'six'))} | {_pct(_mean(mine, 'red'))} "
                             f"| {_pct(_mean(mine, 'blue'))} | {_mean(mine, 'numeral_skips'):.2f} "
                             f"| {_mean(mine, 'largest'):.1f} |")
        note(f"side {name}: hub-and-leaf sides")
        lines += ["", "### Sides annealed towards a hub-and-leaf lane graph", "", HEAD]
        for k in range(4):
            hub = hub_leaf_side(name, rng)
            if hub is not None:
                lines.append(row(f"hub-and-leaf {k + 1}", measure(hub, shipped, deals, workers)))
        lines.append("")
    note("decks")
    lines += ["## Decks", "", "| side | deck | bridges | six | red | blue | voluntary numeral skips "
              "| numerals written | circled | largest circled group |", "|---" * 10 + "|"]
    tried = [(f"shipped {n}", builtin_side(n)) for n in ("A", "B")]
    tried += [(f"random {n}, {k + 1}. lowest six", s)
              for n in ("A", "B") for k, (_six, s) in enumerate(sparse[n])]
    for label, side in tried:
        for deck_name, deck in decks().items():
            p = measure(side, deck, deals, workers)
            lines.append(f"| {label} | {deck_name} | {sum(c.bridges for c in deck.cards)} | {_pct(p.six)} "
                         f"| {_pct(p.red)} | {_pct(p.blue)} | {p.numeral_skips:.2f} "
                         f"| {_pct(p.numeral_share)} | {p.circled:.1f} | {p.largest:.1f} |")
    return "\n".join(lines) + "\n"


def fewer_bridges(deck: Deck, total: int) -> Deck:
    """The deck with its bridges lowered to `total`, one at a time from the card with the most (the higher
    numeral first); below the design's bridge range, so not checked against it."""
    bridges = [c.bridges for c in deck.cards]
    while sum(bridges) > total:
        k = max(range(len(bridges)), key=lambda k: (bridges[k], deck.cards[k].numeral))
        bridges[k] -= 1
    return Deck(tuple(sorted(Card(c.numeral, b) for c, b in zip(deck.cards, bridges, strict=True))))


def bridges_table(deals: int, workers: int, note: Callable[[str], None]) -> str:
    """The shipped sides with the shipped deck's bridges lowered: six, flags, skips per bridge total."""
    lines = ["## Fewer bridges in the deck", "",
             f"Command: `.venv/bin/python bench/six_goal.py --bridges --deals {deals}`; strong bot, random "
             f"setup ({deals} deals x every setup), the shipped sides and the shipped deck's numerals, "
             "its bridges lowered one at a time from the card with the most.", "",
             "| side | bridges | six | red | blue | voluntary numeral skips | numerals written | circled "
             "| largest circled group | mean |", "|---" * 10 + "|"]
    deck = load_deck()
    start = sum(c.bridges for c in deck.cards)
    for name in ("A", "B"):
        side = builtin_side(name)
        for total in (start, *(t for t in (30, 28, 26, 24, 22) if t < start)):
            note(f"side {name}, {total} bridges")
            p = measure(side, fewer_bridges(deck, total), deals, workers)
            lines.append(f"| {name} | {total} | {_pct(p.six)} | {_pct(p.red)} | {_pct(p.blue)} | "
                         f"{p.numeral_skips:.2f} | {_pct(p.numeral_share)} | {p.circled:.1f} | "
                         f"{p.largest:.1f} | {p.mean:.1f} |")
    return "\n".join(lines) + "\n"


def design_table(seed: int, steps: int | None, caps: tuple[int, int] | None, workers: int,
                 note: Callable[[str], None]) -> str:
    """Run the design search from the deck with many 1s and 2s (side A and B lanes capped at `caps`)
    and tabulate its final games' objectives."""
    note(f"design run, seed {seed}, starting from the deck with many 1s and 2s")
    if caps:
        # The side search reads its lane caps from the design module; this process runs one design.
        design_module.MAX_LANES.update(A=caps[0], B=caps[1])
    result = design(seed, budget_from(steps), workers=workers, start=low_deck())
    budget = "" if steps is None else f" --budget {steps}"
    budget += f" --max-lanes {caps[0]},{caps[1]}" if caps else ""
    lines = [f"## Design run from the deck with many 1s and 2s (seed {seed}, "
             f"{result.budget.side_steps} steps per side)", "",
             f"Command: `.venv/bin/python bench/six_goal.py --design --seed {seed}{budget}` (the search "
             f"starts from `{LOW_DECK}` instead of the shipped run's starting deck). Chosen deck: "
             f"`{deck_text(result.deck)}`; six value {result.scoring.bonus['six']}.", ""]
    return "\n".join(lines + objectives_tables([result]))


def main() -> None:
    """Parse arguments, run the experiments, write or print the report."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sides", type=int, default=30, help="random sides per board side")
    ap.add_argument("--deals", type=int, default=2, help="deals per setup")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", help="write the Markdown report here (default: print it)")
    ap.add_argument("--design", action="store_true",
                    help="instead: run the design search from the deck with many 1s and 2s")
    ap.add_argument("--budget", type=int,
                    help="with --design: search steps per side (default: the shipped run's)")
    ap.add_argument("--max-lanes", help="with --design: at most this many lanes on side A and B, e.g. 22,21")
    ap.add_argument("--groups", action="store_true",
                    help="instead: how often the largest circled group reaches 6-14 islands (shipped sides)")
    ap.add_argument("--bridges", action="store_true",
                    help="instead: the shipped sides, fewer bridges in the deck (down to 22)")
    args = ap.parse_args()
    note = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731 - a one-line printer
    caps = tuple(int(x) for x in args.max_lanes.split(",")) if args.max_lanes else None
    if caps is not None and len(caps) != 2:
        ap.error("--max-lanes takes two numbers, side A's and side B's, e.g. 22,21")
    if args.groups:
        text = groups_table(args.deals, args.workers, note)
    elif args.bridges:
        text = bridges_table(args.deals, args.workers, note)
    elif args.design:
        text = design_table(args.seed, args.budget, caps, args.workers, note)
    else:
        text = report(args.sides, args.deals, args.seed, args.workers, note)
    if args.out:
        write_atomic(args.out, text)
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
