"""The package's optional C modules, each the mirror of a Python file and used only beside that very file.

setup.py compiles each with the SHA-256 of the Python file it mirrors (`SOURCE_SHA256`); a module built
beside another version of that file may compute what that version did, so it is left unused, and the
Python file runs instead (the results are the same, only slower).
"""

from __future__ import annotations

import hashlib
import importlib
import os
from pathlib import Path
from types import ModuleType


def mirror(module: str, reference: str, off: str) -> ModuleType | None:
    """The C module `module` when it was built from the Python file `reference` beside it and the
    environment variable `off` is not set, else None."""
    if os.environ.get(off):
        return None
    try:
        native = importlib.import_module(module)
    except ImportError:
        return None
    if getattr(native, "SOURCE_SHA256", None) != hashlib.sha256(Path(reference).read_bytes()).hexdigest():
        return None
    return native
