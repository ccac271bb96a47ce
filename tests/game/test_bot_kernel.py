"""The C search kernel against the pure Python one: the same values and moves, bit for bit, and bad
arguments refused with ValueError instead of read out of bounds."""

from __future__ import annotations

import random
from itertools import cycle, islice

import pytest

from hashi_print.game import bots, botsearch
from hashi_print.game.bots import (
    GREEDY_OUTLOOK,
    StrongParams,
    kernel_args,
    numeral_choices,
    strong_outlook,
    tables_of,
)
from tests.game.test_bots import random_states

NATIVE = bots.search_class()
pytestmark = pytest.mark.skipif(NATIVE is botsearch.Search,
                                reason="the C kernel is not built (scripts/build_native_bots.py)")

# Every goal model the kernel knows, and the greedy bot's fixed outlook.
PARAMS = [StrongParams(), StrongParams(goal_model="chance"), StrongParams(goal_model="progress"), None]


def positions(games: int, seed: int):
    """(state, card, tables, outlook, goal values) on positions of random play, the outlook and the goals
    still open taking turns."""
    bonuses = cycle([(5.0, 6.0, 8.0), (0.0, 6.0, 8.0), (5.0, 0.0, 0.0), (0.0, 0.0, 8.0)])
    params = cycle(PARAMS)
    for state, card, context in random_states(games, seed):
        p = next(params)
        out = GREEDY_OUTLOOK if p is None else strong_outlook(state, card, context, p)
        yield state, card, context.tables, out, next(bonuses)


def position_lists(state) -> tuple[list[int], list[int], list[int]]:
    """Numerals (0 for none), bridges per lane and bridges per island of a state, as the kernel reads them."""
    return [v or 0 for v in state.numerals], list(state.bridges), list(state.counts)


def test_the_c_kernel_values_every_position_as_the_pure_one_to_the_last_bit():
    compared = 0
    for state, _, t, out, bonus in positions(12, 3):
        num, br, cnt = position_lists(state)
        bridged = [k for k, b in enumerate(br) if b]
        blocks = bots._blocks(br, t)
        args = kernel_args(t, out, 2.0, bonus)
        pure = botsearch.Search(*args).value(num, br, cnt, blocks, bridged)
        native = NATIVE(*args).value(num, br, cnt, blocks, bridged)
        assert native.hex() == pure.hex(), (state, out.goal_model, bonus)
        compared += 1
    assert compared == 12 * 17


def test_the_c_kernel_finds_the_pure_ones_best_move_on_every_position():
    searches = cycle([(6, 3, False), (4, 1, False), (6, 3, True), (2, 5, True)])
    moved = 0
    for state, card, t, out, bonus in islice(positions(8, 11), 0, None, 2):
        num, br, cnt = position_lists(state)
        choices = numeral_choices(num, cnt, card, t)
        numerals, width, partial = next(searches)
        args = kernel_args(t, out, 2.0, bonus)
        call = (card.numeral, card.bridges, choices, numerals, width, partial)
        pure = botsearch.Search(*args).best(list(num), list(br), list(cnt), *call)
        native = NATIVE(*args).best(num, br, cnt, *call)
        assert native == pure, (state, card, out.goal_model, bonus, numerals, width, partial)
        # The position handed in is left as it was.
        assert (num, br, cnt) == position_lists(state)
        moved += bool(pure[1])
    assert moved > 10  # positions where bridges were placed, not only skips


@pytest.fixture
def args():
    """A Search's arguments on the fixture side, with the greedy outlook."""
    state, _, context = next(random_states(1, 5))
    return list(kernel_args(tables_of(context.side), GREEDY_OUTLOOK, 2.0, (5.0, 6.0, 8.0))), state


