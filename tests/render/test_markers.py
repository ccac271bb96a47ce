"""Registration marker dictionary: distinct under rotation, decodable, one bit correctable."""

from __future__ import annotations

from itertools import combinations

from hashi_print.render.markers import CODES, decode, marker_bits, rotate, side_marker_ids


def rotations(grid):
    """The four rotations of a grid."""
    out = [grid]
    for _ in range(3):
        out.append(rotate(out[-1]))
    return out


def distance(a, b) -> int:
    """Bits that differ between two grids."""
    return sum(x != y for ra, rb in zip(a, b, strict=True) for x, y in zip(ra, rb, strict=True))


def test_codes_are_far_apart_under_rotation():
    grids = [marker_bits(i) for i in range(len(CODES))]
    for a, b in combinations(grids, 2):
        assert min(distance(a, r) for r in rotations(b)) >= 5
    for g in grids:
        assert min(distance(g, r) for r in rotations(g)[1:]) >= 4


def test_decode_finds_id_and_rotation_and_fixes_one_bit():
    for i in range(len(CODES)):
        for turns, grid in enumerate(rotations(marker_bits(i))):
            assert decode(grid) == (i, turns)
        noisy = [list(row) for row in marker_bits(i)]
        noisy[1][2] ^= 1
        assert decode(noisy) == (i, 0)
    assert decode([[0] * 4] * 4) is None


def test_side_marker_ids_distinct():
    ids = side_marker_ids("A") + side_marker_ids("b") + side_marker_ids("mine")
    assert len(set(ids)) == 12 and max(ids) < len(CODES)
