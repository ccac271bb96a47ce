"""Korean particles after digits, letters and Hangul, checked against how each is read aloud."""

from __future__ import annotations

import pytest

from hashi_print.particles import final_consonant, korean_particles

# Each digit read in Sino-Korean and whether that reading ends in a consonant (written out by hand).
READINGS = {"0": ("영", True), "1": ("일", True), "2": ("이", False), "3": ("삼", True), "4": ("사", False),
            "5": ("오", False), "6": ("육", True), "7": ("칠", True), "8": ("팔", True), "9": ("구", False)}


@pytest.mark.parametrize("digit", sorted(READINGS))
def test_each_digit_takes_the_particle_of_its_korean_reading(digit):
    reading, closed = READINGS[digit]
    assert korean_particles(f"{digit}은(는)") == digit + ("은" if closed else "는")
    assert korean_particles(f"{digit}이(가)") == digit + ("이" if closed else "가")
    # the reading itself, as Hangul, takes the same particle
    assert korean_particles(f"{reading}을(를)")[-1] == korean_particles(f"{digit}을(를)")[-1]


def test_the_issues_hint_round_numbers_letters_and_ro():
    assert korean_particles("A1의 4은(는) 이웃이 하나뿐") == "A1의 4는 이웃이 하나뿐"
    assert korean_particles("A1의 3은(는)") == "A1의 3은"
    assert korean_particles("10은(는) 20와(과) 100을(를)") == "10은 20과 100을"   # 십, 이십, 백
    assert korean_particles("C4-C6이(가) C4-C5이(가)") == "C4-C6이 C4-C5가"      # 육, 오
    assert korean_particles("L은(는) B은(는)") == "L은 B는"                       # 엘, 비
    assert korean_particles("1(으)로 3(으)로 2(으)로") == "1로 3으로 2로"           # ㄹ takes 로
    assert korean_particles("섬은(는) 다리이(가)") == "섬은 다리가"


def test_an_unknown_sound_keeps_both_forms():
    assert final_consonant("") is None and korean_particles("…은(는)") == "…은(는)"


def test_korean_hints_on_the_web_carry_no_paired_particle():
    from hashi_print.puzzle.formats import parse_puzzle
    from hashi_print.web.tasks import hint_task

    puzzle_id = "10x10m2:1b1c5a3j3f5a3j4c4b4m3a2a1a2l2b1g4b3b1a2"
    geo = parse_puzzle(puzzle_id).geometry
    counts = [0] * len(geo.lanes)
    texts = []
    for _ in range(40):
        bridges = " ".join(("{}={}" if n == 2 else "{}-{}").format(*_names(geo, k))
                           for k, n in enumerate(counts) if n)
        step = hint_task(puzzle_id, bridges, "ko")
        if step is None:
            break
        texts += [step["text"], *(b["text"] for b in step["because"])]
        for con in step["conclusions"]:
            k = next(k for k in range(len(geo.lanes)) if "-".join(_names(geo, k)) == con["lane"])
            counts[k] = max(counts[k], con["at_least"])
    assert len(texts) > 10
    for text in texts:
        assert not any(pair in text for pair in ("(는)", "(가)", "(를)", "(과)", "(와)", "(으)")), text


def _names(geo, k):
    from hashi_print.puzzle.model import cell_name

    lane = geo.lanes[k]
    return cell_name(*geo.positions[lane.a]), cell_name(*geo.positions[lane.b])


def test_digits_of_other_scripts_are_unknown_instead_of_crashing():
    # Arabic-Indic three and a fullwidth one are digits to str.isdigit but not to the reading rules.
    assert final_consonant("섬 ٣") is None
    assert final_consonant("섬 １") is None
    assert final_consonant("섬 3") == "ㅁ"
