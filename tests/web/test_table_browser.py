"""Game night in real Chromium: a host and three players (two phones, one paper sheet photographed) play a
whole game through the pages, with a server restart and a page reload in the middle; the scoreboard the
pages show is what `hashi-print score` gives for the records they download."""

from __future__ import annotations

import base64
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from hashi_print.game.board import builtin_side
from hashi_print.game.bots import Context, strong_bot
from hashi_print.game.deck import load_deck
from hashi_print.game.rules import apply, new_game
from hashi_print.game.scoring import load_scoring
from hashi_print.game.simulate import deal
from hashi_print.scan.resolve import first_box
from hashi_print.sheets.formats import record_from_moves
from hashi_print.sheets.marks import marks_of
from tests.photos import Camera, filled_sheet, photograph

# The headless Chromium fixture of the app's browser tests; importing it also skips this module when
# Playwright or Chromium is missing.
from tests.web.test_web_browser import browser  # noqa: F401

SIDE = builtin_side("A")
SEED = 7
CARDS = deal(load_deck(), random.Random(SEED))
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
# Where the screenshots of docs/game-night.md are written, when asked (HASHI_DOC_SHOTS=docs/img).
SHOTS = os.environ.get("HASHI_DOC_SHOTS")


class Server:
    """`hashi-print serve --db FILE` on a fixed loopback port, that a test can stop and start again."""

    def __init__(self, db: Path):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.db = db
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = None

    def start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "hashi_print.cli", "serve", "--port",
                                      str(self.port), "--workers", "1", "--db", str(self.db)],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(self.base + "/table/new", timeout=2)
                return
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    self.proc.kill()
                    pytest.fail(f"the server did not start: {self.proc.stdout.read()}")
                time.sleep(0.2)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=20)


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path / "tables.sqlite")
    srv.start()
    yield srv
    if srv.proc.poll() is None:
        srv.stop()


def screen_point(page, svg: str, x: float, y: float) -> tuple[float, float]:
    """Where a point of an SVG board (in cells: column x, row y) is on the screen."""
    return tuple(page.evaluate("""([id, x, y]) => {
        const svg = document.getElementById(id); const pt = svg.createSVGPoint();
        pt.x = (x + 0.5) * 40; pt.y = (y + 0.5) * 40;
        const p = pt.matrixTransform(svg.getScreenCTM()); return [p.x, p.y]; }""", [svg, x, y]))


def tap_island(page, svg: str, i: int) -> None:
    isl = SIDE.islands[i]
    page.mouse.click(*screen_point(page, svg, isl.col, isl.row))


def tap_lane(page, svg: str, k: int) -> None:
    geo = SIDE.geometry
    lane = geo.lanes[k]
    crossed = {c for j in geo.crossings[k] for c in geo.lanes[j].cells}
    free = [c for c in lane.cells if c not in crossed] or lane.cells
    r, c = free[len(free) // 2]
    page.mouse.click(*screen_point(page, svg, c, r))


def shot(page, name: str, full: bool = False) -> None:
    """Save a screenshot for the docs when HASHI_DOC_SHOTS names a folder."""
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / name), full_page=full)


def watch(page, errors: list) -> None:
    page.on("pageerror", lambda e: errors.append(str(e)))


def assert_loaded(page, selector: str, min_width: int) -> None:
    """Wait until the picture at `selector` has loaded at more than `min_width` pixels wide (a data URL
    decodes after the element is shown; fails after 15 s); polled by the clock, as a page in the
    background gets no animation frames."""
    page.wait_for_function(
        "([sel, w]) => { const img = document.querySelector(sel);"
        " return img.complete && img.naturalWidth > w; }",
        arg=[selector, min_width], polling=100, timeout=15_000)


def shown_width(page, selector: str) -> int:
    """The width of the PNG picture the page shows at `selector`, once shown (read from its data URL, so
    that a page the browser has put in the background, which may leave it undecoded, reads the same)."""
    page.wait_for_selector(f"{selector}:not([hidden])", timeout=15_000)
    img = page.locator(selector)
    src = img.get_attribute("src") or ""
    head = "data:image/png;base64,"
    assert src.startswith(head)
    png = base64.b64decode(src[len(head):])
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    return int.from_bytes(png[16:20], "big")


