"""Text in Chromium: the fonts a page fetches, Korean and Japanese words kept whole, phrase breaks."""

from __future__ import annotations

import pytest

from tests.web.test_web_browser import browser, server  # noqa: F401  (fixtures)
from tests.web.test_web_play_tools import SCREENS

BIG_FACES = ("hashi-ja-gothic.ttf", "hashi-ko-gothic.ttf", "hashi-ko-gothic-bold.ttf")


def fonts_fetched(browser, server, path: str, lang: str) -> dict[str, int]:  # noqa: F811
    ctx = browser.new_context(**SCREENS["desktop"])
    page = ctx.new_page()
    fetched = {}
    page.on("response", lambda r: fetched.__setitem__(r.url.rsplit("/", 1)[1], len(r.body()))
            if "/fonts/" in r.url else None)
    page.goto(f"{server}{path}?lang={lang}")
    page.wait_for_load_state("networkidle")
    page.evaluate("document.fonts.ready")
    ctx.close()
    return fetched


@pytest.mark.parametrize("path", ["/", "/help", "/play", "/game"])
def test_an_english_page_fetches_no_korean_or_japanese_face(browser, server, path):  # noqa: F811
    fetched = fonts_fetched(browser, server, path, "en")
    assert not set(fetched) & set(BIG_FACES), fetched
    assert set(fetched) <= {"hashi-menu-ja.ttf", "hashi-menu-ko.ttf"}
    assert sum(fetched.values()) < 8000, fetched


def test_a_japanese_page_still_fetches_its_face(browser, server):  # noqa: F811
    assert "hashi-ja-gothic.ttf" in fonts_fetched(browser, server, "/help", "ja")


# Line breaks inside a word: within one text node (the server's <wbr> splits Japanese text at phrase
# boundaries into nodes), between two characters that are neither white space nor punctuation.
BROKEN_WORDS = """(selector) => {
  const out = [];
  for (const cell of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest('[hidden], .touch-only, .mouse-only') &&
          getComputedStyle(node.parentElement).display === 'none') continue;
      const text = node.textContent;
      let top = null;
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rects = range.getClientRects();
        if (!rects.length) continue;
        const y = rects[0].top;
        // a break at white space or beside punctuation (／、。) is where lines may end
        const free = (ch) => /[\\s\\p{P}\\p{S}]/u.test(ch);
        if (top !== null && y > top + 2 && !free(text[i - 1]) && !free(text[i]))
          out.push([text.slice(Math.max(0, i - 4), i + 4), text[i - 1] + text[i]]);
        top = y;
      }
    }
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["ko", "ja"])
@pytest.mark.parametrize("kind", ["desktop", "phone"])
def test_the_help_tables_words_are_never_broken(browser, server, lang, kind):  # noqa: F811
    ctx = browser.new_context(**SCREENS[kind])
    page = ctx.new_page()
    page.goto(f"{server}/help?lang={lang}")
    page.wait_for_load_state("networkidle")
    broken = page.evaluate(BROKEN_WORDS, "table.keys th, table.keys td")
    wraps = page.evaluate("""() => [...document.querySelectorAll('table.keys td')]
      .some((td) => td.getClientRects().length && td.getBoundingClientRect().height > 40)""")
    ctx.close()
    assert wraps, "the table's cells do wrap, so the check means something"
    assert not broken, broken
