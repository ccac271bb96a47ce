"""Measuring a designed side by simulation: the adversary's setup and a random one, and the tables the
final games give (solo turn limits, rating bands)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hashi_print.game.board import BoardSide
from hashi_print.game.deck import CARDS_PLAYED, GOALS, Deck
from hashi_print.game.rules import SETUP_VALUES
from hashi_print.game.scoring import Scoring, SoloLevel
from hashi_print.game.simulate import Simulation, Summary, simulate

SETUP_KINDS = ("adversary", "random")
# Solo levels: a goal's limit is the turn by which the strong bot reached it in this share of all games.
SOLO_SHARES = {"easy": 0.6, "normal": 0.4, "hard": 0.2}
RATING_WORDS = ("master builder", "excellent", "good", "fair", "keep building")


@dataclass(frozen=True)
class Effort:
    """How hard a side is measured: deals per setup in the screening of every setup, how many of the
    worst setups are measured again and on how many deals, and games under the adversary's setup."""

    screen_deals: int
    suspects: int
    suspect_deals: int
    games: int


@dataclass(frozen=True)
class Budget:
    """How much the design run simulates: search steps, the effort per candidate, finalist and final,
    and side B's rounds of flag moves with the effort that screens each move."""

    side_steps: int = 30
    deck_steps: int = 12
    search: Effort = Effort(3, 3, 4, 36)
    confirm: Effort = Effort(6, 3, 8, 60)
    final: Effort = Effort(20, 4, 24, 240)
    flag_rounds: int = 3
    flag_screen: Effort = Effort(2, 1, 0, 22)


@dataclass(frozen=True)
class Measure:
    """One side measured under the adversary's setup and a random one: the setup the adversary chose,
    every setup's strong-bot mean in the screening, and the simulations (strong, maybe greedy)."""

    adversary: tuple[int, int]
    setup_means: tuple[tuple[tuple[int, int], float], ...]
    sims: dict[str, Simulation]

    def summary(self, kind: str, bot: str = "strong") -> Summary:
        """The summary of one bot's games under one setup kind (`adversary` or `random`)."""
        return self.sims[kind].summary[bot]

    def mean(self) -> float:
        """The strong bot's mean score over both setups."""
        return statistics.fmean(self.summary(k).mean for k in SETUP_KINDS)


@dataclass(frozen=True)
class Pool:
    """How the design run simulates: worker processes, and whom to tell about finished games."""

    workers: int = 2
    progress: Callable[[int, int], None] | None = None


def plain_setups(side: BoardSide) -> tuple[tuple[int, int], ...]:
    """Every setup a neighbour may choose: each unflagged island with a 3 and with a 4."""
    return tuple((i, v) for i, isl in enumerate(side.islands) if isl.flag is None for v in SETUP_VALUES)


def _run(side: BoardSide, deck: Deck, scoring: Scoring, bots: Sequence[str], games: int, seed: int,
         pool: Pool, setup: tuple[tuple[int, int], ...], share_deals: bool = True) -> Simulation:
    """Simulate with the design's fixed conventions (see `simulate` for `share_deals`)."""
    return simulate(side, deck, bots, games, seed, scoring=scoring, setup=setup, workers=pool.workers,
                    progress=pool.progress, share_deals=share_deals)


def setup_means(sim: Simulation, setups: Sequence[tuple[int, int]]) -> list[float]:
    """The strong bot's mean score under each listed setup (game index % len(setups) took that setup)."""
    sums = [0.0] * len(setups)
    counts = [0] * len(setups)
    for r in sim.records["strong"]:
        sums[r.index % len(setups)] += r.score
        counts[r.index % len(setups)] += 1
    return [s / max(1, c) for s, c in zip(sums, counts, strict=True)]


