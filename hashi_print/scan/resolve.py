"""Choose the most probable reading that the rules allow, and say which fields are not clearly decided.

Rules used while reading: a circled island's numeral equals its bridges; an uncircled numeral is
above its bridges; only a numbered island is circled; a bridge has a numbered end; crossing lanes
do not both carry bridges; the numerals written are among the crossed-off cards' numerals plus the
setup 3 or 4; a goal's turn is written only when the goal is reached, not before it could have been
reached, and not after the last card.
"""

from __future__ import annotations

import dataclasses
import heapq
import math
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from hashi_print.game.board import BoardSide
from hashi_print.game.deck import GOALS, Deck
from hashi_print.game.rules import SETUP_VALUES, GameState, earliest_goal_turn, goals_met
from hashi_print.scan.fields import Measured, Probs
from hashi_print.sheets.marks import Marks

FIRM = 0.995  # a measured value this likely is not reconsidered
CLEAR = 0.95  # a chosen value less likely than this (after the rules) goes to review
# A numeral the rules leave open (an uncircled island's, which scores nothing) is listed as doubtful
# below 99 chances in 100: handwriting unlike the training digits makes the network surer than it should
# be, and a listed doubt that changes nothing that counts costs nothing (it does not block status ok).
NUMBER_CLEAR = 0.99
# The rules never silently override a digit the network reads at this or more: the network is not
# calibrated on handwriting unlike its training sources, so a digit it reads at seven chances in ten
# may be what the player wrote, breaking a rule (at 0.9 a circled numeral that broke the rule was read
# as its bridge count; 0.5 sent 15 more of the bench's 120 held-out-source photos to review than 0.7).
SURE_DIGIT = 0.7
# Nor a digit the ink favours this many times over the value the rules settle on: a circled 1 read at 0.5
# where the bridges make 6 (read at 0.1) is as likely a player's broken rule as a misread 6. Chosen on
# the held-out benchmark's photos (bench/README.md, issue 35): 3 read 4 fewer of its 240 valid sheets
# exactly with status ok, 10 let 2 more of its 120 rule-breaking sheets through as valid.
OVERRIDE_ODDS = 5.0
RUNNER_UP = math.log(30.0)  # a different consistent reading this close makes its fields uncertain
# A player breaks a rule on perhaps one sheet in a hundred: a reading that breaks one is that much
# less likely to start with. It is reported as read (the verdict being the broken rule) only when
# the ink outweighs that and still leaves it clearly ahead of every reading that keeps the rules.
BREAK_PRIOR = math.log(99.0)
BREAK = BREAK_PRIOR + math.log(CLEAR / (1.0 - CLEAR))
# A circle traced over the printed ring leaves no ink outside it, so an uncircled island whose numeral
# equals its bridges may be circled after all, however clean it looks.
TRACED = 1.0 / 150.0
# A numeral box where no ink was found, on an island the marks say must carry a numeral (circled): the
# player may have left it empty, or written a digit too faint for the ink level (a third of the strokes
# source's blocked sheets on the held-out benchmark). Nothing measured tells these apart: even odds.
UNSEEN = 0.5
MAX_STEPS = 3000
INNER_STEPS = 200
TRIALS = 60_000  # numeral choices tried per reading at most (a clean sheet needs a few hundred)


# What a doubtful field may change if it is misread: the sheet's total, its verdict (valid, or which
# rule is broken) and the race (the turn a goal was reached, or its "first" box).
AFFECTS = ("score", "verdict", "race")
# A rule the marks break, and where: ("circled", island), ("goal", goal name), ("cards", None), ...
Broken = tuple[str, int | str | None]
# A field's value: a bridge count, a numeral, a turn, True/False for a mark, or None for nothing written.
Value = int | None


