"""Build step: compile the three C modules while installing, each the mirror of Python files.

Everything else about the package is in pyproject.toml. hashi_print/game/_botsearch_native.c is the
bots' search of hashi_print/game/botsearch.py (the same moves, about ten times faster),
hashi_print/puzzle/_presolve_native.c the solver's root propagation of hashi_print/puzzle/presolve.py
(the same formula, about five times faster), and hashi_print/puzzle/_deduce_native.c the deducer's
quiet run of deduce_engine.py and deduce_techniques.py (the same grades). They are built only when a C
compiler is at hand; an install without one keeps the Python code, saying so. Each extension records
the SHA-256 of the Python files it mirrors and is used only beside those very files, so an edited
Python file falls back to itself until the C file is brought in line and built again
(scripts/build_native_bots.py, or installing again).
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path

from setuptools import Distribution, Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
GAME = Path("hashi_print") / "game"
PUZZLE = Path("hashi_print") / "puzzle"
# Each C module: its folder, its name, the Python files it mirrors, and what is missing when it is not built.
MODULES = ((GAME, "_botsearch_native", ("botsearch.py",), "the bots' C kernel was not built"),
           (PUZZLE, "_presolve_native", ("presolve.py",), "the solver's root propagation in C was not built"),
           (PUZZLE, "_deduce_native", ("deduce_engine.py", "deduce_techniques.py"),
            "the deducer's quiet run in C was not built"))


def module_name(folder: Path, name: str) -> str:
    """The dotted name of module `name` in `folder`."""
    return f"{folder.as_posix().replace('/', '.')}.{name}"


def mirror_extension(folder: Path, name: str, references: tuple[str, ...]) -> Extension:
    """The C module `name`.c in `folder`, with the SHA-256 of the Python files it mirrors compiled in
    (the files read one after the other, as hashi_print/native.py checks)."""
    sha = hashlib.sha256()
    for reference in references:
        sha.update((ROOT / folder / reference).read_bytes())
    digest = sha.hexdigest()
    # The Python files are dependencies: their hash is compiled in, so an edit of one rebuilds the module.
    return Extension(module_name(folder, name), [(folder / f"{name}.c").as_posix()],
                     depends=[*((folder / r).as_posix() for r in references), "hashi_print/_native_ints.h"],
                     include_dirs=["hashi_print"], define_macros=[("SOURCE_SHA256", f'"{digest}"')],
                     optional=True)


def extensions() -> list[Extension]:
    """Every C module: the bots' kernel, the solver's root propagation and the deducer's quiet run."""
    return [mirror_extension(folder, name, references) for folder, name, references, _ in MODULES]


PURPOSE = {module_name(folder, name): missing for folder, name, _, missing in MODULES}


def fallback(err: Exception, name: str | None = None) -> None:
    """Say that a C module (all of them when `name` is None) was not built and why (the compiler's own
    output is above it); the Python code it mirrors then does the same, more slowly."""
    reason = str(err).splitlines()[0] if str(err) else type(err).__name__
    reason = reason if len(reason) <= 160 else reason[:157] + "..."
    what = PURPOSE.get(name or "", "the C modules were not built")
    print(f"hashi-print: {what} ({type(err).__name__}: {reason}); the pure Python code does the same, "
          "more slowly", file=sys.stderr)


class BuildKernel(build_ext):
    """Compile the C modules with strict float rules, or warn and leave the Python code they mirror."""

    def build_extension(self, ext: Extension) -> None:
        """Build one extension; a compiler that fails leaves the Python code, with a warning."""
        # The moves depend on every float being computed as in botsearch.py: no fused multiply-add
        # (GCC and Clang contract a * b + c by default where the CPU has it, as on ARM).
        if self.compiler.compiler_type == "unix":
            ext.extra_compile_args = ["-O2", "-ffp-contract=off", "-fno-fast-math"]
        elif self.compiler.compiler_type == "msvc":
            ext.extra_compile_args = ["/O2", "/fp:precise"]
        try:
            super().build_extension(ext)
        except Exception as err:  # noqa: BLE001 - any compiler failure falls back, as documented
            # A module built here before from older files (pip builds in the checkout's build/) would
            # otherwise be packaged as if it were this one.
            Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            fallback(err, ext.name)

    def run(self) -> None:
        """Build, or warn when no compiler can be found at all."""
        try:
            super().run()
        except Exception as err:  # noqa: BLE001 - no compiler at all: the same fallback
            fallback(err)


def build_in_place() -> list[Path]:
    """Compile the C modules beside the Python files they mirror (for a checkout); return their files."""
    # A bare distribution: pyproject.toml is not read, so the setuptools of any venv can build it.
    dist = Distribution({"name": "hashi-print-kernel", "ext_modules": extensions(),
                         "cmdclass": {"build_ext": BuildKernel}})
    command = dist.get_command_obj("build_ext")
    command.inplace = True
    command.force = True
    with tempfile.TemporaryDirectory() as tmp:
        command.build_temp = tmp
        cwd = Path.cwd()
        os.chdir(ROOT)
        try:
            dist.run_command("build_ext")
        finally:
            os.chdir(cwd)
    return sorted(path for folder, name, _, _ in MODULES for path in (ROOT / folder).glob(f"{name}*")
                  if path.suffix in (".so", ".pyd"))


if __name__ == "__main__":
    setup(ext_modules=extensions(), cmdclass={"build_ext": BuildKernel})
