"""The Play page's solver tools in Chromium, on a desktop and on a phone: marks, locks, Solve, the timer,
network colours, labels, feedback that never lies, keyboard and screen-reader announcements."""

from __future__ import annotations

import io
import json
import urllib.request

import pytest
from PIL import Image

from hashi_print.puzzle.formats import parse_puzzle
from hashi_print.puzzle.model import cell_name
from hashi_print.puzzle.solve import solve
from tests.independent import is_valid_solution
from tests.web.test_web_browser import (  # noqa: F401  (fixtures)
    PUZZLE,
    Play,
    browser,
    lane_counts,
    lane_with_water,
    server,
    settle,
)

CUT_OFF = "10x10m2:a1a3c5a11a3a3a1l12m1b3l6a6d5a2t3a5d5a1"   # the puzzle: J1=1 and J3=1 in one column
SCREENS = {"desktop": {"viewport": {"width": 1366, "height": 800}},
           "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}}


@pytest.fixture(params=["desktop", "phone"])
def screen(request, browser):  # noqa: F811
    """A fresh page on a desktop or a phone screen that fails the test on any script error."""
    ctx = browser.new_context(**SCREENS[request.param])
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.kind = request.param
    yield pg
    ctx.close()
    assert not errors, errors


def fresh_play(page, server, puzzle_id: str, extra: str = "") -> Play:  # noqa: F811
    """Open a puzzle with nothing stored from earlier tests."""
    page.goto(f"{server}/help")
    page.evaluate("localStorage.clear()")
    page.goto(f"{server}/play?p={urllib.request.quote(puzzle_id)}{extra}")
    page.wait_for_selector("#board .island")
    settle(page)
    return Play(page, puzzle_id)


def island_class(page, name: str) -> str:
    return page.locator(f'#board .island[data-island="{name}"]').get_attribute("class")


def tap(page, xy, long: bool = False) -> None:
    """A tap, or a long press (a finger resting 0.7 s), through the touch screen."""
    if not long:
        page.touchscreen.tap(*xy)
        return
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": xy[0], "y": xy[1]}]})
    page.wait_for_timeout(700)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def press(page, xy, kind: str) -> None:
    """The screen's way to take away or mark (right-click, long press) or to lock (Alt+click, long press)."""
    if page.kind == "phone":
        tap(page, xy, long=True)
    elif kind == "mark":
        page.mouse.click(*xy, button="right")
    else:
        page.keyboard.down("Alt")
        page.mouse.click(*xy)
        page.keyboard.up("Alt")


def build(page, xy) -> None:
    if page.kind == "phone":
        tap(page, xy)
    else:
        page.mouse.click(*xy)


def test_no_bridge_marks_are_crosses_that_block_building_and_undo(screen, server):  # noqa: F811
    page = screen
    play = fresh_play(page, server, PUZZLE)
    k = lane_with_water(play.geo)
    lane = page.locator(f'#board .bridge[data-lane="{page.evaluate("n => n", _lane_name(play, k))}"]')
    press(page, play.water_xy(k), "mark")
    settle(page)
    assert lane.locator("path.nobridge").count() == 1, "the mark is a cross on the lane"
    assert page.locator("#board").get_attribute("data-state")[k] == "x"
    build(page, play.water_xy(k))
    assert play.counts()[k] == 0 and "no bridge" in page.locator("#status").inner_text()
    press(page, play.water_xy(k), "mark")
    settle(page)
    assert lane.locator("path.nobridge").count() == 0
    page.locator("#undo").click()
    settle(page)
    assert lane.locator("path.nobridge").count() == 1, "undo brings the mark back"
    # the share link carries bridges only; a mark is no bridge
    assert lane_counts(page, len(play.geo.lanes)) == [0] * len(play.geo.lanes)


def _lane_name(play: Play, k: int) -> str:
    names = [cell_name(*p) for p in play.geo.positions]
    return f"{names[play.geo.lanes[k].a]}-{names[play.geo.lanes[k].b]}"


def _one_bridge(page, server) -> tuple[Play, int, int, str]:  # noqa: F811
    """A fresh play page with one bridge on a lane over water: the puzzle, the lane, one end, its name."""
    play = fresh_play(page, server, PUZZLE)
    k = lane_with_water(play.geo)
    a = play.geo.lanes[k].a
    build(page, play.water_xy(k))
    return play, k, a, cell_name(*play.geo.positions[a])


def test_a_locked_island_keeps_its_bridges_until_unlocked(screen, server):  # noqa: F811
    page = screen
    play, k, a, name = _one_bridge(page, server)
    assert play.counts()[k] == 1
    press(page, play.island_xy(a), "lock")
    page.wait_for_selector(f'#board .island.locked[data-island="{name}"] .padlock')
    build(page, play.water_xy(k))
    assert play.counts()[k] == 1, "a locked island's lanes do not change"
    assert "locked" in page.locator("#status").inner_text()
    page.reload()
    page.wait_for_selector(f'#board .island.locked[data-island="{name}"]')
    press(page, play.island_xy(a), "lock")
    page.wait_for_selector(f'#board .island[data-island="{name}"]:not(.locked)')
    build(page, play.water_xy(k))
    assert play.counts()[k] == 2


def test_a_late_check_does_not_hide_what_the_player_was_just_told(screen, server):  # noqa: F811
    page = screen
    play, k, a, name = _one_bridge(page, server)
    settle(page)
    held = []   # a slow server: the check sent after the lock waits here until the test lets it go
    page.route("**/api/check", lambda route: held.append(route))
    press(page, play.island_xy(a), "lock")
    page.wait_for_selector(f'#board .island.locked[data-island="{name}"]')
    for _ in range(250):   # the page sends the check at once; Playwright hands it over between calls
        if held:
            break
        page.wait_for_timeout(20)
    build(page, play.water_xy(k))
    assert "locked" in page.locator("#status").inner_text()
    assert len(held) == 1, "the lock's check is still on its way"
    held[0].continue_()
    settle(page)
    page.unroute("**/api/check")
    stuck = page.evaluate("() => document.querySelectorAll('#board .island.dead').length")
    assert stuck > 0, "the check's answer arrived and marked the island that can no longer be completed"
    assert "locked" in page.locator("#status").inner_text()


def test_a_lock_is_an_undo_step_that_a_reload_keeps(screen, server):  # noqa: F811
    page = screen
    play = fresh_play(page, server, PUZZLE)
    k = lane_with_water(play.geo)
    a = play.geo.lanes[k].a
    name = cell_name(*play.geo.positions[a])
    locked = f'#board .island.locked[data-island="{name}"]'
    unlocked = f'#board .island[data-island="{name}"]:not(.locked)'

    def click(button: str) -> None:
        page.locator(f"#{button}").click()
        settle(page)

    build(page, play.water_xy(k))
    press(page, play.island_xy(a), "lock")
    page.wait_for_selector(locked)
    click("undo")
    page.wait_for_selector(unlocked)
    assert play.counts()[k] == 1, "undo takes back the lock, not the bridge before it"
    click("redo")
    page.wait_for_selector(locked)
    # the steps are stored with the history: after a reload undo still takes the lock back, then the bridge
    stored = page.evaluate(f"JSON.parse(localStorage.getItem('hashi-play:{PUZZLE}'))")
    assert [step["locked"] for step in stored["history"]] == [[], [], [a]]
    page.reload()
    page.wait_for_selector(locked)
    settle(page)
    click("undo")
    page.wait_for_selector(unlocked)
    assert play.counts()[k] == 1
    click("undo")
    assert play.counts()[k] == 0
    page.reload()
    page.wait_for_selector(unlocked)
    settle(page)
    click("redo")
    click("redo")
    page.wait_for_selector(locked)
    assert play.counts()[k] == 1, "redo brings back the bridge and the lock, after a reload too"
    # Restart lets go of the locks as well as the bridges, in one step that Undo takes back
    click("restart")
    page.wait_for_selector(unlocked)
    assert play.counts()[k] == 0
    click("undo")
    page.wait_for_selector(locked)
    assert play.counts()[k] == 1


def test_a_history_stored_before_locks_were_steps_keeps_its_locks(screen, server):  # noqa: F811
    page = screen
    play = fresh_play(page, server, PUZZLE)
    k = lane_with_water(play.geo)
    a = play.geo.lanes[k].a
    empty = "0" * len(play.geo.lanes)
    one = empty[:k] + "1" + empty[k + 1:]
    old = {"history": [empty, one], "pos": 1, "locked": [a], "seconds": 5, "hints": 0, "revealed": False}
    page.goto(f"{server}/help")     # off the Play page, which saves its own history when it is left
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"hashi-play:{PUZZLE}", json.dumps(old)])
    page.goto(f"{server}/play?p={urllib.request.quote(PUZZLE)}")
    name = cell_name(*play.geo.positions[a])
    page.wait_for_selector(f'#board .island.locked[data-island="{name}"]')
    assert play.counts()[k] == 1
    page.locator("#undo").click()
    assert play.counts()[k] == 0, "the old history's steps are all there"