@dataclass(frozen=True)
class Uncertain:
    """A field a person should look at: what was read, what else it may be, how sure the reader is, and
    what a misreading would change (empty: nothing that counts)."""

    field: str
    where: str
    read: Value
    alternatives: tuple[Value, ...]
    confidence: float
    affects: tuple[str, ...] = AFFECTS

    def to_json(self) -> dict[str, object]:
        """The contract JSON object of this field."""
        return {
            "field": self.field,
            "where": self.where,
            "read": self.read,
            "alternatives": list(self.alternatives),
            "confidence": round(self.confidence, 3),
            "affects": list(self.affects),
        }

    def note(self) -> str:
        """One line for people: what was read, what else it may be, and what a misreading would change."""
        maybe = ", ".join(map(repr, self.alternatives)) or "-"
        stakes = "changes nothing that counts"
        if self.affects:
            stakes = f"changes the {' and '.join(self.affects)}"
        sure = f"{self.confidence:.2f}"
        return f"{self.field} {self.where}: read {self.read!r}, maybe {maybe} ({sure}; {stakes})"


@dataclass(frozen=True)
class Settled:
    """A numeral the ink alone left open and the rules decided: each other value with the rule it breaks."""

    where: str
    read: int | None
    ink: float  # how likely the ink alone makes the value read
    ruled_out: tuple[tuple[int | None, str], ...]

    def to_json(self) -> dict[str, object]:
        """The JSON object of this numeral (in the scan object's `settled` list)."""
        return {
            "field": "number",
            "where": self.where,
            "read": self.read,
            "ink": round(self.ink, 3),
            "ruled_out": [{"value": v, "by": rule} for v, rule in self.ruled_out],
        }


@dataclass(frozen=True)
class Resolved:
    """The chosen reading, its doubtful fields, whether the rules allow it at all, and the numerals the
    rules settled."""

    marks: Marks
    uncertain: tuple[Uncertain, ...]
    consistent: bool
    settled: tuple[Settled, ...] = ()


@dataclass(frozen=True)
class _Field:
    kind: str  # bridges, circled, card, bonus (a goal's turn) or first (a goal's "first" box)
    index: int  # the lane, island, card or goal (in GOALS order) it belongs to
    where: str
    options: tuple[Value, ...]  # values, most likely first
    costs: tuple[float, ...]  # -log p of each option


def _field(kind: str, index: int, where: str, probs: Probs) -> _Field:
    """A field with its plausible values (a firm one keeps only its best)."""
    ranked = sorted(probs.items(), key=lambda kv: -kv[1])
    keep = [(v, p) for v, p in ranked if p >= 0.003] if ranked[0][1] < FIRM else ranked[:1]
    keep = keep[:4]
    return _Field(
        kind, index, where, tuple(v for v, _ in keep), tuple(-math.log(max(p, 1e-12)) for _, p in keep)
    )


def _outer_fields(m: Measured, side: BoardSide) -> list[_Field]:
    """Lanes, circles, cards and goal turns: read on their own, then checked against each other."""
    labels = [i.label for i in side.islands]
    return (
        [_field("bridges", k, side.lane_name(k), p) for k, p in enumerate(m.lanes)]
        + [_field("circled", i, labels[i], p) for i, p in enumerate(m.circles)]
        + [_field("card", j, str(j + 1), p) for j, p in enumerate(m.cards)]
        + [_field("bonus", GOALS.index(goal), goal, p) for goal, p in m.goals.items()]
        + [_field("first", GOALS.index(goal), first_box(goal), p) for goal, p in m.lost_first.items()]
    )


def first_box(goal: str) -> str:
    """How the report names a goal's "first" bonus box."""
    return f"{goal} first box"


@dataclass(frozen=True)
class _Inner:
    numerals: tuple[int | None, ...]
    cost: float
    posterior: tuple[float, ...]


# A consistent reading: its cost, the option chosen for each outer field, and the numerals.
Found = tuple[float, tuple[int, ...], _Inner]


