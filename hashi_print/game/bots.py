"""Bot strategies for the Hashi game: plain functions (state, card, context) -> Move, and setup choices.

Bots search on compact lists (numerals, bridges per lane, bridges per island) for speed; the moves
they return are played through the rules engine (hashi_print.game.rules), which is the referee.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from math import comb
from typing import cast

from hashi_print.game import botsearch
from hashi_print.game.board import BoardSide
from hashi_print.game.deck import CARDS_PLAYED, Card, Deck
from hashi_print.game.rules import GameState, Move, legal_moves
from hashi_print.game.scoring import Scoring
from hashi_print.native import mirror

MAX_NUMERAL = 6
# Turns whose searched moves are kept per side (later positions almost never recur), and at most how many.
OPENING_TURNS = 3
OPENING_KEPT = 50_000
NATIVE = "hashi_print.game._botsearch_native"


PURE = "HASHI_PURE_BOTS"  # set: the bots search in pure Python even where the C kernel is built


def search_class() -> type[botsearch.Search]:
    """The search kernel: the C one (setup.py, scripts/build_native_bots.py) when it was built from the
    botsearch.py beside it and HASHI_PURE_BOTS is not set, else the pure Python one (same moves)."""
    native = mirror(NATIVE, [botsearch.__file__], PURE)
    return botsearch.Search if native is None else cast("type[botsearch.Search]", native.Search)


SEARCH = search_class()


@dataclass(frozen=True)
class Tables:
    """A side's graph as flat tuples: lane ends, crossings, (lane, other island) per island, flags."""

    n: int
    ends: tuple[tuple[int, int], ...]
    crossings: tuple[tuple[int, ...], ...]
    adj: tuple[tuple[tuple[int, int], ...], ...]
    flagged: tuple[bool, ...]
    red: tuple[int, ...]
    blue: tuple[int, ...]

    @cached_property
    def ends_a(self) -> list[int]:
        """The first island of each lane (the kernel's flat lists are only read, never changed)."""
        return [a for a, _ in self.ends]

    @cached_property
    def ends_b(self) -> list[int]:
        """The second island of each lane."""
        return [b for _, b in self.ends]

    @cached_property
    def crossing_lists(self) -> list[list[int]]:
        """The lanes crossing each lane."""
        return [list(c) for c in self.crossings]

    @cached_property
    def adj_lane(self) -> list[list[int]]:
        """The lanes at each island."""
        return [[k for k, _ in a] for a in self.adj]

    @cached_property
    def adj_other(self) -> list[list[int]]:
        """The island at the far end of each of `adj_lane`'s lanes."""
        return [[o for _, o in a] for a in self.adj]

    @cached_property
    def opening_moves(self) -> dict[Hashable, tuple[int, tuple[int, ...]]]:
        """The bots' searched moves of the first turns on this side, by everything the search reads."""
        return {}


# Tables by side, looked up by identity: hashing a side (all its islands) on every move cost more
# than the lookup saves; the side is kept in the entry so that its id is not reused meanwhile.
_TABLES: dict[int, tuple[BoardSide, Tables]] = {}
TABLES_KEPT = 64


def tables_of(side: BoardSide) -> Tables:
    """The flat tables the bots search on, built once per side object."""
    entry = _TABLES.get(id(side))
    if entry is not None and entry[0] is side:
        return entry[1]
    if len(_TABLES) >= TABLES_KEPT:
        _TABLES.clear()
    tables = _build_tables(side)
    _TABLES[id(side)] = (side, tables)
    return tables


def _build_tables(side: BoardSide) -> Tables:
    """Build the flat tables of one side."""
    geo = side.geometry
    ends = tuple((ln.a, ln.b) for ln in geo.lanes)
    count = len(geo.positions)
    adj = tuple(tuple((k, geo.lanes[k].other(i)) for k in geo.lanes_of[i]) for i in range(count))
    flagged = tuple(isl.flag is not None for isl in side.islands)
    return Tables(count, ends, geo.crossings, adj, flagged, side.flagged("red"), side.flagged("blue"))


@dataclass(frozen=True)
class Context:
    """What a bot may know besides the state: the side, deck, scoring, cards revealed so far, its rng."""

    side: BoardSide
    deck: Deck
    scoring: Scoring
    seen: tuple[Card, ...] = ()
    rng: random.Random = field(default_factory=lambda: random.Random(0), compare=False)
    partial: bool = False

    @cached_property
    def tables(self) -> Tables:
        """The side's flat search tables."""
        return tables_of(self.side)


