"""Every printed product in every language: complete catalogs, glyphs that exist, text that stays in its box.

The measuring here is independent of the renderer: the fonts are read with fontTools (character map,
advance widths, ascent and descent) and a line's face is chosen by the documented rule (Vera when it
has every character, else the language's CJK face).
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from click.testing import CliRunner
from fontTools.ttLib import TTFont

import hashi_print.render.book as book_module
import hashi_print.render.canvas as canvas_module
import hashi_print.render.cards as cards_module
import hashi_print.render.leaflet as leaflet_module
import hashi_print.render.sheet as sheet_module
import hashi_print.render.solo as solo_module
from hashi_print.cli import cli
from hashi_print.errors import LayoutError
from hashi_print.files import designed_text
from hashi_print.i18n import LANGUAGES, language
from hashi_print.jobs.kit import load_kit_data
from hashi_print.jobs.leaflet import leaflet_examples
from hashi_print.puzzle.book import book_plan_requests, generate_puzzles
from hashi_print.render.book import BookOptions, render_book
from hashi_print.render.canvas import PdfCanvas, wrap_text
from hashi_print.render.cards import render_cards_pdf, render_cards_printshop
from hashi_print.render.leaflet import render_leaflet
from hashi_print.render.sheet import render_sheet
from hashi_print.render.solo import render_solo
from hashi_print.sheets.layout import sheet_layout

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "hashi_print"
LOCALE = PACKAGE / "locale"
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
PT = 25.4 / 72
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
VERA = Path(__import__("reportlab").__file__).parent / "fonts"
FACES = {("latin", False): VERA / "Vera.ttf", ("latin", True): VERA / "VeraBd.ttf",
         ("ko", False): PACKAGE / "fonts" / "hashi-ko-gothic.ttf",
         ("ko", True): PACKAGE / "fonts" / "hashi-ko-gothic-bold.ttf",
         ("ja", False): PACKAGE / "fonts" / "hashi-ja-gothic.ttf",
         ("ja", True): PACKAGE / "fonts" / "hashi-ja-gothic.ttf"}
# The smallest type each kind of product may use.
MIN_PT = {"sheet": 6.0, "book": 7.0}
PUZZLE_ID = re.compile(r"^\d+x\d+[a-z0-9]*:")


# --- the catalogs -----------------------------------------------------------------------------------

def catalog(lang: str):
    """The .po catalog of a language, as Babel reads it."""
    with (LOCALE / lang / "LC_MESSAGES" / "hashi_print.po").open("rb") as f:
        return read_po(f)


@cache
def source_messages() -> frozenset:
    """Every (context, message) the package marks for translation, read as `make catalogs` reads it:
    the Python code, the web app's templates and its scripts."""
    found = set()
    method_map = [("**.py", "python"), ("web/templates/**.html", "jinja2"),
                  ("web/static/**.js", "javascript")]
    for _filename, _line, message, _comments, context in extract_from_dir(
            str(PACKAGE), method_map=method_map, options_map={"web/templates/**.html": {
                "extensions": "jinja2.ext.i18n"}}):
        found.add((context, message))
    return frozenset(found)


def catalog_problems(po, lang: str) -> list[str]:
    """What is wrong with a language's catalog next to the messages the code marks."""
    problems = []
    for context, msgid in sorted(source_messages(), key=str):
        message = po.get(msgid, context=context)
        where = f" (context {context!r})" if context else ""
        if message is None:
            problems.append(f"{lang}: not in the catalog (run `make catalogs`, then translate): "
                            f"{msgid!r}{where}")
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(s.strip() for s in strings) or message.fuzzy:
            problems.append(f"{lang}: untranslated or fuzzy: {msgid!r}{where}")
        ids = msgid if isinstance(msgid, tuple) else (msgid,)
        want = set(PLACEHOLDER.findall(ids[-1]))
        if any(set(PLACEHOLDER.findall(s)) != want for s in strings):
            problems.append(f"{lang}: placeholders differ from the English: {msgid!r}{where}")
    problems += [f"{lang}: no longer in the code: {m.id!r}" for m in po
                 if m.id and (m.context, m.id) not in source_messages()]
    return problems


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated(lang):
    problems = catalog_problems(catalog(lang), lang)
    assert not problems, "\n".join(problems[:10])


def test_a_missing_or_broken_translation_is_reported():
    po = catalog("fr")
    gone, broken = "Tips", "Side {side}"
    del po[gone]
    po[broken].string = "Face"
    problems = catalog_problems(po, "fr")
    assert any("not in the catalog" in p and repr(gone) in p for p in problems)
    assert any("placeholders" in p and repr(broken) in p for p in problems)
    assert len(problems) == 2


