"""The book job: generate, read or draw from a bank the puzzles of a book, lay it out, and write the files.

The options are checked and the book's plan is preflighted before a single puzzle is generated.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Mapping
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from hashi_print.bank.store import check_book_name, draw_unused, open_bank, record_book
from hashi_print.checks import check_isbn, check_seed
from hashi_print.errors import BankError, OptionError
from hashi_print.files import check_target, write_atomic
from hashi_print.i18n import _, language
from hashi_print.jobs.progress import Progress, no_progress
from hashi_print.options import ColorModel, CoverStyle, Order, PaperType, Profile, Trim
from hashi_print.puzzle.book import (
    MIXED,
    BookPuzzle,
    book_plan_requests,
    generate_puzzles,
    load_puzzles,
    parse_size,
)
from hashi_print.puzzle.generate import resolve_density
from hashi_print.puzzle.model import Grade
from hashi_print.render.book import BookOptions, check_book_plan, render_book
from hashi_print.render.cover import render_cover

DEFAULT_SIZE = "10x10"
MAX_SIZES = 20


@dataclass(frozen=True)
class BookRequest:
    """What `hashi-print book` asks for: the puzzles (generated, from a file or from a bank), the book's
    look and front matter, and the files to write. `size` None means the default size (and, from a bank,
    any size)."""

    count: int = 20
    size: str | None = None
    sizes: str | None = None
    difficulty: str = MIXED
    density: str | None = None
    seed: int = 1
    generator: int = 2
    from_file: str | None = None
    trim: Trim = Trim.A4
    profile: Profile = Profile.PNP
    order: Order = Order.PROGRESSION
    title: str = "Hashi"
    crop_marks: bool = False
    per_page: int | None = None
    ids_under: bool = False
    author: str = ""
    year: int | None = None
    isbn: str = ""
    credit: bool = True
    color: ColorModel = ColorModel.RGB
    cover: str | None = None
    paper_type: PaperType = PaperType.WHITE
    cover_style: CoverStyle = CoverStyle.CLASSIC
    out: str | None = None
    manifest: str | None = None
    lang: str = "en"
    bank: str | None = None
    mark_used: str | None = None


@dataclass(frozen=True)
class BookResult:
    """The book written: its file, how many puzzles and pages, warnings, and the cover or bank it used."""

    path: str
    puzzles: int
    pages: int
    trim: str
    profile: str
    warnings: tuple[str, ...] = ()
    cover: Path | None = None
    cover_what: str = ""
    bank: str | None = None
    used_by: str | None = None


def default_out(trim: str) -> str:
    """The book's file when --out is not given."""
    return f"output/hashi-book-{trim}.pdf"


def copyright_year(env: Mapping[str, str], now: datetime) -> int:
    """The copyright year when --year is not given: the year of SOURCE_DATE_EPOCH if set, else now's."""
    epoch = env.get("SOURCE_DATE_EPOCH")
    if epoch is None or not epoch.strip():
        return now.year
    if not epoch.strip().isascii() or not epoch.strip().isdigit() or len(epoch.strip()) > 12:
        raise OptionError(f"SOURCE_DATE_EPOCH={epoch[:30]!r} is not a whole number of seconds since "
                          "1970-01-01 UTC; fix it or give --year")
    return datetime.fromtimestamp(int(epoch), UTC).year


def book_options(request: BookRequest, env: Mapping[str, str] | None = None) -> BookOptions:
    """Check the request's options and turn them into the book's look (the year from the environment)."""
    isbn = check_isbn(request.isbn)
    year = request.year
    if year is None and request.author:
        year = copyright_year(os.environ if env is None else env, datetime.now(UTC))
    return BookOptions(title=request.title, trim=request.trim, profile=request.profile, order=request.order,
                       crop_marks=request.crop_marks, per_page=request.per_page, ids_under=request.ids_under,
                       author=request.author, year=year, isbn=isbn, credit=request.credit,
                       color=request.color, lang=request.lang.lower(), cover_style=request.cover_style)


