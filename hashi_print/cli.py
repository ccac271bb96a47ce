"""The hashi-print command: parse arguments, call the library, print, and exit 0, 1 or 2."""

from __future__ import annotations

import json
import sys

import click

from hashi_print.errors import HashiError

EXIT_BROKEN_RULE = 1
EXIT_BAD_INPUT = 2


class HashiGroup(click.Group):
    """A click group that turns every HashiError into one line on stderr and exit code 2."""

    def invoke(self, ctx: click.Context):
        """Run the subcommand, catching bad input once for all commands."""
        try:
            return super().invoke(ctx)
        except HashiError as err:
            click.echo(f"hashi-print: {err}", err=True)
            ctx.exit(EXIT_BAD_INPUT)
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


def emit_json(obj: object) -> None:
    """Print one JSON object on one line."""
    click.echo(json.dumps(obj, separators=(", ", ": ")))


# --- classic puzzles -------------------------------------------------------------------------

@cli.command()
@click.argument("puzzle")
@click.option("--json", "as_json", is_flag=True, help="Print the contract JSON object instead of a grid.")
@click.option("--mode", type=click.Choice(["lazy", "eager"]), default="lazy", show_default=True,
              help="Connectivity: cuts added lazily, or an eager reachability encoding.")
@click.option("--backend", type=click.Choice(["cadical195", "glucose4", "minisat22"]),
              default="cadical195", show_default=True, help="The SAT solver to use.")
def solve(puzzle: str, as_json: bool, mode: str, backend: str) -> None:
    """Solve PUZZLE (a Tatham ID, puzz.link URL or file) and prove whether the solution is unique."""
    from hashi_print.puzzle.formats import read_puzzle, solution_text
    from hashi_print.puzzle.solve import solve as run_solve

    pz = read_puzzle(puzzle)
    result = run_solve(pz, mode=mode, backend=backend)
    if as_json:
        emit_json({
            "status": result.status,
            "solution": result.solution.as_lists() if result.solution else None,
            "seconds": round(result.seconds, 6),
        })
        return
    if result.solution is not None:
        click.echo(solution_text(pz, result.solution))
    verdict = {"unique": "unique: exactly one solution",
               "multiple": "multiple: at least two solutions (one shown)",
               "none": "none: the puzzle has no solution"}[result.status]
    click.echo(f"{verdict} ({result.seconds:.3f} s)")


# --- the print kit ---------------------------------------------------------------------------

@cli.command()
@click.option("--paper", type=click.Choice(["a4", "letter", "both"]), default="both", show_default=True)
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output", show_default=True,
              help="Folder to write the kit into.")
def kit(paper: str, out_dir: str) -> None:
    """Write the whole print kit (sheets, cards, solo table, rules, sample puzzles) into --out."""
    from hashi_print.render.kit import build_kit

    written = build_kit(out_dir, paper=paper)
    for path, what in written:
        click.echo(f"{path}  {what}")


def main() -> None:
    """Entry point of the console script."""
    sys.exit(cli(standalone_mode=True))


if __name__ == "__main__":
    main()
