"""The hashi-print command: parse arguments, call the library, print, and exit 0, 1 or 2."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from contextlib import closing

import click

from hashi_print.checks import check_seed, visible
from hashi_print.errors import HashiError, OptionError
from hashi_print.puzzle.book import MAX_BOOK_PUZZLES, MIXED, ORDERS
from hashi_print.puzzle.model import GRADES, Status
from hashi_print.puzzle.sat import BACKENDS, CARDINALITIES, MODES
from hashi_print.render.paper import COLOR_MODELS, PAPER, PAPER_TYPES, PROFILES, TRIMS

EXIT_BROKEN_RULE = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130   # 128 + SIGINT, as shells report Ctrl-C
MAX_SIZES = 20
DEFAULT_TIME_LIMIT = 600.0
SOLVING_NOTE = "hashi-print: still solving after {seconds} s (the limit is {limit} s; Ctrl-C stops now)"


def error_json(err: HashiError) -> dict:
    """The JSON object a command prints on stdout under --json when its input is bad."""
    return {"error": str(err), "message": err.message, "source": err.source, "line": err.line}


class HashiCommand(click.Command):
    """A command whose choices ignore case and whose bad input, under --json, is also a JSON object."""

    def __init__(self, *args, **kwargs):
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

    def invoke(self, ctx: click.Context):
        """Run the command (within its --time-limit); under --json bad input is printed as an error object
        before it propagates."""
        from hashi_print.puzzle.solve import time_limit

        seconds = ctx.params.pop("search_limit", None)
        try:
            with time_limit(seconds, SOLVING_NOTE):
                return super().invoke(ctx)
        except HashiError as err:
            if ctx.params.get("as_json"):
                emit_json(error_json(err))
            raise


class HashiGroup(click.Group):
    """A click group that turns every HashiError into one line on stderr and exit code 2."""

    command_class = HashiCommand

    def invoke(self, ctx: click.Context):
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


def _time_limit_option(func):
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
@click.option("--mode", type=click.Choice(MODES), default="lazy", show_default=True,
              help="Connectivity: cuts added lazily, or an eager reachability encoding.")
@click.option("--backend", type=click.Choice(BACKENDS),
              default="cadical195", show_default=True, help="The SAT solver to use.")
@click.option("--card", type=click.Choice(CARDINALITIES),
              default="direct", show_default=True,
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

def _lang_option(*, with_all: bool = False):
    """The --lang option of the commands that print for people."""
    from hashi_print.i18n import LANGUAGES

    choices = [*LANGUAGES, "all"] if with_all else list(LANGUAGES)
    extra = "; all writes each language into its own folder (OUT/en, OUT/de, ...)" if with_all else ""
    return click.option("--lang", type=click.Choice(choices, case_sensitive=False), default="en",
                        show_default=True,
                        help=f"Language of the printed text: English, German, French, Italian, Korean or "
                             f"Japanese{extra}.")


@cli.command()
@click.option("--paper", type=click.Choice([*PAPER, "both"]), default="both", show_default=True,
              help="Paper size of the PDFs: A4, US Letter, or both.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output", show_default=True,
              help="Folder to write the kit into.")
@click.option("--bleed", type=float, default=3.0, show_default=True,
              help="Bleed of the print-shop cards in mm (3.175 for US printers that ask for 1/8 in).")
@click.option("--color", "color", type=click.Choice(COLOR_MODELS), default="rgb", show_default=True,
              help="Colours of the print-shop cards: cmyk puts text and lines on the black plate only.")
@_lang_option(with_all=True)
def kit(paper: str, out_dir: str, bleed: float, color: str, lang: str) -> None:
    """Write the whole print kit into --out: score sheets, cards, solo table, rules, sample puzzles."""
    from hashi_print.files import check_writable
    from hashi_print.render.cards import check_bleed
    from hashi_print.render.kit import build_kits

    check_bleed(bleed)
    check_writable(out_dir)
    written = build_kits(out_dir, paper=paper, lang=lang, bleed=bleed, color=color)
    for path, what in written:
        click.echo(f"{path}  {what}")


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
@click.option("--generator", "generator", type=click.IntRange(1, 2), default=2, show_default=True,
              help="Generator version: 2 fills every grid to its edges with a minimum island count per "
                   "grade; 1 is the earlier generator, to remake puzzles from seeds recorded with it.")
@click.option("--json", "as_json", is_flag=True, help="Print one hashi-puzzle/1 JSON object per line.")
@click.option("--verbose", "-v", is_flag=True, help="Report attempts, repairs and rejections on stderr.")
def generate(width: int, height: int, difficulty: str, count: int, seed: int, density: str, generator: int,
             as_json: bool, verbose: bool) -> None:
    """Generate unique classic puzzles of an exact difficulty, each re-verified before it is printed."""
    import random
    import time

    from hashi_print.puzzle.formats import format_tatham_id, puzzle_text
    from hashi_print.puzzle.generate import GenerationStats, generate_many

    stats = GenerationStats()
    started = time.perf_counter()
    puzzles = generate_many(width, height, difficulty, count, random.Random(check_seed(seed)), density,
                            stats=stats,
                            version=generator)
    for done, gp in enumerate(_with_progress(puzzles, count), start=1):
        if as_json:
            emit_json(gp.to_json())
        else:
            click.echo(("\n" if done > 1 else "") + format_tatham_id(gp.puzzle))
            click.echo(puzzle_text(gp.puzzle))
    if verbose:
        click.echo(f"{count} puzzle(s) in {time.perf_counter() - started:.2f} s: {stats.summary()}", err=True)


def _with_progress(items, total: int):
    """Yield the items, showing a progress bar on stderr when there is more than one."""
    if total <= 1:
        yield from items
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True, redirect_stdout=False,
                  redirect_stderr=False) as bar:
        task = bar.add_task("generating", total=total)
        for item in items:
            yield item
            bar.advance(task)


# --- played sheets ---------------------------------------------------------------------------

def _sheet_options(func):
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
    from hashi_print.game.board import load_side
    from hashi_print.sheets.validate import default_deck, default_scoring, report_lines, validate_file

    if level is not None and not solo:
        raise OptionError("--level chooses the turn limits of a solo game: add --solo")
    side = load_side(layout) if layout else None
    report = validate_file(sheet, side, default_deck(deck_file), default_scoring(scoring_file), partial,
                           solo, level)
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
    from hashi_print.files import distinct_files
    from hashi_print.game.board import load_side
    from hashi_print.sheets.validate import default_deck, default_scoring, score_players, validate_file

    distinct_files(sheets)
    side = load_side(layout) if layout else None
    scoring = default_scoring(scoring_file)
    deck = default_deck(deck_file)
    result = score_players([validate_file(s, side, deck, scoring, partial) for s in sheets], scoring)
    if as_json:
        emit_json(result.to_json())
    else:
        from rich.console import Console
        from rich.table import Table

        table = Table(title="Hashi scores")
        for col in ("player", "rules", "circled", "red", "blue", "six", "total"):
            table.add_column(col, justify="left" if col in ("player", "rules") else "right")
        for player in result.players:
            table.add_row(*player.table_row())
        console = Console(width=100)
        console.print(table)
        console.print(f"winner: {', '.join(result.winners) or 'none (every player broke a rule)'}")
        for problem in result.problems:
            console.print(f"warning: {problem}", markup=False)
        for note in result.unchecked:
            console.print(f"not checkable: {note}", markup=False)
    if result.problems:
        click.get_current_context().exit(EXIT_BROKEN_RULE)


# --- photographed sheets ----------------------------------------------------------------------

EXIT_REVIEW = 3


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
    from pathlib import Path

    from hashi_print.files import write_atomic
    from hashi_print.game.board import load_side
    from hashi_print.game.deck import load_deck
    from hashi_print.game.scoring import load_scoring
    from hashi_print.scan.overlay import overlay_png, player_crop_png
    from hashi_print.scan.read import ScanStatus, scan_file
    from hashi_print.sheets.validate import report_lines

    side = load_side(layout) if layout else None
    deck, scoring = load_deck(deck_file), load_scoring(scoring_file)
    scans = []
    for image in images:
        result = scan_file(image, deck, scoring, side)
        scans.append(result)
        if result.marks is not None and overlay:
            target = Path(overlay)
            if len(images) > 1:
                target = target.with_name(f"{target.stem}-{Path(image).stem}{target.suffix or '.png'}")
            write_atomic(target, overlay_png(result, len(deck.cards)))
        if result.marks is not None and write_dir:
            side_text = f"layout {Path(layout).resolve()}" if layout else None
            write_atomic(Path(write_dir) / f"{Path(image).name}.sheet.txt", result.sheet_text(side_text))
            write_atomic(Path(write_dir) / f"{Path(image).name}.player.png", player_crop_png(result))
    if as_json:
        objs = [s.to_json() for s in scans]
        emit_json(objs[0] if len(objs) == 1 else objs)
    else:
        for s in scans:
            if s.status is ScanStatus.UNREADABLE:
                click.echo(f"hashi-print: {s.error}", err=True)
                continue
            click.echo(f"{s.file}: {s.status.value} (side {s.side}, {s.paper})")
            for u in s.uncertain:
                click.echo(f"  check {u.note()}")
            for line in report_lines(s.validation):
                click.echo(f"  {line}")
    statuses = {s.status for s in scans}
    if ScanStatus.UNREADABLE in statuses:
        code = EXIT_BAD_INPUT
    elif ScanStatus.REVIEW in statuses:
        code = EXIT_REVIEW
    elif any(s.broken for s in scans):
        code = EXIT_BROKEN_RULE
    else:
        code = 0
    click.get_current_context().exit(code)


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
@click.option("--generator", "generator", type=click.IntRange(1, 2), default=2, show_default=True,
              help="Generator version: 2 fills every grid to its edges with a minimum island count per "
                   "grade; 1 is the earlier generator, to remake puzzles from seeds recorded with it.")
@click.option("--from", "from_file", type=click.Path(dir_okay=False, exists=True), default=None,
              help="Lay out the puzzles of this file (IDs, URLs or JSON lines) instead of generating "
                   "(then --count, --size(s), --difficulty, --density and --seed are not used).")
@click.option("--trim", type=click.Choice(list(TRIMS)), default="a4", show_default=True,
              help="Page size of the book: A4, US Letter, or the 6x9 in and 8.5x11 in trims of KDP.")
@click.option("--profile", type=click.Choice(PROFILES), default="pnp", show_default=True,
              help="pnp: print at home (bookmarks, optional crop marks); kdp: clean KDP interior.")
@click.option("--order", type=click.Choice(ORDERS), default="progression",
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
@click.option("--color", "color", type=click.Choice(COLOR_MODELS), default="rgb", show_default=True,
              help="cmyk for print shops: every colour in CMYK, text and lines on the black plate only.")
@click.option("--cover", "cover_file", type=click.Path(dir_okay=False), default=None,
              help="kdp only: also write the paperback cover (back, spine, front, 0.125 in bleed) "
                   "to this PDF.")
@click.option("--paper-type", type=click.Choice(PAPER_TYPES), default="white", show_default=True,
              help="The KDP interior paper, which sets the cover's spine width.")
@click.option("--cover-style", type=click.Choice(["classic", "night", "paper"]), default="classic",
              show_default=True,
              help="The cover's design: classic (blue, the largest puzzle solved on a white panel), night "
                   "(night blue, the puzzle on the background) or paper (cream, blue title).")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="PDF to write [default: output/hashi-book-<trim>.pdf].")
@click.option("--manifest", type=click.Path(dir_okay=False), default=None,
              help="Also write a JSON list of each puzzle's number, page, ID and solution.")
@click.option("--from-bank", "bank_file", type=click.Path(dir_okay=False), default=None,
              help="Take --count puzzles no book has used from this bank (of --difficulty and --size when "
                   "given), in stored order, instead of generating; needs --mark-used.")
@click.option("--mark-used", "mark_used", default=None, metavar="NAME",
              help="With --from-bank: record in the bank that the book NAME used its puzzles, in the same "
                   "step that writes the book, so no later book gets them.")
@_lang_option()
def book(count: int, size: str, sizes: str | None, difficulty: str, density: str | None, seed: int,
         generator: int, from_file: str | None, trim: str, profile: str, order: str, title: str,
         crop_marks: bool, per_page: int | None, ids_under: bool, author: str, year: int | None, isbn: str,
         credit: bool, color: str, cover_file: str | None, paper_type: str, cover_style: str, out: str | None,
         manifest: str | None, lang: str, bank_file: str | None, mark_used: str | None) -> None:
    """Make a print-ready PDF puzzle book: title, copyright and contents pages, how to play, numbered
    puzzles grouped by grade and size, solutions at the back. The book is checked against its print
    profile (KDP or home printing) before anything is generated and again before it is written.
    """
    from hashi_print.files import check_target, write_atomic
    from hashi_print.i18n import _, language
    from hashi_print.puzzle.book import book_plan_requests, generate_puzzles, load_puzzles, parse_size
    from hashi_print.render.book import BookOptions, check_book_plan, check_isbn, render_book

    out = out or f"output/hashi-book-{trim}.pdf"
    for target in filter(None, (out, manifest, cover_file)):
        check_target(target)
    if sizes and sizes.count(",") >= MAX_SIZES:
        raise OptionError(f"--sizes: at most {MAX_SIZES} sizes")
    lang = lang.lower()
    isbn = check_isbn(isbn)
    if year is None and author:
        from datetime import UTC, datetime

        from hashi_print.render.book import copyright_year

        year = copyright_year(os.environ, datetime.now(UTC))
    options = BookOptions(title=title, trim=trim, profile=profile, order=order, crop_marks=crop_marks,
                          per_page=per_page, author=author, year=year, isbn=isbn, credit=credit, color=color,
                          lang=lang, ids_under=ids_under, cover_style=cover_style)
    if cover_file and profile != "kdp":
        raise OptionError("--cover makes a KDP paperback cover: use it with --profile kdp")
    if bank_file or mark_used:
        if from_file:
            raise OptionError("--from and --from-bank are two sources of puzzles: give one")
        if cover_file:
            raise OptionError("--cover is not available with --from-bank")
        _book_from_bank(bank_file, mark_used, count, size, sizes, difficulty, options, out, manifest)
        return
    if from_file:
        puzzles = load_puzzles(from_file)
        with language(lang):
            note = _("puzzles from {file}").format(
                file=click.format_filename(from_file, shorten=True))
    else:
        grid_sizes = [parse_size(s) for s in (sizes.split(",") if sizes else [size])]
        requests = book_plan_requests(count, grid_sizes, difficulty)
        check_book_plan(requests, options, density)
        made = generate_puzzles(requests, check_seed(seed), density, version=generator)
        puzzles = list(_with_progress(made, len(requests)))
        with language(lang):
            note = _("seed {seed}").format(seed=seed)
    options = dataclasses.replace(options, note=note)
    result = render_book(puzzles, options)
    if cover_file:
        from hashi_print.render.cover import render_cover

        cover, what = render_cover(puzzles, options, result.pages, paper_type)
    path = write_atomic(out, result.pdf)
    covered = write_atomic(cover_file, cover) if cover_file else None
    if manifest:
        write_atomic(manifest, json.dumps(result.manifest, indent=1) + "\n")
    for warning in result.warnings:
        click.echo(f"hashi-print: warning: {warning}", err=True)
    click.echo(f"{path}  {_count(len(puzzles), 'puzzle')}, {result.pages} pages ({trim}, {profile})")
    if covered:
        click.echo(f"{covered}  cover, {what}")


@cli.command()
@click.option("--side", type=click.Choice(["A", "B"]), default=None,
              help="The designed side to print (not needed with --layout or --fill).")
@click.option("--layout", type=click.Path(dir_okay=False), help="A hashi-side/1 file of your own board.")
@click.option("--paper", type=click.Choice(list(PAPER)), default="a4", show_default=True,
              help="Paper size of the sheet.")
@click.option("--format", "fmt", type=click.Choice(["pdf", "svg", "png"]), default="pdf", show_default=True,
              help="PDF to print, or SVG to edit or show on screen; png only with --fill (a picture).")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="File to write (default: output/sheet-SIDE-PAPER.FORMAT).")
@click.option("--deck", "deck_file", type=click.Path(dir_okay=False),
              help="A hashi-deck/1 file for the card strip (default: the designed deck).")
@click.option("--scoring", "scoring_file", type=click.Path(dir_okay=False),
              help="A hashi-scoring/1 file for the bonus boxes (default: the designed scoring).")
@click.option("--fill", "fill_file", type=click.Path(dir_okay=False), default=None,
              help="Draw the end of this game record or finished sheet onto the sheet.")
@click.option("--hand", type=int, default=None, metavar="SEED",
              help="With --fill: draw as a hand would (wobbly strokes, handwritten digits), from this seed.")
@click.option("--pen", type=click.Choice(["blue", "black", "felt", "pencil"]), default="blue",
              show_default=True, help="With --fill --hand: the pen the hand holds.")
@_lang_option()
def sheet(side: str | None, layout: str | None, paper: str, fmt: str, out: str | None, deck_file: str | None,
          scoring_file: str | None, fill_file: str | None, hand: int | None, pen: str, lang: str) -> None:
    """Print a score sheet for side A or B, or for a board of your own (--layout FILE).

    With --fill RECORD_OR_SHEET, draw that game's numerals, bridges, circles, crossed-off cards, goal
    turns and (from a record) the starting island onto the sheet (neatly, or by hand with --hand SEED):
    a picture for the rules or a test.
    """
    if side and layout:
        raise OptionError("--side and --layout both choose the board: give one")
    if fill_file is None:
        if fmt == "png":
            raise HashiError("--format png needs --fill (blank sheets print as pdf or svg)")
        from hashi_print.render.kit import print_sheet

        path = print_sheet(side, layout, paper, fmt, out, deck=deck_file, scoring=scoring_file,
                           lang=lang.lower())
        click.echo(f"{path}  score sheet ({paper}, {fmt})")
        return
    import random

    from hashi_print.files import inside
    from hashi_print.game.board import load_side
    from hashi_print.game.deck import load_deck
    from hashi_print.game.scoring import load_scoring
    from hashi_print.i18n import language
    from hashi_print.render.fill import Pen, hand_pen, render_filled
    from hashi_print.sheets.formats import read_sheet
    from hashi_print.sheets.marks import marks_of

    board = load_side(layout) if layout else None
    doc = read_sheet(fill_file, board)
    deck, scoring = load_deck(deck_file), load_scoring(scoring_file)
    marks = marks_of(doc, deck)
    drawn = hand_pen(random.Random(hand), pen) if hand is not None else Pen()
    custom = layout is not None or doc.side.name.upper() not in ("A", "B")
    target = out or inside("output", f"sheet-{doc.side.name}-{paper}-filled.{fmt}")
    with language(lang.lower()):
        path = render_filled(marks, deck, scoring, paper, fmt, target, drawn, custom)
    click.echo(f"{path}  filled score sheet ({paper}, {fmt})")


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
    steps = result.steps
    if not steps:
        from hashi_print.puzzle.check import check_solution
        from hashi_print.puzzle.model import Solution

        drawn = Solution.from_lane_counts(pz.geometry, counts)
        click.echo("The bridges drawn solve the puzzle." if not check_solution(pz, drawn) else
                   "No further deduction from here: the deducer is stuck (the puzzle may need a guess).")
        return
    for step in steps[:-1]:
        click.echo(f"Known: {step.text}")
    click.echo(f"[{steps[-1].technique}, {steps[-1].grade}] {steps[-1].text}")


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
    import time

    from hashi_print.files import check_writable, layouts_folder
    from hashi_print.game.design import budget_from, design, objective_problems
    from hashi_print.game.design_report import write_design
    from hashi_print.game.simulate import RichProgress

    check_seed(seed)
    others = _seed_list(compare_seeds)
    check_writable(out_dir)
    layouts_dir = None if layouts_to is None else str(check_writable(layouts_folder(layouts_to)))
    started = time.monotonic()
    bar = RichProgress("designing")
    try:
        runs = [design(s, budget_from(budget, quick), workers=workers, note=bar.describe, progress=bar.update)
                for s in [seed, *others]]
    finally:
        bar.stop()
    result = runs[0]
    for path in write_design(result, out_dir, layouts_dir, time.monotonic() - started, runs[1:]):
        click.echo(path)
    for problem in objective_problems(result):
        click.echo(f"warning: design objective not met: {problem}", err=True)


def _seed_list(text: str) -> list[int]:
    """Parse `2,3,4,5` into seeds (at most 10); raise OptionError naming the bad part."""
    seeds = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        if not part.lstrip("-").isdigit() or len(part) > 12:
            raise OptionError(f"--compare-seeds: {part[:20]!r} is not a whole number")
        seeds.append(int(part))
    if len(seeds) > 10:
        raise OptionError("--compare-seeds: at most 10 seeds")
    return seeds


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


def _book_from_bank(bank_file: str | None, name: str | None, count: int, size: str, sizes: str | None,
                    difficulty: str, options, out: str | None, manifest: str | None) -> None:
    """Make a book of never-used bank puzzles and mark them used by it, all in one transaction."""
    from hashi_print.bank.store import check_book_name, draw_unused, open_bank, record_book
    from hashi_print.errors import BankError
    from hashi_print.puzzle.book import BookPuzzle, parse_size
    from hashi_print.puzzle.model import Grade
    from hashi_print.render.book import render_book

    if not bank_file or not name:
        raise BankError("--from-bank FILE and --mark-used NAME go together: the bank records which book "
                        "used its puzzles so that no later book prints them again")
    if sizes:
        raise BankError("--sizes does not apply to --from-bank; use --size to pick one size, or none for any")
    ctx = click.get_current_context()
    size_given = ctx.get_parameter_source("size") != click.core.ParameterSource.DEFAULT
    grid = parse_size(size) if size_given else None
    grade = None if difficulty == MIXED else Grade(difficulty)
    path = out or f"output/hashi-book-{options.trim}.pdf"
    with closing(open_bank(bank_file)) as conn:
        check_book_name(conn, name)
        drawn = draw_unused(conn, count, grade, grid)
        puzzles = [BookPuzzle(p.puzzle, p.solution, p.grade, p.tatham_id, p.seed, p.generator)
                   for p in drawn]
        result = render_book(puzzles, dataclasses.replace(options, note=name.strip()))
        files = [(path, result.pdf)]
        if manifest:
            files.append((manifest, json.dumps(result.manifest, indent=1) + "\n"))
        record_book(conn, name, drawn, files)
    click.echo(f"{path}  {_count(len(puzzles), 'puzzle')} from {bank_file}, marked used by {name.strip()!r}, "
               f"{result.pages} pages ({options.trim}, {options.profile})")


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
    from hashi_print.bank.executors import DaskCluster, LocalPool
    from hashi_print.bank.fill import check_count, fill, make_spec
    from hashi_print.bank.store import fill_state, open_bank
    from hashi_print.puzzle.book import parse_size

    spec = make_spec(*parse_size(size), difficulty, seed, density)
    check_count(count)
    executor = DaskCluster(scheduler) if scheduler else LocalPool(workers)
    with closing(open_bank(db, create=True)) as conn:
        bar = _FillBar(count, f"{difficulty} {spec.cols}x{spec.rows}")
        try:
            with bar:
                report = fill(conn, spec, count, executor, progress=bar.update)
        except KeyboardInterrupt:
            kept = fill_state(conn, spec).stored
            click.echo(f"hashi-print: interrupted; {db} keeps {kept} puzzle(s) of this fill; "
                       "run the same command again to continue", err=True)
            click.get_current_context().exit(EXIT_INTERRUPTED)
    done = report.state
    click.echo(f"{db}: {done.stored} {difficulty} {spec.cols}x{spec.rows} puzzles of seed {seed} "
               f"({report.added} new, {report.duplicates} symmetric duplicate(s) skipped) in "
               f"{report.seconds:.1f} s, {report.rate:.2f} puzzles/s on {executor.describe()}")


def _start_holding_ctrl_c(progress) -> None:
    """Start a rich progress display with Ctrl-C held back until it is fully started."""
    import signal
    import threading

    # rich marks a display started before it registers it with the console; a Ctrl-C in between left a
    # display that stop() could not undo (IndexError), so the user saw a traceback instead of exit 130.
    # Python runs signal handlers in the main thread only, so swapping the handler holds the Ctrl-C back
    # whichever thread the system hands it to (masking the signal would not, with worker threads about).
    if threading.current_thread() is not threading.main_thread():
        progress.start()
        return
    held: list[int] = []
    before = signal.signal(signal.SIGINT, lambda signum, _frame: held.append(signum))
    try:
        progress.start()
    finally:
        signal.signal(signal.SIGINT, before)
    if held and callable(before):
        before(signal.SIGINT, None)
    elif held and before == signal.SIG_DFL:
        signal.raise_signal(signal.SIGINT)


class _FillBar:
    """A rich progress bar on stderr for a fill: stored of wanted, rate of this run, time left."""

    def __init__(self, total: int, what: str):
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"),
                                 TimeRemainingColumn(), console=Console(stderr=True), redirect_stdout=False,
                                 redirect_stderr=False)
        self.task = self.progress.add_task(what, total=total, rate="")
        self.shown = False
        self.started = 0.0

    def __enter__(self):
        import time

        self.started = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.progress.stop()

    def update(self, state, added: int) -> None:
        """Show how many puzzles the fill holds and how fast this run adds them (from the first batch on)."""
        import time

        if not self.shown:
            self.shown = True
            _start_holding_ctrl_c(self.progress)
        rate = added / max(time.perf_counter() - self.started, 1e-9)
        dups = f", {state.duplicates} dup" if state.duplicates else ""
        self.progress.update(self.task, completed=state.stored, rate=f"{rate:.1f} puzzles/s{dups}")


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
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{db}: {stats.puzzles} puzzles, {stats.puzzles - stats.used} unused")
    for col in ("size", "grade", "puzzles", "used", "unused"):
        table.add_column(col, justify="left" if col in ("size", "grade") else "right")
    for g in stats.groups:
        table.add_row(f"{g.cols}x{g.rows}", g.grade, str(g.puzzles), str(g.used), str(g.puzzles - g.used))
    console = Console(width=100)
    console.print(table)
    for b in stats.books:
        console.print(f"book {b.name!r}: {b.puzzles} puzzles ({b.made_at})", markup=False)


@bank.command("export")
@click.option("--db", required=True, type=click.Path(dir_okay=False), help="The bank's SQLite file.")
@click.option("--format", "fmt", type=click.Choice(["tatham", "puzzlink", "json"]), default="tatham",
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
