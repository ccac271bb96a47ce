"""Find the sheet in a picture: load the image, detect the ArUco corner markers, rectify by homography."""

from __future__ import annotations

import io
import itertools
import logging
import math
import warnings
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np
from babel.lists import format_list

from hashi_print.errors import FormatError
from hashi_print.files import read_capped
from hashi_print.i18n import _, current_language, ngettext
from hashi_print.sheets.markers import CORNERS, aruco_dictionary, describe_id
from hashi_print.sheets.paper import PAPER

if TYPE_CHECKING:
    from PIL import Image

PPM = 6.0  # pixels per millimetre of the rectified sheet
DETECT_SIDE = 1800  # longest side (px) the marker search runs at
MIN_PIXELS = 300_000
MAX_PIXELS = 60_000_000
MAX_BYTES = 80 * 1024 * 1024
DECODE_PIXELS = 4_000_000  # above this a JPEG is decoded at a reduced size
MAX_SIGHTINGS = 64  # choices of one sighting per marker id tried (sheets side by side show ids twice)


class UnreadableImage(FormatError):
    """The picture holds no readable sheet (no image, no markers, too few of them)."""


@dataclass(frozen=True)
class Registration:
    """Where the sheet lies in the picture: its marker family, paper, and page-mm -> image-px homography."""

    kind: str
    paper: str
    homography: np.ndarray
    markers: tuple[int, ...]

    @property
    def page(self) -> tuple[float, float]:
        """Page width and height in mm."""
        return PAPER[self.paper]


def load_image(path: str | Path) -> np.ndarray:
    """Read a JPEG/PNG (or the scanned image inside a PDF's first page) as a BGR array."""
    p = Path(path)
    if p.is_dir():
        raise UnreadableImage("is a folder, not an image", source=str(p))
    try:
        data = read_capped(p, MAX_BYTES)
    except FormatError as err:
        raise UnreadableImage(err.message, source=str(p)) from None
    pdf = data[:5] == b"%PDF-"
    picture = _pdf_picture(data, p) if pdf else _picture(data, p)
    width, height = picture.size
    if width * height > MAX_PIXELS:
        raise _too_large(p)
    if width * height < MIN_PIXELS:
        raise UnreadableImage(
            _("image is too small ({width}x{height}); photograph the whole sheet at 1 megapixel or "
              "more").format(width=width, height=height),
            source=str(p),
        )
    return _pixels(picture, p, _reduction(width * height) if picture.format == "JPEG" else 1)


def _reduction(pixels: int) -> int:
    """How many times smaller a JPEG of this many pixels is decoded: a big one at half or quarter size,
    straight from its DCT (faster, and still several pixels per millimetre more than the reading needs)."""
    return 4 if pixels > 4 * DECODE_PIXELS else 2 if pixels > DECODE_PIXELS else 1


def _too_large(p: Path) -> UnreadableImage:
    """The error for a picture of more pixels than the reader takes."""
    return UnreadableImage(f"image is larger than {MAX_PIXELS // 1_000_000} megapixels", source=str(p))


def _picture(data: bytes, p: Path) -> Image.Image:
    """The file as a Pillow image, its header read but its pixels not yet decoded."""
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            # Pillow warns about a huge picture or a damaged header; load_image says what matters in one line.
            warnings.simplefilter("ignore")
            return Image.open(io.BytesIO(data))
    except Image.DecompressionBombError:
        raise _too_large(p) from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        raise UnreadableImage("not an image (expected JPEG, PNG or a PDF page)", source=str(p)) from None