def test_solve_asks_first_and_undo_takes_the_solution_back(screen, server):  # noqa: F811
    page = screen
    play = fresh_play(page, server, PUZZLE)
    page.locator("#solve").click()
    page.locator("#solve-no").click()
    assert page.locator("#solve-confirm").is_hidden()
    assert not any(play.counts())
    page.locator("#solve").click()
    page.locator("#solve-yes").click()
    page.wait_for_selector("#board.won")
    from hashi_print.puzzle.model import Solution
    assert is_valid_solution(play.puzzle, Solution.from_lane_counts(play.geo, play.counts()))
    page.locator("#undo").click()
    assert not any(play.counts())


def test_the_timer_runs_only_while_the_tab_is_shown_and_survives_a_reload(screen, server):  # noqa: F811
    page = screen
    fresh_play(page, server, PUZZLE)
    page.wait_for_function("() => Number(document.getElementById('timer').dataset.seconds) >= 2")
    page.evaluate("""() => {
      Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
      document.dispatchEvent(new Event('visibilitychange')); }""")
    hidden_at = int(page.locator("#timer").get_attribute("data-seconds"))
    page.wait_for_timeout(2500)
    still = int(page.locator("#timer").get_attribute("data-seconds"))
    assert still == hidden_at, "a hidden tab's timer stands"
    page.reload()
    page.wait_for_selector("#board .island")
    assert int(page.locator("#timer").get_attribute("data-seconds")) >= hidden_at