@pytest.mark.parametrize("change, message", [
    (lambda a: a.__setitem__(1, a[1][:-1]), "ends_b"),
    (lambda a: a.__setitem__(0, [99] + a[0][1:]), "ends_a: 99 is out of range"),
    (lambda a: a.__setitem__(2, [[10_000]] + a[2][1:]), "crossings"),
    (lambda a: a.__setitem__(4, a[4][:-1]), "adj_other"),
    (lambda a: a.__setitem__(8, a[8][:5]), "p_need: 5 items, expected 13"),
    (lambda a: a.__setitem__(6, [-1]), "red: -1 is out of range"),
])
def test_a_search_set_up_with_bad_tables_is_refused(args, change, message):
    a, _ = args
    change(a)
    with pytest.raises(ValueError, match=message):
        NATIVE(*a)


def test_a_move_asked_on_a_bad_position_is_refused(args):
    a, state = args
    search = NATIVE(*a)
    num, br, cnt = position_lists(state)
    with pytest.raises(ValueError, match="num: 17 items, expected 18"):
        search.best(num[:-1], br, cnt, 3, 2, [0], 6, 3, False)
    with pytest.raises(ValueError, match="num: 40 is out of range"):
        search.best([40] + num[1:], br, cnt, 3, 2, [0], 6, 3, False)
    with pytest.raises(ValueError, match="br: 3 is out of range"):
        search.best(num, [3] + br[1:], cnt, 3, 2, [0], 6, 3, False)
    with pytest.raises(ValueError, match="choices: 18 is out of range"):
        search.best(num, br, cnt, 3, 2, [18], 6, 3, False)
    with pytest.raises(ValueError, match="out of range"):
        search.best(num, br, cnt, 3, 1000, [0], 6, 3, False)
    with pytest.raises(ValueError, match="bridged: more lanes"):
        search.value(num, br, cnt, [0] * len(br), list(range(len(br))) * 2)
    with pytest.raises(TypeError, match="not set up"):
        NATIVE.__new__(NATIVE).best(num, br, cnt, 3, 2, [0], 6, 3, False)


def test_the_kernels_agree_on_random_tables_and_positions_or_both_refuse():
    # Tables no board has (any lane anywhere, islands with five lanes, positions whose counts disagree
    # with their bridges): the C kernel must still move as the pure one, or refuse where it fails.
    rng = random.Random(2)

    def ints(count: int, high: int) -> list[int]:
        return [rng.randint(0, high) for _ in range(count)]

    agreed = refused = 0
    for _ in range(5000):
        n, lanes = rng.randint(2, 10), rng.randint(1, 14)
        adj_lane = [ints(rng.randint(0, 5), lanes - 1) for _ in range(n)]
        crossings = [ints(rng.randint(0, 3), lanes - 1) for _ in range(lanes)]
        args = (ints(lanes, n - 1), ints(lanes, n - 1), crossings,
                adj_lane, [ints(len(a), n - 1) for a in adj_lane], [rng.random() < 0.3 for _ in range(n)],
                ints(rng.randint(1, 3), n - 1), ints(rng.randint(1, 3), n - 1),
                [rng.random() for _ in range(13)], [rng.random() for _ in range(13)], (0.1, 0.2), 1.0,
                [rng.random() * 3 for _ in range(13)],
                rng.random() * 10, rng.choice(["soft", "progress", "chance"]), 0.8, 2.0, 1.0,
                (rng.choice([0.0, 5.0]), rng.choice([0.0, 6.0]), rng.choice([0.0, 8.0])))
        num = [rng.choice([0, 0, rng.randint(1, 12)]) for _ in range(n)]
        br, cnt = ints(lanes, 2), ints(n, rng.choice([2, 6, 12]))
        call = (rng.randint(1, 6), rng.randint(0, 4), ints(rng.randint(0, 3), n - 1), rng.randint(0, 6),
                rng.randint(0, 4), rng.random() < 0.5)
        try:
            pure = botsearch.Search(*args).best(list(num), list(br), list(cnt), *call)
        except (IndexError, ZeroDivisionError):
            with pytest.raises(ValueError, match="more bridges at an island"):
                NATIVE(*args).best(num, br, cnt, *call)
            refused += 1
            continue
        assert NATIVE(*args).best(num, br, cnt, *call) == pure, (args, num, br, cnt, call)
        agreed += 1
    assert agreed > 4800 and refused > 0