def make_book(request: BookRequest, progress: Progress = no_progress) -> BookResult:
    """Make the book; `progress(done, total)` is called after each puzzle generated."""
    out = request.out or default_out(request.trim)
    for target in filter(None, (out, request.manifest, request.cover)):
        check_target(target)
    if request.sizes and request.sizes.count(",") >= MAX_SIZES:
        raise OptionError(f"--sizes: at most {MAX_SIZES} sizes")
    options = book_options(request)
    if request.cover and request.profile != Profile.KDP:
        raise OptionError("--cover makes a KDP paperback cover: use it with --profile kdp")
    if request.bank or request.mark_used:
        if request.from_file:
            raise OptionError("--from and --from-bank are two sources of puzzles: give one")
        if request.cover:
            raise OptionError("--cover is not available with --from-bank")
        return _book_from_bank(request, options, out)
    puzzles, note = _puzzles(request, options, progress)
    options = dataclasses.replace(options, note=note)
    book = render_book(puzzles, options)
    cover, what = (render_cover(puzzles, options, book.pages, request.paper_type) if request.cover
                   else (b"", ""))
    path = write_atomic(out, book.pdf)
    covered = write_atomic(request.cover, cover) if request.cover else None
    if request.manifest:
        write_atomic(request.manifest, json.dumps(book.manifest, indent=1) + "\n")
    return BookResult(str(path), len(puzzles), book.pages, request.trim, request.profile, book.warnings,
                      covered, what)


def _puzzles(request: BookRequest, options: BookOptions,
             progress: Progress) -> tuple[list[BookPuzzle], str]:
    """The book's puzzles, read from --from or generated, and the note that says where they came from."""
    if request.from_file:
        puzzles = load_puzzles(request.from_file)
        with language(options.lang):
            return puzzles, _("puzzles from {file}").format(file=_shown_name(request.from_file))
    grid_sizes = [parse_size(s) for s in (request.sizes.split(",") if request.sizes
                                          else [request.size or DEFAULT_SIZE])]
    requests = book_plan_requests(request.count, grid_sizes, request.difficulty)
    check_book_plan(requests, options, resolve_density(request.density))
    puzzles = []
    made = generate_puzzles(requests, check_seed(request.seed), request.density, version=request.generator)
    for done, puzzle in enumerate(made, start=1):
        puzzles.append(puzzle)
        progress(done, len(requests))
    with language(options.lang):
        return puzzles, _("seed {seed}").format(seed=request.seed)


def _shown_name(path: str) -> str:
    """A file's name as the book's note shows it: without its folder, undecodable bytes replaced."""
    return os.path.basename(path).encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _book_from_bank(request: BookRequest, options: BookOptions, out: str) -> BookResult:
    """Make a book of never-used bank puzzles and mark them used by it, all in one transaction."""
    bank_file, name = request.bank, request.mark_used
    if not bank_file or not name:
        raise BankError("--from-bank FILE and --mark-used NAME go together: the bank records which book "
                        "used its puzzles so that no later book prints them again")
    if request.sizes:
        raise BankError("--sizes does not apply to --from-bank; use --size to pick one size, or none for any")
    grid = parse_size(request.size) if request.size is not None else None
    grade = None if request.difficulty == MIXED else Grade(request.difficulty)
    with closing(open_bank(bank_file)) as conn:
        check_book_name(conn, name)
        drawn = draw_unused(conn, request.count, grade, grid)
        puzzles = [BookPuzzle(p.puzzle, p.solution, p.grade, p.tatham_id, p.seed, p.generator)
                   for p in drawn]
        book = render_book(puzzles, dataclasses.replace(options, note=name.strip()))
        files: list[tuple[str, bytes | str]] = [(out, book.pdf)]
        if request.manifest:
            files.append((request.manifest, json.dumps(book.manifest, indent=1) + "\n"))
        record_book(conn, name, drawn, files)
    return BookResult(out, len(puzzles), book.pages, request.trim, request.profile, bank=bank_file,
                      used_by=name.strip())
