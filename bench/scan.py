"""Bench of the photo reader on synthetic photos of simulated games.

Each photo: a simulated game (bots + rules engine) on side A or B, A4 or Letter; its end drawn by the
pen model (wobbly strokes, width and pressure, handwritten digits, all four pens); photographed by the
camera model (perspective, rotation, blur, noise, light gradient, shadow, JPEG 50-95, 1-12
megapixels). The reading is compared with the game that drew it.

    python bench/scan.py --hold-out fonts --count 300
        trains the digit networks without one source of handwriting (scripts/train_digits.py, its
        four-source plan less that source), then reads photos whose digits all come from that source
        (`--weights FILE` reads the same photos with another weights file instead, say an older one);
    python bench/scan.py --hold-out fonts --broken circle --count 60 --weights FILE
        the same, every sheet breaking a rule at one island: how many are read as valid with status ok;
    python bench/scan.py --conditions --count 20
        the shipped networks, one row per phone-photo case (tests/photos.py CONDITIONS) and per way of
        marking boxes and circles (BOX_STYLES, CIRCLE_STYLES), digits by the pen model's writers
        (`--case slash --case fold` for only those rows);
    python bench/scan.py --writers optdigits --count 300
        the shipped networks, digits by the pen model's writers (render/handwriting.npz).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hashi_print.game.board import builtin_side  # noqa: E402
from hashi_print.game.deck import GOALS, Deck, load_deck  # noqa: E402
from hashi_print.game.rules import GameState  # noqa: E402
from hashi_print.game.scoring import load_scoring, score_sheet  # noqa: E402
from hashi_print.render.fill import WRITERS  # noqa: E402
from hashi_print.scan import digits  # noqa: E402
from hashi_print.scan.read import ScanStatus, scan_image  # noqa: E402
from hashi_print.scan.register import UnreadableImage  # noqa: E402
from hashi_print.sheets.marks import Marks, marks_of, sheet_of  # noqa: E402
from hashi_print.sheets.validate import validate  # noqa: E402
from scripts import train_digits  # noqa: E402
from tests.photos import (  # noqa: E402
    BOX_STYLES,
    CIRCLE_STYLES,
    CONDITIONS,
    filled_sheet,
    photograph,
    random_camera,
    simulated_record,
)

STRATEGIES = ("strong", "greedy", "random")
WEIGHTS = ROOT / "output" / "scan-weights"


def _writers(name: str):
    """The digits a run writes with: a shipped set's name, or a training source's digits."""
    return name if name in WRITERS else train_digits.source_glyphs(name)


def broken_marks(truth: Marks, deck: Deck, kind: str, rng: random.Random) -> Marks | None:
    """The marks of a player who broke a rule at one island: `circle`, a circled island's numeral that is
    not its bridge count; `deck`, an uncircled numeral (1, 2, 5 or 6, above the bridges) that no spare card
    shows. None when the sheet has no such island."""
    side = truth.side
    counts = GameState(side, (None,) * len(side.islands), truth.bridges).counts
    if kind == "circle":
        if not truth.circled:
            return None
        i = rng.choice(sorted(truth.circled))
        value = rng.choice([v for v in range(1, 7) if v != truth.numerals[i]])
    else:
        spare = Counter(deck.cards[p - 1].numeral for p in truth.cards)
        spare.subtract(n for n in truth.numerals if n is not None)
        options = [(i, v) for i, n in enumerate(truth.numerals) if n is not None and i not in truth.circled
                   for v in (1, 2, 5, 6) if v > counts[i] and v != n and spare[v] <= 0]
        if not options:
            return None
        i, value = rng.choice(options)
    return dataclasses.replace(truth, numerals=truth.numerals[:i] + (value,) + truth.numerals[i + 1 :])


def one_broken(task: tuple[int, int, str, str]) -> dict:
    """Make photo `index` of a sheet whose player broke a rule (`broken_marks`), with the digits of
    `writers`, read it, and say whether it was read as valid with status ok (a confident wrong verdict)."""
    seed, index, writers, kind = task
    rng = random.Random(f"{seed}/{index}/{kind}")
    deck, scoring = load_deck(), load_scoring()
    side = builtin_side("AB"[index % 2])
    paper = ("a4", "letter")[(index // 2) % 2]
    record = simulated_record(side, deck, scoring, seed * 100_003 + index, STRATEGIES[index % 3])
    drawn = broken_marks(marks_of(record, deck), deck, kind, rng)
    if drawn is None:
        return {"index": index, "status": "no such island"}
    assert not validate(sheet_of(drawn), deck, scoring).ok
    pen = rng.choice(["blue", "black", "felt", "pencil"])
    sheet = filled_sheet(drawn, deck, scoring, paper, rng, pen, writers=_writers(writers))
    img = cv2.imdecode(np.frombuffer(photograph(sheet, random_camera(rng), rng), np.uint8), cv2.IMREAD_COLOR)
    try:
        scan = scan_image(img, deck, scoring, source=f"photo {index}")
    except UnreadableImage:
        return {"index": index, "status": "unreadable"}
    valid = scan.validation is not None and scan.validation.ok
    return {"index": index, "status": scan.status.value, "read valid": valid}


def one(task: tuple[int, int, str, str | None, str | None]) -> dict:
    """Make photo `index` of the run seeded `seed` with the digits of `writers` (under a photo condition
    or in a marking style when given), read it, and compare it with the game."""
    seed, index, writers, condition, style = task
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
    if condition:
        cam = dataclasses.replace(cam, **CONDITIONS[condition])
    sheet = filled_sheet(truth, deck, scoring, paper, rng, pen, writers=_writers(writers), style=style)
    jpeg = photograph(sheet, cam, rng)
    started = time.perf_counter()
    img = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    try:
        scan = scan_image(img, deck, scoring, source=f"photo {index}")
    except UnreadableImage as err:
        return {"index": index, "pen": pen, "mp": cam.megapixels, "seconds": time.perf_counter() - started,
                "status": "unreadable", "error": str(err)}
    seconds = time.perf_counter() - started
    out = {"index": index, "pen": pen, "mp": cam.megapixels, "seconds": seconds, "status": scan.status.value}
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
    out["blocking"] = [u.field for u in scan.uncertain if u.affects]
    out["harmless"] = [u.field for u in scan.uncertain if not u.affects]
    return out


def _use(weights: str | None) -> None:
    """A worker's start: read digits with these weights (the shipped ones when None)."""
    if weights:
        digits.use_weights(weights)


