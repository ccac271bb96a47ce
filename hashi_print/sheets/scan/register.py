"""Find the sheet in a picture: load the image, detect the ArUco corner markers, rectify by homography."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from hashi_print.errors import FormatError
from hashi_print.render.markers import aruco_dictionary, describe_id
from hashi_print.render.paper import PAPER

PPM = 6.0  # pixels per millimetre of the rectified sheet
DETECT_SIDE = 1800  # longest side (px) the marker search runs at
MIN_PIXELS = 300_000
MAX_PIXELS = 60_000_000
MAX_BYTES = 80 * 1024 * 1024
DECODE_PIXELS = 4_000_000  # above this a JPEG is decoded at a reduced size


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
    if p.stat().st_size > MAX_BYTES:
        raise UnreadableImage(f"file is larger than {MAX_BYTES // 2**20} MB", source=str(p))
    data = p.read_bytes()
    if data[:5] == b"%PDF-":
        data = _pdf_page_image(data, p)
    buf = np.frombuffer(data, np.uint8)
    header = cv2.imdecode(buf, cv2.IMREAD_REDUCED_GRAYSCALE_8) if len(buf) else None
    if header is None:
        raise UnreadableImage("not an image (expected JPEG, PNG or a PDF page)", source=str(p))
    if header.size * 64 > MAX_PIXELS:
        raise UnreadableImage(f"image is larger than {MAX_PIXELS // 1_000_000} megapixels", source=str(p))
    # A big JPEG is decoded at half or quarter size straight from its DCT: faster, and still
    # several pixels per millimetre more than the reading needs.
    flag = cv2.IMREAD_COLOR
    if header.size * 64 > 4 * DECODE_PIXELS:
        flag = cv2.IMREAD_REDUCED_COLOR_4
    elif header.size * 64 > DECODE_PIXELS:
        flag = cv2.IMREAD_REDUCED_COLOR_2
    img = cv2.imdecode(buf, flag)
    if img is None:
        raise UnreadableImage("not an image (expected JPEG, PNG or a PDF page)", source=str(p))
    if img.shape[0] * img.shape[1] < MIN_PIXELS:
        raise UnreadableImage(
            f"image is too small ({img.shape[1]}x{img.shape[0]}); "
            "photograph the whole sheet at 1 megapixel or more",
            source=str(p),
        )
    return img


def _pdf_page_image(data: bytes, p: Path) -> bytes:
    """The largest image on a PDF's first page (what a scanner writes), as encoded bytes."""
    import io

    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        page = PdfReader(io.BytesIO(data)).pages[0]
        images = list(page.images)
    except (PdfReadError, IndexError, KeyError, ValueError, TypeError) as err:
        raise UnreadableImage(f"cannot read the PDF ({err})", source=str(p)) from None
    if not images:
        raise UnreadableImage(
            "the PDF's first page holds no scanned image (print the sheet, fill it, "
            "then scan or photograph it)",
            source=str(p),
        )
    best = max(images, key=lambda im: len(im.data))
    out = io.BytesIO()
    best.image.convert("RGB").save(out, format="PNG")
    return out.getvalue()


def marker_page_corners(kind: str, paper: str) -> dict[int, np.ndarray]:
    """Page positions (mm) of the four outer corners of each marker of a sheet, by marker id."""
    from hashi_print.render.sheet import MARGIN, MARKER

    w, h = PAPER[paper]
    origins = (
        (MARGIN, MARGIN),
        (w - MARGIN - MARKER, MARGIN),
        (w - MARGIN - MARKER, h - MARGIN - MARKER),
        (MARGIN, h - MARGIN - MARKER),
    )
    out = {}
    for marker_id in range(24):
        k, pap, corner = describe_id(marker_id)
        if k == kind and pap == paper:
            x, y = origins[corner]
            out[marker_id] = np.array(
                [(x, y), (x + MARKER, y), (x + MARKER, y + MARKER), (x, y + MARKER)], np.float32
            )
    return out


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
    corners, ids, _ = cv2.aruco.ArucoDetector(aruco_dictionary(), params).detectMarkers(small)
    found = {}
    for c, i in zip(corners, [] if ids is None else ids.ravel(), strict=False):
        if describe_id(int(i)) is not None:
            found[int(i)] = c.reshape(4, 2) / scale
    if not found:
        raise UnreadableImage("no score sheet found: none of its corner markers is visible", source=source)
    groups = Counter(describe_id(i)[:2] for i in found)
    (kind, paper), count = groups.most_common(1)[0]
    if count < 3:
        raise UnreadableImage(
            f"only {count} of the sheet's 4 corner markers are visible; photograph the whole sheet",
            source=source,
        )
    page = marker_page_corners(kind, paper)
    ids_used = tuple(sorted(i for i in found if i in page))
    src = np.concatenate([page[i] for i in ids_used])
    dst = np.concatenate([found[i] for i in ids_used]).astype(np.float32)
    homography, _ = cv2.findHomography(src, dst, 0)
    if homography is None or not _plausible(homography, paper, w, h):
        raise UnreadableImage(
            "the corner markers do not form a sheet; photograph the whole sheet", source=source
        )
    return Registration(kind, paper, homography, ids_used)


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
