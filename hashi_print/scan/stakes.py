"""What a doubtful field could change if it were misread: the score, the verdict or the race.

A doubt matters only if some value it may hold, alone or together with one other doubt's, gives the
sheet another score, another verdict (valid, or which rules are broken) or another race (the turn
each goal was reached, and which "first" boxes are crossed off). The others are still reported, with
nothing they affect, and do not send the sheet to a person.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from typing import TypeVar

from hashi_print.game.deck import GOALS, Deck
from hashi_print.game.scoring import Scoring, score_sheet
from hashi_print.scan.resolve import Uncertain, Value, first_box
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
    labels = [i.label for i in side.islands]
    if u.field == "number":
        i = labels.index(u.where)
        return dataclasses.replace(marks, numerals=marks.numerals[:i] + (value,) + marks.numerals[i + 1 :])
    if u.field == "bridges":
        k = next(k for k in range(len(marks.bridges)) if side.lane_name(k) == u.where)
        count = 0 if value is None else value
        return dataclasses.replace(marks, bridges=marks.bridges[:k] + (count,) + marks.bridges[k + 1 :])
    if u.field == "circled":
        return dataclasses.replace(marks, circled=_toggled(marks.circled, labels.index(u.where), value))
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
    doubts: tuple[Uncertain, ...], marks: Marks, deck: Deck, scoring: Scoring | None
) -> tuple[Uncertain, ...]:
    """The doubts, each with what a misreading of it could change."""
    base = outcome(marks, deck, scoring)
    affects: list[set[str]] = []
    for u in doubts:
        affects.append(set().union(*(base.differences(outcome(with_value(marks, u, v), deck, scoring))
                                     for v in u.alternatives)) if u.alternatives else set())
    quiet = [n for n, a in enumerate(affects) if not a][:MAX_PAIRED]
    for n, m in itertools.combinations(quiet, 2):
        if (1.0 - doubts[n].confidence) * (1.0 - doubts[m].confidence) < PAIR_FLOOR:
            continue
        for v, w in itertools.product(doubts[n].alternatives, doubts[m].alternatives):
            both = with_value(with_value(marks, doubts[n], v), doubts[m], w)
            changed = base.differences(outcome(both, deck, scoring))
            affects[n] |= changed
            affects[m] |= changed
    return tuple(
        dataclasses.replace(u, affects=tuple(a for a in ("score", "verdict", "race") if a in found))
        for u, found in zip(doubts, affects, strict=True)
    )
