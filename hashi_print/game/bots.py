"""Bot strategies for the Hashi game: plain functions (state, card, context) -> Move, and setup choices.

Bots search on compact lists (numerals, bridges per lane, bridges per island) for speed; the moves
they return are played through the rules engine (hashi_print.game.rules), which is the referee.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from math import comb

from hashi_print.game.board import BoardSide
from hashi_print.game.deck import CARDS_PLAYED, Card, Deck
from hashi_print.game.rules import GameState, Move, legal_moves
from hashi_print.game.scoring import Scoring
from hashi_print.geometry import group_roots

ROOM_FREE = 99
MAX_NUMERAL = 6


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


@lru_cache(maxsize=64)
def tables_of(side: BoardSide) -> Tables:
    """Build (once per side) the flat tables the bots search on."""
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
    left = CARDS_PLAYED - state.turn - 1
    unseen = list(context.deck.cards)
    for c in context.seen + (card,):
        if c in unseen:
            unseen.remove(c)
    pool = len(unseen)
    draws = min(left, pool)
    q = left / (left + params.q_offset)
    mean_bridges = sum(card.bridges for card in unseen) / pool if pool else 0.0
    p_need = tuple(q ** r if left > 0 else 0.0 for r in range(13))
    p_bare = [0.0]
    supply = [0.0]
    for value in range(1, 13):
        m = sum(1 for card in unseen if card.numeral == value)
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


def evaluate(num: list[int], br: list[int], cnt: list[int], t: Tables, out: Outlook, per: float,
             bonus: tuple[float, float, float]) -> float:
    """Value of a position: circled points, chances of future circles, goals reached and their chances."""
    blocked = _blocks(br, t)
    chance = [0.0] * t.n
    wanting = [0] * 13
    open_need = 0
    open_islands: list[int] = []
    bare: list[int] = []
    total = 0.0
    circled = []
    for i in range(t.n):
        v = num[i]
        c = cnt[i]
        if not v:
            if c:
                chance[i] = out.p_bare[c]
                wanting[c] += 1
                bare.append(i)
            else:
                chance[i] = out.p_empty[1 if t.flagged[i] else 0]
        elif c == v:
            chance[i] = 1.0
            circled.append(i)
        elif _room(i, num, br, cnt, blocked, t) < v - c:
            total -= out.dead
        else:
            chance[i] = out.p_need[v - c]
            open_need += v - c
            open_islands.append(i)
    _share_supply(chance, bare, cnt, wanting, open_islands, open_need, out)
    total += per * sum(chance)
    circ = set(circled)
    for flagged, value in ((t.red, bonus[0]), (t.blue, bonus[1])):
        if value:
            total += _colour_value(flagged, value, chance, circ, out)
    if bonus[2]:
        total += _six_value([k for k, b in enumerate(br) if b], t, out, bonus[2], chance, circ)
    return total


def _room(i: int, num: list[int], br: list[int], cnt: list[int], blocked: list[int], t: Tables) -> int:
    """The bridges numbered island i could still get over its open lanes, given its neighbours' room."""
    avail = 0
    for k, o in t.adj[i]:
        if blocked[k] or br[k] == 2:
            continue
        vo = num[o]
        room = vo - cnt[o] if vo else ROOM_FREE
        if room > 0:
            avail += min(2 - br[k], room)
    return avail


def _share_supply(chance: list[float], bare: list[int], cnt: list[int], wanting: list[int],
                  open_islands: list[int], open_need: int, out: Outlook) -> None:
    """Scale the chances down where the cards left cannot serve every island that waits for them.

    `wanting[c]` counts the bare (unnumbered) islands with c bridges, which wait for the numeral c.
    """
    for i in bare:
        c = cnt[i]
        if wanting[c] > out.supply[c]:
            # Several islands wait for the same numeral: the cards left cannot serve them all.
            chance[i] *= out.supply[c] / wanting[c]
    if open_need > out.ends_supply:
        # The open islands want more bridge ends than the cards left are likely to bring.
        scale = out.ends_supply / open_need
        for i in open_islands:
            chance[i] *= scale


