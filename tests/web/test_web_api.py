"""The web app's JSON API: the CLI's objects, answers checked independently, bad input as one-line 400s."""

from __future__ import annotations

import json
import random
import socket
import time

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from hashi_print.cli import cli
from hashi_print.game.board import builtin_side
from hashi_print.game.deck import load_deck
from hashi_print.game.rules import apply as apply_move
from hashi_print.game.rules import legal_moves, new_game
from hashi_print.game.simulate import deal
from hashi_print.puzzle.formats import parse_puzzle
from hashi_print.puzzle.model import Solution
from hashi_print.web.app import Settings, create_app
from hashi_print.web.reading import MAX_BODY
from tests.independent import is_valid_solution

PUZZLE = "10x10m2:1b1c5a3j3f5a3j4c4b4m3a2a1a2l2b1g4b3b1a2"


@pytest.fixture(scope="module")
def client():
    """One app with a small worker pool for the whole module."""
    with TestClient(create_app(Settings(workers=1, seconds=20))) as c:
        yield c


def names_text(puzzle, solution: Solution) -> str:
    """Write bridges as the page sends them: C4-C6 for one, C4=C6 for two (written here, not imported)."""
    def name(r, c):
        return f"{chr(65 + c)}{r + 1}"
    return " ".join(f"{name(b.r1, b.c1)}{'=' if b.count == 2 else '-'}{name(b.r2, b.c2)}"
                    for b in solution.bridges)


def test_solve_answers_as_the_cli_does_with_lab_statistics(client):
    for mode in ("lazy", "eager"):
        r = client.post("/api/solve", json={"puzzle": PUZZLE, "mode": mode, "backend": "glucose4",
                                            "card": "totalizer"})
        assert r.status_code == 200
        body = r.json()
        assert body["status"] == "unique"
        assert is_valid_solution(parse_puzzle(PUZZLE), Solution.from_lists(body["solution"]))
        assert body["stats"]["variables"] > 0 and body["stats"]["clauses"] > 0
        if mode == "lazy":
            assert body["stats"]["cuts"] >= 1 and body["rounds"]
            for rnd in body["rounds"]:
                assert len(rnd["groups"]) >= 2
                assert sorted(n for g in rnd["groups"] for n in g) == sorted(
                    i["name"] for i in client.post("/api/puzzle", json={"puzzle": PUZZLE}).json()["islands"])
        else:
            assert body["rounds"] == []


def test_hints_replayed_from_empty_reach_a_valid_solution(client):
    puzzle = parse_puzzle(PUZZLE)
    view = client.post("/api/puzzle", json={"puzzle": PUZZLE}).json()
    counts = {lane["name"]: 0 for lane in view["lanes"]}
    for _ in range(200):
        text = " ".join((n.replace("-", "=") if k == 2 else n) for n, k in counts.items() if k)
        step = client.post("/api/hint", json={"puzzle": PUZZLE, "bridges": text}).json()
        if step is None:
            break
        assert step["technique"] and step["text"] and step["islands"]
        for con in step["conclusions"]:
            counts[con["lane"]] = min(max(counts[con["lane"]], con["at_least"]), con["at_most"])
    text = " ".join((n.replace("-", "=") if k == 2 else n) for n, k in counts.items() if k)
    check = client.post("/api/check", json={"puzzle": PUZZLE, "bridges": text}).json()
    assert check["solved"] and not check["wrong"] and not check["overfull"]
    assert len(check["complete"]) == len(puzzle.islands)


