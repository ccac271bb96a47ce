"""Registration markers: standard OpenCV ArUco markers (4x4 dictionary) whose ids name side, paper and corner.

Each marker is a 6 x 6 grid of cells: a one-cell black border around 4 x 4 data bits taken from
OpenCV's predefined `DICT_4X4_50`, so any ArUco detector finds them. A white quiet zone of at least
one cell surrounds every marker on the sheet. Ids: `(side * 2 + paper) * 4 + corner`, with side
A = 0, B = 1, any other layout = 2; paper a4 = 0, letter = 1; corners in the order top-left,
top-right, bottom-right, bottom-left; so ids 0-23 are used.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import cv2

from hashi_print.i18n import N_
from hashi_print.options import Paper, values

DICTIONARY = "DICT_4X4_50"
BITS = 4
CELLS = BITS + 2
# Also the words the photo reader names a hidden marker with (translated where it is said).
CORNERS = (N_("top-left"), N_("top-right"), N_("bottom-right"), N_("bottom-left"))
SIDE_KINDS = ("A", "B", "custom")
PAPERS = values(Paper)  # the order is part of the marker ids: a4 first
Grid = tuple[tuple[int, ...], ...]


def aruco_dictionary() -> cv2.aruco.Dictionary:
    """The OpenCV predefined dictionary the sheet markers come from."""
    import cv2

    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY))


@cache
def marker_bits(marker_id: int) -> Grid:
    """Return the 4 x 4 data bits of a marker (1 = black), rows from the top."""
    import cv2

    img = cv2.aruco.generateImageMarker(aruco_dictionary(), marker_id, CELLS)
    return tuple(tuple(int(img[r + 1, c + 1] == 0) for c in range(BITS)) for r in range(BITS))


def side_kind(side_name: str, custom: bool = False) -> str:
    """The marker family of a side: "A", "B", or "custom" for any other board."""
    name = side_name.upper()
    return name if not custom and name in ("A", "B") else "custom"


def sheet_marker_ids(side_name: str, paper: str, custom: bool = False) -> tuple[int, int, int, int]:
    """The marker ids for the four corners of a sheet of this side on this paper."""
    base = (SIDE_KINDS.index(side_kind(side_name, custom)) * 2 + PAPERS.index(paper)) * 4
    return (base, base + 1, base + 2, base + 3)


def describe_id(marker_id: int) -> tuple[str, str, int] | None:
    """Return (side kind, paper, corner index) named by a marker id, or None for an id no sheet uses."""
    if not 0 <= marker_id < len(SIDE_KINDS) * len(PAPERS) * 4:
        return None
    group, corner = divmod(marker_id, 4)
    kind, paper = divmod(group, 2)
    return SIDE_KINDS[kind], PAPERS[paper], corner