@dataclass(frozen=True)
class Outlook:
    """Chances used by the evaluation: p_need[r] (open island with r bridges missing gets circled),
    p_bare[c] (unnumbered island with c bridges gets circled), p_empty[flagged] and weights."""

    p_need: tuple[float, ...]
    p_bare: tuple[float, ...]
    p_empty: tuple[float, float]
    dead: float
    goal_model: str  # "progress" (count-based), "soft" (mean island chance) or "chance" (their product)
    goal_weight: float
    supply: tuple[float, ...] = (99.0,) * 13
    ends_supply: float = 999.0
    goal_power: float = 2.0


# The greedy bot sees only the present: any completable open island is worth the same small share.
GREEDY_OUTLOOK = Outlook(
    p_need=(0.0,) + (0.25,) * 12, p_bare=(0.0,) + (0.25,) * MAX_NUMERAL + (0.0,) * 6,
    p_empty=(0.0, 0.0), dead=0.5, goal_model="progress", goal_weight=0.5)


@dataclass(frozen=True)
class StrongParams:
    """Knobs of the strong bot's outlook (tuned by simulation; see bench/design.md)."""

    q_offset: float = 0.625
    bare: float = 0.5
    empty_plain: float = 0.3
    empty_flag: float = 0.05
    dead: float = 1.0
    goal_weight: float = 0.8
    ends: float = 1.0
    goal_model: str = "soft"
    goal_power: float = 2.0


STRONG_PARAMS = StrongParams()


def strong_outlook(state: GameState, card: Card, context: Context,
                   params: StrongParams = STRONG_PARAMS) -> Outlook:
    """Chances from the cards still unseen (not yet revealed, nor the current `card`) and the turns left."""
    unseen = [(c.numeral, c.bridges) for c in context.deck.cards]
    for c in context.seen + (card,):
        pair = (c.numeral, c.bridges)
        if pair in unseen:
            unseen.remove(pair)
    numerals = [0] * (MAX_NUMERAL_COUNTED + 1)
    for numeral, _ in unseen:
        if numeral <= MAX_NUMERAL_COUNTED:
            numerals[numeral] += 1
    bridges = sum(b for _, b in unseen)
    return _outlook(CARDS_PLAYED - state.turn - 1, len(unseen), tuple(numerals), bridges, params)


# The outlook reads the unseen cards only through how many there are, how many show each numeral up to
# this, and their bridges in all: keyed by those, one outlook serves every deal that leaves them alike.
MAX_NUMERAL_COUNTED = 12


@lru_cache(maxsize=4096)
def _outlook(left: int, pool: int, numerals: tuple[int, ...], bridges: int, params: StrongParams) -> Outlook:
    """The strong outlook for `left` turns to play and `pool` unseen cards, `numerals[v]` of which show
    the numeral v, with `bridges` bridges in all."""
    draws = min(left, pool)
    q = left / (left + params.q_offset)
    mean_bridges = bridges / pool if pool else 0.0
    p_need = tuple(q ** r if left > 0 else 0.0 for r in range(13))
    p_bare = [0.0]
    supply = [0.0]
    for value in range(1, 13):
        m = numerals[value]
        supply.append(m * draws / pool if pool else 0.0)
        if draws <= 0 or m == 0:
            p_bare.append(0.0)
            continue
        none = comb(pool - m, draws) / comb(pool, draws) if pool - m >= draws else 0.0
        p_bare.append(params.bare * (1.0 - none))
    p_empty = (params.empty_plain * q ** 3, params.empty_flag * q ** 4)
    return Outlook(p_need, tuple(p_bare), p_empty, dead=params.dead, goal_model=params.goal_model,
                   goal_weight=params.goal_weight, goal_power=params.goal_power, supply=tuple(supply),
                   ends_supply=params.ends * draws * mean_bridges)


# What a Search is built from, in the order of botsearch.Search's arguments.
KernelArgs = tuple[list[int], list[int], list[list[int]], list[list[int]], list[list[int]], list[bool],
                   list[int], list[int], list[float], list[float], tuple[float, float], float, list[float],
                   float, str, float, float, float, tuple[float, float, float]]


def kernel_args(t: Tables, out: Outlook, per: float, bonus: tuple[float, float, float]) -> KernelArgs:
    """What a search kernel is built from: the side's tables, the outlook, points per circle and goals."""
    return (t.ends_a, t.ends_b, t.crossing_lists, t.adj_lane, t.adj_other, list(t.flagged), list(t.red),
            list(t.blue), list(out.p_need), list(out.p_bare), out.p_empty, out.dead, list(out.supply),
            out.ends_supply, out.goal_model, out.goal_weight, out.goal_power, per, bonus)


