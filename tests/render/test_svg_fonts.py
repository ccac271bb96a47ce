"""Korean and Japanese SVGs carry their own fonts: a subset of the shipped face, embedded as @font-face.

Each SVG of the kit is parsed on its own terms: the characters every <text> draws in a Korean or
Japanese family are looked up in the character map (fontTools) of the font embedded under that family
name. A browser with no Korean or Japanese font installed then draws the page from the SVG alone.
"""

from __future__ import annotations

import base64
import io
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import cv2
import numpy as np
import pytest
from fontTools.ttLib import TTFont

from hashi_print.jobs.kit import load_kit_data, svg_files
from hashi_print.jobs.leaflet import leaflet_examples

SVG = "{http://www.w3.org/2000/svg}"
FACE = re.compile(r"@font-face \{ font-family: '([A-Za-z]+)'; font-weight: (normal|bold); "
                  r"src: url\(data:font/ttf;base64,([A-Za-z0-9+/=]+)\) format\('truetype'\); \}")
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def kit_svgs(tmp_path_factory) -> dict[str, list[Path]]:
    """The kit's SVG files (sheets, cards, solo table, leaflet) in English, Korean and Japanese."""
    data = load_kit_data()
    examples = leaflet_examples(data.side_a, data.deck)
    out = {}
    for lang in ("en", "ko", "ja"):
        folder = tmp_path_factory.mktemp(f"svg-{lang}")
        out[lang] = [path for path, _what in svg_files(data, "a4", folder, examples, lang)]
    return out


def embedded_faces(root: ET.Element) -> dict[tuple[str, str], TTFont]:
    """The fonts a parsed SVG embeds, by (family, weight)."""
    css = "".join("".join(style.itertext()) for style in root.iter(f"{SVG}style"))
    faces = {(family, weight): TTFont(io.BytesIO(base64.b64decode(data)))
             for family, weight, data in FACE.findall(css)}
    assert len(faces) == css.count("@font-face"), "an @font-face rule that is not an embedded TrueType font"
    return faces


def drawn_text(root: ET.Element) -> list[tuple[str, str, str]]:
    """(first font family, weight, text) of every <text> element."""
    out = []
    for node in root.iter(f"{SVG}text"):
        family = node.get("font-family", "").split(",")[0].strip(" '\"")
        out.append((family, node.get("font-weight", "normal"), "".join(node.itertext())))
    return out


@pytest.mark.parametrize("lang", ["ko", "ja"])
def test_every_korean_and_japanese_character_is_in_the_embedded_font(kit_svgs, lang):
    family = {"ko": "HashiKo", "ja": "HashiJa"}[lang]
    script = {"ko": re.compile("[\uac00-\ud7a3]"), "ja": re.compile("[\u3040-\u30ff\u4e00-\u9fff]")}[lang]
    with_text = set()
    for path in kit_svgs[lang]:
        root = ET.parse(path).getroot()
        faces = embedded_faces(root)
        texts = drawn_text(root)
        if any(script.search(text) for _f, _w, text in texts):
            with_text.add(path.name)
        else:
            assert not faces, f"{path.name}: embeds a font it does not use"
        for name, weight, text in texts:
            if not script.search(text):
                continue
            assert name == family, f"{path.name}: {text!r} is set in {name!r}, not the embedded {family}"
            # Bold Japanese comes from the regular face (IPAexGothic has no bold); Korean has its own.
            face = faces.get((name, weight)) or faces.get((name, "normal"))
            assert face is not None, f"{path.name}: no embedded {name} for {text!r}"
            cmap = face.getBestCmap()
            missing = sorted({ch for ch in text if ord(ch) not in cmap})
            assert not missing, f"{path.name}: {missing} of {text!r} are not in the embedded {name}"
        # A subset, not the whole face: only what the page draws (and .notdef).
        for (name, _weight), face in faces.items():
            used = {ch for n, _w, text in texts if n == name for ch in text}
            assert set(face.getBestCmap()) <= {ord(ch) for ch in used}, path.name
    # Everything but the card backs (HASHI in every language) has Korean or Japanese text.
    assert with_text == {p.name for p in kit_svgs[lang]} - {"cards-back.svg"}


