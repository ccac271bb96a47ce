"""The layout engine's report: the design report in Markdown, its SVG plots, and the files of a result.

The search (design.py) returns a DesignResult; everything written from it lives here.
"""

from __future__ import annotations

from collections.abc import Sequence

from hashi_print.game.board import BoardSide
from hashi_print.game.deck import CARDS_PLAYED, GOALS
from hashi_print.game.design import (
    B_RATIO,
    CONFIRM_GAMES,
    EDGE_WEIGHT,
    FINALISTS,
    GOAL_BAND,
    GOAL_WEIGHT,
    MAX_LANES,
    MIN_EDGE,
    PROVISIONAL_SIX,
    SEARCH_MARGIN,
    WANTED_EDGE,
    WANTED_RATIO,
    DesignResult,
    deck_text,
    objective_problems,
    side_problems,
)
from hashi_print.game.simulate import Simulation
from hashi_print.geometry import crossing_pairs


def layout_files(result: DesignResult) -> dict[str, str]:
    """The four layout files (name -> JSON text) of a design result."""
    import json

    from hashi_print.game.board import side_to_json
    from hashi_print.game.deck import deck_to_json
    from hashi_print.game.scoring import scoring_to_json

    def dump(obj: object) -> str:
        """JSON text with one-space indents and a final newline."""
        return json.dumps(obj, indent=1) + "\n"

    made_by = {"seed": result.seed, "side_steps": result.budget.side_steps,
               "deck_steps": result.budget.deck_steps, "games": result.budget.games,
               "final_games": result.budget.final_games}
    return {
        "side-a.json": dump(side_to_json(result.sides["A"])),
        "side-b.json": dump(side_to_json(result.sides["B"])),
        "deck.json": dump(deck_to_json(result.deck)),
        "scoring.json": dump(scoring_to_json(result.scoring, design=made_by)),
    }


def side_picture(side: BoardSide) -> str:
    """The side as a text grid: labels, lower case for blue and `*` after red, `.` for water."""
    grid = [["." for _ in range(side.cols)] for _ in range(side.rows)]
    for isl in side.islands:
        marks = {"red": isl.label + "*", "blue": isl.label.lower()}
        grid[isl.row][isl.col] = marks.get(isl.flag or "", isl.label)
    return "\n".join(" ".join(f"{cell:<2}" for cell in row).rstrip() for row in grid)


PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")