def test_networks_coloured_on_request_rows_and_columns_labelled_hinted_lane_marked(screen, server):  # noqa: F811
    page = screen
    play = fresh_play(page, server, PUZZLE)
    labels = page.locator("#board .axis text").all_text_contents()
    assert labels[:3] == ["A", "B", "C"] and labels[play.puzzle.cols:play.puzzle.cols + 2] == ["1", "2"]
    page.locator("#hint").click()
    page.wait_for_selector("#hintbox:not([hidden])")
    hinted = page.locator("#board .bridge:has(line.hinted)").evaluate_all(
        "els => els.map(e => e.dataset.lane)")
    assert hinted and all(lane in page.locator("#hint-text").inner_text() for lane in hinted)
    page.locator("#undo").click()
    settle(page)
    k = lane_with_water(play.geo)
    build(page, play.water_xy(k))
    settle(page)
    assert page.locator("#board .island[class*=group]").count() == 0
    page.locator("#colour-nets").check()
    a, b = (cell_name(*play.geo.positions[i]) for i in (play.geo.lanes[k].a, play.geo.lanes[k].b))
    group = [c for c in island_class(page, a).split() if c.startswith("group")]
    assert group and group == [c for c in island_class(page, b).split() if c.startswith("group")]
    ends = (play.geo.lanes[k].a, play.geo.lanes[k].b)
    other = next(cell_name(*pos) for i, pos in enumerate(play.geo.positions) if i not in ends)
    assert group != [c for c in island_class(page, other).split() if c.startswith("group")]