def measure_side(side: BoardSide, deck: Deck, scoring: Scoring, effort: Effort, seed: int, pool: Pool,
                 bots: Sequence[str] = ("strong",)) -> Measure:
    """Measure a side under a random setup and under the setup an adversary picks by simulation.

    Every setup is played `screen_deals` times, each game on a deal of its own (together: the
    random-setup games); the `suspects` setups with the lowest strong-bot means are played again on
    fresh deals they share, and the lowest of those is the adversary's choice (ties: the first in island
    order), measured on fresh deals.
    """
    setups = plain_setups(side)
    # A goal's rate swings widely with the card order: had the setups shared their deals, the random
    # setup's rates would rest on only `screen_deals` card orders (bench/design.md).
    screen = _run(side, deck, scoring, bots, effort.screen_deals * len(setups), seed, pool, setups,
                  share_deals=False)
    means = setup_means(screen, setups)
    ranked = sorted(range(len(setups)), key=lambda k: (means[k], k))[:effort.suspects]
    suspects = tuple(setups[k] for k in ranked)
    if len(suspects) > 1 and effort.suspect_deals:
        again = _run(side, deck, scoring, ["strong"], effort.suspect_deals * len(suspects), seed + 1, pool,
                     suspects)
        second = setup_means(again, suspects)
        chosen = suspects[min(range(len(suspects)), key=lambda k: (second[k], k))]
    else:
        chosen = suspects[0]
    adversary = _run(side, deck, scoring, bots, effort.games, seed + 2, pool, (chosen,))
    return Measure(chosen, tuple(zip(setups, means, strict=True)), {"adversary": adversary, "random": screen})


# --- objectives --------------------------------------------------------------------------------


def _percentile(values: Sequence[int], q: float) -> float:
    """The q-quantile (0..1) by linear interpolation between order statistics."""
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def goal_curve(sim: Simulation, strategy: str, goal: str) -> list[float]:
    """The share of one bot's games that reached `goal` by each turn 1-17."""
    recs = sim.records[strategy]
    turns = [r.goal_turn(goal) for r in recs]
    return [sum(1 for t in turns if t is not None and t <= turn) / len(recs)
            for turn in range(1, CARDS_PLAYED + 1)]


def reached_by(sim: Simulation, goal: str) -> list[float]:
    """The share of all strong-bot games that reached `goal` by each turn 1-17."""
    return goal_curve(sim, "strong", goal)


@dataclass(frozen=True)
class RaceTiming:
    """When one bot reached one goal in a set of games: in how many, and the quartiles (Q1, median, Q3)
    of the turn over the games that reached it (None when none did)."""

    games: int
    reached: int
    quartiles: tuple[float, float, float] | None

    @property
    def rate(self) -> float:
        """The share of the games that reached the goal."""
        return self.reached / self.games if self.games else 0.0


def race_timing(sim: Simulation, goal: str, strategy: str = "strong") -> RaceTiming:
    """How often and on which turn one bot's games reached `goal`; quartiles by linear interpolation
    between the reached turns (the goals are races: the turn counts, not only the rate)."""
    recs = sim.records[strategy]
    turns = [t for r in recs if (t := r.goal_turn(goal)) is not None]
    quartiles = (_percentile(turns, 0.25), _percentile(turns, 0.5), _percentile(turns, 0.75)) if turns \
        else None
    return RaceTiming(len(recs), len(turns), quartiles)


def solo_tables(sim: Simulation) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    """Turn limits per level and goal: the turn by which the strong bot reached the goal in the share of
    ALL games closest to the level's SOLO_SHARES (the later turn on a tie; 17 when it never gets closer),
    and the share each limit gives."""
    limits: dict[str, dict[str, int]] = {lv: {} for lv in SoloLevel}
    shares: dict[str, dict[str, float]] = {lv: {} for lv in SoloLevel}
    for goal in GOALS:
        curve = reached_by(sim, goal)
        for lv in SoloLevel:
            want = SOLO_SHARES[lv]
            turn = min(range(1, CARDS_PLAYED + 1), key=lambda t: (abs(curve[t - 1] - want), -t))
            limits[lv][goal] = turn
            shares[lv][goal] = curve[turn - 1]
    return limits, shares


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
