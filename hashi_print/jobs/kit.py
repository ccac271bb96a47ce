"""The print kit job: every product for the chosen paper sizes, plus an index.md saying what each file is for.

It loads the designed data, plays the leaflet's examples, generates the sample book's puzzles and writes
the files; the render layer only draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hashi_print.errors import OptionError
from hashi_print.files import check_writable, inside, write_atomic
from hashi_print.game.board import BoardSide, builtin_side, load_side
from hashi_print.game.deck import Deck, load_deck
from hashi_print.game.scoring import Scoring, load_scoring
from hashi_print.i18n import LANGUAGES, N_, _, check_language, language
from hashi_print.jobs.leaflet import leaflet_examples
from hashi_print.jobs.progress import Progress, no_progress
from hashi_print.options import ColorModel
from hashi_print.puzzle.book import MIXED, book_plan_requests, generate_puzzles
from hashi_print.render.book import BookOptions, render_book
from hashi_print.render.cards import (
    BLEED,
    check_bleed,
    render_cards_pdf,
    render_cards_printshop,
    render_cards_svg,
    with_bleed,
)
from hashi_print.render.leaflet import Example, render_leaflet
from hashi_print.render.sheet import render_sheet
from hashi_print.render.solo import render_solo

PAPER_NAMES = {"a4": N_("A4"), "letter": N_("US Letter")}
BOTH = "both"  # the kit's --paper word for A4 and Letter together
ALL = "all"    # the kit's --lang word for every language, each in its own folder

@dataclass(frozen=True)
class KitRequest:
    """What `hashi-print kit` asks for: where, which papers and languages, the print-shop cards' bleed
    and colours, and optionally sides, deck and scoring of one's own (objects or files; None: designed)."""

    out_dir: Path
    paper: str = BOTH
    lang: str = "en"
    bleed: float = BLEED
    color: ColorModel = ColorModel.RGB
    side_a: BoardSide | str | Path | None = None
    side_b: BoardSide | str | Path | None = None
    deck: Deck | str | Path | None = None
    scoring: Scoring | str | Path | None = None


@dataclass(frozen=True)
class Written:
    """One file the kit wrote and what it is for (in the kit's language)."""

    path: Path
    what: str


@dataclass(frozen=True)
class KitResult:
    """Every file written, in the order the kit's index.md lists them."""

    files: tuple[Written, ...]


def make_kit(request: KitRequest, progress: Progress = no_progress) -> KitResult:
    """Write the print kit; `progress(done, total)` is called after each language's kit is written."""
    check_bleed(request.bleed)
    check_writable(request.out_dir)
    langs = languages_of(request.lang)
    out = Path(request.out_dir)
    written: list[tuple[Path, str]] = []
    for done, code in enumerate(langs, start=1):
        folder = out if len(langs) == 1 else out / code
        written += build_kit(folder, request.paper, lang=code, bleed=request.bleed, color=request.color,
                             side_a=request.side_a, side_b=request.side_b, deck=request.deck,
                             scoring=request.scoring)
        progress(done, len(langs))
    return KitResult(tuple(Written(path, what) for path, what in written))


@dataclass(frozen=True)
class KitData:
    """The designed data a kit is drawn from."""

    side_a: BoardSide
    side_b: BoardSide
    deck: Deck
    scoring: Scoring


def load_kit_data(side_a: BoardSide | str | Path | None = None, side_b: BoardSide | str | Path | None = None,
                  deck: Deck | str | Path | None = None,
                  scoring: Scoring | str | Path | None = None) -> KitData:
    """Collect sides, deck and scoring: objects as given, paths read, None the designed ones."""
    def side(value: BoardSide | str | Path | None, name: str) -> BoardSide:
        """Resolve one side."""
        if isinstance(value, BoardSide):
            return value
        return load_side(value) if value else builtin_side(name)

    d = deck if isinstance(deck, Deck) else load_deck(deck)
    s = scoring if isinstance(scoring, Scoring) else load_scoring(scoring)
    return KitData(side(side_a, "A"), side(side_b, "B"), d, s)


def papers_of(paper: str) -> tuple[str, ...]:
    """Turn the --paper choice (a4, letter or both) into the paper sizes to print."""
    if paper == BOTH:
        return ("a4", "letter")
    if paper not in PAPER_NAMES:
        raise OptionError(f"unknown paper {paper!r}; use a4, letter or both")
    return (paper,)


def languages_of(lang: str) -> tuple[str, ...]:
    """Turn the --lang choice (a language code or all) into the languages to print."""
    return LANGUAGES if lang.strip().lower() == ALL else (check_language(lang),)


