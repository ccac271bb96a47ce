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
    solo level; `ratings[side]` lists (minimum score, words) from best to worst for the standard
    limits, `level_ratings[side][level]` the same for each level's limits.
    """

    per_circled: int
    bonus: dict[str, tuple[int, int]]
    solo: dict[str, dict[str, int]] = field(default_factory=dict)
    solo_levels: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    ratings: dict[str, tuple[tuple[int, str], ...]] = field(default_factory=dict)
    level_ratings: dict[str, dict[str, tuple[tuple[int, str], ...]]] = field(default_factory=dict)


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

    def to_json(self) -> dict[str, object]:
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
    """One player of a scored game: the file, the name, the rule check, goals reached (turn) and the score.

    A goal's turn is None when the sheet does not say it; a player who breaks a rule is out of the race.
    """

    source: str
    player: str
    ok: bool
    violations: int
    goals: dict[str, int | None]
    score: Score

    def to_json(self) -> dict[str, object]:
        """Return this player's object of the `score --json` contract."""
        return {"source": self.source, "player": self.player, "ok": self.ok, "violations": self.violations,
                "goals": dict(self.goals), "score": self.score.to_json()}

    def table_row(self) -> list[str]:
        """Return the score table's row: player, rules, circled, one column per goal, total."""
        s = self.score
        goals = [f"{s.bonus[g]} (turn {self.goals.get(g) or '?'})" if g in s.bonus else "-" for g in GOALS]
        rules = "ok" if self.ok else f"{self.violations} broken, out of the race"
        return [self.player, rules, f"{s.circled} ({s.circled_points})", *goals, str(s.total)]


@dataclass(frozen=True)
class GameScore:
    """Every player of one game scored together, the winners, and the problems that make it doubtful."""

    players: tuple[PlayerScore, ...]
    winners: tuple[str, ...]
    problems: tuple[str, ...]
    unchecked: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        """Return the `score --json` contract object."""
        return {"players": [p.to_json() for p in self.players], "winners": list(self.winners),
                "problems": list(self.problems), "unchecked": list(self.unchecked)}


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
        level_ratings = {s: {lv: _rating_bands(bands, f"level_ratings {s} {lv}")
                             for lv, bands in _named(by_level, f"level_ratings {s}").items()}
                         for s, by_level in _named(obj.get("level_ratings", {}), '"level_ratings"').items()}
    except HashiError as err:
        raise LayoutError(err.message, source=source) from None
    return Scoring(per_circled, bonus, solo, levels, ratings, level_ratings)


def _rating_bands(value: object, what: str) -> tuple[tuple[int, str], ...]:
    """Check a list of [minimum score, words] rating bands."""
    return tuple(_rating_band(band, what) for band in json_list(value, what, longest=16))


def _named(value: object, what: str) -> dict[str, object]:
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


def scoring_to_json(scoring: Scoring, **extra: object) -> dict[str, object]:
    """Return the `hashi-scoring/1` object for a Scoring, with any extra keys."""
    return {
        "format": "hashi-scoring/1", "per_circled": scoring.per_circled,
        "bonus": {g: list(v) for g, v in scoring.bonus.items()},
        "solo": scoring.solo, "solo_levels": scoring.solo_levels,
        "ratings": {s: [list(b) for b in bands] for s, bands in scoring.ratings.items()},
        **({"level_ratings": {s: {lv: [list(b) for b in bands] for lv, bands in by_level.items()}
                              for s, by_level in scoring.level_ratings.items()}}
           if scoring.level_ratings else {}),
        **extra,
    }


def load_scoring(path: str | Path | None = None) -> Scoring:
    """Read a scoring file; the designed one shipped in the package by default."""
    if not path:
        return scoring_from_json(designed_json("scoring.json"), "layouts/scoring.json")
    return scoring_from_json(read_json(path), str(path))


# --- scoring sheets -----------------------------------------------------------------------------

def score_sheet(state: GameState, scoring: Scoring, solo_side: str | None = None,
                solo_level: str | None = None, first: Iterable[str] | None = None,
                unknown: Iterable[str] = ()) -> Score:
    """Score a sheet: points per circled island plus bonuses.

    Without `solo_side`, every goal reached scores its higher value unless `first` (the goals this
    player reached first in a multi-player race) is given, in which case the others score the lower
    value. With `solo_side`, a goal scores its higher value only within that side's turn limit
    (of `solo_level` when given), else nothing; a goal whose turn is `unknown` scores nothing there.
    """
    unknown = frozenset(unknown)
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
            bonus[goal] = high if limit is not None and turn <= limit and goal not in unknown else 0
        else:
            bonus[goal] = high if goal in firsts else low
    circled = len(state.circled)
    return Score(circled, circled * scoring.per_circled, bonus)


def race_firsts(goal_turns: Sequence[Mapping[str, int]], unknown: Sequence[Iterable[str]] | None = None,
                valid: Sequence[bool] | None = None) -> list[frozenset[str]]:
    """For each player's {goal: turn reached}, return the goals that player reached first (ties share).

    A player who breaks a rule (`valid` False) is out of the race. A goal whose turn is `unknown`
    takes no first from a player whose turn is known; among unknown turns only a lone player is first.
    """
    count = len(goal_turns)
    gone = [frozenset(u) for u in unknown] if unknown is not None else [frozenset()] * count
    racing = list(valid) if valid is not None else [True] * count
    firsts: list[set[str]] = [set() for _ in goal_turns]
    for goal in GOALS:
        reached = [pos for pos, t in enumerate(goal_turns) if racing[pos] and goal in t]
        known = [pos for pos in reached if goal not in gone[pos]]
        if known:
            best = min(goal_turns[pos][goal] for pos in known)
            reached = [pos for pos in known if goal_turns[pos][goal] == best]
        elif len(reached) > 1:
            reached = []   # nobody knows who was first
        for pos in reached:
            firsts[pos].add(goal)
    return [frozenset(f) for f in firsts]


def score_game(states: Sequence[GameState], scoring: Scoring, unknown: Sequence[Iterable[str]] | None = None,
               valid: Sequence[bool] | None = None) -> list[Score]:
    """Score every player's final state, resolving the bonus race; a rule-breaker scores no bonus."""
    firsts = race_firsts([dict(s.goals) for s in states], unknown, valid)
    scores = [score_sheet(s, scoring, first=f) for s, f in zip(states, firsts, strict=True)]
    if valid is None:
        return scores
    return [s if ok else Score(s.circled, s.circled_points, {}) for s, ok in zip(scores, valid, strict=True)]


def winners(scores: Sequence[Score], valid: Sequence[bool] | None = None) -> list[int]:
    """Return the positions of the highest totals (a tie is shared); a rule-breaker cannot win."""
    eligible = [pos for pos in range(len(scores)) if valid is None or valid[pos]]
    if not eligible:
        return []
    best = max(scores[pos].total for pos in eligible)
    return [pos for pos in eligible if scores[pos].total == best]


def rating_bands_of(scoring: Scoring, side: str, level: str | None = None) -> tuple[tuple[int, str], ...]:
    """The rating bands of a side at a solo level (the standard bands without a level or level bands)."""
    key = side.upper()
    if level is not None and level in scoring.level_ratings.get(key, {}):
        return scoring.level_ratings[key][level]
    return scoring.ratings.get(key, ())


def rating(scoring: Scoring, side: str, total: int, level: str | None = None) -> str | None:
    """Return the words of the best rating band a solo total reaches on `side` (at `level`), or None."""
    bands = rating_bands_of(scoring, side, level)
    return next((words for least, words in bands if total >= least), None)