def _colour_value(flagged: tuple[int, ...], value: float, chance: list[float], circ: set[int],
                  out: Outlook) -> float:
    """A colour goal: its value when every flag of that colour is circled, else the outlook's share."""
    done = sum(1 for i in flagged if i in circ)
    if done == len(flagged):
        return value
    if out.goal_model == "progress":
        return out.goal_weight * value * (done / len(flagged)) ** 2
    if out.goal_model == "soft":
        mean = sum(chance[i] for i in flagged) / len(flagged)
        share: float = mean ** out.goal_power
        return out.goal_weight * value * share
    p = 1.0
    for i in flagged:
        p *= chance[i]
    return out.goal_weight * value * p


def _six_value(bridged: list[int], t: Tables, out: Outlook, value: float, chance: list[float],
               circ: set[int]) -> float:
    """The six-group goal: its value when reached, else a share for the best bridged group."""
    strict = out.goal_model == "progress"
    ends = t.ends
    if strict or len(circ) >= 6:
        # Groups of circled islands joined by bridges.
        roots = group_roots(t.n, (ends[k] for k in bridged if ends[k][0] in circ and ends[k][1] in circ))
        sizes = [0] * t.n
        for i in circ:
            sizes[roots[i]] += 1
        if len(circ) >= 6 and max(sizes) >= 6:
            return value
        if strict:
            return out.goal_weight * value * (max(sizes) / 6) ** 2
    # Groups of islands that may still be circled, joined by bridges, weighed by their chances.
    roots = group_roots(t.n, (ends[k] for k in bridged if chance[ends[k][0]] > 0 and chance[ends[k][1]] > 0))
    expected = [0.0] * t.n
    for i in range(t.n):
        c = chance[i]
        if c > 0:
            expected[roots[i]] += c
    return out.goal_weight * value * min(1.0, max(expected) / 6) ** 3


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
    per = float(sc.per_circled)
    # A goal already reached adds the same value to every candidate: leave it out of the comparison.
    reached = {g for g, _ in state.goals}
    red, blue, six = (0.0 if g in reached else float(sc.bonus[g][0]) for g in ("red", "blue", "six"))
    bonus = (red, blue, six)
    num = [v or 0 for v in state.numerals]
    br = list(state.bridges)
    cnt = list(state.counts)
    ranked: list[tuple[float, int]] = []
    for i in numeral_choices(num, cnt, card, t):
        num[i] = card.numeral
        ranked.append((evaluate(num, br, cnt, t, out, per, bonus), i))
        num[i] = 0
    ranked.sort(key=lambda x: (-x[0], x[1]))
    options: list[int | None] = [None] + [i for _, i in ranked[:search.numerals]]
    best: tuple[float, Move] | None = None
    for choice in options:
        if choice is not None:
            num[choice] = card.numeral
        skip_value = evaluate(num, br, cnt, t, out, per, bonus)
        found = _bridge_beam(num, br, cnt, card.bridges, t, out, per, bonus, search.beam, context.partial)
        candidates = [(skip_value, ())] + found
        for value, lanes in candidates:
            move = Move(None if choice is None else (choice, card.numeral), lanes)
            if best is None or value > best[0] + 1e-9:
                best = (value, move)
        if choice is not None:
            num[choice] = 0
    assert best is not None
    return best[1]


def _bridge_beam(num: list[int], br: list[int], cnt: list[int], bridges: int, t: Tables, out: Outlook,
                 per: float, bonus: tuple[float, float, float], width: int,
                 partial: bool) -> list[tuple[float, tuple[int, ...]]]:
    """Place `bridges` bridges one at a time keeping the `width` best sequences; return complete ones."""
    blocks0 = _blocks(br, t)
    beam: list[tuple[int, ...]] = [()]
    done: list[tuple[float, tuple[int, ...]]] = []
    for step in range(bridges):
        scored: dict[tuple[int, ...], float] = {}
        for lanes in beam:
            b2, c2, bl2 = list(br), list(cnt), list(blocks0)
            for k in lanes:
                _add(k, b2, c2, bl2, t, +1)
            for k in range(len(br)):
                if not _usable(k, num, b2, c2, bl2, t):
                    continue
                key = tuple(sorted(lanes + (k,)))
                if key in scored:
                    continue
                _add(k, b2, c2, bl2, t, +1)
                scored[key] = evaluate(num, b2, c2, t, out, per, bonus)
                _add(k, b2, c2, bl2, t, -1)
        ranked = sorted(scored.items(), key=lambda x: (-x[1], x[0]))[:width]
        if partial or step == bridges - 1:
            done.extend((v, k) for k, v in ranked)
        beam = [k for k, _ in ranked]
        if not beam:
            break
    return done


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
