"""What a doubtful field could change if it were misread: the score, the verdict or the race.

A doubt matters only if some value it may hold, alone or together with one other doubt's, gives the
sheet another score, another verdict (valid, or which rules are broken) or another race (the turn
each goal was reached, and which "first" boxes are crossed off). The others are still reported, with
nothing they affect, and do not send the sheet to a person. A numeral misread as a value that breaks a
rule the reading keeps counts only when the ink does not favour the value read over it.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from hashi_print.game.deck import GOALS, Deck
from hashi_print.game.scoring import Scoring, score_sheet
from hashi_print.scan.fields import Probs
from hashi_print.scan.resolve import SURE_DIGIT, Uncertain, Value, consistent, first_box
from hashi_print.sheets.marks import Marks, sheet_of
from hashi_print.sheets.validate import Report, validate

# Doubts that matter on their own already send the sheet to a person; pairs of the others are tried
# together (a card and a numeral may each fit the deck alone but not both), up to this many doubts.
MAX_PAIRED = 16
# Two doubts both misread at once are tried only when that is at least this likely (their confidences
# taken as independent).
PAIR_FLOOR = 1e-3
T = TypeVar("T")


@dataclass(frozen=True)
class Outcome:
    """What counts on a sheet: its score, the rules it breaks and the race."""

    score: dict[str, object] | None
    verdict: frozenset[str]
    race: tuple[tuple[tuple[str, int | None], ...], tuple[str, ...]]

    def differences(self, other: Outcome) -> set[str]:
        """The parts of the outcome that differ from `other` (names as in `Uncertain.affects`)."""
        parts = (("score", self.score, other.score), ("verdict", self.verdict, other.verdict),
                 ("race", self.race, other.race))
        return {name for name, a, b in parts if a != b}


def with_lost_firsts(report: Report, marks: Marks, scoring: Scoring | None) -> Report:
    """The report scored with the lower bonus for each goal whose "first" box the player crossed off."""
    if report.score is None or scoring is None or not marks.lost_first:
        return report
    score = score_sheet(
        report.state, scoring, first=set(GOALS) - marks.lost_first, unknown=report.unknown_turns
    )
    return dataclasses.replace(report, score=score)


def judged(marks: Marks, deck: Deck, scoring: Scoring | None, source: str = "scan") -> Report:
    """The validation report of a reading, scored as the sheet's "first" boxes say."""
    return with_lost_firsts(validate(sheet_of(marks, source), deck, scoring), marks, scoring)


def outcome(marks: Marks, deck: Deck, scoring: Scoring | None) -> Outcome:
    """The score, verdict and race of a reading."""
    report = judged(marks, deck, scoring)
    score = None if report.score is None else report.score.to_json()
    race = (tuple(sorted(report.goal_turns().items())), tuple(sorted(marks.lost_first)))
    return Outcome(score, frozenset(v.rule for v in report.violations), race)


def with_value(marks: Marks, u: Uncertain, value: Value) -> Marks:
    """The reading with the field of `u` holding `value` instead."""
    side = marks.side
    if u.field == "number":
        i = side.island(u.where)
        return dataclasses.replace(marks, numerals=marks.numerals[:i] + (value,) + marks.numerals[i + 1 :])
    if u.field == "bridges":
        k = next(k for k in range(len(marks.bridges)) if side.lane_name(k) == u.where)
        count = 0 if value is None else value
        return dataclasses.replace(marks, bridges=marks.bridges[:k] + (count,) + marks.bridges[k + 1 :])
    if u.field == "circled":
        return dataclasses.replace(marks, circled=_toggled(marks.circled, side.island(u.where), value))
    if u.field == "card":
        return dataclasses.replace(marks, cards=_toggled(marks.cards, int(u.where), value))
    goal = next(g for g in GOALS if u.where in (g, first_box(g)))
    if u.where == first_box(goal):
        return dataclasses.replace(marks, lost_first=_toggled(marks.lost_first, goal, value))
    goals = [(g, t) for g, t in marks.goals if g != goal] + ([(goal, value)] if value is not None else [])
    return dataclasses.replace(marks, goals=tuple(sorted(goals, key=lambda gt: (gt[1], GOALS.index(gt[0])))))


def _toggled(items: frozenset[T], item: T, present: Value) -> frozenset[T]:
    """`items` with `item` in it when `present`, without it otherwise."""
    return items | {item} if present else items - {item}


