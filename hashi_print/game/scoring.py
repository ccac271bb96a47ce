"""Scoring several players of one game: who reached each bonus first, and everyone's totals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hashi_print.game.deck import GOALS, Scoring
from hashi_print.game.rules import GameState, score_state


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


def score_game(states: Sequence[GameState], scoring: Scoring) -> list[dict]:
    """Score every player's final state, resolving the bonus race between them."""
    firsts = race_firsts([dict(s.goals) for s in states])
    return [score_state(s, scoring, first=f) for s, f in zip(states, firsts, strict=True)]


def winners(scores: Sequence[Mapping[str, int]]) -> list[int]:
    """Return the positions of the players with the highest total (a tie is shared)."""
    if not scores:
        return []
    best = max(s["total"] for s in scores)
    return [pos for pos, s in enumerate(scores) if s["total"] == best]


def rating(scoring: Scoring, side: str, total: int) -> str | None:
    """Return the words of the best rating band a solo total reaches on `side`, or None without bands."""
    bands = scoring.ratings.get(side.upper(), ())
    return next((words for least, words in bands if total >= least), None)
