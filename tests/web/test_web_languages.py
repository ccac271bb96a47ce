"""The web app's language: chosen by the browser's Accept-Language, switched with ?lang=, remembered."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from starlette.testclient import TestClient

from hashi_print.i18n import LANGUAGES, translations
from hashi_print.web.app import (
    PAGES,
    Settings,
    create_app,
    designed_words,
    embedded_json,
    script_messages,
)
from hashi_print.web.reading import accepted_language

STATIC = Path(__file__).resolve().parents[2] / "hashi_print" / "web" / "static"

HEADLINES = {"en": "Hashi: build bridges", "de": "Hashi: Brücken bauen",
             "fr": "Hashi\u00a0: construisez des ponts", "it": "Hashi: costruisci ponti",
             "ko": "Hashi: 다리를 놓아라", "ja": "Hashi：橋をかけよう"}


@pytest.fixture()
def client():
    """A fresh app (no cookies yet); pages need no worker pool, so the app is not started."""
    return TestClient(create_app(Settings(workers=1)))


def page_language(html: str) -> str:
    """The language the page says it is in."""
    return re.search(r'<html lang="([a-z]+)">', html).group(1)


@pytest.mark.parametrize(("header", "want"), [
    ("de-DE,de;q=0.9,en;q=0.8", "de"), ("fr;q=0.5, ja;q=0.8", "ja"), ("ko-KR", "ko"),
    ("it-CH, en;q=0.3", "it"), ("es-ES,pt;q=0.9", "en"), ("", "en"), ("ja;q=nonsense, fr;q=0.1", "fr"),
    ("*", "en"), ("EN-gb;q=0.2, DE;q=0.1", "en")])
def test_accept_language_picks_the_best_language_we_have(header, want):
    assert accepted_language(header) == want


@pytest.mark.parametrize("lang", LANGUAGES)
def test_home_page_follows_the_browser(client, lang):
    response = client.get("/", headers={"Accept-Language": f"{lang};q=0.9, xx"})
    assert response.status_code == 200
    assert page_language(response.text) == lang
    assert response.headers["content-language"] == lang
    assert HEADLINES[lang] in response.text.replace("<wbr>", "")   # Japanese phrase breaks aside


def test_switch_is_remembered_and_wins_over_the_browser(client):
    first = client.get("/help?lang=ja", headers={"Accept-Language": "de"})
    assert page_language(first.text) == "ja" and "<title>遊び方" in first.text
    assert first.cookies.get("lang") == "ja"
    again = client.get("/", headers={"Accept-Language": "de"})
    assert page_language(again.text) == "ja" and HEADLINES["ja"] in again.text.replace("<wbr>", "")
    back = client.get("/?lang=EN", headers={"Accept-Language": "de"})
    assert page_language(back.text) == "en" and HEADLINES["en"] in back.text


def test_every_page_offers_every_language_and_an_unknown_one_is_ignored(client):
    for path in PAGES:
        html = client.get(path + "?lang=xx").text
        assert page_language(html) == "en"
        offered = re.findall(r'<a id="lang-([a-z]+)" href="\?lang=\1"', html)
        assert offered == list(LANGUAGES), path


def embedded_messages(html: str) -> dict:
    """The translations of the scripts' messages a page carries."""
    found = re.search(r'<script type="application/json" id="messages">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


def test_the_server_finds_the_same_script_messages_as_babel():
    found = extract_from_dir(str(STATIC), method_map=[("**.js", "javascript")])
    babel = {m for _f, _l, m, _c, _ctx in found}
    plain, plural = script_messages([p.read_text() for p in STATIC.glob("*.js")])
    assert plain == {m for m in babel if isinstance(m, str)}
    assert plural == {m[0] for m in babel if isinstance(m, tuple)}
    assert len(plain) > 50 and "Solved! Every island has its bridges and all are connected." in plain


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
def test_every_page_carries_every_script_message_in_its_language(client, lang):
    plain, plural = script_messages([p.read_text() for p in STATIC.glob("*.js")])
    nplurals = int(re.search(r"nplurals=(\d+)", translations(lang).info()["plural-forms"]).group(1))
    for path in PAGES:
        table = embedded_messages(client.get(f"{path}?lang={lang}").text)
        assert set(table) == plain | plural | designed_words(), path
        assert all(isinstance(table[m], str) and table[m].strip() for m in plain | designed_words())
        assert all(len(table[m]) == nplurals and all(table[m]) for m in plural), path
    # The words that differ are really translated, not copied.
    assert table["Nothing to undo."] != "Nothing to undo." and table["master builder"] != "master builder"


def test_english_pages_carry_no_table_and_the_table_cannot_close_its_element(client):
    assert embedded_messages(client.get("/?lang=en").text) == {}
    assert "</script>" not in embedded_json({"x": "</script><script>alert(1)</script>"})


def test_help_page_is_translated_in_every_language(client):
    english = client.get("/help?lang=en").text
    assert "Every island must end up with exactly as many bridges as its number." in english
    for lang in LANGUAGES[1:]:
        page = client.get(f"/help?lang={lang}").text.replace("<wbr>", "")
        assert "Every island must end up" not in page and "<strong>" in page
    ja = client.get("/help?lang=ja").text.replace("<wbr>", "")
    assert "<h1>遊び方</h1>" in ja
    assert "定番パズル（橋をかけろ）の解き方" in ja and "ロール＆ライトゲームの遊び方" in ja


def test_packaged_fonts_are_served_and_nothing_else(client):
    font = client.get("/fonts/hashi-ja-gothic.ttf")
    assert font.status_code == 200 and font.headers["content-type"] == "font/ttf"
    assert font.content[:4] == b"\0\1\0\0"
    assert client.get("/fonts/IPA-LICENSE-hashi-ja-gothic.txt").status_code == 404
    assert client.get("/fonts/..%2Fi18n.py").status_code == 404


def test_hints_are_explained_in_the_language_asked_for():
    puzzle = "10x10m2:1b1c5a3j3f5a3j4c4b4m3a2a1a2l2b1g4b3b1a2"
    with TestClient(create_app(Settings(workers=1))) as c:
        english = c.post("/api/hint", json={"puzzle": puzzle, "bridges": ""}).json()
        german = c.post("/api/hint", json={"puzzle": puzzle, "bridges": "", "lang": "de"}).json()
        japanese = c.post("/api/hint", json={"puzzle": puzzle, "bridges": "", "lang": "ja"}).json()
        refused = c.post("/api/hint", json={"puzzle": puzzle, "bridges": "", "lang": "xx"})
    assert english["text"].startswith("The 5 at H1 needs five bridges")
    assert german["text"].startswith("Die 5 auf H1 braucht 5 Brücken")
    assert japanese["text"].startswith("H1の5には橋5本が必要で")
    # The same step, only worded differently.
    assert {k: v for k, v in german.items() if k not in ("text", "because")} == {
        k: v for k, v in english.items() if k not in ("text", "because")}
    assert refused.status_code == 400 and "lang" in refused.json()["error"]


def test_a_refused_solo_move_gives_its_reason_in_the_language_asked_for():
    from hashi_print.game.board import builtin_side

    flagged = next(isl.label for isl in builtin_side("A").islands if isl.flag == "red")
    body = {"side": "A", "level": "normal", "seed": 7, "setup": f"{flagged}4", "turns": []}
    with TestClient(create_app(Settings(workers=1))) as c:
        answers = {lang: c.post("/api/game/play", json={**body, "lang": lang}).json() for lang in LANGUAGES}
    assert answers["en"] == {"legal": False, "turn": 0, "rule": "setup", "reason":
                             f"the setup numeral goes on an unflagged island; {flagged} has a red flag"}
    assert answers["de"]["reason"] == (f"die Startzahl kommt auf eine Insel ohne Flagge; {flagged} hat eine "
                                       "rote Flagge")
    assert "赤い旗" in answers["ja"]["reason"] and "빨간 깃발" in answers["ko"]["reason"]
    assert all(a["rule"] == "setup" and not a["legal"] for a in answers.values())
