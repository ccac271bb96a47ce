"""The hashi-print command: parse arguments, call a job (hashi_print/jobs), present, and exit 0, 1, 2 or 3.

Each command imports its job when it runs, so that `hashi-print solve` never loads OpenCV or reportlab.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager, closing, nullcontext
from typing import TYPE_CHECKING, Any, TypeVar

import click
from click.core import ParameterSource

from hashi_print.checks import check_seed, visible
from hashi_print.errors import HashiError
from hashi_print.options import (
    Backend,
    CardEncoding,
    ColorModel,
    CoverStyle,
    ExportFormat,
    Format,
    Mode,
    Order,
    Paper,
    PaperType,
    PenKind,
    Profile,
    Trim,
    default,
    values,
)
from hashi_print.puzzle.book import MAX_BOOK_PUZZLES, MIXED
from hashi_print.puzzle.model import GRADES, Puzzle, Status

if TYPE_CHECKING:
    from hashi_print.scan.read import Scan

F = TypeVar("F", bound=Callable[..., Any])
EXIT_BROKEN_RULE = 1
EXIT_BAD_INPUT = 2
EXIT_REVIEW = 3
EXIT_INTERRUPTED = 130   # 128 + SIGINT, as shells report Ctrl-C
DEFAULT_TIME_LIMIT = 600.0
SOLVING_NOTE = "hashi-print: still solving after {seconds} s (the limit is {limit} s; Ctrl-C stops now)"


def error_json(err: HashiError) -> dict[str, object]:
    """The JSON object a command prints on stdout under --json when its input is bad."""
    return {"error": str(err), "message": err.message, "source": err.source, "line": err.line}


class HashiCommand(click.Command):
    """A command whose choices ignore case and whose bad input, under --json, is also a JSON object."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if isinstance(param.type, click.Choice):
                param.type.case_sensitive = False

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Parse the options; a usage error under --json is printed as JSON too."""
        as_json = "--json" in args   # read first: parsing consumes the list
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as err:
            if as_json:
                emit_json({"error": err.format_message(), "message": err.format_message(), "source": None,
                           "line": None})
            raise

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command (within its --time-limit); under --json bad input is printed as an error object
        before it propagates."""
        seconds = ctx.params.pop("search_limit", None)
        try:
            with _search_limit(seconds):
                return super().invoke(ctx)
        except HashiError as err:
            if ctx.params.get("as_json"):
                emit_json(error_json(err))
            raise


class HashiGroup(click.Group):
    """A click group that turns every HashiError into one line on stderr and exit code 2."""

    command_class = HashiCommand

    def invoke(self, ctx: click.Context) -> Any:
        """Run the subcommand, catching bad input once for all commands."""
        try:
            return super().invoke(ctx)
        except HashiError as err:
            click.echo(f"hashi-print: {visible(str(err))}", err=True)
            ctx.exit(EXIT_BAD_INPUT)
        except KeyboardInterrupt:
            # Files are written whole or not at all, so the old or the complete new file is left.
            click.echo("hashi-print: interrupted", err=True)
            ctx.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:
            # The reader (e.g. `| head`) has gone; stop quietly, as Unix tools do.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(0)
        except OSError as err:
            name = getattr(err, "filename", None) or ""
            click.echo(f"hashi-print: {name}: {err.strerror or err}", err=True)
            ctx.exit(EXIT_BAD_INPUT)


@click.group(cls=HashiGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="hashi-print")
def cli() -> None:
    """Make everything needed to play Hashi on paper, books of classic puzzles, and check sheets.

    Start with `hashi-print kit`, which writes the whole print kit into output/.
    """


def _search_limit(seconds: float | None) -> AbstractContextManager[None]:
    """The --time-limit of a searching command (the solver library is loaded only for those)."""
    if seconds is None:
        return nullcontext()
    from hashi_print.puzzle.solve import time_limit

    return time_limit(seconds, SOLVING_NOTE)


def _time_limit_option(func: F) -> F:
    """The --time-limit option of the commands that search (solve, grade, hint)."""
    return click.option("--time-limit", "search_limit", type=click.FloatRange(1, 86400),
                        default=DEFAULT_TIME_LIMIT, show_default=True,
                        help="Seconds the command may search before it stops (exit 2); a line on stderr "
                             "every 10 s says it is still working.")(func)


