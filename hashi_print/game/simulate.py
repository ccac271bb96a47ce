"""Play bot games with the rules engine as referee, in batches on every core, and summarise them."""

from __future__ import annotations

import atexit
import itertools
import multiprocessing
import multiprocessing.pool
import random
import signal
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from hashi_print.game.board import BoardSide
from hashi_print.game.bots import SETUPS, STRATEGIES, Context, can_bridge, legal_places
from hashi_print.game.deck import CARDS_PLAYED, GOALS, Card, Deck
from hashi_print.game.rules import GameState, Move, apply, new_game
from hashi_print.game.scoring import Scoring, score_sheet

CHUNK = 20


@dataclass(frozen=True)
class GameRecord:
    """One simulated solo game: score, circles, the turn each goal was reached, and the skips."""

    index: int
    strategy: str
    score: int
    circled: int
    goals: tuple[tuple[str, int], ...]
    numeral_skips: int
    bridge_skips: int
    forced_skips: int
    bridges: int
    setup: tuple[int, int]
    forced_numeral_skips: int = 0
    numeral_places: int = 0
    bridge_places: int = 0

    def goal_turn(self, goal: str) -> int | None:
        """The turn on which `goal` was reached, or None."""
        return next((t for g, t in self.goals if g == goal), None)


@dataclass(frozen=True)
class Summary:
    """Statistics of one strategy's games on one side."""

    games: int
    mean: float
    stdev: float
    quartiles: tuple[float, float, float]
    mean_circled: float
    goal_rate: dict[str, float]
    goal_turns: dict[str, tuple[float, float, float] | None]
    mean_skips: float
    mean_forced_skips: float
    mean_bridges: float
    mean_numeral_skips: float = 0.0
    mean_forced_numeral_skips: float = 0.0
    mean_numeral_places: float = 0.0
    mean_bridge_places: float = 0.0

    @property
    def voluntary_numeral_skips(self) -> float:
        """Turns per game on which the bot could write the numeral and did not."""
        return self.mean_numeral_skips - self.mean_forced_numeral_skips

    @property
    def voluntary_bridge_skips(self) -> float:
        """Turns per game on which the bot could draw the card's bridges and did not."""
        return self.mean_skips - self.mean_forced_skips

    @property
    def numeral_share(self) -> float:
        """The share of the cards seen whose numeral the bot wrote."""
        return 1.0 - self.mean_numeral_skips / CARDS_PLAYED


@dataclass(frozen=True)
class Simulation:
    """The records and summary of each strategy's games."""

    records: dict[str, tuple[GameRecord, ...]]
    summary: dict[str, Summary]


def deal(deck: Deck, rng: random.Random) -> tuple[Card, ...]:
    """Shuffle the deck and remove one card unseen: the 17 cards of a game, in order."""
    cards = list(deck.cards)
    rng.shuffle(cards)
    return tuple(cards[:CARDS_PLAYED])


Setup = str | tuple[tuple[int, int], ...]


def play_game(side: BoardSide, deck: Deck, scoring: Scoring, strategy: str, setup: Setup, index: int,
              seed: int, partial: bool = False,
              share_deals: bool = True) -> tuple[GameRecord, tuple[Move, ...], GameState]:
    """Play one solo game; every move is checked and applied by the rules engine.

    `setup` names a setup strategy of hashi_print.game.bots, or lists m (island, value) setups: then
    game `index` takes setup index % m, on deal index // m when `share_deals` (the m setups play the
    same deals) and on deal `index` otherwise.
    """
    deal_index = index if isinstance(setup, str) or not share_deals else index // len(setup)
    cards = deal(deck, random.Random(f"{seed}/{deal_index}/cards"))
    bot = STRATEGIES[strategy]
    context = Context(side, deck, scoring, (), random.Random(f"{seed}/{index}/{strategy}"), partial)
    placed = SETUPS[setup](side, context) if isinstance(setup, str) else setup[index % len(setup)]
    state = new_game(side, placed)
    moves: list[Move] = []
    numeral_skips = numeral_forced = bridge_skips = forced = numeral_places = bridge_places = 0
    for card in cards:
        places = legal_places(state, card, context.tables)
        numeral_places += places[0]
        bridge_places += places[1]
        move = bot(state, card, context)
        if move.numeral is None:
            numeral_skips += 1
            numeral_forced += places[0] == 0
        if not move.bridges:
            bridge_skips += 1
            if not can_bridge(state, card, context):
                forced += 1
        state = apply(state, card, move, partial)
        moves.append(move)
        context = replace(context, seen=context.seen + (card,))
    score = score_sheet(state, scoring)
    record = GameRecord(index, strategy, score.total, score.circled, state.goals, numeral_skips,
                        bridge_skips, forced, sum(state.bridges), placed, numeral_forced, numeral_places,
                        bridge_places)
    return record, tuple(moves), state


@dataclass(frozen=True)
class _Batch:
    """A batch's fixed inputs, sent with each of its tasks; `token` names the batch in the workers."""

    side: BoardSide
    deck: Deck
    scoring: Scoring
    setup: Setup
    seed: int
    partial: bool
    share_deals: bool
    token: int = 0


