"""Typed played sheets: finished sheets (`hashi-sheet 1`) and game records (`hashi-record 1`), and JSON.

JSON equivalents (same meaning, labels and items written as in the text form):
`{"format": "hashi-sheet/1", "side": "A" | "layout": FILE, "player": "Ann", "numbers": ["C3", ...],
  "bridges": ["C-D", "D=F", ...], "circled": ["C", ...], "cards": [1, 2, ...], "bonus": {"red": 9}}` and
`{"format": "hashi-record/1", "side": "A", "player": "Ann", "setup": "G4",
  "turns": [{"turn": 1, "card": "5/2", "number": "D5" | null, "bridges": ["D-G", "D-G"]}, ...]}`.
Items keep the line they came from (None for JSON) so that the validator can point at them.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from hashi_print.checks import visible
from hashi_print.errors import FormatError, HashiError
from hashi_print.files import BOM, parse_json, read_text
from hashi_print.game.board import BoardSide, builtin_side, load_side
from hashi_print.game.deck import CARDS_PLAYED, DECK_SIZE, GOALS, Card
from hashi_print.game.rules import Move

SHEET_HEADER = "hashi-sheet 1"
RECORD_HEADER = "hashi-record 1"
SHEET_KEYWORDS = ("side", "layout", "player", "numbers", "bridges", "circled", "cards", "bonus")
RECORD_KEYWORDS = ("side", "layout", "player", "setup", "turn")
LISTS = ("numbers", "bridges", "circled", "cards", "bonus")
# A comment that starts with this marks a value the writer (the photo reader) was not sure of.
DOUBT_MARK = "?"
MAX_DOUBTS = 200
# A full sheet has a few dozen words; this many means the file is something else.
MAX_WORDS = 2000
T = TypeVar("T")
MAX_NAME = 80

_NUMERAL = re.compile(r"([A-Za-z]+)([0-9]{1,3})", re.ASCII)
_BRIDGE = re.compile(r"([A-Za-z]+)([-=])([A-Za-z]+)", re.ASCII)
_LABEL = re.compile(r"[A-Za-z]+", re.ASCII)
_INT = re.compile(r"[0-9]{1,3}", re.ASCII)
_CARD = re.compile(r"([0-9]{1,3})/([0-9]{1,3})", re.ASCII)

Line = int | None


@dataclass(frozen=True)
class Sheet:
    """A finished sheet: what is on the paper after the game, each item with its source line.

    `numerals` holds (island, value, line) from the `numbers` lines; `bridges` one (island, island,
    line) per bridge drawn; `circled` and `cards` (card-strip positions, from 1) are None when the
    sheet does not give them; `bonus` holds (goal, turn, line).
    """

    source: str
    side: BoardSide
    player: str | None
    numerals: tuple[tuple[int, int, Line], ...]
    bridges: tuple[tuple[int, int, Line], ...]
    circled: tuple[tuple[int, Line], ...] | None = None
    cards: tuple[tuple[int, Line], ...] | None = None
    bonus: tuple[tuple[str, int, Line], ...] = ()
    side_line: Line = None
    doubtful: tuple[tuple[str, Line], ...] = ()  # `# ?` comments: values not checkable on this input

    kind = "sheet"


@dataclass(frozen=True)
class RecordTurn:
    """One turn of a game record: the card revealed, the numeral written and the bridges drawn.

    `bridges` holds one island pair per bridge; a pair that is no lane is kept for the validator.
    """

    number: int
    card: Card
    numeral: tuple[int, int] | None
    bridges: tuple[tuple[int, int], ...]
    line: Line = None


@dataclass(frozen=True)
class Record:
    """A game record: setup numeral (island, value, line) and the turns in order."""

    source: str
    side: BoardSide
    player: str | None
    setup: tuple[int, int, Line] | None
    turns: tuple[RecordTurn, ...]
    side_line: Line = None

    kind = "record"


def read_sheet(path: str | Path, layout: BoardSide | None = None) -> Sheet | Record:
    """Read a finished sheet or game record file (text or JSON); `layout` overrides its side."""
    p = Path(path)
    return parse_sheet(read_text(p), source=str(p), layout=layout, base=p.parent)


def parse_sheet(text: str, source: str = "sheet", layout: BoardSide | None = None,
                base: Path | None = None) -> Sheet | Record:
    """Parse the text or JSON form of a finished sheet or game record; errors name the line."""
    text = text.removeprefix(BOM)
    if text.lstrip().startswith("{"):
        return _parse_json(text, source, layout, base)
    lines = list(_meaningful(text))
    if not lines:
        raise FormatError(f"empty file; expected `{SHEET_HEADER}` or `{RECORD_HEADER}`", source=source)
    if sum(len(toks) for _, toks in lines) > MAX_WORDS:
        raise FormatError(f"more than {MAX_WORDS} words: too long for a sheet or record", source=source)
    first_no, first = lines[0]
    header = " ".join(t.lower() for t in first)
    if header not in (SHEET_HEADER, RECORD_HEADER):
        raise FormatError(f"expected `{SHEET_HEADER}` or `{RECORD_HEADER}` as the first line, got "
                          f"{' '.join(first)!r}", source=source, line=first_no)
    body = lines[1:]
    try:
        if header == SHEET_HEADER:
            sheet = _parse_sheet_lines(body, source, layout, base)
            return dataclasses.replace(sheet, doubtful=tuple(_doubt_notes(text)))
        return _parse_record_lines(body, source, layout, base)
    except HashiError as err:
        raise err.located(source) from None


def _meaningful(text: str) -> Iterator[tuple[int, list[str]]]:
    """Yield (line number, tokens) for each line that is not blank once comments are removed."""
    for no, raw in enumerate(text.splitlines(), start=1):
        tokens = raw.split("#", 1)[0].split()
        if tokens:
            yield no, tokens


def doubt_note(text: str) -> str:
    """A comment line marking a value as not sure (`validate` reads it back as not checkable)."""
    return f"# {DOUBT_MARK} {text}"


def _doubt_notes(text: str) -> Iterator[tuple[str, int]]:
    """Yield (note, line number) for each comment that marks a value as not sure."""
    found = 0
    for no, raw in enumerate(text.splitlines(), start=1):
        comment = raw.partition("#")[2].strip()
        if comment.startswith(DOUBT_MARK) and found < MAX_DOUBTS:
            found += 1
            yield comment.removeprefix(DOUBT_MARK).strip()[:MAX_NAME * 3], no


def _resolve_side(entries: list[tuple[int, list[str]]], layout: BoardSide | None,
                  base: Path | None) -> tuple[BoardSide, Line]:
    """Find the one `side X` or `layout FILE` line and load that side (or use the override)."""
    found = [(no, toks) for no, toks in entries if toks[0].lower() in ("side", "layout")]
    if len(found) > 1:
        raise FormatError(f"a second side/layout line (the first is line {found[0][0]})", line=found[1][0])
    if layout is not None:
        return layout, found[0][0] if found else None
    if not found:
        raise FormatError("expected a `side A`, `side B` or `layout FILE` line")
    no, toks = found[0]
    if len(toks) != 2:
        raise FormatError(f"expected `{toks[0].lower()}` and one word after it", line=no)
    return _load_side(toks[0].lower(), toks[1], base, no), no


def _load_side(keyword: str, value: str, base: Path | None, line: Line) -> BoardSide:
    """Load a built-in side or a layout file named by a sheet, as a located FormatError on failure."""
    try:
        if keyword == "side":
            return builtin_side(value)
        path = Path(value)
        if not path.is_absolute() and base is not None:
            path = base / path
        return load_side(path)
    except HashiError as err:
        raise FormatError(f"{keyword} {value}: {err}", line=line) from None
    except OSError as err:
        raise FormatError(f"{keyword} {value}: cannot read {getattr(err, 'filename', '') or value}: "
                          f"{err.strerror or err}", line=line) from None
    except ValueError as err:
        raise FormatError(f"{keyword} {value}: {err}", line=line) from None


def label_index(side: BoardSide, label: str, line: Line) -> int:
    """Return the island index of a label on `side`, or raise a located FormatError."""
    try:
        return side.label_index[label.upper()]
    except KeyError:
        labels = "".join(i.label for i in side.islands)
        raise FormatError(f"side {side.name} has no island {label!r} (labels are {labels[0]}-{labels[-1]})",
                          line=line) from None


def parse_numeral(side: BoardSide, token: str, line: Line) -> tuple[int, int]:
    """Parse `C3` into (island index, value)."""
    m = _NUMERAL.fullmatch(token)
    if not m:
        raise FormatError(f"expected a label and a numeral like C3, got {token!r}", line=line)
    return label_index(side, m.group(1), line), int(m.group(2))


def parse_bridge(side: BoardSide, token: str, line: Line) -> list[tuple[int, int]]:
    """Parse `C-D` (one bridge) or `C=D` (two bridges) into island pairs."""
    m = _BRIDGE.fullmatch(token)
    if not m:
        raise FormatError(f"expected a bridge like C-D (one) or C=D (two), got {token!r}", line=line)
    a, b = label_index(side, m.group(1), line), label_index(side, m.group(3), line)
    pair = (min(a, b), max(a, b))
    return [pair, pair] if m.group(2) == "=" else [pair]


def parse_card(token: str, line: Line) -> Card:
    """Parse `N/B` into a Card (numeral 1-6, bridges 1-3)."""
    m = _CARD.fullmatch(token)
    if not m or not (1 <= int(m.group(1)) <= 6 and 1 <= int(m.group(2)) <= 3):
        raise FormatError(f"expected a card like 5/2 (numeral 1-6 / bridges 1-3), got {token!r}", line=line)
    return Card(int(m.group(1)), int(m.group(2)))


def _parse_int(token: str, low: int, high: int, what: str, line: Line) -> int:
    """Parse a small whole number in [low, high]."""
    if not _INT.fullmatch(token) or not low <= int(token) <= high:
        raise FormatError(f"expected {what} ({low}-{high}), got {token!r}", line=line)
    return int(token)


def _parse_sheet_lines(entries: list[tuple[int, list[str]]], source: str, layout: BoardSide | None,
                       base: Path | None) -> Sheet:
    """Interpret the lines of a finished sheet after its header."""
    side, side_line = _resolve_side(entries, layout, base)
    player = None
    numerals: list[tuple[int, int, Line]] = []
    bridges: list[tuple[int, int, Line]] = []
    circled: list[tuple[int, Line]] | None = None
    cards: list[tuple[int, Line]] | None = None
    bonus_tokens: list[tuple[str, Line]] = []
    current: str | None = None
    for no, toks in entries:
        key = toks[0].lower()
        if key in SHEET_KEYWORDS:
            current, items = key, toks[1:]
        elif current in LISTS and not _looks_like_keyword(toks[0]):
            items = toks
        else:
            raise FormatError(f"unknown keyword {toks[0][:20]!r}; expected one of "
                              f"{', '.join(SHEET_KEYWORDS)}", line=no)
        if key in ("side", "layout"):
            current = None
        elif key == "player":
            player, current = _player(items, no), None
        elif current == "numbers":
            numerals.extend((*parse_numeral(side, t, no), no) for t in items)
        elif current == "bridges":
            bridges.extend((a, b, no) for t in items for a, b in parse_bridge(side, t, no))
        elif current == "circled":
            circled = (circled or []) + [(label_index(side, t, no), no) for t in items]
        elif current == "cards":
            cards = (cards or []) + [(_parse_int(t, 1, DECK_SIZE, "a card-strip position", no), no)
                                     for t in items]
        elif current == "bonus":
            bonus_tokens.extend((t, no) for t in items)
    return Sheet(source, side, player, tuple(numerals), tuple(bridges),
                 None if circled is None else tuple(circled), None if cards is None else tuple(cards),
                 _bonus_pairs(bonus_tokens), side_line)


def _player(words: list[str], line: Line) -> str | None:
    """The player's name from the words after `player` (None when there are none)."""
    name = visible(" ".join(words))
    if len(name) > MAX_NAME:
        raise FormatError(f"the player's name is longer than {MAX_NAME} characters", line=line)
    return name or None


