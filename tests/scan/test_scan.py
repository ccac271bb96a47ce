"""The photo reader, on synthetic photos of simulated games: every field type, any rotation, pencil,
a board of one's own, PDF scans, and bad pictures. Each reading is checked against the game that drew
the sheet (its record replayed by the rules engine), never against the reader's own pipeline."""

from __future__ import annotations

import dataclasses
import io
import json
import random
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from hashi_print.cli import cli
from hashi_print.game.board import builtin_side, load_side
from hashi_print.game.deck import load_deck
from hashi_print.game.scoring import load_scoring
from hashi_print.render.fill import Pen, draw_marks, hand_pen
from hashi_print.render.raster import RasterCanvas
from hashi_print.render.sheet import draw_sheet
from hashi_print.scan.read import ScanStatus, scan_image
from hashi_print.sheets.formats import parse_sheet
from hashi_print.sheets.layout import sheet_layout
from hashi_print.sheets.marks import Marks, marks_of, sheet_of
from hashi_print.sheets.validate import validate
from tests.photos import Camera, filled_sheet, photograph, simulated_record

FIX = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture(scope="module")
def kit():
    """The designed deck and scoring."""
    return load_deck(), load_scoring()


def _photo(side, kit, seed, paper="a4", pen="blue", cam=None, custom=False, writers="optdigits"):
    """(truth record, truth marks, JPEG bytes) of one simulated game photographed."""
    deck, scoring = kit
    record = simulated_record(side, deck, scoring, seed)
    truth = marks_of(record, deck)
    rng = random.Random(seed)
    sheet = filled_sheet(truth, deck, scoring, paper, rng, pen, custom=custom, writers=writers)
    return record, truth, photograph(sheet, cam or Camera(megapixels=2.0, turn=rng.uniform(-10, 10)), rng)


def _decode(jpeg: bytes) -> np.ndarray:
    return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)


def _check_against_game(scan, record, truth, kit):
    """Lanes, circles and cards exact; numerals and goal turns right or flagged; ok means the true score."""
    deck, scoring = kit
    assert scan.status in (ScanStatus.OK, ScanStatus.REVIEW)
    doubtful = {(u.field, u.where) for u in scan.uncertain}
    side = truth.side
    for k, n in enumerate(truth.bridges):
        assert scan.marks.bridges[k] == n or ("bridges", side.lane_name(k)) in doubtful, side.lane_name(k)
    for i, isl in enumerate(side.islands):
        assert (i in scan.marks.circled) == (i in truth.circled) or ("circled", isl.label) in doubtful
        assert scan.marks.numerals[i] == truth.numerals[i] or ("number", isl.label) in doubtful, isl.label
    for j in range(len(deck.cards)):
        assert ((j + 1) in scan.marks.cards) == ((j + 1) in truth.cards) or ("card", str(j + 1)) in doubtful
    for goal, turn in truth.goals:
        assert scan.marks.goal_turn(goal) == turn or ("bonus", goal) in doubtful
    if scan.status is ScanStatus.OK:
        # The reader does not read the player line or the starting-island box (a typed sheet has neither).
        assert scan.marks == dataclasses.replace(truth, player=None, setup=None)
        assert scan.validation.score == validate(record, deck, scoring).score


@pytest.mark.parametrize(
    "seed,name,paper,pen,turn,writers",
    [
        (11, "A", "a4", "blue", 4.0, "optdigits"),
        (12, "B", "letter", "black", 93.0, "optdigits"),
        (13, "A", "letter", "felt", 180.0, "optdigits"),  # upside down
        (14, "B", "a4", "pencil", -87.0, "optdigits"),
        (15, "B", "a4", "blue", 31.0, "mnist"),
        (16, "A", "letter", "pencil", -150.0, "mnist"),
    ],
)
def test_photo_is_read_as_the_game_that_drew_it(kit, seed, name, paper, pen, turn, writers):
    side = builtin_side(name)
    cam = Camera(
        megapixels=2.0, tilt=0.2, turn=turn, blur=0.8, gradient=0.3, shadow=True, noise=3.0, quality=70
    )
    record, truth, jpeg = _photo(side, kit, seed, paper, pen, cam, writers=writers)
    scan = scan_image(_decode(jpeg), *kit, source=f"seed {seed}")
    assert (scan.side, scan.paper) == (name, paper)
    _check_against_game(scan, record, truth, kit)
    # The lanes, circles and cards are what the bench holds to 99.5 %: here they must all be exact.
    assert scan.marks.bridges == truth.bridges and scan.marks.circled == truth.circled
    assert scan.marks.cards == truth.cards