def _outer_marks(fields: list[_Field], choice: tuple[int, ...], side: BoardSide) -> Marks:
    """The marks of one choice of option per outer field (numerals still empty)."""
    bridges = [0] * len(side.geometry.lanes)
    circled, cards, goals, lost = set(), set(), [], set()
    for f, c in zip(fields, choice, strict=True):
        v = f.options[c]
        if f.kind == "bridges":
            bridges[f.index] = v or 0
        elif f.kind == "circled" and v:
            circled.add(f.index)
        elif f.kind == "card" and v:
            cards.add(f.index + 1)
        elif f.kind == "bonus" and v is not None:
            goals.append((GOALS[f.index], v))
        elif f.kind == "first" and v:
            lost.add(GOALS[f.index])
    return Marks(
        side,
        (None,) * len(side.islands),
        tuple(bridges),
        frozenset(circled),
        frozenset(cards),
        tuple(sorted(goals, key=lambda gt: (gt[1], GOALS.index(gt[0])))),  # in the order they were reached
        lost_first=frozenset(lost),
    )


def _allowed(numeral_probs: Probs, count: int, circled: bool, flagged: bool = False) -> Probs:
    """The numerals the rules allow on an island with `count` bridges, circled or not, flagged or not, with
    their weights."""
    if circled:
        return {count: numeral_probs.get(count, 0.0)} if 1 <= count <= 6 else {}
    if flagged and count == 0:  # a flagged island's numeral is written only once a bridge reaches it
        return {None: numeral_probs.get(None, 0.0)}
    return {v: p for v, p in numeral_probs.items() if v is None or v > count}


def _inner(marks: Marks, numerals: tuple[Probs, ...], deck: Deck) -> tuple[_Inner | None, int]:
    """The most likely numerals the rules allow given bridges and circles (None when none fit), and the
    number of numeral choices tried."""
    side = marks.side
    counts = GameState(side, (None,) * len(side.islands), marks.bridges).counts
    allowed = [
        _allowed(p, counts[i], i in marks.circled, side.islands[i].flag is not None)
        for i, p in enumerate(numerals)
    ]
    if any(not a or max(a.values()) <= 0 for a in allowed):
        return None, 0
    geo = side.geometry
    # A bridge needs a numbered end: when neither end is likely numbered, the likelier one must be.
    first = [max(a, key=a.__getitem__) for a in allowed]
    for k, b in enumerate(marks.bridges):
        lane = geo.lanes[k]
        if b and first[lane.a] is None and first[lane.b] is None:
            ends = [
                (max((p for v, p in allowed[e].items() if v is not None), default=0.0), e)
                for e in (lane.a, lane.b)
            ]
            p, end = max(ends)
            if p <= 0:
                return None, 0
            allowed[end] = {v: q for v, q in allowed[end].items() if v is not None}
            first[end] = max(allowed[end], key=allowed[end].__getitem__)
    chosen, tried = _numerals_by_deck(marks, allowed, deck)
    if chosen is None:
        return None, tried
    cost = sum(-math.log(max(allowed[i][v], 1e-12)) for i, v in enumerate(chosen))
    posterior = tuple(allowed[i][v] / sum(allowed[i].values()) for i, v in enumerate(chosen))
    return _Inner(tuple(chosen), cost, posterior), tried


def _numeral_odds(marks: Marks, numerals: tuple[Probs, ...], deck: Deck, i: int,
                  inner: _Inner) -> tuple[float, tuple[Value, ...]]:
    """How likely island `i`'s chosen numeral is against every other value the rules allow it (the other
    numerals free to change: a numeral no spare card shows is no alternative), and those values."""
    chosen = inner.numerals[i]
    weights = {chosen: 1.0}
    top = max(numerals[i].values())
    for v, p in numerals[i].items():
        if v == chosen or p < 1e-3 * top:
            continue
        alt, _ = _inner(marks, numerals[:i] + ({v: p},) + numerals[i + 1 :], deck)
        if alt is not None:
            weights[v] = math.exp(min(inner.cost - alt.cost, 50.0))
    others = sorted((v for v in weights if v != chosen), key=weights.__getitem__, reverse=True)
    return 1.0 / sum(weights.values()), tuple(others[:3])


