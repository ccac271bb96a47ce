"""The New puzzle form offers only pairs measured to succeed, fails in one translated sentence, makes the
daily puzzles; My puzzles keeps what this browser solved. In Chromium on a desktop and a phone."""

from __future__ import annotations

import datetime
import json
import random
from concurrent.futures import ProcessPoolExecutor
from importlib import resources

import pytest

from hashi_print.puzzle.formats import (
    SGT_BRIDGES,
    format_tatham_id,
    parse_puzzle,
    parse_tatham_seed,
    tatham_descriptive_id,
)
from hashi_print.puzzle.generate import generate
from hashi_print.puzzle.solve import solve
from tests.web.test_web_browser import Play, browser, server  # noqa: F401  (fixtures)
from tests.web.test_web_play_tools import screen, settle  # noqa: F401  (fixture)

TABLE = json.loads(resources.files("hashi_print.web").joinpath("static/generate-sizes.json").read_text())
GRADES = ("easy", "medium", "hard", "expert")


def test_the_form_offers_exactly_the_measured_pairs(screen, server):  # noqa: F811
    page = screen
    page.goto(f"{server}/new")
    page.wait_for_selector("#gen-size option", state="attached")
    sizes = page.locator("#gen-size option").evaluate_all("os => os.map(o => o.value)")
    assert sizes == list(TABLE["sizes"])
    for size in sizes:
        page.select_option("#gen-size", size)
        offered = page.locator("#gen-difficulty option:not([disabled])").evaluate_all(
            "os => os.map(o => o.value)")
        assert offered == [g for g in GRADES if g in TABLE["sizes"][size]], size
        assert page.locator("#gen-difficulty").input_value() in offered
    # the failures are not offered at all
    assert "expert" not in TABLE["sizes"]["5"] and "expert" not in TABLE["sizes"]["6"]


def _made(args: tuple[int, str, int]) -> str:
    size, grade, seed = args
    return format_tatham_id(generate(size, size, grade, random.Random(seed)).puzzle)


def test_every_offered_pair_generates_within_the_webs_limit_for_other_seeds():
    """Seeds the table was not measured on; each job stops at the web's limit as the server's would."""
    jobs = [(int(size), grade, seed) for size, grades in TABLE["sizes"].items() for grade in grades
            for seed in (7, 8)]
    with ProcessPoolExecutor(2) as pool:
        futures = [pool.submit(_made, job) for job in jobs]
        made = [f.result(timeout=TABLE["limit"] * 2) for f in futures]   # two jobs share the two cores
    for (size, _grade, _seed), puzzle_id in zip(jobs, made, strict=True):
        puzzle = parse_puzzle(puzzle_id)
        assert (puzzle.cols, puzzle.rows) == (size, size)
        assert solve(puzzle).status == "unique"


@pytest.mark.parametrize("lang", ["de", "ja"])
def test_a_failed_generation_is_one_sentence_in_the_pages_language(browser, server, lang):  # noqa: F811
    ctx = browser.new_context()
    page = ctx.new_page()
    developer = ("no expert 5x5 puzzle after 2000 attempts (2000 attempts, 2051 solver calls, 1658 grader "
                 "calls); try a larger grid or another density")
    page.route("**/api/generate", lambda route: route.fulfill(status=400, content_type="application/json",
                                                               body=json.dumps({"error": developer})))
    page.goto(f"{server}/new?lang={lang}")
    page.wait_for_selector("#gen-size option", state="attached")
    page.click("#generate button[type=submit]")
    page.wait_for_selector("#status.error")
    shown = page.locator("#status").inner_text()
    ctx.close()
    assert "solver calls" not in shown and "expert" not in shown
    assert shown == {"de": "In dieser Größe und Schwierigkeit ließ sich rechtzeitig kein Rätsel erzeugen; "
                           "versuche einen anderen Startwert oder eine leichtere Stufe.",
                     "ja": "この大きさと難しさのパズルを時間内に作れませんでした。"
                           "別のシードか、やさしい難しさを試してください。"}[lang]


