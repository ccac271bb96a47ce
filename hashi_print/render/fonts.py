"""The faces text is set in: Bitstream Vera for Latin, and for Korean and Japanese the subsets of
NanumGothic and IPAexGothic that ship in hashi_print/fonts (renamed, see the README there).

A line of text is set in one face: Vera when Vera has every character of it (so Latin text, numerals
and IDs look the same in every language), otherwise the face of the language being printed, then the
other CJK face. A character no shipped face has is refused with a clear error instead of an empty box.
"""

from __future__ import annotations

import base64
import io
from functools import cache
from importlib.resources import as_file, files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont, TTFontFace

from hashi_print.errors import LayoutError
from hashi_print.i18n import current_language

if TYPE_CHECKING:
    from fontTools import ttLib

LATIN = {False: "HashiSans", True: "HashiSans-Bold"}
# IPAexGothic has no bold weight: Japanese bold text is drawn with a thin outline (see FAKE_BOLD).
CJK = {"ko": {False: "HashiKo", True: "HashiKo-Bold"}, "ja": {False: "HashiJa", True: "HashiJa"}}
FAKE_BOLD = {"HashiJa"}
# Outline width of fake bold, as a fraction of the font size (about the stem difference of a bold cut).
FAKE_BOLD_STROKE = 0.03
_REPORTLAB_FILES = {"HashiSans": "Vera.ttf", "HashiSans-Bold": "VeraBd.ttf"}
# The monospace face of a book's index of IDs (a subset of DejaVu Sans Mono, see fonts/README.md).
MONO = "HashiMono"
_PACKAGE_FILES = {"HashiKo": "hashi-ko-gothic.ttf", "HashiKo-Bold": "hashi-ko-gothic-bold.ttf",
                  "HashiJa": "hashi-ja-gothic.ttf", MONO: "hashi-mono.ttf"}
# An SVG names Vera and lets the viewer find it (or a look-alike); the Korean and Japanese faces are
# embedded in the SVG under their own names (see svg_font_faces), with the originals as fallbacks.
SVG_FAMILIES = {"HashiSans": "'Bitstream Vera Sans', 'DejaVu Sans', Verdana, sans-serif",
                "HashiKo": "'HashiKo', 'NanumGothic', 'Nanum Gothic', 'Noto Sans CJK KR', sans-serif",
                "HashiJa": "'HashiJa', 'IPAexGothic', 'Noto Sans CJK JP', 'Hiragino Sans', sans-serif",
                MONO: "'HashiMono', 'DejaVu Sans Mono', monospace"}
# The name IDs a subset keeps: family and style names, and the copyright and licence the fonts carry.
_KEEP_NAMES = [0, 1, 2, 3, 4, 5, 6, 13, 14]


def font_file(name: str) -> Traversable:
    """Where a face's TrueType file is: reportlab's own fonts folder or this package's fonts folder."""
    if name in _REPORTLAB_FILES:
        import reportlab

        return Path(reportlab.__file__).parent / "fonts" / _REPORTLAB_FILES[name]
    return files("hashi_print") / "fonts" / _PACKAGE_FILES[name]


def register(name: str) -> str:
    """Register a face with reportlab the first time it is needed (idempotent); return its name."""
    if name not in pdfmetrics.getRegisteredFontNames():
        with as_file(font_file(name)) as path:
            pdfmetrics.registerFont(TTFont(name, str(path)))
    return name


def face_of(name: str) -> TTFontFace:
    """The TrueType face of a registered font (its metrics and character map)."""
    font = pdfmetrics.getFont(register(name))
    if not isinstance(font, TTFont):
        raise LayoutError(f"the font {name} is not a TrueType font")
    return font.face


@cache
def characters(name: str) -> frozenset[int]:
    """The code points a face has glyphs for."""
    return frozenset(face_of(name).charToGlyph)


def font_for(s: str, bold: bool = False, mono: bool = False) -> str:
    """The face a line of text is set in (see the module docstring); raise LayoutError if none has it.

    `mono` asks for the monospace face, which holds printable ASCII (the characters of an ID).
    """
    need = {ord(ch) for ch in s}
    if mono and need <= characters(MONO):
        return MONO
    latin = LATIN[bold]
    if need <= characters(latin):
        return latin
    lang = current_language()
    order = [lang] if lang in CJK else []
    order += [code for code in CJK if code not in order]
    for code in order:
        name = CJK[code][bold]
        if need <= characters(name):
            return name
    known = characters(latin).union(*(characters(CJK[code][bold]) for code in CJK))
    missing = "".join(sorted({chr(c) for c in need - known}))
    raise LayoutError(f"cannot print {missing!r} (in {s[:40]!r}): the fonts shipped with hashi-print "
                      "have no glyph for it")


def svg_family(name: str) -> str:
    """The CSS font-family list an SVG names for a face."""
    return SVG_FAMILIES[LATIN[False] if name in LATIN.values() else name.split("-")[0]]


def cut_font(font: ttLib.TTFont, unicodes: set[int]) -> None:
    """Cut a fontTools font, in place, down to the characters `unicodes` (no hinting, no layout features)."""
    from fontTools import subset

    options = subset.Options()
    options.hinting = False
    options.layout_features = []
    options.name_IDs = _KEEP_NAMES
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(unicodes))
    subsetter.subset(font)


def subset_font(name: str, text: str) -> bytes:
    """The face `name` cut down to the characters of `text`, as TrueType bytes (the same on every run)."""
    from fontTools.ttLib import TTFont as ToolsFont

    with as_file(font_file(name)) as path:
        font = ToolsFont(str(path), recalcTimestamp=False)
    cut_font(font, {ord(ch) for ch in text})
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def svg_font_faces(used: dict[str, str]) -> str:
    """CSS @font-face rules embedding, per Korean or Japanese face, the subset holding the text it drew."""
    rules = []
    for name in sorted(used):
        family = name.split("-")[0]
        weight = "bold" if name.endswith("-Bold") else "normal"
        data = base64.b64encode(subset_font(name, used[name])).decode("ascii")
        rules.append(f"@font-face {{ font-family: '{family}'; font-weight: {weight}; "
                     f"src: url(data:font/ttf;base64,{data}) format('truetype'); }}")
    return "\n".join(rules)
