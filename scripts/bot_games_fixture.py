"""Record the bots' reference games: 1,000 games, every move and the final record, as gzipped JSON.

Run: .venv/bin/python scripts/bot_games_fixture.py [--out tests/fixtures/bot-games.json.gz]

tests/game/test_bot_replay.py replays these games with the current bots and asserts the same moves,
turn by turn. The file was made by the bots before they were rewritten for speed (issue 39); make it
again only when a change of the bots' decisions is intended.

Each table (side, deck, scoring) is stored whole, so the games stay replayable when the shipped
layouts change: sides A and B as shipped, and two random sides with a base or mutated deck and the
design run's provisional scoring, as the design search plays them.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from pathlib import Path

from hashi_print.game.board import BoardSide, builtin_side, side_to_json
from hashi_print.game.deck import Deck, deck_to_json, load_deck
from hashi_print.game.design import provisional_scoring
from hashi_print.game.design_search import SIZES, base_deck, mutate_deck, random_side
from hashi_print.game.rules import Move
from hashi_print.game.scoring import Scoring, load_scoring, scoring_to_json
from hashi_print.game.simulate import play_game

GAMES = 1000
OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "bot-games.json.gz"
# Bots with their share of the games: the two the design run plays, and a few random games.
BOTS = (("strong", 0.6), ("greedy", 0.34), ("random", 0.06))


def tables() -> list[tuple[BoardSide, Deck, Scoring]]:
    """The sides, decks and scorings the games are played with."""
    rng = random.Random(39)
    side_x = random_side("X", *SIZES["A"], rng)
    side_y = random_side("Y", *SIZES["B"], rng)
    mutated = mutate_deck(mutate_deck(base_deck(), rng), rng)
    return [(builtin_side("A"), load_deck(), load_scoring()),
            (builtin_side("B"), load_deck(), load_scoring()),
            (side_x, base_deck(), provisional_scoring()), (side_y, mutated, provisional_scoring((8, 4)))]


def move_code(move: Move) -> str:
    """Write a move compactly: `island.value` or `-`, then `/` and the lanes, e.g. `5.3/2,2,7`."""
    num = "-" if move.numeral is None else f"{move.numeral[0]}.{move.numeral[1]}"
    return num + "/" + ",".join(str(k) for k in move.bridges)


def game_plans(count: int) -> list[dict[str, object]]:
    """Draw each game's table, bot, setup, seed and rule variant (fixed by a seed of their own)."""
    rng = random.Random(2039)
    plans: list[dict[str, object]] = []
    all_tables = tables()
    for _ in range(count):
        table = rng.randrange(len(all_tables))
        bot = rng.choices([b for b, _ in BOTS], [w for _, w in BOTS])[0]
        kind = rng.random()
        side = all_tables[table][0]
        setup: object
        if kind < 0.5:
            setup = rng.choice(["hostile", "kind", "random"])
        else:
            plain = [i for i, isl in enumerate(side.islands) if isl.flag is None]
            setup = [[rng.choice(plain), rng.choice((3, 4))] for _ in range(rng.randint(1, 3))]
        plans.append({"table": table, "bot": bot, "setup": setup, "index": rng.randrange(500),
                      "seed": rng.randrange(10_000), "partial": rng.random() < 0.1,
                      "share_deals": rng.random() < 0.7})
    return plans


def play_plan(plan: dict[str, object],
              all_tables: list[tuple[BoardSide, Deck, Scoring]]) -> dict[str, object]:
    """Play one planned game; return the plan with its moves and its record's fields."""
    side, deck, scoring = all_tables[int(str(plan["table"]))]
    raw = plan["setup"]
    pairs = raw if isinstance(raw, list) else []
    setup = raw if isinstance(raw, str) else tuple((int(i), int(v)) for i, v in pairs)
    record, moves, _ = play_game(side, deck, scoring, str(plan["bot"]), setup, int(str(plan["index"])),
                                 int(str(plan["seed"])), bool(plan["partial"]), bool(plan["share_deals"]))
    fields = [record.score, record.circled, [list(g) for g in record.goals], record.numeral_skips,
              record.bridge_skips, record.forced_skips, record.bridges, list(record.setup),
              record.forced_numeral_skips, record.numeral_places, record.bridge_places]
    return {**plan, "moves": " ".join(move_code(m) for m in moves), "record": fields}


def main() -> None:
    """Play the games and write the fixture."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--games", type=int, default=GAMES)
    args = ap.parse_args()
    all_tables = tables()
    games = [play_plan(p, all_tables) for p in game_plans(args.games)]
    doc = {"format": "hashi-bot-games/1",
           "tables": [{"side": side_to_json(s), "deck": deck_to_json(d), "scoring": scoring_to_json(sc)}
                      for s, d, sc in all_tables],
           "games": games}
    data = json.dumps(doc, separators=(",", ":"), sort_keys=True).encode()
    args.out.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    print(f"{len(games)} games, {len(data)} bytes of JSON, {args.out.stat().st_size} gzipped: {args.out}")


if __name__ == "__main__":
    main()