# --- feedback that never lies ----------------------------------------------------------------

def test_a_cut_off_pair_and_a_starved_island_are_flagged_at_once_with_a_glyph(screen, server):  # noqa: F811
    page = screen
    play = fresh_play(page, server, CUT_OFF)
    k = play.geo.lane_between(play.geo.index_of[(0, 9)], play.geo.index_of[(2, 9)])
    build(page, play.water_xy(k))
    settle(page)
    for name in ("J1", "J3"):
        cls = island_class(page, name)
        assert "dead" in cls and "complete" not in cls, cls
        assert page.locator(f'#board .island[data-island="{name}"] .warn').count() == 1
        assert page.locator(f'#board .island[data-island="{name}"] .warnmark').text_content() == "!"
    # H1 (a 5) now lacks lanes enough: J1 is full
    assert "dead" in island_class(page, "H1")
    assert "!" in page.locator("#status").inner_text()
    page.locator("#undo").click()
    settle(page)
    assert page.locator("#board .island.dead").count() == 0


# Machado, Oliveira and Fernandes (2009) at full severity, applied to sRGB values.
CVD = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def simulate(rgb: tuple[int, int, int], matrix) -> tuple[float, ...]:
    return tuple(min(255.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in matrix)


def lightness(rgb) -> float:
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]


def test_complete_and_overfull_islands_differ_under_every_colour_vision_type(screen, server):  # noqa: F811
    page = screen
    play = fresh_play(page, server, PUZZLE)
    geo, clues = play.geo, play.puzzle.clues
    i, k = next((n, k) for n, c in enumerate(clues) if c == 1 for k in geo.lanes_of[n]
                if clues[geo.lanes[k].a + geo.lanes[k].b - n] > 2 and geo.lanes[k].cells)
    j = next(n for n, isl in enumerate(play.puzzle.islands) if n != i and isl.clue == 1
             and all(i not in (play.geo.lanes[m].a, play.geo.lanes[m].b) for m in play.geo.lanes_of[n]))
    m = next(m for m in play.geo.lanes_of[j] if play.geo.lanes[m].cells and not play.geo.crossings[m])
    build(page, play.water_xy(k))             # i: complete
    build(page, play.water_xy(m))
    build(page, play.water_xy(m))             # j: two bridges on a 1, over-full
    settle(page)
    ni, nj = cell_name(*play.geo.positions[i]), cell_name(*play.geo.positions[j])
    assert "complete" in island_class(page, ni) and "overfull" in island_class(page, nj)
    shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    scale = shot.width / page.viewport_size["width"]

    def fill(n: int) -> tuple[int, int, int]:
        x, y = play.island_xy(n)
        r = page.locator("#board .island circle >> nth=0").bounding_box()["width"] / 2
        return shot.getpixel((int((x - 0.55 * r) * scale), int(y * scale)))

    complete, overfull = fill(i), fill(j)
    for kind, matrix in CVD.items():
        a, b = simulate(complete, matrix), simulate(overfull, matrix)
        assert abs(lightness(a) - lightness(b)) > 100, (kind, complete, overfull, a, b)
    # and besides lightness, a shape: the tick and the second ring
    assert page.locator(f'#board .island[data-island="{ni}"] .tick').count() == 1
    assert page.locator(f'#board .island[data-island="{nj}"] .overring').count() == 1


