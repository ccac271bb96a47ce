"""The deducer's techniques, rung by rung: counting at one island, one-lane trials, connectivity, chains.

Each technique reads an Engine's lane bounds and, when it finds something, records one step through
`Engine.step`; `run` applies them lowest rung first until the puzzle is stuck, solved or contradicted.
"""

from __future__ import annotations

from collections.abc import Iterator

from hashi_print.puzzle.deduce_engine import (
    EASY,
    EXPERT,
    HARD,
    MEDIUM,
    SPLIT,
    TOO_FEW,
    TOO_MANY,
    Change,
    Engine,
    reason,
)


def run(eng: Engine) -> None:
    """Apply techniques, lowest level first, until stuck, solved, stopped or contradicted.

    Each turn applies the lowest-rung technique that has work queued; the queues and the rungs the
    engine may use are read once (one turn per deduction, also in every contradiction trial).
    """
    q0, q1, q2 = eng.queues
    u0, u1, u2 = eng.queued
    medium, hard_ = eng.level >= MEDIUM, eng.level >= HARD
    while eng.broken is None and not eng.stopped:
        if q0:
            i = q0.popleft()
            u0[i] = 0
            local(eng, i, EASY)
        elif medium and q1:
            i = q1.popleft()
            u1[i] = 0
            local(eng, i, MEDIUM)
        elif hard_ and q2:
            i = q2.popleft()
            u2[i] = 0
            hard(eng, i)
        elif hard_ and eng.sweep and not eng.swept:
            eng.swept = True
            for i in range(eng.n):
                eng.push(2, i)
        elif eng.global_check and not eng.checked:
            eng.checked = True
            cut_lanes(eng)
        elif not (eng.level >= EXPERT and eng.chains and not eng.done() and chain(eng)):
            return


# --- easy and medium: counting at one island -----------------------------------------------------

def local(eng: Engine, i: int, level: int) -> None:
    """Apply the first counting rule at island i that changes something, up to `level`.

    The rules after "fill" are written out here: this runs for every queued island, also in every
    contradiction trial, and a call per rule cost a few per cent of the deducer's time.
    """
    lo, hi = eng.lo, eng.hi
    lanes = eng.lanes_of[i]
    c = eng.clue[i]
    los = eng.los[i]
    if los > c:
        eng.fail(reason(TOO_MANY, eng.who(i)))
        return
    if los == c:
        open_ = [k for k in lanes if hi[k] > lo[k]]
        if open_:
            eng.step("complete", (i,), open_, [(k, lo[k], lo[k]) for k in open_])
        return
    his = 0
    for k in lanes:
        his += hi[k]
    if his < c:
        eng.fail(reason(TOO_FEW, eng.who(i)))
        return
    if his == c:
        eng.step("fill", (i,), lanes, [(k, hi[k], hi[k]) for k in lanes if lo[k] < hi[k]])
        return
    # The lanes island i needs more on whatever its others carry, and whether it needs all its lanes.
    forced: list[Change] = []
    spread = True
    for k in lanes:
        h = hi[k]
        if h:
            need = c - his + h
            if need > lo[k]:
                forced.append((k, need, h))
            if need < 1:
                spread = False
    if forced and spread:
        eng.step("spread", (i,), [k for k in lanes if hi[k]], forced, his)
        return
    # Capacity: cap the lanes of island i at the bridges it still takes.
    room = c - los
    capped = [(k, lo[k], lo[k] + room) for k in lanes if hi[k] > lo[k] + room]
    if capped:
        eng.step("capacity", (i,), [k for k, _, _ in capped], capped, los)
    elif level >= MEDIUM:
        if forced:
            eng.step("needs", (i,), lanes, forced, his)
        else:
            _pair(eng, i)


def _pair(eng: Engine, i: int) -> None:
    """Keep a 1 or 2 from closing itself and an equal neighbour off with its last bridges."""
    lo, hi, c, los = eng.lo, eng.hi, eng.clue[i], eng.los[i]
    if c > 2 or eng.n <= 2:
        return
    for k in eng.lanes_of[i]:
        j = eng.other(k, i)
        if hi[k] >= c and eng.clue[j] == c and los == lo[k] and eng.los[j] == lo[k]:
            eng.step("pair", (i, j), (k,), [(k, lo[k], c - 1)])
            return