def test_the_daily_puzzle_is_the_dates_seed_and_the_same_for_everyone(screen, server):  # noqa: F811
    page = screen
    page.goto(f"{server}/new")
    page.wait_for_selector("#daily-buttons button")
    seed = int(datetime.datetime.now(datetime.UTC).strftime("%Y%m%d"))
    assert str(seed) in page.locator("#daily-date").inner_text()
    page.click("#daily-buttons button[data-size='7']")
    page.wait_for_url("**/play?p=*")
    page.wait_for_selector("#board .island")
    assert page.locator("#puzzle-id").inner_text() == _made((7, "medium", seed))


def test_my_puzzles_keeps_solves_with_time_and_hints_and_exports_them(screen, server, tmp_path):  # noqa: F811
    page = screen
    page.goto(f"{server}/new")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.wait_for_selector("#gen-size option", state="attached")
    page.select_option("#gen-size", "7")
    page.select_option("#gen-difficulty", "easy")
    page.fill("#generate [name=seed]", "4")
    page.click("#generate button[type=submit]")
    page.wait_for_url("**/play?p=*")
    page.wait_for_selector("#board .island")
    puzzle_id = page.locator("#puzzle-id").inner_text()
    play = Play(page, puzzle_id)
    settle(page)
    page.click("#hint")
    page.wait_for_selector("#hintbox:not([hidden])")
    counts = play.counts()
    for k, n in enumerate(solve(play.puzzle).solution.lane_counts(play.geo)):
        a, b = play.geo.lanes[k].a, play.geo.lanes[k].b
        for _ in range(n - counts[k]):
            page.mouse.click(*play.island_xy(a))
            page.mouse.click(*play.island_xy(b))
    page.wait_for_selector("#status.win")
    page.goto(f"{server}/mine")
    row = page.locator("#mine-summary tr[data-difficulty=easy] td").all_inner_texts()
    assert row[0] == "easy" and row[1] == "1" and row[4] == "1", row
    assert page.locator("#mine-list tbody tr").count() == 1
    with page.expect_download() as dl:
        page.click("#mine-export")
    path = tmp_path / "mine.json"
    dl.value.save_as(path)
    exported = json.loads(path.read_text())
    assert exported["format"] == "hashi-mine/1"
    (entry,) = exported["solved"]
    assert (entry["id"], entry["difficulty"], entry["size"], entry["hints"]) == (puzzle_id, "easy", "7x7", 1)
    assert isinstance(entry["seconds"], int) and entry["seconds"] >= 0


@pytest.mark.parametrize("name", ["bridges", "hashikake", "hashi_edit"])
def test_a_pasted_pzprjs_alias_url_opens_the_puzzle(screen, server, name):  # noqa: F811
    page = screen
    page.goto(f"{server}/new")
    page.fill("#paste-text", f"https://puzz.link/p?{name}/3/2/1g21g2")
    page.click("#paste button")
    page.wait_for_url("**/play?p=*")
    page.wait_for_selector("#board .island")
    assert page.locator("#puzzle-id").inner_text() == "3x2m2:1a21a2"


def test_a_tatham_seed_id_opens_his_puzzle_or_says_how_to_get_it(screen, server):  # noqa: F811
    page = screen
    page.goto(f"{server}/new?lang=de")
    page.fill("#paste-text", "7x7i30e10m2d0#123")
    page.click("#paste button")
    if SGT_BRIDGES.exists():
        page.wait_for_url("**/play?p=*")
        page.wait_for_selector("#board .island")
        want = tatham_descriptive_id(parse_tatham_seed("7x7i30e10m2d0#123"))
        assert page.locator("#puzzle-id").inner_text() == want
    else:
        page.wait_for_selector("#status.error")
        shown = page.locator("#status").inner_text()
        assert "Game > Specific" in shown and "Programm" in shown and "unexpected cell" not in shown