def _looks_like_keyword(token: str) -> bool:
    """Tell a misspelt keyword (a word of letters) from the items that continue a list line."""
    return len(token) > 2 and token.isascii() and token.isalpha() and token.lower() not in GOALS


def _bonus_pairs(tokens: list[tuple[str, Line]]) -> tuple[tuple[str, int, Line], ...]:
    """Pair up `goal turn` tokens of bonus lines."""
    out = []
    for pos in range(0, len(tokens), 2):
        goal, no = tokens[pos]
        if goal.lower() not in GOALS:
            raise FormatError(f"expected a goal ({', '.join(GOALS)}) in the bonus list, got {goal!r}",
                              line=no)
        if pos + 1 >= len(tokens):
            raise FormatError(f"expected the turn on which {goal.lower()} was reached", line=no)
        turn_tok, turn_no = tokens[pos + 1]
        out.append((goal.lower(), _parse_int(turn_tok, 1, CARDS_PLAYED, "a turn number", turn_no), no))
    return tuple(out)


def _parse_record_lines(entries: list[tuple[int, list[str]]], source: str, layout: BoardSide | None,
                        base: Path | None) -> Record:
    """Interpret the lines of a game record after its header."""
    side, side_line = _resolve_side(entries, layout, base)
    player = None
    setup: tuple[int, int, Line] | None = None
    turns: list[RecordTurn] = []
    for no, toks in entries:
        key = toks[0].lower()
        if key in ("side", "layout"):
            continue
        if key == "player":
            player = _player(toks[1:], no)
        elif key == "setup":
            if setup is not None:
                raise FormatError(f"a second setup line (the first is line {setup[2]})", line=no)
            if len(toks) != 2:
                raise FormatError("expected `setup` and one label with its numeral, e.g. setup G4", line=no)
            setup = (*parse_numeral(side, toks[1], no), no)
        elif key == "turn":
            turns.append(_parse_turn(side, toks[1:], no, len(turns) + 1))
        else:
            raise FormatError(f"expected one of {', '.join(RECORD_KEYWORDS)}; got {toks[0]!r}", line=no)
    return Record(source, side, player, setup, tuple(turns), side_line)