def _numerals_by_deck(marks: Marks, allowed: list[Probs], deck: Deck) -> tuple[list[Value] | None, int]:
    """The likeliest allowed numerals that also fit the deck (best-first over the uncircled islands),
    and the number of choices tried."""
    ranked = [sorted(a, key=a.__getitem__, reverse=True)[:3] for a in allowed]
    costs = [[-math.log(max(allowed[i][v], 1e-12)) for v in r] for i, r in enumerate(ranked)]
    free = [i for i, r in enumerate(ranked) if len(r) > 1]
    # Bridges and circles are fixed here, and `allowed` already keeps the circle and count rules:
    # a choice of numerals need only fit the deck and give every bridge a numbered end.
    spare, ends = _cards_and_ends(marks, deck)
    start = tuple(0 for _ in ranked)
    heap, seen = [(0.0, start)], {start}
    for tried in range(1, INNER_STEPS + 1):
        if not heap:
            return None, tried
        cost, pick = heapq.heappop(heap)
        chosen = [ranked[i][c] for i, c in enumerate(pick)]
        if _fits(chosen, spare, ends) and consistent(
            Marks(marks.side, tuple(chosen), marks.bridges, marks.circled, marks.cards, marks.goals), deck
        ):
            return chosen, tried
        for i in free:
            c = pick[i] + 1
            if c < len(ranked[i]):
                nxt = pick[:i] + (c,) + pick[i + 1 :]
                if nxt not in seen:
                    seen.add(nxt)
                    heapq.heappush(heap, (cost - costs[i][c - 1] + costs[i][c], nxt))
    return None, INNER_STEPS


def _cards_and_ends(marks: Marks, deck: Deck) -> tuple[list[int], list[tuple[int, int]]]:
    """How many crossed-off cards show each numeral (by index 0-6), and the two ends of every bridged lane."""
    spare = [0] * 7
    for p in marks.cards:
        spare[deck.cards[p - 1].numeral] += 1
    geo = marks.side.geometry
    return spare, [(geo.lanes[k].a, geo.lanes[k].b) for k, b in enumerate(marks.bridges) if b]


def _fits(numerals: Sequence[Value], spare: list[int], ends: list[tuple[int, int]]) -> bool:
    """True when the numerals fit the crossed-off cards and every bridge has a numbered end."""
    if any(numerals[a] is None and numerals[b] is None for a, b in ends):
        return False
    left = spare.copy()
    extra = 0
    for n in numerals:
        if n is not None:
            left[n] -= 1
            if left[n] < 0:
                if n not in SETUP_VALUES:
                    return False
                extra += 1
    return extra <= 1


def consistent(marks: Marks, deck: Deck) -> bool:
    """True when the marks could be the end of a game played by the rules (as far as the reader uses them)."""
    return not any(_broken(marks, deck))


def _broken(marks: Marks, deck: Deck) -> Iterator[Broken]:
    """One item for each rule the marks break, as far as the reader uses the rules (lazily)."""
    side, geo = marks.side, marks.side.geometry
    state = GameState(side, marks.numerals, marks.bridges)
    for i, n in enumerate(marks.numerals):
        if i in marks.circled:
            if n is None or state.counts[i] != n:
                yield ("circled", i)
        elif n is not None and state.counts[i] >= n:
            yield ("number", i)
        if n is not None and state.counts[i] == 0 and side.islands[i].flag is not None:
            yield ("flag", i)
    for k, b in enumerate(marks.bridges):
        if b and any(marks.bridges[j] for j in geo.crossings[k] if j > k):
            yield ("crossing", k)
    if not _fits(list(marks.numerals), *_cards_and_ends(marks, deck)):
        yield ("cards", None)
    if marks.goals:
        reached = set(goals_met(state))
        for g, t in marks.goals:
            if not (g in reached and earliest_goal_turn(state, g) <= t <= max(1, len(marks.cards))):
                yield ("goal", g)


def _evaluate(fields: list[_Field], choice: tuple[int, ...], side: BoardSide, numerals: tuple[Probs, ...],
              deck: Deck) -> tuple[tuple[float, _Inner] | None, int]:
    """Total cost and inner reading of one outer choice (None when the rules allow no numerals), and the
    numeral choices it tried."""
    inner, tried = _inner(_outer_marks(fields, choice, side), numerals, deck)
    if inner is None:
        return None, tried
    return (sum(f.costs[c] for f, c in zip(fields, choice, strict=True)) + inner.cost, inner), tried


