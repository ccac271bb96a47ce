"""Nothing lost, in Chromium on a desktop and a phone: the card flipper and the solo game survive a reload,
take their seeds back, ask before throwing a game away; the solo sheet plays by keyboard and fits a phone."""

from __future__ import annotations

import json
import random

from hashi_print.game.board import builtin_side
from hashi_print.game.deck import load_deck
from hashi_print.game.simulate import deal
from tests.web.test_table_browser import screen_point
from tests.web.test_web_browser import browser, server  # noqa: F401  (fixtures)
from tests.web.test_web_play_tools import screen  # noqa: F401  (fixture)


def shown_cards(page) -> list[str]:
    return page.locator("#played li").all_inner_texts()


def test_the_card_flipper_keeps_its_deal_takes_its_seed_back_and_asks_before_reshuffling(screen, server):  # noqa: F811
    page = screen
    page.goto(f"{server}/cards")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.click("#shuffle")
    page.wait_for_selector("#reveal:not([disabled])")
    for _ in range(3):
        page.click("#reveal")
    seed = int(page.locator("#deal-seed").input_value())
    cards = deal(load_deck(), random.Random(seed))
    want = [f"{n}: {c.numeral} / {c.bridges}" for n, c in enumerate(cards[:3], start=1)]
    assert shown_cards(page) == want
    page.reload()
    page.wait_for_function("() => document.querySelectorAll('#played li').length === 3")
    assert shown_cards(page) == want and page.locator("#turn").inner_text() == "Turn 3 of 17"
    # shuffling in the middle of a deal asks first; keeping it changes nothing
    page.click("#shuffle")
    page.wait_for_selector("#deal-confirm:not([hidden])")
    assert str(seed) in page.locator("#deal-question").inner_text()
    page.click("#deal-no")
    assert shown_cards(page) == want
    # the seed typed on another device deals the same cards
    other = page.context.browser.new_context().new_page()
    other.goto(f"{server}/cards")
    other.fill("#deal-seed", str(seed))
    other.click("#shuffle")
    other.wait_for_selector("#reveal:not([disabled])")
    other.click("#reveal")
    assert other.locator("#numeral").inner_text() == str(cards[0].numeral)
    other.context.close()


def start_solo(page, server, seed: int) -> int:  # noqa: F811
    """A fresh solo game on side A with `seed`, its setup 4 written on the first unflagged island."""
    page.goto(f"{server}/game")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.fill("#start [name=seed]", str(seed))
    page.click("#start button[type=submit]")
    page.wait_for_selector("#sheet .island")
    setup = next(i for i, isl in enumerate(builtin_side("A").islands) if isl.flag is None)
    page.locator("#sheet .island").nth(setup).click()
    page.click("#setup-4")
    page.wait_for_selector("#turn-buttons:not([hidden])")
    return setup


def stored_game(page) -> dict:
    return json.loads(page.evaluate("localStorage.getItem('hashi-solo')"))


def test_the_solo_form_folds_away_shows_the_seed_and_asks_before_a_new_game(screen, server):  # noqa: F811
    page = screen
    start_solo(page, server, 21)
    assert page.locator("#start-box").get_attribute("open") is None, "the form is folded while playing"
    assert "seed 21" in page.locator("#game-seed").inner_text()
    page.click("#play-turn")     # an empty turn: turn 2 next
    page.wait_for_function("() => document.querySelector('#cardbox .turn').textContent.startsWith('Turn 2')")
    page.click("#start-summary")
    page.click("#start button[type=submit]")
    page.wait_for_selector("#new-confirm:not([hidden])")
    assert "turn 2" in page.locator("#new-question").inner_text()
    page.click("#new-no")
    assert stored_game(page)["turns"] == [{"number": None, "bridges": []}]
    page.reload()
    page.wait_for_selector("#cardbox .turn")
    assert page.locator("#cardbox .turn").inner_text().startswith("Turn 2"), "the game survives a reload"
    assert page.locator("#start [name=seed]").input_value() == "21", "its seed can be typed again"
    page.click("#start-summary")
    page.click("#start button[type=submit]")
    page.click("#new-yes")
    page.wait_for_selector("#setup-buttons:not([hidden])")
    assert stored_game(page)["setup"] is None