def _parse_turn(side: BoardSide, toks: list[str], line: Line, expected: int) -> RecordTurn:
    """Parse `N card N/B number X bridges ...` (number and bridges default to `-`)."""
    if expected > CARDS_PLAYED:
        raise FormatError(f"a game has {CARDS_PLAYED} turns; this is turn {expected}", line=line)
    if not toks or not _INT.fullmatch(toks[0]) or int(toks[0]) != expected:
        got = toks[0] if toks else "nothing"
        raise FormatError(f"expected the turn number {expected} after `turn`, got {got!r}", line=line)
    parts: dict[str, list[str]] = {}
    key = None
    for tok in toks[1:]:
        if tok.lower() in ("card", "number", "bridges"):
            key = tok.lower()
            if key in parts:
                raise FormatError(f"`{key}` appears twice in turn {expected}", line=line)
            parts[key] = []
        elif key is None:
            raise FormatError(f"expected `card N/B` after `turn {expected}`, got {tok!r}", line=line)
        else:
            parts[key].append(tok)
    if "card" not in parts or len(parts["card"]) != 1:
        raise FormatError(f"expected `card N/B` (one card) in turn {expected}", line=line)
    card = parse_card(parts["card"][0], line)
    return RecordTurn(expected, card, *_turn_move(side, parts, line), line)


