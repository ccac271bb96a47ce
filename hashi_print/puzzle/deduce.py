"""Human-style deduction for classic Hashiwokakero: named techniques, a ladder of grades, hints.

The state is a pair of bounds per lane (at least `lo`, at most `hi` bridges, 0..2). Each technique
tightens bounds and is recorded as a Step. Techniques are tried lowest rung first, so the hardest
rung a run needs is the puzzle's grade: the lowest grade whose techniques finish it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hashi_print.errors import PuzzleError
from hashi_print.i18n import _, current_language, ngettext, pgettext
from hashi_print.puzzle.formats import cell_name
from hashi_print.puzzle.model import GRADES, Grade, Puzzle, Solution

EASY, MEDIUM, HARD, EXPERT = range(4)

# Technique name -> the rung of the ladder (index in GRADES) that introduces it.
TECHNIQUES = {
    "complete": EASY,
    "crossing": EASY,
    "fill": EASY,
    "spread": EASY,
    "capacity": EASY,
    "needs": MEDIUM,
    "pair": MEDIUM,
    "isolation": HARD,
    "impossible": HARD,
    "only-way-out": EXPERT,
    "contradiction": EXPERT,
}

# Steps a player sees on paper without being told: lanes closed by full islands, crossed lanes, and
# an island's room for more bridges. Hints skip them.
OBVIOUS = frozenset({"complete", "crossing", "capacity"})

Change = tuple[int, int, int]  # (lane, at least, at most) after the step


@dataclass(frozen=True)
class Step:
    """One deduction: the technique, the islands and lanes it used and the new lane bounds it concluded."""

    technique: str
    grade: Grade
    islands: tuple[int, ...]
    lanes: tuple[int, ...]
    conclusions: tuple[Change, ...]
    text: str


@dataclass(frozen=True)
class Deduction:
    """The result of a deduction run: its steps, whether it finished, and the final bounds per lane."""

    steps: tuple[Step, ...]
    solved: bool
    counts: tuple[tuple[int, int], ...]
    grade: Grade | None
    contradiction: str | None = None

    def solution(self, puzzle: Puzzle) -> Solution | None:
        """Return the deduced solution when the run finished, else None."""
        if not self.solved:
            return None
        return Solution.from_lane_counts(puzzle.geometry, [lo for lo, _ in self.counts])


# --- naming islands the way players do ------------------------------------------------------

def island_names(puzzle: Puzzle) -> tuple[str, ...]:
    """Return the player name of every island, by island index."""
    return tuple(cell_name(i.row, i.col) for i in puzzle.islands)


def lane_name(puzzle: Puzzle, lane: int, names: Sequence[str] | None = None) -> str:
    """Name a lane by its two islands, e.g. C4-C6."""
    names = names or island_names(puzzle)
    ln = puzzle.geometry.lanes[lane]
    return f"{names[ln.a]}-{names[ln.b]}"


# --- the propagation engine ------------------------------------------------------------------

class _Board:
    """What never changes during a run: lane ends, lanes per island, crossings, clues, names."""

    def __init__(self, puzzle: Puzzle, explain: bool):
        geo = puzzle.geometry
        self.puzzle = puzzle
        self.n = len(geo.positions)
        self.ea = [ln.a for ln in geo.lanes]
        self.eb = [ln.b for ln in geo.lanes]
        self.lanes_of = geo.lanes_of
        self.cross = geo.crossings
        self.clue = puzzle.clues
        self.names = island_names(puzzle) if explain else ()
        self.xor = [a ^ b for a, b in zip(self.ea, self.eb, strict=True)]
        self.near = [tuple({i, *(self.eb[k] if self.ea[k] == i else self.ea[k] for k in ls)})
                     for i, ls in enumerate(self.lanes_of)]


class _Engine:
    """Mutable lane bounds with work queues per level; private to this module, used by deduce()."""

    def __init__(self, board: _Board, level: int, lo: list[int], hi: list[int], *, explain: bool,
                 sweep: bool = True, chains: bool = True, global_check: bool = False,
                 queue_all: bool = True, los: list[int] | None = None):
        self.board = board
        self.puzzle = board.puzzle
        self.n = n = board.n
        self.ea, self.eb, self.lanes_of = board.ea, board.eb, board.lanes_of
        self.cross, self.clue, self.near, self.xor = board.cross, board.clue, board.near, board.xor
        self.names = board.names
        self.level = level
        self.lo = lo
        self.hi = hi
        self.los = los if los is not None else [sum(lo[k] for k in ls) for ls in self.lanes_of]
        self.explain = explain
        self.sweep = sweep
        self.chains = chains
        self.global_check = global_check or level >= EXPERT
        self.steps: list[Step] = []
        self.used = -1
        self.broken: str | None = None
        self.stop_when: Callable[[Step], bool] | None = None
        self.stopped = False
        self.stop_at = 0
        self.swept = False
        self.checked = False
        self.chain_pos = 0
        self.reach = [0] * n
        self.stale = bytearray(b"\x01" * n)
        if queue_all:
            self.queues = [deque(range(n)) for _ in range(3)]
            self.queued = [bytearray(b"\x01" * n) for _ in range(3)]
        else:
            self.queues = [deque(), deque(), deque()]
            self.queued = [bytearray(n), bytearray(n), bytearray(n)]

    def _other(self, k: int, i: int) -> int:
        """Return the far end of lane k from island i."""
        return self.xor[k] ^ i

    # -- bookkeeping --

    def _push(self, q: int, i: int) -> None:
        """Queue island i for the rules of queue q."""
        if not self.queued[q][i]:
            self.queued[q][i] = 1
            self.queues[q].append(i)

    def _mark(self, k: int) -> None:
        """Queue the islands whose rules may see the change of lane k."""
        a, b = self.ea[k], self.eb[k]
        stale = self.stale
        for i in (a, b):
            self._push(0, i)
            self._push(1, i)
            for j in self.near[i]:
                self._push(2, j)
                stale[j] = 1

    def _fail(self, reason: str) -> None:
        """Record a contradiction (the first one found is kept)."""
        if self.broken is None:
            self.broken = reason

    def who(self, i: int) -> str:
        """Describe island i in player words (only when explaining)."""
        if not self.names:
            return _("an island")
        return _("the {clue} at {island}").format(clue=self.clue[i], island=self.names[i])

    def subject(self, i: int) -> str:
        """Describe island i at the start of a sentence."""
        return _("The {clue} at {island}").format(clue=self.clue[i], island=self.names[i])

    def _step(self, technique: str, islands: Sequence[int], lanes: Sequence[int],
              changes: Sequence[Change], extra: object = None) -> None:
        """Apply a step's conclusions, record it, and close lanes crossed by newly built ones."""
        lo, hi, los = self.lo, self.hi, self.los
        level = TECHNIQUES[technique]
        if level > self.used:
            self.used = level
        if self.explain:
            text = _describe(self, technique, islands, lanes, changes, extra)
            step = Step(technique, GRADES[level], tuple(islands), tuple(lanes), tuple(changes), text)
            self.steps.append(step)
            if self.stop_when is not None and not self.stopped and self.stop_when(step):
                self.stopped = True
                self.stop_at = len(self.steps)
        built = []
        for k, nlo, nhi in changes:
            if nlo > lo[k]:
                if lo[k] == 0:
                    built.append(k)
                d = nlo - lo[k]
                los[self.ea[k]] += d
                los[self.eb[k]] += d
                lo[k] = nlo
            if nhi < hi[k]:
                if nhi == 0:
                    self.checked = False
                hi[k] = nhi
            if lo[k] > hi[k]:
                self._fail(_("a lane would need more bridges than it can carry"))
                return
            self._mark(k)
        if level == HARD:
            self.swept = False
        for k in built:
            closing = [c for c in self.cross[k] if hi[c] > 0]
            if closing:
                self._step("crossing", (self.ea[k], self.eb[k]), (k, *closing),
                           [(c, lo[c], 0) for c in closing])

    # -- the loop --

    def run(self) -> None:
        """Apply techniques, lowest level first, until stuck, solved, stopped or contradicted."""
        q0, q1, q2 = self.queues
        u0, u1, u2 = self.queued
        while self.broken is None and not self.stopped:
            if q0:
                i = q0.popleft()
                u0[i] = 0
                self._local(i, EASY)
            elif self.level >= MEDIUM and q1:
                i = q1.popleft()
                u1[i] = 0
                self._local(i, MEDIUM)
            elif self.level >= HARD and q2:
                i = q2.popleft()
                u2[i] = 0
                self._hard(i)
            elif self.level >= HARD and self.sweep and not self.swept:
                self.swept = True
                for i in range(self.n):
                    self._push(2, i)
            elif self.global_check and not self.checked:
                self.checked = True
                self._cut_lanes()
            elif self.level >= EXPERT and self.chains and not self.done():
                if not self._chain():
                    break
            else:
                break

    def done(self) -> bool:
        """Tell whether every lane's count is decided."""
        return self.lo == self.hi

    # -- easy and medium: counting at one island --

    def _local(self, i: int, level: int) -> None:
        """Apply the first counting rule at island i that changes something, up to `level`."""
        lo, hi = self.lo, self.hi
        lanes = self.lanes_of[i]
        c = self.clue[i]
        los = self.los[i]
        if los > c:
            self._fail(_("{island} would have more bridges than its number").format(island=self.who(i)))
            return
        if los == c:
            open_ = [k for k in lanes if hi[k] > lo[k]]
            if open_:
                self._step("complete", (i,), open_, [(k, lo[k], lo[k]) for k in open_])
            return
        his = 0
        for k in lanes:
            his += hi[k]
        if his < c:
            self._fail(_("{island} could no longer get enough bridges").format(island=self.who(i)))
            return
        if his == c:
            self._step("fill", (i,), lanes, [(k, hi[k], hi[k]) for k in lanes if lo[k] < hi[k]])
            return
        forced = []
        spread = True
        for k in lanes:
            if hi[k]:
                need = c - his + hi[k]
                if need > lo[k]:
                    forced.append((k, need, hi[k]))
                if need < 1:
                    spread = False
        if forced and spread:
            self._step("spread", (i,), [k for k in lanes if hi[k]], forced, his)
            return
        room = c - los
        capped = [(k, lo[k], lo[k] + room) for k in lanes if hi[k] > lo[k] + room]
        if capped:
            self._step("capacity", (i,), [k for k, _, _ in capped], capped, los)
            return
        if level < MEDIUM:
            return
        if forced:
            self._step("needs", (i,), lanes, forced, his)
            return
        if c <= 2 and self.n > 2:
            for k in lanes:
                j = self._other(k, i)
                if hi[k] >= c and self.clue[j] == c and los == lo[k] and self.los[j] == lo[k]:
                    self._step("pair", (i, j), (k,), [(k, lo[k], c - 1)])
                    return

    # -- hard: one-lane trials with their immediate consequences --

    def _hard(self, i: int) -> None:
        """Try one more bridge (and the most bridges) on each open lane of island i; exclude failures."""
        lo, hi = self.lo, self.hi
        for k in self.lanes_of[i]:
            if lo[k] < hi[k]:
                for v in ((lo[k] + 1, hi[k]) if hi[k] > lo[k] + 1 else (hi[k],)):
                    why = self._trial(k, v)
                    if why is not None:
                        tech, extra = why
                        islands = extra if tech == "isolation" else (extra,)
                        self._step(tech, islands, (k,), [(k, lo[k], v - 1)], (v, extra))
                        return

    def _trial(self, k: int, v: int) -> tuple[str, object] | None:
        """Say why lane k cannot carry v bridges, looking one step ahead, or None if it might."""
        lo, hi, los, clue, xor = self.lo, self.hi, self.los, self.clue, self.xor
        lanes_of = self.lanes_of
        a, b = self.ea[k], self.eb[k]
        d = v - lo[k]
        la, lb = los[a] + d, los[b] + d
        if la > clue[a]:
            return "impossible", a
        if lb > clue[b]:
            return "impossible", b
        if la == clue[a] and lb == clue[b] and self.n > 2:
            group = self._closed_group(k, a, b)
            if group is not None:
                return "isolation", group
        closed = [c for c in self.cross[k] if hi[c] > 0] if lo[k] == 0 else []
        # Most trials change little: bound each nearby island's loss of reach before recounting it.
        loss: dict[int, int] = {}
        for c in closed:
            loss[self.ea[c]] = loss.get(self.ea[c], 0) + hi[c]
            loss[self.eb[c]] = loss.get(self.eb[c], 0) + hi[c]
        for e in (a, b):
            for m in lanes_of[e]:
                if m != k and hi[m]:
                    j = xor[m] ^ e
                    loss[j] = loss.get(j, 0) + d
        for j, most in loss.items():
            if j in (a, b) or self._reach(j) - most >= clue[j]:
                continue
            reach = 0
            for m in lanes_of[j]:
                h = hi[m]
                if h == 0 or m in closed:
                    continue
                o = xor[m] ^ j
                cap = clue[o] - (la if o == a else lb if o == b else los[o]) + lo[m]
                reach += h if h < cap else cap
            if reach < clue[j]:
                return "impossible", j
        return None

    def _reach(self, j: int) -> int:
        """The most bridges island j could still get, given its lanes and its neighbours' room."""
        if self.stale[j]:
            lo, hi, los, clue, xor = self.lo, self.hi, self.los, self.clue, self.xor
            reach = 0
            for m in self.lanes_of[j]:
                h = hi[m]
                if h:
                    o = xor[m] ^ j
                    cap = clue[o] - los[o] + lo[m]
                    reach += h if h < cap else cap
            self.reach[j] = reach
            self.stale[j] = 0
        return self.reach[j]

    def _closed_group(self, k: int, a: int, b: int) -> tuple[int, ...] | None:
        """Return the islands cut off if lane k joins complete a and b and all their group is complete."""
        lo, los, clue = self.lo, self.los, self.clue
        seen = {a, b}
        todo = [a, b]
        while todo:
            i = todo.pop()
            if i != a and i != b and los[i] != clue[i]:
                return None
            for m in self.lanes_of[i]:
                if lo[m] or m == k:
                    j = self._other(m, i)
                    if j not in seen:
                        seen.add(j)
                        todo.append(j)
        return tuple(sorted(seen)) if len(seen) < self.n else None

    # -- expert: whole-board connectivity and contradiction chains --

    def _cut_lanes(self) -> None:
        """Every lane whose loss would split the islands must carry a bridge; a split board fails."""
        hi, ea, eb, lanes_of = self.hi, self.ea, self.eb, self.lanes_of
        n = self.n
        disc = [-1] * n
        low = [0] * n
        size = [1] * n
        disc[0] = 0
        t = 1
        cuts = []
        stack = [(0, -1, iter(lanes_of[0]))]
        while stack:
            v, pl, it = stack[-1]
            for m in it:
                if m == pl or hi[m] == 0:
                    continue
                w = eb[m] if ea[m] == v else ea[m]
                if disc[w] < 0:
                    disc[w] = low[w] = t
                    t += 1
                    stack.append((w, m, iter(lanes_of[w])))
                    break
                if disc[w] < low[v]:
                    low[v] = disc[w]
            else:
                stack.pop()
                if stack:
                    u = stack[-1][0]
                    if low[v] < low[u]:
                        low[u] = low[v]
                    size[u] += size[v]
                    if low[v] > disc[u] and self.lo[pl] == 0:
                        cuts.append((pl, v))
        if t < n:
            self._fail(_("the islands would fall apart into groups that can never be joined"))
            return
        for m, v in cuts:
            if self.broken is not None or self.stopped:
                return
            if self.lo[m] == 0:
                side = self._side(m, v) if self.explain else ()
                self._step("only-way-out", side, (m,), [(m, 1, self.hi[m])], side)

    def _side(self, k: int, start: int) -> tuple[int, ...]:
        """Return the smaller group of islands that lane k alone links to the rest."""
        seen = {start}
        todo = [start]
        while todo:
            i = todo.pop()
            for m in self.lanes_of[i]:
                if m != k and self.hi[m]:
                    j = self._other(m, i)
                    if j not in seen:
                        seen.add(j)
                        todo.append(j)
        if 2 * len(seen) > self.n:
            seen = set(range(self.n)) - seen
        return tuple(sorted(seen))

    def _chain(self) -> bool:
        """Assume a lane value, propagate with the lower levels, and reject it on a contradiction."""
        lo, hi = self.lo, self.hi
        m = len(lo)
        for t in range(m):
            k = (self.chain_pos + t) % m
            if lo[k] == hi[k]:
                continue
            for assume, concl in _chain_trials(k, lo[k], hi[k]):
                child = _Engine(self.board, MEDIUM, lo[:], hi[:], explain=False, sweep=False,
                                chains=False, global_check=True, queue_all=False,
                                los=self.los[:])
                child.checked = True
                child._step("contradiction", (), (k,), [assume])
                child.run()
                if child.broken is not None:
                    self.chain_pos = k
                    self._step("contradiction", (self.ea[k], self.eb[k]), (k,), [concl],
                               (assume, child.broken))
                    return True
        return False