@pytest.mark.parametrize("lang", TRANSLATED)
def test_shipped_catalog_is_compiled_from_the_po_file(lang):
    buffer = io.BytesIO()
    write_mo(buffer, catalog(lang))
    shipped = (LOCALE / lang / "LC_MESSAGES" / "hashi_print.mo").read_bytes()
    assert shipped == buffer.getvalue(), f"{lang}: hashi_print.mo is stale; run `make catalogs`"


def test_designed_levels_and_ratings_are_translated():
    import json

    scoring = json.loads(designed_text("scoring.json"))
    words = {level for levels in scoring["solo_levels"].values() for level in levels}
    words |= {word for bands in scoring["ratings"].values() for _low, word in bands}
    for lang in TRANSLATED:
        po = catalog(lang)
        untranslated = sorted(w for w in words if po.get(w) is None or not po.get(w).string)
        assert not untranslated, f"{lang}: {untranslated}"


# --- the faces --------------------------------------------------------------------------------------

@cache
def face(key: tuple[str, bool]):
    """Per code point of a face, from fontTools: (advance, top, bottom) in em (glyph outline bounds)."""
    font = TTFont(FACES[key])
    em = font["head"].unitsPerEm
    glyf, hmtx = font["glyf"], font["hmtx"].metrics
    metrics = {}
    for cp, name in font.getBestCmap().items():
        glyph = glyf[name]
        top, bottom = (glyph.yMax, glyph.yMin) if glyph.numberOfContours else (0, 0)
        metrics[cp] = (hmtx[name][0] / em, top / em, bottom / em)
    return metrics


def face_of(s: str, bold: bool, lang: str) -> tuple[str, bool]:
    """The face a line is set in: Vera when it has every character, else the language's CJK face."""
    if all(ord(ch) in face(("latin", bold)) for ch in s):
        return ("latin", bold)
    order = [lang] if lang in ("ko", "ja") else []
    order += [c for c in ("ko", "ja") if c not in order]
    for code in order:
        if all(ord(ch) in face((code, bold)) for ch in s):
            return (code, bold)
    raise AssertionError(f"{lang}: no shipped face has every character of {s!r}")


def text_box(x, y, s, size, anchor, bold, lang):
    """(left, top, right, bottom) in mm of a line's ink: advance widths across, glyph outlines up and down."""
    metrics = face(face_of(s, bold, lang))
    em = size * PT
    width = sum(metrics[ord(ch)][0] for ch in s) * em
    top = max(metrics[ord(ch)][1] for ch in s) * em
    bottom = min(metrics[ord(ch)][2] for ch in s) * em
    left = x - {"start": 0.0, "middle": width / 2, "end": width}[anchor]
    return left, y - top, left + width, y - bottom


# --- recording what the renderers draw ---------------------------------------------------------------

class Recorder(PdfCanvas):
    """A PdfCanvas that also keeps every line of text and every outlined box it draws, page by page."""

    log: list = []

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.page_items: list[dict] = [{"texts": [], "boxes": []}]
        Recorder.log.append(self)

    def text(self, x, y, s, *, size_pt=10, anchor="start", bold=False, color="#000000", id=None, angle=0,
             mono=False):
        """Record, then draw."""
        if s.strip() and not angle:
            self.page_items[-1]["texts"].append((x, y, s, size_pt, anchor, bold))
        super().text(x, y, s, size_pt=size_pt, anchor=anchor, bold=bold, color=color, id=id, angle=angle,
                     mono=mono)

    def rect(self, x, y, w, h, *, stroke="#000000", fill=None, width=0.3, id=None):
        """Record outlined boxes (the ones text must stay in or out of), then draw."""
        if stroke is not None:
            self.page_items[-1]["boxes"].append((x, y, x + w, y + h))
        super().rect(x, y, w, h, stroke=stroke, fill=fill, width=width, id=id)

    def new_page(self):
        """Start recording a new page."""
        super().new_page()
        self.page_items.append({"texts": [], "boxes": []})