def test_english_svgs_embed_nothing_and_a_rerun_gives_the_same_bytes(kit_svgs, tmp_path):
    for path in kit_svgs["en"]:
        assert b"@font-face" not in path.read_bytes(), path.name
    data = load_kit_data()
    again = svg_files(data, "a4", tmp_path, leaflet_examples(data.side_a, data.deck), "ja")
    for (path, _what), first in zip(again, kit_svgs["ja"], strict=True):
        assert path.read_bytes() == first.read_bytes(), path.name


def screenshot(svg: Path, png: Path, fontconfig: Path | None) -> np.ndarray:
    """The SVG drawn by Chromium, with only the fonts a fontconfig file lists when one is given."""
    env = {"HOME": str(png.parent), "PATH": "/usr/bin:/bin"}
    if fontconfig is not None:
        env["FONTCONFIG_FILE"] = str(fontconfig)
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--force-device-scale-factor=1", "--window-size=800,1130", f"--screenshot={png}",
                    svg.as_uri()], env=env, capture_output=True, timeout=60, check=True)
    return cv2.imread(str(png), cv2.IMREAD_GRAYSCALE).astype(float)


# The machine's own font setup with every font that covers Korean or Japanese taken away.
NO_CJK = """<?xml version="1.0"?><fontconfig>
<include ignore_missing="yes">/etc/fonts/fonts.conf</include>
<selectfont><rejectfont>
  <pattern><patelt name="lang"><string>ja</string></patelt></pattern>
  <pattern><patelt name="lang"><string>ko</string></patelt></pattern>
</rejectfont></selectfont>
</fontconfig>"""


def font_files(lang: str, fontconfig: Path | None = None) -> str:
    """The font files fontconfig offers for a language, with the machine's setup or a given one."""
    env = None if fontconfig is None else {"FONTCONFIG_FILE": str(fontconfig)}
    return subprocess.run(["fc-list", f":lang={lang}", "file"], env=env, capture_output=True, text=True,
                          check=True).stdout.strip()


@pytest.mark.skipif(not Path(CHROMIUM).exists() or shutil.which("fc-list") is None, reason="no Chromium")
@pytest.mark.parametrize("lang", ["ko", "ja"])
def test_a_browser_without_cjk_fonts_draws_the_sheet_from_the_svg_alone(kit_svgs, lang, tmp_path):
    # The comparison needs the machine's own fonts for the language (CI installs fonts-nanum and
    # fonts-ipaexfont-gothic, the fonts the embedded faces are cut from).
    if not font_files(lang):
        pytest.skip(f"no system font for {lang} to compare with: "
                    "apt-get install fonts-nanum fonts-ipaexfont-gothic")
    conf = tmp_path / "fonts.conf"
    conf.write_text(NO_CJK)
    left = font_files(lang, conf)
    assert left == "", f"fonts for {lang} are still visible: {left}"
    sheet = next(p for p in kit_svgs[lang] if p.name == "sheet-A.svg")
    stripped = tmp_path / "stripped.svg"
    stripped.write_text(re.sub(r"<style[^>]*>.*?</style>", "", sheet.read_text(), flags=re.S))
    alone = screenshot(sheet, tmp_path / "alone.png", conf)
    system = screenshot(stripped, tmp_path / "system.png", None)
    boxes = screenshot(stripped, tmp_path / "boxes.png", conf)
    # The SVG alone on a machine without Korean or Japanese fonts looks like the SVG without its fonts
    # on a machine with them (the embedded faces are cut from the same fonts, unhinted); without
    # either, every Korean or Japanese glyph turns into an empty box.
    same, boxed = np.abs(alone - system).mean(), np.abs(alone - boxes).mean()
    assert same < 0.3 and boxed > 5 * max(same, 0.02), (same, boxed)
