"""The web app in a real browser (Debian's Chromium driven by Playwright): every control, end to end."""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from hashi_print.game.board import builtin_side
from hashi_print.game.deck import load_deck
from hashi_print.game.rules import apply as apply_move
from hashi_print.game.rules import legal_moves, new_game
from hashi_print.game.simulate import deal
from hashi_print.puzzle.formats import parse_puzzle
from hashi_print.puzzle.model import Solution
from hashi_print.puzzle.solve import solve
from hashi_print.render.sheet import FLAG_COLORS
from tests.independent import is_valid_solution

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
PUZZLE = "10x10m2:1b1c5a3j3f5a3j4c4b4m3a2a1a2l2b1g4b3b1a2"

playwright_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def server():
    """`hashi-print serve` on a free loopback port, for the whole module."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "hashi_print.cli", "serve", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(base + "/help", timeout=2)
            break
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                pytest.fail(f"the server did not start: {proc.stdout.read() if proc.stdout else ''}")
            time.sleep(0.2)
    yield base
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for the module."""
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    """A fresh desktop-sized page that fails the test on any script error."""
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, errors


# --- helpers: where things are on the board, and the state the page holds --------------------

UNIT = 40   # a cell's size in the boards' SVG units (board.js)


def cell_point(page, svg: str, rows: int, cols: int, row: float, col: float) -> tuple[float, float]:
    """Screen coordinates of a point given in cells (row, col may be fractional) on an SVG board, through
    the board's own transform (so labels and margins round the grid do not matter)."""
    x, y = page.evaluate("""([sel, x, y]) => {
      const svg = document.querySelector(sel);
      const p = svg.createSVGPoint();
      p.x = x; p.y = y;
      const q = p.matrixTransform(svg.getScreenCTM());
      return [q.x, q.y];
    }""", [svg, (col + 0.5) * UNIT, (row + 0.5) * UNIT])
    return x, y


def lane_counts(page, lanes: int) -> list[int]:
    """The bridges per lane as the page's share link carries them."""
    href = page.locator("#share").get_attribute("href")
    digits = href.split("&b=")[1] if "&b=" in href else "0" * lanes
    return [int(d) for d in digits]


def settle(page) -> None:
    """Wait until the server has checked the position on the board (colours and win are up to date)."""
    page.wait_for_function("() => { const b = document.getElementById('board'); "
                           "return b.dataset.state && b.dataset.checked === b.dataset.state; }")


