"""Board sides of the Hashi game: 18 labelled islands with flags, and the lanes between them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from hashi_print.checks import json_int, json_key, json_list, json_object, json_str
from hashi_print.errors import HashiError, LayoutError
from hashi_print.files import designed_json, read_json
from hashi_print.geometry import Geometry, build_geometry

ISLAND_COUNT = 18
MAX_SIDE_GRID = 40
# A side's name becomes part of file names (sheet-NAME-a4.pdf), so it is a plain word.
SIDE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}", re.ASCII)
FLAG_COUNTS = {"red": 4, "blue": 3}
LABELS = "ABCDEFGHIJKLMNOPQR"


@dataclass(frozen=True)
class BoardIsland:
    """One island of a board side: its printed label, grid position and flag (or None)."""

    label: str
    row: int
    col: int
    flag: str | None = None


@dataclass(frozen=True)
class BoardSide:
    """A board side: a rows x cols grid with 18 islands in reading order (index = label order)."""

    name: str
    rows: int
    cols: int
    islands: tuple[BoardIsland, ...]

    @cached_property
    def geometry(self) -> Geometry:
        """The lanes and crossings between this side's islands (island index = position here)."""
        return build_geometry(self.rows, self.cols, [(i.row, i.col) for i in self.islands])

    @cached_property
    def label_index(self) -> dict[str, int]:
        """Map an upper-case label to its island index."""
        return {isl.label.upper(): k for k, isl in enumerate(self.islands)}

    def island(self, label: str) -> int:
        """Return the index of the island with this label (any case); raise LayoutError if none."""
        try:
            return self.label_index[label.upper()]
        except KeyError:
            raise LayoutError(f"side {self.name} has no island {label!r}") from None

    @cached_property
    def flag_sets(self) -> dict[str, frozenset[int]]:
        """The islands of each flag colour, as sets (the goals test them on every move)."""
        return {flag: frozenset(self.flagged(flag)) for flag in FLAG_COUNTS}

    def flagged(self, flag: str) -> tuple[int, ...]:
        """Return the indexes of the islands carrying this flag."""
        return tuple(k for k, isl in enumerate(self.islands) if isl.flag == flag)

    def lane_name(self, lane: int) -> str:
        """Name a lane by its end labels, e.g. `C-K`."""
        ln = self.geometry.lanes[lane]
        return f"{self.islands[ln.a].label}-{self.islands[ln.b].label}"


def side_from_json(obj: object, source: str = "layout") -> BoardSide:
    """Build and check a BoardSide from a parsed `hashi-side/1` object."""
    if not isinstance(obj, dict) or obj.get("format") != "hashi-side/1":
        raise LayoutError('expected a JSON object with "format": "hashi-side/1"', source=source)
    try:
        rows = json_int(json_key(obj, "rows", "the side"), '"rows"', 2, MAX_SIDE_GRID)
        cols = json_int(json_key(obj, "cols", "the side"), '"cols"', 2, MAX_SIDE_GRID)
        items = json_list(json_key(obj, "islands", "the side"), '"islands"', longest=64)
        islands = tuple(_island_from_json(item, n) for n, item in enumerate(items, 1))
        name = json_str(obj["side"], '"side"') if "side" in obj else Path(source).stem
    except HashiError as err:
        raise LayoutError(err.message, source=source) from None
    if "side" in obj and not SIDE_NAME.fullmatch(name):
        raise LayoutError(f'"side" must be a plain name (letters, digits, - or _), got {name[:40]!r}',
                          source=source)
    side = BoardSide(name, rows, cols, islands)
    try:
        check_side(side)
    except LayoutError as err:
        raise err.located(source) from None
    return side


def _island_from_json(item: object, n: int) -> BoardIsland:
    """Check and build island number `n` of a side from its JSON object."""
    what = f"island {n}"
    obj = json_object(item, what)
    flag = obj.get("flag")
    if flag is not None and not isinstance(flag, str):
        raise LayoutError(f'{what}: "flag" must be "red", "blue" or null')
    return BoardIsland(json_str(json_key(obj, "label", what), f"{what} label", longest=4),
                       json_int(json_key(obj, "row", what), f"{what} row", 0, MAX_SIDE_GRID - 1),
                       json_int(json_key(obj, "col", what), f"{what} col", 0, MAX_SIDE_GRID - 1),
                       flag)


def side_to_json(side: BoardSide) -> dict[str, object]:
    """Return the `hashi-side/1` object for a side."""
    return {
        "format": "hashi-side/1", "side": side.name, "rows": side.rows, "cols": side.cols,
        "islands": [{"label": i.label, "row": i.row, "col": i.col, "flag": i.flag} for i in side.islands],
    }


def check_side(side: BoardSide) -> None:
    """Raise LayoutError naming the first way this side breaks the `hashi-side/1` constraints."""
    if side.rows < 2 or side.cols < 2:
        raise LayoutError(f"grid {side.rows}x{side.cols} is too small")
    if len(side.islands) != ISLAND_COUNT:
        raise LayoutError(f"a side has exactly {ISLAND_COUNT} islands, this one has {len(side.islands)}")
    seen: dict[tuple[int, int], str] = {}
    for isl in side.islands:
        if not (0 <= isl.row < side.rows and 0 <= isl.col < side.cols):
            raise LayoutError(f"island {isl.label} at ({isl.row},{isl.col}) is outside the "
                              f"{side.rows}x{side.cols} grid")
        if (isl.row, isl.col) in seen:
            raise LayoutError(f"islands {seen[(isl.row, isl.col)]} and {isl.label} share "
                              f"position ({isl.row},{isl.col})")
        seen[(isl.row, isl.col)] = isl.label
        if isl.flag not in (None, "red", "blue"):
            raise LayoutError(f"island {isl.label} has flag {isl.flag!r}; use \"red\", \"blue\" or null")
    order = sorted(side.islands, key=lambda i: (i.row, i.col))
    labels = [i.label.upper() for i in order]
    if labels != list(LABELS):
        raise LayoutError(f"labels must be A-R in reading order (by row, then column); got {''.join(labels)}")
    if [i.label.upper() for i in side.islands] != labels:
        raise LayoutError("islands must be listed in reading order (by row, then column)")
    for flag, want in FLAG_COUNTS.items():
        got = sum(1 for i in side.islands if i.flag == flag)
        if got != want:
            raise LayoutError(f"a side has exactly {want} {flag} flags, this one has {got}")
    lonely = [side.islands[k].label for k, lanes in enumerate(side.geometry.lanes_of) if not lanes]
    if lonely:
        raise LayoutError(f"island(s) {', '.join(lonely)} have no lane to any other island")


def load_side(path: str | Path) -> BoardSide:
    """Read and check a `hashi-side/1` file."""
    return side_from_json(read_json(path), str(path))


def builtin_side(name: str) -> BoardSide:
    """Load the designed side A or B shipped in the package."""
    key = name.strip().lower()
    if key not in ("a", "b"):
        raise LayoutError(f"unknown side {name!r}; the sides are A and B (or pass --layout FILE)")
    return side_from_json(designed_json(f"side-{key}.json"), f"layouts/side-{key}.json")
