"""/api/check's added keys (solutions, closed, starved) and the 404 page, through the app itself."""

from __future__ import annotations

import pytest

from tests.web.test_web_api import client  # noqa: F401  (fixture)


@pytest.mark.parametrize(("puzzle", "solutions"), [("2x2m2:1111", "none"), ("3x3m2:3a3c3a3", "multiple"),
                                                   ("3x1m2:1a1", "unique")])
def test_check_says_how_many_solutions_and_keeps_the_contract_keys(client, puzzle, solutions):  # noqa: F811
    r = client.post("/api/check", json={"puzzle": puzzle, "bridges": ""})
    assert r.status_code == 200
    body = r.json()
    assert {"solved", "wrong", "overfull", "complete", "unique"} <= set(body)   # the contract stays
    assert body["solutions"] == solutions and body["unique"] == (solutions == "unique")


def test_check_names_a_cut_off_pair_and_a_starved_island(client):  # noqa: F811
    body = client.post("/api/check", json={"puzzle": "10x10m2:a1a3c5a11a3a3a1l12m1b3l6a6d5a2t3a5d5a1",
                                           "bridges": "J1-J3"}).json()
    assert body["closed"] == ["J1", "J3"] and "H1" in body["starved"]
    assert set(body["complete"]) >= {"J1", "J3"}


@pytest.mark.parametrize(("lang", "words"), [("en", "Page not found"), ("ko", "페이지를 찾을 수 없습니다"),
                                             ("ja", "ページが見つかりません")])
def test_an_unknown_address_is_a_styled_page_with_the_menu_in_its_language(client, lang, words):  # noqa: F811
    r = client.get(f"/no/such/page?lang={lang}")
    assert r.status_code == 404
    html = r.text.replace("<wbr>", "")
    assert f'<html lang="{lang}">' in html and words in html
    assert '<link rel="stylesheet" href="/static/style.css">' in html and 'href="/new"' in html
    assert client.post("/api/nothing", json={}).status_code == 404
