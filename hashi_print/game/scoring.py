"""Scoring the Hashi game: the scoring file, one sheet's score, and several players' race for the bonuses."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from hashi_print.checks import json_int, json_key, json_list, json_object, json_str
from hashi_print.errors import HashiError, LayoutError
from hashi_print.files import designed_json, read_json
from hashi_print.game.deck import CARDS_PLAYED, GOALS
from hashi_print.game.rules import GameState

MAX_POINTS = 99   # any one value of a scoring file


class SoloLevel(StrEnum):
    """A solo game's level: how tight the turn limits are within which a bonus still scores."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


@dataclass(frozen=True)
class Scoring:
    """Points per circled island, bonus values (first, later) per goal, and the solo tables.

    `solo[side][goal]` is the standard turn limit; `solo_levels[side][level][goal]` the limits per
    solo level; `ratings[side]` lists (minimum score, words) from best to worst.
    """

    per_circled: int
    bonus: dict[str, tuple[int, int]]
    solo: dict[str, dict[str, int]] = field(default_factory=dict)
    solo_levels: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    ratings: dict[str, tuple[tuple[int, str], ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Score:
    """One sheet's score: circled islands and their points, the points of each goal reached, the total."""

    circled: int
    circled_points: int
    bonus: dict[str, int]

    @property
    def total(self) -> int:
        """Circled points plus every bonus."""
        return self.circled_points + sum(self.bonus.values())

    def to_json(self) -> dict:
        """Return the score object of the `validate --json` and `score --json` contracts."""
        return {"circled": self.circled, "circled_points": self.circled_points, "bonus": dict(self.bonus),
                "total": self.total}

    def text(self) -> str:
        """Write the score as `score: 18 for 9 circled islands + red 9 + six 8 = 35`."""
        parts = [f"{self.circled_points} for {self.circled} circled islands"]
        parts += [f"{g} {p}" for g, p in self.bonus.items()]
        return f"score: {' + '.join(parts)} = {self.total}"


@dataclass(frozen=True)
class PlayerScore:
    """One player of a scored game: the file, the name, the rule check, goals reached (turn) and the score."""

    source: str
    player: str
    ok: bool
    violations: int
    goals: dict[str, int]
    score: Score

    def to_json(self) -> dict:
        """Return this player's object of the `score --json` contract."""
        return {"source": self.source, "player": self.player, "ok": self.ok, "violations": self.violations,
                "goals": dict(self.goals), "score": self.score.to_json()}

    def table_row(self) -> list[str]:
        """Return the score table's row: player, rules, circled, one column per goal, total."""
        s = self.score
        goals = [f"{s.bonus[g]} (turn {self.goals[g]})" if g in s.bonus else "-" for g in GOALS]
        rules = "ok" if self.ok else f"{self.violations} broken"
        return [self.player, rules, f"{s.circled} ({s.circled_points})", *goals, str(s.total)]


@dataclass(frozen=True)
class GameScore:
    """Every player of one game scored together, the winners, and the problems that make it doubtful."""

    players: tuple[PlayerScore, ...]
    winners: tuple[str, ...]
    problems: tuple[str, ...]

    def to_json(self) -> dict:
        """Return the `score --json` contract object."""
        return {"players": [p.to_json() for p in self.players], "winners": list(self.winners),
                "problems": list(self.problems)}


# --- the scoring file ---------------------------------------------------------------------------

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


def load_scoring(path: str | Path | None = None) -> Scoring:
    """Read a scoring file; the designed one shipped in the package by default."""
    if not path:
        return scoring_from_json(designed_json("scoring.json"), "layouts/scoring.json")
    return scoring_from_json(read_json(path), str(path))


# --- scoring sheets -----------------------------------------------------------------------------

def score_sheet(state: GameState, scoring: Scoring, solo_side: str | None = None,
                solo_level: str | None = None, first: Iterable[str] | None = None) -> Score:
    """Score a sheet: points per circled island plus bonuses.

    Without `solo_side`, every goal reached scores its higher value unless `first` (the goals this
    player reached first in a multi-player race) is given, in which case the others score the lower
    value. With `solo_side`, a goal scores its higher value only within that side's turn limit
    (of `solo_level` when given), else nothing.
    """
    firsts = set(GOALS) if first is None else set(first)
    limits: dict[str, int] = {}
    if solo_side is not None:
        key = solo_side.upper()
        table = (scoring.solo_levels.get(key, {}).get(solo_level) if solo_level is not None
                 else scoring.solo.get(key))
        if table is None:
            level = f" at level {solo_level}" if solo_level is not None else ""
            raise LayoutError(f"the scoring file has no solo turn limits for side {key}{level}")
        limits = table
    bonus: dict[str, int] = {}
    for goal in GOALS:
        turn = state.goal_turn(goal)
        if turn is None:
            continue
        high, low = scoring.bonus[goal]
        if solo_side is not None:
            limit = limits.get(goal)
            bonus[goal] = high if limit is not None and turn <= limit else 0
        else:
            bonus[goal] = high if goal in firsts else low
    circled = len(state.circled)
    return Score(circled, circled * scoring.per_circled, bonus)


def race_firsts(goal_turns: Sequence[Mapping[str, int]]) -> list[frozenset[str]]:
    """For each player's {goal: turn reached}, return the goals that player reached first (ties share)."""
    firsts: list[set[str]] = [set() for _ in goal_turns]
    for goal in GOALS:
        turns = [t[goal] for t in goal_turns if goal in t]
        if not turns:
            continue
        best = min(turns)
        for pos, t in enumerate(goal_turns):
            if t.get(goal) == best:
                firsts[pos].add(goal)
    return [frozenset(f) for f in firsts]


def score_game(states: Sequence[GameState], scoring: Scoring) -> list[Score]:
    """Score every player's final state, resolving the bonus race between them."""
    firsts = race_firsts([dict(s.goals) for s in states])
    return [score_sheet(s, scoring, first=f) for s, f in zip(states, firsts, strict=True)]


def winners(scores: Sequence[Score]) -> list[int]:
    """Return the positions of the players with the highest total (a tie is shared)."""
    if not scores:
        return []
    best = max(s.total for s in scores)
    return [pos for pos, s in enumerate(scores) if s.total == best]


def rating(scoring: Scoring, side: str, total: int) -> str | None:
    """Return the words of the best rating band a solo total reaches on `side`, or None without bands."""
    bands = scoring.ratings.get(side.upper(), ())
    return next((words for least, words in bands if total >= least), None)
