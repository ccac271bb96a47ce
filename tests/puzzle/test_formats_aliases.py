"""Every name pzprjs gives Hashi in its URLs, and Tatham's random-seed IDs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from hashi_print.errors import FormatError
from hashi_print.i18n import language
from hashi_print.puzzle import formats
from hashi_print.puzzle.formats import (
    SGT_BRIDGES,
    TathamSeedError,
    format_puzzlink,
    format_tatham_id,
    parse_puzzle,
    parse_tatham_seed,
    tatham_descriptive_id,
)
from hashi_print.puzzle.generate import generate

SEED_ID = "7x7i30e10m2d0#123"


@pytest.mark.parametrize("name", ["hashi", "hashikake", "bridges",
                                  "hashi_edit", "hashikake_edit", "bridges_edit"])
@pytest.mark.parametrize("host", ["https://puzz.link/p?", "http://pzv.jp/p.html?", "p?"])
def test_every_pzprjs_name_reads_the_same_puzzle_and_round_trips(name, host):
    for seed in (1, 2):
        puzzle = generate(8, 7, "medium", random.Random(seed)).puzzle
        url = format_puzzlink(puzzle).replace("https://puzz.link/p?hashi/", f"{host}{name}/")
        assert parse_puzzle(url) == puzzle
        assert parse_puzzle(format_puzzlink(parse_puzzle(url))) == puzzle


def test_an_alias_url_decodes_to_the_grid_written_by_hand():
    # 3 columns, 2 rows: a 1 top left, water, a 2; a 1 bottom left, water (g = one empty cell), a 2
    puzzle = parse_puzzle("https://puzz.link/p?bridges/3/2/1g21g2")
    assert [(i.row, i.col, i.clue) for i in puzzle.islands] == [(0, 0, 1), (0, 2, 2), (1, 0, 1), (1, 2, 2)]
    assert parse_puzzle("https://puzz.link/p?hashikake_edit/3/2/1g21g2") == puzzle


def test_other_puzzle_types_are_not_read_as_hashi():
    with pytest.raises(FormatError):
        parse_puzzle("https://puzz.link/p?nurikabe/3/2/1g21g2")


def test_a_tatham_seed_id_is_recognised_with_its_parameters():
    seed = parse_tatham_seed(SEED_ID)
    assert (seed.width, seed.height, seed.islands, seed.expansion, seed.max_bridges, seed.difficulty,
            seed.seed) == (7, 7, 30, 10, 2, "easy", "123")
    assert parse_tatham_seed("7x7m2:3a2a2a2g6c7a6k2i3c1a2") is None
    with pytest.raises(TathamSeedError) as err:
        parse_puzzle(SEED_ID)
    assert "Game > Specific" in str(err.value) and err.value.seed == seed
    assert not formats.looks_like_path(SEED_ID)


def test_without_tathams_program_there_is_no_descriptive_id():
    assert tatham_descriptive_id(parse_tatham_seed(SEED_ID), program=Path("/nonexistent/sgt-bridges")) is None


def test_the_web_says_in_the_pages_language_how_to_get_the_descriptive_id(monkeypatch):
    from hashi_print.errors import PuzzleError
    from hashi_print.web.tasks import puzzle_view

    monkeypatch.setattr(formats, "SGT_BRIDGES", Path("/nonexistent/sgt-bridges"))
    with pytest.raises(PuzzleError) as err:
        puzzle_view(SEED_ID, "de")
    assert "Programm" in str(err.value) and "Game > Specific" in str(err.value) and SEED_ID in str(err.value)
    with language("en"), pytest.raises(PuzzleError) as err:
        puzzle_view(SEED_ID)
    assert "Game > Specific" in str(err.value)


@pytest.mark.skipif(not SGT_BRIDGES.exists(), reason=f"Tatham's Bridges is not installed ({SGT_BRIDGES}; "
                    "apt-get install sgt-puzzles)")
def test_with_tathams_program_the_seed_becomes_its_descriptive_id():
    from hashi_print.web.tasks import puzzle_view

    first = tatham_descriptive_id(parse_tatham_seed(SEED_ID))
    assert first == tatham_descriptive_id(parse_tatham_seed(SEED_ID)), "the same seed, the same puzzle"
    puzzle = parse_puzzle(first)
    assert (puzzle.cols, puzzle.rows) == (7, 7) and format_tatham_id(puzzle) == first
    assert puzzle_view(SEED_ID)["id"] == first