def test_check_marks_a_wrong_bridge_and_an_overfull_island(client):
    puzzle = parse_puzzle(PUZZLE)
    solution = Solution.from_lists(client.post("/api/solve", json={"puzzle": PUZZLE}).json()["solution"])
    view = client.post("/api/puzzle", json={"puzzle": PUZZLE}).json()
    right = {f"{chr(65 + b.c1)}{b.r1 + 1}-{chr(65 + b.c2)}{b.r2 + 1}" for b in solution.bridges}
    wrong_lane = next(lane["name"] for lane in view["lanes"] if lane["name"] not in right)
    r = client.post("/api/check", json={"puzzle": PUZZLE, "bridges": wrong_lane}).json()
    assert r["wrong"] == [wrong_lane] and not r["solved"]
    one = next(i for i in puzzle.islands if i.clue == 1)
    lane = next(ln for ln in view["lanes"] if f"{chr(65 + one.col)}{one.row + 1}" in ln["name"].split("-"))
    r = client.post("/api/check", json={"puzzle": PUZZLE, "bridges": lane["name"].replace("-", "=")}).json()
    assert f"{chr(65 + one.col)}{one.row + 1}" in r["overfull"]
    full = client.post("/api/check", json={"puzzle": PUZZLE, "bridges": names_text(puzzle, solution)}).json()
    assert full["solved"] and full["wrong"] == []


def test_generate_is_seeded_and_gives_a_unique_puzzle_of_that_grade(client):
    body = {"width": 7, "height": 7, "difficulty": "easy", "seed": 5}
    first = client.post("/api/generate", json=body).json()
    assert client.post("/api/generate", json=body).json() == first
    assert first["grade"] == "easy" and first["seed"] == 5
    solved = client.post("/api/solve", json={"puzzle": first["puzzle"]}).json()
    assert solved["status"] == "unique"
    assert is_valid_solution(parse_puzzle(first["puzzle"]), Solution.from_lists(solved["solution"]))


def test_a_solo_game_replayed_by_the_rules_engine_validates(client):
    side = builtin_side("A")
    cards = deal(load_deck(), random.Random(11))
    assert client.post("/api/deal", json={"seed": 11}).json()["cards"] == [
        {"numeral": c.numeral, "bridges": c.bridges} for c in cards]
    setup = next(i for i, isl in enumerate(side.islands) if isl.flag is None)
    state = new_game(side, (setup, 4))
    turns = []
    rng = random.Random(3)
    for card in cards:
        move = rng.choice(legal_moves(state, card))
        state = apply_move(state, card, move)
        turns.append({"number": None if move.numeral is None else
                      f"{side.islands[move.numeral[0]].label}{move.numeral[1]}",
                      "bridges": [side.lane_name(k) for k in move.bridges]})
    body = {"side": "A", "level": "normal", "seed": 11, "setup": f"{side.islands[setup].label}4",
            "turns": turns, "player": "Ann"}
    r = client.post("/api/game/play", json=body).json()
    assert r["legal"] and r["card"] is None and r["turn"] == 17
    assert r["circled"] == sorted(side.islands[i].label for i in state.circled)
    report = client.post("/api/validate", json={"text": r["record"]}).json()
    assert report["ok"], report["violations"]
    assert report["score"]["circled"] == r["score"]["circled"] == len(state.circled)
    assert r["rating"]


def test_an_illegal_turn_is_refused_with_the_reason(client):
    side = builtin_side("A")
    flagged = next(isl.label for isl in side.islands if isl.flag)
    plain = next(isl.label for isl in side.islands if isl.flag is None)
    numeral = deal(load_deck(), random.Random(1))[0].numeral
    body = {"side": "A", "level": "normal", "seed": 1, "setup": f"{plain}3",
            "turns": [{"number": f"{flagged}{numeral}", "bridges": []}]}
    r = client.post("/api/game/play", json=body).json()
    assert r["legal"] is False and r["turn"] == 1
    assert "flag" in r["reason"]


