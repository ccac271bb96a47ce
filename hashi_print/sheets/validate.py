"""Rule-by-rule validation of finished sheets and game records, every violation with its line."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from hashi_print.game.board import BoardSide
from hashi_print.game.deck import CARDS_PLAYED, GOALS, Card, Deck, load_deck
from hashi_print.game.rules import (
    SETUP_VALUES,
    GameState,
    Move,
    apply,
    bridge_count_violation,
    earliest_goal_turn,
    goals_met,
    move_violations,
    setup_violations,
)
from hashi_print.game.scoring import (
    GameScore,
    PlayerScore,
    Score,
    Scoring,
    load_scoring,
    score_game,
    score_sheet,
    winners,
)
from hashi_print.sheets.formats import Line, Record, Sheet, read_sheet

SHEET_UNCHECKED = (
    "numeral-flag-needs-bridge: whether each flagged island had a bridge before its numeral was written",
    "bridge-needs-numbered-end: whether each bridge had a numbered end at the time it was drawn "
    "(only the end of the game is checked)",
    "bridge-count: whether each turn drew exactly its card's bridges or none (only the total is checked)",
    "numeral-card: which card each numeral was written with (only the counts per numeral are checked)",
    "bonus turns: on which turn each goal was reached, and who reached it first",
)


@dataclass(frozen=True)
class Violation:
    """One broken rule: its name, where on the sheet, the input line and turn (None when unknown)."""

    rule: str
    where: str
    line: Line
    message: str
    turn: int | None = None

    def to_json(self) -> dict[str, object]:
        """Return the contract JSON object of this violation."""
        out: dict[str, object] = {"rule": self.rule, "where": self.where, "line": self.line,
                                  "message": self.message}
        if self.turn is not None:
            out["turn"] = self.turn
        return out


@dataclass(frozen=True)
class Report:
    """The outcome of validating one sheet or record, with the final state the validator reached."""

    source: str
    kind: str
    player: str | None
    side: str
    partial: bool
    violations: tuple[Violation, ...]
    unchecked: tuple[str, ...]
    score: Score | None
    state: GameState
    cards: tuple[Card, ...] = ()
    unknown_turns: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """True when no rule is broken."""
        return not self.violations

    def to_json(self) -> dict[str, object]:
        """Return the `validate --json` contract object (with extra keys for the rule set and input)."""
        return {
            "ok": self.ok, "score": self.score.to_json() if self.score is not None else None,
            "violations": [v.to_json() for v in self.violations],
            "unchecked": list(self.unchecked),
            "kind": self.kind, "side": self.side, "player": self.player,
            "rules": {"partial_bridges": self.partial},
            "goals": self.goal_turns(),
        }

    def goal_turns(self) -> dict[str, int | None]:
        """Return each goal reached with its turn, None where the sheet does not say."""
        return {g: None if g in self.unknown_turns else t for g, t in self.state.goals}


def default_deck(path: str | Path | None = None) -> Deck:
    """Load the deck at `path`, or the designed deck shipped in the package."""
    return load_deck(path)


def default_scoring(path: str | Path | None = None) -> Scoring:
    """Load the scoring at `path`, or the designed scoring shipped in the package."""
    return load_scoring(path)


def validate_file(path: str | Path, layout: BoardSide | None = None, deck: Deck | None = None,
                  scoring: Scoring | None = None, partial: bool = False, solo: bool = False,
                  level: str | None = None) -> Report:
    """Read a sheet or record file and validate it (see `validate`)."""
    return validate(read_sheet(path, layout), deck, scoring, partial, solo, level)


def validate(doc: Sheet | Record, deck: Deck | None = None, scoring: Scoring | None = None,
             partial: bool = False, solo: bool = False, level: str | None = None) -> Report:
    """Check every rule the input can prove; list what it cannot; score it when it is valid."""
    if isinstance(doc, Record):
        violations, unchecked, state = _validate_record(doc, deck, partial)
    else:
        violations, unchecked, state = _validate_sheet(doc, deck, partial)
    unknown: tuple[str, ...] = ()
    if isinstance(doc, Sheet):
        unchecked = unchecked + tuple(
            f"line {line}: {note} - marked `?` (not sure), so not checkable from this input; "
            f"check it on the paper" for note, line in doc.doubtful)
        claimed = {goal for goal, _, _ in doc.bonus}
        unknown = tuple(goal for goal, _ in state.goals if goal not in claimed)
        unchecked = unchecked + tuple(
            f"bonus {goal}: the sheet reaches it but gives no turn (no `bonus` line), so it takes no "
            f"first in a race{' and scores nothing in solo' if solo else ''}" for goal in unknown)
    score = None
    if not violations and scoring is not None:
        score = score_sheet(state, scoring, solo_side=doc.side.name if solo else None, solo_level=level,
                            unknown=unknown)
    if scoring is None:
        unchecked = unchecked + ("score: no scoring file (layouts/scoring.json missing; "
                                 "pass --scoring FILE)",)
    cards = tuple(t.card for t in doc.turns) if isinstance(doc, Record) else ()
    return Report(doc.source, doc.kind, doc.player, doc.side.name, partial, tuple(violations),
                  unchecked, score, state, cards, unknown)


# --- game records ----------------------------------------------------------------------------

def _validate_record(rec: Record, deck: Deck | None,
                     partial: bool) -> tuple[list[Violation], tuple[str, ...], GameState]:
    """Replay a record turn by turn, reporting every violation and carrying on with the legal parts."""
    side = rec.side
    found: list[Violation] = []
    numerals: list[int | None] = [None] * len(side.islands)
    if rec.setup is None:
        first = rec.turns[0].line if rec.turns else rec.side_line
        found.append(Violation("setup", "setup", first, "the record has no `setup` line (the 3 or 4 "
                                                          "written by the left-hand neighbour)"))
    else:
        island, value, line = rec.setup
        found.extend(Violation(e.rule, e.where, line, e.message)
                     for e in setup_violations(side, island, value))
        numerals[island] = value
    state = GameState(side, tuple(numerals), (0,) * len(side.geometry.lanes))
    left = Counter(deck.cards) if deck is not None else None
    for turn in rec.turns:
        if left is not None:
            if left[turn.card] <= 0:
                found.append(Violation("deck-cards", f"turn {turn.number}", turn.line,
                                       f"card {turn.card} is not in the deck, or all its copies were "
                                       f"already played", turn.number))
            left[turn.card] -= 1
        state = _replay_turn(state, turn.card, turn.numeral, turn.bridges, turn.number, turn.line,
                             partial, found)
    unchecked: tuple[str, ...] = ()
    if deck is None:
        unchecked = ("deck-cards: no deck file (layouts/deck.json missing; pass --deck FILE)",)
    return found, unchecked, state


def _replay_turn(state: GameState, card: Card, numeral: tuple[int, int] | None,
                 pairs: tuple[tuple[int, int], ...], number: int, line: Line, partial: bool,
                 found: list[Violation]) -> GameState:
    """Check one turn, add its violations to `found`, and return the state after its legal parts."""
    side = state.side
    geo = side.geometry
    lanes: list[int] = []
    for a, b in pairs:
        k = geo.lane_between(a, b)
        if k is None:
            name = f"{side.islands[a].label}-{side.islands[b].label}"
            found.append(Violation("bridge-no-lane", f"lane {name}", line,
                                   f"there is no lane {name}: the islands are not neighbours", number))
        else:
            lanes.append(k)
    drawn = len(pairs)
    count = bridge_count_violation(card, drawn, partial)
    if count is not None:
        found.append(Violation(count.rule, count.where, line, count.message, number))
    move = Move(numeral, tuple(sorted(lanes)))
    errors = [e for e in move_violations(state, card, move, partial) if e.rule != "bridge-count"]
    found.extend(Violation(e.rule, e.where, line, e.message, number) for e in errors)
    if not errors and len(lanes) == drawn:
        return apply(state, card, move, partial, check=False)
    if any(e.rule.startswith("numeral-") for e in errors):
        numeral = None
    kept: list[int] = []
    for k in move.bridges:
        trial = Move(numeral, tuple(sorted(kept + [k])))
        if not [e for e in move_violations(state, card, trial, True) if e.rule != "bridge-count"]:
            kept.append(k)
    return apply(state, card, Move(numeral, tuple(sorted(kept))), check=False)


# --- finished sheets -------------------------------------------------------------------------

def _validate_sheet(sheet: Sheet, deck: Deck | None,
                    partial: bool) -> tuple[list[Violation], tuple[str, ...], GameState]:
    """Check everything a finished sheet alone can prove."""
    side = sheet.side
    found: list[Violation] = []
    numerals, num_line = _sheet_numerals(sheet, found)
    bridges, lane_line = _sheet_bridges(sheet, found)
    state = GameState(side, tuple(numerals), tuple(bridges))
    found += _board_checks(state, num_line, lane_line)
    unchecked = list(SHEET_UNCHECKED)
    if sheet.circled is None:
        unchecked.append("circle-mismatch: the sheet lists no `circled` line (circles are computed)")
    else:
        found += _circle_checks(sheet, state)
    played = None
    if deck is None:
        unchecked.append("deck-numerals, bridge-total, cards-crossed: no deck file "
                         "(layouts/deck.json missing; pass --deck FILE)")
    else:
        played = _crossed_cards(sheet, deck, found)
        found += _deck_checks(sheet, state, deck, played, num_line, partial)
    if sheet.cards is None:
        unchecked.append("cards-crossed: the sheet lists no `cards` line")
    turns = len(played) if played is not None and sheet.cards is not None else CARDS_PLAYED
    state = GameState(side, state.numerals, state.bridges, turns, _sheet_goals(sheet, state, turns, found))
    found.sort(key=lambda v: -1 if v.line is None else v.line)
    return found, tuple(unchecked), state


def _sheet_numerals(sheet: Sheet, found: list[Violation]) -> tuple[list[int | None], dict[int, Line]]:
    """Collect the numeral of each island, reporting islands given two numerals."""
    numerals: list[int | None] = [None] * len(sheet.side.islands)
    lines: dict[int, Line] = {}
    for island, value, line in sheet.numerals:
        label = sheet.side.islands[island].label
        if numerals[island] is not None:
            found.append(Violation("numeral-taken", f"island {label}", line,
                                   f"island {label} is given a second numeral "
                                   f"({numerals[island]}, then {value})"))
            continue
        numerals[island] = value
        lines[island] = line
    return numerals, lines


def _sheet_bridges(sheet: Sheet, found: list[Violation]) -> tuple[list[int], dict[int, Line]]:
    """Count the bridges per lane, reporting bridges between islands that are not neighbours."""
    side = sheet.side
    bridges = [0] * len(side.geometry.lanes)
    lines: dict[int, Line] = {}
    reported: set[tuple[int, int, Line]] = set()
    for a, b, line in sheet.bridges:
        k = side.geometry.lane_between(a, b)
        if k is None:
            if (a, b, line) not in reported:
                reported.add((a, b, line))
                name = f"{side.islands[a].label}-{side.islands[b].label}"
                found.append(Violation("bridge-no-lane", f"lane {name}", line,
                                       f"there is no lane {name}: the islands are not neighbours"))
            continue
        bridges[k] += 1
        lines[k] = line
    return bridges, lines


def _board_checks(state: GameState, num_line: dict[int, Line], lane_line: dict[int, Line]) -> list[Violation]:
    """Check lanes, crossings, counts against numerals, flags and numbered ends on the final board."""
    side = state.side
    geo = side.geometry
    found = []
    for k, n in enumerate(state.bridges):
        if not n:
            continue
        name = side.lane_name(k)
        lane = geo.lanes[k]
        if n > 2:
            found.append(Violation("lane-max-two", f"lane {name}", lane_line[k],
                                   f"lane {name} holds {n} bridges; at most 2"))
        for j in geo.crossings[k]:
            if j < k and state.bridges[j]:
                found.append(Violation("bridge-crossing", f"lane {name}", lane_line[k],
                                       f"lane {name} crosses the bridge on {side.lane_name(j)}"))
        if state.numerals[lane.a] is None and state.numerals[lane.b] is None:
            found.append(Violation("bridge-needs-numbered-end", f"lane {name}", lane_line[k],
                                   f"the bridge on {name} has no numeral at either end"))
    for i, value in enumerate(state.numerals):
        if value is None:
            continue
        label = side.islands[i].label
        if state.counts[i] > value:
            found.append(Violation("island-over-numeral", f"island {label}", num_line.get(i),
                                   f"island {label} has {state.counts[i]} bridges, "
                                   f"more than its numeral {value}"))
        flag = side.islands[i].flag
        if flag is not None and state.counts[i] == 0:
            found.append(Violation("flag-no-bridge", f"island {label}", num_line.get(i),
                                   f"island {label} has a {flag} flag and a numeral but no bridge"))
    return found


def _circle_checks(sheet: Sheet, state: GameState) -> list[Violation]:
    """Compare the circles drawn with the islands whose count equals their numeral."""
    side = sheet.side
    drawn = {i: line for i, line in (sheet.circled or ())}
    found = []
    for i in sorted(set(drawn) | state.circled):
        label = side.islands[i].label
        if i in drawn and i not in state.circled:
            value = state.numerals[i]
            why = ("has no numeral" if value is None
                   else f"has {state.counts[i]} bridges for its numeral {value}")
            found.append(Violation("circle-mismatch", f"island {label}", drawn[i],
                                   f"island {label} is circled but {why}"))
        elif i not in drawn:
            found.append(Violation("circle-mismatch", f"island {label}", sheet.circled[-1][1] if sheet.circled
                                   else None, f"island {label} has as many bridges as its numeral "
                                   f"{state.numerals[i]} but is not circled"))
    return found


def _crossed_cards(sheet: Sheet, deck: Deck, found: list[Violation]) -> list[Card]:
    """Return the cards the sheet says were played (all of the deck when it has no `cards` line)."""
    if sheet.cards is None:
        return list(deck.cards)
    seen: set[int] = set()
    played = []
    for pos, line in sheet.cards:
        if pos in seen or pos > len(deck.cards):
            why = "twice" if pos in seen else f"but the strip has {len(deck.cards)} cards"
            found.append(Violation("cards-crossed", f"card {pos}", line, f"card {pos} is crossed off {why}"))
            continue
        seen.add(pos)
        played.append(deck.cards[pos - 1])
    if len(played) > CARDS_PLAYED:
        found.append(Violation("cards-crossed", "cards", sheet.cards[-1][1],
                               f"{len(played)} cards are crossed off; a game plays {CARDS_PLAYED}"))
    return played


def _deck_checks(sheet: Sheet, state: GameState, deck: Deck, played: list[Card],
                 num_line: dict[int, Line], partial: bool) -> list[Violation]:
    """Check the numerals and the bridge total against the cards that can have been played."""
    side = sheet.side
    found = []
    crossed = sheet.cards is not None
    source = "the crossed-off cards" if crossed else "the deck"
    most = min(len(played), CARDS_PLAYED)
    allowed = Counter(c.numeral for c in played)
    written = Counter(v for v in state.numerals if v is not None)
    setups = [v for i, v in enumerate(state.numerals) if v in SETUP_VALUES and side.islands[i].flag is None]
    first_line = min((ln for ln in num_line.values() if ln is not None), default=None)
    if not setups and written:
        found.append(Violation("setup", "numbers", first_line,
                               "no unflagged island has a 3 or 4, so the setup numeral is missing"))
    options = [written - Counter([v]) for v in sorted(set(setups))] or [written]
    excess = min(({v: n - allowed[v] for v, n in opt.items() if n > allowed[v]} for opt in options),
                 key=lambda e: sum(e.values()))
    for value, extra in sorted(excess.items()):
        islands = [i for i, v in enumerate(state.numerals) if v == value]
        line = num_line.get(islands[-1])
        found.append(Violation("deck-numerals", f"numeral {value}", line,
                               f"the sheet has {written[value]} numeral(s) {value}, {extra} more than "
                               f"{source} (and the setup 3 or 4) allow"))
    total_written = sum(written.values()) - (1 if setups else 0)
    if total_written > most and not excess:
        found.append(Violation("deck-numerals", "numbers", first_line,
                               f"{total_written} numerals besides the setup, "
                               f"but only {most} cards are played"))
    total = sum(state.bridges)
    possible = _bridge_totals([c.bridges for c in played], most, partial)
    if total not in possible:
        lines = [ln for ln in (b[2] for b in sheet.bridges) if ln is not None]
        how = "at most" if partial else "a sum of some of"
        found.append(Violation("bridge-total", "bridges", lines[-1] if lines else None,
                               f"{total} bridges cannot come from {most} cards of {source} "
                               f"(the total must be {how} their bridge counts, up to {max(possible)})"))
    return found


def _bridge_totals(counts: list[int], most: int, partial: bool) -> set[int]:
    """Return the bridge totals `most` of these cards can draw (a card draws its count or none)."""
    top = sum(sorted(counts, reverse=True)[:most])
    if partial:
        return set(range(top + 1))
    # reach[n] = totals reachable using exactly n cards
    reach: list[set[int]] = [{0}] + [set() for _ in counts]
    for c in counts:
        for n in range(len(counts) - 1, -1, -1):
            reach[n + 1] |= {s + c for s in reach[n]}
    return set().union(*reach[:most + 1])


def _sheet_goals(sheet: Sheet, state: GameState, turns: int,
                 found: list[Violation]) -> tuple[tuple[str, int], ...]:
    """Return the goals the final sheet meets, at their claimed turns (or the last turn), checking claims."""
    met = set(goals_met(state))
    claimed: dict[str, int] = {}
    for goal, turn, line in sheet.bonus:
        if goal in claimed:
            found.append(Violation("bonus-claim", f"bonus {goal}", line,
                                   f"the {goal} bonus is claimed twice"))
        elif goal not in met:
            found.append(Violation("bonus-claim", f"bonus {goal}", line,
                                   f"the {goal} bonus is claimed but the sheet does not reach that goal"))
        elif turn > turns:
            found.append(Violation("bonus-claim", f"bonus {goal}", line,
                                   f"the {goal} bonus is claimed on turn {turn}, but only {turns} cards "
                                   f"are crossed off"))
        elif turn < (earliest := earliest_goal_turn(state, goal)):
            found.append(Violation("bonus-claim", f"bonus {goal}", line,
                                   f"the {goal} bonus is claimed on turn {turn}, but its islands need one "
                                   f"numeral a turn (a flagged one only after a bridge reaches it): "
                                   f"turn {earliest} is the earliest"))
        else:
            claimed[goal] = turn
    goals = [(g, claimed.get(g, turns)) for g in GOALS if g in met]
    return tuple(sorted(goals, key=lambda gt: (gt[1], GOALS.index(gt[0]))))


# --- reporting and several players -----------------------------------------------------------

def report_lines(report: Report) -> list[str]:
    """Write a report for people: a verdict, one line per violation, the score and what is unchecked."""
    rules = "partial bridges on" if report.partial else "partial bridges off"
    what = "game record" if report.kind == "record" else "finished sheet"
    who = f" ({report.player})" if report.player else ""
    n = len(report.violations)
    verdict = "ok" if report.ok else f"{n} rule{'s' if n != 1 else ''} broken"
    turns = f"{report.state.turn} turn{'s' if report.state.turn != 1 else ''}"
    lines = [f"{report.source}{who}: {verdict} - {what} on side {report.side}, {turns}; rules: {rules}"]
    for v in report.violations:
        at = " ".join(x for x in (f"line {v.line}" if v.line is not None else "",
                                  f"turn {v.turn}" if v.turn is not None else "") if x)
        lines.append(f"  {at + ': ' if at else ''}{v.rule} at {v.where}: {v.message}")
    if report.score is not None:
        lines.append(report.score.text())
    else:
        why = "the sheet breaks a rule" if not report.ok else "no scoring file"
        lines.append(f"score: none ({why})")
    if report.unchecked:
        lines.append("not checkable from this input:")
        lines.extend(f"  {u}" for u in report.unchecked)
    return lines


def score_players(reports: list[Report], scoring: Scoring) -> GameScore:
    """Score several players of one game together, resolving who reached each bonus first.

    Players must share a side; files that break a rule or disagree on the cards are problems.
    """
    from hashi_print.errors import FormatError

    sides = {r.state.side for r in reports}
    if len(sides) > 1:
        raise FormatError("the players of one game share a side; these files use "
                          + ", ".join(sorted({r.side for r in reports})))
    valid = [r.ok for r in reports]
    scores = score_game([r.state for r in reports], scoring, [r.unknown_turns for r in reports], valid)
    players = tuple(PlayerScore(r.source, r.player or Path(r.source).stem, r.ok, len(r.violations),
                                r.goal_turns(), s) for r, s in zip(reports, scores, strict=True))
    problems = [f"{r.source}: {len(r.violations)} rule(s) broken, so it scores no bonus, takes no first "
                f"and cannot win; run `hashi-print validate` on it" for r in reports if not r.ok]
    unchecked = tuple(f"{r.source}: no turn given for {', '.join(r.unknown_turns)} (no `bonus` line), so "
                      f"it takes no first from a player whose turn is known"
                      for r in reports if r.unknown_turns)
    records = [r for r in reports if r.kind == "record"]
    for r in records[1:]:
        for turn, (mine, theirs) in enumerate(zip(r.cards, records[0].cards, strict=False), start=1):
            if mine != theirs:
                problems.append(f"{r.source}: turn {turn} shows card {mine} but {records[0].source} "
                                f"shows {theirs}; all players play the same cards")
                break
    return GameScore(players, tuple(players[i].player for i in winners(scores, valid)), tuple(problems),
                     unchecked)
