"""Book pages a reader can find their way in: page references both ways, solutions 6 to 12 a page, the
index of IDs at the back in a monospace face, and pure black ink, all read back from the PDF."""

from __future__ import annotations

import io
import re
from collections import Counter

import pytest
from pypdf import PdfReader

from hashi_print.puzzle.book import book_plan_requests, generate_puzzles
from hashi_print.render.book import BookOptions, render_book
from tests.pdfink import page_ink

SIZES = [(7, 7), (10, 10), (15, 15)]


@pytest.fixture(scope="module")
def puzzles():
    """24 generated puzzles of three sizes and four grades (the sizes of a typical 6x9 book)."""
    return list(generate_puzzles(book_plan_requests(24, SIZES, "mixed"), seed=38))


@pytest.fixture(scope="module")
def kdp_book(puzzles):
    """The 6x9 KDP book of those puzzles."""
    return render_book(puzzles, BookOptions(trim="6x9", profile="kdp", title="Pages"))


def texts_of(reader: PdfReader, index: int) -> list[str]:
    """The shown strings of a page, decoded by pypdf one line at a time."""
    return reader.pages[index].extract_text().splitlines()


def test_every_puzzle_names_its_solutions_page_and_every_solution_its_puzzles_page(kdp_book):
    reader = PdfReader(io.BytesIO(kdp_book.pdf))
    entries = kdp_book.manifest["puzzles"]
    for page_no, kind in enumerate(kdp_book.manifest["page_kinds"], 1):
        if kind not in ("puzzles", "solutions"):
            continue
        text = reader.pages[page_no - 1].extract_text()
        here = [e for e in entries if e["page" if kind == "puzzles" else "solution_page"] == page_no]
        word = "Solution" if kind == "puzzles" else "Puzzle"
        said = [int(n) for n in re.findall(rf"{word} p\. (\d+)", text)]
        wanted = [e["solution_page" if kind == "puzzles" else "page"] for e in here]
        assert sorted(said) == sorted(wanted), page_no
        # The references are black and at least 7 pt.
        glyphs, _ = page_ink(reader, page_no - 1)
        refs = [g for g in glyphs if g.text.startswith(f"{word} p")]
        assert len(refs) == len(here) and all(g.size >= 7.0 and g.fill == ("rg", 0.0, 0.0, 0.0) for g in refs)


def test_solutions_fill_6_to_12_a_page_on_6x9(kdp_book):
    per_page = Counter(e["solution_page"] for e in kdp_book.manifest["puzzles"])
    pages = sorted(per_page)
    assert all(6 <= per_page[p] <= 12 for p in pages[:-1]), per_page
    assert per_page[pages[-1]] <= 12


def index_entries(reader: PdfReader, kinds: list[str]) -> dict[int, list[str]]:
    """The index read back: each number with the lines of blocks printed after it."""
    entries: dict[int, list[str]] = {}
    number = None
    for index, kind in enumerate(kinds):
        if kind != "index":
            continue
        for line in texts_of(reader, index)[2:]:
            if line.strip().isdigit():
                number = int(line)
                entries[number] = []
            elif number is not None and re.fullmatch(r"[0-9a-z:x ]+", line.strip()):
                entries[number].append(line.strip())
    return entries


def test_the_ids_are_at_the_back_in_blocks_of_five_in_a_monospace_face(kdp_book):
    reader = PdfReader(io.BytesIO(kdp_book.pdf))
    kinds = kdp_book.manifest["page_kinds"]
    assert "index" in kinds and kinds.index("index") > max(i for i, k in enumerate(kinds) if k == "solutions")
    entries = index_entries(reader, kinds)
    assert sorted(entries) == [e["number"] for e in kdp_book.manifest["puzzles"]]
    for e in kdp_book.manifest["puzzles"]:
        blocks = " ".join(entries[e["number"]]).split()
        assert "".join(blocks) == e["id"]
        assert all(len(b) == 5 for b in blocks[:-1]) and 1 <= len(blocks[-1]) <= 5
    for index, kind in enumerate(kinds):
        text = reader.pages[index].extract_text()
        if kind == "puzzles":
            assert not any(e["id"] in text for e in kdp_book.manifest["puzzles"])
        if kind == "index":
            glyphs, _ = page_ink(reader, index)
            ids = [g for g in glyphs if re.fullmatch(r"[0-9a-z:x ]{6,}", g.text)]
            assert ids and all("HashiMono" in g.font and g.size >= 7.0 for g in ids)


