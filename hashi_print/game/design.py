"""The layout engine: search board sides and the deck by simulation, calibrate bonuses and solo tables.

The searches live in `design_search`, the measurements in `design_measure` and the objectives in
`design_objectives`; this module runs them in order and re-exports what the report, the CLI and the
benchmarks use.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hashi_print.game.board import BoardSide
from hashi_print.game.deck import GOALS, Deck
from hashi_print.game.design_measure import (
    RATING_WORDS,
    SETUP_KINDS,
    SOLO_SHARES,
    Budget,
    Effort,
    Measure,
    Pool,
    RaceTiming,
    goal_curve,
    measure_side,
    plain_setups,
    race_timing,
    rating_bands,
    reached_by,
    setup_means,
    solo_scores,
    solo_tables,
)
from hashi_print.game.design_objectives import (
    AIM_EDGE,
    AIM_NUMERAL_SHARE,
    AIM_RATIO,
    AIMS,
    B_RATIO,
    MARGINS,
    MIN_NUMERAL_SHARE,
    SIX_FACTOR,
    TARGET_LANES,
    TARGETS,
    WANTED_EDGE,
    WANTED_RATIO,
    WEIGHTS,
    Aims,
    Check,
    Targets,
    _fmt,
    aim_checks,
    penalty,
    reached,
    side_checks,
    side_objective,
    value_text,
)
from hashi_print.game.design_search import (
    ALIGNED,
    CONFIRM_SEED,
    DECK_BRIDGES,
    FINALISTS,
    FLAG_FINALISTS,
    FLAG_SEED,
    MAX_LANES,
    MIN_CROSSINGS,
    MIN_LANES,
    RED_MIN_DISTANCE,
    SEARCH_BOTS,
    SIDE_CROSSINGS,
    SIZES,
    Candidate,
    Context,
    Placement,
    Progress,
    Trial,
    _free_cells,
    base_deck,
    circleable,
    confirm_best,
    deck_problems,
    deck_text,
    finalists,
    flag_moves,
    flag_text,
    mutate_deck,
    mutate_side,
    place_flags,
    placement_of,
    random_side,
    search_deck,
    search_side,
    side_of,
    side_problems,
)
from hashi_print.game.scoring import Scoring, SoloLevel

__all__ = [
    "AIMS", "AIM_EDGE", "AIM_NUMERAL_SHARE", "AIM_RATIO", "ALIGNED", "Aims", "B_RATIO", "Budget",
    "CONFIRM_SEED", "Candidate", "Check", "Context", "DECK_BRIDGES", "DesignResult", "Effort", "FINALISTS",
    "FINAL_SEED", "FLAG_FINALISTS", "FLAG_SEED", "MARGINS", "MAX_LANES", "MIN_CROSSINGS", "MIN_LANES",
    "MIN_NUMERAL_SHARE", "Measure", "PROVISIONAL_SIX", "PUBLISHED", "Placement", "Pool", "Progress", "QUICK",
    "RATING_WORDS", "RED_MIN_DISTANCE", "RaceTiming", "SEARCH_BOTS", "SETUP_KINDS", "SIDE_CROSSINGS",
    "SIX_FACTOR", "SIZES", "SOLO_SHARES", "TARGETS", "TARGET_LANES", "Targets", "Trial", "WANTED_EDGE",
    "WANTED_RATIO", "WEIGHTS", "_fmt", "_free_cells", "aim_checks", "base_deck", "budget_from",
    "calibrate_six", "circleable", "confirm_best", "deck_problems", "deck_text", "design", "design_checks",
    "finalists", "flag_moves", "flag_text", "goal_curve", "measure_side", "mutate_deck", "mutate_side",
    "objective_problems", "penalty", "place_flags", "placement_of", "plain_setups", "provisional_scoring",
    "race_timing", "random_side", "rating_bands", "reached", "reached_by", "search_deck", "search_side",
    "setup_means", "side_checks", "side_objective", "side_of", "side_problems", "solo_scores", "solo_tables",
    "value_text",
]

PUBLISHED = {"red": (9, 5), "blue": (7, 3)}
# The six-group value used while searching; close to what calibrate_six later gives, so the search
# measures the scores that ship.
PROVISIONAL_SIX = (6, 3)
FINAL_SEED = 20


@dataclass(frozen=True)
class DesignResult:
    """The designed sides, deck and scoring, with the evidence that chose them."""

    sides: dict[str, BoardSide]
    deck: Deck
    scoring: Scoring
    trials: tuple[Trial, ...]
    final: dict[str, Measure]
    calibration: dict[str, float]
    seed: int
    budget: Budget
    solo_shares: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)


def provisional_scoring(six: tuple[int, int] = PROVISIONAL_SIX) -> Scoring:
    """The published red and blue values with a provisional six-island value."""
    return Scoring(2, {"red": PUBLISHED["red"], "blue": PUBLISHED["blue"], "six": six})


def calibrate_six(rates_by_side: Sequence[dict[str, float]]) -> tuple[tuple[int, int], dict[str, float]]:
    """Choose the six-group values so its expected bonus (value x rate) matches red's and blue's average."""
    rates = {g: statistics.fmean(r[g] for r in rates_by_side) for g in GOALS}
    worth = statistics.fmean([PUBLISHED["red"][0] * rates["red"], PUBLISHED["blue"][0] * rates["blue"]])
    first = 8 if rates["six"] <= 0 else round(worth / rates["six"])
    first = min(11, max(5, first))
    ratio = statistics.fmean([PUBLISHED["red"][1] / PUBLISHED["red"][0],
                              PUBLISHED["blue"][1] / PUBLISHED["blue"][0]])
    later = max(2, round(first * ratio))
    info = {f"rate_{g}": rates[g] for g in GOALS}
    info["expected_red_blue"] = worth
    return (first, later), info


def design(seed: int = 1, budget: Budget = Budget(), workers: int = 2,  # noqa: B008 - frozen default
           note: Progress | None = None, progress: Callable[[int, int], None] | None = None,
           start: Deck | None = None) -> DesignResult:
    """Design side A, side B and the deck together, the six bonus, solo tables and ratings; deterministic
    per seed. `note(text)` hears each search step; `progress(done, total)` each batch of games; `start` is
    the deck the search starts from (default: base_deck)."""
    ctx = Context(seed, Pool(workers, progress), budget, note)
    rng = random.Random(seed)
    trials: list[Trial] = []
    scoring = provisional_scoring()
    deck = start or base_deck()
    finalists_a = search_side("A", deck, scoring, rng, ctx, trials)
    quick_a = finalists_a[0][2]
    finalists_b = search_side("B", deck, scoring, rng, ctx, trials, quick_a, quick_a.mean() / B_RATIO)
    # The deck is searched on the best side of each search; then every finalist is measured with it.
    deck = search_deck(deck, {"A": finalists_a[0][1], "B": finalists_b[0][1]}, scoring, rng, ctx, trials)
    side_a, m_a = confirm_best("A", finalists_a, deck, scoring, ctx, trials)
    side_b, m_b = confirm_best("B", finalists_b, deck, scoring, ctx, trials, m_a, m_a.mean() / B_RATIO)
    # Side B is meant to be harder through where its flags sit; with the island positions chosen, every
    # flag move can be tried (side A, which aims only at a high mean, keeps the search's flags).
    side_b, m_b = place_flags("B", side_b, m_b, deck, scoring, ctx, trials, m_a, m_a.mean() / B_RATIO)
    sides = {"A": side_a, "B": side_b}
    six, calib = calibrate_six([m.summary(k).goal_rate for m in (m_a, m_b) for k in SETUP_KINDS])
    scoring = provisional_scoring(six)
    final: dict[str, Measure] = {}
    for name, side in sides.items():
        if note:
            note(f"final games on side {name}")
        final[name] = measure_side(side, deck, scoring, budget.final, seed + FINAL_SEED, ctx.pool,
                                   ("strong", "greedy"))
    levels: dict[str, dict[str, dict[str, int]]] = {}
    shares: dict[str, dict[str, dict[str, float]]] = {}
    ratings: dict[str, dict[str, tuple[tuple[int, str], ...]]] = {}
    for name in sides:
        # A solo player writes the setup numeral where they like: every choice, equally often.
        sim = final[name].sims["random"]
        levels[name], shares[name] = solo_tables(sim)
        ratings[name] = {lv: rating_bands(solo_scores(sim, scoring, levels[name][lv])) for lv in SoloLevel}
    standard = {s: dict(lv[SoloLevel.NORMAL]) for s, lv in levels.items()}
    normal = {s: r[SoloLevel.NORMAL] for s, r in ratings.items()}
    scoring = Scoring(2, scoring.bonus, standard, levels, normal, ratings)
    return DesignResult(sides, deck, scoring, tuple(trials), final, calib, seed, budget, shares)


def design_checks(result: DesignResult) -> dict[str, list[Check]]:
    """Every target of each side in the final games (side B also against side A's mean), round 3's."""
    return {"A": side_checks("A", result.final["A"], side=result.sides.get("A")),
            "B": side_checks("B", result.final["B"], result.final["A"], side=result.sides.get("B"))}


def objective_problems(result: DesignResult) -> list[str]:
    """The targets the final games miss, one line each."""
    return [f"side {c.side}, {c.setup} setup: {c.objective} {_fmt(c)} (wanted {c.target})"
            for checks in design_checks(result).values() for c in checks if not c.met]


# A run to try the command or test it: a handful of games per measurement (not the shipped files).
QUICK = Budget(1, 1, Effort(1, 1, 0, 2), Effort(1, 2, 1, 2), Effort(1, 2, 1, 4), 1, Effort(1, 1, 0, 2))


def budget_from(steps: int | None, quick: bool = False) -> Budget:
    """A Budget from the command line's search steps; None keeps the default that produced the shipped
    files (the deck gets 4 steps in 10); `quick` measures with a handful of games."""
    base = QUICK if quick else Budget()
    if steps is None:
        return base
    return Budget(steps, max(1, round(steps * 0.4)), base.search, base.confirm, base.final, base.flag_rounds,
                  base.flag_screen)