def _chain_trials(k: int, lo: int, hi: int) -> list[tuple[Change, Change]]:
    """The assumptions to try on lane k, each with the conclusion its failure gives."""
    trials = [((k, lo, lo), (k, lo + 1, hi)), ((k, lo + 1, hi), (k, lo, lo))]
    if hi - lo == 2:
        trials += [((k, hi, hi), (k, lo, hi - 1)), ((k, lo, hi - 1), (k, hi, hi))]
    return trials


# --- words for players -----------------------------------------------------------------------

# English says small counts in words ("two bridges"); the other languages write the digits.
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def _number(n: int) -> str:
    """A count as the sentence shows it."""
    english = current_language() == "en"
    return _NUMBER_WORDS[n] if english and 0 <= n < len(_NUMBER_WORDS) else str(n)


def _bridges(n: int) -> str:
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


def _lane(eng: _Engine, k: int) -> str:
    """Name lane k by its two islands."""
    return f"{eng.names[eng.ea[k]]}-{eng.names[eng.eb[k]]}"


def _bounds(eng: _Engine, change: Change) -> str:
    """Say what a lane carries after a step."""
    k, lo, hi = change
    name = _lane(eng, k)
    if hi == 0:
        return _("{lane} stays empty").format(lane=name)
    if lo == hi:
        return _("{lane} gets exactly {count}").format(lane=name, count=_bridges(lo))
    if lo > 0:
        return _("{lane} gets at least {count}").format(lane=name, count=_bridges(lo))
    return _("{lane} carries at most {count}").format(lane=name, count=_bridges(hi))