@dataclass(frozen=True)
class _Search:
    """What every phase of `resolve` reads: the fields, the measured numerals, and the best reading found."""

    fields: list[_Field]
    side: BoardSide
    numerals: tuple[Probs, ...]
    deck: Deck
    labels: list[str]
    raw: Marks  # every field as measured, rules aside
    found: list[Found]  # the two best consistent readings (cost, outer choice, inner numerals)

    @property
    def best(self) -> tuple[float, tuple[int, ...], _Inner]:
        """The most probable consistent reading."""
        return self.found[0]


def resolve(m: Measured, side: BoardSide, deck: Deck) -> Resolved:
    """The most probable consistent reading, with the fields a person should check."""
    fields = _outer_fields(m, side)
    raw, raw_cost = _as_measured(fields, side, m.numerals)
    broken = list(_broken(raw, deck))
    full = {i for kind, i in broken if kind == "number"}  # uncircled, numeral not above its bridges
    fields = [_maybe_traced(f) if f.kind == "circled" and f.index in full else f for f in fields]
    found, searched = _best_consistent(fields, side, m.numerals, deck)
    s = _Search(fields, side, m.numerals, deck, [i.label for i in side.islands], raw, found)
    if _reads_as_broken(s, broken, raw_cost):
        # The ink is much likelier than any reading that keeps the rules: the sheet breaks a rule.
        return Resolved(raw, _first_each(_broken_doubts(s, broken, searched) + _unseen(s, raw)), False)
    outer = _outer_marks(fields, s.best[1], side)
    doubts = _first_each(
        _outer_doubts(s)
        + _numeral_doubts(s, outer)
        + _runner_up_doubts(s)
        + _overridden_fields(s)
        + _overridden_numerals(s)
        + _unseen(s, outer)
    )
    doubts += _settled_by_doubtful(s, doubts)
    marks = dataclasses.replace(outer, numerals=s.best[2].numerals)
    return Resolved(marks, doubts, True, settled_numerals(s, marks, doubts))


def _reads_as_broken(s: _Search, broken: list[Broken], raw_cost: float) -> bool:
    """True when the ink, rules aside, is clearly likelier than every reading that keeps the rules."""
    gap = s.found[0][0] - raw_cost if s.found else math.inf
    # Each further rule broken on one sheet is as unlikely again as the first at one of its islands:
    # ink that seems to break many rules at once is more likely misread (a circle traced on the
    # printed ring looks like none) than a player breaking them all.
    return bool(broken) and gap >= BREAK + (len(broken) - 1) * (BREAK_PRIOR + math.log(len(s.labels)))


def _first_each(doubts: list[Uncertain]) -> tuple[Uncertain, ...]:
    """Each field once, as first listed."""
    unique: dict[tuple[str, str], Uncertain] = {}
    for u in doubts:
        unique.setdefault((u.field, u.where), u)
    return tuple(unique.values())


def _broken_doubts(s: _Search, broken: list[Broken], searched: bool) -> list[Uncertain]:
    """A sheet read as breaking a rule: only the fields unclear on their own go to a person."""
    doubt = [_uncertain(f, 0, math.exp(-f.costs[0])) for f in s.fields if math.exp(-f.costs[0]) < CLEAR]
    doubt += [
        _number(s.labels[i], v, p, p[v])
        for i, (v, p) in enumerate(zip(s.raw.numerals, s.numerals, strict=True))
        if p[v] < CLEAR
    ]
    if not s.found and not searched:
        # The search stopped before it found a reading that keeps the rules: one may lie beyond it,
        # so the fields where the rules break go to a person too.
        doubt += _where_broken(broken, s.fields, s.raw, s.numerals, s.labels)
    return doubt


