"""The package's optional C modules, each the mirror of Python files and used only beside those very files.

setup.py compiles each with the SHA-256 of the Python files it mirrors, read one after the other
(`SOURCE_SHA256`); a module built beside other versions of them may compute what those versions did, so
it is left unused, and the Python files run instead (the results are the same, only slower).
"""

from __future__ import annotations

import hashlib
import importlib
import os
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType


def digest(references: Sequence[str | Path]) -> str:
    """The SHA-256 of the files `references`, read one after the other (setup.py compiles the same in)."""
    sha = hashlib.sha256()
    for path in references:
        sha.update(Path(path).read_bytes())
    return sha.hexdigest()


def mirror(module: str, references: Sequence[str | Path], off: str) -> ModuleType | None:
    """The C module `module` when it was built from the Python files `references` beside it and the
    environment variable `off` is not set, else None."""
    if os.environ.get(off):
        return None
    try:
        native = importlib.import_module(module)
    except ImportError:
        return None
    if getattr(native, "SOURCE_SHA256", None) != digest(references):
        return None
    return native
