"""Puzzle books: page arithmetic, and whole books read back from the PDF with pypdf."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from collections import Counter, deque

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from hashi_print.cli import cli
from hashi_print.errors import OptionError
from hashi_print.puzzle.book import BookPuzzle, book_plan_requests, order_puzzles
from hashi_print.puzzle.formats import format_tatham_id, parse_tatham_id
from hashi_print.puzzle.model import Solution
from hashi_print.puzzle.solve import solve
from hashi_print.render.book import BookOptions, example_puzzle, notes_rules, render_book, shapes_of
from hashi_print.render.book_plan import (
    KDP_MIN_OUTSIDE,
    MIN_ISLAND_MM,
    PUZZLE_SLOT,
    SOLUTION_SLOT,
    Layout,
    arrange,
    content_box,
    id_lines,
    kdp_gutter,
    kdp_padding,
    margins_for,
    plan_book,
    row_height,
    solution_slot,
    trim_size,
)
from hashi_print.render.canvas import text_width
from hashi_print.render.paper import INCH
from hashi_print.render.puzzle import PUZZLE_STYLE

PT_PER_MM = 72 / 25.4
SMALL_IDS = [
    "7x7m2:i2c3g3a7c5e2g12a5b4a",
    "7x7m2:g2a2k6a8a5a4n2a4a4a3",
    "7x7m2:h4b5a3e2b5b2h2a4c4g1",
]


# --- an independent referee: the rules checked straight from the clues --------------------------

def referee(puzzle, rows: list[list[int]]) -> list[str]:
    """Check bridges against the clues and the rules without the solver; return what is wrong."""
    clue = {(i.row, i.col): i.clue for i in puzzle.islands}
    got = Counter()
    segments, seen, problems = [], set(), []
    for r1, c1, r2, c2, k in rows:
        a, b = sorted([(r1, c1), (r2, c2)])
        if a not in clue or b not in clue or (a, b) in seen or k not in (1, 2):
            problems.append(f"bad bridge {a}-{b}")
            continue
        seen.add((a, b))
        if a[0] == b[0]:
            between = [(a[0], c) for c in range(a[1] + 1, b[1])]
        elif a[1] == b[1]:
            between = [(r, a[1]) for r in range(a[0] + 1, b[0])]
        else:
            problems.append(f"bridge {a}-{b} is not straight")
            continue
        if any(cell in clue for cell in between):
            problems.append(f"bridge {a}-{b} passes over an island")
        got[a] += k
        got[b] += k
        segments.append((a, b))
    problems += [f"island {pos} has {got[pos]} not {k}" for pos, k in clue.items() if got[pos] != k]
    for (a, b) in segments:
        for (c, d) in segments:
            if a[0] == b[0] and c[1] == d[1] and a[1] < c[1] < b[1] and c[0] < a[0] < d[0]:
                problems.append(f"bridges {a}-{b} and {c}-{d} cross")
    links = {pos: set() for pos in clue}
    for a, b in segments:
        links[a].add(b)
        links[b].add(a)
    start = next(iter(clue))
    reached, todo = {start}, deque([start])
    while todo:
        for nxt in links[todo.popleft()] - reached:
            reached.add(nxt)
            todo.append(nxt)
    if len(reached) != len(clue):
        problems.append("the islands do not form one group")
    return problems


def book_puzzles(ids: list[str], difficulties: list[str]) -> list[BookPuzzle]:
    """Make book entries from IDs, solving each with the SAT solver."""
    out = []
    for pid, grade in zip(ids, difficulties, strict=True):
        pz = parse_tatham_id(pid)
        out.append(BookPuzzle(pz, solve(pz).solution, grade, format_tatham_id(pz)))
    return out


def bold_runs(reader: PdfReader, page_index: int) -> list[str]:
    """Return the text drawn in the bold font on one page (puzzle and solution numbers, headings)."""
    runs: list[str] = []

    def visit(text, cm, tm, font, size):
        if text.strip() and font is not None and "Bold" in str(font.get("/BaseFont", "")):
            runs.append(text.strip())

    reader.pages[page_index].extract_text(visitor_text=visit)
    return runs


# --- page arithmetic ------------------------------------------------------------------------------

def test_kdp_gutter_follows_the_page_count_table():
    assert kdp_gutter(24) == pytest.approx(0.375 * INCH)
    assert kdp_gutter(150) == pytest.approx(0.375 * INCH)
    assert kdp_gutter(151) == pytest.approx(0.5 * INCH)
    assert kdp_gutter(300) == pytest.approx(0.5 * INCH)
    assert kdp_gutter(301) == pytest.approx(0.625 * INCH)
    assert kdp_gutter(700) == pytest.approx(0.75 * INCH)
    assert kdp_gutter(828) == pytest.approx(0.875 * INCH)
    with pytest.raises(OptionError, match="828"):
        kdp_gutter(829)


@pytest.mark.parametrize("trim", ["a4", "letter", "6x9", "8.5x11"])
def test_kdp_margins_are_mirrored_with_the_gutter_at_the_spine(trim):
    for pages in (30, 200, 400):
        m = margins_for(trim, "kdp", pages)
        assert m.inside >= kdp_gutter(pages)
        assert m.outside >= KDP_MIN_OUTSIDE and m.top >= KDP_MIN_OUTSIDE and m.bottom >= KDP_MIN_OUTSIDE
        w, _ = trim_size(trim)
        right_x, _, right_w, _ = content_box(1, trim, m)
        left_x, _, left_w, _ = content_box(2, trim, m)
        assert right_x == pytest.approx(m.inside)
        assert left_x + left_w == pytest.approx(w - m.inside)
        assert right_w == pytest.approx(left_w)
    assert margins_for(trim, "kdp", 400).inside > margins_for(trim, "kdp", 100).inside


@pytest.mark.parametrize("trim", ["a4", "letter", "6x9"])
@pytest.mark.parametrize("n", [5, 7, 10, 12, 15, 20, 25])
def test_islands_are_never_smaller_than_5_mm(trim, n):
    _, _, w, h = content_box(1, trim, margins_for(trim, "pnp", 40))
    try:
        a = arrange(n, n, w, h, PUZZLE_SLOT)
    except OptionError as err:
        assert trim == "6x9" and n >= 20, err
        assert "larger trim" in str(err)
        return
    assert a.cell * PUZZLE_STYLE.island_ratio >= MIN_ISLAND_MM - 1e-9
    assert a.cols * a.cell * n <= w + 1e-6
    assert 1 <= a.per_page <= 6


def test_puzzles_per_page_follow_grid_size():
    _, _, w, h = content_box(1, "a4", margins_for("a4", "pnp", 40))
    assert arrange(25, 25, w, h, PUZZLE_SLOT).per_page == 1
    sevens = arrange(7, 7, w, h, PUZZLE_SLOT)
    assert sevens.per_page == 6 and sevens.cell * PUZZLE_STYLE.island_ratio >= 6.0
    with_id = arrange(10, 10, w, h, PUZZLE_SLOT, "10x10m2:" + "a3" * 25, 6.0)
    assert with_id.per_page == 4 and with_id.id_lines >= 1 and with_id.cell >= PUZZLE_SLOT.good_cell
    solutions = arrange(10, 10, w, h, SOLUTION_SLOT)
    assert solutions.per_page == 12 and solutions.cell < with_id.cell


@pytest.mark.parametrize("want", [None, 1, 2, 3, 4])
@pytest.mark.parametrize("grid", [(7, 7), (10, 10), (12, 9), (15, 15)])
def test_a_grid_shrunk_to_fit_its_slot_still_has_room_for_its_longer_wrapped_id(grid, want):
    # A 10x10 asked two to a 6x9 page was refused: shrinking the cell wrapped its ID onto one more line.
    long_id = f"{grid[0]}x{grid[1]}m2:" + "m" * (grid[0] * grid[1] // 2)
    try:
        a = arrange(*grid, 126.0, 197.6, PUZZLE_SLOT, long_id, 6.0, want)
    except OptionError:
        # Three or more to a 6x9 page is too many for these sizes; two must fit up to 12x9.
        assert want and (want > 2 or grid == (15, 15))
        return
    lines = id_lines(long_id, grid[0] * a.cell, 6.0)
    assert a.id_lines == len(lines) >= 1
    assert PUZZLE_SLOT.above + grid[1] * a.cell + 1.2 + len(lines) * 6.0 * 25.4 / 72 * 1.25 <= a.slot_h + 1e-6
    assert a.cell * PUZZLE_STYLE.island_ratio >= MIN_ISLAND_MM - 1e-9 and a.per_page >= (want or 1)


@pytest.mark.parametrize("size_pt", [6.0, 7.0])
def test_long_ids_wrap_at_the_profile_size_and_never_shrink(size_pt):
    long_id = "25x25m2:" + "a3b4c2" * 50
    lines = id_lines(long_id, 175.0, size_pt)
    assert "".join(lines) == long_id and len(lines) >= 2
    assert all(text_width(line, size_pt) <= 175.0 for line in lines)
    assert all(text_width(line + "m", size_pt) > 175.0 for line in lines[:-1])


def test_mixed_requests_share_grades_and_sizes_evenly():
    reqs = book_plan_requests(24, [(7, 7), (10, 10), (15, 15)], "mixed")
    assert Counter(r[2] for r in reqs) == {"easy": 6, "medium": 6, "hard": 6, "expert": 6}
    assert Counter((r[0], r[1]) for r in reqs) == {(7, 7): 8, (10, 10): 8, (15, 15): 8}
    assert len({(r[0], r[2]) for r in reqs}) == 12


def test_progression_puts_easy_first_and_as_generated_keeps_order():
    entries = book_puzzles(SMALL_IDS, ["hard", "easy", "medium"])
    assert [e.grade for e in order_puzzles(entries, "progression")] == ["easy", "medium", "hard"]
    assert [e.grade for e in order_puzzles(entries, "as-generated")] == ["hard", "easy", "medium"]


def test_kdp_plan_reaches_a_fixpoint_between_gutter_and_page_count():
    entries = book_puzzles(SMALL_IDS, ["easy"] * 3) * 60
    plan = plan_book(shapes_of(entries), Layout("6x9", "kdp"))
    margins, pages = plan.margins, plan.pages
    assert margins.inside == pytest.approx(kdp_gutter(len(pages)) + 0.25 * INCH)
    kinds = [p.kind for p in pages]
    assert kinds[:4] == ["title", "copyright", "contents", "howto"]
    assert kinds.index("puzzles") % 2 == 0 and kinds.index("solutions") % 2 == 0  # right-hand pages


def test_kdp_padding_reaches_24_pages_and_an_even_count():
    assert [kdp_padding(n) for n in (1, 5, 23, 24, 25, 26, 69, 827, 828)] == [23, 19, 1, 0, 1, 0, 1, 1, 0]
    for n in range(1, 300):
        total = n + kdp_padding(n)
        assert total >= 24 and total % 2 == 0 and kdp_padding(n) <= max(1, 24 - n)


def test_notes_rules_are_evenly_spaced_and_end_at_the_foot_of_the_type_area():
    rules = notes_rules(20.0, 180.0)
    steps = {round(b - a, 9) for a, b in zip([20.0, *rules], rules, strict=False)}
    assert len(steps) == 1 and 7.0 <= steps.pop() <= 9.0
    assert rules[-1] == pytest.approx(180.0) and rules[0] > 20.0


@pytest.mark.parametrize("trim", ["a4", "6x9"])
def test_kdp_plans_are_even_and_padded_only_with_notes_at_the_end(trim):
    entries = book_puzzles(SMALL_IDS, ["easy"] * 3) * 40
    for n in (1, 2, 3, 30, 60, 63, 66, 75, 81, 99, 120):
        plan = plan_book(shapes_of(entries[:n]), Layout(trim, "kdp"))
        margins, pages = plan.margins, plan.pages
        kinds = [p.kind for p in pages]
        assert len(pages) >= 24 and len(pages) % 2 == 0, (n, len(pages))
        assert margins.inside == pytest.approx(kdp_gutter(len(pages)) + 0.25 * INCH)
        last_solutions = max(i for i, k in enumerate(kinds) if k == "solutions")
        after = kinds[last_solutions + 1:]
        # The index of IDs follows the solutions; notes pages only pad the end.
        assert after == ["index"] * after.count("index") + ["notes"] * after.count("notes")
        assert "notes" not in kinds[:last_solutions] and after.count("index") >= 1
        pnp_pages = plan_book(shapes_of(entries[:n]), Layout(trim, "pnp")).pages
        assert "notes" not in [p.kind for p in pnp_pages]


def test_the_how_to_play_example_is_solved_and_unique():
    puzzle, solution = example_puzzle()
    assert referee(puzzle, solution.as_lists()) == []
    result = solve(puzzle)
    assert result.status == "unique" and result.solution == solution


# --- whole books ------------------------------------------------------------------------------------

def test_render_book_reads_back_with_ids_numbers_and_pages():
    entries = book_puzzles(SMALL_IDS, ["medium", "easy", "hard"])
    book = render_book(entries, BookOptions(title="Test Book", trim="6x9", profile="kdp", ids_under=True))
    reader = PdfReader(io.BytesIO(book.pdf))
    assert len(reader.pages) == book.pages == book.manifest["pages"]
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(6 * 72, abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(9 * 72, abs=0.01)
        assert "/Annots" not in page
    assert "/Outlines" not in reader.trailer["/Root"]
    assert [p["difficulty"] for p in book.manifest["puzzles"]] == ["easy", "medium", "hard"]
    assert book.pages == 24 and book.warnings == ()
    texts = [page.extract_text() for page in reader.pages]
    assert "Test Book" in texts[0] and "How to play" in texts[3]
    for entry in book.manifest["puzzles"]:
        assert sum(t.count(entry["id"]) for t in texts) == 1
        assert entry["id"] in texts[entry["page"] - 1]


def test_a_small_kdp_book_is_padded_to_24_pages_of_notes_and_stays_byte_identical():
    entries = book_puzzles(SMALL_IDS, ["easy", "medium", "hard"])
    options = BookOptions(title="Short", trim="6x9", profile="kdp")
    book = render_book(entries, options)
    reader = PdfReader(io.BytesIO(book.pdf))
    assert len(reader.pages) == book.pages == book.manifest["pages"] == 24
    kinds = book.manifest["page_kinds"]
    # One section per grade, each on its own page; the solutions start on a right-hand page.
    assert kinds[:9] == ["title", "copyright", "contents", "howto", "puzzles", "puzzles", "puzzles", "blank",
                         "solutions"]
    assert kinds[9:] == ["index"] + ["notes"] * 14
    for page_no in range(11, 25):
        text = reader.pages[page_no - 1].extract_text()
        assert "Notes" in bold_runs(reader, page_no - 1)
        assert sorted(text.split()) == sorted(["Notes", str(page_no)])  # the heading and the page number
    assert book.warnings == ()
    assert render_book(entries, options).pdf == book.pdf


def test_a_longer_odd_kdp_book_gets_one_notes_page_to_make_it_even():
    entries = (book_puzzles(SMALL_IDS, ["easy"] * 3) * 25)
    # 75 puzzles, and one more when that makes the unpadded book odd.
    def unpadded(items):
        """The page count of the kdp book before notes pad it."""
        return sum(p.kind != "notes" for p in plan_book(shapes_of(items), Layout("6x9", "kdp")).pages)

    entries = next(entries[:n] for n in range(75, 40, -1) if unpadded(entries[:n]) % 2)
    book = render_book(entries, BookOptions(trim="6x9", profile="kdp"))
    reader = PdfReader(io.BytesIO(book.pdf))
    assert len(reader.pages) == book.pages > 24 and book.pages % 2 == 0
    assert book.manifest["page_kinds"].count("notes") == 1 and book.manifest["page_kinds"][-1] == "notes"
    assert "Notes" in reader.pages[-1].extract_text()


def test_pnp_books_are_not_padded():
    book = render_book(book_puzzles(SMALL_IDS, ["easy"] * 3), BookOptions(trim="6x9"))
    reader = PdfReader(io.BytesIO(book.pdf))
    assert len(reader.pages) == book.pages == 7 and book.manifest["page_kinds"][-1] == "index"
    assert "notes" not in book.manifest["page_kinds"] and book.warnings == ()
    assert all("Notes" not in page.extract_text() for page in reader.pages)


def test_book_command_end_to_end(tmp_path):
    out, manifest_path = tmp_path / "book.pdf", tmp_path / "book.json"
    args = ["book", "--count", "5", "--size", "7x7", "--difficulty", "mixed", "--seed", "3",
            "--out", str(out), "--manifest", str(manifest_path), "--title", "Seven Seas", "--ids-under-grids"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    first = out.read_bytes()
    manifest = json.loads(manifest_path.read_text())
    reader = PdfReader(out)
    assert len(reader.pages) == manifest["pages"]
    assert float(reader.pages[0].mediabox.width) == pytest.approx(210 * PT_PER_MM, abs=0.01)
    assert float(reader.pages[0].mediabox.height) == pytest.approx(297 * PT_PER_MM, abs=0.01)
    assert "/Outlines" in reader.trailer["/Root"]
    kinds = manifest["page_kinds"]
    puzzle_pages = [i for i, k in enumerate(kinds) if k == "puzzles"]
    solution_pages = [i for i, k in enumerate(kinds) if k == "solutions"]
    texts = {i: reader.pages[i].extract_text() for i in range(len(reader.pages))}
    ranks = ["easy", "medium", "hard", "expert"]
    grades = [p["difficulty"] for p in manifest["puzzles"]]
    assert grades == sorted(grades, key=ranks.index)
    for entry in manifest["puzzles"]:
        n = entry["number"]
        assert sum(texts[i].count(entry["id"]) for i in puzzle_pages) == 1
        assert all(entry["id"] not in texts[i] for i in solution_pages)
        assert sum(bold_runs(reader, i).count(str(n)) for i in solution_pages) == 1
        assert str(n) in bold_runs(reader, entry["solution_page"] - 1)
        assert str(n) in bold_runs(reader, entry["page"] - 1)
        puzzle = parse_tatham_id(entry["id"])
        assert referee(puzzle, entry["solution"]) == []
        assert solve(puzzle).solution == Solution.from_lists(entry["solution"])
    assert CliRunner().invoke(cli, args).exit_code == 0
    assert out.read_bytes() == first


def test_every_font_is_embedded_and_no_helvetica_remains():
    book = render_book(book_puzzles(SMALL_IDS[:1], ["easy"]), BookOptions(profile="kdp"))
    reader = PdfReader(io.BytesIO(book.pdf))
    names = set()
    for page in reader.pages:
        fonts = page["/Resources"].get_object().get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            names.add(str(font["/BaseFont"]))
            descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            descriptor = descendant["/FontDescriptor"].get_object()
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
    # Vera for the text, the monospace face (a DejaVu Sans Mono subset) for the index of IDs.
    assert names and all("Vera" in n or "HashiMono" in n for n in names)
    assert b"Helvetica" not in book.pdf


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="poppler-utils not installed")
def test_pdffonts_reports_every_font_embedded(tmp_path):
    path = tmp_path / "b.pdf"
    path.write_bytes(render_book(book_puzzles(SMALL_IDS[:2], ["easy", "hard"]), BookOptions()).pdf)
    lines = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
    rows = lines.splitlines()[2:]
    assert rows and all(row.split()[-5] == "yes" for row in rows)


def test_crop_marks_enlarge_the_sheet_and_set_the_trim_box():
    book = render_book(book_puzzles(SMALL_IDS[:1], ["easy"]), BookOptions(trim="6x9", crop_marks=True))
    page = PdfReader(io.BytesIO(book.pdf)).pages[2]
    assert float(page.trimbox.width) == pytest.approx(6 * 72, abs=0.01)
    assert float(page.mediabox.width) > float(page.trimbox.width) + 20
    with pytest.raises(OptionError, match="crop marks"):
        render_book(book_puzzles(SMALL_IDS[:1], ["easy"]), BookOptions(profile="kdp", crop_marks=True))


def test_from_file_lays_out_given_puzzles_and_names_a_non_unique_line(tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("# three puzzles\n" + "\n".join(SMALL_IDS) + "\n")
    out = tmp_path / "g.pdf"
    manifest = tmp_path / "g.json"
    result = CliRunner().invoke(cli, ["book", "--from", str(good), "--out", str(out), "--manifest",
                                      str(manifest), "--order", "as-generated"])
    assert result.exit_code == 0, result.output
    assert [p["id"] for p in json.loads(manifest.read_text())["puzzles"]] == SMALL_IDS
    bad = tmp_path / "bad.txt"
    bad.write_text(SMALL_IDS[0] + "\n3x3m2:3a3c3a3\n")
    result = CliRunner().invoke(cli, ["book", "--from", str(bad), "--out", str(tmp_path / "b.pdf")])
    assert result.exit_code == 2
    assert "bad.txt line 2" in result.output and "exactly one" in result.output
    assert not (tmp_path / "b.pdf").exists()


def test_a_grid_too_wide_for_the_trim_is_refused_in_plain_words():
    with pytest.raises(OptionError, match="does not fit this page"):
        _, _, w, h = content_box(1, "6x9", margins_for("6x9", "pnp", 40))
        arrange(25, 25, w, h, PUZZLE_SLOT)


def test_from_file_refuses_a_json_line_whose_solution_is_wrong(tmp_path):
    from hashi_print.puzzle.formats import puzzle_to_json

    puzzle = parse_tatham_id(SMALL_IDS[0])
    right = solve(puzzle).solution
    wrong = Solution(tuple(b if i else type(b)(b.r1, b.c1, b.r2, b.c2, 3 - b.count)
                           for i, b in enumerate(right.bridges)))
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps(puzzle_to_json(puzzle, right, "easy")) + "\n"
                    + json.dumps(puzzle_to_json(puzzle, wrong, "easy")) + "\n")
    result = CliRunner().invoke(cli, ["book", "--from", str(path), "--out", str(tmp_path / "x.pdf")])
    assert result.exit_code == 2
    assert "p.jsonl line 2" in result.output and "not its (unique) solution" in result.output


BIG_ID = ("25x25m2:a2d6e2a2a2a4c6a2z4a6b6g6b5b6a6a4e2a2a6a3a1e1a2a4c1l1a4b3a3i3a8d7a2d2f4k1a5a3b2a4g3a4a2b5f7"
          "a5b4d3e5c5b3h4a4a4b4k1j1k1b1c4c3j2a6b2a3g2b4p4c3s5f7a4f2a6a6b4zb1a2b7a4a6a2a4b4b2c5d4p2c2a4i2a5c2a3"
          "n2b2a2a4a6a3a2a4a6o2c2f2c4d4a4a4a2d2b4c8g8c6a3d3c1r4g6a2a1c5f3a")


def test_a_25x25_takes_a_letter_page_alone_with_its_long_id_wrapped():
    entries = book_puzzles([BIG_ID, SMALL_IDS[0]], ["easy", "easy"])
    book = render_book(entries, BookOptions(trim="letter", order="as-generated", ids_under=True))
    reader = PdfReader(io.BytesIO(book.pdf))
    assert float(reader.pages[0].mediabox.width) == pytest.approx(8.5 * 72, abs=0.01)
    assert float(reader.pages[0].mediabox.height) == pytest.approx(11 * 72, abs=0.01)
    big, small = book.manifest["puzzles"]
    assert big["page"] != small["page"]
    assert big["island_mm"] >= MIN_ISLAND_MM and small["island_mm"] > big["island_mm"]
    text = reader.pages[big["page"] - 1].extract_text().replace("\n", "")
    assert BIG_ID in text



@pytest.mark.parametrize("trim", ["a4", "letter", "6x9"])
@pytest.mark.parametrize("profile", ["pnp", "kdp"])
def test_mixed_size_pages_keep_every_grid_inside_the_type_area(trim, profile):
    ids = [SMALL_IDS[0]] * 5 + ([BIG_ID] * 2 if trim != "6x9" else []) + SMALL_IDS[1:] * 3
    entries = order_puzzles(book_puzzles(ids, ["easy"] * len(ids)), "as-generated")
    plan = plan_book(shapes_of(entries), Layout(trim, profile), grouped=False)
    margins, pages = plan.margins, plan.pages
    seen = []
    for page_no, page in enumerate(pages, 1):
        if page.kind not in ("puzzles", "solutions"):
            continue
        slot = PUZZLE_SLOT if page.kind == "puzzles" else solution_slot(Layout(trim, profile).min_text_pt)
        _, _, w, h = content_box(page_no, trim, margins)
        cell = page.cell
        tall = sum(row_height(r, cell, slot, 7.0) for r in page.rows) + (len(page.rows) - 1) * slot.gap
        assert tall <= h + 1e-6
        for row in page.rows:
            a = row.arrangement
            assert len(row.numbers) <= a.cols
            # Every grid with its frame (1.5 mm outside the grid) fits across the type area.
            assert a.cols * (row.grid[0] * cell + 3.0) + (a.cols - 1) * slot.gap <= w + 1e-6
            for n in row.numbers:
                pz = entries[n - 1].puzzle
                if page.kind == "puzzles":
                    assert (pz.cols, pz.rows) == row.grid
                    assert cell * PUZZLE_STYLE.island_ratio >= MIN_ISLAND_MM - 1e-9
                    seen.append(n)
                else:
                    assert pz.cols <= row.grid[0] and pz.rows <= row.grid[1]
    assert seen == list(range(1, len(entries) + 1))


def test_the_manifest_records_the_generator_version_of_every_puzzle(tmp_path):
    made = {}
    for version in ("1", "2"):
        manifest = tmp_path / f"book-{version}.json"
        result = CliRunner().invoke(cli, ["book", "--count", "3", "--size", "7x7", "--difficulty", "easy",
                                          "--seed", "3", "--generator", version, "--out",
                                          str(tmp_path / f"book-{version}.pdf"), "--manifest", str(manifest)])
        assert result.exit_code == 0, result.output
        made[version] = json.loads(manifest.read_text())
        assert made[version]["generator"] == int(version)
        assert {p["generator"] for p in made[version]["puzzles"]} == {int(version)}
    assert [p["id"] for p in made["1"]["puzzles"]] != [p["id"] for p in made["2"]["puzzles"]]
    ids = tmp_path / "ids.txt"
    ids.write_text("\n".join(p["id"] for p in made["2"]["puzzles"]) + "\n")
    manifest = tmp_path / "from.json"
    result = CliRunner().invoke(cli, ["book", "--from", str(ids), "--out", str(tmp_path / "from.pdf"),
                                      "--manifest", str(manifest)])
    assert result.exit_code == 0, result.output
    assert json.loads(manifest.read_text())["generator"] is None