def _outer_doubts(s: _Search) -> list[Uncertain]:
    """Lanes, circles, cards and goal turns whose chosen value is not clearly likelier than the others
    (each weighed with the rest of the best reading, numerals chosen again by the rules)."""
    best_cost, best, _ = s.best
    out = []
    for n, f in enumerate(s.fields):
        if len(f.options) < 2:
            continue
        weights = [math.exp(-best_cost)]
        for c in range(len(f.options)):
            if c != best[n]:
                alt, _ = _evaluate(s.fields, best[:n] + (c,) + best[n + 1 :], s.side, s.numerals, s.deck)
                if alt is not None:
                    weights.append(math.exp(-alt[0]))
        post = weights[0] / sum(weights)
        if post < CLEAR:
            out.append(_uncertain(f, best[n], post))
    return out


def _numeral_doubts(s: _Search, outer: Marks) -> list[Uncertain]:
    """Numerals the rules leave open between values the ink does not clearly tell apart."""
    inner = s.best[2]
    out = []
    for i, post in enumerate(inner.posterior):
        if post < NUMBER_CLEAR:
            post, others = _numeral_odds(outer, s.numerals, s.deck, i, inner)
            if post < NUMBER_CLEAR:
                out.append(Uncertain("number", s.labels[i], inner.numerals[i], others, post))
    return out


def _runner_up_doubts(s: _Search) -> list[Uncertain]:
    """Where a second consistent reading comes close, the fields in which it differs."""
    if len(s.found) < 2 or s.found[1][0] - s.best[0] >= RUNNER_UP:
        return []
    best_cost, best, inner = s.best
    other_cost, other, other_inner = s.found[1]
    share = 1.0 / (1.0 + math.exp(best_cost - other_cost))
    pairs = enumerate(zip(best, other, strict=True))
    out = [_uncertain(s.fields[n], a, share) for n, (a, b) in pairs if a != b]
    out += [
        Uncertain("number", s.labels[i], a, (b,), share)
        for i, (a, b) in enumerate(zip(inner.numerals, other_inner.numerals, strict=True))
        if a != b
    ]
    return out


def _overridden_fields(s: _Search) -> list[Uncertain]:
    """Fields where the rules overrode the ink and the ink does not lean their way enough.

    A player who broke a rule is the other explanation; a sheet that breaks a rule shows it at one of
    its fields of that kind, so each field's own prior is that much lower.
    """
    best = s.best[1]
    per_kind = Counter(f.kind for f in s.fields)
    out = []
    for n, f in enumerate(s.fields):
        prior = BREAK_PRIOR + math.log(per_kind[f.kind])
        kept = 1.0 / (1.0 + math.exp(f.costs[best[n]] - f.costs[0] - prior))
        if kept < CLEAR:
            out.append(_uncertain(f, best[n], kept))
    return out


def _overridden_numerals(s: _Search) -> list[Uncertain]:
    """Numerals where the rules overrode the ink and the ink does not lean their way enough."""
    prior = BREAK_PRIOR + math.log(len(s.labels))
    out = []
    for i, (a, b) in enumerate(zip(s.best[2].numerals, s.raw.numerals, strict=True)):
        p = s.numerals[i]
        kept = 1.0 / (1.0 + math.exp(math.log(max(p[b], 1e-12) / max(p.get(a, 0.0), 1e-12)) - prior))
        # The rules never silently override a digit the network reads at SURE_DIGIT or more: the
        # little probability it leaves spreads over the other digits too roughly to weigh against the
        # prior of a broken rule, and a player who circled at the wrong count is as likely a story
        # (a rule-breaking sheet was read as valid: a 6 at 0.95 taken for the 4 its bridges make).
        if a != b and b is not None and p[b] >= SURE_DIGIT:
            kept = min(kept, 1.0 - p[b])
        if a != b and b is not None and p[b] >= OVERRIDE_ODDS * p.get(a, 0.0):
            kept = min(kept, p.get(a, 0.0) / (p.get(a, 0.0) + p[b]))
        if kept < CLEAR:
            out.append(_number(s.labels[i], a, p, kept))
    return out