def staked(
    doubts: tuple[Uncertain, ...], marks: Marks, deck: Deck, scoring: Scoring | None,
    numerals: Sequence[Probs] | None = None,
) -> tuple[Uncertain, ...]:
    """The doubts, each with what a misreading of it could change (numerals weighed by their measured
    chances `numerals` when given)."""
    base = outcome(marks, deck, scoring)
    # On a reading that itself breaks a rule, every misreading counts: keeping the rules no longer
    # tells readings apart.
    ink = _Ink(marks, numerals if numerals is not None and consistent(marks, deck) else None)
    affects: list[set[str]] = []
    for u in doubts:
        found: set[str] = set()
        for v in ink.values(u):
            other = with_value(marks, u, v)
            changed = base.differences(outcome(other, deck, scoring))
            if changed and ink.counts(u, v, other, deck):
                found |= changed
        affects.append(found)
    quiet = [n for n, a in enumerate(affects) if not a][:MAX_PAIRED]
    for n, m in itertools.combinations(quiet, 2):
        if (1.0 - doubts[n].confidence) * (1.0 - doubts[m].confidence) < PAIR_FLOOR:
            continue
        for v, w in itertools.product(doubts[n].alternatives, doubts[m].alternatives):
            both = with_value(with_value(marks, doubts[n], v), doubts[m], w)
            changed = base.differences(outcome(both, deck, scoring))
            if changed and ink.counts_pair((doubts[n], v), (doubts[m], w), both, deck):
                affects[n] |= changed
                affects[m] |= changed
    return tuple(
        dataclasses.replace(u, affects=tuple(a for a in ("score", "verdict", "race") if a in found))
        for u, found in zip(doubts, affects, strict=True)
    )


@dataclass(frozen=True)
class _Ink:
    """Which misreadings of a doubt count, from the numerals' measured chances (all count without them).

    A misreading that keeps the rules always counts. One that breaks a rule the reading keeps is what the
    player wrote only if the player broke that rule: it counts when the ink alone does not favour the
    value read over it (the reading would then rest on the rule alone), or reads it at `SURE_DIGIT` or
    more. A numeral the ink favours and the rules agree with is not sent to a person for a misreading
    that both the ink and the rules speak against.
    """

    marks: Marks
    numerals: Sequence[Probs] | None

    def _probs(self, u: Uncertain) -> Probs | None:
        """The measured chances of a numeral doubt (None for other fields or without them)."""
        if self.numerals is None or u.field != "number":
            return None
        return self.numerals[self.marks.side.island(u.where)]

    def values(self, u: Uncertain) -> list[Value]:
        """The values a doubt's field may hold instead: its alternatives, and for a numeral every value the
        ink leaves a chance (a digit read surely that the rules overrode among them)."""
        probs = self._probs(u)
        if probs is None:
            return list(u.alternatives)
        top = max(probs.values())
        extra = [v for v, p in probs.items() if v != u.read and v not in u.alternatives and p >= 1e-3 * top]
        return [*u.alternatives, *extra]

    def _odds(self, u: Uncertain, v: Value) -> tuple[float, float]:
        """The ink's odds of `v` against the value read, and its chance of `v` (both from the doubt's
        confidence for fields other than numerals)."""
        probs = self._probs(u)
        if probs is None:
            return (1.0 - u.confidence) / max(u.confidence, 1e-12), 0.0
        return probs.get(v, 0.0) / max(probs.get(u.read, 0.0), 1e-12), probs.get(v, 0.0)

    @staticmethod
    def _outweighs(odds: float, sure: float) -> bool:
        """True when the ink finds a rule-breaking value at least as likely as the value read, or reads it at
        `SURE_DIGIT` or more: the reading then rests on the player having kept the rule alone."""
        return sure >= SURE_DIGIT or odds >= 1.0

    def counts(self, u: Uncertain, v: Value, other: Marks, deck: Deck) -> bool:
        """True when reading `v` at doubt `u` (giving `other`) is a misreading that counts."""
        if self._probs(u) is None or consistent(other, deck):
            return True
        return self._outweighs(*self._odds(u, v))

    def counts_pair(self, one: tuple[Uncertain, Value], two: tuple[Uncertain, Value], both: Marks,
                    deck: Deck) -> bool:
        """True when misreading two doubts at once (giving `both`) counts."""
        if (self._probs(one[0]) is None and self._probs(two[0]) is None) or consistent(both, deck):
            return True
        (a, sure_a), (b, sure_b) = self._odds(*one), self._odds(*two)
        return self._outweighs(a * b, max(sure_a, sure_b))