def _group(eng: _Engine, islands: Sequence[int]) -> str:
    """List a few islands of a group by name."""
    shown = ", ".join(eng.names[i] for i in islands[:6])
    if len(islands) <= 6:
        return shown
    return _("{islands} and {n} more").format(islands=shown, n=len(islands) - 6)


def _describe(eng: _Engine, tech: str, islands: Sequence[int], lanes: Sequence[int],
              changes: Sequence[Change], extra: object) -> str:
    """Explain a step in the words a player uses, in the current language."""
    so = pgettext("between conclusions", "; ").join(_bounds(eng, ch) for ch in changes)
    lname = _lane(eng, lanes[0]) if lanes else ""
    subject = eng.subject(islands[0]) if islands else ""
    if tech == "complete":
        return _("{island} already has all its bridges, so no more touch it: {so}.").format(
            island=subject, so=so)
    if tech == "crossing":
        return _("The bridge {lane} blocks the lanes it crosses: {so}.").format(lane=lname, so=so)
    if tech == "fill":
        i = islands[0]
        open_ = [k for k in eng.lanes_of[i] if eng.hi[k]]
        if all(eng.hi[k] == 2 and eng.lo[k] == 0 for k in open_) and eng.clue[i] == 2 * len(open_):
            if len(open_) == 1:
                return _("{island} has only one neighbour, so {so}.").format(island=subject, so=so)
            return _("{island} has only {neighbours}, so each of them gets two bridges: {so}.").format(
                island=subject, neighbours=_neighbours(len(open_)), so=so)
        left = eng.clue[i] - eng.los[i]
        count = _bridges(left) if left == eng.clue[i] else _more_bridges(left)
        return _("{island} needs {count} and its open lanes can take exactly that many, so {so}.").format(
            island=subject, count=count, so=so)
    if tech == "spread":
        return _("{island} has only {neighbours}, and leaving out any one of them would leave it short, "
                 "so each gets at least one bridge: {so}.").format(
            island=subject, neighbours=_neighbours(len(lanes)), so=so)
    if tech == "capacity":
        room = eng.clue[islands[0]] - extra
        if extra == 0:
            return _("{island} takes only {count} in all, so {so}.").format(
                island=subject, count=_bridges(room), so=so)
        return _("{island} already has {count}, so it takes at most {room} more: {so}.").format(
            island=subject, count=_bridges(extra), room=room, so=so)
    if tech == "needs":
        i = islands[0]
        forced = [k for k, _lo, _hi in changes]
        names = ", ".join(_lane(eng, k) for k in forced)
        if len(forced) == 1:
            return _("{island} needs {count} in all, and without {lanes} its other lanes carry at most "
                     "{most}, so {so}.").format(island=subject, count=_bridges(eng.clue[i]), lanes=names,
                                               most=extra - eng.hi[forced[0]], so=so)
        return _("{island} needs {count} in all, and without any one of {lanes} its other lanes cannot "
                 "carry enough, so {so}.").format(island=subject, count=_bridges(eng.clue[i]), lanes=names,
                                                  so=so)
    if tech == "pair":
        a, b = islands
        return _("Joining {first} and {second} with {count} would close both and cut them off from the "
                 "other islands, so {so}.").format(first=eng.who(a), second=eng.who(b),
                                                   count=_bridges(eng.clue[a]), so=so)
    if tech == "isolation":
        v, group = extra
        return _("{count} on {lane} would finish the group {group} and cut it off from the other islands, "
                 "so {so}.").format(count=_cap(_bridges(v)), lane=lname, group=_group(eng, group), so=so)
    if tech == "impossible":
        v, j = extra
        return _("{count} on {lane} would leave {island} unable to get all its bridges, so {so}.").format(
            count=_cap(_bridges(v)), lane=lname, island=eng.who(j), so=so)
    if tech == "only-way-out":
        return _("The lane {lane} is the only link between {group} and the other islands, so {so}.").format(
            lane=lname, group=_group(eng, extra), so=so)
    if tech == "contradiction":
        assume, reason = extra
        return _("Suppose {assumption}: then {reason}. So {so}.").format(
            assumption=_bounds(eng, assume), reason=reason, so=so)
    return so


