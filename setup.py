"""Build step: compile the bots' search kernel in C (hashi_print/game/_botsearch_native.c) while installing.

Everything else about the package is in pyproject.toml. The C kernel plays the same moves as the pure
Python one (hashi_print/game/botsearch.py), several times faster; it is built only when a C compiler is
at hand, and an install without one keeps the pure Python kernel, saying so. The extension records the
SHA-256 of the botsearch.py it mirrors, and the bots use it only beside that very file
(hashi_print/game/bots.py), so an edited botsearch.py falls back to pure Python until the C file is
brought in line and built again (scripts/build_native_bots.py, or installing again).
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
NAME = "_botsearch_native"


def kernel_extension() -> Extension:
    """The C kernel, with the SHA-256 of the botsearch.py it mirrors compiled in; optional to build."""
    digest = hashlib.sha256((ROOT / GAME / "botsearch.py").read_bytes()).hexdigest()
    # botsearch.py is a dependency: its hash is compiled in, so an edit of it rebuilds the kernel.
    return Extension(f"hashi_print.game.{NAME}", [(GAME / f"{NAME}.c").as_posix()],
                     depends=[(GAME / "botsearch.py").as_posix()],
                     define_macros=[("SOURCE_SHA256", f'"{digest}"')], optional=True)


def fallback(err: Exception) -> None:
    """Say that the C kernel was not built and why (the compiler's own output is above it)."""
    reason = str(err).splitlines()[0] if str(err) else type(err).__name__
    reason = reason if len(reason) <= 160 else reason[:157] + "..."
    print(f"hashi-print: the bots' C kernel was not built ({type(err).__name__}: {reason}); the pure "
          "Python kernel plays the same moves, more slowly", file=sys.stderr)


class BuildKernel(build_ext):
    """Compile the kernel with strict float rules, or warn and leave the pure Python one."""

    def build_extension(self, ext: Extension) -> None:
        """Build one extension; a compiler that fails leaves the pure Python kernel, with a warning."""
        # The moves depend on every float being computed as in botsearch.py: no fused multiply-add
        # (GCC and Clang contract a * b + c by default where the CPU has it, as on ARM).
        if self.compiler.compiler_type == "unix":
            ext.extra_compile_args = ["-O2", "-ffp-contract=off", "-fno-fast-math"]
        elif self.compiler.compiler_type == "msvc":
            ext.extra_compile_args = ["/O2", "/fp:precise"]
        try:
            super().build_extension(ext)
        except Exception as err:  # noqa: BLE001 - any compiler failure falls back, as documented
            fallback(err)

    def run(self) -> None:
        """Build, or warn when no compiler can be found at all."""
        try:
            super().run()
        except Exception as err:  # noqa: BLE001 - no compiler at all: the same fallback
            fallback(err)


def build_in_place() -> list[Path]:
    """Compile the kernel beside botsearch.py (for a checkout); return the extension files there."""
    # A bare distribution: pyproject.toml is not read, so the setuptools of any venv can build it.
    dist = Distribution({"name": "hashi-print-kernel", "ext_modules": [kernel_extension()],
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
    return sorted((ROOT / GAME).glob(f"{NAME}*.so")) + sorted((ROOT / GAME).glob(f"{NAME}*.pyd"))


if __name__ == "__main__":
    setup(ext_modules=[kernel_extension()], cmdclass={"build_ext": BuildKernel})
