"""Japanese line breaks at phrase boundaries: <wbr> between the phrases BudouX finds in a page's text."""

from __future__ import annotations

import html
import re
from functools import cache
from typing import Any

_TAG = re.compile(r"(<[^>]*>)")
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
# Text in these elements is not laid out as running text (or must stay exactly as it is).
_RAW = ("script", "style", "title", "textarea", "option", "code", "svg")


@cache
def _parser() -> Any:
    """BudouX's Japanese model (it ships inside the budoux package; budoux has no type information)."""
    import budoux

    return budoux.load_default_japanese_parser()


def phrase_text(text: str) -> str:
    """One run of escaped HTML text with <wbr> between its Japanese phrases."""
    if not _JAPANESE.search(text):
        return text
    phrases = _parser().parse(html.unescape(text))
    return "<wbr>".join(html.escape(p, quote=False) for p in phrases)


def phrase_breaks(page: str) -> str:
    """A whole HTML page with <wbr> at the phrase boundaries of its Japanese running text (never inside a
    tag, an attribute, a script, a style, the title, a text area, an option or code)."""
    out = []
    raw: str | None = None
    for piece in _TAG.split(page):
        if piece.startswith("<"):
            name = re.match(r"</?\s*([a-zA-Z0-9]+)", piece)
            tag = name[1].lower() if name else ""
            if raw is None and not piece.startswith("</") and tag in _RAW and not piece.endswith("/>"):
                raw = tag
            elif raw is not None and piece.startswith("</") and tag == raw:
                raw = None
            out.append(piece)
        else:
            out.append(piece if raw is not None else phrase_text(piece))
    return "".join(out)
