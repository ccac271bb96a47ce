"""How a job reports progress: a plain callback `progress(done, total)` that the CLI or the web app gives."""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[int, int], None]


def no_progress(done: int, total: int) -> None:
    """Report nothing (the default of every job)."""
