"""Game night's API (formats.md, round 3): a whole table played through it, every refusal as a 4xx with a
sentence, tokens that reach only their own sheet, and a scoreboard equal to `hashi-print score`."""

from __future__ import annotations

import io
import json
import random
import sqlite3
import subprocess
import sys

import pytest
from PIL import Image
from starlette.testclient import TestClient

from hashi_print.game.board import builtin_side
from hashi_print.game.deck import load_deck
from hashi_print.game.rules import apply, legal_moves, new_game
from hashi_print.game.simulate import deal
from hashi_print.web.app import Settings, create_app
from hashi_print.web.tables import TableConfig

SIDE = builtin_side("A")
SEED = 11
CARDS = deal(load_deck(), random.Random(SEED))


JSON = {"Content-Type": "application/json"}


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "tables.sqlite")


@pytest.fixture
def client(db):
    with TestClient(create_app(Settings(workers=1, tables=TableConfig(db)))) as c:
        yield c


def refused(response, status: int, words: str) -> str:
    """Check a refusal: the status, and one sentence in {"error"} that says why."""
    assert response.status_code == status, (response.status_code, response.text)
    error = response.json()["error"]
    assert "\n" not in error and "Traceback" not in error and words in error, error
    return error


def unflagged(side=SIDE) -> list[str]:
    return [i.label for i in side.islands if i.flag is None]


def new_table(client, side="A", seed=SEED) -> tuple[str, str]:
    made = client.post("/api/tables", json={"side": side, "seed": seed})
    assert made.status_code == 201
    return made.json()["code"], made.json()["host_token"]


def seated(client, code: str, names_modes) -> list[str]:
    tokens = []
    for seat, (name, mode) in enumerate(names_modes):
        joined = client.post(f"/api/tables/{code}/players", json={"name": name, "mode": mode})
        assert joined.status_code == 201 and joined.json()["seat"] == seat
        tokens.append(joined.json()["player_token"])
    return tokens


def setup_json(marks) -> dict:
    """The setup a simulated game began with, as the table's setup call takes it."""
    return {"island": SIDE.islands[marks.setup].label, "numeral": marks.numerals[marks.setup]}


def paper_table(client, setup: dict | None = None) -> tuple[str, str]:
    """A table of one paper player after its 17th card: its API address and the player's token."""
    code, host = new_table(client)
    (paper,) = seated(client, code, [("Pia", "paper")])
    api = f"/api/tables/{code}"
    client.post(f"{api}/setup", json=setup or {"island": "C", "numeral": 4}, headers=bearer(paper))
    for _ in CARDS:
        client.post(f"{api}/reveal", headers=bearer(host))
    return api, paper


def move_json(move) -> dict:
    """A rules Move as the API takes it (written here from the labels, not with the package's helpers)."""
    numeral = None if move.numeral is None else f"{SIDE.islands[move.numeral[0]].label}{move.numeral[1]}"
    lanes = SIDE.geometry.lanes
    return {"numeral": numeral,
            "bridges": [f"{SIDE.islands[lanes[k].a].label}-{SIDE.islands[lanes[k].b].label}"
                        for k in move.bridges]}


def greedy(state, card, rng):
    moves = legal_moves(state, card)
    best = [m for m in moves if m.numeral and m.bridges] or [m for m in moves if m.bridges] or moves
    return rng.choice(best)


