"""The design searches: random sides under hard constraints, hill-climbing by mutation, finalists
measured again, flag moves, and the deck.

Everything is deterministic given the seed and the budget: each search step draws from one
random.Random, and every simulated game takes its own seed from (seed, game index).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hashi_print.errors import LayoutError
from hashi_print.game.board import LABELS, BoardIsland, BoardSide, check_side
from hashi_print.game.deck import DECK_SIZE, GOALS, Card, Deck
from hashi_print.game.design_measure import SETUP_KINDS, Budget, Measure, Pool, measure_side
from hashi_print.game.design_objectives import B_RATIO, side_objective
from hashi_print.game.rules import MAX_PER_LANE, SETUP_VALUES
from hashi_print.game.scoring import Scoring
from hashi_print.geometry import build_geometry, crossing_pairs

# Side B is harder through its geometry: more lanes cross each other.
MIN_CROSSINGS = 4
SIDE_CROSSINGS = {"A": 4, "B": 6}
# Every island needs two lanes: with one, a setup 3 or 4 there could never be circled.
MIN_LANES = 2
RED_MIN_DISTANCE = 3
# The share of a random side's islands placed in line with one already placed.
ALIGNED = 0.85
DECK_BRIDGES = (30, 35)
SIZES = {"A": (9, 9), "B": (10, 10)}
MAX_LANES: dict[str, int | None] = {"A": None, "B": None}
# The bots every search measurement plays: the greedy bot too, so that the search sees the strong bot's
# edge instead of meeting it by chance in the finalists.
SEARCH_BOTS = ("strong", "greedy")
FINALISTS = 3
CONFIRM_SEED = 10
FLAG_SEED = 30
# Flag moves measured as finalists per round of place_flags (a side has about 50 moves to screen).
FLAG_FINALISTS = 3

Placement = dict[tuple[int, int], str | None]  # island cell -> its flag (or None)
Progress = Callable[[str], None]


# --- hard constraints ------------------------------------------------------------------------

def circleable(side: BoardSide, island: int, value: int) -> bool:
    """Tell whether `value` bridges fit at the island: two per lane, each neighbour able to take them.

    A neighbour takes a numeral of up to 6 later (a flagged one once the bridge reaches it), so only
    the island's own lanes limit it; lanes at one island never cross each other.
    """
    return MAX_PER_LANE * len(side.geometry.lanes_of[island]) >= value


def side_problems(side: BoardSide, min_crossings: int = MIN_CROSSINGS,
                  max_lanes: int | None = None) -> list[str]:
    """List every design constraint the side breaks (empty when the side is acceptable).

    On top of the file-format checks: islands never touch (not even at a corner), every island has
    at least 2 lanes, every unflagged island can be circled with a setup 3 and with a 4, the lane
    graph is connected, there are crossings, red flags are spread out and flagged islands are
    reachable; with `max_lanes`, also that there are at most that many lanes.
    """
    try:
        check_side(side)
    except LayoutError as err:
        return [str(err)]
    return [*_touching(side), *_island_lanes(side), *_lane_graph(side, min_crossings, max_lanes),
            *_red_spread(side), *_flag_access(side)]


def _touching(side: BoardSide) -> list[str]:
    """Pairs of islands that touch, also at a corner."""
    pos = [(i.row, i.col) for i in side.islands]
    return [f"islands {side.islands[a].label} and {side.islands[b].label} touch"
            for a in range(len(pos)) for b in range(a + 1, len(pos))
            if max(abs(pos[a][0] - pos[b][0]), abs(pos[a][1] - pos[b][1])) < 2]


def _island_lanes(side: BoardSide) -> list[str]:
    """Islands with too few lanes, and unflagged ones that a setup 3 or 4 could never circle."""
    geo = side.geometry
    problems = []
    for i, isl in enumerate(side.islands):
        if len(geo.lanes_of[i]) < MIN_LANES:
            problems.append(f"island {isl.label} has {len(geo.lanes_of[i])} lane; "
                            f"at least {MIN_LANES} wanted")
        elif isl.flag is None:
            dead = [v for v in SETUP_VALUES if not circleable(side, i, v)]
            if dead:
                problems.append(f"island {isl.label} cannot be circled with a setup {dead[0]}")
    return problems


def _lane_graph(side: BoardSide, min_crossings: int, max_lanes: int | None) -> list[str]:
    """A lane graph in pieces, too many lanes, or too few crossings."""
    geo = side.geometry
    problems = []
    if not geo.lane_graph_connected():
        problems.append("the lane graph is not connected")
    if max_lanes is not None and len(geo.lanes) > max_lanes:
        problems.append(f"{len(geo.lanes)} lanes; at most {max_lanes} wanted")
    crossings = len(crossing_pairs(geo))
    if crossings < min_crossings:
        problems.append(f"only {crossings} crossing lane pairs; at least {min_crossings} wanted")
    return problems


def _red_spread(side: BoardSide) -> list[str]:
    """Red islands too close to each other, or bunched in fewer than three quarters of the board."""
    pos = [(i.row, i.col) for i in side.islands]
    red = side.flagged("red")
    problems = []
    for x in range(len(red)):
        for y in range(x + 1, len(red)):
            (r1, c1), (r2, c2) = pos[red[x]], pos[red[y]]
            if max(abs(r1 - r2), abs(c1 - c2)) < RED_MIN_DISTANCE:
                problems.append(f"red islands {side.islands[red[x]].label} and "
                                f"{side.islands[red[y]].label} are too close")
    quadrants = {(2 * r >= side.rows, 2 * c >= side.cols) for r, c in (pos[i] for i in red)}
    if len(quadrants) < 3:
        problems.append("the red islands sit in fewer than 3 quarters of the board")
    return problems


def _flag_access(side: BoardSide) -> list[str]:
    """Flagged islands without an unflagged neighbour to bring them their first bridge."""
    geo = side.geometry
    return [f"flagged island {side.islands[i].label} has no unflagged neighbour"
            for i in side.flagged("red") + side.flagged("blue")
            if not [j for j in geo.neighbours(i) if side.islands[j].flag is None]]


def deck_problems(deck: Deck) -> list[str]:
    """List the design constraints the deck breaks: 18 cards, each numeral 1-6 at least twice,
    bridges 1-3 per card, and a bridge total within DECK_BRIDGES."""
    problems = []
    if len(deck.cards) != DECK_SIZE:
        problems.append(f"{len(deck.cards)} cards, not {DECK_SIZE}")
    counts = deck.numeral_counts()
    for n in range(1, 7):
        if counts.get(n, 0) < 2:
            problems.append(f"numeral {n} appears {counts.get(n, 0)} times; at least twice wanted")
    if any(not 1 <= c.bridges <= 3 for c in deck.cards):
        problems.append("every card shows 1, 2 or 3 bridges")
    total = sum(c.bridges for c in deck.cards)
    if not DECK_BRIDGES[0] <= total <= DECK_BRIDGES[1]:
        problems.append(f"{total} bridges in the deck; {DECK_BRIDGES[0]}-{DECK_BRIDGES[1]} wanted")
    return problems


# --- building and changing sides -------------------------------------------------------------


# --- building and changing sides -------------------------------------------------------------

def placement_of(side: BoardSide) -> Placement:
    """Each island's cell and its flag (or None): the inverse of side_of."""
    return {(i.row, i.col): i.flag for i in side.islands}