def test_custom_layout_needs_its_file_and_is_read_with_it(kit, tmp_path):
    side = load_side(FIX / "kit-fixture-side-a.json")
    record, truth, jpeg = _photo(side, kit, 21, "a4", "blue", Camera(megapixels=2.0, tilt=0.1), custom=True)
    photo = tmp_path / "mine.jpg"
    photo.write_bytes(jpeg)
    layout = tmp_path / "mine.json"
    layout.write_text((FIX / "kit-fixture-side-a.json").read_text())
    no_layout = CliRunner().invoke(cli, ["scan", str(photo)])
    assert no_layout.exit_code == 2 and "--layout" in no_layout.output
    result = CliRunner().invoke(cli, ["scan", str(photo), "--layout", str(layout), "--json"])
    assert result.exit_code in (0, 1, 3), result.output
    obj = json.loads(result.output)
    labels = [i.label for i in side.islands]
    want = {}
    for k, n in enumerate(truth.bridges):
        if n:
            lane = side.geometry.lanes[k]
            want["-".join(sorted((labels[lane.a], labels[lane.b])))] = n
    assert obj["bridges"] == want
    assert obj["circled"] == sorted(labels[i] for i in truth.circled)


def test_cli_json_write_sheet_and_overlay(kit, tmp_path):
    record, truth, jpeg = _photo(builtin_side("A"), kit, 31)
    photo = tmp_path / "ann.jpg"
    photo.write_bytes(jpeg)
    out = tmp_path / "sheets"
    result = CliRunner().invoke(
        cli, ["scan", str(photo), "--json", "--write-sheet", str(out), "--overlay", str(tmp_path / "ov.png")]
    )
    obj = json.loads(result.output)
    assert result.exit_code == {"ok": 0, "review": 3}[obj["status"]] or (
        obj["status"] == "ok" and result.exit_code == 1
    )
    assert set(obj) >= {
        "file",
        "status",
        "side",
        "paper",
        "sheet",
        "numbers",
        "bridges",
        "circled",
        "cards",
        "bonus",
        "uncertain",
        "settled",
        "validation",
    }
    assert obj["cards"] == sorted(truth.cards)
    for u in obj["uncertain"]:
        assert set(u) == {"field", "where", "read", "alternatives", "confidence", "affects"}
        assert set(u["affects"]) <= {"score", "verdict", "race"}
    # Status ok exactly when no doubt could change the score, the verdict or the race.
    assert (obj["status"] == "ok") == (not any(u["affects"] for u in obj["uncertain"]))
    text = (out / "ann.jpg.sheet.txt").read_text()
    typed = parse_sheet(text, "typed")
    assert validate(typed, kit[0], kit[1]).state.bridges == truth.bridges
    assert ("# ?" in text) == bool(obj["uncertain"])
    overlay = cv2.imread(str(tmp_path / "ov.png"))
    assert overlay.shape[:2] == (round(297 * 6), round(210 * 6))
    crop = cv2.imread(str(out / "ann.jpg.player.png"))
    assert crop is not None and crop.shape[1] > crop.shape[0]


def test_a_pdf_scan_is_read(kit, tmp_path):
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    _, truth, jpeg = _photo(
        builtin_side("B"),
        kit,
        41,
        "letter",
        "black",
        Camera(megapixels=2.0, tilt=0.0, turn=0.5, shadow=False, gradient=0.05),
    )
    pdf = tmp_path / "scan.pdf"
    c = Canvas(str(pdf), pagesize=(612, 792))
    c.drawImage(ImageReader(io.BytesIO(jpeg)), 0, 0, 612, 792)
    c.save()
    result = CliRunner().invoke(cli, ["scan", str(pdf), "--json"])
    obj = json.loads(result.output)
    assert obj["status"] in ("ok", "review") and obj["side"] == "B" and obj["paper"] == "letter"
    assert obj["circled"] == sorted(truth.side.islands[i].label for i in truth.circled)


