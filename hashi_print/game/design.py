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

Layout = dict[tuple[int, int], str | None]
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

def side_of(name: str, rows: int, cols: int, layout: Layout) -> BoardSide:
    """Make a BoardSide from positions and flags, labelling the islands in reading order."""
    cells = sorted(layout)
    islands = tuple(BoardIsland(LABELS[k], r, c, layout[(r, c)]) for k, (r, c) in enumerate(cells))
    return BoardSide(name, rows, cols, islands)


def _free_cells(rows: int, cols: int, taken: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Cells at least two steps (also diagonally) away from every taken cell."""
    return [(r, c) for r in range(rows) for c in range(cols)
            if all(max(abs(r - a), abs(c - b)) >= 2 for a, b in taken)]


def _assign_flags(cells: list[tuple[int, int]], rng: random.Random) -> Layout:
    """Put 4 red and 3 blue flags on random islands."""
    chosen = rng.sample(cells, 7)
    layout: Layout = dict.fromkeys(cells)
    for k, cell in enumerate(chosen):
        layout[cell] = "red" if k < 4 else "blue"
    return layout


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
    layout: Layout = {(i.row, i.col): i.flag for i in side.islands}
    for _ in range(tries):
        new = dict(layout)
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


# --- files and the report --------------------------------------------------------------------

def layout_files(result: DesignResult) -> dict[str, str]:
    """The four layout files (name -> JSON text) of a design result."""
    import json

    from hashi_print.game.board import side_to_json
    from hashi_print.game.deck import deck_to_json
    from hashi_print.game.scoring import scoring_to_json

    def dump(obj: object) -> str:
        """JSON text with one-space indents and a final newline."""
        return json.dumps(obj, indent=1) + "\n"

    made_by = {"seed": result.seed, "side_steps": result.budget.side_steps,
               "deck_steps": result.budget.deck_steps, "games": result.budget.games,
               "final_games": result.budget.final_games}
    return {
        "side-a.json": dump(side_to_json(result.sides["A"])),
        "side-b.json": dump(side_to_json(result.sides["B"])),
        "deck.json": dump(deck_to_json(result.deck)),
        "scoring.json": dump(scoring_to_json(result.scoring, design=made_by)),
    }


def side_picture(side: BoardSide) -> str:
    """The side as a text grid: labels, lower case for blue and `*` after red, `.` for water."""
    grid = [["." for _ in range(side.cols)] for _ in range(side.rows)]
    for isl in side.islands:
        marks = {"red": isl.label + "*", "blue": isl.label.lower()}
        grid[isl.row][isl.col] = marks.get(isl.flag or "", isl.label)
    return "\n".join(" ".join(f"{cell:<2}" for cell in row).rstrip() for row in grid)


PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")


def histogram_svg(series: dict[str, Sequence[int]], title: str, width: int = 640, height: int = 300) -> str:
    """Overlaid score histograms (one outline per series), as an SVG document."""
    import svgwrite

    left, bottom, top = 50, 40, 30
    values = [v for vs in series.values() for v in vs]
    lo, hi = min(values), max(values)
    bins = list(range(lo - lo % 2, hi + 2, 2))
    counts = {name: [sum(1 for v in vs if b <= v < b + 2) / len(vs) for b in bins]
              for name, vs in series.items()}
    peak = max(max(c) for c in counts.values()) or 1.0
    dwg = svgwrite.Drawing(size=(width, height), profile="full")
    dwg.add(dwg.rect((0, 0), (width, height), fill="#ffffff"))
    dwg.add(dwg.text(title, insert=(left, 18), font_size=14, font_family="sans-serif"))
    plot_w, plot_h = width - left - 20, height - top - bottom
    bw = plot_w / len(bins)
    for name, color in zip(series, PALETTE, strict=False):
        pts = []
        for k, c in enumerate(counts[name]):
            y = top + plot_h - c / peak * plot_h
            pts += [(left + k * bw, y), (left + (k + 1) * bw, y)]
        dwg.add(dwg.polyline(pts, fill="none", stroke=color, stroke_width=2))
    dwg.add(dwg.line((left, top + plot_h), (left + plot_w, top + plot_h), stroke="#000000"))
    dwg.add(dwg.line((left, top), (left, top + plot_h), stroke="#000000"))
    for k, b in enumerate(bins):
        if k % max(1, len(bins) // 12) == 0:
            dwg.add(dwg.text(str(b), insert=(left + k * bw, top + plot_h + 14), font_size=10,
                             font_family="sans-serif"))
    dwg.add(dwg.text("score", insert=(left + plot_w / 2, height - 8), font_size=11, font_family="sans-serif"))
    dwg.add(dwg.text(f"share of games (peak {peak:.0%})", insert=(4, top - 4), font_size=10,
                     font_family="sans-serif"))
    _legend(dwg, list(series), width - 170, top + 4)
    return dwg.tostring()


def curves_svg(curves: dict[str, Sequence[float]], title: str, width: int = 640, height: int = 300) -> str:
    """Cumulative share of games that reached a goal by each turn (1-17), as an SVG document."""
    import svgwrite

    left, bottom, top = 50, 40, 30
    plot_w, plot_h = width - left - 20, height - top - bottom
    dwg = svgwrite.Drawing(size=(width, height), profile="full")
    dwg.add(dwg.rect((0, 0), (width, height), fill="#ffffff"))
    dwg.add(dwg.text(title, insert=(left, 18), font_size=14, font_family="sans-serif"))
    for frac in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = top + plot_h - frac * plot_h
        dwg.add(dwg.line((left, y), (left + plot_w, y), stroke="#dddddd"))
        dwg.add(dwg.text(f"{frac:.0%}", insert=(8, y + 4), font_size=10, font_family="sans-serif"))
    for turn in range(1, CARDS_PLAYED + 1):
        x = left + (turn - 1) / (CARDS_PLAYED - 1) * plot_w
        dwg.add(dwg.text(str(turn), insert=(x - 4, top + plot_h + 14), font_size=10,
                         font_family="sans-serif"))
    for (name, ys), color in zip(curves.items(), _colours(list(curves)), strict=True):
        pts = [(left + k / (CARDS_PLAYED - 1) * plot_w, top + plot_h - y * plot_h) for k, y in enumerate(ys)]
        line = dwg.polyline(pts, fill="none", stroke=color, stroke_width=2)
        if "greedy" in name:
            line.dasharray([6, 4])
        dwg.add(line)
    dwg.add(dwg.text("turn", insert=(left + plot_w / 2, height - 8), font_size=11, font_family="sans-serif"))
    _legend(dwg, list(curves), left + 10, top + 4)
    return dwg.tostring()


GOAL_COLOURS = {"red": "#d62728", "blue": "#1f77b4", "six": "#2ca02c"}


def _colours(names: list[str]) -> list[str]:
    """One colour per series: a goal's own colour when the name starts with it, else the palette's."""
    return [next((c for g, c in GOAL_COLOURS.items() if name.startswith(g)), PALETTE[k % len(PALETTE)])
            for k, name in enumerate(names)]


def _legend(dwg: object, names: list[str], x: float, y: float) -> None:
    """Coloured legend lines with names."""
    for k, (name, color) in enumerate(zip(names, _colours(names), strict=True)):
        yy = y + 14 * k + 8
        dwg.add(dwg.line((x, yy - 4), (x + 18, yy - 4), stroke=color, stroke_width=3))  # type: ignore[attr-defined]
        dwg.add(dwg.text(name, insert=(x + 24, yy), font_size=11, font_family="sans-serif"))  # type: ignore[attr-defined]


def goal_curve(sim: Simulation, strategy: str, goal: str) -> list[float]:
    """Share of games that reached `goal` by each turn 1-17."""
    recs = sim.records[strategy]
    turns = [r.goal_turn(goal) for r in recs]
    return [sum(1 for t in turns if t is not None and t <= turn) / len(recs)
            for turn in range(1, CARDS_PLAYED + 1)]


def _fmt_turns(q: tuple[float, float, float] | None) -> str:
    """Quartile turns as text."""
    return "-" if q is None else "/".join(f"{x:g}" for x in q)


def report_markdown(result: DesignResult, seconds: float | None = None) -> str:
    """The design report: every shipped number with the measurements that chose it."""
    b = result.budget
    sc = result.scoring
    steps = f"{b.side_steps} search steps per side, {b.deck_steps} for the deck"
    lines = [
        "# Hashi layout design report", "",
        f"Produced by `hashi-print design --seed {result.seed} --budget {b.side_steps} "
        f"--games {b.games} --final-games {b.final_games}` ({steps})"
        + (f" in {seconds:.0f} s." if seconds is not None else "."),
        "All games are solo games played by the bots of hashi_print.game.bots; every move goes through",
        "the rules engine (hashi_print.game.rules) as referee. Scores: 2 per circled island plus the",
        "higher value of each goal reached (no turn limit) unless stated. Setup numeral: chosen by a",
        "hostile left-hand neighbour (a 3 or 4 where it is hardest to complete) for the side and deck",
        "search and the final comparison; a random island and value for the solo tables (see there).", "",
        "## Bots", "",
        "- random: a move drawn uniformly from the rules engine's legal moves.",
        "- greedy: the best immediate value: circled islands, goals reached and counted progress "
        "towards them, islands left completable (a numbered island that can no longer be completed "
        "costs half a point); every completable open island is worth the same small share.",
        "- strong: the same search made wider (6 numeral choices, a beam of 3 bridge sequences), "
        "valued over the cards still unseen: the chance that an open island gets its missing bridges "
        "in the turns left, that an unnumbered island with c bridges later gets the numeral c (from "
        "the unseen cards, shared among the islands waiting for it), and goals valued by those "
        "chances. Its knobs (`hashi_print.game.bots.StrongParams`) were tuned by simulation.", "",
        "## Sides", "",
    ]
    for name, side in result.sides.items():
        geo = side.geometry
        problems = side_problems(side)
        lines += [f"### Side {name} ({side.rows}x{side.cols})", "",
                  "Red islands are marked `*`, blue islands are lower case.", "", "```",
                  side_picture(side), "```", "",
                  f"- {len(geo.lanes)} lanes, {len(crossing_pairs(geo))} crossing lane pairs, "
                  f"lanes per island {min(map(len, geo.lanes_of))}-{max(map(len, geo.lanes_of))}; "
                  f"design constraints: {'all met' if not problems else '; '.join(problems)}.", ""]
    lines += ["## Final measurements", "",
              f"{b.final_games} games per bot and side, the same deals for every bot "
              f"(seed {result.seed + 1}).", "",
              "| side | bot | mean | stdev | quartiles | circled | red | blue | six "
              "| goal turns r/b/s (median) | bridge skips | forced skips |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, sim in result.final.items():
        for bot, s in sim.summary.items():
            med = "/".join("-" if s.goal_turns[g] is None else f"{s.goal_turns[g][1]:g}" for g in GOALS)
            lines.append(f"| {name} | {bot} | {s.mean:.2f} | {s.stdev:.2f} | "
                         f"{'/'.join(f'{x:g}' for x in s.quartiles)} | {s.mean_circled:.2f} | "
                         f"{s.goal_rate['red']:.0%} | {s.goal_rate['blue']:.0%} | {s.goal_rate['six']:.0%} | "
                         f"{med} | {s.mean_skips:.2f} | {s.mean_forced_skips:.2f} |")
    ma = result.final["A"].summary["strong"].mean
    mb = result.final["B"].summary["strong"].mean
    lines += [""]
    for name, sim in result.final.items():
        s, g, r = (sim.summary[x].mean for x in ("strong", "greedy", "random"))
        lines.append(f"- Side {name}: strong is {100 * (s / g - 1):+.1f} % over greedy, greedy "
                     f"{100 * (g / r - 1):+.1f} % over random.")
    problems = objective_problems(result)
    lines += [f"- Side A / side B mean strong score: {ma:.2f} / {mb:.2f} = {ma / mb:.3f} "
              f"(wanted >= {WANTED_RATIO}).",
              "- Objectives: " + ("all met (goal rates within 20-80 %, strong at least "
                                  f"{WANTED_EDGE}x greedy, A/B at least {WANTED_RATIO})." if not problems
                                  else "NOT MET: " + "; ".join(problems) + "."), "",
              "![scores A](scores-A.svg)", "![scores B](scores-B.svg)", "![goals A](goals-A.svg)",
              "![goals B](goals-B.svg)", "", "## Deck", "",
              f"Chosen deck ({sum(c.bridges for c in result.deck.cards)} bridges; the 17 cards of a game "
              f"draw at most {result.deck.max_bridges()}): `{deck_text(result.deck)}`.", "",
              "Numerals: " + ", ".join(f"{n}: {k}x" for n, k in sorted(result.deck.numeral_counts().items()))
              + ". Bridges per card: " + ", ".join(
                  f"{x}: {sum(1 for c in result.deck.cards if c.bridges == x)}x" for x in (1, 2, 3))
              + ".", "",
              "The deck search (hill climbing from 3 cards per numeral with 1, 2, 3 bridges, two 3s lowered"
              " to 2) maximised the score spread (stdev) while aiming at about one forced skip in two games"
              " and keeping every goal rate in 20-80 %:", "",
              "| step | deck | mean | forced skips | objective | kept |", "|---|---|---|---|---|---|"]
    for t in result.trials:
        if t.stage == "deck":
            lines.append(f"| {t.step} | `{t.description}` | {t.mean:.2f} | {t.forced:.2f} | "
                         f"{t.objective:.2f} | {'yes' if t.kept else ''} |")
    band = f"{GOAL_BAND[0] + SEARCH_MARGIN:.0%}-{GOAL_BAND[1] - SEARCH_MARGIN:.0%}".replace("%", "")
    lines += ["", "## Side search", "",
              f"Each candidate was measured with {b.games} strong-bot games on the same deals. "
              f"Side A maximised the mean score; side B aimed at side A's mean / {B_RATIO}; both pay "
              f"{GOAL_WEIGHT:g} points per unit of goal rate outside {band} % (the 20-80 % band "
              f"narrowed by {SEARCH_MARGIN * 100:g} points for the measuring error) and 3 points per "
              "forced skip. "
              f"Side A has at most {MAX_LANES['A']} lanes: on a denser 9x9 side the strong bot links six "
              f"circled islands in over 90 % of games. The {FINALISTS} best distinct candidates of each "
              f"search (`check` rows) were measured again with {CONFIRM_GAMES * b.games} fresh games of "
              f"the strong and the greedy bot, and the best of them was kept; side A's finalists were "
              f"measured once more after the deck search, with the chosen deck (`with deck` rows). In "
              f"these checks the objective also pays "
              f"{EDGE_WEIGHT:g} points per unit the strong bot falls short of {MIN_EDGE}x the greedy "
              "bot's mean.", "",
              "| stage | step | mean | red | blue | six | forced | objective | kept |",
              "|---|---|---|---|---|---|---|---|---|"]
    for t in result.trials:
        if t.stage != "deck":
            lines.append(f"| {t.stage} | {t.step} | {t.mean:.2f} | {t.goal_rate['red']:.0%} | "
                         f"{t.goal_rate['blue']:.0%} | {t.goal_rate['six']:.0%} | {t.forced:.2f} | "
                         f"{t.objective:.2f} | {'yes' if t.kept else ''} |")
    cal = result.calibration
    lines += ["", "## Bonus values", "",
              f"Red {sc.bonus['red'][0]}/{sc.bonus['red'][1]} and blue "
              f"{sc.bonus['blue'][0]}/{sc.bonus['blue'][1]} are the published values. Strong-bot goal "
              "rates over both sides: " + ", ".join(f"{g} {cal[f'rate_{g}']:.0%}" for g in GOALS)
              + f". Red and blue are worth {cal['expected_red_blue']:.2f} points per game on average "
              "(value x rate);"
              f" the six-island first value is that worth divided by the six rate, clamped to 5-11: "
              f"**{sc.bonus['six'][0]}**, and the later value keeps the published later/first ratio: "
              f"**{sc.bonus['six'][1]}**. (The search and the final games above use the provisional six "
              f"value {PROVISIONAL_SIX[0]}/{PROVISIONAL_SIX[1]}; the solo games below use the calibrated "
              "one.)", "", "## Solo tables", "",
              f"Strong bot, {b.final_games} games per side (seed {result.seed + 2}). The solo player "
              "writes the setup numeral where they like, so each game takes a random unflagged island "
              "and a random 3 or 4: one fixed choice can put a goal nearly out of reach, and its limits "
              "would rest on a handful of games. "
              "A goal's limit is the turn by which the strong bot reached it in 75 % (easy), 50 % (normal) "
              "and 25 % (hard) of the games that reached it.", "",
              "| side | goal | reached | turn quartiles | easy | normal | hard |",
              "|---|---|---|---|---|---|---|"]
    for name, sim in result.solo.items():
        s = sim.summary["strong"]
        for g in GOALS:
            lv = sc.solo_levels[name]
            lines.append(f"| {name} | {g} | {s.goal_rate[g]:.0%} | {_fmt_turns(s.goal_turns[g])} | "
                         f"{lv['easy'][g]} | {lv['normal'][g]} | {lv['hard'][g]} |")
    lines += ["", "Rating bands for the final solo score (normal limits), from the strong bot's solo "
              "scores at the 90th, 75th, 50th and 25th percentile:", ""]
    for name, bands in sc.ratings.items():
        lines.append(f"- Side {name}: " + "; ".join(f"{m}+ {w}" for m, w in bands))
    lines.append("")
    return "\n".join(lines)


def write_design(result: DesignResult, out_dir: str, layouts_dir: str | None = None,
                  seconds: float | None = None) -> list[str]:
    """Write the report, plots and layout files into out_dir (and layouts_dir if given); return the paths."""
    from pathlib import Path

    from hashi_print.files import write_atomic

    out = Path(out_dir)
    written = []
    for name, text in layout_files(result).items():
        written.append(str(write_atomic(out / "layouts" / name, text)))
        if layouts_dir is not None:
            written.append(str(write_atomic(Path(layouts_dir) / name, text)))
    for name, sim in result.final.items():
        series = {bot: [r.score for r in recs] for bot, recs in sim.records.items()}
        written.append(str(write_atomic(out / f"scores-{name}.svg",
                                        histogram_svg(series, f"Side {name}: final scores per bot"))))
        curves = {f"{g} (strong)": goal_curve(sim, "strong", g) for g in GOALS}
        curves.update({f"{g} (greedy, dashed)": goal_curve(sim, "greedy", g) for g in GOALS})
        written.append(str(write_atomic(out / f"goals-{name}.svg",
                                        curves_svg(curves, f"Side {name}: goals reached by turn"))))
    written.append(str(write_atomic(out / "design.md", report_markdown(result, seconds))))
    return written


def budget_from(steps: int | None, games: int | None, final_games: int | None) -> Budget:
    """A Budget from command-line numbers; None keeps the default that produced the shipped files."""
    base = Budget()
    side_steps = base.side_steps if steps is None else steps
    deck_steps = base.deck_steps if steps is None else max(1, round(steps * DECK_SHARE))
    return Budget(side_steps, deck_steps, base.games if games is None else games,
                  base.final_games if final_games is None else final_games)