def shown_turn(page) -> int:
    return int(page.evaluate("document.body.dataset.turn || '0'"))


# True while the player's page offers card `t` to play.
ON_TURN = ("document.querySelector('#cardbox .turn') && "
           "document.querySelector('#cardbox .turn').textContent.startsWith('Turn ' + t + ' ')")


def bot_move(state, turn: int, seat: int):
    """The strong bot's move for card `turn` (it plays well enough for the goals to be raced for)."""
    context = Context(SIDE, load_deck(), load_scoring(), CARDS[:turn - 1], random.Random(seat))
    return strong_bot(state, CARDS[turn - 1], context)


def play_on_phone(page, state, turn: int, seat: int):
    """Play the revealed card `turn` through the page: tap the numeral's island and the lanes, then Play."""
    card = CARDS[turn - 1]
    page.wait_for_function(f"t => {ON_TURN}", arg=turn, timeout=10_000)
    move = bot_move(state, turn, seat)
    if move.numeral is not None:
        tap_island(page, "sheet", move.numeral[0])
    for k in move.bridges:
        tap_lane(page, "sheet", k)
    page.click("#play-turn")
    page.wait_for_function(f"t => !({ON_TURN})", arg=turn, timeout=10_000)
    return apply(state, card, move)


def truth_of(doubt: dict, marks) -> object:
    """What the paper sheet really shows at a doubtful field (from the marks the photo was drawn from)."""
    where, field = doubt["where"], doubt["field"]
    if field == "number":
        return marks.numerals[SIDE.label_index[where]]
    if field == "bridges":
        return marks.bridges[next(k for k in range(len(SIDE.geometry.lanes)) if SIDE.lane_name(k) == where)]
    if field == "circled":
        return SIDE.label_index[where] in marks.circled
    if field == "card":
        return int(where) in marks.cards
    if where.endswith("first box"):
        return next(g for g in ("red", "blue", "six") if first_box(g) == where) in marks.lost_first
    return marks.goal_turn(where)