def products(data, puzzles, out: Path, lang: str):
    """(name, kind, module, how to draw it) for every printed product in one language."""
    return [
        ("sheet A", "sheet", sheet_module,
         lambda: render_sheet(data.side_a, data.deck, data.scoring, "a4", "pdf", out / "sheet-a.pdf",
                              lang=lang)),
        ("sheet B letter", "sheet", sheet_module,
         lambda: render_sheet(data.side_b, data.deck, data.scoring, "letter", "pdf", out / "sheet-b.pdf",
                              lang=lang)),
        ("cards", "sheet", cards_module,
         lambda: render_cards_pdf(data.deck, "a4", out / "cards.pdf", lang=lang)),
        ("print-shop cards", "sheet", cards_module,
         lambda: render_cards_printshop(data.deck, out / "printshop.pdf", lang=lang)),
        ("solo table", "sheet", solo_module,
         lambda: render_solo(data.scoring, "letter", "pdf", out / "solo.pdf", lang=lang)),
        ("rules leaflet", "sheet", leaflet_module,
         lambda: render_leaflet(data.side_a, data.scoring, "a4", "pdf", out / "rules.pdf",
                                leaflet_examples(data.side_a, data.deck), lang=lang)),
        ("book", "book", book_module,
         lambda: (out / "book.pdf").write_bytes(render_book(puzzles, BookOptions(
             title="Hashi", trim="6x9", profile="kdp", lang=lang, note="hashi-print · seed 3")).pdf)),
    ]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    """Every product in every language, drawn once: {lang: [(name, kind, canvas)]}; PDFs under "lang-pdfs"."""
    data = load_kit_data()
    puzzles = list(generate_puzzles(book_plan_requests(6, [(7, 7), (10, 10)], "mixed"), 3))
    found: dict = {}
    for lang in LANGUAGES:
        out = tmp_path_factory.mktemp(lang)
        found[lang] = []
        for name, kind, module, draw in products(data, puzzles, out, lang):
            Recorder.log = []
            with pytest.MonkeyPatch.context() as patch:
                # Products make their page with canvas.make_canvas; the book and print-shop cards use
                # PdfCanvas itself.
                patch.setattr(canvas_module, "PdfCanvas", Recorder)
                if hasattr(module, "PdfCanvas"):
                    patch.setattr(module, "PdfCanvas", Recorder)
                draw()
            found[lang] += [(name, kind, canvas) for canvas in Recorder.log]
        found[f"{lang}-pdfs"] = sorted(out.glob("*.pdf"))
    return found


def overlap(a, b, eps=0.05) -> bool:
    """Whether two boxes share more than a sliver."""
    return a[0] < b[2] - eps and b[0] < a[2] - eps and a[1] < b[3] - eps and b[1] < a[3] - eps