def _count(n: int, word: str) -> str:
    """`1 puzzle`, `2 puzzles`."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def emit_json(obj: object) -> None:
    """Print one JSON object on one line."""
    click.echo(json.dumps(obj, separators=(", ", ": ")))


# --- classic puzzles -------------------------------------------------------------------------

@cli.command()
@click.argument("puzzle")
@click.option("--json", "as_json", is_flag=True, help="Print the contract JSON object instead of a grid.")
@click.option("--mode", type=click.Choice(values(Mode)), default=default(Mode), show_default=True,
              help="Connectivity: cuts added lazily, or an eager reachability encoding.")
@click.option("--backend", type=click.Choice(values(Backend)),
              default=default(Backend), show_default=True, help="The SAT solver to use.")
@click.option("--card", type=click.Choice(values(CardEncoding)),
              default=default(CardEncoding), show_default=True,
              help="How clue counts are encoded: direct lane clauses, or a pysat cardinality encoding.")
@_time_limit_option
def solve(puzzle: str, as_json: bool, mode: str, backend: str, card: str) -> None:
    """Solve PUZZLE (a Tatham ID, puzz.link URL or file) and prove whether the solution is unique."""
    from hashi_print.errors import UnsolvableError
    from hashi_print.puzzle.formats import read_puzzle, solution_text
    from hashi_print.puzzle.solve import SolveResult
    from hashi_print.puzzle.solve import solve as run_solve

    reason = None
    try:
        pz = read_puzzle(puzzle)
        result = run_solve(pz, mode=mode, backend=backend, card=card)
    except UnsolvableError as err:
        # Well-formed, but a clue asks more than its lanes can carry: no solution, no search needed.
        result, reason = SolveResult(Status.NONE, None, 0.0), str(err)
    if as_json:
        emit_json(result.to_json() | ({"reason": reason} if reason else {}))
        return
    if result.solution is not None:
        click.echo(solution_text(pz, result.solution))
    verdict = {Status.UNIQUE: "unique: exactly one solution",
               Status.MULTIPLE: "multiple: at least two solutions (one shown)",
               Status.NONE: "none: the puzzle has no solution"}[result.status]
    click.echo(f"{verdict} ({reason or f'{result.seconds:.3f} s'})")


# --- the print kit ---------------------------------------------------------------------------

def _lang_option(*, with_all: bool = False) -> Callable[[F], F]:
    """The --lang option of the commands that print for people."""
    from hashi_print.i18n import LANGUAGES

    choices = [*LANGUAGES, "all"] if with_all else list(LANGUAGES)
    extra = "; all writes each language into its own folder (OUT/en, OUT/de, ...)" if with_all else ""
    return click.option("--lang", type=click.Choice(choices, case_sensitive=False), default="en",
                        show_default=True,
                        help=f"Language of the printed text: English, German, French, Italian, Korean or "
                             f"Japanese{extra}.")


def _generator_option() -> Callable[[F], F]:
    """The --generator option of the commands that generate puzzles."""
    return click.option("--generator", "generator", type=click.IntRange(1, 3), default=3, show_default=True,
                        help="Generator version: 3 proves uniqueness after settling what the clues force "
                             "(faster; other puzzles from the same seed than 2); 2 fills every grid to its "
                             "edges with a minimum island count per grade; 1 is the earlier generator. Give "
                             "the version a seed was recorded with to remake its puzzles.")


@cli.command()
@click.option("--paper", type=click.Choice([*values(Paper), "both"]), default="both", show_default=True,
              help="Paper size of the PDFs: A4, US Letter, or both.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output", show_default=True,
              help="Folder to write the kit into.")
@click.option("--bleed", type=float, default=3.0, show_default=True,
              help="Bleed of the print-shop cards in mm (3.175 for US printers that ask for 1/8 in).")
@click.option("--color", "color", type=click.Choice(values(ColorModel)), default=default(ColorModel),
              show_default=True,
              help="Colours of the print-shop cards: cmyk puts text and lines on the black plate only.")
@_lang_option(with_all=True)
def kit(paper: str, out_dir: str, bleed: float, color: str, lang: str) -> None:
    """Write the whole print kit into --out: score sheets, cards, solo table, rules, sample puzzles."""
    from pathlib import Path

    from hashi_print.jobs.kit import KitRequest, make_kit

    result = make_kit(KitRequest(Path(out_dir), paper, lang, bleed, ColorModel(color)))
    for written in result.files:
        click.echo(f"{written.path}  {written.what}")


@cli.command()
@click.option("--width", type=int, default=10, show_default=True, help="Columns, 5 to 40.")
@click.option("--height", type=int, default=10, show_default=True, help="Rows, 5 to 40.")
@click.option("--difficulty", type=click.Choice([g.value for g in GRADES]), default="medium",
              show_default=True, help="The exact grade every puzzle must have.")
@click.option("--count", type=click.IntRange(1, 10000), default=1, show_default=True,
              help="How many puzzles (at most 10000); they are printed as they are made.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Master seed: the same arguments print the same puzzles.")
@click.option("--density", default="0.2", show_default=True,
              help="Fraction of cells that are islands (0.05-0.4), or sparse, normal, dense.")
@_generator_option()
@click.option("--json", "as_json", is_flag=True, help="Print one hashi-puzzle/1 JSON object per line.")
@click.option("--verbose", "-v", is_flag=True, help="Report attempts, repairs and rejections on stderr.")
def generate(width: int, height: int, difficulty: str, count: int, seed: int, density: str, generator: int,
             as_json: bool, verbose: bool) -> None:
    """Generate unique classic puzzles of an exact difficulty, each re-verified before it is printed."""
    import random
    import time

    from hashi_print.console import with_progress
    from hashi_print.puzzle.formats import format_tatham_id, puzzle_text
    from hashi_print.puzzle.generate import GenerationStats, generate_many

    stats = GenerationStats()
    started = time.perf_counter()
    puzzles = generate_many(width, height, difficulty, count, random.Random(check_seed(seed)), density,
                            stats=stats, version=generator)
    for done, gp in enumerate(with_progress(puzzles, count), start=1):
        if as_json:
            emit_json(gp.to_json())
        else:
            click.echo(("\n" if done > 1 else "") + format_tatham_id(gp.puzzle))
            click.echo(puzzle_text(gp.puzzle))
    if verbose:
        click.echo(f"{count} puzzle(s) in {time.perf_counter() - started:.2f} s: {stats.summary()}", err=True)


# --- played sheets ---------------------------------------------------------------------------

def _sheet_options(func: F) -> F:
    """Add the options shared by `validate` and `score`: layout, deck, scoring and rule set."""
    for opt in reversed([
        click.option("--layout", type=click.Path(dir_okay=False),
                     help="A hashi-side/1 file to use instead of the side the sheet names."),
        click.option("--deck", "deck_file", type=click.Path(dir_okay=False),
                     help="A hashi-deck/1 file (default: the designed deck)."),
        click.option("--scoring", "scoring_file", type=click.Path(dir_okay=False),
                     help="A hashi-scoring/1 file (default: the designed scoring)."),
        click.option("--partial-bridges", "partial", is_flag=True,
                     help="House rule: a turn may draw fewer bridges than its card shows."),
        click.option("--json", "as_json", is_flag=True, help="Print one JSON object."),
    ]):
        func = opt(func)
    return func


@cli.command("validate")
@click.argument("sheet", type=click.Path(dir_okay=False))
@_sheet_options
@click.option("--solo", is_flag=True, help="Score as a solo game: bonuses only within the turn limits.")
@click.option("--level", default=None, help="Solo level whose turn limits apply (e.g. easy, hard).")
def validate_cmd(sheet: str, layout: str | None, deck_file: str | None, scoring_file: str | None,
                 partial: bool, as_json: bool, solo: bool, level: str | None) -> None:
    """Check a typed finished sheet or game record against every rule; exit 1 if it breaks one."""
    from hashi_print.jobs.score import SheetFiles, ValidateRequest, validate_sheet
    from hashi_print.sheets.validate import report_lines

    files = SheetFiles(layout, deck_file, scoring_file, partial)
    report = validate_sheet(ValidateRequest(sheet, files, solo, level))
    if as_json:
        emit_json(report.to_json())
    else:
        for line in report_lines(report):
            click.echo(line)
    if not report.ok:
        click.get_current_context().exit(EXIT_BROKEN_RULE)


@cli.command("score")
@click.argument("sheets", nargs=-1, required=True, type=click.Path(dir_okay=False))
@_sheet_options
def score_cmd(sheets: tuple[str, ...], layout: str | None, deck_file: str | None, scoring_file: str | None,
              partial: bool, as_json: bool) -> None:
    """Score the players of one game from their records or sheets, resolving who reached each bonus first."""
    from hashi_print.console import print_score_table
    from hashi_print.jobs.score import ScoreRequest, SheetFiles, score_game

    result = score_game(ScoreRequest(tuple(sheets), SheetFiles(layout, deck_file, scoring_file, partial)))
    if as_json:
        emit_json(result.to_json())
    else:
        print_score_table(result)
    if result.problems:
        click.get_current_context().exit(EXIT_BROKEN_RULE)


# --- photographed sheets ----------------------------------------------------------------------

@cli.command("scan")
@click.argument("images", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object per image (a JSON list when several images are given).")
@click.option("--write-sheet", "write_dir", type=click.Path(file_okay=False), default=None,
              help="Write each reading as a typed sheet (IMAGE.sheet.txt) into this folder, doubtful fields "
                   "marked with a '# ?' comment, and the player's name as a picture (IMAGE.player.png).")
@click.option("--overlay", type=click.Path(dir_okay=False), default=None,
              help="Write the straightened sheet with what was read drawn on it (PNG; green sure, orange "
                   "to check). With several images, IMAGE-NAME is added before the extension.")
@click.option("--layout", type=click.Path(dir_okay=False),
              help="A hashi-side/1 file: needed only for a sheet printed for a board of your own.")
@click.option("--deck", "deck_file", type=click.Path(dir_okay=False),
              help="A hashi-deck/1 file (default: layouts/deck.json).")
@click.option("--scoring", "scoring_file", type=click.Path(dir_okay=False),
              help="A hashi-scoring/1 file (default: layouts/scoring.json).")
def scan_cmd(images: tuple[str, ...], as_json: bool, write_dir: str | None, overlay: str | None,
             layout: str | None, deck_file: str | None, scoring_file: str | None) -> None:
    """Read photos or scans (JPEG, PNG, PDF page) of filled score sheets and score them.

    Exit status: 0 every sheet read with confidence and valid; 1 read with confidence but a rule is
    broken; 3 a field needs a person's look (status "review"); 2 an image is unreadable.
    """
    from hashi_print.jobs.scan import ScanRequest, scan_sheets

    result = scan_sheets(ScanRequest(tuple(images), write_dir, overlay, layout, deck_file, scoring_file))
    if as_json:
        objs = [s.to_json() for s in result.scans]
        emit_json(objs[0] if len(objs) == 1 else objs)
    else:
        for s in result.scans:
            _print_scan(s)
    codes = {"unreadable": EXIT_BAD_INPUT, "review": EXIT_REVIEW, "broken": EXIT_BROKEN_RULE, "ok": 0}
    click.get_current_context().exit(codes[result.verdict])


def _print_scan(s: Scan) -> None:
    """Print one reading: its status, the fields to check and the validation report."""
    from hashi_print.scan.read import ScanStatus
    from hashi_print.sheets.validate import report_lines

    if s.status is ScanStatus.UNREADABLE:
        click.echo(f"hashi-print: {s.error}", err=True)
        return
    click.echo(f"{s.file}: {s.status.value} (side {s.side}, {s.paper})")
    for u in s.uncertain:
        click.echo(f"  check {u.note()}")
    for line in report_lines(s.validation) if s.validation is not None else ():
        click.echo(f"  {line}")


# --- puzzle books ----------------------------------------------------------------------------

@cli.command()
@click.option("--count", type=click.IntRange(1, MAX_BOOK_PUZZLES), default=20, show_default=True,
              help=f"How many puzzles (at most {MAX_BOOK_PUZZLES}).")
@click.option("--size", default="10x10", show_default=True, help="Grid size WxH of every puzzle.")
@click.option("--sizes", default=None, help="A mix of sizes, e.g. 7x7,10x10,15x15 (overrides --size).")
@click.option("--difficulty", type=click.Choice([*(g.value for g in GRADES), MIXED]),
              default="mixed", show_default=True, help="One grade for all, or an even mix.")
@click.option("--density", default=None, help="Fraction of cells that are islands, or sparse/normal/dense.")
@click.option("--seed", type=int, default=1, show_default=True, help="The same seed makes the same book.")
@_generator_option()
@click.option("--from", "from_file", type=click.Path(dir_okay=False, exists=True), default=None,
              help="Lay out the puzzles of this file (IDs, URLs or JSON lines) instead of generating "
                   "(then --count, --size(s), --difficulty, --density and --seed are not used).")
@click.option("--trim", type=click.Choice(values(Trim)), default=default(Trim), show_default=True,
              help="Page size of the book: A4, US Letter, or the 6x9 in and 8.5x11 in trims of KDP.")
@click.option("--profile", type=click.Choice(values(Profile)), default=default(Profile), show_default=True,
              help="pnp: print at home (bookmarks, optional crop marks); kdp: clean KDP interior.")
@click.option("--order", type=click.Choice(values(Order)), default=default(Order),
              show_default=True, help="Easy to expert, or the order the puzzles were made in.")
@click.option("--title", default="Hashi", show_default=True, help="Title printed on the title page.")
@click.option("--crop-marks", is_flag=True,
              help="pnp only: add crop marks around the trimmed page (only where the marked page still "
                   "fits A4 or Letter paper, e.g. --trim 6x9).")
@click.option("--per-page", type=click.IntRange(1, 24), default=None,
              help="Puzzles per page (default: as many as keep the islands comfortably large).")
@click.option("--ids-under-grids", "ids_under", is_flag=True,
              help="Print each puzzle's ID under its grid instead of in the index of IDs at the back.")
@click.option("--author", default="", help="Author for the title page, copyright page and cover.")
@click.option("--year", type=click.IntRange(1900, 2999), default=None,
              help="Year of the copyright notice [default with --author: this year, or the year of "
                   "SOURCE_DATE_EPOCH when it is set, so a rebuild stays byte-identical].")
@click.option("--isbn", default="", help="ISBN for the copyright page and cover (ISBN-13 or ISBN-10).")
@click.option("--credit/--no-credit", default=True, show_default=True,
              help="Say on the copyright page that the puzzles were made with hashi-print (and the seed).")
@click.option("--color", "color", type=click.Choice(values(ColorModel)), default=default(ColorModel),
              show_default=True,
              help="cmyk for print shops: every colour in CMYK, text and lines on the black plate only.")
@click.option("--cover", "cover", type=click.Path(dir_okay=False), default=None,
              help="kdp only: also write the paperback cover (back, spine, front, 0.125 in bleed) "
                   "to this PDF.")
@click.option("--paper-type", type=click.Choice(values(PaperType)), default=default(PaperType),
              show_default=True,
              help="The KDP interior paper, which sets the cover's spine width.")
@click.option("--cover-style", type=click.Choice(values(CoverStyle)), default=default(CoverStyle),
              show_default=True,
              help="The cover's design: classic (blue, the largest puzzle solved on a white panel), night "
                   "(night blue, the puzzle on the background) or paper (cream, blue title).")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="PDF to write [default: output/hashi-book-<trim>.pdf].")
@click.option("--manifest", type=click.Path(dir_okay=False), default=None,
              help="Also write a JSON list of each puzzle's number, page, ID and solution.")
@click.option("--from-bank", "bank", type=click.Path(dir_okay=False), default=None,
              help="Take --count puzzles no book has used from this bank (of --difficulty and --size when "
                   "given), in stored order, instead of generating; needs --mark-used.")
@click.option("--mark-used", "mark_used", default=None, metavar="NAME",
              help="With --from-bank: record in the bank that the book NAME used its puzzles, in the same "
                   "step that writes the book, so no later book gets them.")
@_lang_option()
def book(**options: Any) -> None:
    """Make a print-ready PDF puzzle book: title, copyright and contents pages, how to play, numbered
    puzzles grouped by grade and size, solutions at the back. The book is checked against its print
    profile (KDP or home printing) before anything is generated and again before it is written.
    """
    from hashi_print.console import ProgressBar
    from hashi_print.jobs.book import BookRequest, make_book

    if click.get_current_context().get_parameter_source("size") is ParameterSource.DEFAULT:
        options["size"] = None   # from a bank: any size; otherwise the default size
    with ProgressBar("generating") as bar:
        result = make_book(BookRequest(**options), bar.update)
    where = f"{result.pages} pages ({result.trim}, {result.profile})"
    if result.bank:
        click.echo(f"{result.path}  {_count(result.puzzles, 'puzzle')} from {result.bank}, marked used by "
                   f"{result.used_by!r}, {where}")
        return
    for warning in result.warnings:
        click.echo(f"hashi-print: warning: {warning}", err=True)
    click.echo(f"{result.path}  {_count(result.puzzles, 'puzzle')}, {where}")
    if result.cover:
        click.echo(f"{result.cover}  cover, {result.cover_what}")


@cli.command()
@click.option("--side", type=click.Choice(["A", "B"]), default=None,
              help="The designed side to print (not needed with --layout or --fill).")
@click.option("--layout", type=click.Path(dir_okay=False), help="A hashi-side/1 file of your own board.")
@click.option("--paper", type=click.Choice(values(Paper)), default=default(Paper), show_default=True,
              help="Paper size of the sheet.")
@click.option("--format", "fmt", type=click.Choice(values(Format)), default=default(Format),
              show_default=True,
              help="PDF to print, or SVG to edit or show on screen; png only with --fill (a picture).")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="File to write (default: output/sheet-SIDE-PAPER.FORMAT).")
@click.option("--deck", "deck", type=click.Path(dir_okay=False),
              help="A hashi-deck/1 file for the card strip (default: the designed deck).")
@click.option("--scoring", "scoring", type=click.Path(dir_okay=False),
              help="A hashi-scoring/1 file for the bonus boxes (default: the designed scoring).")
@click.option("--fill", "fill", type=click.Path(dir_okay=False), default=None,
              help="Draw the end of this game record or finished sheet onto the sheet.")
@click.option("--hand", type=int, default=None, metavar="SEED",
              help="With --fill: draw as a hand would (wobbly strokes, handwritten digits), from this seed.")
@click.option("--pen", type=click.Choice(values(PenKind)), default=default(PenKind),
              show_default=True, help="With --fill --hand: the pen the hand holds.")
@_lang_option()
def sheet(**options: Any) -> None:
    """Print a score sheet for side A or B, or for a board of your own (--layout FILE).

    With --fill RECORD_OR_SHEET, draw that game's numerals, bridges, circles, crossed-off cards, goal
    turns and (from a record) the starting island onto the sheet (neatly, or by hand with --hand SEED):
    a picture for the rules or a test.
    """
    from hashi_print.jobs.sheet import SheetRequest, make_sheet

    request = SheetRequest(**options)
    result = make_sheet(request)
    what = "filled score sheet" if result.filled else "score sheet"
    click.echo(f"{result.path}  {what} ({request.paper}, {request.fmt})")


@cli.command("grade")
@click.argument("puzzle")
@click.option("--json", "as_json", is_flag=True, help="Print {difficulty, steps} as one JSON object.")
@click.option("--steps", "show_steps", is_flag=True, help="Also print every deduction step in words.")
@_time_limit_option
def grade_cmd(puzzle: str, as_json: bool, show_steps: bool) -> None:
    """Grade PUZZLE by the human-style deducer: easy, medium, hard, expert, or beyond.

    The grade is the lowest level whose techniques solve the puzzle completely without guessing;
    "beyond" means the deducer gets stuck (the puzzle may still be unique: `solve` decides that).
    Islands are named by column letter and row number, A1 being the top-left cell.
    """
    from collections import Counter

    from hashi_print.puzzle.deduce import grade_puzzle
    from hashi_print.puzzle.formats import read_puzzle

    result = grade_puzzle(read_puzzle(puzzle))
    if as_json:
        emit_json(result.to_json())
        return
    if show_steps:
        for n, step in enumerate(result.steps, 1):
            click.echo(f"{n:4d}. [{step.technique}] {step.text}")
    used = Counter(s.technique for s in result.steps)
    summary = ", ".join(f"{name} {k}" for name, k in sorted(used.items(), key=lambda kv: -kv[1]))
    click.echo(f"difficulty: {result.grade} ({len(result.steps)} steps: {summary})")


@cli.command("hint")
@click.argument("puzzle")
@click.option("--bridges", "state", default="", metavar="STATE",
              help="Bridges drawn so far: 'C4-C6 A1=A3' (X-Y one bridge, X=Y two, repeat X-Y for two), "
                   "a JSON list of [r1, c1, r2, c2, k] rows (0-based, as in solutions), or a file of either.")
@click.option("--json", "as_json", is_flag=True, help="Print the step as a JSON object.")
@_time_limit_option
def hint_cmd(puzzle: str, state: str, as_json: bool) -> None:
    """Print the next bridge to draw in PUZZLE from the bridges drawn so far, and why.

    Facts the step rests on that are not visible on paper are printed first ("Known: ...").
    With --json: the step object (technique, level, text, islands, lanes, conclusions) and
    "because", the list of those facts; null when there is nothing left to deduce.
    Islands are named by column letter and row number: A1 is the top-left cell, C4 the third
    column of the fourth row (columns after Z go on AA, AB, ...). Separate bridges in STATE by
    spaces, commas or semicolons.
    """
    from hashi_print.puzzle.deduce import check_state, hint
    from hashi_print.puzzle.formats import read_bridges, read_puzzle

    pz = read_puzzle(puzzle)
    counts = read_bridges(pz, state)
    check_state(pz, counts)
    result = hint(pz, counts)
    if as_json:
        emit_json(result.to_json())
        return
    if not result.steps:
        click.echo(_no_hint(pz, counts))
        return
    for step in result.steps[:-1]:
        click.echo(f"Known: {step.text}")
    last = result.steps[-1]
    click.echo(f"[{last.technique}, {last.grade}] {last.text}")


def _no_hint(pz: Puzzle, counts: tuple[int, ...]) -> str:
    """Why there is no next step: the bridges drawn solve the puzzle, or the deducer is stuck."""
    from hashi_print.puzzle.check import check_solution
    from hashi_print.puzzle.model import Solution

    drawn = Solution.from_lane_counts(pz.geometry, counts)
    return ("The bridges drawn solve the puzzle." if not check_solution(pz, drawn) else
            "No further deduction from here: the deducer is stuck (the puzzle may need a guess).")


@cli.command("design")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the whole design run.")
@click.option("--budget", type=click.IntRange(1, 100_000), default=None,
              help="Search steps per side (the deck gets 4 in 10); default: what produced the shipped files.")
@click.option("--compare-seeds", default="", metavar="SEEDS",
              help="Also run the design for these seeds (e.g. 2,3,4,5) and show their objectives beside "
                   "--seed's in the report; the layout files come from --seed alone.")
@click.option("--quick", is_flag=True,
              help="Measure with a handful of games, to try the command (not the shipped files).")
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Processes to simulate with.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output/design",
              show_default=True, help="Folder for the report, the plots and a copy of the layout files.")
@click.option("--write-layouts", "layouts_to", is_flag=False, flag_value="", default=None, metavar="[FOLDER]",
              help="Also write side-a.json, side-b.json, deck.json and scoring.json into FOLDER "
                   "(without FOLDER: the layouts/ folder of the checkout you run it in).")
def design_cmd(seed: int, budget: int | None, compare_seeds: str, quick: bool, workers: int, out_dir: str,
               layouts_to: str | None) -> None:
    """Design sides A and B, the deck, bonus values and solo tables by simulation; write a report."""
    from hashi_print.console import RichProgress
    from hashi_print.jobs.design import DesignRequest, kernel_note, run_design, seed_list

    request = DesignRequest(seed, budget, seed_list(compare_seeds), quick, workers, out_dir, layouts_to)
    if (slow := kernel_note()) is not None:
        click.echo(slow, err=True)
    bar = RichProgress("designing")
    try:
        result = run_design(request, bar.update, bar.describe)
    finally:
        bar.stop()
    for path in result.files:
        click.echo(path)
    for problem in result.problems:
        click.echo(f"warning: design objective not met: {problem}", err=True)


# --- the web app -----------------------------------------------------------------------------

@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; the default lets only this computer in (0.0.0.0: the network).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True,
              help="Port to listen on.")
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Processes that solve, generate and give hints.")
@click.option("--time-limit", type=click.FloatRange(0.5, 600), default=10.0, show_default=True,
              help="Seconds one request may compute before it is stopped.")
@click.option("--db", type=click.Path(dir_okay=False), default=None,
              help="SQLite file of the game-night tables (default: tables.sqlite in the user's data folder); "
                   "a server restarted on it carries on every table.")
def serve_cmd(host: str, port: int, workers: int, time_limit: float, db: str | None) -> None:
    """Serve the web app: play puzzles with hints, the solver lab, the Hashi game solo, with cards or as a
    game night at a table (with --host 0.0.0.0 it prints the address phones join at)."""
    from hashi_print.web.app import Settings, serve
    from hashi_print.web.tables import table_config

    serve(host, port, Settings(workers=workers, seconds=time_limit,
                               tables=table_config(host, port, db, click.echo)), click.echo)


# --- the puzzle bank -------------------------------------------------------------------------

@cli.group(cls=HashiGroup)
def bank() -> None:
    """Keep a bank of graded, proven-unique puzzles in SQLite and never print one twice.

    Fill it on every core or on a Dask cluster, look at what it holds, export it, and make books
    from it with `hashi-print book --from-bank`.
    """


@bank.command("fill")
@click.option("--db", required=True, type=click.Path(dir_okay=False),
              help="The bank's SQLite file (made if new).")
@click.option("--size", default="10x10", show_default=True, help="Grid size WxH of every puzzle (5 to 40).")
@click.option("--difficulty", type=click.Choice([g.value for g in GRADES]), default="medium",
              show_default=True, help="The exact grade every puzzle must have.")
@click.option("--count", type=int, required=True,
              help="How many puzzles this fill (this seed, size, grade and density) should hold in the end; "
                   "run the same command again to continue an interrupted fill.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Every puzzle's seed derives from it and its index: same seed, same puzzles.")
@click.option("--density", default=None, help="Fraction of cells that are islands (0.05-0.4), or "
                                               "sparse, normal, dense [default: 0.2].")
@click.option("--workers", type=int, default=None,
              help="Local worker processes [default: one per core]. Not used with --scheduler.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help="Run on the Dask cluster of this scheduler instead of local processes.")
def bank_fill(db: str, size: str, difficulty: str, count: int, seed: int, density: str | None,
              workers: int | None, scheduler: str | None) -> None:
    """Generate puzzles into a bank in parallel; duplicates under symmetry are never stored twice."""
    from hashi_print.console import FillBar
    from hashi_print.jobs.bank import FillInterrupted, FillRequest, fill_bank
    from hashi_print.puzzle.book import parse_size

    cols, rows = parse_size(size)
    try:
        with FillBar(count, f"{difficulty} {cols}x{rows}") as bar:
            result = fill_bank(FillRequest(db, count, size, difficulty, seed, density, workers, scheduler),
                               bar.update)
    except FillInterrupted as stop:
        click.echo(f"hashi-print: interrupted; {db} keeps {stop.kept} puzzle(s) of this fill; "
                   "run the same command again to continue", err=True)
        click.get_current_context().exit(EXIT_INTERRUPTED)
    done, report = result.report.state, result.report
    click.echo(f"{db}: {done.stored} {difficulty} {result.cols}x{result.rows} puzzles of seed {seed} "
               f"({report.added} new, {report.duplicates} symmetric duplicate(s) skipped) in "
               f"{report.seconds:.1f} s, {report.rate:.2f} puzzles/s on {result.ran_on}")


@bank.command("stats")
@click.option("--db", required=True, type=click.Path(dir_okay=False), help="The bank's SQLite file.")
@click.option("--json", "as_json", is_flag=True, help="Print one hashi-bank-stats/1 JSON object.")
def bank_stats_cmd(db: str, as_json: bool) -> None:
    """Count the bank's puzzles by size and grade, used and unused, and list the books made from it."""
    from hashi_print.bank.store import bank_stats, open_bank

    with closing(open_bank(db)) as conn:
        stats = bank_stats(conn)
    if as_json:
        emit_json(stats.to_json())
        return
    from hashi_print.console import print_bank_stats

    print_bank_stats(db, stats)


