"""Tests of the rules engine: scripted games, one broken rule at a time, and legal move generation."""

from __future__ import annotations

import random

import pytest

from hashi_print.errors import RuleError
from hashi_print.game.deck import Card, load_deck
from hashi_print.game.rules import (
    GameState,
    Move,
    apply,
    check_move,
    goals_met,
    legal_moves,
    move_text,
    move_violations,
    new_game,
    six_group_reached,
)
from hashi_print.game.scoring import load_scoring, score_sheet
from tests.fixture_game import FIXTURES, fixture_side


def isl(label: str) -> int:
    """Return the fixture island index of a label."""
    return fixture_side().island(label)


def lane(name: str) -> int:
    """Return the fixture lane index of `X-Y`."""
    a, b = name.split("-")
    k = fixture_side().geometry.lane_between(isl(a), isl(b))
    assert k is not None, name
    return k


def mv(number: str | None, *bridges: str) -> Move:
    """Build a move from `D5`-style numeral text and `X-Y` lane names."""
    numeral = None if number is None else (isl(number[0]), int(number[1:]))
    return Move(numeral, tuple(sorted(lane(b) for b in bridges)))


def start() -> GameState:
    """The fixture side with the setup numeral G4."""
    return new_game(fixture_side(), (isl("G"), 4))


def broken(state: GameState, card: Card, move: Move, partial: bool = False) -> RuleError:
    """Return the RuleError check_move raises for an illegal move."""
    with pytest.raises(RuleError) as info:
        check_move(state, card, move, partial)
    return info.value


SCRIPT = [
    (Card(2, 1), mv("F2", "A-F")),
    (Card(1, 1), mv("A1", "F-K")),       # flagged A numbered after its first bridge
    (Card(2, 1), mv("K2", "K-P")),
    (Card(2, 1), mv("P2", "P-Q")),
    (Card(4, 1), mv(None)),              # a whole skip
    (Card(2, 1), mv("Q2", "Q-R")),
    (Card(2, 1), mv("R2", "R-M")),       # six circled in a chain A-F-K-P-Q-R
    (Card(1, 2), mv("M1", "G-H", "G-H")),  # M's numeral equals the bridge drawn to it earlier
    (Card(3, 1), mv("H3", "C-H")),
    (Card(1, 1), mv("C1")),              # all four red circled
]


def play(script=SCRIPT) -> list[GameState]:
    """Replay a script and return every state from the start."""
    states = [start()]
    for card, move in script:
        states.append(apply(states[-1], card, move))
    return states


def test_scripted_game_circles_and_goals(side):
    states = play()
    final = states[-1]
    assert final.turn == 10
    assert {side.islands[i].label for i in final.circled} == set("AFKPQRMHC")
    assert final.goals == (("six", 7), ("red", 10))
    assert not six_group_reached(states[6]) and six_group_reached(states[7])
    assert states[2].circled >= {isl("A"), isl("F")}
    assert final.numerals[isl("G")] == 4 and final.counts[isl("G")] == 2
    assert goals_met(final) == ("red", "six")


def test_every_scripted_move_is_among_legal_moves():
    states = play()
    for state, (card, move) in zip(states[:-1], SCRIPT, strict=True):
        assert move in legal_moves(state, card)


def test_bridge_to_unnumbered_island_then_equal_numeral_circles_it():
    states = play()
    assert states[7].counts[isl("M")] == 1 and isl("M") not in states[7].circled
    assert isl("M") in states[8].circled


def test_smaller_numeral_is_rejected_then_equal_accepted():
    state = play()[8]
    err = broken(state, Card(1, 1), mv("H1"))
    assert err.rule == "numeral-below-bridges" and err.where == "island H"
    check_move(state, Card(2, 1), mv("H2"))


def test_score_of_scripted_game():
    scoring = load_scoring(FIXTURES / "fixture-scoring.json")
    final = play()[-1]
    assert score_sheet(final, scoring).to_json() == {"circled": 9, "circled_points": 18,
                                                     "bonus": {"red": 9, "six": 8}, "total": 35}
    assert score_sheet(final, scoring, first=["six"]).bonus == {"red": 5, "six": 8}
    solo = score_sheet(final, scoring, solo_side="F")
    assert solo.bonus == {"red": 9, "six": 8}
    hard = score_sheet(final, scoring, solo_side="F", solo_level="hard")
    assert hard.bonus == {"red": 0, "six": 8} and hard.total == 26