def run(tasks: list, workers: int, weights: Path | None = None, job: Callable[..., dict] = one) -> list[dict]:
    """Every photo of a run, read in `workers` processes."""
    init = str(weights) if weights else None
    with ProcessPoolExecutor(workers, initializer=_use, initargs=(init,)) as pool:
        return list(pool.map(job, tasks, chunksize=2))


def held_out_weights(source: str, seed: int) -> Path:
    """Digit networks trained as the shipped ones but without `source` (trained once, then kept while
    the plan they record is the trainer's)."""
    path = WEIGHTS / f"without-{source}-seed{seed}.npz"
    plan = train_digits.Plan(tuple(s for s in train_digits.SOURCES if s != source), seed)
    if path.exists():
        with np.load(path) as kept:
            # A file from before plans were recorded has no plan member: trained otherwise, too.
            recorded = str(kept["plan"]) if "plan" in kept.files else None
        if recorded != train_digits.plan_json(plan):
            print(f"{path} was trained by another plan: training again")
            path.unlink()
    if not path.exists():
        started = time.perf_counter()
        arrays, lines = train_digits.train(plan)
        lines += train_digits.held_out_lines(arrays, source, seed)
        WEIGHTS.mkdir(parents=True, exist_ok=True)
        train_digits.write_weights(path, arrays)
        print("\n".join(lines))
        print(f"trained without {source} in {time.perf_counter() - started:.0f} s")
    return path


