"""The rules of the Hashi game: states, moves, legal moves, applying a move, circles, goals and score."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from hashi_print.errors import RuleError
from hashi_print.game.board import BoardSide
from hashi_print.game.deck import CARDS_PLAYED, GOALS, Card
from hashi_print.i18n import N_, _

# The flags in a message (the rules speak the player's language on the web; English elsewhere).
FLAG_NAMES = {"red": N_("red flag"), "blue": N_("blue flag")}

SETUP_VALUES = (3, 4)
SIX_GROUP = 6
MAX_PER_LANE = 2


@dataclass(frozen=True, order=True)
class Move:
    """One player's turn: an optional numeral (island index, value) and the lanes of the bridges drawn.

    A lane listed twice means two bridges on it; an empty tuple means the bridges part was skipped.
    """

    numeral: tuple[int, int] | None = None
    bridges: tuple[int, ...] = ()


@dataclass(frozen=True)
class GameState:
    """One player's sheet after `turn` cards: numerals per island, bridges per lane, goals reached.

    `circled` (islands whose bridge count equals their numeral) and `counts` (bridges touching
    each island) are derived on creation.
    """

    side: BoardSide
    numerals: tuple[int | None, ...]
    bridges: tuple[int, ...]
    turn: int = 0
    goals: tuple[tuple[str, int], ...] = ()
    counts: tuple[int, ...] = field(init=False, compare=False, repr=False)
    circled: frozenset[int] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        """Derive the bridge count of every island and the circled islands."""
        geo = self.side.geometry
        counts = [0] * len(geo.positions)
        for k, n in enumerate(self.bridges):
            if n:
                lane = geo.lanes[k]
                counts[lane.a] += n
                counts[lane.b] += n
        object.__setattr__(self, "counts", tuple(counts))
        object.__setattr__(self, "circled", frozenset(
            i for i, v in enumerate(self.numerals) if v is not None and counts[i] == v))

    def goal_turn(self, goal: str) -> int | None:
        """Return the turn on which `goal` was reached, or None."""
        return next((t for g, t in self.goals if g == goal), None)


def new_game(side: BoardSide, setup: tuple[int, int] | None = None) -> GameState:
    """Start a sheet on `side`, with the setup numeral (island index, 3 or 4) already written."""
    islands = len(side.islands)
    numerals: list[int | None] = [None] * islands
    if setup is not None:
        island, value = setup
        if not 0 <= island < islands:
            raise RuleError(_("setup island {island} does not exist on side {side}").format(
                island=island, side=side.name), rule="setup", where=f"island {island}")
        found = setup_violations(side, island, value)
        if found:
            raise found[0]
        numerals[island] = value
    return GameState(side, tuple(numerals), (0,) * len(side.geometry.lanes))


def setup_violations(side: BoardSide, island: int, value: int) -> list[RuleError]:
    """List the rules a setup numeral breaks: it goes on an unflagged island and is a 3 or a 4."""
    label = side.islands[island].label
    found = []
    flag = side.islands[island].flag
    if flag is not None:
        text = _("the setup numeral goes on an unflagged island; {island} has a {flag}")
        found.append(RuleError(text.format(island=label, flag=_(FLAG_NAMES[flag])),
                               rule="setup", where=f"island {label}"))
    if value not in SETUP_VALUES:
        found.append(RuleError(_("the setup numeral is a 3 or a 4, not {value}").format(value=value),
                               rule="setup", where=f"island {label}"))
    return found


def bridge_count_violation(card: Card, drawn: int, partial: bool = False) -> RuleError | None:
    """Return the broken rule when `card` draws `drawn` bridges: all or none (at most all, if partial)."""
    if drawn and (drawn > card.bridges if partial else drawn != card.bridges):
        text = (_("card {card} draws at most {bridges} bridges, not {drawn}") if partial
                else _("card {card} draws exactly {bridges} bridges or none, not {drawn}"))
        return RuleError(text.format(card=card, bridges=card.bridges, drawn=drawn), rule="bridge-count",
                         where="bridges")
    return None


def six_group_reached(state: GameState) -> bool:
    """Tell whether some connected group of at least six circled islands is joined by bridges."""
    return bool(six_groups(state))


def six_groups(state: GameState) -> list[list[int]]:
    """Return the connected groups of at least six circled islands (bridges between circled islands)."""
    if len(state.circled) < SIX_GROUP:
        return []
    return [g for g in circled_groups(state) if len(g) >= SIX_GROUP]


def circled_groups(state: GameState) -> list[list[int]]:
    """Return the groups of circled islands joined by bridges between circled islands (a lone one too)."""
    geo = state.side.geometry
    circled = state.circled
    lanes = [k for k, n in enumerate(state.bridges)
             if n and geo.lanes[k].a in circled and geo.lanes[k].b in circled]
    # Every island is in some component; those of an uncircled island are single and left out.
    return [g for g in geo.components(lanes) if g[0] in circled]


def earliest_goal_turn(state: GameState, goal: str) -> int:
    """Return the first turn on which `goal` could have been reached, given the islands it needs.

    One numeral is written a turn, plus the setup numeral on one unflagged island before turn 1; a
    flagged island takes its numeral only after a bridge reaches it, so never on turn 1.
    """
    if goal == "six":
        groups = six_groups(state)
        if not groups:
            return CARDS_PLAYED + 1
        # the group that reached six first lies inside one final group: count its unflagged islands
        unflagged = min(SIX_GROUP, max(sum(state.side.islands[i].flag is None for i in g) for g in groups))
        flagged = SIX_GROUP - unflagged
    else:
        unflagged, flagged = 0, len(state.side.flag_sets[goal])
    written = max(unflagged - 1, 0)
    return flagged + written if written else flagged + 1


def goals_met(state: GameState, skip: frozenset[str] | set[str] = frozenset()) -> tuple[str, ...]:
    """Return the goals (in GOALS order, leaving out `skip`) that this state satisfies."""
    met = []
    if state.circled:
        for flag, islands in state.side.flag_sets.items():
            if flag not in skip and islands and islands <= state.circled:
                met.append(flag)
        if "six" not in skip and six_group_reached(state):
            met.append("six")
    return tuple(met)


def _island(side: BoardSide, i: int) -> str:
    """Name an island by its label for where a rule is broken."""
    return f"island {side.islands[i].label}"


def _said(side: BoardSide, i: int) -> str:
    """Name an island by its label in a message, in the current language."""
    return _("island {label}").format(label=side.islands[i].label)


def _lane(side: BoardSide, k: int) -> str:
    """Name a lane by its end labels for messages."""
    return f"lane {side.lane_name(k)}"


def move_violations(state: GameState, card: Card, move: Move, partial: bool = False) -> list[RuleError]:
    """List every rule `move` breaks when played with `card` on `state` (empty when legal)."""
    side = state.side
    geo = side.geometry
    found: list[RuleError] = []
    numerals = list(state.numerals)
    if move.numeral is not None:
        found.extend(_numeral_violations(state, card, move.numeral))
        island, value = move.numeral
        if 0 <= island < len(numerals) and numerals[island] is None:
            numerals[island] = value
    count = bridge_count_violation(card, len(move.bridges), partial)
    if count is not None:
        found.append(count)
    added: dict[int, int] = {}
    for k in move.bridges:
        if not 0 <= k < len(geo.lanes):
            found.append(RuleError(_("there is no lane {lane} on side {side}").format(lane=k, side=side.name),
                                   rule="bridge-no-lane", where=f"lane {k}"))
            continue
        added[k] = added.get(k, 0) + 1
    for k in sorted(added):
        lane = geo.lanes[k]
        if numerals[lane.a] is None and numerals[lane.b] is None:
            found.append(RuleError(_("a bridge on lane {lane} needs a numeral on at least one end").format(
                lane=side.lane_name(k)), rule="bridge-needs-numbered-end", where=_lane(side, k)))
        total = state.bridges[k] + added[k]
        if total > MAX_PER_LANE:
            found.append(RuleError(_("lane {lane} would hold {total} bridges; at most 2").format(
                lane=side.lane_name(k), total=total), rule="lane-max-two", where=_lane(side, k)))
        for j in geo.crossings[k]:
            if state.bridges[j] or (j in added and j < k):
                text = _("lane {lane} crosses the bridge on {other}")
                found.append(RuleError(text.format(lane=side.lane_name(k), other=side.lane_name(j)),
                                       rule="bridge-crossing", where=_lane(side, k)))
    extra: dict[int, int] = {}
    for k, n in added.items():
        lane = geo.lanes[k]
        extra[lane.a] = extra.get(lane.a, 0) + n
        extra[lane.b] = extra.get(lane.b, 0) + n
    for i in sorted(extra):
        if i in state.circled:
            found.append(RuleError(_("{island} is circled and takes no more bridges").format(
                island=_said(side, i)), rule="circled-full", where=_island(side, i)))
        elif (numeral := numerals[i]) is not None and state.counts[i] + extra[i] > numeral:
            text = _("{island} would have {count} bridges, more than its numeral {numeral}")
            found.append(RuleError(text.format(island=_said(side, i), count=state.counts[i] + extra[i],
                                               numeral=numeral),
                                   rule="island-over-numeral", where=_island(side, i)))
    return found


def _numeral_violations(state: GameState, card: Card, numeral: tuple[int, int]) -> list[RuleError]:
    """List the rules broken by writing `numeral` (island index, value) with `card`."""
    side = state.side
    island, value = numeral
    if not 0 <= island < len(state.numerals):
        text = _("there is no island {island} on side {side}")
        return [RuleError(text.format(island=island, side=side.name), rule="numeral-no-island",
                          where=f"island {island}")]
    where, said = _island(side, island), _said(side, island)
    found = []
    if value != card.numeral:
        found.append(RuleError(_("card {card} writes a {numeral}, not a {value}").format(
            card=card, numeral=card.numeral, value=value), rule="numeral-card", where=where))
    if state.numerals[island] is not None:
        found.append(RuleError(_("{island} already has the numeral {numeral}").format(
            island=said, numeral=state.numerals[island]), rule="numeral-taken", where=where))
        return found
    flag = side.islands[island].flag
    if flag is not None and state.counts[island] == 0:
        text = _("{island} has a {flag} and no bridge yet, so it cannot take a numeral")
        found.append(RuleError(text.format(island=said, flag=_(FLAG_NAMES[flag])),
                               rule="numeral-flag-needs-bridge", where=where))
    if value < state.counts[island]:
        text = _("{island} already has {count} bridges; the numeral {value} would be below them")
        found.append(RuleError(text.format(island=said, count=state.counts[island], value=value),
                               rule="numeral-below-bridges", where=where))
    return found


def check_move(state: GameState, card: Card, move: Move, partial: bool = False) -> None:
    """Raise the first RuleError `move` breaks, or return if it is legal."""
    found = move_violations(state, card, move, partial)
    if found:
        raise found[0]


def apply(state: GameState, card: Card, move: Move, partial: bool = False, *,
          check: bool = True) -> GameState:
    """Play `move` with `card` and return the next state (circles and goals updated).

    `check=False` skips the rule check, for callers whose moves come from `legal_moves`.
    """
    if check:
        check_move(state, card, move, partial)
    numerals = state.numerals
    if move.numeral is not None:
        island, value = move.numeral
        numerals = numerals[:island] + (value,) + numerals[island + 1:]
    bridges = state.bridges
    if move.bridges:
        lanes = list(bridges)
        for k in move.bridges:
            lanes[k] += 1
        bridges = tuple(lanes)
    return _with_goals(GameState(state.side, numerals, bridges, state.turn + 1, state.goals))


def _with_goals(state: GameState) -> GameState:
    """Record, at this state's turn, any goal it meets that was not reached before."""
    have = {g for g, _ in state.goals}
    if len(have) == len(GOALS):
        return state
    new = tuple((g, state.turn) for g in goals_met(state, have))
    if not new:
        return state
    return GameState(state.side, state.numerals, state.bridges, state.turn, state.goals + new)