# --- the public API ---------------------------------------------------------------------------

def _start_bounds(puzzle: Puzzle, start: Sequence[int] | None) -> tuple[list[int], list[int]]:
    """Lane bounds to start from: nothing known, or at least the given bridges."""
    m = len(puzzle.geometry.lanes)
    lo = [0] * m if start is None else [int(x) for x in start]
    if len(lo) != m:
        raise PuzzleError(f"expected {m} lane counts, got {len(lo)}")
    hi = [2] * m
    for k, x in enumerate(lo):
        if x:
            for c in puzzle.geometry.crossings[k]:
                hi[c] = 0
    return lo, hi


def _finished(eng: _Engine) -> bool:
    """Tell whether the engine decided every lane into a valid solution."""
    if eng.broken is not None or not eng.done():
        return False
    if eng.los != list(eng.clue):
        return False
    geo = eng.puzzle.geometry
    return len(geo.components(k for k, x in enumerate(eng.lo) if x)) == 1


def _rung(grade: str) -> int:
    """Turn a grade into its rung of the ladder, rejecting unknown names."""
    if grade not in GRADES:
        raise PuzzleError(f"unknown grade {grade!r}; expected one of {', '.join(GRADES)}")
    return GRADES.index(grade)


def deduce(puzzle: Puzzle, upto: str = Grade.EXPERT, start: Sequence[int] | None = None, *,
           explain: bool = True) -> Deduction:
    """Deduce as far as the techniques up to grade `upto` go, from nothing or from `start` lane counts."""
    lo, hi = _start_bounds(puzzle, start)
    if start is not None:
        check_state(puzzle, lo)
    eng = _Engine(_Board(puzzle, explain), _rung(upto), lo, hi, explain=explain)
    eng.run()
    solved = _finished(eng)
    return Deduction(
        steps=tuple(eng.steps),
        solved=solved,
        counts=tuple(zip(eng.lo, eng.hi, strict=True)),
        grade=GRADES[eng.used] if eng.used >= 0 else None,
        contradiction=eng.broken,
    )


