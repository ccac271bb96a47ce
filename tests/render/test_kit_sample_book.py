"""The kit's sample puzzle book: every printed ID is a puzzle with exactly one solution."""

from __future__ import annotations

import re

from pypdf import PdfReader

from hashi_print.puzzle.formats import parse_tatham_id
from hashi_print.puzzle.solve import solve
from hashi_print.render.kit import SAMPLE_BOOK, sample_books


def test_sample_book_prints_unique_puzzles(tmp_path) -> None:
    written = sample_books(tmp_path, ("letter",))
    assert [p.name for p, _ in written] == ["puzzles-letter.pdf"]
    reader = PdfReader(str(written[0][0]))
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)
    lines = [ln for page in reader.pages for ln in page.extract_text().splitlines()]
    ids = [m for ln in lines for m in re.findall(r"(?<!\d)\d{1,2}x\d{1,2}m2:[0-9A-Za-z]+", ln)]
    assert len(ids) == SAMPLE_BOOK["count"]
    for tid in ids:
        assert solve(parse_tatham_id(tid)).status == "unique"