def test_ids_under_grids_keeps_them_under_the_grids_and_drops_the_index(puzzles):
    book = render_book(puzzles[:6], BookOptions(trim="6x9", profile="kdp", ids_under=True))
    reader = PdfReader(io.BytesIO(book.pdf))
    assert "index" not in book.manifest["page_kinds"]
    for e in book.manifest["puzzles"]:
        text = reader.pages[e["page"] - 1].extract_text().replace("\n", "")
        assert e["id"] in text


BLACK = {("rg", 0.0, 0.0, 0.0), ("k", 0.0, 0.0, 0.0, 1.0), ("g", 0.0)}


# The greys a book means: secondary text (running heads, page numbers, labels) at 7 pt or more, the grid's
# guide dots and the notes pages' rules; as RGB levels (CMYK puts 1 - level on the black plate alone).
MEANT_GREYS = {0.4196, 0.7059, 0.7686}


def grey(colour: tuple) -> bool:
    """One of the meant greys: equal RGB at a meant level, or K alone at one (stroke or fill operator)."""
    op, *values = colour[0].lower(), *colour[1:]
    if op == "rg":
        return values[0] == values[1] == values[2] and values[0] in MEANT_GREYS
    if op == "k":
        return values[:3] == [0.0, 0.0, 0.0] and round(1 - values[3], 4) in MEANT_GREYS
    return False


@pytest.mark.parametrize("color", ["rgb", "cmyk"])
@pytest.mark.parametrize(("trim", "profile"), [("6x9", "kdp"), ("a4", "pnp")])
def test_text_and_lines_are_pure_black_and_grey_only_from_7_pt(puzzles, color, trim, profile):
    book = render_book(puzzles[:8], BookOptions(trim=trim, profile=profile, color=color, author="A"))
    reader = PdfReader(io.BytesIO(book.pdf))
    black_glyphs = 0
    for index in range(len(reader.pages)):
        glyphs, inks = page_ink(reader, index)
        for g in glyphs:
            assert g.fill in BLACK or (grey(g.fill) and g.size >= 7.0), (index + 1, g.text, g.fill, g.size)
            black_glyphs += g.fill in BLACK
        for ink in inks:
            if ink.stroked:
                assert (ink.stroke[0].lower(), *ink.stroke[1:]) in BLACK or grey(ink.stroke), (index + 1, ink)
            if ink.filled:
                # White island fills, black, or a grey (the grid's dots are round-capped strokes).
                assert ink.fill in BLACK or grey(ink.fill) or ink.fill in {("rg", 1.0, 1.0, 1.0),
                                                                          ("k", 0.0, 0.0, 0.0, 0.0)}
    assert black_glyphs > 100


def test_the_same_arguments_and_seed_give_byte_identical_book_cover_and_manifest(tmp_path):
    from click.testing import CliRunner

    from hashi_print.cli import cli

    made = []
    for run in ("a", "b"):
        out = tmp_path / run
        args = ["book", "--count", "6", "--sizes", "7x7,10x10", "--seed", "38", "--trim", "6x9",
                "--profile", "kdp", "--year", "2026", "--author", "Ann Example", "--cover-style", "night",
                "--out", str(out / "b.pdf"), "--cover", str(out / "c.pdf"), "--manifest", str(out / "b.json")]
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        made.append([(out / name).read_bytes() for name in ("b.pdf", "c.pdf", "b.json")])
    assert made[0] == made[1]