def grade(puzzle: Puzzle) -> Grade:
    """Return the lowest grade whose techniques solve the puzzle, or Grade.BEYOND."""
    result = deduce(puzzle, explain=False)
    if not result.solved:
        return Grade.BEYOND
    return result.grade or Grade.EASY


def next_hint(puzzle: Puzzle, state_counts: Sequence[int] | None = None) -> Step | None:
    """Return the next deduction that adds a bridge to the ones drawn so far, or None."""
    steps = hint_steps(puzzle, state_counts)
    return steps[-1] if steps else None


def hint_steps(puzzle: Puzzle, state_counts: Sequence[int] | None = None) -> tuple[Step, ...]:
    """Return the deductions up to the next bridge to draw: the facts it rests on, then the bridge.

    Steps a player sees without being told (full islands, crossed lanes, room left) are left out.
    A drawn bridge that is not in the solution gives one "mistake" step instead.
    """
    geo = puzzle.geometry
    counts = [0] * len(geo.lanes) if state_counts is None else list(state_counts)
    check_state(puzzle, counts)
    names = island_names(puzzle)
    full = deduce(puzzle, explain=False)
    if full.solved:
        wrong = [k for k, (x, (s, _)) in enumerate(zip(counts, full.counts, strict=True)) if x > s]
        if wrong:
            k = wrong[0]
            ln = geo.lanes[k]
            text = _("The bridges drawn on {lane} do not belong to the solution: it has {count} there.")
            text = text.format(lane=f"{names[ln.a]}-{names[ln.b]}", count=_bridges(full.counts[k][0]))
            return (Step("mistake", Grade.EASY, (ln.a, ln.b), (k,), (), text),)
        if [s for s, _ in full.counts] == counts:
            return ()
    lo, hi = _start_bounds(puzzle, counts)
    eng = _Engine(_Board(puzzle, True), EXPERT, lo, hi, explain=True)
    drawn = tuple(counts)
    eng.stop_when = lambda step: any(nlo > drawn[k] for k, nlo, _ in step.conclusions)
    eng.run()
    if eng.broken is not None:
        return (Step("mistake", Grade.EASY, (), (), (),
                     _("The bridges drawn so far cannot all be right: {reason}.").format(reason=eng.broken)),)
    upto = eng.steps[:eng.stop_at] if eng.stopped else eng.steps
    return tuple(s for s in upto if s.technique not in OBVIOUS)


