"""Synthetic photos of filled sheets for the photo reader's tests and bench: game -> pen -> camera.

A simulated game (bots and the rules engine) gives the truth; the pen model of `sheet --fill --hand`
draws it; the camera model below photographs it: perspective and rotation, lens blur, uneven light
and a shadow, sensor noise and JPEG compression.
"""

from __future__ import annotations

import dataclasses
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
    """How a photo is taken: size, tilt, turn, blur, light, noise and JPEG quality, and the harder cases
    of phone photos (each off by default)."""

    megapixels: float = 2.0
    tilt: float = 0.15
    turn: float = 0.0
    blur: float = 0.8
    gradient: float = 0.25
    shadow: bool = True
    noise: float = 3.0
    quality: int = 80
    angle: float = 0.0  # degrees the sheet is leaned away from the camera (a real perspective)
    curl: float = 0.0  # mm a fold across the middle lifts the paper
    half_shadow: bool = False  # a hard shadow across half the sheet
    light: tuple[float, float, float] = (1.0, 1.0, 1.0)  # colour of the light (RGB gains): warm, cold
    motion: float = 0.0  # length of a motion blur, in thousandths of the picture's width
    fill: float | None = None  # share of the frame's width (or height) the sheet covers
    second: bool = False  # a second sheet lies partly in view beside it
    screen: bool = False  # a photo of the sheet shown on a screen


# The phone-photo cases of the bench, one camera change each (on top of a random camera).
CONDITIONS = {
    "perspective 35": {"angle": 35.0, "tilt": 0.0},
    "fold": {"curl": 6.0},
    "shadow over half": {"half_shadow": True, "shadow": False},
    "warm light": {"light": (1.0, 0.82, 0.55)},
    "cold light": {"light": (0.72, 0.88, 1.0)},
    "motion blur": {"motion": 4.0},
    "jpeg 40": {"quality": 40},
    "sheet 40 % of frame": {"fill": 0.4},
    "second sheet in view": {"second": True},
    "photo of a screen": {"screen": True},
}


def simulated_record(
    side: BoardSide, deck: Deck, scoring: Scoring, seed: int, strategy: str = "strong"
) -> Record:
    """A game record of one simulated solo game, setup included."""
    record, moves, _ = play_game(side, deck, scoring, strategy, "random", seed, seed)
    cards = deal(deck, random.Random(f"{seed}/{seed}/cards"))
    return record_from_moves(side, record.setup, cards, moves, source=f"game {seed}")


# Ways players mark a box (a card of the strip, a goal's turn, a "first" box) and circle an island,
# besides the X and the circle around the printed ring the pen model draws.
BOX_STYLES = ("slash", "tick", "filled")
CIRCLE_STYLES = ("over the ring", "inside the ring")


def filled_sheet(
    marks: Marks,
    deck: Deck,
    scoring: Scoring,
    paper: str,
    rng: random.Random,
    pen: str | None = None,
    ppm: float = 8.0,
    custom: bool = False,
    writers: str | dict = "optdigits",
    style: str | None = None,
) -> np.ndarray:
    """The sheet with the marks drawn by a hand (digits by the held-out `writers`, a shipped set's name or
    digit -> ink-count grids), boxes or circles drawn in `style` when given, as an RGB picture at `ppm`
    pixels per mm."""
    lay = sheet_layout(marks.side, paper, len(deck.cards), custom)
    cv = RasterCanvas(lay.width, lay.height, ppm)
    draw_sheet(cv, marks.side, deck, scoring, lay)
    glyphs = shipped_glyphs(writers) if isinstance(writers, str) else writers
    hand = hand_pen(rng, pen, glyphs)
    if style in BOX_STYLES:
        rest = dataclasses.replace(marks, cards=frozenset(), goals=(), lost_first=frozenset())
        draw_marks(cv, lay, rest, hand)
        boxes = [lay.card_slots[p - 1] for p in sorted(marks.cards)]
        boxes += [lay.goal_turn_cells[g][t - 1] for g, t in marks.goals]
        boxes += [lay.bonus_boxes[g][0] for g in sorted(marks.lost_first)]
        for box in boxes:
            _mark_box(cv, hand, box, style, rng)
    elif style in CIRCLE_STYLES:
        draw_marks(cv, lay, dataclasses.replace(marks, circled=frozenset()), hand)
        scale = 1.0 if style == "over the ring" else 0.86
        for i in sorted(marks.circled):
            cx, cy = lay.board.centres[i]
            r = lay.board.r * scale * rng.uniform(0.97, 1.03)
            cx, cy = cx + rng.uniform(-0.2, 0.2), cy + rng.uniform(-0.2, 0.2)
            cv.circle(cx, cy, r, stroke=hand.color, width=hand.width)
    else:
        draw_marks(cv, lay, marks, hand)
    return cv.image


