"""Reading and writing classic puzzles: Tatham IDs, puzz.link URLs, text grids, .has files and JSON."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from hashi_print.checks import MAX_GRID, MAX_LIST, json_int, json_key, json_list
from hashi_print.errors import FormatError, HashiError
from hashi_print.files import BOM, existing_path, parse_json, read_text
from hashi_print.puzzle.model import Puzzle, Solution, cell_name

JSON_FORMAT = "hashi-puzzle/1"
# One puzzle read from a file: its line, the puzzle, its solution if given, and the other JSON keys.
PuzzleLine = tuple[int, Puzzle, Solution | None, dict[str, object]]
_TATHAM = re.compile(r"^([0-9]+)x([0-9]+)((?:m[0-9]+)?L?)(?:[a-zA-Z][0-9]*)*:([0-9A-Za-z]*)$")
# pzprjs names the puzzle hashikake, writes hashi in its URLs and accepts bridges; _edit opens its editor.
_PZPR_NAME = r"\?(?:hashi|hashikake|bridges)(?:_edit)?/"
_PUZZLINK = re.compile(rf"^(?:https?://)?[^?]*{_PZPR_NAME}([0-9]+)/([0-9]+)/([0-9a-z.+=%-]*)/?$")
# Tatham's random-seed IDs: parameters, '#', the seed of his own generator (7x7i30e10m2d0#123).
_TATHAM_SEED = re.compile(r"^([0-9]+)x([0-9]+)((?:[a-zA-Z][0-9.]*)*)#([0-9A-Za-z]{1,40})$")
_TATHAM_DIFFICULTY = ("easy", "medium", "hard")
SGT_BRIDGES = Path("/usr/games/sgt-bridges")
_DIGITS = re.compile(r"[0-9]{1,4}")
_ISLAND_DIGITS = "123456789ABCDEFG"
MAX_PUZZLES = 1000     # puzzles in one file (a book holds fewer)


def _build(width: int, height: int, islands: list[tuple[int, int, int]], source: str) -> Puzzle:
    """Make a Puzzle, naming the source in any error it raises."""
    try:
        return Puzzle.build(width, height, islands)
    except HashiError as err:
        raise err.located(source) from None


def _grid_size(width: str, height: str, source: str) -> tuple[int, int]:
    """Read a width and height given as digits, refusing grids smaller than 1x1 or larger than 60x60."""
    if not (_DIGITS.fullmatch(width) and _DIGITS.fullmatch(height)
            and 1 <= int(width) <= MAX_GRID and 1 <= int(height) <= MAX_GRID):
        raise FormatError(f"grid {width[:8]}x{height[:8]}: width and height must be 1 to {MAX_GRID}",
                          source=source)
    return int(width), int(height)


# --- Tatham descriptive IDs ---------------------------------------------------------------------

def parse_tatham_id(text: str, source: str = "ID") -> Puzzle:
    """Parse a Tatham Bridges ID such as `7x7m2:3c5a1c...` (m2 or no m; loops allowed)."""
    m = _TATHAM.match(text.strip())
    if not m:
        raise FormatError(f"not a Bridges ID (expected WxHm2:DESC): {text.strip()[:40]!r}", source=source)
    (width, height), params, desc = _grid_size(m[1], m[2], source), m[3], m[4]
    if params.startswith("m") and params.rstrip("L") != "m2":
        raise FormatError(f"only m2 puzzles (at most 2 bridges per lane) are supported, got {params!r}",
                          source=source)
    if params.endswith("L"):
        raise FormatError("puzzles that forbid loops (L) are not supported; hashi_print allows loops",
                          source=source)
    islands, pos = [], 0
    for ch in desc:
        if "a" <= ch <= "z":
            pos += ord(ch) - ord("a") + 1
        elif ch in _ISLAND_DIGITS:
            islands.append((pos // width, pos % width, _ISLAND_DIGITS.index(ch) + 1))
            pos += 1
        else:
            raise FormatError(f"unexpected character {ch!r} in the ID's description", source=source)
    if pos != width * height:
        raise FormatError(f"the description covers {pos} cells, but a {width}x{height} grid has "
                          f"{width * height}", source=source)
    return _build(width, height, islands, source)


def format_tatham_id(puzzle: Puzzle) -> str:
    """Write the Tatham Bridges ID (`WxHm2:DESC`) of a puzzle."""
    body = _run_length(puzzle, 26, "a", lambda clue: _ISLAND_DIGITS[clue - 1])
    return f"{puzzle.cols}x{puzzle.rows}m2:{body}"


def _run_length(puzzle: Puzzle, longest: int, first: str, clue_text: Callable[[int], str]) -> str:
    """Write the grid row-major: clues as `clue_text` gives them, water as runs of letters from `first`."""
    clue_at = {(i.row, i.col): i.clue for i in puzzle.islands}
    out, run = [], 0
    for pos in range(puzzle.cols * puzzle.rows):
        clue = clue_at.get(divmod(pos, puzzle.cols))
        if clue is None:
            run += 1
            continue
        out.append(_water_runs(run, longest, first))
        run = 0
        out.append(clue_text(clue))
    out.append(_water_runs(run, longest, first))
    return "".join(out)


def _water_runs(run: int, longest: int, first: str) -> str:
    """Encode `run` water cells as letters, each standing for 1..`longest` cells."""
    parts = []
    while run > 0:
        step = min(run, longest)
        parts.append(chr(ord(first) + step - 1))
        run -= step
    return "".join(parts)


@dataclass(frozen=True)
class TathamSeed:
    """A random-seed ID of Tatham's Bridges: its parameters and the seed of his generator (not a puzzle:
    the puzzle is whatever his program makes from the seed)."""

    text: str
    width: int
    height: int
    islands: int | None       # percent of the cells (i30)
    expansion: int | None     # percent (e10)
    max_bridges: int          # per lane (m2)
    difficulty: str | None    # d0 easy, d1 medium, d2 hard
    seed: str


class TathamSeedError(FormatError):
    """A Tatham random-seed ID where a puzzle was expected; `seed` holds what it names."""

    def __init__(self, seed: TathamSeed, source: str | None = None):
        super().__init__(f"{seed.text!r} is a random seed of Tatham's Bridges, not a puzzle: open it in "
                         "his program and copy the descriptive ID (Game > Specific...)", source=source)
        self.seed = seed


def parse_tatham_seed(text: str, source: str = "ID") -> TathamSeed | None:
    """Read a Tatham random-seed ID (`7x7i30e10m2d0#123`), or None when the text is not one."""
    m = _TATHAM_SEED.match(text.strip())
    if not m:
        return None
    width, height = _grid_size(m[1], m[2], source)
    found = dict(re.findall(r"([a-zA-Z])([0-9.]*)", m[3]))
    number = {k: int(float(v)) for k, v in found.items() if v and re.fullmatch(r"[0-9]+(?:\.[0-9]+)?", v)}
    level = number.get("d")
    return TathamSeed(text.strip(), width, height, number.get("i"), number.get("e"), number.get("m", 2),
                      _TATHAM_DIFFICULTY[level] if level is not None and level < 3 else None, m[4])


def tatham_descriptive_id(seed: TathamSeed, program: Path | None = None, timeout: float = 5.0) -> str | None:
    """Ask Tatham's own program (Debian's sgt-puzzles) for the descriptive ID of a seed, or None when it
    is not installed or gives no answer."""
    program = program or SGT_BRIDGES
    if not program.exists():
        return None
    try:
        done = subprocess.run([str(program), "--generate", "1", seed.text], capture_output=True, text=True,
                              timeout=timeout, check=False, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    lines = done.stdout.split()
    return lines[0] if done.returncode == 0 and len(lines) == 1 and _TATHAM.match(lines[0]) else None


# --- puzz.link URLs -----------------------------------------------------------------------------

def parse_puzzlink(url: str, source: str = "URL") -> Puzzle:
    """Parse a puzz.link Hashi URL such as `https://puzz.link/p?hashi/7/7/...`."""
    m = _PUZZLINK.match(url.strip())
    if not m:
        raise FormatError(f"not a puzz.link hashi URL: {url.strip()[:50]!r}", source=source)
    (width, height), body = _grid_size(m[1], m[2], source), m[3]
    islands, pos, i = [], 0, 0
    while i < len(body):
        ch = body[i]
        if ch in "0123456789abcdef":
            value, i = int(ch, 16), i + 1
        elif ch == "-" and _is_hex(body[i + 1:i + 3], 2):
            value, i = int(body[i + 1:i + 3], 16), i + 3
        elif ch in "+=%" and _is_hex(body[i + 1:i + 4], 3):
            value = int(body[i + 1:i + 4], 16) + {"+": 0, "=": 4096, "%": 8192}[ch]
            i += 4
        elif ch == ".":
            raise FormatError(f"the island at cell {pos + 1} has an unknown clue ('.'); "
                              "hashi_print needs every clue", source=source)
        elif "g" <= ch <= "z":
            pos += ord(ch) - ord("f")
            i += 1
            continue
        else:
            raise FormatError(f"unexpected character {ch!r} at position {i + 1} of the URL body",
                              source=source)
        if pos >= width * height:
            raise FormatError(f"the URL body places a clue beyond the {width}x{height} grid", source=source)
        islands.append((pos // width, pos % width, value))
        pos += 1
    if pos > width * height:
        raise FormatError(f"the URL body covers {pos} cells, but the grid has {width * height}",
                          source=source)
    return _build(width, height, islands, source)


def _is_hex(s: str, length: int) -> bool:
    """Tell whether `s` is exactly `length` lower-case hex digits."""
    return len(s) == length and all(c in "0123456789abcdef" for c in s)


def format_puzzlink(puzzle: Puzzle) -> str:
    """Write the puzz.link URL of a puzzle."""
    body = _run_length(puzzle, 20, "g", lambda clue: format(clue, "x"))
    return f"https://puzz.link/p?hashi/{puzzle.cols}/{puzzle.rows}/{body}"


# --- text grids and .has files ------------------------------------------------------------------

def parse_text_grid(text: str, source: str = "grid") -> Puzzle:
    """Parse a text grid: a row per line, `.`/`-`/`0` water, `1`-`8` clues, optional `rows cols` line."""
    lines = [(n, ln.split("#")[0].rstrip()) for n, ln in enumerate(text.removeprefix(BOM).splitlines(), 1)]
    lines = [(n, ln) for n, ln in lines if ln.strip()]
    if not lines:
        raise FormatError("the grid is empty", source=source)
    declared = None
    head = lines[0][1].split()
    if len(head) == 2 and all(_DIGITS.fullmatch(h) for h in head):
        rows, cols = int(head[0]), int(head[1])
        body = lines[1:]
        if len(body) == rows and all(len(_cells(ln)) == cols for _, ln in body):
            declared, lines = (rows, cols), body
    if not lines:
        raise FormatError(f"the header declares a {rows}x{cols} grid with no rows", source=source)
    if len(lines) > MAX_GRID:
        raise FormatError(f"the grid has {len(lines)} rows; at most {MAX_GRID} are allowed", source=source)
    grid = []
    for n, ln in lines:
        row = []
        cells = _cells(ln)
        if len(cells) > MAX_GRID:
            raise FormatError(f"the row has {len(cells)} cells; at most {MAX_GRID} are allowed",
                              source=source, line=n)
        for cell in cells:
            if cell in (".", "-", "0"):
                row.append(0)
            elif cell in "12345678" and len(cell) == 1:
                row.append(int(cell))
            else:
                raise FormatError(f"unexpected cell {cell!r}; use . - 0 for water and 1-8 for clues",
                                  source=source, line=n)
        grid.append((n, row))
    width = len(grid[0][1])
    for n, row in grid:
        if len(row) != width:
            raise FormatError(f"row has {len(row)} cells, the first row has {width}; the grid must be "
                              "rectangular", source=source, line=n)
    if declared and declared != (len(grid), width):
        raise FormatError(f"header says {declared[0]}x{declared[1]} but the grid is {len(grid)}x{width}",
                          source=source)
    islands = [(r, c, v) for r, (_, row) in enumerate(grid) for c, v in enumerate(row) if v]
    return _build(width, len(grid), islands, source)


def _cells(line: str) -> list[str]:
    """Split a grid row into cells: by white space when present, else one character each."""
    parts = line.split()
    return parts if len(parts) > 1 else list(line.strip())


def puzzle_text(puzzle: Puzzle) -> str:
    """Draw a puzzle as a text grid (`.` water, digits clues)."""
    grid = [["."] * puzzle.cols for _ in range(puzzle.rows)]
    for isl in puzzle.islands:
        grid[isl.row][isl.col] = str(isl.clue)
    return "\n".join("".join(row) for row in grid)


def solution_text(puzzle: Puzzle, solution: Solution) -> str:
    """Draw a solved puzzle: clues, `-`/`=` horizontal and `|`/`"` vertical bridges, `.` water."""
    grid = [list(row) for row in puzzle_text(puzzle).splitlines()]
    geo = puzzle.geometry
    for lane, k in zip(geo.lanes, solution.lane_counts(geo), strict=True):
        if k:
            mark = ("-=" if lane.horizontal else '|"')[k - 1]
            for r, c in lane.cells:
                grid[r][c] = mark
    return "\n".join("".join(row) for row in grid)


def parse_has(text: str, source: str = "has") -> Puzzle:
    """Parse a .has file: `rows cols islands`, then a line of integers per row (0 = water)."""
    lines = [(n, ln.split()) for n, ln in enumerate(text.removeprefix(BOM).splitlines(), 1) if ln.strip()]
    if not lines or len(lines[0][1]) != 3 or not all(_DIGITS.fullmatch(x) for x in lines[0][1]):
        raise FormatError("the first line must be `rows cols islands`", source=source, line=1)
    cols, rows = _grid_size(lines[0][1][1], lines[0][1][0], source)
    count = int(lines[0][1][2])
    body = lines[1:]
    if len(body) != rows:
        raise FormatError(f"expected {rows} rows after the header, found {len(body)}", source=source)
    islands = []
    for r, (n, cells) in enumerate(body):
        if len(cells) != cols:
            raise FormatError(f"expected {cols} numbers, found {len(cells)}", source=source, line=n)
        for c, cell in enumerate(cells):
            if not _DIGITS.fullmatch(cell):
                raise FormatError(f"{cell[:10]!r} is not a whole number", source=source, line=n)
            if int(cell):
                islands.append((r, c, int(cell)))
    if len(islands) != count:
        raise FormatError(f"the header announces {count} islands, the grid has {len(islands)}",
                          source=source, line=1)
    return _build(cols, rows, islands, source)


def format_has(puzzle: Puzzle) -> str:
    """Write a puzzle as a .has file."""
    grid = [[0] * puzzle.cols for _ in range(puzzle.rows)]
    for isl in puzzle.islands:
        grid[isl.row][isl.col] = isl.clue
    rows = [" ".join(str(v) for v in row) for row in grid]
    return "\n".join([f"{puzzle.rows} {puzzle.cols} {len(puzzle.islands)}", *rows]) + "\n"


# --- JSON ---------------------------------------------------------------------------------------

def puzzle_to_json(puzzle: Puzzle, solution: Solution | None = None, difficulty: str | None = None,
                   seed: object = None) -> dict[str, object]:
    """Return the `hashi-puzzle/1` object of a puzzle, with the optional keys that are known."""
    obj: dict[str, object] = {"format": JSON_FORMAT, "width": puzzle.cols, "height": puzzle.rows,
                 "islands": [[i.row, i.col, i.clue] for i in puzzle.islands]}
    if solution is not None:
        obj["solution"] = solution.as_lists()
    if difficulty is not None:
        obj["difficulty"] = difficulty
    if seed is not None:
        obj["seed"] = seed
    obj["id"] = format_tatham_id(puzzle)
    return obj


def puzzle_from_json(obj: object, source: str = "JSON") -> tuple[Puzzle, Solution | None, dict[str, object]]:
    """Read a `hashi-puzzle/1` object: the puzzle, its solution if given, and the other keys."""
    if not isinstance(obj, dict) or obj.get("format") != JSON_FORMAT:
        raise FormatError(f'expected a JSON object with "format": "{JSON_FORMAT}"', source=source)
    try:
        width = json_int(json_key(obj, "width", "the puzzle"), '"width"', 1, MAX_GRID)
        height = json_int(json_key(obj, "height", "the puzzle"), '"height"', 1, MAX_GRID)
        islands = [(r, c, k) for n, row in
                   enumerate(json_list(json_key(obj, "islands", "the puzzle"), '"islands"'), 1)
                   for r, c, k in [_int_row(row, 3, f"island {n}")]]
        solution = None
        if obj.get("solution") is not None:
            solution = Solution.from_lists(_int_row(row, 5, f"bridge {n}") for n, row in
                                           enumerate(json_list(obj["solution"], '"solution"'), 1))
    except HashiError as err:
        raise err.located(source) from None
    puzzle = _build(width, height, islands, source)
    if solution is not None:
        try:
            solution.lane_counts(puzzle.geometry)
        except HashiError as err:
            raise FormatError(f"solution: {err.message}", source=source) from None
    extra = {k: v for k, v in obj.items() if k not in ("format", "width", "height", "islands", "solution")}
    return puzzle, solution, extra


def _int_row(row: object, length: int, what: str) -> tuple[int, ...]:
    """Check one `[r, c, clue]` or `[r1, c1, r2, c2, k]` row: `length` whole numbers of grid size."""
    items = json_list(row, what, longest=length)
    if len(items) != length:
        raise FormatError(f"{what} must have {length} numbers, it has {len(items)}")
    return tuple(json_int(x, what, 0, MAX_GRID) for x in items)


# --- detection ----------------------------------------------------------------------------------

def parse_puzzle(text: str, source: str = "puzzle") -> Puzzle:
    """Parse a puzzle in any accepted form, telling the form from the text itself."""
    text = text.removeprefix(BOM)
    stripped = text.strip()
    if not stripped:
        raise FormatError("empty input: expected a Bridges ID, puzz.link URL, grid, .has or JSON",
                          source=source)
    if stripped.startswith("{"):
        return puzzle_from_json(parse_json(stripped, source), source)[0]
    if re.search(_PZPR_NAME, stripped):
        return parse_puzzlink(stripped, source)
    seed = parse_tatham_seed(stripped, source)
    if seed is not None:
        raise TathamSeedError(seed, source)
    if re.match(r"^\d+x\d+[^:\s]*:", stripped):
        return parse_tatham_id(stripped, source)
    first = stripped.splitlines()[0].split()
    if len(first) == 3 and all(x.isdigit() for x in first):
        return parse_has(stripped, source)
    return parse_text_grid(text, source)


def looks_like_path(arg: str) -> bool:
    """Tell whether a command-line argument names a file rather than holding a puzzle."""
    if re.search(_PZPR_NAME, arg) or re.match(r"^\d+x\d+[^:\s#]*[:#]", arg.strip()):
        return False
    return "/" in arg or "\\" in arg or Path(arg).suffix.lower() in (".txt", ".json", ".has", ".jsonl")


def read_puzzle(arg: str) -> Puzzle:
    """Read a puzzle from a command-line argument: a Bridges ID, a puzz.link URL or a file path."""
    path = existing_path(arg)
    if path is not None:
        return parse_puzzle(read_text(path), str(path))
    if looks_like_path(arg):
        raise FormatError("no such file", source=arg)
    return parse_puzzle(arg, "argument")


def read_puzzle_lines(path: str | Path) -> list[PuzzleLine]:
    """Read a file of puzzles, one per line (IDs, URLs or JSON objects), or one grid/.has/JSON puzzle."""
    return parse_puzzle_lines(read_text(path), str(path))


def _is_id_line(line: str) -> bool:
    """Whether a line starts like a Tatham ID or a puzz.link URL."""
    return "?hashi/" in line or re.match(r"^\d+x\d+[^:\s]*:", line) is not None


def parse_puzzle_lines(text: str, source: str) -> list[PuzzleLine]:
    """Parse puzzles one per line (IDs, URLs or JSON objects), or one grid/.has/JSON puzzle."""
    text = text.removeprefix(BOM)
    lines = [(n, ln.strip()) for n, ln in enumerate(text.splitlines(), 1)]
    lines = [(n, ln) for n, ln in lines if ln and not ln.startswith("#")]
    # A file that starts with an ID or URL holds one puzzle a line (so a bad line is named by its number);
    # one that starts with "{" does when every line does (else it is one JSON object over several lines).
    one_per_line = lines and (_is_id_line(lines[0][1]) or all(ln.startswith("{") for _, ln in lines))
    if not one_per_line:
        return [(1, parse_puzzle(text, source), None, {})]
    if len(lines) > MAX_PUZZLES:
        raise FormatError(f"the file holds {len(lines)} puzzles; at most {MAX_PUZZLES} are read",
                          source=source)
    out = []
    for n, ln in lines:
        try:
            if ln.startswith("{"):
                out.append((n, *puzzle_from_json(parse_json(ln, source), source)))
            else:
                out.append((n, parse_puzzle(ln, source), None, {}))
        except HashiError as err:
            raise FormatError(err.message, source=source, line=n) from None
    return out


# --- naming cells and the drawn-bridges STATE (`hashi-print hint --bridges`) -----------------

_ITEM = re.compile(r"^([A-Za-z]{1,3})([0-9]{1,3})\s*([-=])\s*([A-Za-z]{1,3})([0-9]{1,3})$")


def _parse_cell(letters: str, digits: str) -> tuple[int, int]:
    """Turn a name like C4 into (row, col), both 0-based."""
    col = 0
    for ch in letters.upper():
        col = col * 26 + (ord(ch) - 64)
    return int(digits) - 1, col - 1


def read_bridges(puzzle: Puzzle, arg: str) -> tuple[int, ...]:
    """Read drawn bridges from a command-line argument: the STATE itself or a file holding it."""
    body = arg.strip()
    if body and not body.startswith("[") and not _ITEM.match(re.split(r"[\s,;]+", body)[0]):
        if existing_path(body) is not None:
            return parse_bridges(puzzle, read_text(body), source=body)
        if looks_like_path(body):
            raise FormatError("no such file", source=body)
    return parse_bridges(puzzle, arg)


def parse_bridges(puzzle: Puzzle, text: str, source: str = "--bridges") -> tuple[int, ...]:
    """Read drawn bridges as lane counts: 'C4-C6 C4=E4' names or a JSON list of [r1, c1, r2, c2, k]."""
    body = text.removeprefix(BOM).strip()
    counts = [0] * len(puzzle.geometry.lanes)
    if body.startswith("["):
        try:
            rows = json_list(parse_json(body, source), "the bridges", longest=MAX_LIST)
            bridges = [_int_row(row, 5, f"bridge {n}") for n, row in enumerate(rows, 1)]
        except HashiError as err:
            raise FormatError(f"expected a JSON list of [r1, c1, r2, c2, k] rows: {err.message}",
                              source=source) from None
        for r1, c1, r2, c2, k in bridges:
            _add(puzzle, counts, (r1, c1), (r2, c2), k, f"[{r1}, {c1}, {r2}, {c2}]", source)
        return tuple(counts)
    items = [item for item in re.split(r"[\s,;]+", body) if item]
    if len(items) > MAX_LIST:
        raise FormatError(f"{len(items)} bridges; at most {MAX_LIST} are read", source=source)
    for item in items:
        m = _ITEM.match(item)
        if m is None:
            raise FormatError(f"cannot read {item[:20]!r}: write bridges like C4-C6 (one) or C4=C6 (two)",
                              source=source)
        p = _parse_cell(m.group(1), m.group(2))
        q = _parse_cell(m.group(4), m.group(5))
        _add(puzzle, counts, p, q, 2 if m.group(3) == "=" else 1, item, source)
    return tuple(counts)


def _add(puzzle: Puzzle, counts: list[int], p: tuple[int, int], q: tuple[int, int], k: int, item: str,
         source: str) -> None:
    """Add k bridges between cells p and q, which must be neighbouring islands."""
    geo = puzzle.geometry
    i, j = geo.index_of.get(p), geo.index_of.get(q)
    for cell, idx in ((p, i), (q, j)):
        if idx is None:
            raise FormatError(f"{item}: there is no island at {cell_name(*cell)}", source=source)
    lane = None if i is None or j is None else geo.lane_between(i, j)
    if lane is None:
        raise FormatError(f"{item}: {cell_name(*p)} and {cell_name(*q)} are not neighbours", source=source)
    if not 1 <= k <= 2:
        raise FormatError(f"{item}: a lane holds 1 or 2 bridges, not {k}", source=source)
    counts[lane] += k
    if counts[lane] > 2:
        raise FormatError(f"{item}: more than two bridges on {cell_name(*p)}-{cell_name(*q)}", source=source)