def _unseen(s: _Search, marks: Marks) -> list[Uncertain]:
    """Circled islands whose numeral box shows no ink, as doubts: never settled as empty by luck.

    On a reading that keeps the circle (and so breaks its rule) the numeral is in doubt, the bridge count
    its one other value; on one that drops a circle the ink shows clearly, the circle is in doubt (a
    circled island with a numeral is the other reading, which the rules allow only with a digit found
    there). A circle the ink leaves unclear and the rules drop is the likelier story: a fold or a ring's
    shadow read as a circle on an island nobody numbered (the conditions test's fold, seed 51, 0.76).
    """
    counts = GameState(s.side, (None,) * len(s.labels), marks.bridges).counts
    circle = {f.index: dict(zip(f.options, (math.exp(-c) for c in f.costs), strict=True))
              for f in s.fields if f.kind == "circled"}
    out = []
    for i in s.raw.circled:
        if s.numerals[i].get(None, 0.0) < FIRM:
            continue
        if i in marks.circled and marks.numerals[i] is None and 1 <= counts[i] <= 6:
            out.append(Uncertain("number", s.labels[i], None, (counts[i],), UNSEEN))
        elif i not in marks.circled and circle[i].get(True, 0.0) >= CLEAR:
            out.append(Uncertain("circled", s.labels[i], False, (True,), UNSEEN))
    return out


def _settled_by_doubtful(s: _Search, doubts: tuple[Uncertain, ...]) -> tuple[Uncertain, ...]:
    """A numeral settled by bridges or a circle that are themselves in doubt is in doubt too."""
    lanes = s.side.geometry.lanes
    lane_of = {s.side.lane_name(k): lane for k, lane in enumerate(lanes)}
    numerals = s.best[2].numerals
    listed = {u.where for u in doubts if u.field == "number"}
    out: dict[str, Uncertain] = {}
    for u in doubts:
        if u.field == "bridges":
            ends: tuple[int, ...] = (lane_of[u.where].a, lane_of[u.where].b)
        elif u.field == "circled":
            ends = (s.labels.index(u.where),)
        else:
            ends = ()
        for i in ends:
            label = s.labels[i]
            if label not in listed and label not in out and numerals[i] is not None:
                out[label] = _number(label, numerals[i], s.numerals[i], u.confidence)
    return tuple(out.values())


def _maybe_traced(f: _Field) -> _Field:
    """A circle field read as empty that may hold a circle traced over the printed ring."""
    if True in f.options:
        return f
    return dataclasses.replace(f, options=(*f.options, True), costs=(*f.costs, -math.log(TRACED)))


def _where_broken(broken: list[Broken], fields: list[_Field], raw: Marks, numerals: tuple[Probs, ...],
                  labels: list[str]) -> list[Uncertain]:
    """The fields at which a reading breaks the rules, as doubtful fields."""
    at_place = {(f.kind, f.index): f for f in fields}

    def place(kind: str, index: int) -> Uncertain:
        """The doubtful field of one kind at one place."""
        f = at_place[(kind, index)]
        return _uncertain(f, 0, math.exp(-f.costs[0]))

    def number(i: int) -> Uncertain:
        """Island i's numeral as a doubtful field."""
        return _number(labels[i], raw.numerals[i], numerals[i], numerals[i][raw.numerals[i]])

    out = []
    for kind, at in broken:
        if isinstance(at, str):  # a goal reached against the rules
            out.append(place("bonus", GOALS.index(at)))
        elif at is None:  # numerals that no crossed-off card shows
            out += [number(i) for i, n in enumerate(raw.numerals) if n is not None]
        elif kind == "circled":
            out.append(place("circled", at))
        elif kind == "crossing":
            out.append(place("bridges", at))
        elif kind == "number":  # a numeral not above its bridges, or a circle missed
            out += [number(at), place("circled", at)]
        else:  # a numeral on a flagged island that no bridge reaches
            out.append(number(at))
    return out


def _as_measured(fields: list[_Field], side: BoardSide, numerals: tuple[Probs, ...]) -> tuple[Marks, float]:
    """The reading of every field on its own (rules aside), and its cost."""
    best = tuple(max(p, key=p.__getitem__) for p in numerals)
    cost = sum(f.costs[0] for f in fields)
    cost += sum(-math.log(max(p[v], 1e-12)) for p, v in zip(numerals, best, strict=True))
    marks = _outer_marks(fields, tuple(0 for _ in fields), side)
    return dataclasses.replace(marks, numerals=best), cost


