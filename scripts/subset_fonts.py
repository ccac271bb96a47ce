"""Cut the Korean, Japanese and monospace fonts in hashi_print/fonts down to the characters printed.

Run `make fonts` after changing the catalogs (it needs Debian's fonts-nanum, fonts-ipaexfont and
fonts-dejavu-core and fontTools). The subsets keep every character of every catalog, printable ASCII,
Latin-1, common punctuation and, for Japanese, all kana (the monospace face: printable ASCII); they are
renamed because the licences forbid a modified font to carry the original's name (OFL reserved font
names; IPA Font Licence 3.1(4); the Bitstream Vera licence).
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.pofile import read_po
from fontTools.ttLib import TTFont

from hashi_print.render.fonts import cut_font

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "hashi_print" / "locale"
OUT = ROOT / "hashi_print" / "fonts"
NANUM = Path("/usr/share/fonts/truetype/nanum")
IPAEX = Path("/usr/share/fonts/opentype/ipaexfont-gothic")
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
# (source file, shipped file, family name, style name)
FONTS = (
    (NANUM / "NanumGothic.ttf", "hashi-ko-gothic.ttf", "HashiKo Gothic", "Regular"),
    (NANUM / "NanumGothicBold.ttf", "hashi-ko-gothic-bold.ttf", "HashiKo Gothic", "Bold"),
    (IPAEX / "ipaexg.ttf", "hashi-ja-gothic.ttf", "HashiJa Gothic", "Regular"),
    # The monospace face of a book's index of puzzle IDs: printable ASCII is all an ID holds.
    (DEJAVU / "DejaVuSansMono.ttf", "hashi-mono.ttf", "HashiMono", "Regular"),
)
# The few characters of the menu bar that every page shows (the logo's 橋 and the language names), in faces
# of their own, so a page in a Latin script never downloads a whole Korean or Japanese face.
MENU = (
    (IPAEX / "ipaexg.ttf", "hashi-menu-ja.ttf", "HashiMenu Ja", "Regular", "橋日本語"),
    (NANUM / "NanumGothic.ttf", "hashi-menu-ko.ttf", "HashiMenu Ko", "Regular", "한국어"),
)
COMMON = [*range(0x20, 0x7F), *range(0xA0, 0x100), *range(0x2010, 0x2028), *range(0x2030, 0x203B),
          0x2212, 0x00D7]
KANA = [*range(0x3000, 0x3040), *range(0x3041, 0x3097), *range(0x30A0, 0x3100), *range(0xFF01, 0xFF5F)]


def catalog_characters() -> set[int]:
    """Every character of every translated message."""
    chars: set[int] = set()
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as f:
            for message in read_po(f):
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                for s in strings:
                    chars.update(ord(ch) for ch in s or "")
    return chars


def make_subset(source: Path, target: Path, family: str, style: str, unicodes: set[int]) -> None:
    """Write the subset of `source` holding `unicodes` (those it has) under a new name."""
    # The source's own date stays in the head table, so the same fonts give byte-identical subsets.
    font = TTFont(source, recalcTimestamp=False)
    cut_font(font, unicodes & set(font.getBestCmap()))
    full = family if style == "Regular" else f"{family} {style}"
    ps = full.replace(" ", "-") if style != "Regular" else family.replace(" ", "")
    names = {1: family, 2: style, 3: f"hashi-print: {full}", 4: full, 6: ps}
    table = font["name"]
    for record in list(table.names):
        if record.nameID in names:
            table.removeNames(nameID=record.nameID)
    for name_id, value in names.items():
        table.setName(value, name_id, 3, 1, 0x409)
        table.setName(value, name_id, 1, 0, 0)
    font.save(target)


def main() -> int:
    """Write the three subsets and the two menu faces and report their sizes."""
    wanted = catalog_characters() | set(COMMON)
    for source, name, family, style in FONTS:
        extra = set(KANA) if "Ja" in family else set()
        chars = set(range(0x20, 0x7F)) if "Mono" in family else wanted | extra
        make_subset(source, OUT / name, family, style, chars)
        print(f"{name}: {(OUT / name).stat().st_size // 1024} KiB")
    for source, name, family, style, text in MENU:
        make_subset(source, OUT / name, family, style, {ord(ch) for ch in text})
        print(f"{name}: {(OUT / name).stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