@pytest.mark.parametrize("card, move, rule, where", [
    (Card(3, 1), mv("G3"), "numeral-taken", "island G"),
    (Card(3, 1), mv("A3"), "numeral-flag-needs-bridge", "island A"),
    (Card(3, 1), mv("D4"), "numeral-card", "island D"),
    (Card(3, 2), mv(None, "G-H"), "bridge-count", "bridges"),
    (Card(3, 1), mv(None, "C-H"), "bridge-needs-numbered-end", "lane C-H"),
    (Card(3, 3), mv(None, "G-H", "G-H", "G-H"), "lane-max-two", "lane G-H"),
    (Card(3, 2), mv("E3", "G-H", "E-O"), "bridge-crossing", "lane G-H"),
    (Card(1, 2), mv("F1", "F-G", "F-G"), "island-over-numeral", "island F"),
])
def test_each_rule_broken_names_rule_and_place(card, move, rule, where):
    err = broken(start(), card, move)
    assert (err.rule, err.where) == (rule, where)
    assert move not in legal_moves(start(), card)


def test_no_lane_and_no_island():
    assert broken(start(), Card(3, 1), Move(None, (99,))).rule == "bridge-no-lane"
    assert broken(start(), Card(3, 1), Move((42, 3), ())).rule == "numeral-no-island"


def test_crossing_an_existing_bridge():
    state = apply(start(), Card(3, 1), mv("E3", "G-H"))
    err = broken(state, Card(5, 1), mv(None, "E-O"))
    assert err.rule == "bridge-crossing" and err.where == "lane E-O" and "G-H" in err.message


def test_circled_island_takes_no_more_bridges():
    states = play()
    err = broken(states[2], Card(5, 1), mv("K5", "F-K"))
    assert (err.rule, err.where) == ("circled-full", "island F")


def test_partial_bridges_house_rule():
    move = mv(None, "G-H")
    assert broken(start(), Card(3, 2), move).rule == "bridge-count"
    check_move(start(), Card(3, 2), move, partial=True)
    assert move in legal_moves(start(), Card(3, 2), partial=True)
    assert move not in legal_moves(start(), Card(3, 2))
    assert broken(start(), Card(3, 1), mv(None, "G-H", "F-G"), partial=True).rule == "bridge-count"


def test_move_violations_lists_all():
    rules = {e.rule for e in move_violations(start(), Card(3, 2), mv("A3", "C-H"))}
    assert rules == {"numeral-flag-needs-bridge", "bridge-count", "bridge-needs-numbered-end"}


@pytest.mark.parametrize("setup", [(0, 3), (3, 5), (40, 3)])
def test_setup_rule(side, setup):
    with pytest.raises(RuleError) as info:
        new_game(side, setup)
    assert info.value.rule == "setup"


def test_legal_moves_are_distinct_legal_and_complete_for_small_card(side):
    state = play()[3]
    card = Card(2, 2)
    moves = legal_moves(state, card)
    assert len(moves) == len(set(moves))
    for m in moves:
        check_move(state, card, m)
    # Brute force over every numeral choice and lane pair agrees with the generator.
    lanes = range(len(side.geometry.lanes))
    choices = [None] + [(i, 2) for i in range(18)]
    brute = set()
    for c in choices:
        cand = [Move(c, ())] + [Move(c, (a, b)) for a in lanes for b in lanes if a <= b]
        brute |= {m for m in cand if not move_violations(state, card, m)}
    assert brute == set(moves)


def test_legal_moves_fast_on_crowded_board(side):
    nums = tuple(None if side.islands[i].flag else 6 for i in range(18))
    state = GameState(side, nums, (0,) * len(side.geometry.lanes))
    moves = legal_moves(state, Card(6, 3))
    assert len(moves) == len(set(moves)) > 1000


def test_random_legal_play_keeps_invariants():
    deck = load_deck(FIXTURES / "fixture-deck.json")
    rng = random.Random(5)
    for _ in range(10):
        cards = list(deck.cards)
        rng.shuffle(cards)
        state = start()
        for card in cards[:17]:
            state = apply(state, card, rng.choice(legal_moves(state, card)))
            assert all(n <= 2 for n in state.bridges)
            for i, v in enumerate(state.numerals):
                assert v is None or state.counts[i] <= v
        assert state.turn == 17


def test_move_text(side):
    assert move_text(side, mv("D5", "G-H", "G-H")) == "number D5 bridges G-H G-H"
    assert move_text(side, Move()) == "number - bridges -"


def test_solo_score_needs_the_side_in_the_scoring_file():
    from hashi_print.errors import LayoutError

    scoring = load_scoring(FIXTURES / "fixture-scoring.json")
    with pytest.raises(LayoutError, match="side Z"):
        score_sheet(start(), scoring, solo_side="Z")
    with pytest.raises(LayoutError, match="level expert"):
        score_sheet(start(), scoring, solo_side="F", solo_level="expert")