def inside(inner, outer, eps=0.05) -> bool:
    """Whether `inner` lies within `outer`."""
    return (inner[0] >= outer[0] - eps and inner[1] >= outer[1] - eps and inner[2] <= outer[2] + eps
            and inner[3] <= outer[3] + eps)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_product_keeps_its_text_in_its_boxes(lang, rendered):
    problems = []
    for name, kind, canvas in rendered[lang]:
        for page, items in enumerate(canvas.page_items, 1):
            where = f"{lang} {name} page {page}"
            boxes = [(t, text_box(*t[:6], lang)) for t in items["texts"]]
            for t, box in boxes:
                # Puzzle IDs are sized by their own fitter and checked by the print rules.
                if t[3] < MIN_PT[kind] - 1e-6 and not PUZZLE_ID.match(t[2]):
                    problems.append(f"{where}: {t[2]!r} at {t[3]} pt")
                if box[0] < 0 or box[1] < 0 or box[2] > canvas.width or box[3] > canvas.height:
                    problems.append(f"{where}: {t[2]!r} leaves the page")
                for frame in items["boxes"]:
                    # Text may meet a box only by lying wholly inside it (or wholly around it).
                    if overlap(box, frame) and not inside(box, frame) and not inside(frame, box):
                        problems.append(f"{where}: {t[2]!r} crosses the edge of a box at "
                                        f"({frame[0]:.1f}, {frame[1]:.1f}) mm")
            for i, (t, box) in enumerate(boxes):
                for u, other in boxes[i + 1:]:
                    if overlap(box, other, eps=0.2):
                        problems.append(f"{where}: {t[2]!r} runs into {u[2]!r}")
    assert not problems, "\n".join(sorted(set(problems))[:30])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_printed_character_is_in_its_embedded_face(lang, rendered):
    seen = set()
    for _name, _kind, canvas in rendered[lang]:
        for items in canvas.page_items:
            for _x, _y, s, _size, _anchor, bold in items["texts"]:
                key = face_of(s, bold, lang)
                missing = [ch for ch in s if ord(ch) not in face(key)]
                assert not missing, f"{lang}: {missing} of {s!r} not in {FACES[key].name}"
                seen.add(key[0])
    assert seen == ({"latin", lang} if lang in ("ko", "ja") else {"latin"})


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="pdffonts (poppler-utils) is not installed")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_pdffonts_shows_every_font_embedded(lang, rendered):
    for pdf in rendered[f"{lang}-pdfs"]:
        rows = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True,
                              check=True).stdout.splitlines()[2:]
        assert rows, pdf
        for row in rows:
            name, emb, sub = row.split()[0], row.split()[-5], row.split()[-4]
            assert (emb, sub) == ("yes", "yes"), f"{lang}/{pdf.name}: {name} emb={emb} sub={sub}"
        names = " ".join(row.split()[0] for row in rows)
        if lang in ("ko", "ja"):
            assert f"Hashi{lang.capitalize()}" in names, f"{lang}/{pdf.name}: {names}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_print_scale_sentence_is_one_line_between_the_corner_marker_and_the_ruler(lang, rendered):
    with language(lang):
        sentence = sheet_module._("printed at {percent} if this is 50 mm").format(percent="100 %")
    data = load_kit_data()
    layouts = {"sheet A": sheet_layout(data.side_a, "a4"),
               "sheet B letter": sheet_layout(data.side_b, "letter")}
    sheets = [(layouts[name], canvas) for name, _kind, canvas in rendered[lang] if name in layouts]
    assert len(sheets) == 2
    for lay, canvas in sheets:
        texts = canvas.page_items[0]["texts"]
        # Whole, not wrapped: one recorded line holds the entire sentence.
        found = [t for t in texts if t[2] == sentence]
        assert len(found) == 1, f"{lang}: {sentence!r} is not printed as one line"
        left, top, right, bottom = text_box(*found[0][:6], lang)
        ruler_x, ruler_y, _length = lay.ruler
        marker_x, marker_y, marker_size, _id = lay.markers[3]  # bottom left
        assert marker_x + marker_size + 2.0 < left and right < ruler_x - 2.0, (lang, left, right, ruler_x)
        assert top < ruler_y < bottom + 1.0 and bottom < marker_y + marker_size


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_leaflet_prints_no_markup_and_its_sheet_legend_in_one_size(lang, rendered):
    (leaflet,) = [canvas for name, _kind, canvas in rendered[lang] if name == "rules leaflet"]
    texts = [t for items in leaflet.page_items for t in items["texts"]]
    assert not [t[2] for t in texts if "`" in t[2] or "<" in t[2]]
    with language(lang):
        captions = [leaflet_module._(text) for text, *_rest in leaflet_module.LEGEND]
    # The caption lines (an island's numeral or name and a flag's letter are single characters).
    lines = [t for t in leaflet.page_items[1]["texts"] if len(t[2]) > 1 and any(t[2] in c for c in captions)]
    assert {c for c in captions if any(t[2] in c for t in lines)} == set(captions)
    assert len({t[3] for t in lines}) == 1, sorted({(t[2], t[3]) for t in lines})


