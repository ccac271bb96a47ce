"""A paper player's sheet at a table: a photo read by the photo reader, its doubts settled by the player's
taps, or the sheet typed as `hashi-sheet 1` text."""

from __future__ import annotations

import base64
import dataclasses
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from hashi_print.errors import HashiError
from hashi_print.game.board import BoardSide
from hashi_print.game.deck import GOALS
from hashi_print.i18n import _
from hashi_print.jobs.table.model import TableError, TooLarge, designed_deck, designed_scoring
from hashi_print.scan.overlay import overlay_png
from hashi_print.scan.read import ScanStatus, scan_file
from hashi_print.scan.resolve import Value, first_box
from hashi_print.sheets.formats import Sheet, format_sheet, parse_sheet
from hashi_print.sheets.marks import Marks, sheet_of

MAX_PHOTO_BYTES = 12 * 1024 * 1024
MAX_PHOTO_PIXELS = 25_000_000
T = TypeVar("T")


@dataclass(frozen=True)
class Doubt:
    """A field the reader is unsure of: what it read, what else it may be, and what a misreading would
    change as the photo reader tells (the score, the verdict, the race); a doubt that changes any of them
    is settled by the player."""

    field: str
    where: str
    read: Value
    alternatives: tuple[Value, ...]
    confidence: float
    affects: tuple[str, ...]

    @property
    def matters(self) -> bool:
        """True when the answer changes the score, the verdict or the race."""
        return bool(self.affects)

    def to_json(self) -> dict[str, Any]:
        """The doubt as the page shows it."""
        return {"field": self.field, "where": self.where, "read": self.read,
                "alternatives": list(self.alternatives), "confidence": round(self.confidence, 3),
                "affects": list(self.affects), "matters": self.matters}


@dataclass(frozen=True)
class Reading:
    """A photo's reading kept until the player has settled its doubts: the marks, the doubts, the taps so
    far, the `scan --json` object and the overlay picture (PNG)."""

    marks: Marks
    doubts: tuple[Doubt, ...]
    settled: tuple[tuple[str, str, Value], ...]
    scan: dict[str, Any]
    overlay: bytes | None

    def open_doubts(self) -> tuple[Doubt, ...]:
        """The doubts that change the outcome and are not yet settled."""
        done = {(f, w) for f, w, _ in self.settled}
        return tuple(d for d in self.doubts if d.matters and (d.field, d.where) not in done)