def with_goals(state: GameState) -> GameState:
    """Return `state` with every goal it meets recorded (at its own turn when not already recorded)."""
    return _with_goals(state)


def legal_moves(state: GameState, card: Card, partial: bool = False) -> list[Move]:
    """Return every legal move for `card`, each once (bridge multisets sorted by lane)."""
    side = state.side
    moves: list[Move] = []
    choices: list[tuple[int, int] | None] = [None]
    for i, v in enumerate(state.numerals):
        if v is None and card.numeral >= state.counts[i] and (
                side.islands[i].flag is None or state.counts[i] > 0):
            choices.append((i, card.numeral))
    sizes = range(card.bridges + 1) if partial else (0, card.bridges)
    for choice in choices:
        numerals = state.numerals
        if choice is not None:
            numerals = numerals[:choice[0]] + (choice[1],) + numerals[choice[0] + 1:]
        for lanes in _bridge_sets(state, numerals, sizes):
            moves.append(Move(choice, lanes))
    return moves


def _bridge_sets(state: GameState, numerals: tuple[int | None, ...],
                 sizes: Iterable[int]) -> list[tuple[int, ...]]:
    """Enumerate the legal bridge multisets of the given sizes, lanes in non-decreasing order."""
    geo = state.side.geometry
    lanes = geo.lanes
    room = [(-1 if i in state.circled else (99 if v is None else v - state.counts[i]))
            for i, v in enumerate(numerals)]
    # Lanes usable at all this turn: a numbered end, room at both ends, under 2, not crossing a bridge.
    blocked = [False] * len(lanes)
    for k, n in enumerate(state.bridges):
        if n:
            for j in geo.crossings[k]:
                blocked[j] = True
    usable = [k for k, lane in enumerate(lanes)
              if not blocked[k] and state.bridges[k] < MAX_PER_LANE
              and (numerals[lane.a] is not None or numerals[lane.b] is not None)
              and room[lane.a] > 0 and room[lane.b] > 0]
    wanted = set(sizes)
    most = max(wanted) if wanted else 0
    out: list[tuple[int, ...]] = []
    chosen: list[int] = []
    on_lane = [0] * len(lanes)
    block_count = [0] * len(lanes)

    def grow(start: int) -> None:
        """Extend `chosen` with lanes from usable[start:], recording every wanted size."""
        if len(chosen) in wanted:
            out.append(tuple(chosen))
        if len(chosen) == most:
            return
        for pos in range(start, len(usable)):
            k = usable[pos]
            lane = lanes[k]
            if (block_count[k] or state.bridges[k] + on_lane[k] >= MAX_PER_LANE
                    or room[lane.a] <= 0 or room[lane.b] <= 0):
                continue
            chosen.append(k)
            on_lane[k] += 1
            room[lane.a] -= 1
            room[lane.b] -= 1
            if on_lane[k] == 1:
                for j in geo.crossings[k]:
                    block_count[j] += 1
            grow(pos)
            if on_lane[k] == 1:
                for j in geo.crossings[k]:
                    block_count[j] -= 1
            room[lane.a] += 1
            room[lane.b] += 1
            on_lane[k] -= 1
            chosen.pop()

    grow(0)
    return out


def move_text(side: BoardSide, move: Move) -> str:
    """Write a move the way a game record does, e.g. `number D5 bridges D-G D-G`."""
    num = "-" if move.numeral is None else f"{side.islands[move.numeral[0]].label}{move.numeral[1]}"
    bridges = " ".join(side.lane_name(k) for k in sorted(move.bridges)) or "-"
    return f"number {num} bridges {bridges}"
