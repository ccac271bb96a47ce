"""Scoring that can't be gamed: feasible bonus turns, rule-breakers out of the race, no turn no first."""

from __future__ import annotations

from pathlib import Path

from hashi_print.game.board import load_side
from hashi_print.game.deck import GOALS, load_deck
from hashi_print.game.rules import earliest_goal_turn
from hashi_print.game.scoring import Score, load_scoring, winners
from hashi_print.game.simulate import play_game
from hashi_print.sheets.formats import parse_sheet
from hashi_print.sheets.validate import score_players, validate, validate_file

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SIDE = load_side(FIXTURES / "fixture-side.json")
DECK = load_deck(FIXTURES / "fixture-deck.json")
SCORING = load_scoring(FIXTURES / "fixture-scoring.json")
ANN_SHEET = (FIXTURES / "fixture-sheet-ann.txt").read_text()


def ann_sheet(bonus: str | None, name: str = "ann.txt", extra: str = ""):
    """Ann's finished sheet with another bonus line (None: no bonus line at all)."""
    lines = [ln for ln in ANN_SHEET.splitlines() if not ln.startswith("bonus")]
    if bonus is not None:
        lines.append(f"bonus {bonus}")
    return parse_sheet("\n".join(lines) + "\n" + extra, name, base=FIXTURES)


def test_no_played_game_reaches_a_goal_before_its_earliest_turn():
    checked = 0
    for strategy in ("strong", "greedy"):
        for index in range(15):
            _, _, state = play_game(SIDE, DECK, SCORING, strategy, "random", index, seed=3)
            for goal, turn in state.goals:
                assert turn >= earliest_goal_turn(state, goal), (strategy, index, goal, turn)
                checked += 1
    assert checked >= 10, "the games reach enough goals for the bound to be tested"


def test_flag_goals_need_a_numeral_a_turn_after_the_first_bridge():
    state = validate(ann_sheet(None), DECK, SCORING).state
    assert earliest_goal_turn(state, "red") == 5   # four flagged numerals, none on turn 1
    assert earliest_goal_turn(state, "blue") == 4
    assert 5 <= earliest_goal_turn(state, "six") <= 7


def test_bonus_claimed_before_it_is_possible_is_a_violation():
    report = validate(ann_sheet("six 1 red 1"), DECK, SCORING)
    assert [(v.rule, v.where) for v in report.violations] == [("bonus-claim", "bonus six"),
                                                              ("bonus-claim", "bonus red")]
    assert "turn 5 is the earliest" in report.violations[1].message
    assert report.score is None
    state = report.state
    six = earliest_goal_turn(state, "six")
    assert validate(ann_sheet(f"six {six} red 5"), DECK, SCORING).ok
    late = validate(ann_sheet(f"six {six - 1} red 5"), DECK, SCORING)
    assert [v.where for v in late.violations] == ["bonus six"]


def test_rule_breaker_is_out_of_the_race_and_cannot_win():
    ann = validate(ann_sheet("six 9 red 12"), DECK, SCORING)
    # Eve claims both goals earlier, but writes a second 1 on an island: a broken rule
    eve = validate(ann_sheet("six 7 red 11", "eve.txt", "numbers D1 E1 I1 J1 N1 O1\n"), DECK, SCORING)
    assert ann.ok and not eve.ok
    game = score_players([ann, eve], SCORING)
    ann_score, eve_score = (p.score for p in game.players)
    assert ann_score.bonus == {"red": 9, "six": 8}, "Eve takes no first from Ann"
    assert eve_score.bonus == {}, "a rule-breaker scores no bonus"
    assert game.winners == ("Ann",)
    assert any("eve.txt" in p and "cannot win" in p for p in game.problems)


def test_winners_leave_out_rule_breakers():
    scores = [Score(5, 10, {}), Score(9, 18, {}), Score(7, 14, {})]
    assert winners(scores) == [1]
    assert winners(scores, [True, False, True]) == [2]
    assert winners(scores, [False, False, False]) == []


def test_sheet_without_bonus_line_takes_no_first():
    known = validate(ann_sheet("six 12 red 12"), DECK, SCORING)
    silent = validate(ann_sheet(None, "bob.txt"), DECK, SCORING)
    assert silent.ok and silent.unknown_turns == ("red", "six")
    assert any(u.startswith("bonus six:") for u in silent.unchecked)
    assert silent.to_json()["goals"] == {"red": None, "six": None}
    game = score_players([known, silent], SCORING)
    high = {g: SCORING.bonus[g][0] for g in GOALS}
    low = {g: SCORING.bonus[g][1] for g in GOALS}
    assert game.players[0].score.bonus == {"six": high["six"], "red": high["red"]}
    assert game.players[1].score.bonus == {"six": low["six"], "red": low["red"]}
    assert game.problems == () and len(game.unchecked) == 1
    # two players who both give no turn: nobody knows who was first
    both = score_players([silent, validate(ann_sheet(None, "cy.txt"), DECK, SCORING)], SCORING)
    assert [p.score.bonus for p in both.players] == [{"six": low["six"], "red": low["red"]}] * 2


def test_lone_player_without_turn_is_first_and_solo_needs_the_turn():
    silent = validate(ann_sheet(None), DECK, SCORING)
    assert score_players([silent], SCORING).players[0].score.bonus == {"six": 8, "red": 9}
    solo = validate(ann_sheet(None), DECK, SCORING, solo=True)
    assert solo.score.bonus == {"six": 0, "red": 0}
    assert any("scores nothing in solo" in u for u in solo.unchecked)


def test_score_command_exit_status_and_table(tmp_path):
    from click.testing import CliRunner

    from hashi_print.cli import cli

    files = []
    for name, body in (("ann.txt", ANN_SHEET), ("bob.txt", ANN_SHEET.replace("bonus six 7 red 11\n", ""))):
        path = tmp_path / name
        path.write_text(body.replace("layout fixture-side.json", f"layout {FIXTURES / 'fixture-side.json'}"))
        files.append(str(path))
    args = ["score", *files, "--deck", str(FIXTURES / "fixture-deck.json"),
            "--scoring", str(FIXTURES / "fixture-scoring.json")]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "turn ?" in result.output and "not checkable" in result.output
    assert validate_file(files[1], deck=DECK, scoring=SCORING).unknown_turns == ("red", "six")
