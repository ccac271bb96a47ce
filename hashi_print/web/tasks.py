"""The work behind each web request: plain functions of plain values that return JSON-ready objects.

They run in the worker pool, so they take and return only picklable things. Each one calls the same
jobs (hashi_print/jobs: validate, the solo game) and library functions as the command line and returns
the same objects its `--json` prints; what is left here is the web's own shaping of puzzles for the
board and its size limits.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from typing import Any

from hashi_print.errors import FormatError, PuzzleError
from hashi_print.i18n import _, language
from hashi_print.jobs.score import validate_text
from hashi_print.jobs.solo import SoloRequest, Turn, card_json, deal_cards, play_solo, start_solo
from hashi_print.particles import korean_particles
from hashi_print.puzzle.deduce import check_state, hint, island_names, lane_name
from hashi_print.puzzle.formats import (
    format_tatham_id,
    parse_bridges,
    parse_puzzle,
    parse_tatham_seed,
    tatham_descriptive_id,
)
from hashi_print.puzzle.generate import generate
from hashi_print.puzzle.model import Puzzle, Solution, column_letters
from hashi_print.puzzle.progress import progress
from hashi_print.puzzle.solve import solve, solve_traced

MAX_SIDE = 30
MAX_GENERATE_SIDE = 20
MAX_ROUNDS_SHOWN = 60
MAX_EAGER_ISLANDS = 150
_DECLARED_SIZES = (
    re.compile(r"\A\s*(\d+)x(\d+)"),
    re.compile(r"\?hashi/(\d+)/(\d+)"),
    re.compile(r"\A\s*(\d+)[ \t]+(\d+)[ \t]+\d+[ \t]*$", re.MULTILINE),
    re.compile(r'"(?:width|height)"\s*:\s*(\d+)()'),
)
_BRIDGE_ITEM = re.compile(r"^[A-Za-z]{1,3}\d{1,3}[-=][A-Za-z]{1,3}\d{1,3}$")


@lru_cache(maxsize=512)
def read_web_puzzle(text: str) -> Puzzle:
    """Parse a puzzle sent by a browser, refusing grids larger than the web app serves.

    Cached: a player sends the same puzzle with every move, and the puzzle keeps its lanes and crossings.
    """
    for pattern in _DECLARED_SIZES:
        for match in pattern.finditer(text):
            if any(len(n) > 4 or int(n) > MAX_SIDE for n in match.groups() if n):
                raise PuzzleError(f"puzzles here are at most {MAX_SIDE}x{MAX_SIDE}")
    puzzle = parse_puzzle(text, "puzzle")
    if puzzle.cols > MAX_SIDE or puzzle.rows > MAX_SIDE:
        raise PuzzleError(f"puzzles here are at most {MAX_SIDE}x{MAX_SIDE}, "
                          f"this one is {puzzle.cols}x{puzzle.rows}")
    return puzzle


def _drawn(puzzle: Puzzle, bridges: str) -> tuple[int, ...]:
    """Read the bridges drawn so far ('A1=E1 C4-C6'); never a file name, unlike the command line."""
    items = [t for t in re.split(r"[\s,;]+", bridges.strip()) if t]
    for item in items:
        if not _BRIDGE_ITEM.match(item):
            raise FormatError(f"cannot read {item[:20]!r}: write bridges like C4-C6 (one) or C4=C6 (two)",
                              source="bridges")
    counts = parse_bridges(puzzle, " ".join(items), source="bridges")
    check_state(puzzle, counts)
    return counts


def _descriptive(text: str) -> str:
    """The text itself, or for a Tatham random-seed ID the descriptive ID his installed program makes of
    it; without the program, one sentence (in the current language) on how to get that ID."""
    seed = parse_tatham_seed(text)
    if seed is None:
        return text
    if seed.width > MAX_SIDE or seed.height > MAX_SIDE:
        raise PuzzleError(f"puzzles here are at most {MAX_SIDE}x{MAX_SIDE}")
    found = tatham_descriptive_id(seed)
    if found is None:
        raise PuzzleError(_("{id} is a random seed of Simon Tatham's Bridges, which only his program turns "
                            "into a puzzle: open it there with Game > Specific..., then paste the "
                            "descriptive ID shown (like 7x7m2:3a2a...).").format(id=seed.text))
    return found


def puzzle_view(text: str, lang: str = "en") -> dict[str, Any]:
    """The puzzle as the board draws it: islands with names, lanes with their cells, crossings."""
    with language(lang):
        puzzle = read_web_puzzle(_descriptive(text))
    geo = puzzle.geometry
    names = island_names(puzzle)
    return {
        "id": format_tatham_id(puzzle),
        "width": puzzle.cols, "height": puzzle.rows, "rows": puzzle.rows, "cols": puzzle.cols,
        "col_names": [column_letters(c) for c in range(puzzle.cols)],
        "islands": [{"row": i.row, "col": i.col, "clue": i.clue, "name": names[k]}
                    for k, i in enumerate(puzzle.islands)],
        "lanes": [{"a": ln.a, "b": ln.b, "horizontal": ln.horizontal,
                   "name": lane_name(puzzle, ln.index, names), "cells": [list(c) for c in ln.cells]}
                  for ln in geo.lanes],
        "crossings": [list(c) for c in geo.crossings],
    }


def solve_task(text: str, mode: str, backend: str, card: str) -> dict[str, Any]:
    """The `solve --json` object plus the lab's statistics and the cut rounds drawn step by step."""
    puzzle = read_web_puzzle(text)
    if mode == "eager" and len(puzzle.islands) > MAX_EAGER_ISLANDS:
        # The reachability encoding grows with the square of the island count.
        raise PuzzleError(f"eager mode takes at most {MAX_EAGER_ISLANDS} islands here; "
                          f"this puzzle has {len(puzzle.islands)}")
    traced = solve_traced(puzzle, mode, backend, card)
    result = traced.result
    names = island_names(puzzle)
    geo = puzzle.geometry
    rounds = [{"bridges": Solution.from_lane_counts(geo, r.counts).as_lists(),
               "groups": [[names[i] for i in g] for g in r.groups],
               "cuts": [[lane_name(puzzle, k, names) for k in cut] for cut in r.cuts]}
              for r in traced.rounds[:MAX_ROUNDS_SHOWN]]
    return {
        "status": result.status,
        "solution": result.solution.as_lists() if result.solution else None,
        "seconds": round(result.seconds, 6),
        "stats": {"variables": traced.variables, "clauses": traced.clauses, "cuts": result.cuts,
                  "rounds": len(traced.rounds), "seconds": round(result.seconds, 6)},
        "rounds": rounds,
        "mode": mode, "backend": backend, "card": card,
    }