def _pixels(picture: Image.Image, p: Path, reduce: int) -> np.ndarray:
    """A Pillow image's pixels as a BGR array, `reduce` times smaller, turned upright as its EXIF says.

    Pillow decodes here, not OpenCV: the JPEG and PNG libraries under OpenCV print their complaints about
    a damaged file to the terminal, where the user should see one line.
    """
    from PIL import Image, ImageOps

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. a damaged EXIF block: the turn it holds is then skipped
            if reduce > 1:
                picture.draft("RGB", (picture.width // reduce, picture.height // reduce))
            picture.load()
            ImageOps.exif_transpose(picture, in_place=True)
            rgb = np.asarray(picture if picture.mode == "RGB" else picture.convert("RGB"))
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError) as err:
        raise UnreadableImage(f"damaged image ({_one_line(err)})", source=str(p)) from None
    return np.ascontiguousarray(rgb[:, :, ::-1])


def _one_line(err: Exception) -> str:
    """An error's text on one short line, however the library words it."""
    return " ".join(str(err).split())[:120] or type(err).__name__


def _pdf_picture(data: bytes, p: Path) -> Image.Image:
    """The largest image on a PDF's first page (what a scanner writes), as a Pillow image."""
    from PIL import Image
    from pypdf import PdfReader
    from pypdf.errors import LimitReachedError, PdfReadError

    # pypdf logs what it repairs in a damaged file; the one line below says what matters.
    log = logging.getLogger("pypdf")
    level = log.level
    log.setLevel(logging.CRITICAL)
    try:
        images = list(PdfReader(io.BytesIO(data)).pages[0].images)
        picture = max(images, key=lambda im: len(im.data)).image if images else None
    # A damaged file, or an image Pillow cannot open (pypdf hands a page's image streams to Pillow).
    except LimitReachedError:
        raise _too_large(p) from None
    except (
        PdfReadError,
        OSError,
        IndexError,
        KeyError,
        ValueError,
        TypeError,
        NotImplementedError,
        Image.DecompressionBombError,
    ) as err:
        raise UnreadableImage(f"cannot read the PDF ({_one_line(err)})", source=str(p)) from None
    finally:
        log.setLevel(level)
    if picture is None:
        raise UnreadableImage(
            "the PDF's first page holds no scanned image (print the sheet, fill it, "
            "then scan or photograph it)",
            source=str(p),
        )
    return picture


def marker_page_corners(kind: str, paper: str) -> dict[int, np.ndarray]:
    """Page positions (mm) of the four outer corners of each marker of a sheet, by marker id."""
    from hashi_print.sheets.layout import MARGIN, MARKER

    w, h = PAPER[paper]
    origins = (
        (MARGIN, MARGIN),
        (w - MARGIN - MARKER, MARGIN),
        (w - MARGIN - MARKER, h - MARGIN - MARKER),
        (MARGIN, h - MARGIN - MARKER),
    )
    out = {}
    for marker_id in range(24):
        found = describe_id(marker_id)
        if found is None:
            continue
        k, pap, corner = found
        if k == kind and pap == paper:
            x, y = origins[corner]
            out[marker_id] = np.array(
                [(x, y), (x + MARKER, y), (x + MARKER, y + MARKER), (x, y + MARKER)], np.float32
            )
    return out


def hidden_markers(corners: list[str]) -> str:
    """Tell a player which corner markers the photo misses, in the current language."""
    names = format_list([_(c) for c in corners], locale=current_language())
    return ngettext("the {corners} corner marker is hidden or cut off; photograph the whole sheet with its "
                    "four black corner squares in view",
                    "the {corners} corner markers are hidden or cut off; photograph the whole sheet with its "
                    "four black corner squares in view", len(corners)).format(corners=names)


def register(img: np.ndarray, source: str = "image") -> Registration:
    """Find at least three corner markers of one sheet and the homography from page mm to image pixels."""
    h, w = img.shape[:2]
    scale = min(1.0, DETECT_SIDE / max(h, w))
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    small = (
        cv2.resize(gray, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
        if scale < 1
        else gray
    )
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    corners, ids, _rejected = cv2.aruco.ArucoDetector(aruco_dictionary(), params).detectMarkers(small)
    seen: dict[int, list[np.ndarray]] = {}
    sheet_of: dict[int, tuple[str, str, int]] = {}  # marker id -> (kind, paper, corner)
    for c, i in zip(corners, [] if ids is None else ids.ravel(), strict=False):
        found = describe_id(int(i))
        if found is not None:
            sheet_of[int(i)] = found
            seen.setdefault(int(i), []).append(c.reshape(4, 2) / scale)
    if not seen:
        raise UnreadableImage(_("no score sheet found: none of its corner markers is visible"), source=source)
    groups = Counter(sheet_of[i][:2] for i in seen)
    (kind, paper), count = groups.most_common(1)[0]
    page = marker_page_corners(kind, paper)
    if count < 3:
        corners_seen = {sheet_of[i][2] for i in seen if i in page}
        raise UnreadableImage(hidden_markers([CORNERS[c] for c in range(4) if c not in corners_seen]),
                              source=source)
    ids_used = tuple(sorted(i for i in seen if i in page))
    homography = _best_fit(page, seen, ids_used)
    if homography is None or not _plausible(homography, paper, w, h):
        raise UnreadableImage(_("the corner markers do not form a sheet; photograph the whole sheet"),
                              source=source)
    return Registration(kind, paper, homography, ids_used)


def _best_fit(page: dict[int, np.ndarray], seen: dict[int, list[np.ndarray]],
              ids_used: tuple[int, ...]) -> np.ndarray | None:
    """The homography from page mm to the picture that fits the markers best.

    A second sheet of the same kind partly in view shows some marker ids twice: each choice of one
    sighting per id is fitted, and the one whose corners lie best on one flat sheet is kept.
    """
    src = np.concatenate([page[i] for i in ids_used])
    best, best_error = None, math.inf
    for choice in itertools.islice(itertools.product(*(seen[i] for i in ids_used)), MAX_SIGHTINGS):
        dst = np.concatenate(choice).astype(np.float32)
        homography, _inliers = cv2.findHomography(src, dst, 0)
        if homography is None:
            continue
        error = float(np.abs(cv2.perspectiveTransform(src[None], homography)[0] - dst).max())
        if error < best_error:
            best, best_error = homography, error
    return best


def _plausible(homography: np.ndarray, paper: str, w: int, h: int) -> bool:
    """True when the page maps onto a convex, reasonably sized quadrilateral."""
    pw, ph = PAPER[paper]
    quad = cv2.perspectiveTransform(np.array([[(0, 0), (pw, 0), (pw, ph), (0, ph)]], np.float32), homography)[
        0
    ]
    area = cv2.contourArea(quad)
    return bool(cv2.isContourConvex(quad.astype(np.float32)) and area > 0.05 * w * h)


def rectify(img: np.ndarray, reg: Registration, ppm: float = PPM) -> np.ndarray:
    """The sheet seen from straight above at `ppm` pixels per mm (BGR)."""
    pw, ph = reg.page
    to_mm = np.diag([1 / ppm, 1 / ppm, 1.0])
    return cv2.warpPerspective(
        img,
        reg.homography @ to_mm,
        (round(pw * ppm), round(ph * ppm)),
        flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


def ink_map(sheet_bgr: np.ndarray, ppm: float = PPM) -> np.ndarray:
    """How dark each pixel is against the paper around it: 0 paper .. 1 black, with light evened out."""
    gray = cv2.cvtColor(sheet_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    # The paper's brightness varies slowly: estimate it at a quarter of the resolution.
    h, w = gray.shape
    small = cv2.resize(gray, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    k = max(3, int(0.75 * ppm) | 1)
    paper = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    paper = cv2.GaussianBlur(paper, (0, 0), 0.5 * ppm)
    paper = cv2.resize(paper, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip((paper - gray) / np.maximum(paper, 1.0), 0.0, 1.0)
