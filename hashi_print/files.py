"""Reading input files and the designed data, and writing files so that a reader never sees half of one."""

from __future__ import annotations

import json
import os
import secrets
import stat
import sysconfig
import tempfile
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from hashi_print.errors import FormatError, LayoutError, OutputError

# The designed sides, deck and scoring ship inside the package (the repository's layouts/ folder).
DESIGNED_PACKAGE = "hashi_print.layouts"
DESIGNED_FILES = ("side-a.json", "side-b.json", "deck.json", "scoring.json")
# No input the product reads is anywhere near this; the cap keeps a hostile file from eating memory.
MAX_INPUT_BYTES = 16 * 1024 * 1024
BOM = "\ufeff"


def designed_text(name: str) -> str:
    """Return the text of one designed data file (e.g. `deck.json`) shipped in the package."""
    if name not in DESIGNED_FILES:
        raise LayoutError(f"unknown designed file {name!r}; there are {', '.join(DESIGNED_FILES)}")
    try:
        return (resources.files(DESIGNED_PACKAGE) / name).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        raise LayoutError(f"the designed file {name} is missing from the installed package; "
                          "reinstall hashi-print or pass the file explicitly") from None


def designed_json(name: str) -> object:
    """Return one designed data file, parsed (see `designed_text`)."""
    return parse_json(designed_text(name), f"layouts/{name}")


def checkout_layouts(start: Path | None = None) -> Path | None:
    """Return the layouts/ folder of the hashi-print checkout holding `start` (default: here), or None."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        project = folder / "pyproject.toml"
        if (folder / "layouts" / "side-a.json").is_file() and project.is_file() \
                and 'name = "hashi-print"' in project.read_text(encoding="utf-8", errors="replace"):
            return folder / "layouts"
    return None


def layouts_folder(folder: str | None) -> Path:
    """Return where designed layouts go: `folder`, else the checkout's layouts/; never a package."""
    if folder:
        target = Path(folder)
    else:
        found = checkout_layouts()
        if found is None:
            raise OutputError("not inside a hashi-print checkout: name the folder, "
                              "e.g. --write-layouts my-layouts")
        target = found
    resolved = target.resolve()
    installed = {Path(sysconfig.get_paths()[k]).resolve() for k in ("purelib", "platlib")}
    in_venv = {"site-packages", "dist-packages"} & set(resolved.parts)
    if in_venv or any(resolved.is_relative_to(p) for p in installed):
        raise OutputError(f"{target} is inside an installed Python package; name a folder of your own")
    return target


def check_writable(folder: str | os.PathLike[str]) -> Path:
    """Create `folder` if needed and make sure a file can be written there, before any long work starts."""
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise OutputError("is a file, not a folder", source=str(target))
    try:
        target.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".hashi-print-", suffix=".probe", dir=target)
        os.close(fd)
        os.unlink(probe)
    except OSError as err:
        raise OutputError(f"cannot write here: {err.strerror or err}", source=str(target)) from None
    return target


def check_target(path: str | os.PathLike[str]) -> Path:
    """Make sure the file `path` can be written (a writable folder, no folder itself) before work starts."""
    target = Path(path)
    if target.is_dir():
        raise OutputError("is a folder, not a file", source=str(target))
    check_not_special(target)
    check_writable(target.parent)
    return target