def check_state(puzzle: Puzzle, counts: Sequence[int]) -> None:
    """Raise PuzzleError when drawn bridges break a rule: too many on a lane or island, or crossing."""
    geo = puzzle.geometry
    if len(counts) != len(geo.lanes):
        raise PuzzleError(f"expected {len(geo.lanes)} lane counts, got {len(counts)}")
    names = island_names(puzzle)
    for k, x in enumerate(counts):
        if not 0 <= x <= 2:
            raise PuzzleError(f"lane {lane_name(puzzle, k, names)} has {x} bridges; at most 2 fit")
        if x:
            for c in geo.crossings[k]:
                if c > k and counts[c]:
                    raise PuzzleError(f"the bridges {lane_name(puzzle, k, names)} and "
                                      f"{lane_name(puzzle, c, names)} cross")
    for i, lanes in enumerate(geo.lanes_of):
        total = sum(counts[k] for k in lanes)
        if total > puzzle.clues[i]:
            raise PuzzleError(f"the {puzzle.clues[i]} at {names[i]} has {total} bridges drawn")


def step_json(puzzle: Puzzle, step: Step, names: Sequence[str] | None = None) -> dict:
    """Return a step as a JSON-ready object with island and lane names."""
    names = names or island_names(puzzle)
    return {
        "technique": step.technique,
        "level": step.grade,
        "text": step.text,
        "islands": [names[i] for i in step.islands],
        "lanes": [lane_name(puzzle, k, names) for k in step.lanes],
        "conclusions": [{"lane": lane_name(puzzle, k, names), "at_least": lo, "at_most": hi}
                        for k, lo, hi in step.conclusions],
    }