def test_a_host_two_phones_and_a_paper_sheet_play_a_whole_game(browser, server, tmp_path):  # noqa: F811
    errors: list[str] = []
    host = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
    watch(host, errors)
    host.goto(server.base + "/table/new")
    host.select_option("#new-table [name=side]", "A")
    host.fill("#new-table [name=seed]", str(SEED))
    host.click("#new-table button")
    host.wait_for_url("**/host")
    host.wait_for_selector("#join-link[href*='/table/']")
    link = host.locator("#join-link").get_attribute("href")
    code = link.rsplit("/", 1)[1]
    assert host.locator("#code").inner_text() == code
    assert_loaded(host, "#qr", 0)

    contexts = [browser.new_context(**PHONE) for _ in range(3)]
    players = [c.new_page() for c in contexts]
    seats = [("Ann", "phone"), ("Bob", "phone"), ("Cy", "paper")]
    for page, (name, mode) in zip(players, seats, strict=True):
        watch(page, errors)
        if name == "Bob":
            # Bob types the code, in lower case with a dash, instead of opening the link
            page.goto(server.base + "/table/new")
            page.fill("#join-code [name=code]", f"{code[:4].lower()}-{code[4:].lower()}")
            page.click("#join-code button")
            page.wait_for_url(link)
        else:
            page.goto(link)
        page.fill("#join [name=name]", name)
        page.check(f"#join [name=mode][value={mode}]")
        page.click("#join button[type=submit]")
        page.wait_for_selector("#seat:not([hidden])")
    # joins reach the host's page live
    host.wait_for_function("() => document.querySelectorAll('#players li').length === 3", timeout=5000)
    # each player sets up the sheet on their left: Ann -> Bob -> Cy -> Ann
    picks = ["C", "D", "G"]
    for page, pick, left in zip(players, picks, ["Bob", "Cy", "Ann"], strict=True):
        assert page.locator("#setup-title").inner_text() == f"You set up {left}'s sheet"
        tap_island(page, "setup-board", SIDE.label_index[pick])
        page.click("#give-4")
        page.wait_for_function("() => document.querySelector('#setup-help').textContent.startsWith('Chosen')")
    players[2].wait_for_function("() => document.querySelector('#received').textContent"
                                 ".startsWith('Write a 4 on island D')")
    shot(players[0], "game-night-phone-setup.png")
    setups = {0: "G", 1: "C", 2: "D"}
    states = [new_game(SIDE, (SIDE.label_index[setups[s]], 4)) for s in (0, 1)]
    paper_state = new_game(SIDE, (SIDE.label_index[setups[2]], 4))
    paper_moves = []
    for turn in range(1, 18):
        host.click("#reveal")
        host.wait_for_function("t => document.body.dataset.turn === String(t)", arg=turn)
        assert host.locator("#numeral").inner_text() == str(CARDS[turn - 1].numeral)
        assert host.locator("#to-come").inner_text().startswith(str(17 - turn))
        # the reveal reaches every player's page
        for page in players:
            page.wait_for_function("t => document.body.dataset.turn === String(t)", arg=turn, timeout=5000)
        for seat in (0, 1):
            states[seat] = play_on_phone(players[seat], states[seat], turn, seat)
        move = bot_move(paper_state, turn, 2)
        paper_state = apply(paper_state, CARDS[turn - 1], move)
        paper_moves.append(move)
        if turn == 8:
            shot(host, "game-night-host.png")
            shot(players[0], "game-night-phone.png")
            # the server stops mid-game and comes back on the same file: nothing is lost
            server.stop()
            server.start()
            # a reload rejoins where the player was
            players[1].reload()
            players[1].wait_for_selector("#phone:not([hidden])")
            numerals = players[1].locator("#sheet .island text:not(.label):not(.letter)").all_text_contents()
            assert len([t for t in numerals if t]) == sum(v is not None for v in states[1].numerals)
    # the paper player photographs the sheet the test drew from its own game on the same cards
    record = record_from_moves(SIDE, (SIDE.label_index[setups[2]], 4), CARDS, paper_moves, player="Cy")
    deck, scoring = load_deck(), load_scoring()
    truth = marks_of(record, deck)
    photo_rng = random.Random(4)
    picture = photograph(filled_sheet(truth, deck, scoring, "a4", photo_rng, "black"),
                         Camera(megapixels=2.0, tilt=0.1, turn=2.0), photo_rng)
    photo = tmp_path / "cy.jpg"
    photo.write_bytes(picture)
    paper = players[2]
    paper.wait_for_selector("#photo-form:not([hidden])")
    paper.set_input_files("#photo", str(photo))
    paper.click("#photo-form button[type=submit]")
    paper.wait_for_selector("#reading:not([hidden])", timeout=60_000)
    assert shown_width(paper, "#overlay") > 500
    for _ in range(40):
        doubts = paper.locator("#doubts li")
        if not doubts.count():
            break
        first = doubts.first
        doubt = {"field": first.get_attribute("data-field"), "where": first.get_attribute("data-where")}
        first.locator(f"button[data-value='{json.dumps(truth_of(doubt, truth))}']").click()
        paper.wait_for_function("([f, w]) => !document.querySelector(`#doubts li[data-field='${f}']"
                                "[data-where='${w}']`)", arg=[doubt["field"], doubt["where"]])
    for page in [host, *players]:
        page.wait_for_selector("#scores:not([hidden])", timeout=10_000)
    shot(host, "game-night-scoreboard.png", full=True)
    shot(players[0], "game-night-phone-scores.png", full=True)
    # every record downloads and `hashi-print score` gives exactly the scoreboard shown
    files = []
    for seat in range(3):
        with players[0].expect_download() as dl:
            players[0].click(f"#scoreboard tr[data-seat='{seat}'] a")
        name = dl.value.suggested_filename
        dl.value.save_as(tmp_path / name)
        files.append(name)
    out = subprocess.run([sys.executable, "-m", "hashi_print.cli", "score", "--json", *files], cwd=tmp_path,
                         capture_output=True, text=True, check=False)
    scored = json.loads(out.stdout)
    board = json.loads(urllib.request.urlopen(f"{server.base}/api/tables/{code}").read())["scoreboard"]
    assert scored == board
    shown = host.locator("#scoreboard td.total").all_inner_texts()
    assert [int(t) for t in shown] == [p["score"]["total"] for p in scored["players"]]
    # independent of the app: the circles of each sheet, from the test's own replay
    circled = [len(states[0].circled), len(states[1].circled), len(paper_state.circled)]
    assert [p["score"]["circled"] for p in scored["players"]] == circled
    assert [p["player"] for p in scored["players"]] == ["Ann", "Bob", "Cy"]
    for c in contexts:
        c.close()
    assert not errors, errors


