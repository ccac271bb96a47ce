"""The scan job: read photos or scans of filled score sheets, score them, and write what was read."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hashi_print.files import write_atomic
from hashi_print.game.board import load_side
from hashi_print.game.deck import load_deck
from hashi_print.game.scoring import load_scoring
from hashi_print.jobs.progress import Progress, no_progress
from hashi_print.scan.overlay import overlay_png, player_crop_png
from hashi_print.scan.read import Scan, ScanStatus, scan_file


@dataclass(frozen=True)
class ScanRequest:
    """The pictures to read, where to write the typed sheets and overlays, and a side, deck and scoring of
    one's own (None: the designed ones)."""

    images: tuple[str, ...]
    write_dir: str | None = None
    overlay: str | None = None
    layout: str | None = None
    deck: str | None = None
    scoring: str | None = None


@dataclass(frozen=True)
class ScanResult:
    """The reading of each picture, in the order given."""

    scans: tuple[Scan, ...]

    @property
    def verdict(self) -> str:
        """The worst outcome: unreadable, review (a field needs a person's look), broken (a rule) or ok."""
        statuses = {s.status for s in self.scans}
        if ScanStatus.UNREADABLE in statuses:
            return "unreadable"
        if ScanStatus.REVIEW in statuses:
            return "review"
        return "broken" if any(s.broken for s in self.scans) else "ok"


def scan_sheets(request: ScanRequest, progress: Progress = no_progress) -> ScanResult:
    """Read every picture; `progress(done, total)` is called after each one."""
    side = load_side(request.layout) if request.layout else None
    deck, scoring = load_deck(request.deck), load_scoring(request.scoring)
    scans = []
    for done, image in enumerate(request.images, start=1):
        result = scan_file(image, deck, scoring, side)
        scans.append(result)
        if result.marks is not None and request.overlay:
            write_atomic(_overlay_target(request, image), overlay_png(result, len(deck.cards)))
        if result.marks is not None and request.write_dir:
            _write_sheet(request, image, result)
        progress(done, len(request.images))
    return ScanResult(tuple(scans))


def _overlay_target(request: ScanRequest, image: str) -> Path:
    """Where an image's overlay goes: --overlay itself, or with several images IMAGE-NAME added to it."""
    target = Path(str(request.overlay))
    if len(request.images) > 1:
        target = target.with_name(f"{target.stem}-{Path(image).stem}{target.suffix or '.png'}")
    return target


def _write_sheet(request: ScanRequest, image: str, result: Scan) -> None:
    """Write the reading as a typed sheet and the player's name as a picture into --write-sheet."""
    side_text = f"layout {Path(request.layout).resolve()}" if request.layout else None
    folder = Path(str(request.write_dir))
    write_atomic(folder / f"{Path(image).name}.sheet.txt", result.sheet_text(side_text) or "")
    write_atomic(folder / f"{Path(image).name}.player.png", player_crop_png(result))