def _bad_images(tmp_path, kit):
    """Pictures that hold no readable sheet."""
    out = {}
    cv2.imwrite(str(tmp_path / "blank.png"), np.full((1200, 900, 3), 250, np.uint8))
    out["blank"] = tmp_path / "blank.png"
    noise = np.random.default_rng(5).integers(0, 255, (1000, 1000, 3), dtype=np.uint8)
    cv2.imwrite(str(tmp_path / "noise.jpg"), noise)
    out["noise"] = tmp_path / "noise.jpg"
    _, _, jpeg = _photo(builtin_side("A"), kit, 51, cam=Camera(megapixels=2.0, tilt=0.0))
    img = _decode(jpeg)
    cv2.imwrite(str(tmp_path / "half.jpg"), img[: img.shape[0] // 2])
    out["half"] = tmp_path / "half.jpg"
    (tmp_path / "text.jpg").write_text("not a picture\n")
    out["text"] = tmp_path / "text.jpg"
    cv2.imwrite(str(tmp_path / "tiny.png"), np.full((40, 30, 3), 255, np.uint8))
    out["tiny"] = tmp_path / "tiny.png"
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    c = Canvas(str(tmp_path / "vector.pdf"))
    c.drawString(100, 100, "no scan here")
    c.save()
    out["vector pdf"] = tmp_path / "vector.pdf"
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\n garbage")
    out["broken pdf"] = tmp_path / "broken.pdf"
    cv2.imwrite(str(tmp_path / "dot.png"), np.zeros((1, 1, 3), np.uint8))  # too small to shrink 8 times
    out["one pixel"] = tmp_path / "dot.png"
    (tmp_path / "tiny.gif").write_bytes(b"GIF89a\x01\x00\x01\x00\x00\x00\x00;")  # OpenCV logs about it
    out["gif"] = tmp_path / "tiny.gif"
    scan = Canvas(str(tmp_path / "scan.pdf"))
    scan.drawImage(ImageReader(io.BytesIO(jpeg)), 0, 0, 595, 842)
    scan.save()
    whole = (tmp_path / "scan.pdf").read_bytes()
    (tmp_path / "cut.pdf").write_bytes(whole[: len(whole) * 2 // 3])  # pypdf logs what it repairs
    out["cut pdf"] = tmp_path / "cut.pdf"
    from PIL import Image

    blank = Image.fromarray(np.full((1200, 900, 3), 250, np.uint8))
    exif = blank.getexif()
    exif[0x0112] = 6
    raw = bytearray(exif.tobytes())
    at = raw.find(b"\x01\x12\x00\x03")  # the orientation tag (big-endian): claim 65535 values
    raw[at + 4 : at + 8] = (0xFFFF).to_bytes(4, "big")
    blank.save(tmp_path / "exif.jpg", exif=bytes(raw))  # Pillow warns about it
    out["damaged exif"] = tmp_path / "exif.jpg"
    return out


def test_bad_images_are_one_line_and_exit_2(kit, tmp_path):
    for what, path in _bad_images(tmp_path, kit).items():
        result = (
            CliRunner(mix_stderr=False).invoke(cli, ["scan", str(path)])
            if _mix_ok()
            else CliRunner().invoke(cli, ["scan", str(path)])
        )
        assert result.exit_code == 2, (what, result.output)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and str(path) in lines[0], (what, lines)
        assert "Traceback" not in result.output
        as_json = CliRunner().invoke(cli, ["scan", str(path), "--json"])
        assert as_json.exit_code == 2 and json.loads(as_json.output.splitlines()[0])["status"] == "unreadable"


def test_bad_images_give_one_line_from_the_installed_command(kit, tmp_path):
    # OpenCV and pypdf write their own complaints straight to the process's stderr: only a real process
    # shows whether a user would see more than the one line.
    paths = _bad_images(tmp_path, kit)
    for what in ("one pixel", "gif", "cut pdf", "damaged exif", "text"):
        path = paths[what]
        argv = [sys.executable, "-m", "hashi_print.cli", "scan", str(path)]
        run = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        assert run.returncode == 2 and run.stdout == "", (what, run.stdout)
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1 and str(path) in lines[0], (what, lines)


def _mix_ok() -> bool:
    """Whether this click's CliRunner still takes mix_stderr."""
    import inspect

    return "mix_stderr" in inspect.signature(CliRunner.__init__).parameters


def test_fill_draws_the_record_onto_the_sheet(tmp_path):
    import xml.etree.ElementTree as ET

    out = tmp_path / "ann.svg"
    result = CliRunner().invoke(
        cli,
        [
            "sheet",
            "--fill",
            str(FIX / "fixture-record-ann.txt"),
            "--format",
            "svg",
            "--deck",
            str(FIX / "fixture-deck.json"),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    # The record's numerals, read from its text by the test itself, are all written on the sheet.
    import re

    text = (FIX / "fixture-record-ann.txt").read_text()
    wanted = sorted(int(v) for v in re.findall(r"(?:number|setup) [A-Za-z]([0-9])", text))
    root = ET.parse(out).getroot()
    drawn = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    board_numerals = sorted(int(t) for t in drawn if t and t.isdigit() and int(t) <= 6)
    for v in set(wanted):
        assert board_numerals.count(v) >= wanted.count(v)
    def hand_drawn(out):
        """Draw Ann's record as a hand would, with pen seed 3, into `out`."""
        args = ["sheet", "--fill", str(FIX / "fixture-record-ann.txt"), "--format", "png",
                "--deck", str(FIX / "fixture-deck.json"), "--hand", "3", "--out", str(out)]
        return CliRunner().invoke(cli, args)

    png, again = tmp_path / "ann.png", tmp_path / "again.png"
    hand = hand_drawn(png)
    assert hand.exit_code == 0, hand.output
    assert hand_drawn(again).exit_code == 0
    assert png.read_bytes() == again.read_bytes()
    assert cv2.imread(str(png)).shape[:2] == (round(297 * 8), round(210 * 8))


def _forgot_to_circle(side, deck):
    """Marks of a player who forgot a circle: a 6 with its six bridges drawn, left uncircled."""
    geo = side.geometry
    hub = max(range(len(side.islands)), key=lambda i: sum(i in (ln.a, ln.b) for ln in geo.lanes))
    lanes = [k for k, ln in enumerate(geo.lanes) if hub in (ln.a, ln.b)][:3]
    assert len(lanes) == 3
    bridges = tuple(2 if k in lanes else 0 for k in range(len(geo.lanes)))
    numerals = tuple(6 if i == hub else None for i in range(len(side.islands)))
    cards = frozenset(range(1, len(deck.cards) + 1))
    return hub, Marks(side, numerals, bridges, frozenset(), cards)


def _crossed(side, deck):
    """Marks of a player who drew bridges on two lanes that cross (numerals 6 at their four ends)."""
    geo = side.geometry
    k = next(k for k in range(len(geo.lanes)) if geo.crossings[k])
    j = geo.crossings[k][0]
    bridges = tuple(1 if n in (k, j) else 0 for n in range(len(geo.lanes)))
    ends = {geo.lanes[k].a, geo.lanes[k].b, geo.lanes[j].a, geo.lanes[j].b}
    numerals = tuple(6 if i in ends else None for i in range(len(side.islands)))
    return (k, j), Marks(side, numerals, bridges, frozenset(), frozenset(range(1, len(deck.cards) + 1)))


def _scan_json(marks, kit, tmp_path, seed):
    """Draw the marks by hand (MNIST writers' clear digits), photograph them, and scan with --json."""
    deck, scoring = kit
    rng = random.Random(seed)
    sheet = filled_sheet(marks, deck, scoring, "a4", rng, "black", writers="mnist")
    photo = tmp_path / f"sheet-{seed}.jpg"
    photo.write_bytes(photograph(sheet, Camera(megapixels=2.0, tilt=0.1, turn=3.0), rng))
    result = CliRunner().invoke(cli, ["scan", str(photo), "--json"])
    return result.exit_code, json.loads(result.output)


def test_a_sheet_that_breaks_a_rule_is_read_as_drawn_and_exits_1(kit, tmp_path):
    deck, scoring = kit
    side = builtin_side("A")
    (k, j), drawn = _crossed(side, deck)
    # Independently of the reader: the marks as drawn break a rule (bridges cross).
    assert any(v.rule == "bridge-crossing" for v in validate(sheet_of(drawn), deck, scoring).violations)
    code, obj = _scan_json(drawn, kit, tmp_path, 61)
    assert code == 1, obj["uncertain"]
    assert obj["status"] == "ok" and obj["validation"]["ok"] is False
    assert "bridge-crossing" in {v["rule"] for v in obj["validation"]["violations"]}
    labels = [i.label for i in side.islands]
    ends = [(side.geometry.lanes[n].a, side.geometry.lanes[n].b) for n in (k, j)]
    assert obj["bridges"] == {"-".join(sorted((labels[a], labels[b]))): 1 for a, b in ends}
    assert obj["numbers"] == {labels[i]: 6 for i, v in enumerate(drawn.numerals) if v}
    assert obj["circled"] == []


def test_a_missing_circle_the_rules_want_goes_to_a_person(kit, tmp_path):
    # A full island left uncircled may be a forgotten circle or one traced over the printed ring (which
    # leaves no ink outside it): the reader cannot tell, so it neither trusts nor overrules the ink.
    deck, scoring = kit
    side = builtin_side("A")
    hub, drawn = _forgot_to_circle(side, deck)
    assert not validate(sheet_of(drawn), deck, scoring).ok
    code, obj = _scan_json(drawn, kit, tmp_path, 61)
    assert code == 3 and obj["status"] == "review"
    label = side.islands[hub].label
    assert ("circled", label) in [(u["field"], u["where"]) for u in obj["uncertain"]]
    assert obj["numbers"] == {label: 6} and obj["cards"] == sorted(drawn.cards)


def test_a_crossed_off_first_bonus_box_is_read_and_scores_the_lower_value(kit, tmp_path):
    deck, scoring = kit
    side = builtin_side("B")
    record = simulated_record(side, deck, scoring, 71)
    played = marks_of(record, deck)
    reached = [g for g, _ in played.goals]
    assert reached, "the fixture game must reach a goal"
    drawn = dataclasses.replace(played, lost_first=frozenset(reached[:1]), player=None)
    rng = random.Random(71)
    sheet = filled_sheet(drawn, deck, scoring, "letter", rng, "blue")
    photo = tmp_path / "later.jpg"
    photo.write_bytes(photograph(sheet, Camera(megapixels=2.0, tilt=0.1, turn=-2.0), rng))
    result = CliRunner().invoke(cli, ["scan", str(photo), "--json"])
    obj = json.loads(result.output)
    assert obj["lost_first"] == reached[:1]
    assert obj["bonus"] == dict(played.goals) or any(u["field"] == "bonus" for u in obj["uncertain"])
    if obj["status"] == "ok":
        assert result.exit_code == 0
        # The lower value for the goal another player reached first, the higher one for the others.
        want = {g: scoring.bonus[g][1 if g in reached[:1] else 0] for g in reached}
        assert obj["validation"]["score"]["bonus"] == want


@pytest.mark.parametrize("seed", [5, 8, 13])
def test_a_circled_numeral_that_disagrees_with_its_bridges_is_never_read_as_fine(kit, seed):
    deck, scoring = kit
    side = builtin_side("AB"[seed % 2])
    truth = marks_of(simulated_record(side, deck, scoring, seed), deck)
    # The player circled an island whose numeral is not its bridge count: another numeral of the deck.
    i = min(truth.circled)
    wrong = next(v for v in (6, 5, 1, 2, 3, 4) if v != truth.numerals[i])
    numerals = tuple(wrong if k == i else n for k, n in enumerate(truth.numerals))
    drawn = dataclasses.replace(truth, numerals=numerals)
    # Independently of the reader: these marks break a rule.
    assert not validate(sheet_of(drawn), deck, scoring).ok
    rng = random.Random(seed)
    sheet = filled_sheet(drawn, deck, scoring, "a4", rng, "black")
    scan = scan_image(_decode(photograph(sheet, Camera(megapixels=3.0), rng)), deck, scoring)
    label = side.islands[i].label
    # Either read as drawn (a broken rule) or left to a person; never a valid sheet with status ok.
    assert not (scan.status == ScanStatus.OK and scan.validation.ok)
    if scan.status == ScanStatus.OK:
        assert scan.marks.numerals[i] == wrong
    else:
        assert any(u.where == label for u in scan.uncertain) or not scan.validation.ok


def test_two_crossed_boxes_in_a_goal_row_go_to_review(kit):
    deck, scoring = kit
    side = builtin_side("A")
    truth = marks_of(simulated_record(side, deck, scoring, 9), deck)
    goal, turn = truth.goals[0]
    other = turn - 3 if turn > 3 else turn + 3
    rng = random.Random(9)
    lay = sheet_layout(side, "a4", len(deck.cards))
    cv = RasterCanvas(lay.width, lay.height, 8.0)
    draw_sheet(cv, side, deck, scoring, lay)
    pen = hand_pen(rng, "black")
    draw_marks(cv, lay, truth, pen)
    # The player also crossed a second box in that goal's row: which turn it was is for a person to say.
    blank = (None,) * len(side.islands), (0,) * len(side.geometry.lanes)
    empty = Marks(side, *blank, frozenset(), frozenset(), ((goal, other),))
    draw_marks(cv, lay, empty, pen)
    scan = scan_image(_decode(photograph(cv.image, Camera(megapixels=3.0), rng)), deck, scoring)
    assert scan.status == ScanStatus.REVIEW
    doubt = [u for u in scan.uncertain if (u.field, u.where) == ("bonus", goal)]
    assert len(doubt) == 1 and {doubt[0].read, *doubt[0].alternatives} >= {turn, other}


def test_a_photo_is_turned_as_its_exif_says_and_a_big_jpeg_decoded_smaller(tmp_path):
    from PIL import Image

    from hashi_print.scan.register import load_image

    pixels = np.zeros((1200, 900, 3), np.uint8)
    pixels[:100, :50] = 255  # a white block in the top-left corner
    picture = Image.fromarray(pixels)
    exif = picture.getexif()
    exif[0x0112] = 6  # the camera was turned: show the picture turned a quarter clockwise
    picture.save(tmp_path / "turned.jpg", exif=exif.tobytes(), quality=95)
    img = load_image(tmp_path / "turned.jpg")
    assert img.shape == (900, 1200, 3)
    assert img[:50, -100:].mean() > 200 and img[-50:, :100].mean() < 50  # the block is now top-right, lying
    Image.fromarray(np.full((3000, 2000, 3), 128, np.uint8)).save(tmp_path / "big.jpg")  # 6 MP
    assert load_image(tmp_path / "big.jpg").shape == (1500, 1000, 3)


@pytest.mark.parametrize("offset", [(0.0, -0.5), (0.45, 0.3), (-0.3, 0.45)])
def test_a_felt_circle_drawn_over_the_printed_rim_is_never_read_as_surely_missing(kit, offset):
    # A thick circle lying on the print's rim shows outside it on only part of the island: the reader
    # must take it as a circle, or ask, but never report a rule the player did not break.
    deck, scoring = kit
    side = builtin_side("B")
    record = simulated_record(side, deck, scoring, 35)
    truth = marks_of(record, deck)
    lay = sheet_layout(side, "a4", len(deck.cards))
    cv = RasterCanvas(lay.width, lay.height, 8.0)
    draw_sheet(cv, side, deck, scoring, lay)
    felt = Pen(color="#14206b", width=1.0)
    draw_marks(cv, lay, dataclasses.replace(truth, circled=frozenset()), felt)
    for i in truth.circled:
        cx, cy = lay.board.centres[i]
        cv.circle(cx + offset[0], cy + offset[1], lay.board.r * 1.06, stroke=felt.color, width=1.0)
    cam = Camera(megapixels=2.0, turn=77.0, blur=1.2, gradient=0.2, noise=3.9, quality=87)
    scan = scan_image(_decode(photograph(cv.image, cam, random.Random(35))), *kit, source="rim")
    doubtful = {(u.field, u.where) for u in scan.uncertain}
    for i in truth.circled:
        assert i in scan.marks.circled or ("circled", side.islands[i].label) in doubtful
    if scan.status is ScanStatus.OK:
        assert scan.validation.score == validate(record, deck, scoring).score
