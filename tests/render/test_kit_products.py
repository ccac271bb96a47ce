"""Solo table, rules leaflet, the whole kit and the `sheet`/`kit` commands."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from hashi_print import files as files_module
from hashi_print.cli import cli
from hashi_print.errors import LayoutError
from hashi_print.game.board import builtin_side, load_side
from hashi_print.game.deck import load_deck
from hashi_print.game.rules import apply, check_move, move_violations
from hashi_print.game.scoring import load_scoring
from hashi_print.jobs import kit as kit_module
from hashi_print.jobs.kit import build_kit
from hashi_print.jobs.leaflet import leaflet_examples
from hashi_print.render.leaflet import render_leaflet
from hashi_print.render.solo import render_solo, solo_levels

FIX = Path(__file__).resolve().parents[1] / "fixtures"
FILES = {"side_a": FIX / "kit-fixture-side-a.json", "side_b": FIX / "kit-fixture-side-b.json",
         "deck": FIX / "kit-fixture-deck.json", "scoring": FIX / "kit-fixture-scoring.json"}
SVG = "{http://www.w3.org/2000/svg}"


def page_text(data: bytes) -> list[str]:
    """The extracted text of each page."""
    return [p.extract_text() for p in PdfReader(io.BytesIO(data)).pages]


def all_fonts_embedded(data: bytes) -> bool:
    """True when every font of every page has an embedded TrueType file (and there is one at least)."""
    seen = []
    for page in PdfReader(io.BytesIO(data)).pages:
        for ref in page["/Resources"].get_object().get("/Font", {}).values():
            desc = ref.get_object().get("/FontDescriptor")
            seen.append(desc is not None and "/FontFile2" in desc.get_object())
    return bool(seen) and all(seen)


@pytest.fixture(scope="module")
def kit_dir(tmp_path_factory):
    """A kit built once from the fixture files, for both papers."""
    out = tmp_path_factory.mktemp("kit")
    written = build_kit(out, "both", **{k: str(v) for k, v in FILES.items()})
    return out, written


def test_solo_table_shows_every_limit_and_band(tmp_path):
    scoring = load_scoring(FILES["scoring"])
    text = page_text(render_solo(scoring, "letter", "pdf", tmp_path / "solo.pdf").read_bytes())[0]
    for side in ("A", "B"):
        for level, _ in solo_levels(scoring, side):
            assert level in text
        for _, words in scoring.ratings[side]:
            assert words in text
    root = ET.parse(render_solo(scoring, "a4", "svg", tmp_path / "solo.svg")).getroot()
    for side in ("A", "B"):
        for level, limits in solo_levels(scoring, side):
            for goal, turns in limits.items():
                el = root.find(f".//{SVG}text[@id='solo-{side}-{level}-{goal}']")
                assert el.text == f"by turn {turns}"


def test_leaflet_examples_are_real_game_states():
    side = load_side(FILES["side_a"])
    legal, crossing, circled = leaflet_examples(side, load_deck(FILES["deck"]))
    assert legal.highlight and sum(legal.highlight.values()) > 0
    assert all(legal.state.bridges[k] >= n for k, n in legal.highlight.items())
    assert crossing.forbidden and crossing.state.bridges[crossing.forbidden[0]] == 0
    built = {k for k, n in enumerate(crossing.state.bridges) if n}
    assert built & set(side.geometry.crossings[crossing.forbidden[0]])
    assert "crosses" in crossing.caption
    assert circled.state.circled
    for i in circled.state.circled:
        assert circled.state.counts[i] == circled.state.numerals[i]
    for ex in (legal, circled):
        check_move(ex.before, ex.card, ex.move)
        assert apply(ex.before, ex.card, ex.move) == ex.state
    found = move_violations(crossing.before, crossing.card, crossing.move)
    assert [v.rule for v in found] == ["bridge-crossing"]


def test_leaflet_pdf_two_pages_with_values(tmp_path):
    side, deck, scoring = load_side(FILES["side_b"]), load_deck(FILES["deck"]), load_scoring(FILES["scoring"])
    examples = leaflet_examples(side, deck)
    data = render_leaflet(side, scoring, "a4", "pdf", tmp_path / "r.pdf", examples).read_bytes()
    pages = page_text(data)
    assert len(pages) == 2
    assert "Setup" in pages[0] and "A turn" in pages[0]
    assert "The three goals" in pages[1] and "Solo" in pages[1]
    for goal, (first, later) in scoring.bonus.items():
        assert f"({first} / {later})" in pages[1], goal
    assert all_fonts_embedded(data)
    root = ET.parse(render_leaflet(side, scoring, "a4", "svg", tmp_path / "r.svg", examples, 1)).getroot()
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    for k in (1, 2, 3):
        assert sum(1 for i in ids if re.fullmatch(rf"ex{k}-island-[A-R]", i)) == 18
    assert any(i.startswith("ex2-forbidden-") for i in ids)
    assert any(i.startswith("ex3-circled-") for i in ids)


def test_kit_writes_every_product_and_index(kit_dir):
    out, written = kit_dir
    names = sorted(p.relative_to(out).as_posix() for p, _ in written)
    for paper in ("a4", "letter"):
        for stem in ("sheet-A", "sheet-B", "cards", "solo", "rules"):
            assert f"{stem}-{paper}.pdf" in names
    assert "cards-printshop.pdf" in names and "index.md" in names
    for paper in ("a4", "letter"):
        for stem in ("sheet-A", "sheet-B", "cards-front-1", "cards-back", "solo", "rules-1", "rules-2"):
            assert f"svg/{paper}/{stem}.svg" in names
    index = (out / "index.md").read_text()
    for name in names:
        if name != "index.md":
            assert f"`{name}`" in index
    for path, _ in written:
        assert path.is_file()
        if path.suffix == ".pdf":
            data = path.read_bytes()
            assert all_fonts_embedded(data), path
            assert b"Helvetica" not in data


def test_kit_is_byte_identical(kit_dir, tmp_path):
    out, written = kit_dir
    again = build_kit(tmp_path, "a4", **{k: str(v) for k, v in FILES.items()})
    for path, _ in again:
        if path.suffix in (".pdf", ".svg"):
            assert path.read_bytes() == (out / path.relative_to(tmp_path)).read_bytes(), path


def test_kit_without_layouts_is_a_layout_error(tmp_path, monkeypatch):
    monkeypatch.setattr(files_module, "DESIGNED_PACKAGE", "hashi_print.no_such_data")
    with pytest.raises(LayoutError, match="missing"):
        build_kit(tmp_path / "out", "a4")
    result = CliRunner().invoke(cli, ["kit", "--out", str(tmp_path / "out")])
    assert result.exit_code == 2 and "missing" in result.output


def test_kit_accepts_objects():
    side = load_side(FILES["side_a"])
    data = kit_module.load_kit_data(side, FILES["side_b"], load_deck(FILES["deck"]), FILES["scoring"])
    assert data.side_a is side and data.side_b.name == "B"


def test_sheet_command_for_own_layout(tmp_path):
    out = tmp_path / "mine.svg"
    common = ["--deck", str(FILES["deck"]), "--scoring", str(FILES["scoring"])]
    result = CliRunner().invoke(cli, ["sheet", "--layout", str(FILES["side_b"]), *common,
                                      "--format", "svg", "--out", str(out)])
    assert result.exit_code == 0, result.output
    root = ET.parse(out).getroot()
    assert root.find(f".//{SVG}g[@id='island-R']") is not None
    pdf = tmp_path / "mine.pdf"
    result = CliRunner().invoke(cli, ["sheet", "--layout", str(FILES["side_a"]), *common,
                                      "--paper", "letter", "--out", str(pdf)])
    assert result.exit_code == 0, result.output
    assert float(PdfReader(str(pdf)).pages[0].mediabox.height) == pytest.approx(792, abs=0.01)


def test_sheet_command_needs_a_board(tmp_path):
    result = CliRunner().invoke(cli, ["sheet", "--out", str(tmp_path / "x.pdf")])
    assert result.exit_code == 2 and "--side" in result.output


def test_designed_layouts_print_readably():
    from hashi_print.sheets.layout import sheet_layout

    for name in ("a", "b"):
        side = builtin_side(name)
        for paper in ("a4", "letter"):
            assert sheet_layout(side, paper).board.r >= 4.5
        legal, crossing, circled = leaflet_examples(side, load_deck())
        assert legal.move is not None and crossing.forbidden and circled.state.circled
