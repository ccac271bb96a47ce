"""A Canvas that paints into an RGB image with OpenCV: PNG output, and the paper of synthetic photos.

Text is set in OpenCV's Hershey sans font at the same size and anchor as the PDF's font; it is
close, not identical, which is all a picture of a sheet needs.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import cv2
import numpy as np

from hashi_print.render.canvas import PT, Point

SHIFT = 4  # fixed-point bits for sub-pixel drawing
_HERSHEY_CAP = 22.0  # cap height in pixels of FONT_HERSHEY_SIMPLEX at scale 1


def rgb(color: str) -> tuple[int, int, int]:
    """Convert "#rrggbb" into an (r, g, b) tuple."""
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


class RasterCanvas:
    """A Canvas drawing anti-aliased into `self.image` (RGB, uint8) at `ppm` pixels per millimetre."""

    def __init__(self, page_w_mm: float, page_h_mm: float, ppm: float = 6.0):
        self.width = float(page_w_mm)
        self.height = float(page_h_mm)
        self.ppm = float(ppm)
        self.image = np.full((round(self.height * ppm), round(self.width * ppm), 3), 255, np.uint8)

    def _p(self, x: float, y: float) -> tuple[int, int]:
        """Millimetres to fixed-point pixel coordinates."""
        f = self.ppm * (1 << SHIFT)
        return round(x * f), round(y * f)

    def _px(self, mm: float) -> int:
        """A length in mm as whole pixels, at least one."""
        return max(1, round(mm * self.ppm))

    def line(self, x1: float, y1: float, x2: float, y2: float, *, width: float = 0.3, color: str = "#000000",
             dash: tuple[float, ...] | None = None, cap: str = "butt", id: str | None = None) -> None:
        """Draw a straight line, dashed lines as their dashes (zero-length dashes with round caps as dots)."""
        if not dash:
            cv2.line(
                self.image, self._p(x1, y1), self._p(x2, y2), rgb(color), self._px(width), cv2.LINE_AA, SHIFT
            )
            return
        length = math.hypot(x2 - x1, y2 - y1)
        if length == 0:
            return
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        pos, k = 0.0, 0
        while pos <= length:
            seg = dash[k % len(dash)]
            if k % 2 == 0:
                end = min(pos + seg, length)
                if seg == 0:
                    self.circle(x1 + ux * pos, y1 + uy * pos, width / 2, stroke=None, fill=color)
                else:
                    self.line(
                        x1 + ux * pos, y1 + uy * pos, x1 + ux * end, y1 + uy * end, width=width, color=color
                    )
            pos += seg
            k += 1

    def circle(self, cx: float, cy: float, r: float, *, stroke: str | None = "#000000",
               fill: str | None = None, width: float = 0.3, id: str | None = None) -> None:
        """Draw a circle."""
        f = self.ppm * (1 << SHIFT)
        centre, radius = self._p(cx, cy), round(r * f)
        if fill:
            cv2.circle(self.image, centre, radius, rgb(fill), -1, cv2.LINE_AA, SHIFT)
        if stroke:
            cv2.circle(self.image, centre, radius, rgb(stroke), self._px(width), cv2.LINE_AA, SHIFT)

    def rect(self, x: float, y: float, w: float, h: float, *, stroke: str | None = "#000000",
             fill: str | None = None, width: float = 0.3, id: str | None = None) -> None:
        """Draw an axis-aligned rectangle."""
        self.polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], stroke=stroke, fill=fill, width=width)

    def polygon(self, points: Sequence[Point], *, stroke: str | None = "#000000", fill: str | None = None,
                width: float = 0.3, id: str | None = None) -> None:
        """Draw a closed polygon."""
        pts = np.array([self._p(x, y) for x, y in points], np.int32)
        if fill:
            cv2.fillPoly(self.image, [pts], rgb(fill), cv2.LINE_AA, SHIFT)
        if stroke:
            cv2.polylines(self.image, [pts], True, rgb(stroke), self._px(width), cv2.LINE_AA, SHIFT)

    def text(self, x: float, y: float, s: str, *, size_pt: float = 10, anchor: str = "start",
             bold: bool = False, color: str = "#000000", id: str | None = None, angle: float = 0,
             mono: bool = False) -> None:
        """Draw one line of text with its baseline at y (upright only; the Hershey font has no mono cut)."""
        if angle:
            raise ValueError("a raster canvas draws text upright only")
        scale = 0.72 * size_pt * PT * self.ppm / _HERSHEY_CAP
        thick = max(1, round(scale * (2.6 if bold else 1.6)))
        (w, _), _ = cv2.getTextSize(s, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        px, py = x * self.ppm, y * self.ppm
        px -= {"start": 0, "middle": w / 2, "end": w}[anchor]
        cv2.putText(
            self.image,
            s,
            (round(px), round(py)),
            cv2.FONT_HERSHEY_SIMPLEX,
            scale,
            rgb(color),
            thick,
            cv2.LINE_AA,
        )

    def new_page(self) -> None:
        """A raster canvas holds one page."""
        raise NotImplementedError("a raster canvas holds one page")

    @contextmanager
    def group(self, id: str) -> Iterator[None]:
        """Groups have no meaning in a picture."""
        yield

    def finish(self, name: str = "the picture") -> bytes:
        """The picture as PNG bytes (the Canvas protocol's end of drawing)."""
        return self.png()

    def png(self) -> bytes:
        """The picture as PNG bytes."""
        ok, data = cv2.imencode(".png", cv2.cvtColor(self.image, cv2.COLOR_RGB2BGR))
        if not ok:
            raise ValueError("OpenCV could not encode the picture as PNG")
        return data.tobytes()
