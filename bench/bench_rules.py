"""Time the rules engine and the validator on the test fixture side: run `python bench/bench_rules.py`."""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path

from hashi_print.game.board import load_side
from hashi_print.game.deck import Card, load_deck
from hashi_print.game.rules import GameState, apply, legal_moves, new_game
from hashi_print.game.scoring import load_scoring
from hashi_print.sheets.formats import record_from_moves
from hashi_print.sheets.validate import validate

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures"


def median_time(func, repeat: int = 5) -> float:
    """Return the median wall time of `func()` in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Print the timings of legal_moves, a random game, apply and record validation."""
    side = load_side(FIXTURES / "fixture-side.json")
    deck = load_deck(FIXTURES / "fixture-deck.json")
    scoring = load_scoring(FIXTURES / "fixture-scoring.json")
    numerals = tuple(None if i.flag else 6 for i in side.islands)
    crowded = GameState(side, numerals, (0,) * len(side.geometry.lanes))
    count = len(legal_moves(crowded, Card(6, 3)))
    t = median_time(lambda: legal_moves(crowded, Card(6, 3)))
    print(f"legal_moves, 11 islands at 6, card 6/3: {count} moves in {t * 1000:.2f} ms")
    tp = median_time(lambda: legal_moves(crowded, Card(6, 3), partial=True))
    print(f"legal_moves, same, partial bridges: {tp * 1000:.2f} ms")

    def games(n: int = 100):
        rng = random.Random(1)
        out = []
        for _ in range(n):
            cards = list(deck.cards)
            rng.shuffle(cards)
            state = new_game(side, (side.island("G"), 4))
            moves = []
            for card in cards[:17]:
                move = rng.choice(legal_moves(state, card))
                moves.append(move)
                state = apply(state, card, move)
            out.append((cards[:17], moves))
        return out

    tg = median_time(games, 3)
    print(f"100 random legal games of 17 turns: {tg:.3f} s ({tg * 10:.2f} ms per game)")
    played = games(1)[0]
    state = new_game(side, (side.island("G"), 4))
    card, move = played[0][0], played[1][0]
    ta = median_time(lambda: [apply(state, card, move) for _ in range(1000)])
    print(f"apply (checked): {ta * 1000:.1f} us per call")
    record = record_from_moves(side, (side.island("G"), 4), *played)
    tv = median_time(lambda: [validate(record, deck, scoring) for _ in range(100)])
    print(f"validate a 17-turn record: {tv * 10:.2f} ms")


if __name__ == "__main__":
    main()
