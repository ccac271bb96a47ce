"""Synthetic photos of filled sheets for the photo reader's tests and bench: game -> pen -> camera.

A simulated game (bots and the rules engine) gives the truth; the pen model of `sheet --fill --hand`
draws it; the camera model below photographs it: perspective and rotation, lens blur, uneven light
and a shadow, sensor noise and JPEG compression.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

from hashi_print.game.board import BoardSide
from hashi_print.game.deck import Deck
from hashi_print.game.scoring import Scoring
from hashi_print.game.simulate import deal, play_game
from hashi_print.render.fill import draw_marks, hand_pen, shipped_glyphs
from hashi_print.render.raster import RasterCanvas
from hashi_print.render.sheet import draw_sheet
from hashi_print.sheets.formats import Record, record_from_moves
from hashi_print.sheets.layout import sheet_layout
from hashi_print.sheets.marks import Marks, marks_of


@dataclass(frozen=True)
class Camera:
    """How a photo is taken: size, tilt, turn, blur, light, noise and JPEG quality."""

    megapixels: float = 2.0
    tilt: float = 0.15
    turn: float = 0.0
    blur: float = 0.8
    gradient: float = 0.25
    shadow: bool = True
    noise: float = 3.0
    quality: int = 80


def simulated_record(
    side: BoardSide, deck: Deck, scoring: Scoring, seed: int, strategy: str = "strong"
) -> Record:
    """A game record of one simulated solo game, setup included."""
    record, moves, _ = play_game(side, deck, scoring, strategy, "random", seed, seed)
    cards = deal(deck, random.Random(f"{seed}/{seed}/cards"))
    return record_from_moves(side, record.setup, cards, moves, source=f"game {seed}")


def filled_sheet(
    marks: Marks,
    deck: Deck,
    scoring: Scoring,
    paper: str,
    rng: random.Random,
    pen: str | None = None,
    ppm: float = 8.0,
    custom: bool = False,
    writers: str = "optdigits",
) -> np.ndarray:
    """The sheet with the marks drawn by a hand (digits by the held-out `writers`), as an RGB picture at
    `ppm` pixels per mm."""
    lay = sheet_layout(marks.side, paper, len(deck.cards), custom)
    cv = RasterCanvas(lay.width, lay.height, ppm)
    draw_sheet(cv, marks.side, deck, scoring, lay)
    draw_marks(cv, lay, marks, hand_pen(rng, pen, shipped_glyphs(writers)))
    return cv.image


def photograph(sheet: np.ndarray, cam: Camera, rng: random.Random) -> bytes:
    """Photograph a flat sheet (RGB) with the camera model; return JPEG bytes."""
    h, w = sheet.shape[:2]
    out_w = int(math.sqrt(cam.megapixels * 1e6 * 4 / 3))
    out_h = int(out_w * 3 / 4)
    if h > w:
        out_w, out_h = out_h, out_w
    # The sheet fills 70-85 % of the frame, turned and seen at an angle.
    fill = rng.uniform(0.7, 0.85)
    scale = fill * min(out_w / w, out_h / h)
    corners = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32) - (w / 2, h / 2)
    a = math.radians(cam.turn)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]], np.float32)
    placed = (corners @ rot.T * scale).astype(np.float32)
    jitter = cam.tilt * min(out_w, out_h) * 0.25
    placed += np.array(
        [(rng.uniform(-jitter, jitter), rng.uniform(-jitter, jitter)) for _ in range(4)], np.float32
    )
    span = placed.max(axis=0) - placed.min(axis=0)
    shrink = min(1.0, 0.95 * out_w / span[0], 0.95 * out_h / span[1])
    placed = (placed * shrink + (out_w / 2, out_h / 2)).astype(np.float32)
    m = cv2.getPerspectiveTransform(np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32), placed)
    table = np.full(
        (out_h, out_w, 3), (rng.randint(60, 120), rng.randint(50, 100), rng.randint(40, 90)), np.uint8
    )
    img = cv2.warpPerspective(
        sheet, m, (out_w, out_h), dst=table, borderMode=cv2.BORDER_TRANSPARENT, flags=cv2.INTER_AREA
    ).astype(np.float32)
    yy, xx = np.mgrid[0:out_h, 0:out_w].astype(np.float32)
    ang = rng.uniform(0, 2 * math.pi)
    ramp = (xx * math.cos(ang) + yy * math.sin(ang)) / max(out_w, out_h)
    light = 1.0 - cam.gradient * (ramp - ramp.min())
    if cam.shadow:
        x0, x1 = rng.uniform(0, out_w), rng.uniform(0, out_w)
        edge = xx - (x0 + (x1 - x0) * yy / out_h)
        light *= 1.0 - rng.uniform(0.15, 0.35) / (1.0 + np.exp(np.clip(-edge / (0.01 * out_w), -50, 50)))
    img *= light[..., None] * rng.uniform(0.85, 1.0)
    if cam.blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), cam.blur * out_w / 2000)
    nprng = np.random.default_rng(rng.randrange(2**32))
    img += nprng.normal(0, cam.noise, img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(
        ".jpg", cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, cam.quality]
    )
    return data.tobytes()


def random_camera(rng: random.Random, megapixels: float | None = None) -> Camera:
    """A phone photo within the reader's promise: up to ~30 degrees of tilt, any turn, JPEG 50 or better."""
    return Camera(
        megapixels=megapixels or rng.choice([1.0, 2.0, 3.0, 5.0, 12.0]),
        tilt=rng.uniform(0.0, 0.3),
        turn=rng.choice([0, 90, 180, 270]) + rng.uniform(-15, 15),
        blur=rng.uniform(0.3, 1.5),
        gradient=rng.uniform(0.0, 0.4),
        shadow=rng.random() < 0.6,
        noise=rng.uniform(1.0, 5.0),
        quality=rng.randint(50, 95),
    )


def game_marks(side: BoardSide, deck: Deck, scoring: Scoring, seed: int) -> Marks:
    """The marks at the end of a simulated game (the truth a photo is checked against)."""
    return marks_of(simulated_record(side, deck, scoring, seed), deck)