def histogram_svg(series: dict[str, Sequence[int]], title: str, width: int = 640, height: int = 300) -> str:
    """Overlaid score histograms (one outline per series), as an SVG document."""
    import svgwrite

    left, bottom, top = 50, 40, 30
    values = [v for vs in series.values() for v in vs]
    lo, hi = min(values), max(values)
    bins = list(range(lo - lo % 2, hi + 2, 2))
    counts = {name: [sum(1 for v in vs if b <= v < b + 2) / len(vs) for b in bins]
              for name, vs in series.items()}
    peak = max(max(c) for c in counts.values()) or 1.0
    dwg = svgwrite.Drawing(size=(width, height), profile="full")
    dwg.add(dwg.rect((0, 0), (width, height), fill="#ffffff"))
    dwg.add(dwg.text(title, insert=(left, 18), font_size=14, font_family="sans-serif"))
    plot_w, plot_h = width - left - 20, height - top - bottom
    bw = plot_w / len(bins)
    for name, color in zip(series, PALETTE, strict=False):
        pts = []
        for k, c in enumerate(counts[name]):
            y = top + plot_h - c / peak * plot_h
            pts += [(left + k * bw, y), (left + (k + 1) * bw, y)]
        dwg.add(dwg.polyline(pts, fill="none", stroke=color, stroke_width=2))
    dwg.add(dwg.line((left, top + plot_h), (left + plot_w, top + plot_h), stroke="#000000"))
    dwg.add(dwg.line((left, top), (left, top + plot_h), stroke="#000000"))
    for k, b in enumerate(bins):
        if k % max(1, len(bins) // 12) == 0:
            dwg.add(dwg.text(str(b), insert=(left + k * bw, top + plot_h + 14), font_size=10,
                             font_family="sans-serif"))
    dwg.add(dwg.text("score", insert=(left + plot_w / 2, height - 8), font_size=11, font_family="sans-serif"))
    dwg.add(dwg.text(f"share of games (peak {peak:.0%})", insert=(4, top - 4), font_size=10,
                     font_family="sans-serif"))
    _legend(dwg, list(series), width - 170, top + 4)
    return dwg.tostring()


def curves_svg(curves: dict[str, Sequence[float]], title: str, width: int = 640, height: int = 300) -> str:
    """Cumulative share of games that reached a goal by each turn (1-17), as an SVG document."""
    import svgwrite

    left, bottom, top = 50, 40, 30
    plot_w, plot_h = width - left - 20, height - top - bottom
    dwg = svgwrite.Drawing(size=(width, height), profile="full")
    dwg.add(dwg.rect((0, 0), (width, height), fill="#ffffff"))
    dwg.add(dwg.text(title, insert=(left, 18), font_size=14, font_family="sans-serif"))
    for frac in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = top + plot_h - frac * plot_h
        dwg.add(dwg.line((left, y), (left + plot_w, y), stroke="#dddddd"))
        dwg.add(dwg.text(f"{frac:.0%}", insert=(8, y + 4), font_size=10, font_family="sans-serif"))
    for turn in range(1, CARDS_PLAYED + 1):
        x = left + (turn - 1) / (CARDS_PLAYED - 1) * plot_w
        dwg.add(dwg.text(str(turn), insert=(x - 4, top + plot_h + 14), font_size=10,
                         font_family="sans-serif"))
    for (name, ys), color in zip(curves.items(), _colours(list(curves)), strict=True):
        pts = [(left + k / (CARDS_PLAYED - 1) * plot_w, top + plot_h - y * plot_h) for k, y in enumerate(ys)]
        line = dwg.polyline(pts, fill="none", stroke=color, stroke_width=2)
        if "greedy" in name:
            line.dasharray([6, 4])
        dwg.add(line)
    dwg.add(dwg.text("turn", insert=(left + plot_w / 2, height - 8), font_size=11, font_family="sans-serif"))
    _legend(dwg, list(curves), left + 10, top + 4)
    return dwg.tostring()


GOAL_COLOURS = {"red": "#d62728", "blue": "#1f77b4", "six": "#2ca02c"}


def _colours(names: list[str]) -> list[str]:
    """One colour per series: a goal's own colour when the name starts with it, else the palette's."""
    return [next((c for g, c in GOAL_COLOURS.items() if name.startswith(g)), PALETTE[k % len(PALETTE)])
            for k, name in enumerate(names)]


def _legend(dwg: object, names: list[str], x: float, y: float) -> None:
    """Coloured legend lines with names."""
    for k, (name, color) in enumerate(zip(names, _colours(names), strict=True)):
        yy = y + 14 * k + 8
        dwg.add(dwg.line((x, yy - 4), (x + 18, yy - 4), stroke=color, stroke_width=3))  # type: ignore[attr-defined]
        dwg.add(dwg.text(name, insert=(x + 24, yy), font_size=11, font_family="sans-serif"))  # type: ignore[attr-defined]


def goal_curve(sim: Simulation, strategy: str, goal: str) -> list[float]:
    """Share of games that reached `goal` by each turn 1-17."""
    recs = sim.records[strategy]
    turns = [r.goal_turn(goal) for r in recs]
    return [sum(1 for t in turns if t is not None and t <= turn) / len(recs)
            for turn in range(1, CARDS_PLAYED + 1)]


def _fmt_turns(q: tuple[float, float, float] | None) -> str:
    """Quartile turns as text."""
    return "-" if q is None else "/".join(f"{x:g}" for x in q)


def report_markdown(result: DesignResult, seconds: float | None = None) -> str:
    """The design report: every shipped number with the measurements that chose it."""
    b = result.budget
    sc = result.scoring
    steps = f"{b.side_steps} search steps per side, {b.deck_steps} for the deck"
    lines = [
        "# Hashi layout design report", "",
        f"Produced by `hashi-print design --seed {result.seed} --budget {b.side_steps} "
        f"--games {b.games} --final-games {b.final_games}` ({steps})"
        + (f" in {seconds:.0f} s." if seconds is not None else "."),
        "All games are solo games played by the bots of hashi_print.game.bots; every move goes through",
        "the rules engine (hashi_print.game.rules) as referee. Scores: 2 per circled island plus the",
        "higher value of each goal reached (no turn limit) unless stated. Setup numeral: chosen by a",
        "hostile left-hand neighbour (a 3 or 4 where it is hardest to complete) for the side and deck",
        "search and the final comparison; a random island and value for the solo tables (see there).", "",
        "## Bots", "",
        "- random: a move drawn uniformly from the rules engine's legal moves.",
        "- greedy: the best immediate value: circled islands, goals reached and counted progress "
        "towards them, islands left completable (a numbered island that can no longer be completed "
        "costs half a point); every completable open island is worth the same small share.",
        "- strong: the same search made wider (6 numeral choices, a beam of 3 bridge sequences), "
        "valued over the cards still unseen: the chance that an open island gets its missing bridges "
        "in the turns left, that an unnumbered island with c bridges later gets the numeral c (from "
        "the unseen cards, shared among the islands waiting for it), and goals valued by those "
        "chances. Its knobs (`hashi_print.game.bots.StrongParams`) were tuned by simulation.", "",
        "## Sides", "",
    ]
    for name, side in result.sides.items():
        geo = side.geometry
        problems = side_problems(side)
        lines += [f"### Side {name} ({side.rows}x{side.cols})", "",
                  "Red islands are marked `*`, blue islands are lower case.", "", "```",
                  side_picture(side), "```", "",
                  f"- {len(geo.lanes)} lanes, {len(crossing_pairs(geo))} crossing lane pairs, "
                  f"lanes per island {min(map(len, geo.lanes_of))}-{max(map(len, geo.lanes_of))}; "
                  f"design constraints: {'all met' if not problems else '; '.join(problems)}.", ""]
    lines += ["## Final measurements", "",
              f"{b.final_games} games per bot and side, the same deals for every bot "
              f"(seed {result.seed + 1}).", "",
              "| side | bot | mean | stdev | quartiles | circled | red | blue | six "
              "| goal turns r/b/s (median) | bridge skips | forced skips |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, sim in result.final.items():
        for bot, s in sim.summary.items():
            med = "/".join("-" if s.goal_turns[g] is None else f"{s.goal_turns[g][1]:g}" for g in GOALS)
            lines.append(f"| {name} | {bot} | {s.mean:.2f} | {s.stdev:.2f} | "
                         f"{'/'.join(f'{x:g}' for x in s.quartiles)} | {s.mean_circled:.2f} | "
                         f"{s.goal_rate['red']:.0%} | {s.goal_rate['blue']:.0%} | {s.goal_rate['six']:.0%} | "
                         f"{med} | {s.mean_skips:.2f} | {s.mean_forced_skips:.2f} |")
    ma = result.final["A"].summary["strong"].mean
    mb = result.final["B"].summary["strong"].mean
    lines += [""]
    for name, sim in result.final.items():
        s, g, r = (sim.summary[x].mean for x in ("strong", "greedy", "random"))
        lines.append(f"- Side {name}: strong is {100 * (s / g - 1):+.1f} % over greedy, greedy "
                     f"{100 * (g / r - 1):+.1f} % over random.")
    problems = objective_problems(result)
    lines += [f"- Side A / side B mean strong score: {ma:.2f} / {mb:.2f} = {ma / mb:.3f} "
              f"(wanted >= {WANTED_RATIO}).",
              "- Objectives: " + ("all met (goal rates within 20-80 %, strong at least "
                                  f"{WANTED_EDGE}x greedy, A/B at least {WANTED_RATIO})." if not problems
                                  else "NOT MET: " + "; ".join(problems) + "."), "",
              "![scores A](scores-A.svg)", "![scores B](scores-B.svg)", "![goals A](goals-A.svg)",
              "![goals B](goals-B.svg)", "", "## Deck", "",
              f"Chosen deck ({sum(c.bridges for c in result.deck.cards)} bridges; the 17 cards of a game "
              f"draw at most {result.deck.max_bridges()}): `{deck_text(result.deck)}`.", "",
              "Numerals: " + ", ".join(f"{n}: {k}x" for n, k in sorted(result.deck.numeral_counts().items()))
              + ". Bridges per card: " + ", ".join(
                  f"{x}: {sum(1 for c in result.deck.cards if c.bridges == x)}x" for x in (1, 2, 3))
              + ".", "",
              "The deck search (hill climbing from 3 cards per numeral with 1, 2, 3 bridges, two 3s lowered"
              " to 2) maximised the score spread (stdev) while aiming at about one forced skip in two games"
              " and keeping every goal rate in 20-80 %:", "",
              "| step | deck | mean | forced skips | objective | kept |", "|---|---|---|---|---|---|"]
    for t in result.trials:
        if t.stage == "deck":
            lines.append(f"| {t.step} | `{t.description}` | {t.mean:.2f} | {t.forced:.2f} | "
                         f"{t.objective:.2f} | {'yes' if t.kept else ''} |")
    band = f"{GOAL_BAND[0] + SEARCH_MARGIN:.0%}-{GOAL_BAND[1] - SEARCH_MARGIN:.0%}".replace("%", "")
    lines += ["", "## Side search", "",
              f"Each candidate was measured with {b.games} strong-bot games on the same deals. "
              f"Side A maximised the mean score; side B aimed at side A's mean / {B_RATIO}; both pay "
              f"{GOAL_WEIGHT:g} points per unit of goal rate outside {band} % (the 20-80 % band "
              f"narrowed by {SEARCH_MARGIN * 100:g} points for the measuring error) and 3 points per "
              "forced skip. "
              f"Side A has at most {MAX_LANES['A']} lanes: on a denser 9x9 side the strong bot links six "
              f"circled islands in over 90 % of games. The {FINALISTS} best distinct candidates of each "
              f"search (`check` rows) were measured again with {CONFIRM_GAMES * b.games} fresh games of "
              f"the strong and the greedy bot, and the best of them was kept; side A's finalists were "
              f"measured once more after the deck search, with the chosen deck (`with deck` rows). In "
              f"these checks the objective also pays "
              f"{EDGE_WEIGHT:g} points per unit the strong bot falls short of {MIN_EDGE}x the greedy "
              "bot's mean.", "",
              "| stage | step | mean | red | blue | six | forced | objective | kept |",
              "|---|---|---|---|---|---|---|---|---|"]
    for t in result.trials:
        if t.stage != "deck":
            lines.append(f"| {t.stage} | {t.step} | {t.mean:.2f} | {t.goal_rate['red']:.0%} | "
                         f"{t.goal_rate['blue']:.0%} | {t.goal_rate['six']:.0%} | {t.forced:.2f} | "
                         f"{t.objective:.2f} | {'yes' if t.kept else ''} |")
    cal = result.calibration
    lines += ["", "## Bonus values", "",
              f"Red {sc.bonus['red'][0]}/{sc.bonus['red'][1]} and blue "
              f"{sc.bonus['blue'][0]}/{sc.bonus['blue'][1]} are the published values. Strong-bot goal "
              "rates over both sides: " + ", ".join(f"{g} {cal[f'rate_{g}']:.0%}" for g in GOALS)
              + f". Red and blue are worth {cal['expected_red_blue']:.2f} points per game on average "
              "(value x rate);"
              f" the six-island first value is that worth divided by the six rate, clamped to 5-11: "
              f"**{sc.bonus['six'][0]}**, and the later value keeps the published later/first ratio: "
              f"**{sc.bonus['six'][1]}**. (The search and the final games above use the provisional six "
              f"value {PROVISIONAL_SIX[0]}/{PROVISIONAL_SIX[1]}; the solo games below use the calibrated "
              "one.)", "", "## Solo tables", "",
              f"Strong bot, {b.final_games} games per side (seed {result.seed + 2}). The solo player "
              "writes the setup numeral where they like, so each game takes a random unflagged island "
              "and a random 3 or 4: one fixed choice can put a goal nearly out of reach, and its limits "
              "would rest on a handful of games. "
              "A goal's limit is the turn by which the strong bot reached it in 75 % (easy), 50 % (normal) "
              "and 25 % (hard) of the games that reached it.", "",
              "| side | goal | reached | turn quartiles | easy | normal | hard |",
              "|---|---|---|---|---|---|---|"]
    for name, sim in result.solo.items():
        s = sim.summary["strong"]
        for g in GOALS:
            lv = sc.solo_levels[name]
            lines.append(f"| {name} | {g} | {s.goal_rate[g]:.0%} | {_fmt_turns(s.goal_turns[g])} | "
                         f"{lv['easy'][g]} | {lv['normal'][g]} | {lv['hard'][g]} |")
    lines += ["", "Rating bands for the final solo score (normal limits), from the strong bot's solo "
              "scores at the 90th, 75th, 50th and 25th percentile:", ""]
    for name, bands in sc.ratings.items():
        lines.append(f"- Side {name}: " + "; ".join(f"{m}+ {w}" for m, w in bands))
    lines.append("")
    return "\n".join(lines)


def write_design(result: DesignResult, out_dir: str, layouts_dir: str | None = None,
                  seconds: float | None = None) -> list[str]:
    """Write the report, plots and layout files into out_dir (and layouts_dir if given); return the paths."""
    from pathlib import Path

    from hashi_print.files import write_atomic

    out = Path(out_dir)
    written = []
    for name, text in layout_files(result).items():
        written.append(str(write_atomic(out / "layouts" / name, text)))
        if layouts_dir is not None:
            written.append(str(write_atomic(Path(layouts_dir) / name, text)))
    for name, sim in result.final.items():
        series = {bot: [r.score for r in recs] for bot, recs in sim.records.items()}
        written.append(str(write_atomic(out / f"scores-{name}.svg",
                                        histogram_svg(series, f"Side {name}: final scores per bot"))))
        curves = {f"{g} (strong)": goal_curve(sim, "strong", g) for g in GOALS}
        curves.update({f"{g} (greedy, dashed)": goal_curve(sim, "greedy", g) for g in GOALS})
        written.append(str(write_atomic(out / f"goals-{name}.svg",
                                        curves_svg(curves, f"Side {name}: goals reached by turn"))))
    written.append(str(write_atomic(out / "design.md", report_markdown(result, seconds))))
    return written
