"""Registration markers: OpenCV's ArUco detector finds the drawn markers and their ids name side and paper."""

from __future__ import annotations

import cv2
import numpy as np

from hashi_print.render.markers import draw_marker
from hashi_print.render.raster import RasterCanvas
from hashi_print.sheets.markers import describe_id, sheet_marker_ids


def test_ids_name_side_paper_and_corner():
    seen = set()
    for side in ("A", "B", "mine"):
        for paper in ("a4", "letter"):
            ids = sheet_marker_ids(side, paper)
            for corner, marker_id in enumerate(ids):
                kind = side if side in ("A", "B") else "custom"
                assert describe_id(marker_id) == (kind, paper, corner)
            seen.update(ids)
    assert len(seen) == 24 and max(seen) < 50  # all distinct, all inside DICT_4X4_50
    assert describe_id(24) is None and describe_id(-1) is None
    assert sheet_marker_ids("a", "a4") == sheet_marker_ids("A", "a4")
    assert sheet_marker_ids("A", "a4", custom=True) == sheet_marker_ids("x", "a4")


def test_opencv_detects_every_drawn_marker_at_any_rotation():
    cv = RasterCanvas(100, 40, ppm=5)
    for k, marker_id in enumerate((0, 7, 13, 23)):
        draw_marker(cv, 4 + k * 24, 10, 15, marker_id)
    gray = cv2.cvtColor(cv.image, cv2.COLOR_RGB2GRAY)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    for turns in range(4):
        _, ids, _ = detector.detectMarkers(np.ascontiguousarray(np.rot90(gray, turns)))
        assert sorted(ids.ravel().tolist()) == [0, 7, 13, 23]