def _turn_move(side: BoardSide, parts: dict[str, list[str]],
               line: Line) -> tuple[tuple[int, int] | None, tuple[tuple[int, int], ...]]:
    """Parse the `number` and `bridges` parts of a turn; `-` or absence skips them."""
    number = parts.get("number", ["-"])
    if len(number) != 1:
        raise FormatError(f"expected one numeral (like D5) or - after `number`, got {' '.join(number)!r}",
                          line=line)
    numeral = None if number[0] == "-" else parse_numeral(side, number[0], line)
    bridge_toks = parts.get("bridges", ["-"])
    if bridge_toks == ["-"]:
        return numeral, ()
    if not bridge_toks:
        raise FormatError("expected bridges like D-G D=H, or - after `bridges`", line=line)
    pairs = tuple(p for t in bridge_toks for p in parse_bridge(side, t, line))
    return numeral, pairs


def _parse_json(text: str, source: str, layout: BoardSide | None, base: Path | None) -> Sheet | Record:
    """Parse the JSON form of a sheet or record; errors name the line (syntax) or the key."""
    obj = parse_json(text, source)
    if not isinstance(obj, dict) or obj.get("format") not in ("hashi-sheet/1", "hashi-record/1"):
        raise FormatError('expected a JSON object with "format": "hashi-sheet/1" or "hashi-record/1"',
                          source=source)
    try:
        side = layout if layout is not None else _json_side(obj, base)
        if obj["format"] == "hashi-sheet/1":
            return _json_sheet(obj, source, side)
        return _json_record(obj, source, side)
    except HashiError as err:
        raise err.located(source) from None