def kernel(t: Tables, out: Outlook, per: float, bonus: tuple[float, float, float]) -> botsearch.Search:
    """The search kernel for one side, outlook, points per circle and goal values still to win."""
    return SEARCH(*kernel_args(t, out, per, bonus))


def evaluate(num: list[int], br: list[int], cnt: list[int], t: Tables, out: Outlook, per: float,
             bonus: tuple[float, float, float]) -> float:
    """Value of a position: circled points, chances of future circles, goals reached and their chances
    (see hashi_print.game.botsearch.Search.value)."""
    bridged = [k for k, b in enumerate(br) if b]
    return kernel(t, out, per, bonus).value(num, br, cnt, _blocks(br, t), bridged)


def _blocks(br: list[int], t: Tables) -> list[int]:
    """How many bridged lanes cross each lane."""
    blocks = [0] * len(br)
    for k, b in enumerate(br):
        if b:
            for j in t.crossings[k]:
                blocks[j] += 1
    return blocks


@dataclass(frozen=True)
class Search:
    """How wide a bot searches: numeral choices kept and bridge sequences kept per step."""

    numerals: int
    beam: int


def _usable(k: int, num: list[int], br: list[int], cnt: list[int], blocks: list[int], t: Tables) -> bool:
    """Tell whether one more bridge may go on lane k now."""
    if br[k] >= 2 or blocks[k]:
        return False
    a, o = t.ends[k]
    va, vo = num[a], num[o]
    if not va and not vo:
        return False
    return (not va or cnt[a] < va) and (not vo or cnt[o] < vo)


def numeral_choices(num: list[int], cnt: list[int], card: Card, t: Tables) -> list[int]:
    """Islands that may take the card's numeral now."""
    return [i for i in range(t.n)
            if not num[i] and card.numeral >= cnt[i] and (not t.flagged[i] or cnt[i] > 0)]


def best_move(state: GameState, card: Card, context: Context, out: Outlook, search: Search) -> Move:
    """Search numeral choices then bridge sequences (a beam), returning the best-valued move."""
    t = context.tables
    sc = context.scoring
    # A goal already reached adds the same value to every candidate: leave it out of the comparison.
    reached = {g for g, _ in state.goals}
    red, blue, six = (0.0 if g in reached else float(sc.bonus[g][0]) for g in ("red", "blue", "six"))
    per = float(sc.per_circled)
    bonus = (red, blue, six)
    if state.turn >= OPENING_TURNS:
        island, lanes = _search(state, card, t, out, per, bonus, search, context.partial)
    else:
        # The first turns' positions recur across games (one setup, few distinct first cards): search
        # each once. The kernel is in the key so that a replay with the other kernel searches afresh.
        key = (SEARCH, state.numerals, state.bridges, card.numeral, card.bridges, out, per, bonus,
               search, context.partial)
        memo = t.opening_moves
        found = memo.get(key)
        if found is None:
            if len(memo) >= OPENING_KEPT:
                memo.clear()
            found = memo[key] = _search(state, card, t, out, per, bonus, search, context.partial)
        island, lanes = found
    return Move(None if island == botsearch.NO_ISLAND else (island, card.numeral), lanes)


def _search(state: GameState, card: Card, t: Tables, out: Outlook, per: float,
            bonus: tuple[float, float, float], search: Search, partial: bool) -> tuple[int, tuple[int, ...]]:
    """Run the kernel's search for one move: the numeral's island (or NO_ISLAND) and the bridges' lanes."""
    num = [v or 0 for v in state.numerals]
    cnt = list(state.counts)
    choices = numeral_choices(num, cnt, card, t)
    return kernel(t, out, per, bonus).best(num, list(state.bridges), cnt, card.numeral, card.bridges, choices,
                                           search.numerals, search.beam, partial)


def _add(k: int, br: list[int], cnt: list[int], blocks: list[int], t: Tables, sign: int) -> None:
    """Add (sign +1) or remove (sign -1) one bridge on lane k, updating counts and crossing blocks."""
    a, o = t.ends[k]
    if sign > 0 and br[k] == 0:
        for j in t.crossings[k]:
            blocks[j] += 1
    br[k] += sign
    cnt[a] += sign
    cnt[o] += sign
    if sign < 0 and br[k] == 0:
        for j in t.crossings[k]:
            blocks[j] -= 1