class Play:
    """The play page of one puzzle: where its islands and lanes are, and the bridges it holds."""

    def __init__(self, page, puzzle_id: str):
        self.page = page
        self.puzzle = parse_puzzle(puzzle_id)
        self.geo = self.puzzle.geometry

    def at(self, row: float, col: float) -> tuple[float, float]:
        return cell_point(self.page, "#board", self.puzzle.rows, self.puzzle.cols, row, col)

    def island_xy(self, i: int) -> tuple[float, float]:
        return self.at(*self.geo.positions[i])

    def water_xy(self, k: int) -> tuple[float, float]:
        r, c = self.geo.lanes[k].cells[len(self.geo.lanes[k].cells) // 2]
        return self.at(r, c)

    def counts(self) -> list[int]:
        settle(self.page)
        return lane_counts(self.page, len(self.geo.lanes))


def open_play(page, server, puzzle_id: str = PUZZLE) -> Play:
    page.goto(f"{server}/play?p={urllib.request.quote(puzzle_id)}")
    page.wait_for_selector("#board .island")
    return Play(page, puzzle_id)


def lane_with_water(geo) -> int:
    """A lane with water cells that crosses no other lane."""
    return next(k for k, ln in enumerate(geo.lanes) if ln.cells and not geo.crossings[k])


# --- classic play ----------------------------------------------------------------------------

def test_every_mouse_control_and_undo_redo(page, server):
    play = open_play(page, server)
    k = lane_with_water(play.geo)
    a, b = play.geo.lanes[k].a, play.geo.lanes[k].b
    x, y = play.water_xy(k)
    page.mouse.click(x, y)
    assert play.counts()[k] == 1
    page.mouse.click(x, y)
    assert play.counts()[k] == 2
    page.mouse.click(x, y, button="right")
    assert play.counts()[k] == 1
    page.keyboard.down("Shift")
    page.mouse.click(x, y)
    page.keyboard.up("Shift")
    assert play.counts()[k] == 0
    page.mouse.click(x, y)
    page.mouse.click(x, y)
    page.mouse.click(x, y)
    assert play.counts()[k] == 0, "a third click removes the bridges"
    # drag from one island toward the other
    (x1, y1), (x2, y2) = play.island_xy(a), play.island_xy(b)
    page.mouse.move(x1, y1)
    page.mouse.down()
    page.mouse.move((x1 * 2 + x2) / 3, (y1 * 2 + y2) / 3, steps=4)
    page.mouse.up()
    assert play.counts()[k] == 1
    # click one island, then the other
    page.mouse.click(x1, y1)
    page.mouse.click(x2, y2)
    assert play.counts()[k] == 2
    # undo and redo without limit
    page.keyboard.press("Control+z")
    assert play.counts()[k] == 1
    for _ in range(9):
        page.keyboard.press("Control+z")
    assert play.counts()[k] == 0
    for _ in range(9):
        page.keyboard.press("Control+y")
    assert play.counts()[k] == 2
    page.keyboard.press("Control+Shift+z")
    assert "Nothing to redo" in page.locator("#status").inner_text()


def test_colours_check_hint_undo_across_the_hint_reload_and_share(page, server):
    play = open_play(page, server)
    solution = solve(play.puzzle).solution.lane_counts(play.geo)
    # an island with clue 1: a double bridge over-fills it (red), a single one completes it (green)
    # (whose neighbour takes more than 1: a bridge between two 1s closes a group, flagged instead)
    geo, clues = play.geo, play.puzzle.clues
    i, k = next((n, k) for n, c in enumerate(clues) if c == 1
                for k in geo.lanes_of[n] if clues[geo.lanes[k].a + geo.lanes[k].b - n] > 1)
    name = play.page.locator(f"#board .island >> nth={i}").get_attribute("data-island")
    x, y = play.water_xy(k) if play.geo.lanes[k].cells else play.island_xy(i)
    page.mouse.click(x, y)
    page.mouse.click(x, y)
    settle(page)
    assert "overfull" in page.locator(f'#board .island[data-island="{name}"]').get_attribute("class")
    page.mouse.click(x, y, button="right")
    settle(page)
    assert "complete" in page.locator(f'#board .island[data-island="{name}"]').get_attribute("class")
    # Check marks a bridge that is not in the solution
    for _ in range(3):
        page.keyboard.press("Control+z")
    assert not any(play.counts())
    wrong = next(n for n, ln in enumerate(play.geo.lanes)
                 if solution[n] == 0 and ln.cells and not play.geo.crossings[n])
    page.mouse.click(*play.water_xy(wrong))
    page.keyboard.press("c")
    settle(page)
    # The check's answer comes on its own request, after the board's own check on a loaded machine.
    page.wait_for_selector("#board .bridge.wrong", state="attached")
    marked = page.locator("#board .bridge.wrong").evaluate_all("els => els.map(e => e.dataset.lane)")
    assert len(marked) == 1
    assert page.locator("#status").inner_text().startswith("1 wrong bridge")
    page.keyboard.press("Control+z")
    before = play.counts()
    # H: the deducer's step, its islands highlighted, its bridge drawn; undo and redo go across it
    page.keyboard.press("h")
    page.wait_for_selector("#hintbox:not([hidden])")
    settle(page)
    technique = page.locator("#hint-technique").inner_text()
    assert technique and page.locator("#hint-text").inner_text()
    assert page.locator("#board .island.hl").count() >= 1
    after = play.counts()
    assert after != before and all(x <= s for x, s in zip(after, solution, strict=True))
    page.keyboard.press("Control+z")
    assert play.counts() == before
    page.keyboard.press("Control+y")
    assert play.counts() == after
    # reload keeps the position and the history; the share link opens the same position
    page.reload()
    page.wait_for_selector("#board .island")
    assert play.counts() == after
    page.keyboard.press("Control+z")
    assert play.counts() == before
    page.keyboard.press("Control+y")
    share = page.locator("#share").get_attribute("href")
    other = page.context.browser.new_context().new_page()
    other.goto(server + share)
    other.wait_for_selector("#board .island")
    settle(other)
    assert lane_counts(other, len(play.geo.lanes)) == after
    other.context.close()


@pytest.mark.parametrize("address", ["/play", "/play?p=7x7:zz"])
def test_play_without_a_puzzle_offers_a_new_one_instead_of_an_empty_board(page, server, address):
    page.goto(f"{server}{address}")
    page.evaluate("localStorage.clear()")
    page.reload()
    link = page.locator("#empty a")
    link.wait_for(state="visible")
    status = page.locator("#status").inner_text()
    want = "No puzzle yet" if address == "/play" else "but a 7x7 grid has 49"
    assert want in status, status
    for hidden in ("#board", "#undo", "#hint", "#share", "#puzzle-id"):
        assert not page.locator(hidden).is_visible(), hidden
    link.click()
    page.wait_for_url("**/new")
    assert page.locator("h1").inner_text() == "New puzzle"


def test_keyboard_only_play(page, server):
    play = open_play(page, server)
    page.locator("#board").focus()
    # the cursor starts on island 0, the first in reading order: its lanes go right or down
    k = play.geo.lanes_of[0][0]
    key = "ArrowRight" if play.geo.lanes[k].horizontal else "ArrowDown"
    page.keyboard.press("Space")
    page.keyboard.press(key)
    assert play.counts()[k] == 1
    page.keyboard.press("Enter")
    page.keyboard.press(key)
    assert play.counts()[k] == 2
    page.keyboard.press("Space")
    page.keyboard.press(f"Shift+{key}")
    assert play.counts()[k] == 1
    # arrows move the cursor to the next island that way
    page.keyboard.press(key)
    cursor = page.locator("#board .island.cursor").get_attribute("data-island")
    assert cursor != page.locator("#board .island >> nth=0").get_attribute("data-island")


def test_playing_the_solution_wins(page, server):
    play = open_play(page, server)
    for bridge in solve(play.puzzle).solution.bridges:
        a = play.geo.index_of[(bridge.r1, bridge.c1)]
        b = play.geo.index_of[(bridge.r2, bridge.c2)]
        for _ in range(bridge.count):
            page.mouse.click(*play.island_xy(a))
            page.mouse.click(*play.island_xy(b))
    page.wait_for_selector("#status.win")
    assert "Solved" in page.locator("#status").inner_text()
    assert "won" in page.locator("#board").get_attribute("class")
    drawn = Solution.from_lane_counts(play.geo, play.counts())
    assert is_valid_solution(play.puzzle, drawn)


def test_touch_on_a_phone_sized_screen(browser, server):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    play = open_play(page, server)
    box = page.locator("#board").bounding_box()
    assert box["width"] <= 390
    k = lane_with_water(play.geo)
    page.touchscreen.tap(*play.water_xy(k))
    assert play.counts()[k] == 1
    page.touchscreen.tap(*play.water_xy(k))
    assert play.counts()[k] == 2
    # a swipe from an island toward its neighbour builds on that lane
    cdp = ctx.new_cdp_session(page)
    (x1, y1), (x2, y2) = play.island_xy(play.geo.lanes[k].a), play.island_xy(play.geo.lanes[k].b)
    for kind, points in (("touchStart", [(x1, y1)]), ("touchMove", [((x1 + x2) / 2, (y1 + y2) / 2)]),
                         ("touchEnd", [])):
        touches = [{"x": x, "y": y} for x, y in points]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": touches})
    assert play.counts()[k] == 0, "a third bridge on a lane takes both away"
    ctx.close()


# --- new puzzle ------------------------------------------------------------------------------

def test_new_puzzle_generated_pasted_or_typed_from_a_book(page, server):
    page.goto(server + "/new")
    page.wait_for_selector("#gen-size option", state="attached")
    page.select_option("#generate [name=size]", "7")
    page.select_option("#generate [name=difficulty]", "easy")
    page.fill("#generate [name=seed]", "4")
    page.click("#generate button")
    page.wait_for_url("**/play?p=*")
    page.wait_for_selector("#board .island")
    generated = page.locator("#puzzle-id").inner_text()
    assert generated.startswith("7x7")
    assert solve(parse_puzzle(generated)).status == "unique"
    page.goto(server + "/new")
    page.fill("#paste-text", "2.2\n...\n2.2\n")
    page.click("#paste button")
    page.wait_for_url("**/play?p=*")
    page.wait_for_selector("#board .island")
    assert page.locator("#board .island").count() == 4
    page.goto(server + "/new")
    page.fill("#book-id", PUZZLE[:20] + "\n  " + PUZZLE[20:])
    page.click("#book button")
    page.wait_for_url("**/play?p=*")
    page.wait_for_selector("#board .island")
    assert page.locator("#puzzle-id").inner_text() == PUZZLE
    page.goto(server + "/new")
    page.fill("#paste-text", "not a puzzle")
    page.click("#paste button")
    page.wait_for_selector("#status.error")


# --- the solver lab --------------------------------------------------------------------------

def test_lab_compares_modes_and_steps_through_the_cuts(page, server):
    page.goto(server + "/lab")
    page.fill("#lab-puzzle", PUZZLE)
    page.select_option("#lab [name=backend]", "minisat22")
    page.select_option("#lab [name=card]", "seqcounter")
    page.click("#compare")
    page.wait_for_selector(".run[data-mode=eager]")
    lazy = page.locator(".run[data-mode=lazy]")
    assert "minisat22" in lazy.locator("h2").inner_text() and "seqcounter" in lazy.locator("h2").inner_text()
    cells = lazy.locator("table.stats tr >> nth=1").locator("td").all_inner_texts()
    assert cells[0] == "unique" and int(cells[1]) > 0 and int(cells[2]) > 0 and int(cells[3]) >= 1
    rounds = int(cells[4])
    assert rounds >= 1
    assert lazy.locator(".island.group0").count() >= 1 and lazy.locator(".island.group1").count() >= 1
    assert lazy.locator(".caption").inner_text().startswith("Round 1 of")
    for _ in range(rounds):
        lazy.locator("button", has_text="Next").click()
    assert "solution" in lazy.locator(".caption").inner_text()
    assert lazy.locator(".bridge line").count() > 0
    eager = page.locator(".run[data-mode=eager] table.stats tr >> nth=1").locator("td").all_inner_texts()
    assert eager[0] == "unique" and int(eager[3]) == 0 and int(eager[1]) > int(cells[1]) - 1000


# --- the roll-and-write game -----------------------------------------------------------------

def test_card_flipper_reveals_seventeen_cards(page, server):
    page.goto(server + "/cards")
    page.click("#shuffle")
    page.wait_for_selector("#reveal:not([disabled])")
    seed = int(page.locator("#deal-info").inner_text().split("seed ")[1].split(")")[0])
    cards = deal(load_deck(), random.Random(seed))
    for turn, card in enumerate(cards, start=1):
        page.keyboard.press("ArrowRight") if turn % 2 else page.click("#reveal")
        assert page.locator("#turn").inner_text() == f"Turn {turn} of 17"
        assert page.locator("#numeral").inner_text() == str(card.numeral)
        assert page.locator("#bridges").inner_text().startswith(str(card.bridges))
    assert page.locator("#reveal").is_disabled()
    assert page.locator("#played li").count() == 17


def test_a_solo_game_played_to_the_end_gives_a_record_validate_accepts(page, server, tmp_path):
    side = builtin_side("A")
    seed = 21
    cards = deal(load_deck(), random.Random(seed))
    page.goto(server + "/game")
    page.evaluate("localStorage.clear()")
    page.select_option("#start [name=side]", "A")
    page.fill("#start [name=seed]", str(seed))
    page.fill("#start [name=player]", "Ann")
    page.click("#start button")
    page.wait_for_selector("#sheet .island")
    rows, cols = side.rows, side.cols
    geo = side.geometry

    def at(row, col):
        return cell_point(page, "#sheet", rows, cols, row, col)

    def click_island(i):
        page.mouse.click(*at(side.islands[i].row, side.islands[i].col))

    def click_lane(k):
        lane = geo.lanes[k]
        crossed = {c for j in geo.crossings[k] for c in geo.lanes[j].cells}
        free = [c for c in lane.cells if c not in crossed]
        if free:
            page.mouse.click(*at(*free[len(free) // 2]))
        else:
            (r1, c1), (r2, c2) = geo.positions[lane.a], geo.positions[lane.b]
            page.mouse.click(*at((r1 + r2) / 2, (c1 + c2) / 2))

    setup = next(i for i, isl in enumerate(side.islands) if isl.flag is None)
    # No card is shown before the setup numeral is written: no empty card frame either.
    assert not page.locator("#cardbox").is_visible()
    click_island(setup)
    page.click("#setup-4")
    page.wait_for_selector("#turn-buttons:not([hidden])")
    assert page.locator("#cardbox").is_visible()
    state = new_game(side, (setup, 4))
    # an illegal turn first: a numeral on a flagged island that no bridge touches yet
    flagged = next(i for i, isl in enumerate(side.islands) if isl.flag)
    click_island(flagged)
    page.click("#play-turn")
    page.wait_for_selector("#status.error")
    refusal = page.locator("#status").inner_text()
    assert "Refused" in refusal and "flag" in refusal
    page.click("#clear-turn")
    rng = random.Random(5)
    for turn, card in enumerate(cards, start=1):
        assert page.locator("#cardbox .turn").inner_text() == f"Turn {turn} of 17"
        assert page.locator("#cardbox .numeral").inner_text() == str(card.numeral)
        moves = legal_moves(state, card)
        full = [m for m in moves if m.numeral and m.bridges] or [m for m in moves if m.bridges] or moves
        move = rng.choice(full)
        if move.numeral is not None:
            click_island(move.numeral[0])
        for k in move.bridges:
            click_lane(k)
        page.click("#play-turn")
        page.wait_for_function("t => !document.querySelector('#cardbox .turn') || "
                               "document.querySelector('#cardbox .turn').textContent !== t",
                               arg=f"Turn {turn} of 17", timeout=5000)
        state = apply_move(state, card, move)
    page.wait_for_selector("#final:not([hidden])")
    circled = sorted(page.locator("#sheet .island.circled").evaluate_all(
        "els => els.map(e => e.dataset.island)"))
    assert circled == sorted(side.islands[i].label for i in state.circled)
    assert page.locator("#final-score").inner_text().startswith("Score ")
    assert page.locator("#final-rating").inner_text().startswith("Rating: ")
    with page.expect_download() as dl:
        page.click("#download")
    path = tmp_path / "record.txt"
    dl.value.save_as(path)
    out = subprocess.run([sys.executable, "-m", "hashi_print.cli", "validate", str(path), "--json", "--solo",
                          "--level", "normal"], capture_output=True, text=True, check=False)
    report = json.loads(out.stdout)
    assert out.returncode == 0 and report["ok"], report
    assert report["score"]["circled"] == len(state.circled)
    shown_total = int(page.locator("#final-score").inner_text().split()[1].rstrip(":"))
    assert shown_total == report["score"]["total"]


# Each flag drawn in `root`: its shape (corners of the cloth), letter, names, and whether the
# letter sits on the cloth.
FLAGS_DRAWN = """root => [...document.querySelectorAll(root + ' .flag')].map((g) => {
  const cloth = g.querySelector('polygon').getBBox();
  const letter = g.querySelector('text.letter').getBBox();
  const island = g.closest('[data-island]');
  return {island: island ? island.dataset.island : null,
    colour: g.classList.contains('red') ? 'red' : g.classList.contains('blue') ? 'blue' : '?',
    corners: g.querySelector('polygon').points.numberOfItems,
    fill: getComputedStyle(g.querySelector('polygon')).fill,
    letter: g.querySelector('text.letter').textContent, label: g.getAttribute('aria-label'),
    role: g.getAttribute('role'), title: g.querySelector('title').textContent,
    onCloth: letter.x >= cloth.x && letter.x + letter.width <= cloth.x + cloth.width &&
      letter.y + letter.height / 2 > cloth.y && letter.y + letter.height / 2 < cloth.y + cloth.height};
})"""


@pytest.mark.parametrize(("side_name", "lang", "names"), [
    ("A", "en", {"red": "Red flag (R)", "blue": "Blue flag (B)"}),
    ("B", "de", {"red": "Rote Flagge (R)", "blue": "Blaue Flagge (B)"})])
def test_red_and_blue_flags_differ_in_shape_and_letter_as_on_the_sheet(page, server, side_name, lang, names):
    side = builtin_side(side_name)
    page.goto(f"{server}/game?lang={lang}")
    page.evaluate("localStorage.clear()")
    page.select_option("#start [name=side]", side_name)
    page.fill("#start [name=seed]", "4")
    page.click("#start button[type=submit]")
    page.wait_for_selector("#goals tr[data-goal=blue]")
    shape = {"red": (3, "R"), "blue": (4, "B")}   # a pennant's 3 corners, a banner's 4
    board = page.evaluate(FLAGS_DRAWN, "#sheet")
    flags = {isl.label: isl.flag for isl in side.islands if isl.flag}
    assert {f["island"]: f["colour"] for f in board} == flags
    # the printed sheet's colours, as the browser paints them
    painted = {goal: "rgb({}, {}, {})".format(*(int(hex_[k:k + 2], 16) for k in (1, 3, 5)))
               for goal, hex_ in FLAG_COLORS.items()}
    for f in board:
        assert (f["corners"], f["letter"]) == shape[f["colour"]], f
        assert f["fill"] == painted[f["colour"]], f
        assert f["label"] == f["title"] == names[f["colour"]] and f["role"] == "img", f
        assert f["onCloth"], f
    # the goal table shows each flag goal's symbol in the same shape, hidden from screen readers
    # (the goal's name beside it says it)
    for goal in ("red", "blue"):
        icon = page.evaluate(FLAGS_DRAWN, f"#goals tr[data-goal={goal}] .goalicon")
        drawn = [(f["colour"], f["corners"], f["letter"], f["onCloth"]) for f in icon]
        assert drawn == [(goal, *shape[goal], True)]
        assert page.locator(f"#goals tr[data-goal={goal}] .goalicon").get_attribute("aria-hidden") == "true"


@pytest.mark.parametrize("side_name", ["A", "B"])
def test_on_a_phone_every_flag_stands_on_the_boards_water_and_on_the_screen(browser, server, side_name):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    page.goto(f"{server}/game")
    page.evaluate("localStorage.clear()")
    page.select_option("#start [name=side]", side_name)
    page.click("#start button[type=submit]")
    page.wait_for_selector("#sheet .flag")
    found = page.evaluate("""() => {
      const water = document.querySelector('#sheet .water').getBoundingClientRect();
      return {water: [water.left, water.top, water.right, water.bottom], width: window.innerWidth,
        flags: [...document.querySelectorAll('#sheet .flag')].map((g) => {
          const r = g.getBoundingClientRect();
          return [g.closest('[data-island]').dataset.island, r.left, r.top, r.right, r.bottom];
        })};
    }""")
    ctx.close()
    flags = {isl.label for isl in builtin_side(side_name).islands if isl.flag}
    assert {f[0] for f in found["flags"]} == flags
    left, top, right, bottom = found["water"]
    assert left >= 0 and right <= found["width"]
    for label, *box in found["flags"]:
        x0, y0, x1, y1 = box
        assert left <= x0 and x1 <= right and top <= y0 and y1 <= bottom, (label, box, found["water"])


@pytest.mark.parametrize("path", ["/", "/help", "/game", "/cards", "/lab", "/new"])
def test_pages_load_without_script_errors_on_a_phone(browser, server, path):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server + path)
    page.wait_for_load_state("networkidle")
    width = page.evaluate("document.documentElement.scrollWidth")
    ctx.close()
    assert not errors, errors
    assert width <= 390, f"{path} scrolls sideways on a phone ({width} px)"