def main() -> None:
    """Run the bench and print its report."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--writers", choices=WRITERS, default="optdigits", help="the pen model's digits")
    ap.add_argument("--hold-out", choices=train_digits.SOURCES,
                    help="train without this source of handwriting, write with it")
    ap.add_argument("--weights", type=Path,
                    help="with --hold-out: read with this weights file, not one trained without the source")
    ap.add_argument("--broken", choices=("circle", "deck"),
                    help="with --hold-out: every sheet breaks this rule at one island (a circled numeral "
                         "off its bridges, or an uncircled numeral no spare card shows); counts the sheets "
                         "read as valid with status ok")
    ap.add_argument("--conditions", action="store_true",
                    help="one row per photo condition and marking style")
    ap.add_argument("--case", action="append", default=[],
                    help="with --conditions: only this row (a condition, or a marking style such as "
                         "'slash' or 'over the ring'); may be given more than once")
    args = ap.parse_args()
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}")
    if args.hold_out:
        weights = args.weights or held_out_weights(args.hold_out, args.seed)
        print(f"digit weights: {weights}")
        if args.broken:
            jobs = [(args.seed, i, args.hold_out, args.broken) for i in range(args.count)]
            report_broken(f"held out: {args.hold_out}, broken: {args.broken}",
                          run(jobs, args.workers, weights, one_broken))
        else:
            tasks = [(args.seed, i, args.hold_out, None, None) for i in range(args.count)]
            report(f"held out: {args.hold_out}", run(tasks, args.workers, weights))
    elif args.conditions:
        cases = [(c, None) for c in CONDITIONS] + [(None, s) for s in BOX_STYLES + CIRCLE_STYLES]
        if args.case:
            cases = [(c, s) for c, s in cases if (c or s) in args.case]
        for condition, style in cases:
            tasks = [(args.seed, i, args.writers, condition, style) for i in range(args.count)]
            report(condition or f"marks: {style}", run(tasks, args.workers))
    else:
        tasks = [(args.seed, i, args.writers, None, None) for i in range(args.count)]
        report(f"writers: {args.writers}", run(tasks, args.workers))
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} at the end")


def report_broken(name: str, rows: list[dict]) -> None:
    """Print how the rule-breaking sheets were read: valid with status ok is a confident wrong verdict."""
    drawn = [r for r in rows if r["status"] != "no such island"]
    ok = [r for r in drawn if r["status"] == ScanStatus.OK.value]
    wrong = sum(r["read valid"] for r in ok)
    print(f"== {name}")
    print(f"rule-breaking sheets: {len(drawn)} ({len(rows) - len(drawn)} photos had no such island)")
    print(f"status ok, read as valid (confident wrong verdict): {wrong}")
    print(f"status ok, read as breaking a rule: {len(ok) - wrong}")
    print(f"review: {sum(r['status'] == ScanStatus.REVIEW.value for r in drawn)}; "
          f"unreadable: {sum(r['status'] == 'unreadable' for r in drawn)}")


def _share(rows: list[dict], field: str) -> str:
    """A field's share read right over the readable photos."""
    right = sum(r[field][0] for r in rows)
    total = sum(r[field][1] for r in rows)
    return f"{100 * right / total:.2f} % ({total - right} wrong)" if total else "-"


def report(name: str, rows: list[dict]) -> None:
    """Print per-field accuracy, the share of sheets read exactly with status ok, doubts and seconds per
    image, and the run as one Markdown table row."""
    read = [r for r in rows if "lanes" in r]
    ok = [r for r in read if r["status"] == ScanStatus.OK.value]
    exact_ok = sum(r["exact"] for r in ok)
    wrong = sum(not r["score_right"] for r in ok)
    print(f"== {name}")
    print(f"photos: {len(rows)} (sides A and B, A4 and Letter; pens {dict(Counter(r['pen'] for r in rows))})")
    why = Counter(r.get("error", "") for r in rows if "lanes" not in r)
    print(f"unreadable: {len(rows) - len(read)} {dict(why)}")
    for field in ("lanes", "circles", "numerals", "cards", "goals", "first boxes"):
        print(f"{field:>11}: {_share(read, field)}")
    share = 100 * exact_ok / len(rows)
    print(f"status ok: {len(ok)} of {len(rows)}; exact and ok: {exact_ok} ({share:.1f} %)")
    print(f"confident wrong scores (status ok, score differs): {wrong}")
    print(f"status ok but some field wrong: {sum(not r['exact'] for r in ok)}")
    print(f"doubts that sent a sheet to review: {dict(Counter(f for r in read for f in r['blocking']))}")
    harmless = Counter(f for r in read for f in r["harmless"])
    print(f"doubts that changed nothing (status kept ok): {dict(harmless)}")
    for mp in sorted({r["mp"] for r in rows}):
        secs = [r["seconds"] for r in rows if r["mp"] == mp]
        print(f"seconds per image at {mp:g} MP: median {statistics.median(secs):.3f}, max {max(secs):.3f} "
              f"({len(secs)} photos)")
    big = [r["seconds"] for r in rows if r["mp"] == 12.0]
    print(
        f"| {name} | {len(rows)} | {len(rows) - len(read)} | {share:.1f} % | {len(ok)} | "
        f"{wrong} | {_share(read, 'numerals')} | {_share(read, 'circles')} | {_share(read, 'cards')} | "
        f"{_share(read, 'goals')} | "
        f"{statistics.median(big) if big else float('nan'):.2f} |"
    )


if __name__ == "__main__":
    main()