def _number(where: str, read: Value, probs: Probs, confidence: float) -> Uncertain:
    """A doubtful numeral, with the likeliest other values as alternatives."""
    others = tuple(v for v in sorted(probs, key=probs.__getitem__, reverse=True) if v != read)[:3]
    return Uncertain("number", where, read, others, confidence)


def _uncertain(f: _Field, chosen: int, confidence: float) -> Uncertain:
    """Describe one doubtful field for the report."""
    read = f.options[chosen]
    # The contract names a goal's "first" box a bonus field too; its place says which box it is.
    kind = "bonus" if f.kind == "first" else f.kind
    return Uncertain(kind, f.where, read, tuple(v for v in f.options if v != read), confidence)


def _best_consistent(
    fields: list[_Field], side: BoardSide, numerals: tuple[Probs, ...], deck: Deck
) -> tuple[list[Found], bool]:
    """The two best consistent readings (cost, outer choice, numerals), best-first over outer options, and
    whether the search saw every reading that could beat them (it stops after so many steps)."""
    inner_floor = sum(-math.log(max(max(p.values()), 1e-12)) for p in numerals)
    start = tuple(0 for _ in fields)
    open_set = [(sum(f.costs[0] for f in fields), start)]
    seen = {start}
    out: list[Found] = []
    steps = tried = 0
    open_fields = [n for n, f in enumerate(fields) if len(f.options) > 1]
    # A badly spoilt photo opens very many readings: the search stops after so many numeral choices,
    # and whatever it leaves undecided goes to a person.
    while open_set and steps < MAX_STEPS and tried < TRIALS:
        cost, choice = heapq.heappop(open_set)
        if len(out) >= 2 and cost + inner_floor >= out[1][0]:
            return out, True
        steps += 1
        ev, spent = _evaluate(fields, choice, side, numerals, deck)
        tried += spent
        if ev is not None:
            out.append((ev[0], choice, ev[1]))
            out.sort(key=lambda item: item[0])
            out = out[:2]
        for n in open_fields:
            c = choice[n] + 1
            if c < len(fields[n].options):
                nxt = choice[:n] + (c,) + choice[n + 1 :]
                if nxt not in seen:
                    seen.add(nxt)
                    heapq.heappush(open_set, (cost - fields[n].costs[c - 1] + fields[n].costs[c], nxt))
    return out, not open_set


def settled_numerals(s: _Search, marks: Marks, doubts: tuple[Uncertain, ...]) -> tuple[Settled, ...]:
    """The numerals the ink alone leaves open but the reading takes as sure, each other value the ink
    allows with the rule that rules it out ("likelier" where no rule does: the whole reading weighs it)."""
    listed = {u.where for u in doubts if u.field == "number"}
    out = []
    for i, read in enumerate(marks.numerals):
        p = s.numerals[i]
        if s.labels[i] in listed or p.get(read, 0.0) >= CLEAR:
            continue
        others = [v for v in sorted(p, key=p.__getitem__, reverse=True) if v != read and p[v] >= 0.01]
        ruled = tuple((v, _rule_against(marks, i, v, s.deck)) for v in others)
        out.append(Settled(s.labels[i], read, p.get(read, 0.0), ruled))
    return tuple(out)


def _rule_against(marks: Marks, i: int, value: int | None, deck: Deck) -> str:
    """The first rule that island `i` holding `value` (the rest of the reading kept) would break."""
    side = marks.side
    count = GameState(side, marks.numerals, marks.bridges).counts[i]
    if i in marks.circled:
        return "circled-equals-bridges"
    if value is not None and value <= count:
        return "uncircled-above-bridges"
    if value is not None and count == 0 and side.islands[i].flag is not None:
        return "flag-needs-bridge"
    numerals = marks.numerals[:i] + (value,) + marks.numerals[i + 1 :]
    spare, ends = _cards_and_ends(marks, deck)
    if value is None and any(numerals[a] is None and numerals[b] is None for a, b in ends):
        return "bridge-needs-numbered-end"
    if not _fits(list(numerals), spare, ends):
        return "fits-cards"
    return "likelier"