def build_kit(out_dir: str | Path, paper: str = BOTH, *, side_a: BoardSide | str | Path | None = None,
              side_b: BoardSide | str | Path | None = None, deck: Deck | str | Path | None = None,
              scoring: Scoring | str | Path | None = None, lang: str = "en", bleed: float = BLEED,
              color: str = "rgb") -> list[tuple[Path, str]]:
    """Write every product in language `lang` into `out_dir` and an index.md; return (path, what it is).

    `bleed` (mm) and `color` (rgb or cmyk) apply to the print-shop cards.
    """
    papers = papers_of(paper)
    data = load_kit_data(side_a, side_b, deck, scoring)
    out = Path(out_dir)
    examples = leaflet_examples(data.side_a, data.deck)
    written: list[tuple[Path, str]] = []
    with language(lang):
        for p in papers:
            name = _(PAPER_NAMES[p])
            for side, gentle in ((data.side_a, _("gentler")), (data.side_b, _("harder"))):
                target = inside(out, f"sheet-{side.name}-{p}.pdf")
                path = render_sheet(side, data.deck, data.scoring, p, "pdf", target, lang=lang)
                what = _("score sheet, side {side} ({gentle}), {paper}: print one per player per game "
                         "at 100 %")
                written.append((path, what.format(side=side.name, gentle=gentle, paper=name)))
            what = _("the 18 cards, {paper}: fronts and backs on alternate pages; print double-sided "
                     "(flip on long edge) on card stock at 100 %, cut along the lines")
            written.append((render_cards_pdf(data.deck, p, out / f"cards-{p}.pdf", lang=lang),
                            what.format(paper=name)))
            written.append((render_solo(data.scoring, p, "pdf", out / f"solo-{p}.pdf", lang=lang),
                            _("solo table, {paper}: turn limits per side and level, score ratings, a log")
                            .format(paper=name)))
            written.append((render_leaflet(data.side_a, data.scoring, p, "pdf", out / f"rules-{p}.pdf",
                                           examples, lang=lang),
                            _("rules leaflet (2 pages), {paper}: print double-sided").format(paper=name)))
        what = with_bleed(_("the 18 cards for a print shop: one poker-size card face per page with 3 mm "
                            "bleed (TrimBox/BleedBox set), front then back"), bleed)
        if color != "rgb":
            what += f" [{color.upper()}]"
        shop = render_cards_printshop(data.deck, out / "cards-printshop.pdf", bleed, color, lang=lang)
        written.append((shop, what))
        for sp in papers:
            written += svg_files(data, sp, out / "svg" / sp, examples, lang)
        written += sample_books(out, papers, lang)
        index = write_atomic(out / "index.md", index_text(written, out))
        written.append((index, _("this list")))
    return written


def svg_files(data: KitData, paper: str, svg: Path, examples: list[Example],
              lang: str = "en") -> list[tuple[Path, str]]:
    """Write the sheets, cards, solo table and leaflet as SVG for one paper size, in language `lang`."""
    written: list[tuple[Path, str]] = []
    with language(lang):
        size = _("{paper} size").format(paper=_(PAPER_NAMES[paper]))
        for side in (data.side_a, data.side_b):
            target = inside(svg, f"sheet-{side.name}.svg")
            path = render_sheet(side, data.deck, data.scoring, paper, "svg", target, lang=lang)
            written.append((path, _("score sheet, side {side}, as SVG ({size}; ids island-X, lane-X-Y)")
                            .format(side=side.name, size=size)))
        for path in render_cards_svg(data.deck, paper, svg, lang=lang):
            if path.stem.endswith("back"):
                what = _("card backs as SVG ({size})").format(size=size)
            else:
                what = _("card fronts, page {page} as SVG ({size})").format(page=path.stem[-1], size=size)
            written.append((path, what))
        written.append((render_solo(data.scoring, paper, "svg", svg / "solo.svg", lang=lang),
                        _("solo table as SVG ({size})").format(size=size)))
        for page in (1, 2):
            written.append((render_leaflet(data.side_a, data.scoring, paper, "svg", svg / f"rules-{page}.svg",
                                           examples, page=page, lang=lang),
                            _("rules leaflet page {page} as SVG ({size})").format(page=page, size=size)))
    return written


@dataclass(frozen=True)
class SampleBook:
    """The kit's small book of classic puzzles: how many, of which sizes and grades, from which seed."""

    count: int = 12
    sizes: tuple[tuple[int, int], ...] = ((7, 7), (10, 10))
    difficulty: str = MIXED
    seed: int = 1


SAMPLE_BOOK = SampleBook()


def sample_books(out: Path, papers: tuple[str, ...], lang: str = "en") -> list[tuple[Path, str]]:
    """Write a small book of classic puzzles (generated once, laid out per paper) for solo evenings."""
    requests = book_plan_requests(SAMPLE_BOOK.count, SAMPLE_BOOK.sizes, SAMPLE_BOOK.difficulty)
    puzzles = list(generate_puzzles(requests, SAMPLE_BOOK.seed))
    written = []
    with language(lang):
        for p in papers:
            note = _("seed {seed}").format(seed=SAMPLE_BOOK.seed)
            options = BookOptions(title=_("Hashi: classic puzzles"), trim=p, lang=lang, note=note)
            book = render_book(puzzles, options)
            path = write_atomic(out / f"puzzles-{p}.pdf", book.pdf)
            what = _("{count} classic Hashiwokakero puzzles (7x7 and 10x10, easy to expert), each proven "
                     "unique, solutions at the back, {paper}; `hashi-print book` makes more")
            written.append((path, what.format(count=len(puzzles), paper=_(PAPER_NAMES[p]))))
    return written


def index_text(written: list[tuple[Path, str]], out: Path) -> str:
    """The index.md of a kit: each file and what it is for, plus printing advice."""
    lines = [_("# Hashi print kit"), "",
             _("Everything needed to play Hashi on paper. Print at 100 % (\"actual size\", not \"fit to "
               "page\"): the 50 mm ruler at the bottom of each score sheet must measure 50 mm."), "",
             _("| File | What it is for |"), "| --- | --- |"]
    for path, what in written:
        lines.append(f"| `{path.relative_to(out).as_posix()}` | {what} |")
    own = _("To play on a board of your own: `hashi-print sheet --side A --layout my-side.json`.")
    lines += ["", own, ""]
    return "\n".join(lines)
