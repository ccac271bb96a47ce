"""The web app in German and Japanese in a real browser: no English left on the pages, CJK drawn.

The English left over is looked for with the English catalog itself (the .pot file): every English
message whose translation differs must not show anywhere on a page after the scripts have run.
"""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from hashi_print.i18n import translations
from tests.web.test_web_browser import PUZZLE, browser, server  # noqa: F401  (fixtures)

# A puzzle that still takes rounds of cuts after root propagation (the lab's sample).
LAB_PUZZLE = "10x10m2:2c3d2j3a2b3a5a3d2e2d3a5f1e3a3d4a3j2c2b2k1"

LOCALE = Path(__file__).resolve().parents[2] / "hashi_print" / "locale"
# What a page shows: its text after the scripts ran (the hint's reasoning included), the options of
# every list, labels the screen reader reads, input placeholders, button titles and the window title.
VISIBLE = """() => {
  const parts = [document.body.innerText, document.title];
  for (const node of document.querySelectorAll("option")) parts.push(node.textContent);
  for (const node of document.querySelectorAll("[aria-label], [placeholder], [title]")) {
    for (const a of ["aria-label", "placeholder", "title"]) {
      if (node.hasAttribute(a)) parts.push(node.getAttribute(a));
    }
  }
  return parts.join("\\n");
}"""


@cache
def english_patterns(lang: str) -> tuple[tuple[str, re.Pattern], ...]:
    """A pattern for each English message of the catalog that `lang` words differently."""
    with (LOCALE / "hashi_print.pot").open("rb") as f:
        template = read_po(f)
    found = translations(lang)
    out = []
    for message in template:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for n, english in enumerate(ids):
            if message.context:
                shown = found.pgettext(message.context, english)
            elif len(ids) > 1:
                shown = found.ngettext(ids[0], ids[1], 1 if n == 0 else 5)
            else:
                shown = found.gettext(english)
            if shown == english:
                continue
            text = html.unescape(re.sub(r"<[^>]+>", "", english))
            pieces = [re.escape(p) for p in re.split(r"\{[a-z_]+\}", text)]
            body = ".+?".join(p for p in pieces)
            out.append((english, re.compile(rf"(?<![\w.]){body}(?![\w])")))
    return tuple(out)


def english_left(text: str, lang: str) -> list[str]:
    """The English messages that show in `text`, a page in `lang`."""
    return [english for english, pattern in english_patterns(lang) if pattern.search(text)]


def test_the_check_finds_english_that_was_left():
    page = "島20個。橋をかけましょう。\nNothing to undo.\nTurn 3 of 17\nRunde"
    assert english_left(page, "ja") == ["Nothing to undo.", "Turn", "Turn {turn} of {turns}"]
    assert english_left("Runde 1 von 2", "de") == []


def visit(page, server, lang: str) -> dict[str, str]:  # noqa: F811
    """Walk the pages in `lang` the way a player does (switching with the menu) and return what each shows."""
    shown = {}
    page.goto(f"{server}/")
    with page.expect_navigation():
        page.click(f"#lang-{lang}")
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
    shown["home"] = page.evaluate(VISIBLE)
    with page.expect_navigation():
        page.click("nav a[href='/new']")
    page.wait_for_selector("#generate")
    shown["new"] = page.evaluate(VISIBLE)
    page.goto(f"{server}/play?p={PUZZLE}")
    page.wait_for_selector("#board .island")
    page.keyboard.press("Control+z")
    page.click("#check")
    page.wait_for_function("() => document.getElementById('status').textContent.length > 0")
    page.click("details.small summary")
    page.click("#hint")
    page.wait_for_selector("#hintbox:not([hidden])")
    shown["play"] = page.evaluate(VISIBLE)
    page.goto(f"{server}/lab")
    # The lab would take the puzzle just played, which root propagation settles without a round of cuts.
    page.fill("#lab-puzzle", LAB_PUZZLE)
    page.click("#run")
    page.wait_for_selector(".run .caption")
    shown["lab"] = page.evaluate(VISIBLE)
    page.goto(f"{server}/cards")
    page.click("#shuffle")
    page.wait_for_function("() => document.getElementById('deal-info').textContent.length > 0")
    page.click("#reveal")
    shown["cards"] = page.evaluate(VISIBLE)
    page.goto(f"{server}/game")
    page.click("#start button[type=submit]")
    page.wait_for_selector("#goals tr")
    page.locator("#sheet .island").first.click()
    shown["game"] = page.evaluate(VISIBLE)
    page.goto(f"{server}/help")
    shown["help"] = page.evaluate(VISIBLE)
    return shown


