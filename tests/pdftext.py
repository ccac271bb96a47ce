"""Reading text back from PDF pages with its position, for the rendering tests."""

from __future__ import annotations

from pypdf import PdfReader

MM_PER_PT = 25.4 / 72


def page_texts(reader: PdfReader, page: int = 0) -> list[tuple[str, float, float, float]]:
    """Text items of a page: (text, x mm, y mm from the top, size pt)."""
    height = float(reader.pages[page].mediabox.height)
    out = []

    def visit(text, cm, tm, font, size):
        """Record one text run with its position."""
        if text.strip():
            out.append((text.strip(), tm[4] * MM_PER_PT, (height - tm[5]) * MM_PER_PT, size))

    reader.pages[page].extract_text(visitor_text=visit)
    return out
