"""Bench of the photo reader on synthetic photos of simulated games.

Each photo: a simulated game (bots + rules engine) on side A or B, A4 or Letter; its end drawn by the
pen model (wobbly strokes, width and pressure, real handwritten digits by writers the digit network
never saw); photographed by the camera model (perspective, rotation, blur, noise, light gradient,
shadow, JPEG 50-95, 1-12 megapixels). The reading is compared with the game that drew it.

The same photos are made twice, once with each set of held-out writers: MNIST's last 5,000 test
digits at their full 28 x 28 ("mnist"), and scikit-learn's digits, recorded only as 8 x 8 ink counts
("optdigits"); each gets its own report.

    python bench/scan.py --count 300 --seed 1
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hashi_print.game.board import builtin_side  # noqa: E402
from hashi_print.game.deck import GOALS, load_deck  # noqa: E402
from hashi_print.game.scoring import load_scoring, score_sheet  # noqa: E402
from hashi_print.render.fill import WRITERS  # noqa: E402
from hashi_print.scan.read import ScanStatus, scan_image  # noqa: E402
from hashi_print.sheets.marks import marks_of  # noqa: E402
from hashi_print.sheets.validate import validate  # noqa: E402
from tests.photos import filled_sheet, photograph, random_camera, simulated_record  # noqa: E402

STRATEGIES = ("strong", "greedy", "random")


def one(task: tuple[int, int, str]) -> dict:
    """Make photo `index` of the run seeded `seed` with the digits of `writers`, read it, and compare it
    with the game."""
    seed, index, writers = task
    rng = random.Random(f"{seed}/{index}")
    deck, scoring = load_deck(), load_scoring()
    side = builtin_side("AB"[index % 2])
    paper = ("a4", "letter")[(index // 2) % 2]
    record = simulated_record(side, deck, scoring, seed * 100_003 + index, STRATEGIES[index % 3])
    # Another player may have reached a goal first: its "first" box is then crossed off.
    other = random.Random(f"{seed}/{index}/race")
    lost = frozenset(g for g in GOALS if other.random() < 0.25)
    truth = dataclasses.replace(marks_of(record, deck), lost_first=lost)
    pen = rng.choice(["blue", "black", "felt", "pencil"])
    cam = random_camera(rng)
    jpeg = photograph(filled_sheet(truth, deck, scoring, paper, rng, pen, writers=writers), cam, rng)
    started = time.perf_counter()
    img = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    scan = scan_image(img, deck, scoring, source=f"photo {index}")
    seconds = time.perf_counter() - started
    out = {"index": index, "pen": pen, "mp": cam.megapixels, "seconds": seconds, "status": scan.status.value}
    if scan.marks is None:
        return out
    m = scan.marks
    out["lanes"] = (sum(a == b for a, b in zip(m.bridges, truth.bridges, strict=True)), len(truth.bridges))
    n = len(side.islands)
    out["circles"] = (sum((i in m.circled) == (i in truth.circled) for i in range(n)), n)
    out["numerals"] = (sum(a == b for a, b in zip(m.numerals, truth.numerals, strict=True)), n)
    out["cards"] = (
        sum((j in m.cards) == (j in truth.cards) for j in range(1, len(deck.cards) + 1)),
        len(deck.cards),
    )
    out["goals"] = (sum(m.goal_turn(g) == truth.goal_turn(g) for g in GOALS), len(GOALS))
    out["first boxes"] = (sum((g in m.lost_first) == (g in lost) for g in GOALS), len(GOALS))
    out["exact"] = (
        m.bridges == truth.bridges
        and m.circled == truth.circled
        and m.numerals == truth.numerals
        and m.cards == truth.cards
        and dict(m.goals) == dict(truth.goals)
        and m.lost_first == lost
    )
    played = validate(record, deck, scoring)
    want = score_sheet(played.state, scoring, first=set(GOALS) - lost)
    out["score_right"] = scan.validation is not None and scan.validation.score == want
    out["uncertain"] = [u.field for u in scan.uncertain]
    return out


def main() -> None:
    """Run the bench and print its report for each set of held-out writers."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--writers", choices=(*WRITERS, "both"), default="both", help="whose digits are written")
    args = ap.parse_args()
    for writers in WRITERS if args.writers == "both" else (args.writers,):
        tasks = [(args.seed, i, writers) for i in range(args.count)]
        with ProcessPoolExecutor(args.workers) as pool:
            rows = list(pool.map(one, tasks, chunksize=4))
        print(f"== digits by the held-out writers: {writers}")
        report(rows)


def report(rows: list[dict]) -> None:
    """Print per-field accuracy, the share of sheets read exactly with status ok, and seconds per image."""
    read = [r for r in rows if "lanes" in r]
    print(f"photos: {len(rows)} (sides A and B, A4 and Letter; pens {dict(Counter(r['pen'] for r in rows))})")
    print(f"unreadable: {sum(r['status'] == 'unreadable' for r in rows)}")
    for field in ("lanes", "circles", "numerals", "cards", "goals", "first boxes"):
        right = sum(r[field][0] for r in read)
        total = sum(r[field][1] for r in read)
        print(f"{field:>11}: {100 * right / total:7.3f} % right ({total - right} wrong of {total})")
    ok = [r for r in read if r["status"] == ScanStatus.OK.value]
    print(
        f"status ok: {len(ok)} of {len(rows)}; exact and ok: {sum(r['exact'] for r in ok)} "
        f"({100 * sum(r['exact'] for r in ok) / len(rows):.1f} %)"
    )
    print(f"exact (any status): {sum(r['exact'] for r in read)}")
    print(f"confident wrong scores (status ok, score differs): {sum(not r['score_right'] for r in ok)}")
    print(f"status ok but some field wrong: {sum(not r['exact'] for r in ok)}")
    print(f"review fields: {dict(Counter(f for r in read for f in r['uncertain']))}")
    for mp in sorted({r["mp"] for r in rows}):
        secs = [r["seconds"] for r in rows if r["mp"] == mp]
        print(
            f"seconds per image at {mp:g} MP: median {statistics.median(secs):.3f}, max {max(secs):.3f} "
            f"({len(secs)} photos)"
        )


if __name__ == "__main__":
    main()
