"""The rules leaflet's examples: real game states found by playing moves with the rules engine.

They are computed here, in the jobs layer, so that render/leaflet.py only draws what it is given.
"""

from __future__ import annotations

from collections.abc import Iterator

from hashi_print.errors import LayoutError
from hashi_print.game.board import BoardSide
from hashi_print.game.deck import Card, Deck
from hashi_print.game.rules import GameState, Move, apply, legal_moves, move_violations, new_game
from hashi_print.render.leaflet import Example


def _added(move: Move) -> dict[int, int]:
    """Count the bridges a move adds per lane."""
    out: dict[int, int] = {}
    for k in move.bridges:
        out[k] = out.get(k, 0) + 1
    return out


def leaflet_examples(side: BoardSide, deck: Deck) -> list[Example]:
    """Build the three leaflet examples on `side` by playing real moves, with cards of `deck` only."""
    geo = side.geometry
    starts = [(k, end) for k, lane in enumerate(geo.lanes) if geo.crossings[k]
              for end in (lane.a, lane.b) if side.islands[end].flag is None]
    if not starts:
        raise LayoutError(f"side {side.name} has no crossing lane with an unflagged end to show in the rules")
    cards = sorted(set(deck.cards))
    for lane0, island0 in starts:
        examples = _examples_from(side, cards, lane0, island0)
        if examples is not None:
            return examples
    raise LayoutError(f"side {side.name}: no crossing example found for the rules leaflet")


def _examples_from(side: BoardSide, cards: list[Card], lane0: int, island0: int) -> list[Example] | None:
    """The three examples when the setup numeral sits at `island0` and the first turn builds `lane0`."""
    geo = side.geometry
    start = new_game(side, setup=(island0, 4))

    def legal_score(card: Card, m: Move) -> tuple[int, ...]:
        """Prefer a turn that writes a numeral next to a new bridge and spreads 2 bridges over two lanes."""
        ends = {e for k in m.bridges for e in (geo.lanes[k].a, geo.lanes[k].b)}
        return (lane0 in m.bridges, m.numeral is not None and m.numeral[0] in ends,
                len(set(m.bridges)) == 2, card.bridges == 2, m.numeral is not None, -card.numeral)

    turns = [(legal_score(c, m), c, m) for c in cards for m in legal_moves(start, c)]
    if not turns:
        return None
    _key, card1, move1 = max(turns, key=lambda t: t[0])
    after1 = apply(start, card1, move1)
    # One bridge is the plainest refusal to show; a card with more bridges would do too.
    ex2 = next((ex for c in sorted(cards, key=lambda c: (c.bridges, c.numeral))
                if (ex := _crossing_example(after1, c)) is not None), None)
    if ex2 is None:
        return None
    numerals = {move1.numeral[0]: move1.numeral[1]} if move1.numeral else {}
    ex1 = Example("legal", after1, _added(move1), numerals, before=start, card=card1, move=move1)
    ex3 = _circle_example(after1, cards)
    return None if ex3 is None else [ex1, ex2, ex3]


def _crossing_example(state: GameState, card: Card) -> Example | None:
    """Find a bridge that only breaks the crossing rule after `state` (None if there is none)."""
    side, geo = state.side, state.side.geometry
    built = [k for k, n in enumerate(state.bridges) if n]
    for k in built:
        for v in geo.crossings[k]:
            lane = geo.lanes[v]
            options = [Move(None, (v,))] + [Move((e, card.numeral), (v,)) for e in (lane.a, lane.b)
                                             if state.numerals[e] is None and side.islands[e].flag is None]
            for move in options:
                found = move_violations(state, card, move)
                if [f.rule for f in found] == ["bridge-crossing"]:
                    numerals = {move.numeral[0]: move.numeral[1]} if move.numeral else {}
                    # The rules engine names the first built lane the new bridge crosses; so does the caption.
                    crossed = next(j for j in geo.crossings[v] if state.bridges[j])
                    return Example("crossing", state, {}, numerals, (v,), before=state, card=card, move=move,
                                   crossed=crossed)
    return None


IDEAL_CIRCLE = (True, True, True, True, -1)


Candidate = tuple[tuple[int, ...], Card, Move, GameState]


def _circle_candidates(state: GameState, cards: list[Card]) -> Iterator[Candidate]:
    """Yield (preference key, card, move, next state) for every legal turn with each of `cards`."""
    side = state.side
    for card in cards:
        for move in legal_moves(state, card):
            after = apply(state, card, move, check=False)
            new = after.circled - state.circled
            flagged = any(side.islands[i].flag for i in new)
            lanes = side.geometry.lanes
            # Best shown: the turn's own bridge completes the island.
            closing = any(lanes[k].a in new or lanes[k].b in new for k in move.bridges)
            key = (bool(new), flagged, bool(move.bridges), closing, -len(new), -card.bridges, -card.numeral)
            yield key, card, move, after


def _circle_example(state: GameState, cards: list[Card]) -> Example | None:
    """A legal turn after `state` that circles one island, preferring a flagged one and a bridge."""
    best = None
    for cand in _circle_candidates(state, cards):
        if best is None or cand[0] > best[0]:
            best = cand
        if cand[0][:5] == IDEAL_CIRCLE:
            break
    if best is None or not best[0][0]:
        return None
    card, move, after = best[1:]
    numerals = {move.numeral[0]: move.numeral[1]} if move.numeral else {}
    return Example("circle", after, _added(move), numerals, before=state, card=card, move=move)


