"""The card deck and the scoring values of the Hashi game, and their layout files."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from hashi_print.checks import json_int, json_key, json_list, json_object, json_str
from hashi_print.errors import HashiError, LayoutError
from hashi_print.files import designed_json, read_json

GOALS = ("red", "blue", "six")
DECK_SIZE = 18
CARDS_PLAYED = 17
MAX_POINTS = 99


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


@dataclass(frozen=True)
class Scoring:
    """Points per circled island, bonus values (first, later) per goal, and the solo tables.

    `solo[side][goal]` is the standard turn limit; `solo_levels[side][level][goal]` the limits per
    level (e.g. easy/normal/hard); `ratings[side]` lists (minimum score, words) from best to worst.
    """

    per_circled: int
    bonus: dict[str, tuple[int, int]]
    solo: dict[str, dict[str, int]] = field(default_factory=dict)
    solo_levels: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    ratings: dict[str, tuple[tuple[int, str], ...]] = field(default_factory=dict)


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


def deck_to_json(deck: Deck) -> dict:
    """Return the `hashi-deck/1` object for a deck."""
    return {"format": "hashi-deck/1",
            "cards": [{"numeral": c.numeral, "bridges": c.bridges} for c in deck.cards]}


def scoring_from_json(obj: object, source: str = "scoring") -> Scoring:
    """Build a Scoring from a parsed `hashi-scoring/1` object."""
    if not isinstance(obj, dict) or obj.get("format") != "hashi-scoring/1":
        raise LayoutError('expected a JSON object with "format": "hashi-scoring/1"', source=source)
    try:
        per_circled = json_int(json_key(obj, "per_circled", "the scoring"), '"per_circled"',
                               0, MAX_POINTS)
        bonus_obj = json_object(json_key(obj, "bonus", "the scoring"), '"bonus"')
        bonus = {g: _bonus_pair(json_key(bonus_obj, g, '"bonus"'), g) for g in GOALS}
        solo = {s: _turn_limits(goals, f"solo {s}")
                for s, goals in _named(obj.get("solo", {}), '"solo"').items()}
        levels = {s: {lv: _turn_limits(goals, f"solo_levels {s} {lv}")
                      for lv, goals in _named(by_level, f"solo_levels {s}").items()}
                  for s, by_level in _named(obj.get("solo_levels", {}), '"solo_levels"').items()}
        ratings = {s: tuple(_rating_band(band, f"ratings {s}")
                            for band in json_list(bands, f"ratings {s}", longest=16))
                   for s, bands in _named(obj.get("ratings", {}), '"ratings"').items()}
    except HashiError as err:
        raise LayoutError(err.message, source=source) from None
    return Scoring(per_circled, bonus, solo, levels, ratings)


def _named(value: object, what: str) -> dict:
    """Check a JSON object whose keys are short names (sides, levels)."""
    obj = json_object(value, what, longest=16)
    for key in obj:
        json_str(key, f"a name in {what}", longest=20)
    return obj


def _bonus_pair(value: object, goal: str) -> tuple[int, int]:
    """Check a goal's [first, later] bonus points."""
    pair = json_list(value, f"bonus {goal}", longest=2)
    if len(pair) != 2:
        raise LayoutError(f"bonus {goal} must be [first, later] points")
    first, later = (json_int(x, f"bonus {goal}", 0, MAX_POINTS) for x in pair)
    return first, later


def _turn_limits(value: object, what: str) -> dict[str, int]:
    """Check a {goal: turn limit} object."""
    obj = json_object(value, what, longest=len(GOALS))
    unknown = [g for g in obj if g not in GOALS]
    if unknown:
        raise LayoutError(f"{what}: unknown goal {str(unknown[0])[:20]!r}; the goals are {', '.join(GOALS)}")
    return {g: json_int(t, f"{what} {g}", 1, CARDS_PLAYED) for g, t in obj.items()}


def _rating_band(value: object, what: str) -> tuple[int, str]:
    """Check one [minimum score, words] rating band."""
    band = json_list(value, what, longest=2)
    if len(band) != 2:
        raise LayoutError(f"{what}: each band is [minimum score, words]")
    return json_int(band[0], what, 0, 10 * MAX_POINTS), json_str(band[1], what, longest=80)


def scoring_to_json(scoring: Scoring, **extra: object) -> dict:
    """Return the `hashi-scoring/1` object for a Scoring, with any extra keys."""
    return {
        "format": "hashi-scoring/1", "per_circled": scoring.per_circled,
        "bonus": {g: list(v) for g, v in scoring.bonus.items()},
        "solo": scoring.solo, "solo_levels": scoring.solo_levels,
        "ratings": {s: [list(b) for b in bands] for s, bands in scoring.ratings.items()},
        **extra,
    }


def load_deck(path: str | Path | None = None) -> Deck:
    """Read a deck file; the designed one shipped in the package by default."""
    if not path:
        return deck_from_json(designed_json("deck.json"), "layouts/deck.json")
    return deck_from_json(read_json(path), str(path))


def load_scoring(path: str | Path | None = None) -> Scoring:
    """Read a scoring file; the designed one shipped in the package by default."""
    if not path:
        return scoring_from_json(designed_json("scoring.json"), "layouts/scoring.json")
    return scoring_from_json(read_json(path), str(path))