def _mark_box(cv: RasterCanvas, pen, box, style: str, rng: random.Random) -> None:
    """Mark a box off as some players do: one slash, a tick, or filled in with scribbles."""
    x, y, w, h = box
    if style == "slash":
        shape = [(0.15, 0.85), (0.85, 0.15)]
    elif style == "tick":
        shape = [(0.12, 0.55), (0.4, 0.88), (0.9, 0.1)]
    else:  # filled in: a zigzag from side to side down the box
        rows = max(4, int(h / 0.8))
        shape = [(0.1 if k % 2 == 0 else 0.9, 0.1 + 0.8 * k / rows) for k in range(rows + 1)]
    shaky = [(u + rng.uniform(-0.04, 0.04), v + rng.uniform(-0.04, 0.04)) for u, v in shape]
    points = [(x + u * w, y + v * h) for u, v in shaky]
    for (ax, ay), (bx, by) in zip(points, points[1:], strict=False):
        cv.line(ax, ay, bx, by, width=pen.width, color=pen.color, cap="round")


def photograph(sheet: np.ndarray, cam: Camera, rng: random.Random, second: np.ndarray | None = None) -> bytes:
    """Photograph a flat sheet (RGB) with the camera model; return JPEG bytes. `second` is another sheet
    for `cam.second` (the sheet itself when not given)."""
    h, w = sheet.shape[:2]
    out_w = int(math.sqrt(cam.megapixels * 1e6 * 4 / 3))
    out_h = int(out_w * 3 / 4)
    if h > w:
        out_w, out_h = out_h, out_w
    if cam.curl:
        sheet = _folded(sheet, cam.curl, rng)
    placed = _placement(w, h, out_w, out_h, cam, rng)
    m = cv2.getPerspectiveTransform(np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32), placed)
    table = np.full(
        (out_h, out_w, 3), (rng.randint(60, 120), rng.randint(50, 100), rng.randint(40, 90)), np.uint8
    )
    if cam.second:
        # The other sheet lies just beside this one, its near markers in the frame.
        other = sheet if second is None else second
        side = rng.choice([-1, 1])
        shift = np.float32([side * (placed[:, 0].max() - placed[:, 0].min()) * rng.uniform(1.01, 1.06), 0])
        page = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32)
        near = cv2.getPerspectiveTransform(page, placed + shift)
        table = cv2.warpPerspective(
            other, near, (out_w, out_h), dst=table, borderMode=cv2.BORDER_TRANSPARENT, flags=cv2.INTER_AREA
        )
    img = cv2.warpPerspective(
        sheet, m, (out_w, out_h), dst=table, borderMode=cv2.BORDER_TRANSPARENT, flags=cv2.INTER_AREA
    ).astype(np.float32)
    img *= _light(out_w, out_h, cam, rng)[..., None] * rng.uniform(0.85, 1.0)
    img *= np.array(cam.light, np.float32)
    if cam.screen:
        img = _on_screen(img, rng)
    if cam.blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), cam.blur * out_w / 2000)
    if cam.motion > 0:
        img = cv2.filter2D(img, -1, _motion_kernel(cam.motion * out_w / 1000, rng))
    nprng = np.random.default_rng(rng.randrange(2**32))
    img += nprng.normal(0, cam.noise, img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(
        ".jpg", cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, cam.quality]
    )
    return data.tobytes()


def _placement(w: int, h: int, out_w: int, out_h: int, cam: Camera, rng: random.Random) -> np.ndarray:
    """Where the sheet's four corners land in the picture: turned, leaned back, seen at an angle."""
    # The sheet fills 70-85 % of the frame (or as the camera says), turned and seen at an angle.
    fill = cam.fill or rng.uniform(0.7, 0.85)
    scale = fill * min(out_w / w, out_h / h)
    corners = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32) - (w / 2, h / 2)
    if cam.angle:
        corners = _leaned(corners, cam.angle, rng)
    a = math.radians(cam.turn)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]], np.float32)
    placed = (corners @ rot.T * scale).astype(np.float32)
    jitter = cam.tilt * min(out_w, out_h) * 0.25
    placed += np.array(
        [(rng.uniform(-jitter, jitter), rng.uniform(-jitter, jitter)) for _ in range(4)], np.float32
    )
    span = placed.max(axis=0) - placed.min(axis=0)
    shrink = min(1.0, 0.95 * out_w / span[0], 0.95 * out_h / span[1])
    return (placed * shrink + (out_w / 2, out_h / 2)).astype(np.float32)