@dataclass(frozen=True)
class GradeResult:
    """A puzzle's grade and the deduction steps that reached it (the `grade` command's result)."""

    puzzle: Puzzle
    grade: Grade
    steps: tuple[Step, ...]

    def to_json(self) -> dict:
        """Return the `grade --json` contract object."""
        names = island_names(self.puzzle)
        return {"difficulty": self.grade, "steps": [step_json(self.puzzle, s, names) for s in self.steps]}


@dataclass(frozen=True)
class Hint:
    """The next bridge to draw and the facts it rests on, or no steps when nothing is left to deduce."""

    puzzle: Puzzle
    steps: tuple[Step, ...]

    def to_json(self) -> dict | None:
        """Return the `hint --json` contract object: the step plus "because", or None."""
        if not self.steps:
            return None
        return {**step_json(self.puzzle, self.steps[-1]),
                "because": [step_json(self.puzzle, s) for s in self.steps[:-1]]}


def grade_puzzle(puzzle: Puzzle) -> GradeResult:
    """Grade a puzzle, keeping the explained steps: Grade.BEYOND when the deducer gets stuck."""
    result = deduce(puzzle)
    got = (result.grade or Grade.EASY) if result.solved else Grade.BEYOND
    return GradeResult(puzzle, got, result.steps)


def hint(puzzle: Puzzle, state_counts: Sequence[int] | None = None) -> Hint:
    """Return the hint for the bridges drawn so far (see `hint_steps`)."""
    return Hint(puzzle, hint_steps(puzzle, state_counts))