def legal_places(state: GameState, card: Card, t: Tables) -> tuple[int, int]:
    """The card's legal placements now: islands that may take its numeral, lanes that may take a bridge."""
    num = [v or 0 for v in state.numerals]
    cnt = list(state.counts)
    br = list(state.bridges)
    blocks = _blocks(br, t)
    lanes = sum(1 for k in range(len(br)) if _usable(k, num, br, cnt, blocks, t))
    return len(numeral_choices(num, cnt, card, t)), lanes


def can_bridge(state: GameState, card: Card, context: Context) -> bool:
    """Tell whether any numeral choice (or none) allows drawing all of the card's bridges."""
    t = context.tables
    num = [v or 0 for v in state.numerals]
    br = list(state.bridges)
    cnt = list(state.counts)
    blocks = _blocks(br, t)

    def place(left: int, start: int) -> bool:
        """Tell whether `left` more bridges fit on lanes from index `start` on."""
        if left == 0:
            return True
        for k in range(start, len(br)):
            if _usable(k, num, br, cnt, blocks, t):
                _add(k, br, cnt, blocks, t, +1)
                ok = place(left - 1, k)
                _add(k, br, cnt, blocks, t, -1)
                if ok:
                    return True
        return False

    for choice in [None] + numeral_choices(num, cnt, card, t):
        if choice is not None:
            num[choice] = card.numeral
        ok = place(card.bridges, 0)
        if choice is not None:
            num[choice] = 0
        if ok:
            return True
    return False


Strategy = Callable[[GameState, Card, Context], Move]
SetupStrategy = Callable[[BoardSide, Context], tuple[int, int]]


def random_bot(state: GameState, card: Card, context: Context) -> Move:
    """Play a move chosen uniformly among all legal moves."""
    return context.rng.choice(legal_moves(state, card, context.partial))


def greedy_bot(state: GameState, card: Card, context: Context) -> Move:
    """Play the move with the best immediate value: circles, bonus progress, islands left completable."""
    return best_move(state, card, context, GREEDY_OUTLOOK, Search(numerals=4, beam=1))


def strong_bot(state: GameState, card: Card, context: Context) -> Move:
    """Play the move with the best expected value over the cards still unseen, searching wider."""
    return best_move(state, card, context, strong_outlook(state, card, context), Search(numerals=6, beam=3))


STRATEGIES: dict[str, Strategy] = {"random": random_bot, "greedy": greedy_bot, "strong": strong_bot}


def _lanes_capacity(side: BoardSide, island: int) -> tuple[int, int]:
    """Lanes at an island and how many other lanes cross them."""
    geo = side.geometry
    lanes = geo.lanes_of[island]
    return len(lanes), sum(len(geo.crossings[k]) for k in lanes)


def _best_setup(side: BoardSide, values: tuple[int, ...],
                worth: Callable[[int, int], float]) -> tuple[int, int]:
    """The (unflagged island, value) with the highest worth; the first one on a tie."""
    choices = [(i, v) for i, isl in enumerate(side.islands) if isl.flag is None for v in values]
    return max(choices, key=lambda c: worth(*c))


def hostile_setup(side: BoardSide, context: Context) -> tuple[int, int]:
    """The left-hand neighbour's choice: a 4 (or 3) where it is hardest to complete."""

    def hurt(i: int, value: int) -> float:
        """How hard the numeral is to complete there: few lanes, many crossings."""
        lanes, crossed = _lanes_capacity(side, i)
        return value / (2 * lanes) + 0.05 * crossed

    return _best_setup(side, (3, 4), hurt)


def kind_setup(side: BoardSide, context: Context) -> tuple[int, int]:
    """The solo player's own choice: a 3 on a well-connected island next to flags."""

    def ease(i: int, value: int) -> float:
        """How easy the numeral is to complete there: many lanes, few crossings, flags nearby."""
        lanes, crossed = _lanes_capacity(side, i)
        flags = sum(1 for j in side.geometry.neighbours(i) if side.islands[j].flag)
        return lanes - 0.1 * crossed + 0.5 * flags

    return _best_setup(side, (3,), ease)


def random_setup(side: BoardSide, context: Context) -> tuple[int, int]:
    """A setup numeral on a random unflagged island."""
    plain = [i for i, isl in enumerate(side.islands) if isl.flag is None]
    return context.rng.choice(plain), context.rng.choice((3, 4))


SETUPS: dict[str, SetupStrategy] = {"hostile": hostile_setup, "kind": kind_setup, "random": random_setup}
