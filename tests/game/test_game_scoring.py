"""Tests of multi-player scoring: the bonus race with ties and later players."""

from __future__ import annotations

from hashi_print.game.rules import GameState
from hashi_print.game.scoring import Score, race_firsts, score_game, winners
from tests.fixture_game import fixture_side


def with_goals(goals):
    """An empty final state carrying the given (goal, turn) pairs."""
    lanes = len(fixture_side().geometry.lanes)
    return GameState(fixture_side(), (None,) * 18, (0,) * lanes, 17, tuple(goals))


def test_race_ties_share_the_higher_value():
    firsts = race_firsts([{"red": 9, "six": 12}, {"red": 9, "six": 10}, {"blue": 4}])
    assert firsts == [frozenset({"red"}), frozenset({"red", "six"}), frozenset({"blue"})]


def test_score_game_gives_later_players_the_lower_value(scoring):
    states = [with_goals([("red", 9), ("six", 12)]), with_goals([("red", 9), ("six", 10)]),
              with_goals([("red", 11)])]
    scores = score_game(states, scoring)
    assert [s.bonus for s in scores] == [{"red": 9, "six": 4}, {"red": 9, "six": 8}, {"red": 5}]
    assert [s.total for s in scores] == [13, 17, 5]
    assert winners(scores) == [1]


def test_winners_share_a_tie_and_empty_game():
    tied = [Score(1, 2, {"red": 3}), Score(2, 4, {"six": 3}), Score(0, 0, {"red": 5, "six": 2})]
    assert winners(tied) == [1, 2]
    assert winners([]) == []