def _json_side(obj: Mapping[str, object], base: Path | None) -> BoardSide:
    """Load the side a JSON sheet names with "side" or "layout"."""
    for key in ("side", "layout"):
        if key in obj:
            return _load_side(key, _json_str(obj, key), base, None)
    raise FormatError('expected a "side" or "layout" key')


def _json_str(obj: Mapping[str, object], key: str) -> str:
    """Return obj[key] as a string, or raise FormatError naming the key."""
    value = obj.get(key)
    if not isinstance(value, str):
        raise FormatError(f'expected "{key}" to be a string, got {value!r}')
    return value


def _json_list(obj: Mapping[str, object], key: str, kind: type[T]) -> list[T]:
    """Return obj[key] as a list of `kind` items (empty when absent)."""
    value = obj.get(key, [])
    if not isinstance(value, list) or len(value) > MAX_WORDS or not all(
            isinstance(v, kind) and not isinstance(v, bool) for v in value):
        raise FormatError(f'expected "{key}" to be a list of {getattr(kind, "__name__", "items")}s')
    return value


def _json_sheet(obj: Mapping[str, object], source: str, side: BoardSide) -> Sheet:
    """Build a Sheet from its JSON object."""
    player = _player([_json_str(obj, "player")], None) if obj.get("player") is not None else None
    numerals = tuple((*parse_numeral(side, t, None), None) for t in _json_list(obj, "numbers", str))
    bridges = tuple((a, b, None) for t in _json_list(obj, "bridges", str)
                    for a, b in parse_bridge(side, t, None))
    circled = None
    if "circled" in obj:
        circled = tuple((label_index(side, t, None), None) for t in _json_list(obj, "circled", str))
    cards = None
    if "cards" in obj:
        cards = tuple((_parse_int(str(t), 1, DECK_SIZE, "a card-strip position", None), None)
                      for t in _json_list(obj, "cards", int))
    bonus_obj = obj.get("bonus", {})
    if not isinstance(bonus_obj, dict):
        raise FormatError('expected "bonus" to be an object like {"red": 9}')
    tokens: list[tuple[str, Line]] = []
    for goal, turn in bonus_obj.items():
        tokens += [(str(goal), None), (str(turn), None)]
    return Sheet(source, side, player, numerals, bridges, circled,
                 cards, _bonus_pairs(tokens))


