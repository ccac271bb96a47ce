"""The deducer's words: islands named as players do, and each technique's step told as a sentence."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hashi_print.i18n import _, current_language, ngettext, pgettext
from hashi_print.puzzle.model import Puzzle, cell_name

if TYPE_CHECKING:
    from hashi_print.puzzle.deduce_engine import Assumption, Change, Engine

# English says small counts in words ("two bridges"); the other languages write the digits.
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def island_names(puzzle: Puzzle) -> tuple[str, ...]:
    """Return the player name of every island, by island index."""
    return tuple(cell_name(i.row, i.col) for i in puzzle.islands)


def lane_name(puzzle: Puzzle, lane: int, names: Sequence[str] | None = None) -> str:
    """Name a lane by its two islands, e.g. C4-C6."""
    names = names or island_names(puzzle)
    ln = puzzle.geometry.lanes[lane]
    return f"{names[ln.a]}-{names[ln.b]}"


def _number(n: int) -> str:
    """A count as the sentence shows it."""
    english = current_language() == "en"
    return _NUMBER_WORDS[n] if english and 0 <= n < len(_NUMBER_WORDS) else str(n)


def bridges(n: int) -> str:
    """Say 'one bridge', 'two bridges'."""
    return ngettext("{n} bridge", "{n} bridges", n).format(n=_number(n))


def _more_bridges(n: int) -> str:
    """Say 'one more bridge', 'two more bridges'."""
    return ngettext("{n} more bridge", "{n} more bridges", n).format(n=_number(n))


def _neighbours(n: int) -> str:
    """Say 'two neighbours'."""
    return ngettext("{n} neighbour", "{n} neighbours", n).format(n=_number(n))


def _cap(text: str) -> str:
    """Capitalise the first letter only."""
    return text[:1].upper() + text[1:]


def _lane(eng: Engine, k: int) -> str:
    """Name lane k by its two islands."""
    return f"{eng.names[eng.ea[k]]}-{eng.names[eng.eb[k]]}"


def _bounds(eng: Engine, change: Change) -> str:
    """Say what a lane carries after a step."""
    k, lo, hi = change
    name = _lane(eng, k)
    if hi == 0:
        return _("{lane} stays empty").format(lane=name)
    if lo == hi:
        return _("{lane} gets exactly {count}").format(lane=name, count=bridges(lo))
    if lo > 0:
        return _("{lane} gets at least {count}").format(lane=name, count=bridges(lo))
    return _("{lane} carries at most {count}").format(lane=name, count=bridges(hi))


def _group(eng: Engine, islands: Sequence[int]) -> str:
    """List a few islands of a group by name."""
    shown = ", ".join(eng.names[i] for i in islands[:6])
    if len(islands) <= 6:
        return shown
    return _("{islands} and {n} more").format(islands=shown, n=len(islands) - 6)


@dataclass(frozen=True)
class _Told:
    """What a step's sentence is made of: the engine after it, its parts and its ready-made phrases."""

    eng: Engine
    islands: Sequence[int]
    lanes: Sequence[int]
    changes: Sequence[Change]
    count: int
    assumption: Assumption | None
    so: str
    lane: str
    subject: str


def describe(eng: Engine, tech: str, islands: Sequence[int], lanes: Sequence[int], changes: Sequence[Change],
             count: int, assumption: Assumption | None) -> str:
    """Explain a step in the words a player uses, in the current language."""
    so = pgettext("between conclusions", "; ").join(_bounds(eng, ch) for ch in changes)
    told = _Told(eng, islands, lanes, changes, count, assumption, so,
                 _lane(eng, lanes[0]) if lanes else "", eng.subject(islands[0]) if islands else "")
    words = _WORDS.get(tech)
    return so if words is None else words(told)


def _complete(t: _Told) -> str:
    """An island with all its bridges closes its other lanes."""
    return _("{island} already has all its bridges, so no more touch it: {so}.").format(
        island=t.subject, so=t.so)


def _crossing(t: _Told) -> str:
    """A built bridge closes the lanes it crosses."""
    return _("The bridge {lane} blocks the lanes it crosses: {so}.").format(lane=t.lane, so=t.so)