def read_events(base: str, code: str, after: int, count: int) -> list[tuple[str, str, dict]]:
    """Read `count` server-sent events of a table from one server: (id, event name, data)."""
    stream = urllib.request.urlopen(f"{base}/api/tables/{code}/events?after={after}", timeout=10)
    events, current = [], {}
    while len(events) < count:
        line = stream.readline().decode().rstrip("\r\n")
        if not line:
            if "event" in current:
                events.append((current["id"], current["event"], json.loads(current["data"])))
            current = {}
        elif not line.startswith(":"):
            key, _sep, value = line.partition(": ")
            current[key] = value
    stream.close()
    return events


def post(base: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    request = urllib.request.Request(base + path, data=json.dumps(body or {}).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {token}"} if token else {})})
    return json.loads(urllib.request.urlopen(request, timeout=10).read())


def test_two_server_processes_share_one_table_store(tmp_path):
    one, two = Server(tmp_path / "tables.sqlite"), Server(tmp_path / "tables.sqlite")
    one.start()
    two.start()
    try:
        made = post(one.base, "/api/tables", {"side": "B", "seed": 5})
        code, host = made["code"], made["host_token"]
        ann = post(two.base, f"/api/tables/{code}/players", {"name": "Ann"})["player_token"]
        post(one.base, f"/api/tables/{code}/setup", {"island": "C", "numeral": 3}, ann)
        seen = []
        reader = threading.Thread(target=lambda: seen.extend(read_events(two.base, code, 2, 2)))
        reader.start()
        time.sleep(1.0)
        cards = [post(one.base, f"/api/tables/{code}/reveal", token=host) for _ in range(2)]
        reader.join(timeout=15)
        # the reveals made through one process reach a page listening to the other, in order
        assert [(name, data) for _id, name, data in seen] == [("reveal", c) for c in cards]
        # and a page that missed them gets every event of the table from the start
        replay = read_events(one.base, code, 0, 4)
        assert [name for _id, name, _data in replay] == ["join", "setup", "reveal", "reveal"]
    finally:
        one.stop()
        two.stop()


def test_a_paper_player_settles_the_readers_doubts_by_tapping(browser, server, tmp_path):  # noqa: F811
    from tests.photos import game_marks

    deck, scoring = load_deck(), load_scoring()
    truth = game_marks(SIDE, deck, scoring, 7)
    rng = random.Random(7)
    picture = photograph(filled_sheet(truth, deck, scoring, "a4", rng, "pencil"),
                         Camera(megapixels=1.0, tilt=0.25, turn=8.0, blur=1.5, quality=35, noise=5), rng)
    (tmp_path / "pia.jpg").write_bytes(picture)
    made = post(server.base, "/api/tables", {"side": "A", "seed": SEED})
    code, host = made["code"], made["host_token"]
    pia = post(server.base, f"/api/tables/{code}/players", {"name": "Pia", "mode": "paper"})["player_token"]
    setup = {"island": SIDE.islands[truth.setup].label, "numeral": truth.numerals[truth.setup]}
    post(server.base, f"/api/tables/{code}/setup", setup, pia)
    for _ in range(17):
        post(server.base, f"/api/tables/{code}/reveal", token=host)
    context = browser.new_context(**PHONE)
    # the browser that joined keeps the player's token, as the join page leaves it
    context.add_init_script(f"localStorage.setItem('hashi-table:{code}', "
                            f"JSON.stringify({{player: '{pia}'}}))")
    page = context.new_page()
    errors: list[str] = []
    watch(page, errors)
    page.goto(f"{server.base}/table/{code}")
    page.wait_for_selector("#photo-form:not([hidden])")
    page.set_input_files("#photo", str(tmp_path / "pia.jpg"))
    page.click("#photo-form button[type=submit]")
    page.wait_for_selector("#doubts li", timeout=60_000)
    assert shown_width(page, "#overlay") > 500
    assert page.locator("#doubts li .stakes").first.inner_text().startswith("A misreading would change")
    shot(page, "game-night-paper-doubts.png", full=True)
    tapped = 0
    while page.locator("#doubts li").count():
        first = page.locator("#doubts li").first
        doubt = {"field": first.get_attribute("data-field"), "where": first.get_attribute("data-where")}
        first.locator(f"button[data-value='{json.dumps(truth_of(doubt, truth))}']").click()
        tapped += 1
        page.wait_for_function("([f, w]) => !document.querySelector(`#doubts li[data-field='${f}']"
                               "[data-where='${w}']`)", arg=[doubt["field"], doubt["where"]])
    page.wait_for_selector("#scores:not([hidden])")
    assert tapped >= 1
    sheet = urllib.request.urlopen(f"{server.base}/api/tables/{code}/players/0/record").read().decode()
    numbers = dict((t[0], int(t[1:])) for t in sheet.split("numbers ")[1].split("\n")[0].split())
    assert numbers == {SIDE.islands[i].label: v for i, v in enumerate(truth.numerals) if v is not None}
    context.close()
    assert not errors, errors


@pytest.mark.parametrize("kind", ["desktop", "phone"])
def test_a_phone_players_clear_can_be_undone(browser, server, kind):  # noqa: F811
    made = post(server.base, "/api/tables", {"side": "A", "seed": SEED})
    code, host = made["code"], made["host_token"]
    ann = post(server.base, f"/api/tables/{code}/players", {"name": "Ann", "mode": "phone"})["player_token"]
    post(server.base, f"/api/tables/{code}/setup", {"island": "C", "numeral": 4}, ann)
    post(server.base, f"/api/tables/{code}/reveal", token=host)
    move = bot_move(new_game(SIDE, (SIDE.label_index["C"], 4)), 1, 0)
    assert move.numeral is not None and move.bridges, "the turn has marks of both kinds to clear"
    desktop = {"viewport": {"width": 1366, "height": 800}}
    context = browser.new_context(**(PHONE if kind == "phone" else desktop))
    context.add_init_script(f"localStorage.setItem('hashi-table:{code}', "
                            f"JSON.stringify({{player: '{ann}'}}))")
    page = context.new_page()
    errors: list[str] = []
    watch(page, errors)
    page.goto(f"{server.base}/table/{code}")
    page.wait_for_function("t => " + ON_TURN, arg=1)
    tap_island(page, "sheet", move.numeral[0])
    for k in move.bridges:
        tap_lane(page, "sheet", k)
    marks = page.locator("#pending").inner_text()
    assert marks.startswith(f"This turn: numeral {SIDE.islands[move.numeral[0]].label} ")
    undo = page.locator("#undo-clear")
    assert undo.is_hidden()
    page.click("#clear-turn")
    assert page.locator("#pending").inner_text().startswith("This turn: numeral – · bridges 0/")
    undo.click()
    assert page.locator("#pending").inner_text() == marks, "Undo clear brings the turn's marks back"
    assert undo.is_hidden()
    page.click("#play-turn")
    page.wait_for_function("t => !(" + ON_TURN + ")", arg=1)
    request = urllib.request.Request(f"{server.base}/api/tables/{code}/me",
                                     headers={"Authorization": f"Bearer {ann}"})
    sheet = json.loads(urllib.request.urlopen(request, timeout=10).read())["sheet"]
    label = SIDE.islands[move.numeral[0]].label
    assert sheet["numerals"][label] == move.numeral[1]
    assert sum(sheet["bridges"].values()) == len(move.bridges)
    context.close()
    assert not errors, errors