def _leaned(corners: np.ndarray, degrees: float, rng: random.Random) -> np.ndarray:
    """The corners of a flat sheet (centred) leaned back by `degrees` about a random axis in its plane,
    as a pinhole camera a sheet's length away sees them."""
    axis = rng.uniform(0, math.pi)
    ux, uy = math.cos(axis), math.sin(axis)
    t = math.radians(degrees)
    distance = 1.2 * float(np.abs(corners).max()) * 2
    out = []
    for x, y in corners:
        along = x * ux + y * uy  # the part of the corner on the axis stays; the rest leans back
        across = (-x * uy + y * ux)
        depth = across * math.sin(t)
        across *= math.cos(t)
        px, py = along * ux - across * uy, along * uy + across * ux
        f = distance / (distance + depth)
        out.append((px * f, py * f))
    return np.array(out, np.float32)


def _folded(sheet: np.ndarray, lift: float, rng: random.Random) -> np.ndarray:
    """The sheet folded across its middle (or curled at one edge): the paper rises by up to `lift` mm, which
    a camera above sees as a shift towards the fold and a shade on its far side."""
    h, w = sheet.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    across = rng.random() < 0.5
    pos = (yy / h) if across else (xx / w)
    ridge = np.clip(1.0 - np.abs(pos - 0.5) * 2.0, 0.0, 1.0) ** 2  # highest at the fold
    px_per_mm = w / 210.0
    shift = ridge * lift * px_per_mm * 0.4
    mx, my = (xx, yy - shift * np.sign(pos - 0.5)) if across else (xx - shift * np.sign(pos - 0.5), yy)
    out = cv2.remap(sheet, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    shade = 1.0 - 0.18 * ridge * (pos > 0.5)
    return np.clip(out * shade[..., None], 0, 255).astype(np.uint8)


def _light(out_w: int, out_h: int, cam: Camera, rng: random.Random) -> np.ndarray:
    """The light across the picture: a gradient, a soft shadow, a hard shadow over half."""
    yy, xx = np.mgrid[0:out_h, 0:out_w].astype(np.float32)
    ang = rng.uniform(0, 2 * math.pi)
    ramp = (xx * math.cos(ang) + yy * math.sin(ang)) / max(out_w, out_h)
    light = 1.0 - cam.gradient * (ramp - ramp.min())
    if cam.shadow:
        x0, x1 = rng.uniform(0, out_w), rng.uniform(0, out_w)
        edge = xx - (x0 + (x1 - x0) * yy / out_h)
        light *= 1.0 - rng.uniform(0.15, 0.35) / (1.0 + np.exp(np.clip(-edge / (0.01 * out_w), -50, 50)))
    if cam.half_shadow:
        # A phone or a head between lamp and sheet: half the picture in a shadow with a soft edge.
        cut = rng.uniform(0.4, 0.6) * out_w
        edge = (xx - cut) * math.cos(ang) + (yy - out_h / 2) * math.sin(ang)
        light *= 1.0 - rng.uniform(0.45, 0.6) / (1.0 + np.exp(np.clip(-edge / (0.004 * out_w), -50, 50)))
    return light


def _on_screen(img: np.ndarray, rng: random.Random) -> np.ndarray:
    """The picture as a phone sees it on a screen: pixel grid (moire), glow, lifted blacks, a blue tint."""
    h, w = img.shape[:2]
    period = rng.uniform(2.2, 3.4)
    a = math.radians(rng.uniform(-4, 4))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u = xx * math.cos(a) + yy * math.sin(a)
    v = -xx * math.sin(a) + yy * math.cos(a)
    grid = 0.8 + 0.2 * (np.cos(2 * math.pi * u / period) * np.cos(2 * math.pi * v / period))
    out = img * grid[..., None]
    out = cv2.GaussianBlur(out, (0, 0), 0.6) * 0.85 + 25.0
    return out * np.array((0.9, 0.97, 1.08), np.float32)


def _motion_kernel(length: float, rng: random.Random) -> np.ndarray:
    """A straight motion blur of `length` pixels in a random direction."""
    n = max(3, int(length) | 1)
    k = np.zeros((n, n), np.float32)
    a = rng.uniform(0, math.pi)
    c = (n - 1) / 2
    for t in np.linspace(-c, c, 4 * n):
        k[int(round(c + t * math.sin(a))), int(round(c + t * math.cos(a)))] = 1.0
    return k / k.sum()


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