def _fill(t: _Told) -> str:
    """An island's open lanes can take exactly the bridges it still needs."""
    eng, i = t.eng, t.islands[0]
    open_ = [k for k in eng.lanes_of[i] if eng.hi[k]]
    if all(eng.hi[k] == 2 and eng.lo[k] == 0 for k in open_) and eng.clue[i] == 2 * len(open_):
        if len(open_) == 1:
            return _("{island} has only one neighbour, so {so}.").format(island=t.subject, so=t.so)
        return _("{island} has only {neighbours}, so each of them gets two bridges: {so}.").format(
            island=t.subject, neighbours=_neighbours(len(open_)), so=t.so)
    left = eng.clue[i] - eng.los[i]
    count = bridges(left) if left == eng.clue[i] else _more_bridges(left)
    return _("{island} needs {count} and its open lanes can take exactly that many, so {so}.").format(
        island=t.subject, count=count, so=t.so)


def _spread(t: _Told) -> str:
    """Leaving out any one lane would leave the island short."""
    return _("{island} has only {neighbours}, and leaving out any one of them would leave it short, "
             "so each gets at least one bridge: {so}.").format(
        island=t.subject, neighbours=_neighbours(len(t.lanes)), so=t.so)


def _capacity(t: _Told) -> str:
    """An island takes only so many more bridges (`count`: the bridges it has)."""
    room = t.eng.clue[t.islands[0]] - t.count
    if t.count == 0:
        return _("{island} takes only {count} in all, so {so}.").format(
            island=t.subject, count=bridges(room), so=t.so)
    return _("{island} already has {count}, so it takes at most {room} more: {so}.").format(
        island=t.subject, count=bridges(t.count), room=room, so=t.so)


def _needs(t: _Told) -> str:
    """Without a lane the island's others cannot carry enough (`count`: what all its lanes could take)."""
    eng, i = t.eng, t.islands[0]
    forced = [k for k, _lo, _hi in t.changes]
    names = ", ".join(_lane(eng, k) for k in forced)
    if len(forced) == 1:
        return _("{island} needs {count} in all, and without {lanes} its other lanes carry at most "
                 "{most}, so {so}.").format(island=t.subject, count=bridges(eng.clue[i]), lanes=names,
                                           most=t.count - eng.hi[forced[0]], so=t.so)
    return _("{island} needs {count} in all, and without any one of {lanes} its other lanes cannot "
             "carry enough, so {so}.").format(island=t.subject, count=bridges(eng.clue[i]), lanes=names,
                                              so=t.so)


def _pair(t: _Told) -> str:
    """Two equal islands would close each other off."""
    a, b = t.islands
    return _("Joining {first} and {second} with {count} would close both and cut them off from the "
             "other islands, so {so}.").format(first=t.eng.who(a), second=t.eng.who(b),
                                               count=bridges(t.eng.clue[a]), so=t.so)


def _isolation(t: _Told) -> str:
    """`count` bridges would finish the step's islands as a group cut off from the rest."""
    return _("{count} on {lane} would finish the group {group} and cut it off from the other islands, "
             "so {so}.").format(count=_cap(bridges(t.count)), lane=t.lane, group=_group(t.eng, t.islands),
                                so=t.so)


def _impossible(t: _Told) -> str:
    """`count` bridges would leave the step's island short."""
    return _("{count} on {lane} would leave {island} unable to get all its bridges, so {so}.").format(
        count=_cap(bridges(t.count)), lane=t.lane, island=t.eng.who(t.islands[0]), so=t.so)


def _only_way_out(t: _Told) -> str:
    """The lane is the only link of the step's islands to the rest."""
    return _("The lane {lane} is the only link between {group} and the other islands, so {so}.").format(
        lane=t.lane, group=_group(t.eng, t.islands), so=t.so)


def _contradiction(t: _Told) -> str:
    """The assumed bounds led to a contradiction."""
    if t.assumption is None:
        return t.so
    assume, reason = t.assumption
    return _("Suppose {assumption}: then {reason}. So {so}.").format(
        assumption=_bounds(t.eng, assume), reason=reason, so=t.so)


_WORDS: dict[str, Callable[[_Told], str]] = {
    "complete": _complete,
    "crossing": _crossing,
    "fill": _fill,
    "spread": _spread,
    "capacity": _capacity,
    "needs": _needs,
    "pair": _pair,
    "isolation": _isolation,
    "impossible": _impossible,
    "only-way-out": _only_way_out,
    "contradiction": _contradiction,
}
