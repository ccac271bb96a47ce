"""The bots decide as they did before they were made faster: 1,000 recorded games replayed move for move.

The games (tests/fixtures/bot-games.json.gz) were recorded by scripts/bot_games_fixture.py with the
bots of issue 39's start; the default suite replays all of them with the C kernel and the first 200 with
the pure Python one, `pytest -m slow` all of them with both.
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path

import pytest

from hashi_print.game import bots, botsearch
from hashi_print.game.board import BoardSide, side_from_json
from hashi_print.game.deck import Deck, deck_from_json
from hashi_print.game.rules import Move
from hashi_print.game.scoring import Scoring, scoring_from_json
from hashi_print.game.simulate import play_game
from tests.native_guard import assert_mirror_guard

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "bot-games.json.gz"
QUICK = 200


@cache
def recorded() -> tuple[list[tuple[BoardSide, Deck, Scoring]], list[dict[str, object]]]:
    """The recorded tables (side, deck, scoring) and games."""
    doc = json.loads(gzip.decompress(FIXTURE.read_bytes()))
    tables = [(side_from_json(t["side"]), deck_from_json(t["deck"]), scoring_from_json(t["scoring"]))
              for t in doc["tables"]]
    return tables, doc["games"]


def move_code(move: Move) -> str:
    """The fixture's text of a move (see scripts/bot_games_fixture.py)."""
    num = "-" if move.numeral is None else f"{move.numeral[0]}.{move.numeral[1]}"
    return num + "/" + ",".join(str(k) for k in move.bridges)


def divergence(number: int, game: dict[str, object]) -> str | None:
    """Replay one recorded game; describe the first move or record field that differs, or None."""
    tables, _ = recorded()
    side, deck, scoring = tables[game["table"]]
    raw = game["setup"]
    setup = raw if isinstance(raw, str) else tuple((i, v) for i, v in raw)
    record, moves, _ = play_game(side, deck, scoring, game["bot"], setup, game["index"], game["seed"],
                                 game["partial"], game["share_deals"])
    want = game["moves"].split(" ")
    got = [move_code(m) for m in moves]
    where = f"game {number} ({game['bot']} bot, table {game['table']}, setup {raw}, seed {game['seed']})"
    for turn, (w, g) in enumerate(zip(want, got, strict=True), 1):
        if w != g:
            return f"{where}, turn {turn}: recorded {w}, played {g}"
    fields = [record.score, record.circled, [list(g) for g in record.goals], record.numeral_skips,
              record.bridge_skips, record.forced_skips, record.bridges, list(record.setup),
              record.forced_numeral_skips, record.numeral_places, record.bridge_places]
    if fields != game["record"]:
        return f"{where}: record {game['record']}, played {fields}"
    return None


def first_divergence(start: int, stop: int) -> str | None:
    """The first divergence among recorded games start..stop-1, or None."""
    _, games = recorded()
    for number in range(start, stop):
        found = divergence(number, games[number])
        if found:
            return found
    return None


def test_the_fixture_holds_1000_games_of_every_bot_on_four_tables():
    tables, games = recorded()
    assert len(games) == 1000 and len(tables) == 4
    assert {g["bot"] for g in games} == {"strong", "greedy", "random"}
    assert {g["table"] for g in games[:QUICK]} == {0, 1, 2, 3}


@pytest.fixture(params=["pure", "native"])
def kernel(request, monkeypatch):
    """Each search kernel in turn: the pure Python one, and the compiled one when it is built."""
    if request.param == "pure":
        monkeypatch.setattr(bots, "SEARCH", botsearch.Search)
    else:
        monkeypatch.delenv("HASHI_PURE_BOTS", raising=False)
        native = bots.search_class()
        if native is botsearch.Search:
            pytest.skip("the compiled kernel is not built (scripts/build_native_bots.py)")
        monkeypatch.setattr(bots, "SEARCH", native)
    return request.param


def test_the_bots_replay_the_first_recorded_games_move_for_move(kernel):
    # The C kernel replays all 1,000 in a few seconds; the pure one takes minutes for them (-m slow).
    assert first_divergence(0, QUICK if kernel == "pure" else 1000) is None


@pytest.mark.slow
def test_the_bots_replay_all_1000_recorded_games_move_for_move(kernel):
    assert first_divergence(0, 1000) is None


def test_a_changed_move_is_reported_with_its_game_and_turn():
    _, games = recorded()
    changed = dict(games[3])
    moves = changed["moves"].split(" ")
    moves[4] = "99.9/" if moves[4] != "99.9/" else "-/"
    changed["moves"] = " ".join(moves)
    found = divergence(3, changed)
    assert found is not None and found.startswith("game 3 (") and ", turn 5: recorded 99.9/" in found


def test_a_kernel_compiled_from_another_botsearch_is_left_unused(monkeypatch):
    assert_mirror_guard(monkeypatch, bots.NATIVE, [botsearch.__file__], "HASHI_PURE_BOTS", bots.search_class,
                        attr="Search", fallback=botsearch.Search)
