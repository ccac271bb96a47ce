"""The card deck of the Hashi game and its file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hashi_print.checks import json_int, json_key, json_list, json_object
from hashi_print.errors import HashiError, LayoutError
from hashi_print.files import designed_json, read_json
from hashi_print.options import Goal, values

GOALS = values(Goal)
DECK_SIZE = 18
CARDS_PLAYED = 17


@dataclass(frozen=True, order=True)
class Card:
    """A number card: write `numeral` on an island, then draw `bridges` bridges."""

    numeral: int
    bridges: int

    def __str__(self) -> str:
        return f"{self.numeral}/{self.bridges}"


@dataclass(frozen=True)
class Deck:
    """The 18 cards, in the order printed on the card strip."""

    cards: tuple[Card, ...]

    def numeral_counts(self) -> dict[int, int]:
        """Count how many cards show each numeral."""
        counts: dict[int, int] = {}
        for c in self.cards:
            counts[c.numeral] = counts.get(c.numeral, 0) + 1
        return counts

    def max_bridges(self, played: int = CARDS_PLAYED) -> int:
        """The most bridges `played` cards of this deck can draw (the largest bridge counts)."""
        return sum(sorted((c.bridges for c in self.cards), reverse=True)[:played])


def card_from_text(text: str) -> Card:
    """Parse `N/B` into a Card, checking numeral 1-6 and bridges 1-3."""
    try:
        n, b = (int(x) for x in text.split("/"))
    except ValueError:
        raise LayoutError(f"card {text!r}: expected numeral/bridges, e.g. 5/2") from None
    if not (1 <= n <= 6 and 1 <= b <= 3):
        raise LayoutError(f"card {text!r}: numeral must be 1-6 and bridges 1-3")
    return Card(n, b)


def deck_from_json(obj: object, source: str = "deck") -> Deck:
    """Build and check a Deck from a parsed `hashi-deck/1` object."""
    if not isinstance(obj, dict) or obj.get("format") != "hashi-deck/1":
        raise LayoutError('expected a JSON object with "format": "hashi-deck/1"', source=source)
    try:
        items = json_list(json_key(obj, "cards", "the deck"), '"cards"', longest=64)
        cards = tuple(_card_from_json(item, n) for n, item in enumerate(items, 1))
    except HashiError as err:
        raise LayoutError(err.message, source=source) from None
    if len(cards) != DECK_SIZE:
        raise LayoutError(f"a deck has {DECK_SIZE} cards, this one has {len(cards)}", source=source)
    for c in cards:
        if not (1 <= c.numeral <= 6 and 1 <= c.bridges <= 3):
            raise LayoutError(f"card {c}: numeral must be 1-6 and bridges 1-3", source=source)
    return Deck(cards)


def _card_from_json(item: object, n: int) -> Card:
    """Check and build card number `n` of a deck from its JSON object."""
    obj = json_object(item, f"card {n}")
    return Card(json_int(json_key(obj, "numeral", f"card {n}"), f"card {n} numeral", 1, 6),
                json_int(json_key(obj, "bridges", f"card {n}"), f"card {n} bridges", 1, 3))


def deck_to_json(deck: Deck) -> dict[str, object]:
    """Return the `hashi-deck/1` object for a deck."""
    return {"format": "hashi-deck/1",
            "cards": [{"numeral": c.numeral, "bridges": c.bridges} for c in deck.cards]}


def load_deck(path: str | Path | None = None) -> Deck:
    """Read a deck file; the designed one shipped in the package by default."""
    if not path:
        return deck_from_json(designed_json("deck.json"), "layouts/deck.json")
    return deck_from_json(read_json(path), str(path))