@bank.command("export")
@click.option("--db", required=True, type=click.Path(dir_okay=False), help="The bank's SQLite file.")
@click.option("--format", "fmt", type=click.Choice(values(ExportFormat)), default=default(ExportFormat),
              show_default=True,
              help="Tatham IDs, puzz.link URLs, or hashi-puzzle/1 JSON lines with the solution.")
def bank_export(db: str, fmt: str) -> None:
    """Print every puzzle of the bank, one a line, in the order they were stored."""
    from hashi_print.bank.store import open_bank, stored_puzzles
    from hashi_print.puzzle.formats import format_puzzlink, puzzle_to_json

    with closing(open_bank(db)) as conn:
        for sp in stored_puzzles(conn):
            if fmt == "tatham":
                click.echo(sp.tatham_id)
            elif fmt == "puzzlink":
                click.echo(format_puzzlink(sp.puzzle))
            else:
                emit_json(puzzle_to_json(sp.puzzle, sp.solution, sp.grade, sp.seed)
                          | {"techniques": list(sp.techniques), "fill_seed": sp.fill_seed, "index": sp.index,
                             "key": sp.key, "book": sp.book, "generator": sp.generator})


def main() -> None:
    """Entry point of the console script."""
    sys.exit(cli(standalone_mode=True))


if __name__ == "__main__":
    main()
