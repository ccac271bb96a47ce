"""The kit's sample puzzle book: every printed ID is a puzzle with exactly one solution."""

from __future__ import annotations

import re

from pypdf import PdfReader

from hashi_print.jobs.kit import SAMPLE_BOOK, sample_books
from hashi_print.puzzle.formats import parse_tatham_id
from hashi_print.puzzle.solve import solve


def test_sample_book_prints_unique_puzzles(tmp_path) -> None:
    written = sample_books(tmp_path, ("letter",))
    assert [p.name for p, _ in written] == ["puzzles-letter.pdf"]
    reader = PdfReader(str(written[0][0]))
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)
    # The IDs are listed at the back under their numbers, each cut into blocks of five characters.
    entries: dict[int, str] = {}
    number = None
    for page in reader.pages:
        if "Puzzle IDs" not in page.extract_text():
            continue
        for line in page.extract_text().splitlines():
            if line.strip().isdigit():
                number = int(line)
                entries[number] = ""
            elif number is not None and re.fullmatch(r"[0-9a-z:x ]+", line):
                entries[number] += line.replace(" ", "")
    ids = [tid for tid in entries.values() if re.fullmatch(r"\d{1,2}x\d{1,2}m2:[0-9a-z]+", tid)]
    assert len(ids) == SAMPLE_BOOK.count
    for tid in ids:
        assert solve(parse_tatham_id(tid)).status == "unique"
