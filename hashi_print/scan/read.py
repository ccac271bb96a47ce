"""Read one photographed sheet: markers -> homography -> fields -> the most probable consistent reading."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import numpy as np

from hashi_print.errors import LayoutError
from hashi_print.game.board import BoardSide, builtin_side
from hashi_print.game.deck import Deck
from hashi_print.game.scoring import Scoring
from hashi_print.i18n import _
from hashi_print.scan.align import aligned
from hashi_print.scan.fields import measure
from hashi_print.scan.register import PPM, UnreadableImage, ink_map, load_image, rectify, register
from hashi_print.scan.resolve import Settled, Uncertain, resolve
from hashi_print.scan.stakes import judged, staked
from hashi_print.sheets.formats import doubt_note
from hashi_print.sheets.layout import sheet_layout
from hashi_print.sheets.marks import Marks, marks_text
from hashi_print.sheets.validate import Report


class ScanStatus(StrEnum):
    """How far a reading can be trusted."""

    OK = "ok"
    REVIEW = "review"
    UNREADABLE = "unreadable"


@dataclass(frozen=True)
class Scan:
    """The reading of one picture: status, side and paper, the marks, doubtful fields and their validation."""

    file: str
    status: ScanStatus
    side: str | None = None
    paper: str | None = None
    marks: Marks | None = None
    uncertain: tuple[Uncertain, ...] = ()
    validation: Report | None = None
    error: str | None = None
    rectified: np.ndarray | None = None
    player_box: tuple[float, float, float, float] | None = None
    settled: tuple[Settled, ...] = ()

    @property
    def broken(self) -> bool:
        """True when read with confidence but a rule is broken."""
        return self.status is ScanStatus.OK and self.validation is not None and not self.validation.ok

    def sheet_text(self, side_text: str | None = None) -> str | None:
        """The reading as `hashi-sheet 1` text, doubtful fields marked with a trailing `?` comment."""
        if self.marks is None:
            return None
        text = marks_text(self.marks, side_text)
        if self.marks.lost_first:
            # The typed sheet has no line for it: kept as a note, and applied to the score read here.
            text += f"# first bonus box crossed off: {' '.join(sorted(self.marks.lost_first))}\n"
        # A doubtful value is written as read, never as if it were sure: each gets a `?` comment, which
        # `validate` reads back as not checkable.
        notes = [doubt_note(u.note()) for u in self.uncertain]
        return text + "".join(f"{note}\n" for note in notes)

    def to_json(self) -> dict[str, object]:
        """The contract JSON object of this reading."""
        out: dict[str, object] = {"file": self.file, "status": self.status.value, "side": self.side,
                                  "paper": self.paper}
        if self.marks is None:
            return out | {"error": self.error, "sheet": None, "validation": None}
        m = self.marks
        labels = [i.label for i in m.side.islands]
        out |= {
            "sheet": self.sheet_text(),
            "numbers": {labels[i]: v for i, v in enumerate(m.numerals) if v is not None},
            "bridges": {_lane_key(m.side, k): n for k, n in enumerate(m.bridges) if n},
            "circled": [labels[i] for i in sorted(m.circled)],
            "cards": sorted(m.cards),
            "bonus": dict(m.goals),
            "lost_first": sorted(m.lost_first),
            "uncertain": [u.to_json() for u in self.uncertain],
            "settled": [t.to_json() for t in self.settled],
            "validation": None if self.validation is None else self.validation.to_json(),
        }
        return out


def _lane_key(side: BoardSide, k: int) -> str:
    """A lane as `X-Y` with X before Y alphabetically."""
    lane = side.geometry.lanes[k]
    a, b = sorted((side.islands[lane.a].label, side.islands[lane.b].label))
    return f"{a}-{b}"


def scan_file(path: str | Path, deck: Deck, scoring: Scoring | None, layout: BoardSide | None = None) -> Scan:
    """Read one picture; an unreadable one gives status "unreadable" with the reason."""
    try:
        img = load_image(path)
        return scan_image(img, deck, scoring, layout, str(path))
    except UnreadableImage as err:
        return Scan(str(path), ScanStatus.UNREADABLE, error=str(err))


def scan_image(
    img: np.ndarray,
    deck: Deck,
    scoring: Scoring | None,
    layout: BoardSide | None = None,
    source: str = "image",
) -> Scan:
    """Read a BGR picture of a filled sheet."""
    reg = register(img, source)
    if layout is not None:
        side = layout
    elif reg.kind == "custom":
        raise UnreadableImage(
            "the sheet's markers name a board of your own; pass --layout FILE", source=source
        )
    else:
        side = builtin_side(reg.kind)
    try:
        lay = sheet_layout(side, reg.paper, len(deck.cards), custom=reg.kind == "custom")
    except LayoutError as err:
        raise UnreadableImage(str(err), source=source) from None
    sheet = rectify(img, reg)
    ink = ink_map(sheet)
    if float(np.mean(ink > 0.28)) > 0.35:
        raise UnreadableImage(_("the picture inside the markers is not a score sheet"), source=source)
    measured = measure(ink, side, aligned(ink, lay, PPM, side), PPM)
    resolved = resolve(measured, side, deck)
    report = judged(resolved.marks, deck, scoring, source)
    uncertain = staked(resolved.uncertain, resolved.marks, deck, scoring, measured.numerals)
    # Only a doubt that could change the score, the verdict or the race needs a person.
    status = ScanStatus.REVIEW if any(u.affects for u in uncertain) else ScanStatus.OK
    return Scan(
        source,
        status,
        side.name,
        reg.paper,
        resolved.marks,
        uncertain,
        report,
        None,
        sheet,
        lay.player,
        resolved.settled,
    )