def test_the_code_is_long_random_and_the_join_link_and_qr_code_name_it(client):
    codes = {new_table(client)[0] for _ in range(20)}
    assert len(codes) == 20 and all(len(c) >= 6 for c in codes)
    made = client.post("/api/tables", json={"side": "B"}).json()
    assert made["join_url"].endswith(f"/table/{made['code']}")
    svg = client.get(f"/table/{made['code']}/qr.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert b"<path" in svg.content


def test_a_whole_table_through_the_api_scores_as_the_command_line_does(client, tmp_path):
    code, host = new_table(client)
    tokens = seated(client, code, [("Ann", "phone"), ("Bob", "phone"), ("Cy", "paper")])
    # Each player sets up the sheet on their left: Ann -> Bob -> Cy -> Ann.
    picks = [("C", 4), ("D", 3), (unflagged()[0], 4)]
    for token, (island, numeral) in zip(tokens, picks, strict=True):
        assert client.post(f"/api/tables/{code}/setup", json={"island": island, "numeral": numeral},
                           headers=bearer(token)).status_code == 200
    me = [client.get(f"/api/tables/{code}/me", headers=bearer(t)).json() for t in tokens]
    assert [m["setup"] for m in me] == [list(picks[2]), list(picks[0]), list(picks[1])]
    states = [new_game(SIDE, (SIDE.label_index[picks[2][0]], picks[2][1])),
              new_game(SIDE, (SIDE.label_index[picks[0][0]], picks[0][1]))]
    rng = random.Random(3)
    for turn, card in enumerate(CARDS, start=1):
        shown = client.post(f"/api/tables/{code}/reveal", headers=bearer(host)).json()
        assert shown == {"turn": turn, "card": {"numeral": card.numeral, "bridges": card.bridges}}
        for seat in (0, 1):
            move = greedy(states[seat], card, rng)
            answer = client.post(f"/api/tables/{code}/turns/{turn}", json=move_json(move),
                                 headers=bearer(tokens[seat]))
            assert answer.status_code == 200, answer.text
            states[seat] = apply(states[seat], card, move)
            assert answer.json()["circled"] == sorted(SIDE.islands[i].label for i in states[seat].circled)
    refused(client.post(f"/api/tables/{code}/reveal", headers=bearer(host)), 409, "17")
    assert client.get(f"/api/tables/{code}").json()["scoreboard"] is None
    cy = new_game(SIDE, (SIDE.label_index[picks[1][0]], picks[1][1]))
    circled = " ".join(SIDE.islands[i].label for i in cy.circled)
    typed = f"hashi-sheet 1\nside A\nnumbers {picks[1][0]}{picks[1][1]}\nbridges\ncircled {circled}\n"
    assert client.post(f"/api/tables/{code}/sheet", json={"sheet": typed},
                       headers=bearer(tokens[2])).json()["done"]
    table = client.get(f"/api/tables/{code}").json()
    board = table["scoreboard"]
    assert [p["player"] for p in board["players"]] == ["Ann", "Bob", "Cy"]
    assert [p["done"] for p in table["players"]] == [True, True, True]
    files = []
    for seat, name in enumerate(table["records"]):
        got = client.get(f"/api/tables/{code}/players/{seat}/record")
        assert got.status_code == 200 and name in got.headers["content-disposition"]
        (tmp_path / name).write_text(got.text)
        files.append(name)
    cli = subprocess.run([sys.executable, "-m", "hashi_print.cli", "score", "--json", *files], cwd=tmp_path,
                         capture_output=True, text=True, check=False)
    assert json.loads(cli.stdout) == board
    # the referee's circles, checked against the test's own replay
    for seat in (0, 1):
        assert board["players"][seat]["score"]["circled"] == len(states[seat].circled)


def test_every_bad_request_is_a_4xx_with_a_sentence(client):
    code, host = new_table(client)
    api = f"/api/tables/{code}"
    refused(client.post("/api/tables", json={"side": "C"}), 400, '"side"')
    refused(client.post("/api/tables", json={"side": "A", "seed": -1}), 400, '"seed"')
    refused(client.post("/api/tables", json={"side": "A", "seed": "x"}), 400, '"seed"')
    refused(client.post("/api/tables", content=b"{not json", headers=JSON), 400, "JSON")
    refused(client.post("/api/tables", content=b"[1]", headers=JSON), 400, "object")
    refused(client.post("/api/tables", content=b"x" * 40_000, headers=JSON), 413, "bytes")
    refused(client.get("/api/tables/ABCDEFGH"), 404, "no table")
    refused(client.get("/api/tables/'; drop"), 404, "no table")
    refused(client.post("/api/tables/ZZZZZZZZ/players", json={"name": "Ann"}), 404, "no table")
    refused(client.post(f"{api}/players", json={"name": ""}), 400, '"name"')
    refused(client.post(f"{api}/players", json={"name": "x" * 41}), 400, '"name"')
    refused(client.post(f"{api}/players", json={"name": "Ann", "mode": "tablet"}), 400, '"mode"')
    refused(client.post(f"{api}/reveal", headers=bearer(host)), 409, "no player")
    ann, paper = seated(client, code, [("Ann", "phone"), ("Pia", "paper")])
    refused(client.post(f"{api}/setup", json={"island": "C", "numeral": 4}), 401, "token")
    refused(client.post(f"{api}/setup", json={"island": "C", "numeral": 4}, headers=bearer("forged")), 401,
            "no one")
    refused(client.post(f"{api}/setup", json={"island": "C", "numeral": 4},
                        headers=bearer(host)), 403, "host")
    flagged = next(i.label for i in SIDE.islands if i.flag)
    refused(client.post(f"{api}/setup", json={"island": flagged, "numeral": 4},
                        headers=bearer(ann)), 400, "flag")
    refused(client.post(f"{api}/setup", json={"island": "C", "numeral": 5},
                        headers=bearer(ann)), 400, "3 or a 4")
    refused(client.post(f"{api}/setup", json={"island": "Z9", "numeral": 3}, headers=bearer(ann)), 400,
            '"island"')
    refused(client.post(f"{api}/reveal", headers=bearer(host)), 409, "setup")
    for token in (ann, paper):
        client.post(f"{api}/setup", json={"island": "C", "numeral": 4}, headers=bearer(token))
    refused(client.post(f"{api}/reveal", headers=bearer(ann)), 403, "only the host")
    refused(client.post(f"{api}/reveal"), 401, "token")
    refused(client.post(f"{api}/turns/1", json={"numeral": None, "bridges": []}, headers=bearer(ann)), 409,
            "not revealed")
    assert client.post(f"{api}/reveal", headers=bearer(host)).status_code == 200
    refused(client.post(f"{api}/players", json={"name": "Late"}), 409, "started")
    refused(client.post(f"{api}/setup", json={"island": "D", "numeral": 3},
                        headers=bearer(ann)), 409, "before")
    refused(client.post(f"{api}/turns/2", json={"numeral": None, "bridges": []}, headers=bearer(ann)), 409,
            "not revealed")
    refused(client.post(f"{api}/turns/x", json={}, headers=bearer(ann)), 400, "number")
    refused(client.post(f"{api}/turns/1", json={"numeral": None, "bridges": []}, headers=bearer(host)), 403,
            "host")
    refused(client.post(f"{api}/turns/1", json={"numeral": None, "bridges": []}, headers=bearer(paper)), 403,
            "paper")
    refused(client.post(f"{api}/turns/1", json={"numeral": 5, "bridges": []}, headers=bearer(ann)), 400,
            '"numeral"')
    refused(client.post(f"{api}/turns/1", json={"numeral": None, "bridges": "C-D"}, headers=bearer(ann)), 400,
            '"bridges"')
    refused(client.post(f"{api}/turns/1", json={"numeral": None, "bridges": ["A-R"]},
                        headers=bearer(ann)), 400,
            "lane")
    wrong = f"{flagged}{CARDS[0].numeral}"
    before = client.get(f"{api}/me", headers=bearer(ann)).json()["sheet"]
    why = refused(client.post(f"{api}/turns/1", json={"numeral": wrong, "bridges": []},
                              headers=bearer(ann)), 400,
                  "flag")
    assert "bridge" in why
    assert client.get(f"{api}/me", headers=bearer(ann)).json()["sheet"] == before
    refused(client.post(f"{api}/sheet", json={"sheet": "hashi-sheet 1\nside A\n"}, headers=bearer(ann)), 403,
            "phone")
    refused(client.post(f"{api}/sheet", json={"sheet": "hashi-sheet 1\nside A\n"},
                        headers=bearer(paper)), 409,
            "after card 17")
    refused(client.post(f"{api}/sheet/settle", json={"field": "number", "where": "C", "value": 3},
                        headers=bearer(paper)), 409, "after card 17")
    refused(client.get(f"{api}/players/0/record"), 409, "scored")
    refused(client.get(f"{api}/players/9/record"), 400, "seats")
    refused(client.get(f"{api}/events?after=x"), 400, "number")
    refused(client.get("/api/tables/ABCDEFGH/events"), 404, "no table")
    refused(client.get(f"{api}/me"), 401, "token")
    refused(client.post("/api/tables", json={"side": "A"}, headers={"Origin": "http://evil.example"}), 403,
            "other sites")


def test_paper_sheets_refuse_wrong_sides_pictures_that_are_no_photo_and_too_many_pixels(client):
    api, paper = paper_table(client)
    refused(client.post(f"{api}/sheet", json={"sheet": "hashi-sheet 1\nside B\nnumbers C4\n"},
                        headers=bearer(paper)), 400, "side B")
    refused(client.post(f"{api}/sheet", json={"sheet": "hashi-record 1\nside A\nsetup C4\n"},
                        headers=bearer(paper)), 400, "record")
    refused(client.post(f"{api}/sheet", json={"sheet": "hashi-sheet 1\nside A\nnumbers 4C\n"},
                        headers=bearer(paper)), 400, "line 3")
    refused(client.post(f"{api}/sheet", files={"photo": ("a.jpg", b"not a picture", "image/jpeg")},
                        headers=bearer(paper)), 400, "JPEG or PNG")
    refused(client.post(f"{api}/sheet", files={"other": ("a.jpg", b"x", "image/jpeg")},
                        headers=bearer(paper)), 400, '"photo"')
    huge = io.BytesIO()
    Image.new("1", (6000, 5000)).save(huge, format="PNG")
    assert len(huge.getvalue()) < 1_000_000
    refused(client.post(f"{api}/sheet", files={"photo": ("big.png", huge.getvalue(), "image/png")},
                        headers=bearer(paper)), 413, "megapixels")
    refused(client.post(f"{api}/sheet", files={"photo": ("big.jpg", b"\xff" * (13 * 2**20), "image/jpeg")},
                        headers=bearer(paper)), 413, "MB")
    refused(client.post(f"{api}/sheet/settle", json={"field": "number", "where": "C", "value": 3},
                        headers=bearer(paper)), 409, "photo of your sheet first")
    assert client.get(f"{api}").json()["players"][0]["done"] is False


def test_a_token_reaches_only_its_own_sheet(client, db):
    code, host = new_table(client)
    ann, bob = seated(client, code, [("Ann", "phone"), ("Bob", "phone")])
    api = f"/api/tables/{code}"
    for token in (ann, bob):
        client.post(f"{api}/setup", json={"island": "C", "numeral": 4}, headers=bearer(token))
    card = client.post(f"{api}/reveal", headers=bearer(host)).json()["card"]
    mine = client.post(f"{api}/turns/1", json={"numeral": f"D{card['numeral']}", "bridges": []},
                       headers=bearer(bob))
    assert mine.status_code == 200 and mine.json()["numerals"] == {"C": 4, "D": card["numeral"]}
    ann_sheet = client.get(f"{api}/me", headers=bearer(ann)).json()["sheet"]
    assert ann_sheet["turn"] == 0 and ann_sheet["numerals"] == {"C": 4}
    # Bob's token cannot play Bob's turn 1 again (it would be the only way to touch a sheet at turn 1)
    refused(client.post(f"{api}/turns/1", json={"numeral": None, "bridges": []}, headers=bearer(bob)), 409,
            "turn 2")
    # The store keeps no token itself, only its hash: a copied file seats no one.
    with sqlite3.connect(db) as conn:
        dump = "\n".join(conn.iterdump())
    assert ann not in dump and bob not in dump and host not in dump


def test_join_attempts_are_rate_limited_per_address(client):
    code, _host = new_table(client)
    answers = [client.post(f"/api/tables/{code}X/players", json={"name": "Guess"}).status_code
               for _ in range(21)]
    assert answers[:20] == [404] * 20
    assert answers[20] == 429
    refused(client.post(f"/api/tables/{code}/players", json={"name": "Ann"}), 429, "wait a minute")


def test_a_new_app_on_the_same_file_carries_on_every_table(db):
    with TestClient(create_app(Settings(workers=1, tables=TableConfig(db)))) as first:
        code, host = new_table(first)
        (ann,) = seated(first, code, [("Ann", "phone")])
        first.post(f"/api/tables/{code}/setup", json={"island": "C", "numeral": 4}, headers=bearer(ann))
        first.post(f"/api/tables/{code}/reveal", headers=bearer(host))
    with TestClient(create_app(Settings(workers=1, tables=TableConfig(db)))) as second:
        shown = second.post(f"/api/tables/{code}/reveal", headers=bearer(host)).json()
        assert shown["turn"] == 2
        assert shown["card"] == {"numeral": CARDS[1].numeral, "bridges": CARDS[1].bridges}
        me = second.get(f"/api/tables/{code}/me", headers=bearer(ann)).json()
        assert me["setup"] == ["C", 4] and me["name"] == "Ann"


def test_old_tables_expire(client, db):
    code, _host = new_table(client)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE tables SET touched = touched - 2 * 86400 WHERE code = ?", (code,))
    refused(client.get(f"/api/tables/{code}"), 404, "expire")
    new_table(client)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM tables WHERE code = ?", (code,)).fetchone()[0] == 0


def settle_as_drawn(client, api: str, token: str, reading: dict, truth) -> dict:
    """Tap the value the test's game drew for each open doubt of a paper reading; return the last reading."""
    while reading["open"]:
        doubt = reading["open"][0]
        label = doubt["where"]
        value = (truth.numerals[SIDE.label_index[label]] if doubt["field"] == "number"
                 else int(label) in truth.cards if doubt["field"] == "card" else None)
        settled = client.post(f"{api}/sheet/settle", json={"field": doubt["field"], "where": label,
                                                           "value": value}, headers=bearer(token))
        assert settled.status_code == 200, settled.text
        reading = settled.json()
    return reading


def test_a_photo_whose_reading_is_in_doubt_is_settled_by_the_players_taps(client, tmp_path):
    from hashi_print.game.scoring import load_scoring
    from tests.photos import Camera, filled_sheet, game_marks, photograph

    deck, scoring = load_deck(), load_scoring()
    truth = game_marks(SIDE, deck, scoring, 7)
    rng = random.Random(7)
    picture = photograph(filled_sheet(truth, deck, scoring, "a4", rng, "pencil"),
                         Camera(megapixels=1.0, tilt=0.25, turn=8.0, blur=1.5, quality=35, noise=5), rng)
    api, pia = paper_table(client, setup_json(truth))
    read = client.post(f"{api}/sheet", files={"photo": ("pia.jpg", picture, "image/jpeg")},
                       headers=bearer(pia))
    assert read.status_code == 200, read.text
    reading = read.json()
    assert reading["status"] == "review" and reading["overlay"].startswith("data:image/png;base64,")
    assert reading["open"] and not reading["done"], "this photo no longer leaves the reader in doubt"
    assert all(d["matters"] for d in reading["open"])
    # a value that is neither the reading nor one of its alternatives is refused
    first = reading["open"][0]
    refused(client.post(f"{api}/sheet/settle", json={"field": first["field"], "where": first["where"],
                                                     "value": 99}, headers=bearer(pia)), 400, "one of")
    refused(client.post(f"{api}/sheet/settle", json={"field": "number", "where": "nowhere", "value": 1},
                        headers=bearer(pia)), 400, "no doubt")
    assert client.get(api).json()["scoreboard"] is None
    reading = settle_as_drawn(client, api, pia, reading, truth)
    assert reading["done"]
    table = client.get(api).json()
    assert table["scoreboard"] is not None
    sheet = client.get(f"{api}/players/0/record").text
    numbers = dict((t[0], int(t[1:])) for t in sheet.split("numbers ")[1].split("\n")[0].split())
    assert numbers == {SIDE.islands[i].label: v for i, v in enumerate(truth.numerals) if v is not None}
    # the photo and its overlay are not kept once the table is scored
    me = client.get(f"{api}/me", headers=bearer(pia)).json()
    assert me["reading"]["overlay"] is None


@pytest.mark.parametrize(("lang", "words"), [("de", "Tisch anlegen"), ("fr", "Créer la table"),
                                             ("it", "Crea il tavolo"), ("ja", "テーブルを作る"),
                                             ("ko", "테이블 만들기")])
def test_the_table_pages_speak_every_language(client, lang, words):
    code, _host = new_table(client)
    # (Japanese text carries <wbr> between its phrases, where a line may break)
    assert words in client.get(f"/table/new?lang={lang}").text.replace("<wbr>", "")
    for path in (f"/table/{code}", f"/table/{code}/host"):
        page = client.get(f"{path}?lang={lang}").text
        english = "Scoreboard" if lang != "en" else ""
        assert english not in page and f'lang="{lang}"' in page


def test_serve_on_the_network_announces_the_join_address_with_a_warning(tmp_path):
    from hashi_print.web.tables import table_config

    said = []
    config = table_config("192.168.1.20", 8000, str(tmp_path / "t.sqlite"), said.append)
    assert config.public_url == "http://192.168.1.20:8000"
    assert said[0].startswith("game night: players join at http://192.168.1.20:8000/table/CODE")
    assert said[1].startswith("warning: every device on this network") and "unencrypted" in said[1]
    said.clear()
    assert table_config("127.0.0.1", 8000, str(tmp_path / "t.sqlite"), said.append).public_url is None
    assert said == []
    with TestClient(create_app(Settings(workers=1, tables=config))) as c:
        assert c.post("/api/tables", json={"side": "A"}).json()["join_url"].startswith(
            "http://192.168.1.20:8000/table/")


def test_serve_refuses_a_table_store_it_cannot_open(tmp_path):
    from click.testing import CliRunner

    from hashi_print.cli import cli

    bad = tmp_path / "not-a-database.sqlite"
    bad.write_bytes(b"this is no SQLite file " * 100)
    result = CliRunner().invoke(cli, ["serve", "--db", str(bad), "--port", "1"])
    assert result.exit_code == 2
    assert "table store" in result.output and "Traceback" not in result.output


def test_a_table_that_keeps_photos_keeps_them_after_scoring(client, db):
    made = client.post("/api/tables", json={"side": "A", "seed": 3, "keep_photos": True}).json()
    code, host = made["code"], made["host_token"]
    (pia,) = seated(client, code, [("Pia", "paper")])
    api = f"/api/tables/{code}"
    from hashi_print.game.scoring import load_scoring
    from tests.photos import Camera, filled_sheet, game_marks, photograph

    deck, scoring = load_deck(), load_scoring()
    rng = random.Random(2)
    truth = game_marks(SIDE, deck, scoring, 2)
    client.post(f"{api}/setup", json=setup_json(truth), headers=bearer(pia))
    for _ in CARDS:
        client.post(f"{api}/reveal", headers=bearer(host))
    sheet = filled_sheet(truth, deck, scoring, "a4", rng, "black")
    picture = photograph(sheet, Camera(megapixels=2.0, tilt=0.1), rng)
    read = client.post(f"{api}/sheet", files={"photo": ("p.jpg", picture, "image/jpeg")}, headers=bearer(pia))
    assert read.status_code == 200, read.text[:300]
    # A doubt the reader leaves (if any) is settled as a player would, by tapping the value drawn.
    assert settle_as_drawn(client, api, pia, read.json(), truth)["done"]
    assert client.get(api).json()["scoreboard"] is not None
    with sqlite3.connect(db) as conn:
        kept = conn.execute("SELECT photo, overlay FROM seats WHERE code = ?", (code,)).fetchone()
    assert kept[0] == picture and kept[1][:8] == b"\x89PNG\r\n\x1a\n"


def test_a_refusal_speaks_the_language_the_browser_asks_for(client):
    code, host = new_table(client)
    (ann,) = seated(client, code, [("Ann", "phone")])
    api = f"/api/tables/{code}"
    german = {"Accept-Language": "de-DE,de;q=0.9"}
    refused(client.post(f"{api}/reveal", headers=bearer(ann) | german), 403, "nur der Gastgeber")
    refused(client.post(f"{api}/reveal", headers=bearer(host) | {"Accept-Language": "ja"}), 409,
            "Ann の準備を待っています")
    refused(client.get("/api/tables/ABCDEFGH", headers={"Accept-Language": "fr"}), 404, "aucune table")


def test_table_bodies_are_read_as_the_apis_are_json_only_capped_as_they_arrive(client):
    """The tables read bodies with the app's own reader: a form or plain text is 415, and a body over the
    cap is 413 even when it does not declare its length (it is counted as it arrives)."""
    from hashi_print.web.tables import MAX_JSON

    refused(client.post("/api/tables", content=b'{"side": "A", "seed": 1}',
                        headers={"Content-Type": "text/plain"}), 415, "application/json")
    refused(client.post("/api/tables", content=b'{"side": "A", "seed": 1}'), 415, "application/json")
    padded = json.dumps({"side": "A", "seed": 1, "pad": "x" * MAX_JSON}).encode()
    chunks = (padded[i:i + 4096] for i in range(0, len(padded), 4096))
    refused(client.post("/api/tables", content=chunks, headers={"Content-Type": "application/json"}),
            413, f"{MAX_JSON} bytes")
    # An empty body is still an empty object, as the pages send for calls without fields.
    assert client.post("/api/tables", json={"side": "A", "seed": 1}).status_code == 201


def test_a_photo_without_a_sheet_is_refused_in_the_players_language(client):
    api, paper = paper_table(client)
    blank = io.BytesIO()
    Image.new("RGB", (1600, 1200), (235, 235, 230)).save(blank, format="JPEG")
    photo = {"photo": ("a.jpg", blank.getvalue(), "image/jpeg")}
    said = (("de", "keine seiner Eckmarken"), ("ko", "모서리 표식"), ("en", "none of its corner"))
    for lang, words in said:
        refused(client.post(f"{api}/sheet?lang={lang}", files=photo, headers=bearer(paper)), 400, words)


def test_a_paper_sheet_must_carry_the_setup_its_neighbour_chose(client):
    """The table knows the setup numeral the neighbour chose: a typed sheet or a photo showing another
    numeral on that island is sent back with the reason; the same sheet with the right one is taken."""
    from hashi_print.game.scoring import load_scoring
    from tests.photos import Camera, filled_sheet, game_marks, photograph

    api, pia = paper_table(client, {"island": "C", "numeral": 4})
    refused(client.post(f"{api}/sheet", json={"sheet": "hashi-sheet 1\nside A\nnumbers C3\n"},
                        headers=bearer(pia)), 400, "shows 3 on island C, but Pia wrote 4")
    refused(client.post(f"{api}/sheet?lang=de", json={"sheet": "hashi-sheet 1\nside A\nnumbers D4\n"},
                        headers=bearer(pia)), 400, "Pia")
    assert client.get(api).json()["players"][0]["done"] is False
    deck, scoring = load_deck(), load_scoring()
    truth = game_marks(SIDE, deck, scoring, 2)
    rng = random.Random(2)
    picture = photograph(filled_sheet(truth, deck, scoring, "a4", rng, "black"),
                         Camera(megapixels=2.0, tilt=0.1), rng)
    label, value = SIDE.islands[truth.setup].label, truth.numerals[truth.setup]
    other = {"island": label, "numeral": 3 if value == 4 else 4}
    api, pia = paper_table(client, other)
    read = client.post(f"{api}/sheet", files={"photo": ("p.jpg", picture, "image/jpeg")}, headers=bearer(pia))
    if read.status_code == 200:  # the reader left doubts: the setup island's numeral is refused when settled
        with pytest.raises(AssertionError, match=f"on island {label}, but Pia wrote"):
            settle_as_drawn(client, api, pia, read.json(), truth)
    else:
        refused(read, 400, f"shows {value} on island {label}, but Pia wrote {other['numeral']}")
    assert client.get(api).json()["players"][0]["done"] is False
    api, pia = paper_table(client, setup_json(truth))
    read = client.post(f"{api}/sheet", files={"photo": ("p.jpg", picture, "image/jpeg")}, headers=bearer(pia))
    assert read.status_code == 200 and settle_as_drawn(client, api, pia, read.json(), truth)["done"]
