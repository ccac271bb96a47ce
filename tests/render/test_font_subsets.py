"""`make fonts` cuts the same subsets from the same fonts, byte for byte."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fontTools.ttLib import TTFont

from tests.scripts import load_script


def _script():
    return load_script("subset_fonts")


def test_a_subset_keeps_its_source_date_and_is_byte_identical_when_cut_again(tmp_path):
    source = Path(str(resources.files("hashi_print.fonts").joinpath("hashi-ja-gothic.ttf")))
    script = _script()
    wanted = {ord(c) for c in "Hashi 橋をかけろ 遊び方"}
    first, second = tmp_path / "first.ttf", tmp_path / "second.ttf"
    script.make_subset(source, first, "Test Gothic", "Regular", wanted)
    script.make_subset(source, second, "Test Gothic", "Regular", wanted)
    assert first.read_bytes() == second.read_bytes()
    cut, original = TTFont(first), TTFont(source)
    # Without its own date the subset would carry the time it was made, and differ on every run.
    assert cut["head"].modified == original["head"].modified
    assert set(cut.getBestCmap()) == wanted & set(original.getBestCmap())
    assert cut["name"].getDebugName(1) == "Test Gothic"
