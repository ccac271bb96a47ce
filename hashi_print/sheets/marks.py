"""What a player leaves on the paper: numerals, bridges, circles, crossed-off cards and goal turns.

`Marks` is the seam between typed sheets, the drawing of a filled sheet (`sheet --fill`) and the
photo reader, which produces the same value from a picture.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hashi_print.game.board import BoardSide
from hashi_print.game.deck import GOALS, Card, Deck
from hashi_print.sheets.formats import Record, Sheet, format_sheet
from hashi_print.sheets.validate import validate


@dataclass(frozen=True)
class Marks:
    """The ink on one sheet: a numeral or None per island, bridges per lane, circled islands,
    crossed-off card-strip positions (from 1), the turn each goal was reached, the starting island, and
    the goals whose "first" bonus box is crossed off (another player reached them first)."""

    side: BoardSide
    numerals: tuple[int | None, ...]
    bridges: tuple[int, ...]
    circled: frozenset[int]
    cards: frozenset[int]
    goals: tuple[tuple[str, int], ...] = ()
    player: str | None = None
    setup: int | None = None
    lost_first: frozenset[str] = frozenset()

    def goal_turn(self, goal: str) -> int | None:
        """The turn written for `goal`, or None."""
        return dict(self.goals).get(goal)


def marks_of(doc: Sheet | Record, deck: Deck) -> Marks:
    """What the paper shows at the end of a typed sheet or game record (a record is replayed)."""
    state = validate(doc, deck).state
    side = doc.side
    setup = None
    if isinstance(doc, Sheet):
        circled = frozenset(i for i, _ in doc.circled) if doc.circled is not None else state.circled
        cards = frozenset(p for p, _ in doc.cards or ())
        goals = tuple((g, t) for g, t, _ in doc.bonus)
    else:
        circled = state.circled
        cards = frozenset(_strip_positions(deck, [t.card for t in doc.turns]))
        goals = tuple(g for g in state.goals if g[0] in GOALS)
        setup = doc.setup[0] if doc.setup is not None else None
    return Marks(side, state.numerals, state.bridges, circled, cards, goals, doc.player, setup)


def _strip_positions(deck: Deck, played: Sequence[Card]) -> list[int]:
    """The card-strip positions (from 1) a player crosses off for the cards played, leftmost free first."""
    free = list(range(len(deck.cards)))
    out = []
    for card in played:
        slot = next((k for k in free if deck.cards[k] == card), None)
        if slot is not None:
            free.remove(slot)
            out.append(slot + 1)
    return out


def sheet_of(marks: Marks, source: str = "scan") -> Sheet:
    """The marks as a typed finished sheet."""
    lanes = marks.side.geometry.lanes
    return Sheet(
        source,
        marks.side,
        marks.player,
        numerals=tuple((i, v, None) for i, v in enumerate(marks.numerals) if v is not None),
        bridges=tuple((lanes[k].a, lanes[k].b, None) for k, n in enumerate(marks.bridges) for _ in range(n)),
        circled=tuple((i, None) for i in sorted(marks.circled)),
        cards=tuple((p, None) for p in sorted(marks.cards)),
        bonus=tuple((g, t, None) for g, t in marks.goals),
    )


def marks_text(marks: Marks, side_text: str | None = None) -> str:
    """The marks in the `hashi-sheet 1` text form."""
    return format_sheet(sheet_of(marks), side_text)