def check_not_special(path: str | os.PathLike[str], what: str = "a file") -> None:
    """Refuse a path that is (or links to) a device, pipe or socket: writing there would replace it."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise OutputError(f"is a device, pipe or socket, not {what}; name a regular file", source=str(path))


def distinct_files(paths: Sequence[str]) -> None:
    """Raise FormatError when two of `paths` name the same file (one player handed in twice)."""
    seen: dict[Path, str] = {}
    for name in paths:
        key = Path(name).resolve()
        if key in seen:
            raise FormatError(f"the same file as {seen[key]}; give each player's file once", source=name)
        seen[key] = name


def existing_path(arg: str) -> Path | None:
    """The path `arg` names when something is there (a file, folder, device or pipe), else None.

    Never raises: a name no file system accepts (over 255 bytes, a NUL) is not a path, so a long
    puzzle ID is read as an ID instead of failing with "File name too long".
    """
    if not arg or "\x00" in arg or len(os.fsencode(arg)) > 4096:
        return None
    return Path(arg) if os.path.lexists(arg) else None


def read_capped(path: str | os.PathLike[str], limit: int = MAX_INPUT_BYTES) -> bytes:
    """Read at most `limit` bytes of a file, device or pipe; FormatError beyond it or when unreadable.

    The cap is on the bytes read, not on the size the file system reports (0 for /dev/zero or a pipe).
    """
    p = Path(path)
    try:
        if p.is_dir():
            raise FormatError("is a folder, not a file", source=str(p))
        with p.open("rb") as fh:
            raw = fh.read(limit + 1)
    except (OSError, ValueError) as err:
        raise FormatError(f"cannot read: {getattr(err, 'strerror', None) or err}", source=str(p)) from None
    if len(raw) > limit:
        raise FormatError(f"file is larger than {limit / (1024 * 1024):g} MiB", source=str(p))
    return raw


def read_text(path: str | os.PathLike[str]) -> str:
    """Read a UTF-8 text file (dropping a byte-order mark), raising FormatError when it is not one."""
    return decode_text(read_capped(path), str(path))


def decode_text(raw: bytes, source: str) -> str:
    """Decode UTF-8 bytes (dropping a byte-order mark), raising FormatError for binary data."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise FormatError("not a text file (expected UTF-8 text)", source=source) from None
    if "\x00" in text:
        raise FormatError("not a text file (it contains NUL bytes)", source=source)
    return text.removeprefix(BOM)


def _reject_constant(name: str) -> object:
    """Refuse NaN and Infinity, which are not JSON numbers."""
    raise FormatError(f"{name} is not a number JSON allows")


def _finite_float(text: str) -> float:
    """Parse a JSON fraction, refusing ones too large for a float (e.g. 1e400)."""
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise FormatError(f"number {text[:20]} is too large")
    return value


def _bounded_int(text: str) -> int:
    """Parse a JSON integer of at most 18 digits (no input needs more)."""
    if len(text.lstrip("-")) > 18:
        raise FormatError(f"number {text[:20]}... is too large")
    return int(text)


def parse_json(text: str, source: str) -> object:
    """Parse JSON text, raising FormatError (located) for bad syntax, huge numbers or deep nesting."""
    try:
        return json.loads(text.removeprefix(BOM), parse_float=_finite_float, parse_int=_bounded_int,
                          parse_constant=_reject_constant)
    except json.JSONDecodeError as err:
        raise FormatError(f"not valid JSON: {err.msg}", source=source, line=err.lineno) from None
    except FormatError as err:
        raise err.located(source) from None
    except RecursionError:
        raise FormatError("JSON is nested too deeply", source=source) from None


def read_json(path: str | os.PathLike[str]) -> object:
    """Read and parse a JSON file (see `parse_json`)."""
    return parse_json(read_text(path), str(path))


def write_atomic(path: str | os.PathLike[str], data: bytes | str) -> Path:
    """Write `data` whole or not at all: into a temporary file beside the target, then renamed over it.

    A symlink is followed (the file it points to is rewritten and the link stays); a new file gets the
    usual permissions (0666 less the umask) and a rewritten one keeps its mode.
    """
    given = Path(path)
    target = Path(os.path.realpath(given)) if given.is_symlink() else given
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        if target.is_dir():
            raise OutputError("is a folder, not a file", source=str(given))
        check_not_special(given)
        target.parent.mkdir(parents=True, exist_ok=True)
        mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else None
        tmp = target.parent / f".{target.name}.{secrets.token_hex(4)}.tmp"
        try:
            # os.open applies the umask to 0o666, as any ordinary program creating a file does.
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            with os.fdopen(fd, "wb") as fh:
                fh.write(payload)
            if mode is not None:
                os.chmod(tmp, mode)
            os.replace(tmp, target)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    except OSError as err:
        raise OutputError(f"cannot write: {err.strerror or err}", source=str(given)) from None
    return given


def inside(folder: str | os.PathLike[str], name: str) -> Path:
    """Return folder/name, refusing a name that would lead out of the folder (e.g. `../x`)."""
    base = Path(folder)
    path = base / name
    if not path.resolve().is_relative_to(base.resolve()) or Path(name).is_absolute():
        raise OutputError(f"refusing to write {name!r} outside {base}")
    return path