def check_photo_size(width: int, height: int) -> None:
    """Refuse a picture with more pixels than a table takes."""
    if width * height > MAX_PHOTO_PIXELS:
        text = _("the photo has {width}x{height} pixels; a table takes at most {most} megapixels")
        raise TooLarge(text.format(width=width, height=height, most=MAX_PHOTO_PIXELS // 1_000_000))


def photo_dimensions(data: bytes) -> tuple[int, int]:
    """The width and height a picture's header declares, without decoding its pixels."""
    import io

    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as picture:
            return picture.size
    except (UnidentifiedImageError, OSError, ValueError):
        raise TableError(_("the photo is not a JPEG or PNG picture")) from None


def read_photo(data: bytes, side: BoardSide) -> Reading:
    """Read a photo of a filled sheet of `side`; the picture itself is deleted as soon as it is read."""
    if len(data) > MAX_PHOTO_BYTES:
        raise TooLarge(_("the photo is larger than {most} MB").format(most=MAX_PHOTO_BYTES // 2**20))
    check_photo_size(*photo_dimensions(data))
    deck, scoring = designed_deck(), designed_scoring()
    with tempfile.TemporaryDirectory(prefix="hashi-table-") as folder:
        path = Path(folder) / "photo"
        path.write_bytes(data)
        scan = scan_file(path, deck, scoring, None)
    if scan.status is ScanStatus.UNREADABLE or scan.marks is None:
        raise TableError(_("the photo cannot be read: {reason}").format(
            reason=(scan.error or "no sheet found").split(": ", 1)[-1]))
    if scan.marks.side.name != side.name:
        raise TableError(_("the photo shows a sheet of side {photo}; this table plays side {side}").format(
            photo=scan.marks.side.name, side=side.name))
    doubts = tuple(Doubt(u.field, u.where, u.read, tuple(u.alternatives), u.confidence, tuple(u.affects))
                   for u in scan.uncertain)
    obj = scan.to_json() | {"file": "photo"}
    return Reading(scan.marks, doubts, (), obj, overlay_png(scan, len(deck.cards)))


def settle_marks(marks: Marks, field: str, where: str, value: Value) -> Marks:
    """The marks with one field set to `value` (a numeral, a lane's bridges, a circle, a card, a goal's
    turn or its crossed-off first box)."""
    side = marks.side
    if field == "number":
        numerals = list(marks.numerals)
        numerals[side.label_index[where.upper()]] = value
        return dataclasses.replace(marks, numerals=tuple(numerals))
    if field == "bridges":
        k = next(k for k in range(len(side.geometry.lanes)) if side.lane_name(k) == where)
        bridges = list(marks.bridges)
        bridges[k] = int(value or 0)
        return dataclasses.replace(marks, bridges=tuple(bridges))
    if field == "circled":
        island = side.label_index[where.upper()]
        return dataclasses.replace(marks, circled=_toggled(marks.circled, island, bool(value)))
    if field == "card":
        return dataclasses.replace(marks, cards=_toggled(marks.cards, int(where), bool(value)))
    goal = next((g for g in GOALS if where in (g, first_box(g))), None)
    if goal is None:
        raise TableError(f"the sheet has no field {field} {where[:20]}")
    if where == first_box(goal):
        return dataclasses.replace(marks, lost_first=_toggled(marks.lost_first, goal, bool(value)))
    goals = [(g, t) for g, t in marks.goals if g != goal]
    if value is not None:
        goals.append((goal, int(value)))
    return dataclasses.replace(marks, goals=tuple(sorted(goals, key=lambda gt: (gt[1], GOALS.index(gt[0])))))


def _toggled(items: frozenset[T], item: T, present: bool) -> frozenset[T]:
    """The set with `item` in it or not."""
    return items | {item} if present else items - {item}


def settle(reading: Reading, field: object, where: object, value: object) -> Reading:
    """The reading with one doubt settled by the player: the value must be what was read or an alternative."""
    doubt = next((d for d in reading.doubts if d.field == field and d.where == where), None)
    if doubt is None:
        raise TableError(f"the reading has no doubt about {str(field)[:20]} {str(where)[:20]}")
    if value not in (doubt.read, *doubt.alternatives):
        shown = ", ".join(map(repr, (doubt.read, *doubt.alternatives)))
        raise TableError(f"{field} {where} can be settled as one of {shown}")
    kept = tuple(s for s in reading.settled if (s[0], s[1]) != (field, where))
    return dataclasses.replace(reading, settled=(*kept, (doubt.field, doubt.where, value)))


def settled_marks(reading: Reading) -> Marks:
    """The reading's marks with every tap applied."""
    marks = reading.marks
    for field, where, value in reading.settled:
        marks = settle_marks(marks, field, where, value)
    return marks


def with_setup(reading: Reading, setup: tuple[str, int] | None) -> Reading:
    """The reading with a doubt about the setup island's numeral settled by the setup the table knows."""
    if setup is None:
        return reading
    label, value = setup
    doubt = next((d for d in reading.doubts if d.field == "number" and d.where == label), None)
    if doubt is None or value not in (doubt.read, *doubt.alternatives):
        return reading
    return settle(reading, "number", label, value)


def setup_problem(numerals: tuple[int | None, ...], side: BoardSide, setup: tuple[str, int] | None,
                  giver: str) -> str | None:
    """Why a sheet's setup island disagrees with the setup its neighbour chose at the table, or None."""
    if setup is None:
        return None
    label, value = setup
    found = numerals[side.label_index[label]]
    if found == value:
        return None
    shown = _("no numeral") if found is None else str(found)
    return _("the sheet shows {found} on island {label}, but {giver} wrote {value} there at the setup: "
             "check the sheet and send it again").format(found=shown, label=label, giver=giver, value=value)


def final_sheet(marks: Marks, name: str) -> str:
    """The sheet a paper player hands in, as `hashi-sheet 1` text with their name."""
    return format_sheet(sheet_of(dataclasses.replace(marks, player=name)))


def typed_sheet(text: object, side: BoardSide, name: str, setup: tuple[str, int] | None = None,
                giver: str = "") -> str:
    """A sheet typed as `hashi-sheet 1` text for `side`, written back in the standard form with the name;
    its setup island must hold the numeral `giver` chose at the table (`setup`)."""
    if not isinstance(text, str) or len(text) > 20_000:
        raise TableError('"sheet" must be the hashi-sheet 1 text, at most 20000 characters')
    try:
        doc = parse_sheet(text, source="sheet")
    except HashiError as err:
        raise TableError(str(err)) from None
    if not isinstance(doc, Sheet):
        raise TableError(_("send the finished sheet (hashi-sheet 1); a paper player has no game record"))
    if doc.side.name != side.name:
        raise TableError(_("the sheet is for side {sheet}; this table plays side {side}").format(
            sheet=doc.side.name, side=side.name))
    numerals: list[int | None] = [None] * len(side.islands)
    for island, value, _line in doc.numerals:
        numerals[island] = value
    problem = setup_problem(tuple(numerals), side, setup, giver)
    if problem is not None:
        raise TableError(problem)
    return format_sheet(dataclasses.replace(doc, player=name))


def reading_json(reading: Reading) -> dict[str, Any]:
    """The reading as the page shows it: the `scan --json` object, the overlay, the doubts and the taps."""
    overlay = (None if reading.overlay is None
               else "data:image/png;base64," + base64.b64encode(reading.overlay).decode())
    return reading.scan | {"overlay": overlay, "doubts": [d.to_json() for d in reading.doubts],
                           "open": [d.to_json() for d in reading.open_doubts()],
                           "settled": [list(s) for s in reading.settled]}


def marks_json(marks: Marks) -> dict[str, Any]:
    """Marks as JSON for the store (the side is the table's)."""
    return {"numerals": list(marks.numerals), "bridges": list(marks.bridges),
            "circled": sorted(marks.circled),
            "cards": sorted(marks.cards), "goals": [list(g) for g in marks.goals],
            "lost_first": sorted(marks.lost_first)}


def marks_from_json(obj: dict[str, Any], side: BoardSide) -> Marks:
    """Marks stored by `marks_json`."""
    return Marks(side, tuple(obj["numerals"]), tuple(obj["bridges"]), frozenset(obj["circled"]),
                 frozenset(obj["cards"]), tuple((g, t) for g, t in obj["goals"]),
                 lost_first=frozenset(obj["lost_first"]))


def reading_to_json(reading: Reading) -> dict[str, Any]:
    """A reading as JSON for the store (the overlay is kept apart, as bytes)."""
    return {"marks": marks_json(reading.marks), "doubts": [d.to_json() for d in reading.doubts],
            "settled": [list(s) for s in reading.settled], "scan": reading.scan}


def reading_from_json(obj: dict[str, Any], side: BoardSide, overlay: bytes | None) -> Reading:
    """A reading stored by `reading_to_json`."""
    doubts = tuple(Doubt(d["field"], d["where"], d["read"], tuple(d["alternatives"]), d["confidence"],
                         tuple(d["affects"])) for d in obj["doubts"])
    return Reading(marks_from_json(obj["marks"], side), doubts, tuple(tuple(s) for s in obj["settled"]),
                   obj["scan"], overlay)