@pytest.mark.parametrize(("puzzle", "says"), [("2x2m2:1111", "no solution"),
                                              ("3x3m2:3a3c3a3", "more than one solution")])
def test_a_pasted_puzzle_without_a_unique_solution_is_said_so_on_load_hint_and_check(  # noqa: F811
        screen, server, puzzle, says):  # noqa: F811
    page = screen
    fresh_play(page, server, puzzle)
    page.wait_for_selector("#warning:not([hidden])")
    assert says in page.locator("#warning").inner_text()
    before = page.locator("#board").get_attribute("data-state")
    page.locator("#hint").click()
    page.wait_for_function("s => document.getElementById('status').textContent.includes(s)", arg=says)
    assert page.locator("#board").get_attribute("data-state") == before, "no bridge is 'deduced'"
    assert page.locator("#hintbox").is_hidden()
    page.locator("#status").evaluate("n => { n.textContent = ''; }")
    page.locator("#check").click()
    page.wait_for_function("s => document.getElementById('status').textContent.includes(s)", arg=says)


def test_solutions_are_counted_independently():
    """The two puzzles above really have none and several solutions (the solver's answer, checked by hand)."""
    assert solve(parse_puzzle("2x2m2:1111")).status == "none"      # four 1s in a square: two closed pairs
    # four 3s in a ring: the doubles on either pair of opposite sides
    assert solve(parse_puzzle("3x3m2:3a3c3a3")).status == "multiple"


# --- nothing lost, keyboard and screen readers ------------------------------------------------

def test_opening_an_older_share_link_adds_an_undo_step(screen, server):  # noqa: F811
    page = screen
    play = fresh_play(page, server, PUZZLE)
    k = lane_with_water(play.geo)
    build(page, play.water_xy(k))
    older = page.locator("#share").get_attribute("href")
    build(page, play.water_xy(k))
    newer = play.counts()
    assert newer[k] == 2
    page.goto(server + older)
    page.wait_for_selector("#board .island")
    assert play.counts()[k] == 1, "the link's position is shown"
    page.locator("#undo").click()
    assert play.counts() == newer, "the newer position is one undo away"


def test_the_cursor_shows_only_after_a_key_and_arrows_follow_the_row(screen, server):  # noqa: F811
    page = screen
    play = fresh_play(page, server, CUT_OFF)
    # a click focuses the board without a ring or a cursor
    build(page, play.island_xy(0))
    assert page.evaluate("document.activeElement.id") == "board"
    assert page.locator("#board .island.cursor").count() == 0
    assert page.evaluate("getComputedStyle(document.getElementById('board')).boxShadow") == "none"
    page.keyboard.press("Escape")
    page.keyboard.press("ArrowRight")
    assert page.locator("#board .island.cursor").get_attribute("data-island") == "B1"
    assert page.evaluate("getComputedStyle(document.getElementById('board')).boxShadow") != "none"
    # along row 1: B1, D1, H1, J1 (not down to C2 or E2)
    for want in ("D1", "H1", "J1"):
        page.keyboard.press("ArrowRight")
        assert page.locator("#board .island.cursor").get_attribute("data-island") == want
        assert want in page.locator("#announce").text_content()
    page.keyboard.press("ArrowDown")
    assert page.locator("#board .island.cursor").get_attribute("data-island") == "J3"
    page.keyboard.press("Space")
    page.keyboard.press("ArrowUp")
    assert page.locator("#announce").text_content() == "J1-J3: 1 bridge."


# --- phones: big boards zoom and pan --------------------------------------------------------------

BIG = ("20x20m2:a4e5a5e4b4k3b1e22h2b2d4e4c8b5e3a2r6a4h3a5c2a2c4b2i4a2c2a6c2b2e2a4e4d6b3b6a4a4a4a2a4b3i4e2f4a2"
       "g44b5b1c2b4y4a2g3e5u5a3a6a7c5g4i3d6e4c2k4a4b6a2a2c3c2j4b6f6a6b4c2")