def side_of(name: str, rows: int, cols: int, placement: Placement) -> BoardSide:
    """Make a BoardSide from positions and flags, labelling the islands in reading order."""
    cells = sorted(placement)
    islands = tuple(BoardIsland(LABELS[k], r, c, placement[(r, c)]) for k, (r, c) in enumerate(cells))
    return BoardSide(name, rows, cols, islands)


def _free_cells(rows: int, cols: int, taken: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Cells at least two steps (also diagonally) away from every taken cell."""
    return [(r, c) for r in range(rows) for c in range(cols)
            if all(max(abs(r - a), abs(c - b)) >= 2 for a, b in taken)]


def _assign_flags(cells: list[tuple[int, int]], rng: random.Random) -> Placement:
    """Put 4 red and 3 blue flags on random islands."""
    chosen = rng.sample(cells, 7)
    placement: Placement = dict.fromkeys(cells)
    for k, cell in enumerate(chosen):
        placement[cell] = "red" if k < 4 else "blue"
    return placement


def _lanes_fit(rows: int, cols: int, cells: list[tuple[int, int]], min_crossings: int,
               max_lanes: int | None) -> bool:
    """Tell whether islands on these cells meet the constraints of the lanes alone (before flags)."""
    geo = build_geometry(rows, cols, sorted(cells))
    return (all(len(lanes) >= MIN_LANES for lanes in geo.lanes_of) and geo.lane_graph_connected()
            and (max_lanes is None or len(geo.lanes) <= max_lanes)
            and len(crossing_pairs(geo)) >= min_crossings)


def random_side(name: str, rows: int, cols: int, rng: random.Random, tries: int = 5000,
                max_lanes: int | None = None, min_crossings: int = MIN_CROSSINGS,
                aligned: float = ALIGNED) -> BoardSide:
    """Draw random sides until one meets every design constraint (`aligned`: see ALIGNED)."""
    for _ in range(tries):
        cells: list[tuple[int, int]] = []
        while len(cells) < len(LABELS):
            free = _free_cells(rows, cols, cells)
            if not free:
                break
            # Mostly in line with an island already placed, so that islands get their two lanes.
            lined = [(r, c) for r, c in free if any(r == a or c == b for a, b in cells)]
            cells.append(rng.choice(lined if lined and rng.random() < aligned else free))
        if len(cells) < len(LABELS) or not _lanes_fit(rows, cols, cells, min_crossings, max_lanes):
            continue
        for _flags in range(50):
            side = side_of(name, rows, cols, _assign_flags(cells, rng))
            if not side_problems(side, min_crossings, max_lanes):
                return side
    raise LayoutError(f"no acceptable {rows}x{cols} side found in {tries} tries")


def flag_moves(side: BoardSide, max_lanes: int | None = None,
               min_crossings: int = MIN_CROSSINGS) -> list[BoardSide]:
    """Every side made by moving one flag onto an unflagged island that keeps every design constraint
    (flags in island order, then the islands they move to)."""
    placement = placement_of(side)
    out = []
    for cell, flag in sorted(placement.items()):
        for to in sorted(c for c, f in placement.items() if f is None) if flag else ():
            cand = side_of(side.name, side.rows, side.cols, {**placement, cell: None, to: flag})
            if not side_problems(cand, min_crossings, max_lanes):
                out.append(cand)
    return out


def flag_text(side: BoardSide) -> str:
    """The flagged islands by colour, e.g. `red A E M Q, blue B F P`."""
    return ", ".join(f"{colour} " + " ".join(side.islands[i].label for i in side.flagged(colour))
                     for colour in ("red", "blue"))


def mutate_side(side: BoardSide, rng: random.Random, tries: int = 500,
                max_lanes: int | None = None, min_crossings: int = MIN_CROSSINGS) -> BoardSide:
    """Move one island or swap a flag, keeping every design constraint."""
    placement = placement_of(side)
    for _ in range(tries):
        new = dict(placement)
        if rng.random() < 0.6:
            cell = rng.choice(sorted(new))
            flag = new.pop(cell)
            free = [c for c in _free_cells(side.rows, side.cols, list(new)) if c != cell]
            if not free:
                continue
            new[rng.choice(free)] = flag
        else:
            flagged = sorted(c for c, f in new.items() if f)
            plain = sorted(c for c, f in new.items() if f is None)
            a, b = rng.choice(flagged), rng.choice(plain)
            new[a], new[b] = new[b], new[a]
        cand = side_of(side.name, side.rows, side.cols, new)
        if not side_problems(cand, min_crossings, max_lanes):
            return cand
    return side


# --- decks -----------------------------------------------------------------------------------


# --- decks -----------------------------------------------------------------------------------

def base_deck() -> Deck:
    """Each numeral three times with 1, 2 and 3 bridges, two 3-bridge cards lowered to 2 (34 bridges)."""
    cards = [Card(n, b) for n in range(1, 7) for b in (1, 2, 3)]
    cards[cards.index(Card(5, 3))] = Card(5, 2)
    cards[cards.index(Card(6, 3))] = Card(6, 2)
    return Deck(tuple(sorted(cards)))


def mutate_deck(deck: Deck, rng: random.Random, tries: int = 200) -> Deck:
    """Change one card's numeral or bridges, or move one bridge between two cards, keeping the deck's
    constraints."""
    for _ in range(tries):
        cards = list(deck.cards)
        roll = rng.random()
        if roll < 0.4:
            k = rng.randrange(len(cards))
            cards[k] = Card(rng.randint(1, 6), cards[k].bridges)
        elif roll < 0.6:
            k = rng.randrange(len(cards))
            cards[k] = Card(cards[k].numeral, rng.randint(1, 3))
        else:
            a, b = rng.sample(range(len(cards)), 2)
            cards[a] = Card(cards[a].numeral, cards[a].bridges + 1)
            cards[b] = Card(cards[b].numeral, cards[b].bridges - 1)
            if not (cards[a].bridges <= 3 and cards[b].bridges >= 1):
                continue
        cand = Deck(tuple(sorted(cards)))
        if cand != deck and not deck_problems(cand):
            return cand
    return deck


# --- measuring a side under both setups --------------------------------------------------------


def deck_text(deck: Deck) -> str:
    """The deck as a short text, e.g. `1/1 1/2 2/3 ...`."""
    return " ".join(str(c) for c in deck.cards)


# --- the searches ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Trial:
    """One candidate tried by a search: what it was, its measurements and objective, kept or not."""

    stage: str
    step: int
    description: str
    mean: float
    goal_rate: dict[str, float]
    numeral_skips: float
    bridge_skips: float
    objective: float
    kept: bool


def _trial(stage: str, step: int, what: str, measure: Measure, obj: float, kept: bool) -> Trial:
    """A Trial row from a measurement (means and rates over both setups)."""
    kinds = [measure.summary(k) for k in SETUP_KINDS]
    return Trial(stage, step, what, statistics.fmean(s.mean for s in kinds),
                 {g: statistics.fmean(s.goal_rate[g] for s in kinds) for g in GOALS},
                 statistics.fmean(s.voluntary_numeral_skips for s in kinds),
                 statistics.fmean(s.voluntary_bridge_skips for s in kinds), obj, kept)


@dataclass(frozen=True)
class Context:
    """What every search step shares: the seed of its deals, the pool, the budget, where to note steps."""

    seed: int
    pool: Pool
    budget: Budget
    note: Progress | None


def search_side(name: str, deck: Deck, scoring: Scoring, rng: random.Random, ctx: Context,
                trials: list[Trial], other: Measure | None = None,
                target: float | None = None) -> list[Candidate]:
    """Try a few random sides, then hill-climb the best by mutation, measuring every candidate on the
    same deals under both setups; return the best few distinct candidates (see `finalists`)."""
    stage = f"side {name}"
    steps = ctx.budget.side_steps
    starts = max(1, steps // 3)
    rows, cols = SIZES[name]
    crossings = SIDE_CROSSINGS[name]
    best: BoardSide | None = None
    best_obj = -math.inf
    measured: list[tuple[float, int, BoardSide, Measure]] = []
    for step in range(1, steps + 1):
        if step <= starts:
            cand = random_side(name, rows, cols, rng, max_lanes=MAX_LANES.get(name), min_crossings=crossings)
            what = "random side"
        else:
            assert best is not None
            cand = mutate_side(best, rng, max_lanes=MAX_LANES.get(name), min_crossings=crossings)
            what = "mutation"
        m = measure_side(cand, deck, scoring, ctx.budget.search, ctx.seed, ctx.pool, SEARCH_BOTS)
        obj = side_objective(name, m, other, target)
        kept = obj > best_obj
        trials.append(_trial(stage, step, what, m, obj, kept))
        measured.append((obj, step, cand, m))
        if kept:
            best, best_obj = cand, obj
        if ctx.note:
            ctx.note(f"{stage} step {step}/{steps}: objective {obj:.2f} (best {best_obj:.2f})")
    return finalists(measured)


Candidate = tuple[int, BoardSide, Measure]  # search step, side, its measurement


def finalists(measured: Sequence[tuple[float, int, BoardSide, Measure]]) -> list[Candidate]:
    """The FINALISTS best distinct candidates (objective, then earliest step first) with their steps."""
    out: list[Candidate] = []
    for _obj, step, cand, m in sorted(measured, key=lambda x: (-x[0], x[1])):
        if all(cand != other for _, other, _m in out):
            out.append((step, cand, m))
    return out[:FINALISTS]


def confirm_best(name: str, candidates: Sequence[Candidate], deck: Deck, scoring: Scoring,
                 ctx: Context, trials: list[Trial], other: Measure | None = None,
                 target: float | None = None) -> tuple[BoardSide, Measure]:
    """Measure each finalist again with more, fresh deals (greedy bot too) and return the best."""
    best: tuple[float, BoardSide, Measure] | None = None
    for step, cand, _quick in candidates:
        m = measure_side(cand, deck, scoring, ctx.budget.confirm, ctx.seed + CONFIRM_SEED, ctx.pool,
                         ("strong", "greedy"))
        obj = side_objective(name, m, other, target)
        kept = best is None or obj > best[0]
        trials.append(_trial(f"side {name} check", step, "finalist", m, obj, kept))
        if kept:
            best = (obj, cand, m)
    assert best is not None
    return best[1], best[2]


def place_flags(name: str, side: BoardSide, measure: Measure, deck: Deck, scoring: Scoring, ctx: Context,
                trials: list[Trial], other: Measure | None = None, target: float | None = None,
                moves: Callable[[BoardSide], list[BoardSide]] | None = None) -> tuple[BoardSide, Measure]:
    """Move one flag at a time while that betters the side's objective: every move (`moves`, default
    flag_moves under the side's constraints) is screened on a few games, the best few are measured as
    the finalists were (same deals), the best of those is kept."""
    moves = moves or (lambda s: flag_moves(s, MAX_LANES.get(name), SIDE_CROSSINGS[name]))
    # A round's moves of the flag moved last round, and its undo, were measured the round before: the
    # same placement on the same deals plays the same games, so each is simulated once.
    seen: dict[tuple[bool, tuple[tuple[tuple[int, int], str | None], ...]], Measure] = {}

    def measured(cand: BoardSide, confirm: bool) -> Measure:
        """The screening or the finalists' measurement of a placement, made once."""
        key = (confirm, tuple(sorted(placement_of(cand).items())))
        if key not in seen:
            b = ctx.budget
            seen[key] = (measure_side(cand, deck, scoring, b.confirm, ctx.seed + CONFIRM_SEED, ctx.pool,
                                      ("strong", "greedy")) if confirm else
                         measure_side(cand, deck, scoring, b.flag_screen, ctx.seed + FLAG_SEED, ctx.pool))
        return seen[key]

    best_obj = side_objective(name, measure, other, target)
    for rnd in range(1, ctx.budget.flag_rounds + 1):
        screened = [(side_objective(name, measured(cand, False), other, target), k, cand)
                    for k, cand in enumerate(moves(side))]
        improved = False
        for _obj, _k, cand in sorted(screened, key=lambda x: (-x[0], x[1]))[:FLAG_FINALISTS]:
            m = measured(cand, True)
            obj = side_objective(name, m, other, target)
            kept = obj > best_obj
            trials.append(_trial(f"side {name} flags", rnd, flag_text(cand), m, obj, kept))
            if kept:
                side, measure, best_obj, improved = cand, m, obj, True
        if ctx.note:
            ctx.note(f"side {name} flags round {rnd}/{ctx.budget.flag_rounds}: objective {best_obj:.2f}")
        if not improved:
            break
    return side, measure


def search_deck(start: Deck, sides: dict[str, BoardSide], scoring: Scoring, rng: random.Random,
                ctx: Context, trials: list[Trial]) -> Deck:
    """Hill-climb the deck by mutation, measuring both sides with each candidate by the sides' objectives
    (A's mean, B near A's mean / B_RATIO, every objective of both met with room)."""

    def value(deck: Deck) -> tuple[float, Measure]:
        """The deck's objective, and side A's measurement with it."""
        ma = measure_side(sides["A"], deck, scoring, ctx.budget.search, ctx.seed, ctx.pool, SEARCH_BOTS)
        mb = measure_side(sides["B"], deck, scoring, ctx.budget.search, ctx.seed, ctx.pool, SEARCH_BOTS)
        return (side_objective("A", ma) + side_objective("B", mb, ma, ma.mean() / B_RATIO)), ma

    best = start
    best_obj, m = value(best)
    trials.append(_trial("deck", 0, deck_text(best), m, best_obj, True))
    for step in range(1, ctx.budget.deck_steps + 1):
        cand = mutate_deck(best, rng)
        obj, m = value(cand)
        kept = obj > best_obj
        trials.append(_trial("deck", step, deck_text(cand), m, obj, kept))
        if kept:
            best, best_obj = cand, obj
        if ctx.note:
            ctx.note(f"deck step {step}/{ctx.budget.deck_steps}: objective {obj:.2f} (best {best_obj:.2f})")
    return best
