"""Writing files so that a reader never sees half of one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: str | os.PathLike, data: bytes | str) -> Path:
    """Write `data` to a temporary file beside `path`, then rename it into place."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def read_text(path: str | os.PathLike) -> str:
    """Read a UTF-8 text file, raising FormatError (not a traceback) for folders and binary files."""
    from hashi_print.errors import FormatError

    p = Path(path)
    if p.is_dir():
        raise FormatError("is a folder, not a file", source=str(p))
    try:
        return p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise FormatError("not a text file (expected UTF-8 text)", source=str(p)) from None