@pytest.mark.parametrize(("lang", "words"), [
    ("de", {"home": "Brücken bauen", "play": "Rückgängig", "lab": "Runde 1 von", "cards": "Zug 1 von 17",
            "game": "Ziel", "help": "So wird gespielt", "new": "Erzeugen und spielen"}),
    ("ja", {"home": "橋をかけよう", "play": "元に戻す", "lab": "1回目", "cards": "ターン 1/17",
            "game": "目標", "help": "遊び方", "new": "作成して解く"})])
def test_pages_show_no_english_in_german_and_japanese(browser, server, lang, words):  # noqa: F811
    ctx = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-US")
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        shown = visit(page, server, lang)
    finally:
        ctx.close()
    assert not errors, errors
    for name, text in shown.items():
        assert words[name] in text, f"{lang} {name}: {words[name]!r} not shown"
        left = english_left(text, lang)
        assert not left, f"{lang} {name} still shows English: {left}"


def test_japanese_and_korean_text_is_drawn_in_the_packaged_faces(browser, server, tmp_path):  # noqa: F811
    ctx = browser.new_context(viewport={"width": 900, "height": 700})
    page = ctx.new_page()
    loaded = {}
    for lang in ("ja", "ko"):
        page.goto(f"{server}/help?lang={lang}")
        page.evaluate("document.fonts.ready")
        loaded[lang] = page.evaluate(
            "[...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family)")
        # The heading's glyphs are drawn: its picture is not blank paper.
        shot = page.locator("h1").screenshot(path=str(tmp_path / f"h1-{lang}.png"))
        assert len(set(shot)) > 50
    ctx.close()
    assert any("HashiJa" in family for family in loaded["ja"]), loaded
    assert any("HashiKo" in family for family in loaded["ko"]), loaded


CJK = re.compile("[\u1100-\u11ff\u3000-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
                 "\uff00-\uffef]")
PACKAGED = ("HashiJa Gothic", "HashiKo Gothic", "HashiMenu Ja", "HashiMenu Ko")
DRAWN = "header a, h1, h2, label, button, p"


@pytest.mark.parametrize("lang", ["ja", "ko", "en"])
def test_every_korean_and_japanese_character_is_drawn_by_a_face_that_has_it(browser, server, lang):  # noqa: F811
    # Chromium says which faces drew each element's glyphs. A character drawn by a face without it (a
    # system face when no CJK font is installed, as here) prints as an empty box.
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    wrong, checked = [], 0
    for path in ("/", "/game", "/help"):
        page.goto(f"{server}{path}?lang={lang}")
        page.evaluate("document.fonts.ready")
        root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
        for node in cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": DRAWN})["nodeIds"]:
            own = cdp.send("DOM.describeNode", {"nodeId": node, "depth": 1})["node"].get("children", [])
            text = "".join(c["nodeValue"] for c in own if c["nodeType"] == 3)
            cjk = len(CJK.findall(text))
            if not cjk:
                continue
            fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
            if not fonts:  # not drawn: inside a hidden part of the page
                continue
            packaged = sum(f["glyphCount"] for f in fonts if f["familyName"] in PACKAGED)
            checked += 1
            if packaged < cjk:
                wrong.append((path, text.strip(), [(f["familyName"], f["glyphCount"]) for f in fonts]))
    ctx.close()
    # English pages still name Korean and Japanese in the language list and write the brand's 橋.
    assert checked >= (3 if lang == "en" else 20)
    assert not wrong, wrong[:8]


def test_the_scripts_plural_rule_matches_each_catalog(browser, server):  # noqa: F811
    counts = [*range(0, 30), 100, 101, 1000000, 2000000, 1000001]
    page = browser.new_page()
    page.goto(f"{server}/")
    forms = page.evaluate("""async (counts) => {
      const strings = await import("/static/strings.js");
      const out = {};
      for (const code of ["en", "de", "fr", "it", "ko", "ja"]) {
        out[code] = counts.map((n) => strings.pluralForm(n, code));
      }
      return out;
    }""", counts)
    page.close()
    for lang, got in forms.items():
        catalog = translations(lang)
        want = [int(catalog.plural(n)) if lang != "en" else int(n != 1) for n in counts]
        assert got == want, lang


@pytest.mark.parametrize("lang", ["de", "fr", "ja"])
def test_longer_words_do_not_push_pages_sideways_on_a_phone(browser, server, lang):  # noqa: F811
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    wide = {}
    for path in ("/", "/play", "/new", "/lab", "/game", "/cards", "/help"):
        page.goto(f"{server}{path}?lang={lang}")
        page.wait_for_load_state("networkidle")
        wide[path] = page.evaluate("document.documentElement.scrollWidth")
    ctx.close()
    assert all(w <= 390 for w in wide.values()), wide
