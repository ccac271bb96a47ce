"""Phone photos as they come: a second sheet in view, a fold, a hidden corner marker, and the ways players
circle islands and cross boxes off besides the usual ones. Each reading is
checked against the game that drew the sheet, never against the reader's own pipeline."""

from __future__ import annotations

import dataclasses
import json
import random

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from hashi_print.cli import cli
from hashi_print.game.board import builtin_side
from hashi_print.game.deck import load_deck
from hashi_print.game.scoring import load_scoring
from hashi_print.scan.read import ScanStatus, scan_image
from hashi_print.sheets.layout import sheet_layout
from hashi_print.sheets.marks import marks_of
from hashi_print.sheets.validate import validate
from tests.photos import CONDITIONS, Camera, filled_sheet, photograph, simulated_record


@pytest.fixture(scope="module")
def kit():
    return load_deck(), load_scoring()


def _game(kit, seed, name="A"):
    deck, scoring = kit
    record = simulated_record(builtin_side(name), deck, scoring, seed)
    return record, marks_of(record, deck)


def _read(jpeg, kit):
    return scan_image(cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR), *kit, source="photo")


@pytest.mark.parametrize("seed", [22, 25, 29])
def test_a_second_sheet_of_the_same_kind_partly_in_view_is_not_mixed_in(kit, seed):
    deck, scoring = kit
    record, truth = _game(kit, 21)
    _, neighbour = _game(kit, 22)  # another player's sheet: same side, same paper, other marks
    rng = random.Random(seed)
    sheet = filled_sheet(truth, deck, scoring, "a4", rng, "black")
    other = filled_sheet(neighbour, deck, scoring, "a4", rng, "blue")
    cam = Camera(megapixels=3.0, turn=2.0, tilt=0.05)
    cam = dataclasses.replace(cam, **CONDITIONS["second sheet in view"])
    scan = _read(photograph(sheet, cam, rng, second=other), kit)
    assert scan.status is not ScanStatus.UNREADABLE
    assert scan.marks.bridges == truth.bridges and scan.marks.cards == truth.cards
    if scan.status is ScanStatus.OK:
        assert scan.validation.score == validate(record, deck, scoring).score


def test_a_fold_across_the_card_strip_does_not_put_print_into_a_card(kit):
    deck, scoring = kit
    record, truth = _game(kit, 23, "B")
    rng = random.Random(23)
    sheet = filled_sheet(truth, deck, scoring, "a4", rng, "pencil")
    cam = Camera(megapixels=5.0, turn=-3.0, tilt=0.05, curl=6.0)
    scan = _read(photograph(sheet, cam, random.Random(4)), kit)
    assert scan.marks.cards == truth.cards
    if scan.status is ScanStatus.OK:
        assert scan.validation.score == validate(record, deck, scoring).score


def test_a_photo_with_two_corner_markers_hidden_says_which(kit, tmp_path):
    deck, scoring = kit
    _, truth = _game(kit, 24)
    rng = random.Random(24)
    sheet = filled_sheet(truth, deck, scoring, "a4", rng, "blue")
    lay = sheet_layout(truth.side, "a4", len(deck.cards))
    ppm = sheet.shape[1] / lay.width
    for x, y, size, _ in (lay.markers[1], lay.markers[3]):  # a thumb over the top-right, the bottom-left
        x0, y0 = int((x - 2) * ppm), int((y - 2) * ppm)
        side = int((size + 4) * ppm)
        cv2.rectangle(sheet, (x0, y0), (x0 + side, y0 + side), (190, 150, 130), -1)
    photo = tmp_path / "thumb.jpg"
    photo.write_bytes(photograph(sheet, Camera(megapixels=2.0, turn=1.0, tilt=0.05), rng))
    result = CliRunner().invoke(cli, ["scan", str(photo), "--json"])
    obj = json.loads(result.output)
    assert result.exit_code == 2 and obj["status"] == "unreadable"
    assert "top-right and bottom-left corner markers are hidden" in obj["error"]
    # A player at a game-night table is told the same in their own language.
    from hashi_print.i18n import language
    from hashi_print.jobs.table.model import TableError
    from hashi_print.jobs.table.paper import read_photo

    for lang, words in (("de", ("oben rechts", "unten links", "verdeckt")),
                        ("ja", ("右上", "左下", "隠れて")),
                        ("en", ("top-right and bottom-left corner markers are hidden",))):
        with language(lang), pytest.raises(TableError) as err:
            read_photo(photo.read_bytes(), truth.side)
        assert all(w in str(err.value) for w in words), (lang, str(err.value))


