"""The command line's presentation helpers: progress bars fed by the jobs' callbacks, and the tables."""

from __future__ import annotations

from pathlib import Path

from hashi_print.console import ProgressBar, print_score_table, with_progress
from hashi_print.jobs.score import ScoreRequest, score_game

FIX = Path(__file__).resolve().parent / "fixtures"


def test_a_bar_starts_only_for_two_items_or_more_and_stops_on_exit():
    with ProgressBar("generating") as one:
        one.update(1, 1)
        assert one._bar is None
    with ProgressBar("generating") as bar:
        bar.update(1, 3)
        bar.update(2, 3)
        assert bar._bar is not None and bar._bar.live.is_started
        assert bar._bar.tasks[0].completed == 2 and bar._bar.tasks[0].total == 3
    assert not bar._bar.live.is_started


def test_with_progress_yields_every_item_in_order():
    assert list(with_progress(iter("abc"), 3)) == ["a", "b", "c"]
    assert list(with_progress(iter("a"), 1)) == ["a"]


def test_the_score_table_names_the_players_and_the_winner(capsys):
    game = score_game(ScoreRequest((str(FIX / "wheel-sheet-ann.txt"), str(FIX / "wheel-sheet-bob.txt"))))
    print_score_table(game)
    out = capsys.readouterr().out
    assert "Hashi scores" in out and "Ann" in out and "Bob" in out
    assert f"winner: {', '.join(game.winners)}" in out