# --- hard: one-lane trials with their immediate consequences -------------------------------------

def hard(eng: Engine, i: int) -> None:
    """Try one more bridge (and the most bridges) on each open lane of island i; exclude failures."""
    lo, hi = eng.lo, eng.hi
    for k in eng.lanes_of[i]:
        if lo[k] < hi[k]:
            for v in ((lo[k] + 1, hi[k]) if hi[k] > lo[k] + 1 else (hi[k],)):
                why = trial(eng, k, v)
                if why is not None:
                    tech, islands = why
                    eng.step(tech, islands, (k,), [(k, lo[k], v - 1)], v)
                    return


def trial(eng: Engine, k: int, v: int) -> tuple[str, tuple[int, ...]] | None:
    """Say why lane k cannot carry v bridges, looking one step ahead, with the islands concerned."""
    lo, los, clue = eng.lo, eng.los, eng.clue
    a, b = eng.ea[k], eng.eb[k]
    d = v - lo[k]
    la, lb = los[a] + d, los[b] + d
    if la > clue[a]:
        return "impossible", (a,)
    if lb > clue[b]:
        return "impossible", (b,)
    if la == clue[a] and lb == clue[b] and eng.n > 2:
        group = closed_group(eng, k, a, b)
        if group is not None:
            return "isolation", group
    short = _short_island(eng, k, d, la, lb)
    return None if short is None else ("impossible", (short,))


def _short_island(eng: Engine, k: int, d: int, la: int, lb: int) -> int | None:
    """An island that could no longer get all its bridges once lane k carries d more, if any."""
    lo, hi, los, clue, xor = eng.lo, eng.hi, eng.los, eng.clue, eng.xor
    a, b = eng.ea[k], eng.eb[k]
    closed = [c for c in eng.cross[k] if hi[c] > 0] if lo[k] == 0 else []
    stale, known = eng.stale, eng.reach
    for j, most in _reach_losses(eng, k, d, closed).items():
        # reach(eng, j) without the call when its cached value is current: trials ask it most often.
        if j in (a, b) or (reach(eng, j) if stale[j] else known[j]) - most >= clue[j]:
            continue
        total = 0
        for m in eng.lanes_of[j]:
            h = hi[m]
            if h == 0 or m in closed:
                continue
            o = xor[m] ^ j
            cap = clue[o] - (la if o == a else lb if o == b else los[o]) + lo[m]
            total += h if h < cap else cap
        if total < clue[j]:
            return j
    return None


def _reach_losses(eng: Engine, k: int, d: int, closed: list[int]) -> dict[int, int]:
    """Bound each nearby island's loss of reach when lane k carries d more (most trials change little)."""
    hi, xor = eng.hi, eng.xor
    loss: dict[int, int] = {}
    for c in closed:
        loss[eng.ea[c]] = loss.get(eng.ea[c], 0) + hi[c]
        loss[eng.eb[c]] = loss.get(eng.eb[c], 0) + hi[c]
    for e in (eng.ea[k], eng.eb[k]):
        for m in eng.lanes_of[e]:
            if m != k and hi[m]:
                j = xor[m] ^ e
                loss[j] = loss.get(j, 0) + d
    return loss


def reach(eng: Engine, j: int) -> int:
    """The most bridges island j could still get, given its lanes and its neighbours' room."""
    if eng.stale[j]:
        lo, hi, los, clue, xor = eng.lo, eng.hi, eng.los, eng.clue, eng.xor
        total = 0
        for m in eng.lanes_of[j]:
            h = hi[m]
            if h:
                o = xor[m] ^ j
                cap = clue[o] - los[o] + lo[m]
                total += h if h < cap else cap
        eng.reach[j] = total
        eng.stale[j] = 0
    return eng.reach[j]


def closed_group(eng: Engine, k: int, a: int, b: int) -> tuple[int, ...] | None:
    """Return the islands cut off if lane k joins complete a and b and all their group is complete."""
    lo, los, clue = eng.lo, eng.los, eng.clue
    seen = {a, b}
    todo = [a, b]
    while todo:
        i = todo.pop()
        if i != a and i != b and los[i] != clue[i]:
            return None
        for m in eng.lanes_of[i]:
            if lo[m] or m == k:
                j = eng.other(m, i)
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
    return tuple(sorted(seen)) if len(seen) < eng.n else None


