"""hashi_print: Hashi print kits, SAT-proven puzzle books, and a sheet validator.

The few entry points a Python program needs, imported on first use so that `import hashi_print` stays
quick::

    import hashi_print
    puzzle = hashi_print.read_puzzle("7x7:...")
    hashi_print.solve(puzzle).status             # "unique", "multiple" or "none"
    hashi_print.grade(puzzle).grade              # easy ... expert, or beyond
    hashi_print.make_kit(hashi_print.KitRequest(Path("output")))

The command line (`hashi-print`) and the web app call the same functions; docs/architecture.md shows
the layers behind them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# The one version of the package: pyproject.toml reads it from here (dynamic = ["version"]).
__version__ = "0.1.0"

# Name -> (module, attribute) of each entry point.
_EXPORTS = {
    "read_puzzle": ("hashi_print.puzzle.formats", "read_puzzle"),
    "solve": ("hashi_print.puzzle.solve", "solve"),
    "generate": ("hashi_print.puzzle.generate", "generate"),
    "grade": ("hashi_print.puzzle.deduce", "grade_puzzle"),
    "validate": ("hashi_print.jobs.score", "validate_sheet"),
    "ValidateRequest": ("hashi_print.jobs.score", "ValidateRequest"),
    "score": ("hashi_print.jobs.score", "score_game"),
    "ScoreRequest": ("hashi_print.jobs.score", "ScoreRequest"),
    # Not "scan": that name is the photo reader's subpackage, which importing it binds here.
    "scan_sheets": ("hashi_print.jobs.scan", "scan_sheets"),
    "ScanRequest": ("hashi_print.jobs.scan", "ScanRequest"),
    "make_kit": ("hashi_print.jobs.kit", "make_kit"),
    "KitRequest": ("hashi_print.jobs.kit", "KitRequest"),
    "make_book": ("hashi_print.jobs.book", "make_book"),
    "BookRequest": ("hashi_print.jobs.book", "BookRequest"),
    "HashiError": ("hashi_print.errors", "HashiError"),
}

__all__ = [
    "__version__", "read_puzzle", "solve", "generate", "grade", "validate", "ValidateRequest", "score",
    "ScoreRequest", "scan_sheets", "ScanRequest", "make_kit", "KitRequest", "make_book", "BookRequest",
    "HashiError",
]


def __getattr__(name: str) -> Any:
    """Import an entry point the first time it is used."""
    if name not in _EXPORTS:
        raise AttributeError(f"module 'hashi_print' has no attribute {name!r}")
    module, attribute = _EXPORTS[name]
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The module's names, with the entry points not imported yet."""
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:
    from hashi_print.errors import HashiError
    from hashi_print.jobs.book import BookRequest, make_book
    from hashi_print.jobs.kit import KitRequest, make_kit
    from hashi_print.jobs.scan import ScanRequest, scan_sheets
    from hashi_print.jobs.score import ScoreRequest, ValidateRequest
    from hashi_print.jobs.score import score_game as score
    from hashi_print.jobs.score import validate_sheet as validate
    from hashi_print.puzzle.deduce import grade_puzzle as grade
    from hashi_print.puzzle.formats import read_puzzle
    from hashi_print.puzzle.generate import generate
    from hashi_print.puzzle.solve import solve