def hint_task(text: str, bridges: str, lang: str = "en") -> object:
    """The `hint --json` object for the bridges drawn so far, its sentences in `lang`, or None when
    nothing is left to deduce."""
    puzzle = read_web_puzzle(text)
    with language(lang):
        return worded(hint(puzzle, _drawn(puzzle, bridges)).to_json(), lang)


def worded(obj: object, lang: str) -> object:
    """Sentences made for `lang`, finished: in Korean each paired particle takes the form its word needs."""
    if lang != "ko":
        return obj
    if isinstance(obj, str):
        return korean_particles(obj)
    if isinstance(obj, list):
        return [worded(x, lang) for x in obj]
    if isinstance(obj, dict):
        return {k: worded(v, lang) for k, v in obj.items()}
    return obj


@lru_cache(maxsize=256)
def _solved(puzzle_id: str) -> tuple[str, Solution | None]:
    """How many solutions a puzzle has ("none", "unique", "multiple") and its solution when unique
    (cached: a page checks the same puzzle many times)."""
    result = solve(parse_puzzle(puzzle_id, "puzzle"))
    return result.status, result.solution if result.status == "unique" else None


def check_task(text: str, bridges: str) -> dict[str, Any]:
    """Compare the bridges drawn with the unique solution: wrong lanes, over-full, complete, cut-off and
    starved islands, and whether the puzzle has no, one or several solutions."""
    puzzle = read_web_puzzle(text)
    status, solution = _solved(format_tatham_id(puzzle))
    return {**progress(puzzle, _drawn_loose(puzzle, bridges), solution).to_json(),
            "unique": solution is not None, "solutions": status}


