"""axe-core (the axe-playwright-python package ships it) finds no accessibility violation of any impact on
any page, in the states a player sees, in every language, on a desktop and on a phone."""

from __future__ import annotations

import urllib.request

import pytest

from tests.web.test_web_browser import PUZZLE, browser, server  # noqa: F401  (fixtures)
from tests.web.test_web_play_tools import SCREENS, settle

axe_api = pytest.importorskip("axe_playwright_python.sync_playwright",
                              reason="the axe-playwright-python package is not installed")


def play_states(page, server):  # noqa: F811
    """The Play page with a hint shown, the check run and the solve question open; then solved."""
    page.goto(f"{server}/play?p={urllib.request.quote(PUZZLE)}")
    page.wait_for_selector("#board .island")
    settle(page)
    page.click("#hint")
    page.wait_for_selector("#hintbox:not([hidden])")
    page.click("#check")
    page.click("#solve")
    page.click("details.small summary")
    yield "play"
    page.click("#solve-yes")
    page.wait_for_selector("#status.win")
    yield "play: solved"


def game_states(page, server):  # noqa: F811
    page.goto(f"{server}/game")
    page.evaluate("localStorage.clear()")
    page.reload()
    yield "game: form"
    page.click("#start button[type=submit]")
    page.wait_for_selector("#goals tr")
    page.locator("#sheet .island").nth(2).click()
    page.click("#setup-4")
    page.wait_for_selector("#turn-buttons:not([hidden])")
    yield "game: playing"
    page.locator("#sheet .island").nth(3).click()
    page.click("#clear-turn")
    page.wait_for_selector("#undo-clear:not([hidden])")
    yield "game: cleared, Undo clear offered"
    for _ in range(17):
        page.click("#play-turn")
        page.wait_for_timeout(150)
    page.wait_for_selector("#final:not([hidden])")
    yield "game: over"


def simple(path: str, ready: str | None = None, act: tuple[str, ...] = ()):
    def states(page, server):  # noqa: F811
        page.goto(server + path)
        page.wait_for_load_state("networkidle")
        for selector in act:
            page.click(selector)
        if ready:
            page.wait_for_selector(ready)
        yield path
    return states


PAGES = {
    "home": simple("/"),
    "help": simple("/help"),
    "new": simple("/new", "#daily-buttons button"),
    "lab": simple("/lab", ".run .caption", ("#run",)),
    "cards": simple("/cards", "#played li", ("#shuffle", "#reveal")),
    "mine": simple("/mine"),
    "404": simple("/no-such-page"),
    "play": play_states,
    "game": game_states,
}


def violations(page) -> list[str]:
    found = axe_api.Axe().run(page, options={"resultTypes": ["violations"]})
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}"
            for v in found.response["violations"]]


@pytest.mark.parametrize("kind", ["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "de", "fr", "it", "ko", "ja"])
def test_axe_finds_nothing_on_any_page(browser, server, lang, kind):  # noqa: F811
    ctx = browser.new_context(**SCREENS[kind])
    page = ctx.new_page()
    page.goto(f"{server}/?lang={lang}")
    found = {}
    for states in PAGES.values():
        for state in states(page, server):
            assert page.evaluate("document.documentElement.lang") == lang
            found[state] = violations(page)
    ctx.close()
    assert not {state: v for state, v in found.items() if v}, found