def _json_record(obj: Mapping[str, object], source: str, side: BoardSide) -> Record:
    """Build a Record from its JSON object."""
    player = _player([_json_str(obj, "player")], None) if obj.get("player") is not None else None
    setup = None
    if obj.get("setup") is not None:
        setup = (*parse_numeral(side, _json_str(obj, "setup"), None), None)
    turns_obj = obj.get("turns", [])
    if not isinstance(turns_obj, list):
        raise FormatError('expected "turns" to be a list of turn objects')
    turns = []
    for pos, t in enumerate(turns_obj, start=1):
        if not isinstance(t, dict):
            raise FormatError(f"turn {pos}: expected an object with turn, card, number and bridges")
        if pos > CARDS_PLAYED:
            raise FormatError(f"a game has {CARDS_PLAYED} turns; this is turn {pos}")
        turn = t.get("turn", pos)
        if isinstance(turn, bool) or not isinstance(turn, int) or turn != pos:
            raise FormatError(f"expected turn {pos}, got {str(turn)[:20]!r}")
        number = t.get("number")
        if number is not None and not isinstance(number, str):
            raise FormatError(f'turn {pos}: expected "number" to be a string like "D5" or null')
        parts = {"number": [number or "-"], "bridges": _json_list(t, "bridges", str) or ["-"]}
        card = parse_card(str(t.get("card")), None)
        turns.append(RecordTurn(pos, card, *_turn_move(side, parts, None), None))
    return Record(source, side, player, setup, tuple(turns))


def _head_lines(header: str, side: BoardSide, player: str | None, side_text: str | None) -> list[str]:
    """The first lines of a sheet or record: the header, the side (or `side_text`) and the player."""
    name = written_name(player or "")
    return [header, side_text or f"side {side.name}"] + ([f"player {name}"] if name else [])


def written_name(name: str) -> str:
    """A player's name as a sheet or record line holds it: on one line, and with a full-width ＃ for #,
    which would start a comment (so "Ann #2" reads back as "Ann ＃2", not "Ann")."""
    return visible(" ".join(name.split())).replace("#", "\uff03")


def format_sheet(sheet: Sheet, side_text: str | None = None) -> str:
    """Write a finished sheet in the `hashi-sheet 1` text form (`side_text` replaces `side NAME`)."""
    label = [i.label for i in sheet.side.islands]
    lines = _head_lines(SHEET_HEADER, sheet.side, sheet.player, side_text)
    lines.append("numbers " + " ".join(f"{label[i]}{v}" for i, v, _ in sheet.numerals))
    lines.append("bridges " + " ".join(f"{label[a]}-{label[b]}" for a, b, _ in sheet.bridges))
    if sheet.circled is not None:
        lines.append("circled " + " ".join(label[i] for i, _ in sheet.circled))
    if sheet.cards is not None:
        lines.append("cards " + " ".join(str(p) for p, _ in sheet.cards))
    if sheet.bonus:
        lines.append("bonus " + " ".join(f"{g} {t}" for g, t, _ in sheet.bonus))
    return "\n".join(lines) + "\n"


def format_record(record: Record, side_text: str | None = None) -> str:
    """Write a game record in the `hashi-record 1` text form (`side_text` replaces `side NAME`)."""
    label = [i.label for i in record.side.islands]
    lines = _head_lines(RECORD_HEADER, record.side, record.player, side_text)
    if record.setup is not None:
        lines.append(f"setup {label[record.setup[0]]}{record.setup[1]}")
    for t in record.turns:
        num = "-" if t.numeral is None else f"{label[t.numeral[0]]}{t.numeral[1]}"
        bridges = " ".join(f"{label[a]}-{label[b]}" for a, b in t.bridges) or "-"
        lines.append(f"turn {t.number} card {t.card} number {num} bridges {bridges}")
    return "\n".join(lines) + "\n"


def record_from_moves(side: BoardSide, setup: tuple[int, int] | None, cards: Sequence[Card],
                      moves: Sequence[Move], player: str | None = None, source: str = "record") -> Record:
    """Build a Record from a played game: setup (island, value), the cards and the rules' Moves."""
    lanes = side.geometry.lanes
    turns = tuple(
        RecordTurn(n, card, move.numeral, tuple((lanes[k].a, lanes[k].b) for k in sorted(move.bridges)))
        for n, (card, move) in enumerate(zip(cards, moves, strict=True), start=1))
    return Record(source, side, player, None if setup is None else (*setup, None), turns)
