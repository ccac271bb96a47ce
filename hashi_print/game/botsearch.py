"""The greedy and strong bots' search on flat lists: position values, the bridge beam, the best move.

hashi_print.game.bots builds a `Search` per move from the side's tables and the bot's outlook. This
module imports nothing of the package and is the reference: `_botsearch_native.c` is the same search
in C, compiled when the package is installed (setup.py, or `scripts/build_native_bots.py` in a
checkout), which bots.py loads only when it was built beside this very file. Every float is computed
by the same operations in the same order in both, so that the moves are the same
(tests/game/test_bot_replay.py): float powers are math.pow (C's pow), and sums are loops from 0.0 in
a fixed order (what sum() computes on Python 3.11). Change the two together.
"""

from __future__ import annotations

import math
from typing import Final

ROOM_FREE: Final = 99
NO_ISLAND: Final = -1
# What an island waits for (`Search.kind`), besides the bridges an open one misses (1 and more): nothing
# (circled), nothing it can get (dead), or a numeral (BARE minus its bridges).
CIRCLED: Final = 0
DEAD: Final = -1
BARE: Final = -2


class Search:
    """One move's search: the side's tables, the outlook's chances and the goals' values, bound once.

    A position is four lists: numerals per island (0 for none), bridges per lane, bridges per island,
    and per lane how many bridged lanes cross it; `bridged` lists the lanes that hold a bridge.
    """

    def __init__(self, ends_a: list[int], ends_b: list[int], crossings: list[list[int]],
                 adj_lane: list[list[int]], adj_other: list[list[int]], flagged: list[bool],
                 red: list[int], blue: list[int], p_need: list[float], p_bare: list[float],
                 p_empty: tuple[float, float], dead: float, supply: list[float], ends_supply: float,
                 model: str, weight: float, power: float, per: float,
                 bonus: tuple[float, float, float]) -> None:
        self.n = len(adj_lane)
        self.identity = list(range(self.n))
        self.ends_a = ends_a
        self.ends_b = ends_b
        self.crossings = crossings
        self.adj_lane = adj_lane
        self.adj_other = adj_other
        self.p_need = p_need
        self.p_bare = p_bare
        self.empty = [p_empty[1] if f else p_empty[0] for f in flagged]
        self.dead = dead
        self.supply = supply
        self.ends_supply = ends_supply
        self.strict = model == "progress"
        self.soft = model == "soft"
        self.weight = weight
        self.power = power
        self.per = per
        self.red = red
        self.red_value = bonus[0]
        self.blue = blue
        self.blue_value = bonus[1]
        self.six = bonus[2]
        # Per island, what it waits for and its chance as `value` last found them, and the running sums
        # of `expected_group`: one list each for every position, not new ones.
        self.kind = [0] * self.n
        self.chance = [0.0] * self.n
        self.expected = [0.0] * self.n

    def value(self, num: list[int], br: list[int], cnt: list[int], blocks: list[int],
              bridged: list[int]) -> float:
        """Value of a position: circled points, chances of future circles, goals and their chances.

        Each island's chance of being circled at the end: 1 when circled, `p_need[missing]` when open
        and still completable (a numbered island that cannot get its bridges costs `dead`),
        `p_bare[bridges]` or `p_empty` when unnumbered; scaled down where the cards left cannot serve
        every island that waits for them. The value is `per` times their sum, plus each goal's value
        when reached or the outlook's share of it.
        """
        adj_lane = self.adj_lane
        adj_other = self.adj_other
        # First what each island waits for, then (in `chances`) its chance, once the shares are known.
        kind = self.kind
        wanting = [0] * 13
        open_need = 0
        total = 0.0
        circled = 0
        for i, v in enumerate(num):
            c = cnt[i]
            if not v:
                if c:
                    wanting[c] = wanting[c] + 1
                kind[i] = BARE - c
                continue
            if c == v:
                kind[i] = CIRCLED
                circled += 1
                continue
            # Can the island still get the bridges it needs over its open lanes, given its neighbours'
            # room? (Counted only until it reaches the need.)
            need = v - c
            avail = 0
            others = adj_other[i]
            for pos, k in enumerate(adj_lane[i]):
                b = br[k]
                if blocks[k] or b == 2:
                    continue
                o = others[pos]
                vo = num[o]
                room = vo - cnt[o] if vo else ROOM_FREE
                if room > 0:
                    avail += 2 - b if 2 - b < room else room
                    if avail >= need:
                        break
            if avail < need:
                total -= self.dead
                kind[i] = DEAD
            else:
                kind[i] = need
                open_need += need
        total += self.per * self.chances(wanting, open_need)
        chance = self.chance
        if self.red_value:
            total += self.colour(self.red, self.red_value, num, cnt, chance)
        if self.blue_value:
            total += self.colour(self.blue, self.blue_value, num, cnt, chance)
        if self.six:
            total += self.six_value(num, cnt, bridged, chance, circled)
        return total

    def chances(self, wanting: list[int], open_need: int) -> float:
        """Fill `chance` from `kind` (see `value`) and return their sum, in island order.

        `wanting[c]` counts the unnumbered islands with c bridges, which wait for the numeral c, and
        `open_need` the bridges the open islands miss.
        """
        chance = self.chance
        p_need = self.p_need
        p_bare = self.p_bare
        empty = self.empty
        supply = self.supply
        # The open islands may want more bridge ends than the cards left are likely to bring (x * 1.0
        # is x, exactly).
        scale = self.ends_supply / open_need if open_need > self.ends_supply else 1.0
        circles = 0.0
        for i, w in enumerate(self.kind):
            if w > 0:
                ch = p_need[w] * scale
            elif w == CIRCLED:
                ch = 1.0
            elif w == DEAD:
                ch = 0.0
            elif w == BARE:
                ch = empty[i]
            else:
                c = BARE - w
                ch = p_bare[c]
                if wanting[c] > supply[c]:
                    # Several islands wait for the same numeral: the cards left cannot serve them all.
                    ch = ch * (supply[c] / wanting[c])
            chance[i] = ch
            # Summed from 0.0 in island order, as sum() does.
            circles += ch
        return circles

    def colour(self, flagged: list[int], value: float, num: list[int], cnt: list[int],
               chance: list[float]) -> float:
        """A colour goal: its value when every flag of that colour is circled, else the outlook's share."""
        done = 0
        for i in flagged:
            v = num[i]
            if v and cnt[i] == v:
                done += 1
        size = len(flagged)
        if done == size:
            return value
        if self.strict:
            return self.weight * value * math.pow(done / size, 2.0)
        if self.soft:
            # Summed from 0.0 in the flags' order, as sum() does, but on native floats.
            picked = 0.0
            for i in flagged:
                picked += chance[i]
            return self.weight * value * math.pow(picked / size, self.power)
        p = 1.0
        for i in flagged:
            p *= chance[i]
        return self.weight * value * p

    def six_value(self, num: list[int], cnt: list[int], bridged: list[int], chance: list[float],
                  circled: int) -> float:
        """The six-group goal: its value when reached, else a share for the best bridged group."""
        if self.strict or circled >= 6:
            largest = self.circled_group(num, cnt, bridged)
            if circled >= 6 and largest >= 6:
                return self.six
            if self.strict:
                return self.weight * self.six * math.pow(largest / 6, 2.0)
        reach = self.expected_group(chance, bridged) / 6
        if reach > 1.0:
            reach = 1.0
        return self.weight * self.six * math.pow(reach, 3.0)

    def circled_group(self, num: list[int], cnt: list[int], bridged: list[int]) -> int:
        """The size of the largest group of circled islands joined by bridges."""
        n = self.n
        ends_a = self.ends_a
        ends_b = self.ends_b
        # Union-find; a root is its group's first island, so in island order it is found first.
        parent = self.identity.copy()
        for k in bridged:
            a = ends_a[k]
            b = ends_b[k]
            va = num[a]
            vb = num[b]
            if va and vb and cnt[a] == va and cnt[b] == vb:
                while parent[a] != a:
                    a = parent[a]
                while parent[b] != b:
                    b = parent[b]
                if a < b:
                    parent[b] = a
                elif b < a:
                    parent[a] = b
        sizes = [0] * n
        largest = 0
        for i in range(n):
            root = parent[parent[i]]
            parent[i] = root
            v = num[i]
            if v and cnt[i] == v:
                size = sizes[root] + 1
                sizes[root] = size
                if size > largest:
                    largest = size
        return largest

    def expected_group(self, chance: list[float], bridged: list[int]) -> float:
        """The largest sum of chances over a group of islands that may still be circled, joined by
        bridges (each group summed in island order)."""
        ends_a = self.ends_a
        ends_b = self.ends_b
        parent = self.identity.copy()
        joined = False
        for k in bridged:
            a = ends_a[k]
            b = ends_b[k]
            if chance[a] > 0 and chance[b] > 0:
                joined = True
                while parent[a] != a:
                    a = parent[a]
                while parent[b] != b:
                    b = parent[b]
                if a < b:
                    parent[b] = a
                elif b < a:
                    parent[a] = b
        if not joined:
            # Every group is one island, whose sum is its chance (none is negative).
            return max(chance)
        expected = self.expected
        # The largest running sum is the largest group's (no chance is negative): no max() over the list.
        largest = 0.0
        for i, c in enumerate(chance):
            root = parent[parent[i]]
            parent[i] = root
            if c > 0:
                # A group's first island is its root: there its sum starts (0.0 + c is c).
                s = c if root == i else expected[root] + c
                expected[root] = s
                if s > largest:
                    largest = s
        return largest

    def add(self, k: int, br: list[int], cnt: list[int], blocks: list[int], bridged: list[int]) -> None:
        """Add one bridge on lane k, updating counts, crossing blocks and the bridged lanes."""
        b = br[k]
        if not b:
            bridged.append(k)
            for j in self.crossings[k]:
                blocks[j] = blocks[j] + 1
        br[k] = b + 1
        a = self.ends_a[k]
        cnt[a] = cnt[a] + 1
        o = self.ends_b[k]
        cnt[o] = cnt[o] + 1

    def remove(self, k: int, br: list[int], cnt: list[int], blocks: list[int], bridged: list[int]) -> None:
        """Take back the last bridge added on lane k (the reverse of `add`)."""
        b = br[k] - 1
        br[k] = b
        a = self.ends_a[k]
        cnt[a] = cnt[a] - 1
        o = self.ends_b[k]
        cnt[o] = cnt[o] - 1
        if not b:
            # Bridges are taken back in the reverse order of `add`, so k is the last lane bridged.
            bridged.pop()
            for j in self.crossings[k]:
                blocks[j] = blocks[j] - 1

    def beam(self, num: list[int], br: list[int], cnt: list[int], blocks: list[int], bridged: list[int],
             bridges: int, width: int, partial: bool) -> list[tuple[float, tuple[int, ...]]]:
        """Place `bridges` bridges one at a time keeping the `width` best sequences; return complete ones
        (every kept one when `partial`), best first.

        Each kept sequence (a sorted lane tuple) is played on the position in place and taken back.
        """
        ends_a = self.ends_a
        ends_b = self.ends_b
        lanes_all = len(br)
        beam: list[tuple[int, ...]] = [()]
        done: list[tuple[float, tuple[int, ...]]] = []
        for step in range(bridges):
            scored: dict[tuple[int, ...], float] = {}
            for lanes in beam:
                for k in lanes:
                    self.add(k, br, cnt, blocks, bridged)
                for k in range(lanes_all):
                    # One more bridge may go on lane k: under 2, not crossed, a numbered end, room at both.
                    if br[k] >= 2 or blocks[k]:
                        continue
                    a = ends_a[k]
                    o = ends_b[k]
                    va = num[a]
                    vo = num[o]
                    if not (va or vo) or (va and cnt[a] >= va) or (vo and cnt[o] >= vo):
                        continue
                    key = lanes + (k,)
                    if lanes and k < lanes[-1]:
                        # Out of order: sorted, so that one set of lanes has one key.
                        key = tuple(sorted(key))
                    if key in scored:
                        continue
                    self.add(k, br, cnt, blocks, bridged)
                    scored[key] = self.value(num, br, cnt, blocks, bridged)
                    self.remove(k, br, cnt, blocks, bridged)
                for k in reversed(lanes):
                    self.remove(k, br, cnt, blocks, bridged)
            # The best value first, then the lower lanes: sorted on (-value, lanes) pairs, which compare
            # natively (a key function would be called back per item).
            ranked = sorted([(-v, key) for key, v in scored.items()])[:width]
            if partial or step == bridges - 1:
                done.extend((-v, key) for v, key in ranked)
            beam = [key for _, key in ranked]
            if not beam:
                break
        return done

    def best(self, num: list[int], br: list[int], cnt: list[int], numeral: int, bridges: int,
             choices: list[int], numerals: int, width: int, partial: bool) -> tuple[int, tuple[int, ...]]:
        """The best move: the island for the numeral (NO_ISLAND for none) and the lanes of its bridges.

        The `numerals` best numeral choices (by the value of writing it alone) and no numeral are each
        followed by the bridge beam; the first candidate better than every earlier one by 1e-9 wins.
        """
        blocks = [0] * len(br)
        bridged: list[int] = []
        for k in range(len(br)):
            if br[k]:
                bridged.append(k)
                for j in self.crossings[k]:
                    blocks[j] = blocks[j] + 1
        # The best value first, then the lower island: sorted on (-value, island) pairs.
        ranked: list[tuple[float, int]] = []
        for i in choices:
            num[i] = numeral
            ranked.append((-self.value(num, br, cnt, blocks, bridged), i))
            num[i] = 0
        ranked.sort()
        # A numeral choice's value with no bridge is that option's skip value: kept, not recomputed.
        options = [(NO_ISLAND, self.value(num, br, cnt, blocks, bridged))]
        options += [(i, -v) for v, i in ranked[:numerals]]
        best_value = 0.0
        best: tuple[int, tuple[int, ...]] | None = None
        for choice, skip_value in options:
            if choice != NO_ISLAND:
                num[choice] = numeral
            if best is None or skip_value > best_value + 1e-9:
                best_value, best = skip_value, (choice, ())
            for v, lanes in self.beam(num, br, cnt, blocks, bridged, bridges, width, partial):
                if v > best_value + 1e-9:
                    best_value, best = v, (choice, lanes)
            if choice != NO_ISLAND:
                num[choice] = 0
        assert best is not None
        return best