def _drawn_loose(puzzle: Puzzle, bridges: str) -> tuple[int, ...]:
    """Read drawn bridges that may over-fill islands (the player sees them red); lanes still hold 2."""
    counts = [0] * len(puzzle.geometry.lanes)
    for item in (t for t in re.split(r"[\s,;]+", bridges.strip()) if t):
        one = _drawn_item(puzzle, item)
        counts = [a + b for a, b in zip(counts, one, strict=True)]
    for k, x in enumerate(counts):
        if x > 2:
            raise PuzzleError(f"lane {lane_name(puzzle, k)} has {x} bridges; at most 2 fit")
    return tuple(counts)


def _drawn_item(puzzle: Puzzle, item: str) -> tuple[int, ...]:
    """Read one bridge item on an otherwise empty board (so a single item never over-fills)."""
    if not _BRIDGE_ITEM.match(item):
        raise FormatError(f"cannot read {item[:20]!r}: write bridges like C4-C6 (one) or C4=C6 (two)",
                          source="bridges")
    # Reading checks no clue, so a double bridge to a 1 comes back as drawn (the player sees it red).
    return parse_bridges(puzzle, item, source="bridges")


def generate_task(width: int, height: int, difficulty: str, seed: int) -> dict[str, Any]:
    """Generate one puzzle of exactly this grade from `seed`: its Tatham ID, grade and seed."""
    if not (5 <= width <= MAX_GENERATE_SIDE and 5 <= height <= MAX_GENERATE_SIDE):
        raise PuzzleError(f"width and height go from 5 to {MAX_GENERATE_SIDE} here")
    made = generate(width, height, difficulty, random.Random(seed))
    return {"puzzle": format_tatham_id(made.puzzle), "grade": str(made.grade), "seed": seed}


def validate_task(text: str) -> dict[str, Any]:
    """The `validate --json` object for a sheet or record typed in a browser (built-in sides only)."""
    if re.search(r"^\s*layout\b|\"layout\"\s*:", text, re.MULTILINE | re.IGNORECASE):
        raise FormatError("the web app reads no layout files; name `side A` or `side B`", source="sheet")
    return validate_text(text).to_json()


# --- the roll-and-write game: jobs/solo.py ----------------------------------------------------

def deal_task(seed: int) -> dict[str, Any]:
    """Shuffle the deck with `seed`, put one card away unseen and return the 17 others in order."""
    return {"seed": seed, "cards": [card_json(c) for c in deal_cards(seed)]}


def game_task(side_name: str, level: str, seed: int) -> dict[str, Any]:
    """Start a solo game: the sheet's side, the goals with their turn limits, bonus values and ratings."""
    return start_solo(side_name, level, seed).to_json()


def play_task(side_name: str, level: str, seed: int, setup: str | None, turns: list[dict[str, Any]],
              player: str | None = None, lang: str = "en") -> object:
    """Replay a solo game with the rules engine; refuse the last turn with the reason (in `lang`) if it
    breaks a rule."""
    played = tuple(Turn(t.get("number"), tuple(t.get("bridges", []))) for t in turns)
    with language(lang):
        position = play_solo(SoloRequest(side_name, level, seed, setup, played, player))
        return worded(position.to_json(), lang)