def test_kit_in_all_languages_writes_a_folder_per_language(tmp_path):
    result = CliRunner().invoke(cli, ["kit", "--lang", "all", "--paper", "letter", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(LANGUAGES)
    firsts = {lang: (tmp_path / lang / "index.md").read_text(encoding="utf-8").splitlines()[0]
              for lang in LANGUAGES}
    assert firsts == {"en": "# Hashi print kit", "de": "# Hashi-Druckset", "fr": "# Kit d'impression Hashi",
                      "it": "# Kit di stampa Hashi", "ko": "# Hashi 인쇄 키트", "ja": "# Hashi印刷キット"}
    for lang in LANGUAGES:
        assert len(list((tmp_path / lang).glob("*.pdf"))) == 7


def test_an_unknown_language_is_one_clear_line():
    result = CliRunner().invoke(cli, ["sheet", "--side", "A", "--lang", "xx"])
    assert result.exit_code == 2 and "'xx' is not one of" in result.output


def test_a_character_no_face_has_is_refused_not_printed_as_a_box(tmp_path):
    options = BookOptions(title="Hashi \u0e01", trim="a4")
    puzzles = list(generate_puzzles(book_plan_requests(1, [(7, 7)], "easy"), 1))
    with pytest.raises(LayoutError, match="cannot print"):
        render_book(puzzles, options)


def test_japanese_wraps_between_characters_and_keeps_punctuation_off_line_starts():
    text = ("17枚目のカードの後、丸をつけた島1つにつき2点とボーナスを合計します。"
            "合計がいちばん高い人の勝ちです。")
    with language("ja"):
        lines = wrap_text(text, 10, 40)
    assert len(lines) >= 3 and "".join(lines) == text
    assert not any(line[0] in "、。）」ー" for line in lines)
    assert wrap_text("two  words\u00a0: here", 10, 500) == ["two words\u00a0: here"]




def test_japanese_says_asobikata_for_the_game_and_tokikata_for_classic_puzzles():
    # 遊び方 is how to play the roll-and-write game (and the web's help for both games); 解き方 is how
    # to solve a classic puzzle. Every Japanese text using either word is listed here, so a new one
    # has to be placed on purpose.
    po = catalog("ja")
    uses = {"遊び方": set(), "解き方": set()}
    for message in po:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for word, found in uses.items():
            if message.id and any(word in s for s in strings):
                found.add((message.context, message.id if isinstance(message.id, str) else message.id[0]))
    assert uses["遊び方"] == {("web", "How to play"), (None, "Hashi \u2013 how to play"),
                            (None, "The roll-and-write game")}
    assert {msgid for _ctx, msgid in uses["解き方"]} == {
        "How to play", "Classic puzzles (Hashiwokakero)",
        "The rules and a worked example are inside; under each puzzle is the page of its solution.",
        "Techniques are ranked easy, medium, hard and expert. A puzzle's difficulty is the highest level "
        "its easiest solution path needs."}
    assert po.get("How to play").string == "解き方"
    assert po.get("How to play", context="web").string == "遊び方"
    assert not any("遊びかた" in str(m.string) or "プレイ方法" in str(m.string) for m in po)


PRINT_SOURCES = ("leaflet.py", "sheet.py", "solo.py", "cards.py", "book.py", "cover.py")


def print_messages(lang: str) -> dict[str, str]:
    """The translations of every message the printed products say (their source files under render/)."""
    from babel.messages.extract import extract_from_file

    po = catalog(lang)
    out = {}
    root = Path(book_module.__file__).parent
    for name in PRINT_SOURCES:
        for _line, msg, _comments, _ctx in extract_from_file(
                "python", root / name, keywords={"_": None, "N_": None, "ngettext": (1, 2)}):
            msgid = msg if isinstance(msg, str) else msg[0]
            found = po.get(msgid)
            if found is not None:
                out[msgid] = found.string if isinstance(found.string, str) else found.string[0]
    return out


def test_german_print_says_du_throughout_and_every_turn_step_has_a_verb():
    said = print_messages("de")
    plural = [s for s in said.values() if re.search(r"\b(ihr|euch|eure[rsnm]?|euer)\b", s, re.IGNORECASE)
              and not re.search(r"\b(in|an|zu|von|mit|bei|nach|aus|du) ihr\b", s)]  # "ihr" as "to it"
    assert not plural, plural
    step3 = said["every island whose bridges now equal its numeral. A circled island is finished."]
    assert re.search(r"\bKreise\b.*\bein\b", step3)


def test_korean_print_crosses_off_instead_of_erasing():
    said = print_messages("ko")
    erase = [s for s in said.values() if "지우" in s or "지워" in s]
    # The one eraser the print mentions is the tool next to the pencil.
    assert [s for s in erase if "지우개" not in s] == []
    assert any("X 표시" in s for s in said.values())


JAPANESE_SAMPLES = (
    "Play the same way on your own. A goal's bonus (its higher value) counts only if you reach it within the "
    "turn limit for your side and level printed in the solo table; the table also rates your final score.",
    "Shuffle the 18 cards and put one away unseen. The other 17 are played, one per turn.",
)


@pytest.mark.parametrize("width", [30.0, 45.0, 60.0, 80.0, 120.0])
def test_japanese_lines_break_between_phrases_never_inside_one(width):
    import budoux

    from hashi_print.render.canvas import wrap_text

    parser = budoux.load_default_japanese_parser()
    po = catalog("ja")
    for msgid in JAPANESE_SAMPLES:
        text = po.get(msgid).string
        lines = wrap_text(text, 9.5, width)
        assert "".join(lines) == text
        # Every line break falls where a BudouX phrase ends, and no line starts with closing punctuation.
        ends, at = set(), 0
        for phrase in parser.parse(text):
            at += len(phrase)
            ends.add(at)
        at = 0
        for line in lines[:-1]:
            at += len(line)
            assert at in ends, (width, line)
        assert not any(line[0] in "。、」）" for line in lines)
