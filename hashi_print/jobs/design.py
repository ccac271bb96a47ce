"""The design job: design sides A and B, the deck, bonus values and solo tables by simulation, and write
the report and (when asked) the layout files."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass

from hashi_print.checks import check_seed
from hashi_print.errors import OptionError
from hashi_print.files import check_writable, layouts_folder
from hashi_print.game.design import budget_from, design, objective_problems
from hashi_print.game.design_report import write_design
from hashi_print.jobs.progress import Progress, no_progress

MAX_COMPARE_SEEDS = 10


@dataclass(frozen=True)
class DesignRequest:
    """What `hashi-print design` asks for; `layouts_to` "" means the checkout's layouts/ folder."""

    seed: int = 1
    budget: int | None = None
    compare_seeds: tuple[int, ...] = ()
    quick: bool = False
    workers: int = 2
    out_dir: str = "output/design"
    layouts_to: str | None = None


@dataclass(frozen=True)
class DesignJobResult:
    """The files written and the design objectives the chosen design does not meet."""

    files: tuple[str, ...]
    problems: tuple[str, ...]


def seed_list(text: str) -> tuple[int, ...]:
    """Parse `2,3,4,5` into seeds (at most 10); raise OptionError naming the bad part."""
    seeds = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        if not part.lstrip("-").isdigit() or len(part) > 12:
            raise OptionError(f"--compare-seeds: {part[:20]!r} is not a whole number")
        seeds.append(int(part))
    if len(seeds) > MAX_COMPARE_SEEDS:
        raise OptionError(f"--compare-seeds: at most {MAX_COMPARE_SEEDS} seeds")
    return tuple(seeds)


def kernel_note() -> str | None:
    """Why the bots search slowly, when they do: the pure Python kernel in place of the C one."""
    from hashi_print.game import bots, botsearch

    if bots.SEARCH is not botsearch.Search:
        return None
    if os.environ.get(bots.PURE):
        return ("note: HASHI_PURE_BOTS is set, so the bots search in pure Python: the same moves, several "
                "times slower")
    return ("note: the bots' C kernel is not built (no C compiler when hashi-print was installed), so the "
            "design runs several times slower, with the same moves; install again where a C compiler "
            "is at hand")


def _ignore(text: str) -> None:
    """Take no note."""


def run_design(request: DesignRequest, progress: Progress = no_progress,
               note: Callable[[str], None] = _ignore) -> DesignJobResult:
    """Run the design for the seed (and the seeds to compare) and write what it found.

    `progress(done, total)` follows the simulated games; `note(text)` says what is being simulated.
    """
    check_seed(request.seed)
    check_writable(request.out_dir)
    layouts = request.layouts_to
    layouts_dir = None if layouts is None else str(check_writable(layouts_folder(layouts)))
    started = time.monotonic()
    runs = [design(s, budget_from(request.budget, request.quick), workers=request.workers, note=note,
                   progress=progress) for s in (request.seed, *request.compare_seeds)]
    files = write_design(runs[0], request.out_dir, layouts_dir, time.monotonic() - started, runs[1:])
    return DesignJobResult(tuple(files), tuple(objective_problems(runs[0])))
