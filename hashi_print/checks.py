"""Typed, bounded values out of parsed JSON, and the checks of option values every reader applies."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from hashi_print.errors import FormatError, OptionError

MAX_GRID = 60          # classic puzzles: at most 60x60
MAX_LIST = 4000        # no list in any input needs more items (a 60x60 grid has 3600 cells)
MAX_TEXT = 200         # names, labels, words
MAX_SEED = 2**63 - 1   # seeds are whole numbers from 0 (Python's Random(-1) would repeat Random(1))


def json_int(value: object, what: str, low: int, high: int) -> int:
    """Return `value` when it is a whole JSON number (not a float or boolean) in [low, high]."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(f"{what} must be a whole number, got {_show(value)}")
    if not low <= value <= high:
        raise FormatError(f"{what} must be between {low} and {high}, got {value}")
    return value


def json_str(value: object, what: str, longest: int = MAX_TEXT) -> str:
    """Return `value` when it is a JSON string of at most `longest` characters."""
    if not isinstance(value, str):
        raise FormatError(f"{what} must be a string, got {_show(value)}")
    if len(value) > longest:
        raise FormatError(f"{what} is longer than {longest} characters")
    return value


def json_list(value: object, what: str, longest: int = MAX_LIST) -> list[object]:
    """Return `value` when it is a JSON list of at most `longest` items."""
    if not isinstance(value, list):
        raise FormatError(f"{what} must be a list, got {_show(value)}")
    if len(value) > longest:
        raise FormatError(f"{what} has {len(value)} items; at most {longest} are allowed")
    return value


def json_object(value: object, what: str, longest: int = 64) -> dict[str, object]:
    """Return `value` when it is a JSON object with at most `longest` keys."""
    if not isinstance(value, dict):
        raise FormatError(f"{what} must be an object, got {_show(value)}")
    if len(value) > longest:
        raise FormatError(f"{what} has {len(value)} keys; at most {longest} are allowed")
    return value


def json_key(obj: Mapping[str, object], key: str, what: str) -> object:
    """Return obj[key], or raise saying the key is missing."""
    if key not in obj:
        raise FormatError(f'{what} has no "{key}"')
    return obj[key]


def _show(value: object) -> str:
    """A short description of a JSON value for an error message."""
    names = {bool: "true/false", float: "a fraction", str: "a string", list: "a list", dict: "an object",
             type(None): "null", int: "a whole number"}
    return names.get(type(value), type(value).__name__)


# The bidirectional overrides and isolates, which can make a line read differently from what it holds.
_BIDI = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def visible(text: str) -> str:
    """`text` with every control character (a terminal escape, a line break) and bidi override written
    out as \\xNN or \\uNNNN, so printing it can never steer a terminal."""
    return "".join(_escaped(ch) if unicodedata.category(ch) == "Cc" or ch in _BIDI else ch for ch in text)


def _escaped(ch: str) -> str:
    """One character as a Python-style escape."""
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def check_seed(seed: int, option: str = "--seed") -> int:
    """Return `seed` when it is a seed: a whole number from 0 to MAX_SEED."""
    if not 0 <= seed <= MAX_SEED:
        raise OptionError(f"{option} {seed}: use a whole number from 0 to {MAX_SEED}")
    return seed


def check_isbn(isbn: str) -> str:
    """Return the ISBN without an "ISBN" prefix when its check digit is right (ISBN-13 or -10), else raise."""
    bare = re.sub(r"^\s*ISBN(?:-1[03])?:?\s*", "", isbn[:60], flags=re.IGNORECASE).strip()
    if not isbn:
        return isbn
    digits = re.sub(r"[\s-]", "", bare).upper()
    ok = False
    if re.fullmatch(r"97[89]\d{10}", digits):
        ok = sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(digits)) % 10 == 0
    elif re.fullmatch(r"\d{9}[\dX]", digits):
        ok = sum((10 - i) * (10 if d == "X" else int(d)) for i, d in enumerate(digits)) % 11 == 0
    if not ok:
        raise OptionError(f"--isbn {isbn[:40]!r} is not a valid ISBN-13 or ISBN-10 (check digit or length)")
    return bare