@pytest.mark.parametrize(("path", "body"), [
    ("/api/solve", {"puzzle": "99999999x99999999m2:a"}),
    ("/api/solve", {"puzzle": "https://puzz.link/p?hashi/99999999/99999999/1"}),
    ("/api/solve", {"puzzle": "7x7m2:zzz"}),
    ("/api/solve", {"puzzle": PUZZLE, "mode": "psychic"}),
    ("/api/solve", {"puzzle": 7}),
    ("/api/solve", {"puzzle": "\n".join("2" * 30 for _ in range(30)), "mode": "eager"}),
    ("/api/solve", {}),
    ("/api/hint", {"puzzle": PUZZLE, "bridges": "/etc/passwd"}),
    ("/api/hint", {"puzzle": PUZZLE, "bridges": "A1=A1"}),
    ("/api/check", {"puzzle": PUZZLE, "bridges": "A1-D1 A1-D1 A1-D1"}),
    ("/api/generate", {"width": 500, "height": 5, "difficulty": "easy"}),
    ("/api/generate", {"width": True, "height": 5, "difficulty": "easy"}),
    ("/api/validate", {"text": "hashi-record 1\nlayout /etc/passwd\n"}),
    ("/api/validate", {"text": "nonsense"}),
    ("/api/game/new", {"side": "C"}),
    ("/api/game/play", {"side": "A", "seed": 1, "turns": "x"}),
    ("/api/game/play", {"side": "A", "level": "nightmare", "seed": 1, "turns": []}),
    ("/api/nothing", {}),
])
def test_bad_input_is_a_one_line_400(client, path, body):
    r = client.post(path, json=body)
    assert r.status_code in (400, 404)
    error = r.json()["error"]
    assert error and "\n" not in error and "Traceback" not in error


def test_raw_bodies_are_capped_and_must_be_json_objects(client):
    for raw in (b"[1, 2", b"[1, 2]", b"x" * (MAX_BODY + 1), b"[" * 5000 + b"]" * 5000):
        r = client.post("/api/solve", content=raw, headers={"content-type": "application/json"})
        assert r.status_code == (413 if len(raw) > MAX_BODY else 400) and "error" in r.json()


def test_pages_send_a_content_security_policy_and_no_file_is_reachable(client):
    for path in ("/", "/play", "/new", "/lab", "/game", "/cards", "/help", "/static/play.js"):
        r = client.get(path)
        assert r.status_code == 200
        assert "script-src 'self'" in r.headers["content-security-policy"]
    for path in ("/static/../app.py", "/static/%2e%2e%2fapp.py", "/static/tasks.py", "/static/",
                 "/../pyproject.toml"):
        assert client.get(path).status_code == 404
    html = client.get("/play").text
    assert "<script>" not in html and "style=" not in html


def test_a_job_past_the_time_limit_is_stopped_and_the_pool_recovers():
    # A 30x30 lattice (the largest the app serves) whose hint needs no bridge before every contradiction
    # chain has been tried in the worded run: about 1.4 s on the 2-core machine (the quiet run in C is
    # too quick to pass any limit).
    n = 30
    edge = {0, n - 1}
    clue = lambda r, c: "1" if r in edge and c in edge else "2" if {r, c} & edge else "3"  # noqa: E731
    slow = "\n".join("".join(clue(r, c) for c in range(n)) for r in range(n))
    with TestClient(create_app(Settings(workers=1, seconds=0.25))) as c:
        r = c.post("/api/hint", json={"puzzle": slow, "bridges": ""})
        assert r.status_code == 400 and "stopped after" in r.json()["error"]
        # The fresh worker starts in the background meanwhile. On a loaded machine its first job can
        # itself pass the limit (imports), so a few tries are allowed; each must fail cleanly.
        for _ in range(10):
            time.sleep(2)
            ok = c.post("/api/solve", json={"puzzle": PUZZLE})
            if ok.status_code == 200:
                break
            assert ok.status_code == 400 and "stopped after" in ok.json()["error"]
        assert ok.status_code == 200 and json.loads(ok.text)["status"] == "unique"


def test_serve_on_a_taken_port_is_one_line_and_exit_2():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"hashi-print: cannot listen on 127.0.0.1:{port}: Address already in use"]
