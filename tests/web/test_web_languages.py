"""The web app's language: chosen by the browser's Accept-Language, switched with ?lang=, remembered."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from hashi_print.i18n import LANGUAGES
from hashi_print.web.app import PAGES, Settings, accepted_language, create_app

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
    assert HEADLINES[lang] in response.text


def test_switch_is_remembered_and_wins_over_the_browser(client):
    first = client.get("/help?lang=ja", headers={"Accept-Language": "de"})
    assert page_language(first.text) == "ja" and "<title>解き方" in first.text
    assert first.cookies.get("lang") == "ja"
    again = client.get("/", headers={"Accept-Language": "de"})
    assert page_language(again.text) == "ja" and HEADLINES["ja"] in again.text
    back = client.get("/?lang=EN", headers={"Accept-Language": "de"})
    assert page_language(back.text) == "en" and HEADLINES["en"] in back.text


def test_every_page_offers_every_language_and_an_unknown_one_is_ignored(client):
    for path in PAGES:
        html = client.get(path + "?lang=xx").text
        assert page_language(html) == "en"
        offered = re.findall(r'<a id="lang-([a-z]+)" href="\?lang=\1"', html)
        assert offered == list(LANGUAGES), path
