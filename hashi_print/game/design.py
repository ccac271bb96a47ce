"""The layout engine: search board sides and the deck by simulation, calibrate bonuses and solo tables.

Everything is deterministic given the seed and the budget: each search step draws from one
random.Random, and every simulated game takes its own seed from (seed, game index).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hashi_print.errors import LayoutError
from hashi_print.game.board import LABELS, BoardIsland, BoardSide, check_side
from hashi_print.game.deck import CARDS_PLAYED, DECK_SIZE, GOALS, Card, Deck
from hashi_print.game.scoring import Scoring, SoloLevel
from hashi_print.game.simulate import Simulation, Summary, simulate
from hashi_print.geometry import crossing_pairs

PUBLISHED = {"red": (9, 5), "blue": (7, 3)}
# The six-group value used while searching; close to what calibrate_six later gives, so the search
# measures the scores that ship.
PROVISIONAL_SIX = (6, 3)
MIN_CROSSINGS = 4
RED_MIN_DISTANCE = 3
DECK_BRIDGES = (33, 35)
GOAL_BAND = (0.2, 0.8)
# The searches aim this far inside the band: 40 games measure a goal rate only to about +-7 points.
SEARCH_MARGIN = 0.05
GOAL_WEIGHT = 100.0
# The deck search only keeps the rates inside the band: its own aim is the spread of scores.
DECK_GOAL_WEIGHT = 10.0
SIZES = {"A": (9, 9), "B": (10, 10)}
# A sparse lane graph keeps the six-group goal out of reach in some games: on a dense 9x9 side the
# strong bot links six circled islands in over 90 % of games (lane count and six rate correlate, r 0.65).
MAX_LANES = {"A": 19, "B": None}
# What the shipped design must show in its final games: side A's mean over side B's, and the strong
# bot's mean over the greedy bot's on each side.
WANTED_RATIO = 1.15
WANTED_EDGE = 1.15
B_RATIO = 1.3
# The strong bot should beat the greedy one by this factor on the chosen sides (measured on finalists).
MIN_EDGE = 1.2
EDGE_WEIGHT = 100.0
# The best few candidates of a side search are measured again on more, fresh deals: with 40 games the
# search's winner is often just the luckiest measurement, and its goal rates fall back out of band.
FINALISTS = 4
CONFIRM_GAMES = 4
CONFIRM_SEED = 10
# The deck search gets this share of the side search's steps (`--budget`).
DECK_SHARE = 0.3
RATING_WORDS = ("master builder", "excellent", "good", "fair", "keep building")

Placement = dict[tuple[int, int], str | None]  # island cell -> its flag (or None)
Progress = Callable[[str], None]


# --- hard constraints ------------------------------------------------------------------------

def side_problems(side: BoardSide, min_crossings: int = MIN_CROSSINGS,
                  max_lanes: int | None = None) -> list[str]:
    """List every design constraint the side breaks (empty when the side is acceptable).

    On top of the file-format checks: islands never touch (not even at a corner), the lane graph
    is connected, there are crossings, red flags are spread out and flagged islands are reachable;
    with `max_lanes`, also that there are at most that many lanes.
    """
    problems: list[str] = []
    try:
        check_side(side)
    except LayoutError as err:
        return [str(err)]
    pos = [(i.row, i.col) for i in side.islands]
    for a in range(len(pos)):
        for b in range(a + 1, len(pos)):
            if max(abs(pos[a][0] - pos[b][0]), abs(pos[a][1] - pos[b][1])) < 2:
                problems.append(f"islands {side.islands[a].label} and {side.islands[b].label} touch")
    geo = side.geometry
    if not geo.lane_graph_connected():
        problems.append("the lane graph is not connected")
    if max_lanes is not None and len(geo.lanes) > max_lanes:
        problems.append(f"{len(geo.lanes)} lanes; at most {max_lanes} wanted")
    crossings = len(crossing_pairs(geo))
    if crossings < min_crossings:
        problems.append(f"only {crossings} crossing lane pairs; at least {min_crossings} wanted")
    red = side.flagged("red")
    for x in range(len(red)):
        for y in range(x + 1, len(red)):
            (r1, c1), (r2, c2) = pos[red[x]], pos[red[y]]
            if max(abs(r1 - r2), abs(c1 - c2)) < RED_MIN_DISTANCE:
                problems.append(f"red islands {side.islands[red[x]].label} and "
                                f"{side.islands[red[y]].label} are too close")
    quadrants = {(2 * r >= side.rows, 2 * c >= side.cols) for r, c in (pos[i] for i in red)}
    if len(quadrants) < 3:
        problems.append("the red islands sit in fewer than 3 quarters of the board")
    for i in side.flagged("red") + side.flagged("blue"):
        plain = [j for j in geo.neighbours(i) if side.islands[j].flag is None]
        if not plain:
            problems.append(f"flagged island {side.islands[i].label} has no unflagged neighbour")
        if side.islands[i].flag == "blue" and len(geo.lanes_of[i]) < 2:
            problems.append(f"blue island {side.islands[i].label} has fewer than 2 lanes")
    return problems


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


def random_side(name: str, rows: int, cols: int, rng: random.Random, tries: int = 5000,
                max_lanes: int | None = None) -> BoardSide:
    """Draw random sides until one meets every design constraint."""
    for _ in range(tries):
        cells: list[tuple[int, int]] = []
        while len(cells) < len(LABELS):
            free = _free_cells(rows, cols, cells)
            if not free:
                break
            cells.append(rng.choice(free))
        if len(cells) < len(LABELS):
            continue
        for _flags in range(20):
            side = side_of(name, rows, cols, _assign_flags(cells, rng))
            if not side_problems(side, max_lanes=max_lanes):
                return side
    raise LayoutError(f"no acceptable {rows}x{cols} side found in {tries} tries")


def mutate_side(side: BoardSide, rng: random.Random, tries: int = 500,
                max_lanes: int | None = None) -> BoardSide:
    """Move one island or swap a flag, keeping every design constraint."""
    placement: Placement = {(i.row, i.col): i.flag for i in side.islands}
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
        if not side_problems(cand, max_lanes=max_lanes):
            return cand
    return side


# --- decks -----------------------------------------------------------------------------------

def base_deck() -> Deck:
    """Each numeral three times with 1, 2 and 3 bridges, two 3-bridge cards lowered to 2 (34 bridges)."""
    cards = [Card(n, b) for n in range(1, 7) for b in (1, 2, 3)]
    cards[cards.index(Card(5, 3))] = Card(5, 2)
    cards[cards.index(Card(6, 3))] = Card(6, 2)
    return Deck(tuple(sorted(cards)))


def mutate_deck(deck: Deck, rng: random.Random, tries: int = 200) -> Deck:
    """Change one card's numeral, or move one bridge between two cards, keeping the deck's constraints."""
    for _ in range(tries):
        cards = list(deck.cards)
        if rng.random() < 0.5:
            k = rng.randrange(len(cards))
            cards[k] = Card(rng.randint(1, 6), cards[k].bridges)
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


# --- objectives ------------------------------------------------------------------------------

def goal_penalty(summary: Summary, margin: float = 0.0) -> float:
    """How far the goal rates lie outside the interesting band shrunk by `margin` (0 when all are inside)."""
    low, high = GOAL_BAND[0] + margin, GOAL_BAND[1] - margin
    return sum(max(0.0, low - r) + max(0.0, r - high) for r in summary.goal_rate.values())


def side_objective(summary: Summary, target: float | None, greedy: Summary | None = None) -> float:
    """Higher is better: side A maximises the mean score, side B aims at `target`; both keep goals
    in band and forced skips rare, and (given the greedy bot's summary) the strong bot well ahead."""
    score = summary.mean if target is None else -abs(summary.mean - target)
    edge = 0.0 if greedy is None else max(0.0, MIN_EDGE - summary.mean / max(greedy.mean, 1e-9))
    return (score - GOAL_WEIGHT * goal_penalty(summary, SEARCH_MARGIN) - 3.0 * summary.mean_forced_skips
            - EDGE_WEIGHT * edge)


def deck_objective(summaries: Sequence[Summary]) -> float:
    """Higher is better: scores spread out, forced skips rare but real (about one in two games)."""
    value = 0.0
    for s in summaries:
        value += s.stdev - 4.0 * abs(s.mean_forced_skips - 0.5) - DECK_GOAL_WEIGHT * goal_penalty(s)
    return value / len(summaries)


# --- the design run --------------------------------------------------------------------------

@dataclass(frozen=True)
class Budget:
    """How much the design run simulates: search steps and games per candidate, games per final check."""

    side_steps: int = 40
    deck_steps: int = 12
    games: int = 40
    final_games: int = 400


@dataclass(frozen=True)
class Trial:
    """One candidate tried by a search: what it was, its measured summary and objective, kept or not."""

    stage: str
    step: int
    description: str
    mean: float
    goal_rate: dict[str, float]
    forced: float
    objective: float
    kept: bool


@dataclass(frozen=True)
class DesignResult:
    """The designed sides, deck and scoring, with the evidence that chose them."""

    sides: dict[str, BoardSide]
    deck: Deck
    scoring: Scoring
    trials: tuple[Trial, ...]
    final: dict[str, Simulation]
    solo: dict[str, Simulation]
    calibration: dict[str, object]
    seed: int
    budget: Budget
    extra: dict[str, object] = field(default_factory=dict)


def provisional_scoring(six: tuple[int, int] = PROVISIONAL_SIX) -> Scoring:
    """The published red and blue values with a provisional six-island value."""
    return Scoring(2, {"red": PUBLISHED["red"], "blue": PUBLISHED["blue"], "six": six})


@dataclass(frozen=True)
class Pool:
    """How the design run simulates: worker processes, and whom to tell about finished games."""

    workers: int = 2
    progress: Callable[[int, int], None] | None = None


def _run(side: BoardSide, deck: Deck, scoring: Scoring, strategies: Sequence[str], games: int, seed: int,
         pool: Pool, setup: str = "hostile") -> Simulation:
    """Simulate with the design's fixed conventions."""
    return simulate(side, deck, strategies, games, seed, scoring=scoring, setup=setup,
                    workers=pool.workers, progress=pool.progress)


def search_side(name: str, size: tuple[int, int], deck: Deck, scoring: Scoring, rng: random.Random,
                steps: int, games: int, seed: int, pool: Pool, target: float | None,
                trials: list[Trial], note: Progress | None = None) -> list[tuple[int, BoardSide]]:
    """Try a few random sides, then hill-climb the best by mutation, measuring every candidate with the
    strong bot on the same deals; return the best few distinct candidates (see `finalists`)."""
    stage = f"side {name}"
    starts = max(1, steps // 4)
    best: BoardSide | None = None
    best_obj = -math.inf
    measured: list[tuple[float, int, BoardSide]] = []
    cap = MAX_LANES.get(name)
    for step in range(1, steps + 1):
        if step <= starts:
            cand, what = random_side(name, size[0], size[1], rng, max_lanes=cap), "random side"
        else:
            assert best is not None
            cand, what = mutate_side(best, rng, max_lanes=cap), "mutation"
        summ = _run(cand, deck, scoring, ["strong"], games, seed, pool).summary["strong"]
        obj = side_objective(summ, target)
        kept = obj > best_obj
        trials.append(Trial(stage, step, what, summ.mean, summ.goal_rate, summ.mean_forced_skips, obj, kept))
        measured.append((obj, step, cand))
        if kept:
            best, best_obj = cand, obj
        if note:
            note(f"{stage} step {step}/{steps}: objective {obj:.2f} (best {best_obj:.2f})")
    return finalists(measured)


def finalists(measured: Sequence[tuple[float, int, BoardSide]]) -> list[tuple[int, BoardSide]]:
    """The FINALISTS best distinct candidates (objective, then earliest step first) with their steps."""
    out: list[tuple[int, BoardSide]] = []
    for _obj, step, cand in sorted(measured, key=lambda m: (-m[0], m[1])):
        if all(cand != other for _, other in out):
            out.append((step, cand))
    return out[:FINALISTS]


def confirm_best(stage: str, candidates: Sequence[tuple[int, BoardSide]], deck: Deck, scoring: Scoring,
                 games: int, seed: int, pool: Pool, target: float | None,
                 trials: list[Trial]) -> tuple[BoardSide, Summary]:
    """Measure each finalist again on more, fresh deals and return the best by the same objective."""
    best: tuple[float, BoardSide, Summary] | None = None
    for step, cand in candidates:
        both = _run(cand, deck, scoring, ["strong", "greedy"], games, seed, pool).summary
        summ = both["strong"]
        obj = side_objective(summ, target, both["greedy"])
        kept = best is None or obj > best[0]
        trials.append(Trial(stage, step, "finalist", summ.mean, summ.goal_rate,
                            summ.mean_forced_skips, obj, kept))
        if kept:
            best = (obj, cand, summ)
    assert best is not None
    return best[1], best[2]


def search_deck(start: Deck, sides: Sequence[BoardSide], scoring: Scoring, rng: random.Random, steps: int,
                games: int, seed: int, pool: Pool, trials: list[Trial],
                note: Progress | None = None) -> Deck:
    """Hill-climb the deck by mutation, measuring score spread and forced skips on the given sides."""

    def measure(deck: Deck) -> tuple[float, list[Summary]]:
        """The deck's objective and its strong-bot summary on each side."""
        sums = [_run(s, deck, scoring, ["strong"], games, seed, pool).summary["strong"] for s in sides]
        return deck_objective(sums), sums

    best = start
    best_obj, sums = measure(best)
    trials.append(Trial("deck", 0, deck_text(best), statistics.fmean(s.mean for s in sums), sums[0].goal_rate,
                        statistics.fmean(s.mean_forced_skips for s in sums), best_obj, True))
    for step in range(1, steps + 1):
        cand = mutate_deck(best, rng)
        obj, sums = measure(cand)
        kept = obj > best_obj
        mean = statistics.fmean(s.mean for s in sums)
        forced = statistics.fmean(s.mean_forced_skips for s in sums)
        trials.append(Trial("deck", step, deck_text(cand), mean, sums[0].goal_rate, forced, obj, kept))
        if kept:
            best, best_obj = cand, obj
        if note:
            note(f"deck step {step}/{steps}: objective {obj:.2f} (best {best_obj:.2f})")
    return best


def deck_text(deck: Deck) -> str:
    """The deck as a short text, e.g. `1/1 1/2 2/3 ...`."""
    return " ".join(str(c) for c in deck.cards)


def calibrate_six(sims: Sequence[Simulation]) -> tuple[tuple[int, int], dict[str, float]]:
    """Choose the six-group values so its expected bonus (value x rate) matches red's and blue's average."""
    rates = {g: statistics.fmean(s.summary["strong"].goal_rate[g] for s in sims) for g in GOALS}
    worth = statistics.fmean([PUBLISHED["red"][0] * rates["red"], PUBLISHED["blue"][0] * rates["blue"]])
    first = 8 if rates["six"] <= 0 else round(worth / rates["six"])
    first = min(11, max(5, first))
    ratio = statistics.fmean([PUBLISHED["red"][1] / PUBLISHED["red"][0],
                              PUBLISHED["blue"][1] / PUBLISHED["blue"][0]])
    later = max(2, round(first * ratio))
    info = {f"rate_{g}": rates[g] for g in GOALS}
    info["expected_red_blue"] = worth
    return (first, later), info


def _percentile(values: Sequence[int], q: float) -> float:
    """The q-quantile (0..1) by linear interpolation between order statistics."""
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def solo_tables(sim: Simulation) -> dict[str, dict[str, int]]:
    """Turn limits per level and goal: the strong bot's 75th (easy), 50th (normal), 25th (hard)
    percentile turn among the games that reached the goal; 17 when it never did."""
    levels: dict[str, dict[str, int]] = {lv: {} for lv in SoloLevel}
    records = sim.records["strong"]
    for goal in GOALS:
        turns = [t for r in records if (t := r.goal_turn(goal)) is not None]
        for lv, q in zip(SoloLevel, (0.75, 0.5, 0.25), strict=True):
            levels[lv][goal] = CARDS_PLAYED if not turns else max(1, math.ceil(_percentile(turns, q) - 1e-9))
    return levels


def solo_scores(sim: Simulation, scoring: Scoring, limits: dict[str, int]) -> list[int]:
    """Final solo scores of the strong bot's games: bonuses count only within the turn limits."""
    out = []
    for r in sim.records["strong"]:
        bonus = sum(scoring.bonus[g][0] for g in GOALS
                    if (t := r.goal_turn(g)) is not None and t <= limits[g])
        out.append(r.circled * scoring.per_circled + bonus)
    return out


def rating_bands(scores: Sequence[int]) -> tuple[tuple[int, str], ...]:
    """Score bands from best to worst at the 90th, 75th, 50th and 25th percentile of solo scores."""
    cuts = [math.ceil(_percentile(scores, q)) for q in (0.9, 0.75, 0.5, 0.25)]
    bands = []
    last = None
    for cut, words in zip(cuts, RATING_WORDS, strict=False):
        if last is None or cut < last:
            bands.append((cut, words))
            last = cut
    bands.append((0, RATING_WORDS[-1]))
    return tuple(bands)


def design(seed: int = 1, budget: Budget = Budget(), workers: int = 2,  # noqa: B008 - frozen default
           note: Progress | None = None, progress: Callable[[int, int], None] | None = None) -> DesignResult:
    """Design side A, the deck, side B, the six bonus, solo tables and ratings; deterministic per seed.

    `note(text)` hears each search step; `progress(done, total)` each batch of simulated games.
    """
    return _design(seed, budget, Pool(workers, progress), note)


def _design(seed: int, budget: Budget, pool: Pool, note: Progress | None) -> DesignResult:
    """The design run itself (see `design`)."""
    rng = random.Random(seed)
    trials: list[Trial] = []
    scoring = provisional_scoring()
    deck = base_deck()
    confirm_games, confirm_seed = CONFIRM_GAMES * budget.games, seed + CONFIRM_SEED
    finalists_a = search_side("A", SIZES["A"], deck, scoring, rng, budget.side_steps, budget.games, seed,
                              pool, None, trials, note)
    side_a, _ = confirm_best("side A check", finalists_a, deck, scoring, confirm_games, confirm_seed, pool,
                             None, trials)
    deck = search_deck(deck, [side_a], scoring, rng, budget.deck_steps, budget.games, seed, pool,
                       trials, note)
    # The deck search moves the goal rates, so side A's finalists are measured again with the new deck.
    side_a, sum_a = confirm_best("side A with deck", finalists_a, deck, scoring, confirm_games, confirm_seed,
                                 pool, None, trials)
    target_b = sum_a.mean / B_RATIO
    finalists_b = search_side("B", SIZES["B"], deck, scoring, rng, budget.side_steps, budget.games, seed,
                              pool, target_b, trials, note)
    side_b, _ = confirm_best("side B check", finalists_b, deck, scoring, confirm_games, confirm_seed, pool,
                             target_b, trials)
    sides = {"A": side_a, "B": side_b}
    final: dict[str, Simulation] = {}
    for name, side in sides.items():
        if note:
            note(f"final games on side {name}")
        final[name] = _run(side, deck, scoring, ["strong", "greedy", "random"], budget.final_games, seed + 1,
                           pool)
    six, calib = calibrate_six(list(final.values()))
    scoring = provisional_scoring(six)
    solo: dict[str, Simulation] = {}
    levels: dict[str, dict[str, dict[str, int]]] = {}
    ratings: dict[str, tuple[tuple[int, str], ...]] = {}
    for name, side in sides.items():
        if note:
            note(f"solo games on side {name}")
        # A solo player writes the setup numeral where they like: every choice, equally often.
        solo[name] = _run(side, deck, scoring, ["strong"], budget.final_games, seed + 2, pool,
                          setup="random")
        levels[name] = solo_tables(solo[name])
        ratings[name] = rating_bands(solo_scores(solo[name], scoring, levels[name][SoloLevel.NORMAL]))
    standard = {s: dict(lv[SoloLevel.NORMAL]) for s, lv in levels.items()}
    scoring = Scoring(2, scoring.bonus, standard, levels, ratings)
    return DesignResult(sides, deck, scoring, tuple(trials), final, solo, calib, seed, budget)


def objective_problems(result: DesignResult) -> list[str]:
    """The design objectives the final games miss: goal rates out of band, a small strong-bot edge, A/B."""
    problems = []
    low, high = GOAL_BAND
    for name, sim in result.final.items():
        strong, greedy = sim.summary["strong"], sim.summary["greedy"]
        for goal in GOALS:
            rate = strong.goal_rate[goal]
            if not low <= rate <= high:
                problems.append(f"side {name}: {goal} reached in {rate:.0%} of strong games")
        if strong.mean < WANTED_EDGE * greedy.mean:
            problems.append(f"side {name}: strong bot only {strong.mean / greedy.mean:.3f}x greedy")
    ratio = result.final["A"].summary["strong"].mean / result.final["B"].summary["strong"].mean
    if ratio < WANTED_RATIO:
        problems.append(f"side A / side B mean {ratio:.3f}, below {WANTED_RATIO}")
    return problems


def budget_from(steps: int | None, games: int | None, final_games: int | None) -> Budget:
    """A Budget from command-line numbers; None keeps the default that produced the shipped files."""
    base = Budget()
    side_steps = base.side_steps if steps is None else steps
    deck_steps = base.deck_steps if steps is None else max(1, round(steps * DECK_SHARE))
    return Budget(side_steps, deck_steps, base.games if games is None else games,
                  base.final_games if final_games is None else final_games)
