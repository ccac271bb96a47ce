"""Round trips and error messages for every classic puzzle format."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hashi_print.errors import FormatError, HashiError
from hashi_print.geometry import build_geometry
from hashi_print.puzzle.formats import (
    format_has,
    format_puzzlink,
    format_tatham_id,
    parse_has,
    parse_puzzle,
    parse_puzzlink,
    parse_tatham_id,
    parse_text_grid,
    puzzle_from_json,
    puzzle_text,
    puzzle_to_json,
    read_puzzle,
    read_puzzle_lines,
    solution_text,
)
from hashi_print.puzzle.model import Puzzle, Solution

SAMPLE_ID = "7x7m2:3c5a1c1a1b2b2b2g4a5a4h2d2a"


@st.composite
def puzzles(draw) -> Puzzle:
    """Random valid puzzles: islands anywhere, each clue within what its lanes can carry."""
    width = draw(st.integers(2, 30))
    height = draw(st.integers(2, 30))
    cells = draw(st.sets(st.tuples(st.integers(0, height - 1), st.integers(0, width - 1)),
                         min_size=2, max_size=min(40, width * height)))
    geo = build_geometry(height, width, cells)
    islands = []
    for i, (r, c) in enumerate(geo.positions):
        reach = 2 * len(geo.lanes_of[i])
        if reach:
            islands.append((r, c, draw(st.integers(1, min(8, reach)))))
    # Dropping lane-less islands can leave a clue above what remains reachable.
    assume(islands)
    try:
        return Puzzle.build(width, height, islands)
    except HashiError:
        assume(False)


@settings(max_examples=150, deadline=None)
@given(puzzles())
def test_every_format_round_trips(puzzle: Puzzle) -> None:
    assert parse_tatham_id(format_tatham_id(puzzle)) == puzzle
    assert parse_puzzlink(format_puzzlink(puzzle)) == puzzle
    assert parse_has(format_has(puzzle)) == puzzle
    assert parse_text_grid(puzzle_text(puzzle)) == puzzle
    assert puzzle_from_json(json.loads(json.dumps(puzzle_to_json(puzzle))))[0] == puzzle
    assert parse_puzzle(format_tatham_id(puzzle)) == puzzle


def test_tatham_id_decodes_to_the_known_grid() -> None:
    puzzle = parse_tatham_id(SAMPLE_ID)
    assert puzzle_text(puzzle).splitlines()[0] == "3...5.1"
    assert (puzzle.cols, puzzle.rows, len(puzzle.islands)) == (7, 7, 13)
    assert format_tatham_id(puzzle) == SAMPLE_ID


def test_text_grid_with_header_and_spaces_matches_compact_form() -> None:
    spaced = parse_text_grid("3 3\n2 - 2\n- - -\n2 - 2\n")
    compact = parse_text_grid("2.2\n...\n2.2")
    assert spaced == compact
    assert [i.clue for i in spaced.islands] == [2, 2, 2, 2]


def test_json_keeps_solution_and_extra_keys() -> None:
    puzzle = parse_text_grid("2.2\n...\n2.2")
    sol = Solution.from_lists([[0, 0, 0, 2, 1], [0, 0, 2, 0, 1], [0, 2, 2, 2, 1], [2, 2, 2, 0, 1]])
    obj = puzzle_to_json(puzzle, sol, "easy", 7)
    back, back_sol, extra = puzzle_from_json(obj)
    assert back == puzzle and back_sol == sol
    assert extra == {"difficulty": "easy", "seed": 7, "id": "3x3m2:2a2c2a2"}


def test_solution_text_draws_bridges() -> None:
    puzzle = parse_text_grid("2.2\n...\n2.2")
    sol = Solution.from_lists([[0, 0, 0, 2, 1], [0, 0, 2, 0, 1], [0, 2, 2, 2, 1], [2, 0, 2, 2, 1]])
    assert solution_text(puzzle, sol) == "2-2\n|.|\n2-2"


@pytest.mark.parametrize(("text", "fragment"), [
    ("7x7m2:3c5a1c1a1b2b2b2g4a5a4h2d2", "covers 48 cells"),
    ("7x7m2:3c5a1c1a1b2b2b2g4a5a4h2d2a!", "not a Bridges ID"),
    ("7x7m3:3c5a1c1a1b2b2b2g4a5a4h2d2a", "only m2"),
    ("3x1m2:9a1", "clue 9"),
    ("3x1m2:1a!", "not a Bridges ID"),
    ("2.2\n..\n2.2", "rectangular"),
    ("2.x\n...", "unexpected cell 'x'"),
    ("9.1\n...", "unexpected cell '9'"),
    ("5.1\n...", "needs more bridges"),
    ("https://puzz.link/p?hashi/3/1/1.1", "unknown clue"),
    ("https://puzz.link/p?hashi/3/1/1g1g", "covers 4 cells"),
    ("2 2 2\n1 1\n0 1\n", "announces 2 islands"),
    ('{"format": "hashi-puzzle/1", "width": 2}', 'no "height"'),
    ("{oops", "not valid JSON"),
])
def test_bad_input_names_the_problem(text: str, fragment: str) -> None:
    with pytest.raises(HashiError) as err:
        parse_puzzle(text, "bad.txt")
    assert fragment in str(err.value)
    assert str(err.value).startswith("bad.txt")


def test_grid_error_names_the_line() -> None:
    with pytest.raises(FormatError) as err:
        parse_text_grid("2.2\n...\n2.2\n2x.", "g.txt")
    assert err.value.line == 4
    assert str(err.value).startswith("g.txt line 4:")


def test_read_puzzle_takes_files_ids_and_urls(tmp_path) -> None:
    puzzle = parse_tatham_id(SAMPLE_ID)
    path = tmp_path / "p.has"
    path.write_text(format_has(puzzle))
    assert read_puzzle(str(path)) == puzzle
    assert read_puzzle(SAMPLE_ID) == puzzle
    assert read_puzzle(format_puzzlink(puzzle)) == puzzle
    with pytest.raises(FormatError, match="no such file"):
        read_puzzle(str(tmp_path / "missing.txt"))


def test_puzzle_lines_name_the_bad_line(tmp_path) -> None:
    path = tmp_path / "list.txt"
    path.write_text(f"{SAMPLE_ID}\n# a comment\n{SAMPLE_ID[:-1]}\n")
    with pytest.raises(FormatError) as err:
        read_puzzle_lines(path)
    assert err.value.line == 3
    path.write_text(f"{SAMPLE_ID}\n{json.dumps(puzzle_to_json(parse_tatham_id(SAMPLE_ID)))}\n")
    assert [n for n, *_ in read_puzzle_lines(path)] == [1, 2]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789abcdefxm:.-\n {}\"?/hashi", max_size=60))
def test_random_text_never_crashes_the_parser(text: str) -> None:
    with contextlib.suppress(HashiError):
        parse_puzzle(text, "fuzz")


def test_a_header_with_no_rows_is_refused_in_one_line() -> None:
    with pytest.raises(HashiError, match="0x0 grid with no rows"):
        parse_puzzle("0 0", "grid.txt")