def cell_px(page, cols: int) -> float:
    """The width of one cell on screen."""
    box = page.locator("#board").bounding_box()
    return box["width"] / (cols + 0.6)   # 0.6: the row numbers' margin, in cells


def pinch(page, start: float, end: float, steps: int = 6) -> None:
    """Two fingers on the board moving from `start` to `end` pixels apart, across its middle."""
    box = page.locator(".boardwrap").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + min(box["height"], 300) / 2
    cdp = page.context.new_cdp_session(page)

    def points(d):
        return [{"x": cx - d / 2, "y": cy, "id": 1}, {"x": cx + d / 2, "y": cy, "id": 2}]

    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points(start)})
    for n in range(1, steps + 1):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove",
                                              "touchPoints": points(start + (end - start) * n / steps)})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_a_big_board_on_a_phone_zooms_to_44_pixel_cells_pans_and_still_plays(browser, server):  # noqa: F811
    ctx = browser.new_context(**SCREENS["phone"])
    page = ctx.new_page()
    play = fresh_play(page, server, BIG)
    assert cell_px(page, 20) < 44, "unzoomed, a 20x20 fits the screen"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    pinch(page, 60, 200)
    page.wait_for_selector(".boardwrap.zoomed")
    assert cell_px(page, 20) >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page itself does not widen"
    wrap = page.locator(".boardwrap")
    assert wrap.evaluate("w => w.scrollWidth > w.clientWidth")
    # two fingers moving together pan the board
    before = wrap.evaluate("w => w.scrollLeft")
    box = wrap.bounding_box()
    cdp = ctx.new_cdp_session(page)
    y = box["y"] + 100
    moves = [("touchMove", -12 * n) for n in range(1, 11)]
    for kind, dx in (("touchStart", 0), *moves, ("touchEnd", None)):
        pts = [] if dx is None else [{"x": 150 + dx, "y": y, "id": 1}, {"x": 250 + dx, "y": y, "id": 2}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": pts})
    assert wrap.evaluate("w => w.scrollLeft") > before
    # a tap on a lane in view still builds a bridge
    wrap.evaluate("w => { w.scrollLeft = 0; w.scrollTop = 0; }")
    k = next(k for k, ln in enumerate(play.geo.lanes) if ln.cells and not play.geo.crossings[k]
             and play.geo.positions[ln.b][0] < 12 and play.geo.positions[ln.b][1] < 7)
    page.touchscreen.tap(*play.water_xy(k))
    assert play.counts()[k] == 1
    pinch(page, 200, 60)
    page.wait_for_selector(".boardwrap:not(.zoomed)")
    ctx.close()


def test_small_boards_offer_no_zoom(screen, server):  # noqa: F811
    fresh_play(screen, server, PUZZLE)
    assert screen.locator("#zoom").is_hidden()


def test_keys_work_after_a_button_was_clicked_and_shift_arrow_marks_an_empty_lane(screen, server):  # noqa: F811
    page = screen
    play = fresh_play(page, server, CUT_OFF)
    k = play.geo.lane_between(play.geo.index_of[(0, 9)], play.geo.index_of[(2, 9)])
    build(page, play.water_xy(k))
    page.click("#check")                      # the focus is on a button now
    page.keyboard.press("Control+z")
    assert play.counts()[k] == 0, "Ctrl+Z undoes with a button focused"
    page.locator("#board").focus()
    page.keyboard.press("ArrowRight")         # the cursor appears on B1
    for _ in range(3):
        page.keyboard.press("ArrowRight")     # ... and walks to J1
    page.keyboard.press("Space")
    page.keyboard.press("Shift+ArrowDown")
    settle(page)
    assert page.locator("#board").get_attribute("data-state")[k] == "x"
    assert page.locator("#announce").text_content() == "J1-J3: marked no bridge."
