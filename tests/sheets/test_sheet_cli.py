"""Tests of `hashi-print validate` and `hashi-print score`: exit codes, messages and JSON shape."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from hashi_print.cli import cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DATA = ["--deck", str(FIXTURES / "fixture-deck.json"), "--scoring", str(FIXTURES / "fixture-scoring.json")]


def run(*args: str):
    """Run hashi-print in-process and return the click Result."""
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_validate_ok_exits_0_with_verdict_and_score():
    res = run("validate", str(FIXTURES / "fixture-record-ann.txt"), *DATA)
    assert res.exit_code == 0
    lines = res.stdout.splitlines()
    assert ": ok - game record" in lines[0] and "partial bridges off" in lines[0]
    assert lines[-1] == "score: 24 for 12 circled islands + red 9 + six 8 = 41"


def test_validate_json_shape():
    res = run("validate", str(FIXTURES / "fixture-sheet-ann.txt"), *DATA, "--json")
    assert res.exit_code == 0
    obj = json.loads(res.stdout)
    assert {"ok", "score", "violations", "unchecked"} <= set(obj)
    assert obj["ok"] is True and obj["violations"] == []
    assert set(obj["score"]) >= {"circled", "bonus", "total"} and obj["score"]["total"] == 41
    assert all(isinstance(u, str) for u in obj["unchecked"]) and obj["unchecked"]


def test_validate_broken_exits_1_and_lists_violations():
    res = run("validate", str(FIXTURES / "fixture-record-broken.txt"), *DATA, "--json")
    assert res.exit_code == 1
    obj = json.loads(res.stdout)
    assert obj["ok"] is False and obj["score"] is None
    assert len(obj["violations"]) == 7
    for v in obj["violations"]:
        assert set(v) >= {"rule", "where", "line", "message"}
    assert obj["violations"][4]["rule"] == "bridge-crossing" and obj["violations"][4]["line"] == 7
    human = run("validate", str(FIXTURES / "fixture-record-broken.txt"), *DATA)
    assert human.exit_code == 1 and "7 rules broken" in human.stdout.splitlines()[0]


def test_validate_partial_bridges_option():
    res = run("validate", str(FIXTURES / "fixture-record-broken.txt"), *DATA, "--partial-bridges", "--json")
    obj = json.loads(res.stdout)
    assert obj["rules"]["partial_bridges"] is True
    assert "bridge-count" not in [v["rule"] for v in obj["violations"]]


def test_validate_bad_file_exits_2_with_one_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("hashi-record 1\nlayout x.json\n")
    shutil.copy(FIXTURES / "fixture-side.json", tmp_path / "x.json")
    bad.write_text("hashi-record 1\nlayout x.json\nsetup G4\nturn 1 card 9/9\n")
    res = run("validate", str(bad), *DATA)
    assert res.exit_code == 2
    assert res.stderr.strip().splitlines() == [
        f"hashi-print: {bad} line 4: expected a card like 5/2 (numeral 1-6 / bridges 1-3), got '9/9'"]
    missing = run("validate", str(tmp_path / "none.txt"))
    assert missing.exit_code == 2 and missing.stderr.startswith("hashi-print: ")


def test_validate_with_layout_option(tmp_path):
    text = (FIXTURES / "fixture-sheet-ann.txt").read_text().replace("layout fixture-side.json", "side A")
    path = tmp_path / "sheet.txt"
    path.write_text(text)
    res = run("validate", str(path), *DATA, "--layout", str(FIXTURES / "fixture-side.json"), "--json")
    assert res.exit_code == 0 and json.loads(res.stdout)["side"] == "F"


def test_score_several_players_resolves_the_race(tmp_path):
    ann = FIXTURES / "fixture-record-ann.txt"
    lines = ann.read_text().splitlines()
    bob = tmp_path / "bob.txt"
    # Bob plays Ann's first seven turns (six on turn 7 too), then stops.
    bob.write_text("\n".join(ln.replace("Ann", "Bob").replace("layout fixture-side.json",
                                                              f"layout {FIXTURES / 'fixture-side.json'}")
                             for ln in lines if not ln.startswith("turn ") or int(ln.split()[1]) <= 7))
    cid = tmp_path / "cid.txt"
    cid.write_text((FIXTURES / "fixture-sheet-ann.txt").read_text()
                   .replace("Ann", "Cid").replace("six 7", "six 9")
                   .replace("layout fixture-side.json", f"layout {FIXTURES / 'fixture-side.json'}"))
    res = run("score", str(ann), str(bob), str(cid), *DATA, "--json")
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout)
    by = {p["player"]: p for p in obj["players"]}
    assert by["Ann"]["score"]["bonus"] == {"red": 9, "six": 8}
    assert by["Bob"]["score"]["bonus"] == {"six": 8}
    assert by["Cid"]["score"]["bonus"] == {"red": 9, "six": 4}
    assert obj["winners"] == ["Ann"] and obj["problems"] == []
    table = run("score", str(ann), str(bob), str(cid), *DATA)
    assert table.exit_code == 0 and "winner: Ann" in table.stdout and "Cid" in table.stdout


def test_score_flags_broken_files_and_different_cards(tmp_path):
    ann = FIXTURES / "fixture-record-ann.txt"
    res = run("score", str(ann), str(FIXTURES / "fixture-record-broken.txt"), *DATA, "--json")
    assert res.exit_code == 1
    problems = json.loads(res.stdout)["problems"]
    assert any("rule(s) broken" in p for p in problems)
    assert any("turn 1 shows card" in p or "shows card" in p for p in problems)


@pytest.mark.parametrize("args", [["score", str(FIXTURES / "fixture-record-ann.txt"), "--scoring",
                                   str(FIXTURES / "nothing.json")]])
def test_score_missing_scoring_exits_2(args):
    res = run(*args)
    assert res.exit_code == 2 and "nothing.json" in res.stderr
