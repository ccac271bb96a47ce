"""Korean particles chosen by the sound they follow: 은/는, 이/가, 을/를, 과/와, 으로/로.

The catalogs write both forms where a particle follows a value filled in at run time ("{island}은(는)"), and
`korean_particles` picks the one the finished sentence needs: the first form after a final consonant
(받침), the second after a vowel; 으로/로 takes 로 after ㄹ as well. Digits and Latin letters are read as
Korean readers say them (3 삼, 4 사, 10 십; L 엘, M 엠).
"""

from __future__ import annotations

import re

# (with a final consonant, without)
_PAIRS = {"은(는)": ("은", "는"), "는(은)": ("은", "는"), "이(가)": ("이", "가"), "가(이)": ("이", "가"),
          "을(를)": ("을", "를"), "를(을)": ("을", "를"), "과(와)": ("과", "와"), "와(과)": ("과", "와"),
          "(으)로": ("으로", "로")}
_PARTICLE = re.compile("|".join(re.escape(p) for p in _PAIRS))
# The final consonant of each digit read in Sino-Korean: 영 일 이 삼 사 오 육 칠 팔 구 ("" none, "ㄹ" rieul).
_DIGIT_FINAL = {"0": "ㅇ", "1": "ㄹ", "2": "", "3": "ㅁ", "4": "", "5": "", "6": "ㄱ", "7": "ㄹ", "8": "ㄹ",
                "9": ""}
# Round numbers end in the unit's sound: 십 백 천 만.
_ZEROS_FINAL = {1: "ㅂ", 2: "ㄱ", 3: "ㄴ", 4: "ㄴ"}
# Latin letters as spoken: only L (엘), M (엠), N (엔) and R (알) end in a consonant.
_LETTER_FINAL = {"L": "ㄹ", "M": "ㅁ", "N": "ㄴ", "R": "ㄹ"}
_RIEUL = 8   # ㄹ's index among the final consonants of a Hangul syllable
_SKIP = " )]}\"'’”»"


def final_consonant(before: str) -> str | None:
    """The final consonant the text ends in when read aloud ("" after a vowel), or None when unknown."""
    text = before.rstrip(_SKIP)
    if not text:
        return None
    last = text[-1]
    if "가" <= last <= "힣":
        index = (ord(last) - ord("가")) % 28
        return "" if index == 0 else "ㄹ" if index == _RIEUL else "*"
    ascii_digits = re.search(r"[0-9]+$", text)
    if ascii_digits is not None:  # other scripts' digits (isdigit) are read in ways not known here
        digits = ascii_digits[0]
        zeros = len(digits) - len(digits.rstrip("0"))
        if zeros and zeros < len(digits):
            return _ZEROS_FINAL.get(zeros, "ㄴ")
        return _DIGIT_FINAL[last]
    if last.isascii() and last.isalpha():
        return _LETTER_FINAL.get(last.upper(), "")
    return None


def korean_particles(text: str) -> str:
    """Replace every paired particle ("은(는)") with the form the word before it takes."""
    out, at = [], 0
    for m in _PARTICLE.finditer(text):
        with_final, without = _PAIRS[m[0]]
        final = final_consonant(text[:m.start()])
        out.append(text[at:m.start()])
        if final is None:
            out.append(m[0])
        elif m[0] == "(으)로":
            out.append("로" if final in ("", "ㄹ") else "으로")
        else:
            out.append(with_final if final else without)
        at = m.end()
    out.append(text[at:])
    return "".join(out)