def _styled(kit, seed, style, pen, name="A", camera_seed=None):
    """A game's sheet marked in `style` with `pen`, photographed by a plain 3 MP camera, and its reading."""
    deck, scoring = kit
    record, truth = _game(kit, seed, name)
    rng = random.Random(seed)
    sheet = filled_sheet(truth, deck, scoring, "a4", rng, pen, style=style)
    cam = Camera(megapixels=3.0, turn=-2.0, tilt=0.05)
    return record, truth, _read(photograph(sheet, cam, random.Random(camera_seed or seed)), kit)


@pytest.mark.parametrize(("seed", "pen"), [(31, "pencil"), (32, "black"), (38, "felt")])
def test_circles_traced_over_the_printed_ring_are_read_as_circled(kit, seed, pen):
    # No ink shows outside the ring: the ring itself is lighter (the pen covers the print) or wider than
    # the printed rings of the islands left uncircled on the same sheet.
    deck, scoring = kit
    record, truth, scan = _styled(kit, seed, "over the ring", pen)
    assert scan.marks.circled == truth.circled
    assert scan.marks.numerals == truth.numerals
    assert scan.status is ScanStatus.OK
    assert scan.validation.score == validate(record, deck, scoring).score


@pytest.mark.parametrize(("seed", "pen"), [(34, "blue"), (35, "pencil")])
def test_circles_drawn_inside_the_ring_are_read_and_kept_out_of_the_numeral(kit, seed, pen):
    deck, scoring = kit
    record, truth, scan = _styled(kit, seed, "inside the ring", pen, "B")
    assert scan.marks.circled == truth.circled
    assert scan.marks.numerals == truth.numerals  # the inner circle is not read as part of the digit
    assert scan.status is ScanStatus.OK
    assert scan.validation.score == validate(record, deck, scoring).score


@pytest.mark.parametrize(("seed", "pen"), [(40, "pencil"), (37, "blue")])
def test_cards_and_first_boxes_marked_with_one_slash_are_crossed(kit, seed, pen):
    # A slash from corner to corner misses one of a card's side strips; it crosses the card's corners
    # beside the printed numeral and bars.
    deck, scoring = kit
    record, truth = _game(kit, seed)
    truth = dataclasses.replace(truth, lost_first=frozenset({"six"}))
    rng = random.Random(seed)
    sheet = filled_sheet(truth, deck, scoring, "a4", rng, pen, style="slash")
    scan = _read(photograph(sheet, Camera(megapixels=3.0, turn=2.0, tilt=0.05), random.Random(seed)), kit)
    assert scan.marks.cards == truth.cards
    assert scan.marks.lost_first == truth.lost_first
    assert dict(scan.marks.goals) == dict(truth.goals)
    assert scan.status is ScanStatus.OK


@pytest.mark.parametrize(("seed", "name"), [(51, "B"), (52, "A")])
def test_a_fold_across_the_board_moves_the_islands_and_they_are_read_where_printed(kit, seed, name):
    # A 6 mm fold shifts the middle of the paper by up to 2.4 mm: each island is looked for around its
    # place on the flat page (its printed ring), or its circle and numeral are measured beside them.
    deck, scoring = kit
    record, truth = _game(kit, seed, name)
    rng = random.Random(seed)
    sheet = filled_sheet(truth, deck, scoring, "a4", rng, "blue")
    cam = Camera(megapixels=3.0, turn=1.0, tilt=0.05, curl=6.0)
    scan = _read(photograph(sheet, cam, random.Random(seed)), kit)
    assert scan.marks.circled == truth.circled
    assert scan.marks.numerals == truth.numerals
    assert scan.marks.bridges == truth.bridges
    assert scan.status is ScanStatus.OK
    assert scan.validation.score == validate(record, deck, scoring).score