# The batch a worker played last: its side object keeps its lanes and the bots' tables between tasks.
_KEPT: list[_Batch] = []
# One pool per worker count, kept for the whole process: a design run simulates hundreds of small
# batches, and starting two processes for each cost more than its games on the loaded machine.
_POOLS: dict[int, multiprocessing.pool.Pool] = {}
_TOKENS = itertools.count(1)


def _init_worker() -> None:
    """Set up a worker process: Ctrl-C is left to the parent, which stops the pool and exits 130, and
    SIGTERM ends the worker even when the parent handles it in Python."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _run_chunk(task: tuple[_Batch, str, int, int]) -> list[GameRecord]:
    """Play games start..stop-1 of one strategy of a batch."""
    batch, strategy, start, stop = task
    if _KEPT and _KEPT[0].token == batch.token:
        batch = _KEPT[0]
    else:
        _KEPT[:] = [batch]
    return [play_game(batch.side, batch.deck, batch.scoring, strategy, batch.setup, i, batch.seed,
                      batch.partial, batch.share_deals)[0]
            for i in range(start, stop)]


def _pool(workers: int) -> multiprocessing.pool.Pool:
    """The kept pool of `workers` processes, started on first use."""
    pool = _POOLS.get(workers)
    if pool is None:
        pool = multiprocessing.get_context("fork").Pool(workers, initializer=_init_worker)
        _POOLS[workers] = pool
    return pool


def close_pools() -> None:
    """Stop the kept worker pools (they also stop when the process exits)."""
    while _POOLS:
        _, pool = _POOLS.popitem()
        pool.terminate()
        pool.join()


# Stopped before the interpreter tears down the modules a pool's finaliser needs (atexit runs its
# handlers last registered first, so this one before multiprocessing's own).
atexit.register(close_pools)


def simulate(side: BoardSide, deck: Deck, strategies: Sequence[str], n: int, seed: int, *,
             scoring: Scoring, setup: Setup = "hostile", workers: int = 2, partial: bool = False,
             progress: Callable[[int, int], None] | None = None, share_deals: bool = True) -> Simulation:
    """Play `n` games per strategy (the same card orders for each) and summarise them.

    `progress(done, total)` is called after each batch of games; `workers` > 1 uses processes (the
    records are the same for any number); `share_deals` is passed to `play_game` for a list of setups.
    """
    for name in strategies:
        if name not in STRATEGIES:
            raise ValueError(f"unknown strategy {name!r}; choose from {', '.join(STRATEGIES)}")
    size = max(5, min(CHUNK, -(-n // (2 * max(1, workers)))))
    batch = _Batch(side, deck, scoring, setup, seed, partial, share_deals, next(_TOKENS))
    tasks = [(batch, s, a, min(n, a + size)) for s in strategies for a in range(0, n, size)]
    total = n * len(strategies)
    results: list[GameRecord] = []
    if workers <= 1 or len(tasks) == 1:
        for task in tasks:
            results.extend(_run_chunk(task))
            if progress:
                progress(len(results), total)
    else:
        pool = _pool(workers)
        try:
            for chunk in pool.imap_unordered(_run_chunk, tasks):
                results.extend(chunk)
                if progress:
                    progress(len(results), total)
        except BaseException:
            # Interrupted (Ctrl-C) or failed: the pool may hold unfinished tasks; start afresh next time.
            _POOLS.pop(workers, None)
            pool.terminate()
            raise
    records = {s: tuple(sorted((r for r in results if r.strategy == s), key=lambda r: r.index))
               for s in strategies}
    return Simulation(records, {s: summarise(recs) for s, recs in records.items()})


def _quartiles(values: Sequence[float]) -> tuple[float, float, float]:
    """25th, 50th and 75th percentiles (inclusive method); a single value repeats."""
    if len(values) == 1:
        return (float(values[0]),) * 3
    q = statistics.quantiles(values, n=4, method="inclusive")
    return (q[0], q[1], q[2])


def summarise(records: Sequence[GameRecord]) -> Summary:
    """Mean and spread of scores, goal rates and goal turns, skips."""
    scores = [r.score for r in records]
    n = len(records)
    rate = {}
    turns: dict[str, tuple[float, float, float] | None] = {}
    for goal in GOALS:
        reached = [t for r in records if (t := r.goal_turn(goal)) is not None]
        rate[goal] = len(reached) / n
        turns[goal] = _quartiles(reached) if reached else None
    return Summary(
        games=n, mean=statistics.fmean(scores), stdev=statistics.pstdev(scores),
        quartiles=_quartiles(scores), mean_circled=statistics.fmean(r.circled for r in records),
        goal_rate=rate, goal_turns=turns, mean_skips=statistics.fmean(r.bridge_skips for r in records),
        mean_forced_skips=statistics.fmean(r.forced_skips for r in records),
        mean_bridges=statistics.fmean(r.bridges for r in records),
        mean_numeral_skips=statistics.fmean(r.numeral_skips for r in records),
        mean_forced_numeral_skips=statistics.fmean(r.forced_numeral_skips for r in records),
        mean_numeral_places=statistics.fmean(r.numeral_places for r in records) / CARDS_PLAYED,
        mean_bridge_places=statistics.fmean(r.bridge_places for r in records) / CARDS_PLAYED)