def test_the_solo_sheet_plays_by_keyboard_with_announcements(screen, server):  # noqa: F811
    page = screen
    side = builtin_side("A")
    page.goto(f"{server}/game")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.fill("#start [name=seed]", "21")
    page.click("#start button[type=submit]")
    page.wait_for_selector("#sheet .island")
    assert page.locator("#sheet").get_attribute("aria-label")
    page.locator("#sheet").focus()
    page.keyboard.press("ArrowRight")            # the cursor appears on the first island
    assert page.locator("#sheet .island.cursor").get_attribute("data-island") == side.islands[0].label
    # walk right along the top row to the first unflagged island and choose it for the setup
    target = next(isl for isl in side.islands if isl.flag is None)
    while page.locator("#sheet .island.cursor").get_attribute("data-island") != target.label:
        page.keyboard.press("ArrowRight")
    assert target.label in page.locator("#announce").text_content()
    page.keyboard.press("Enter")
    page.click("#setup-4")
    page.wait_for_selector("#turn-buttons:not([hidden])")
    # turn 1: write the card's numeral on the next unflagged island along the row, by keys only
    page.locator("#sheet").focus()
    page.keyboard.press("ArrowRight")           # the cursor stayed on the setup island: one step on
    label = page.locator("#sheet .island.cursor").get_attribute("data-island")
    assert next(isl for isl in side.islands if isl.label == label).flag is None
    page.keyboard.press("Enter")
    assert f"numeral {label}" in page.locator("#announce").text_content()
    # and the card's one bridge, back to the setup island: Space picks, an arrow draws
    card = deal(load_deck(), random.Random(21))[0]
    assert card.bridges == 1
    page.keyboard.press("Space")
    page.keyboard.press("ArrowLeft")
    assert "bridges 1/1" in page.locator("#announce").text_content()
    page.keyboard.press("p")
    page.wait_for_function("() => document.querySelector('#cardbox .turn').textContent.startsWith('Turn 2')")
    lane = "-".join(sorted((target.label, label)))
    assert stored_game(page)["turns"] == [{"number": f"{label}{card.numeral}", "bridges": [lane]}]


def test_a_phone_shows_card_board_and_play_turn_on_one_screen(browser, server):  # noqa: F811
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    start_solo(page, server, 21)
    page.locator("#table").scroll_into_view_if_needed()
    page.evaluate("document.getElementById('table').scrollIntoView({block: 'start'})")
    boxes = {name: page.locator(sel).bounding_box() for name, sel in
             (("card", "#cardbox"), ("board", "#sheet"), ("play", "#play-turn"))}
    ctx.close()
    for name, box in boxes.items():
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, (name, box)


def test_the_lowest_rating_is_not_styled_as_a_success_and_game_over_is_said_once(screen, server):  # noqa: F811
    page = screen
    start_solo(page, server, 21)
    for turn in range(2, 19):
        page.click("#play-turn")
        if turn <= 17:
            page.wait_for_function("t => document.querySelector('#cardbox .turn').textContent.startsWith(t)",
                                   arg=f"Turn {turn} of")
    page.wait_for_selector("#final:not([hidden])")
    rating = page.locator("#final-rating")
    assert "plain" in rating.get_attribute("class") and "good" not in rating.get_attribute("class")
    assert page.locator("body").inner_text().count("Game over.") == 1


def test_the_solo_clear_can_be_undone_until_the_next_mark(screen, server):  # noqa: F811
    page = screen
    side = builtin_side("A")
    setup = start_solo(page, server, 21)
    card = deal(load_deck(), random.Random(21))[0]
    # turn 1: the card's numeral on the setup island's right-hand neighbour and its one bridge between them
    target, other = side.islands[setup], side.islands[setup + 1]
    assert card.bridges == 1 and other.flag is None and other.row == target.row
    lane = "-".join(sorted((target.label, other.label)))
    page.locator(f'#sheet .island[data-island="{other.label}"]').click()
    page.mouse.click(*screen_point(page, "sheet", (target.col + other.col) / 2, target.row))
    marks = page.locator("#pending").inner_text()
    assert marks == f"This turn: numeral {other.label} · bridges 1/1"
    undo = page.locator("#undo-clear")
    assert undo.is_hidden(), "nothing to bring back before a Clear"
    page.click("#clear-turn")
    assert page.locator("#pending").inner_text() == "This turn: numeral – · bridges 0/1"
    assert "Undo clear" in page.locator("#status").inner_text()
    assert page.locator("#clear-turn").is_hidden(), "Undo clear takes its place: the buttons keep one row"
    assert page.evaluate("document.activeElement.id") == "undo-clear"
    undo.click()
    assert page.locator("#pending").inner_text() == marks, "Undo clear brings the turn's marks back"
    assert undo.is_hidden()
    # a new mark after a Clear is the player's new turn: Undo clear goes away rather than overwrite it
    page.click("#clear-turn")
    page.locator(f'#sheet .island[data-island="{other.label}"]').click()
    assert undo.is_hidden()
    page.mouse.click(*screen_point(page, "sheet", (target.col + other.col) / 2, target.row))
    page.click("#play-turn")
    page.wait_for_function("() => document.querySelector('#cardbox .turn').textContent.startsWith('Turn 2')")
    assert stored_game(page)["turns"] == [{"number": f"{other.label}{card.numeral}", "bridges": [lane]}]