# --- expert: whole-board connectivity and contradiction chains -----------------------------------

def cut_lanes(eng: Engine) -> None:
    """Every lane whose loss would split the islands must carry a bridge; a split board fails."""
    cuts = _bridge_lanes(eng)
    if cuts is None:
        eng.fail(reason(SPLIT))
        return
    for m, v in cuts:
        if eng.broken is not None or eng.stopped:
            return
        if eng.lo[m] == 0:
            side = _side(eng, m, v) if eng.explain else ()
            eng.step("only-way-out", side, (m,), [(m, 1, eng.hi[m])])


def _bridge_lanes(eng: Engine) -> list[tuple[int, int]] | None:
    """The open lanes whose loss would split the islands (each with its far island), by depth-first search.

    None when the islands are already split. Tarjan's bridge finding, iterative to spare the stack;
    the island being visited and its lowest reach stay in local variables, only the islands above it
    on the stack.
    """
    hi, lo, xor, lanes_of = eng.hi, eng.lo, eng.xor, eng.lanes_of
    n = eng.n
    disc = [-1] * n
    low = [0] * n
    disc[0] = 0
    t = 1
    cuts = []
    stack: list[tuple[int, int, Iterator[int]]] = []
    v, pl, it = 0, -1, iter(lanes_of[0])
    lv = 0  # low[v] while v is visited
    while True:
        for m in it:
            if not hi[m] or m == pl:
                continue
            w = xor[m] ^ v
            seen = disc[w]
            if seen < 0:
                low[v] = lv
                stack.append((v, pl, it))
                disc[w] = lv = t
                t += 1
                v, pl, it = w, m, iter(lanes_of[w])
                break
            if seen < lv:
                lv = seen
        else:
            if not stack:
                break
            # v is done: its parent u reaches at least as low, and lane pl is a bridge when v's
            # subtree reaches nothing above u.
            child, lane = v, pl
            v, pl, it = stack.pop()
            reached = lv
            lv = low[v]
            if reached < lv:
                lv = reached
            if reached > disc[v] and lo[lane] == 0:
                cuts.append((lane, child))
    return None if t < n else cuts


def _side(eng: Engine, k: int, start: int) -> tuple[int, ...]:
    """Return the smaller group of islands that lane k alone links to the rest."""
    seen = {start}
    todo = [start]
    while todo:
        i = todo.pop()
        for m in eng.lanes_of[i]:
            if m != k and eng.hi[m]:
                j = eng.other(m, i)
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
    if 2 * len(seen) > eng.n:
        seen = set(range(eng.n)) - seen
    return tuple(sorted(seen))


def chain(eng: Engine) -> bool:
    """Assume a lane value, propagate with the lower levels, and reject it on a contradiction."""
    lo, hi = eng.lo, eng.hi
    m = len(lo)
    for t in range(m):
        k = (eng.chain_pos + t) % m
        if lo[k] == hi[k]:
            continue
        for assume, concl in chain_trials(k, lo[k], hi[k]):
            broken = _refuted(eng, k, assume)
            if broken is not None:
                eng.chain_pos = k
                eng.step("contradiction", (eng.ea[k], eng.eb[k]), (k,), [concl], assumption=(assume, broken))
                return True
    return False


def _refuted(eng: Engine, k: int, assume: Change) -> str | None:
    """Propagate an assumption on lane k with the lower rungs; the contradiction it meets, if any."""
    child = Engine(eng.board, MEDIUM, eng.lo[:], eng.hi[:], explain=False, sweep=False, chains=False,
                   global_check=True, queue_all=False, los=eng.los[:])
    child.checked = True
    child.step("contradiction", (), (k,), [assume])
    run(child)
    return child.broken


def chain_trials(k: int, lo: int, hi: int) -> list[tuple[Change, Change]]:
    """The assumptions to try on lane k, each with the conclusion its failure gives."""
    trials = [((k, lo, lo), (k, lo + 1, hi)), ((k, lo + 1, hi), (k, lo, lo))]
    if hi - lo == 2:
        trials += [((k, hi, hi), (k, lo, hi - 1)), ((k, lo, hi - 1), (k, hi, hi))]
    return trials
