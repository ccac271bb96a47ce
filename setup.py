"""Build step: compile the bots' search kernel (hashi_print/game/botsearch.py) with mypyc while installing.

Everything else about the package is in pyproject.toml. The compiled kernel plays the same moves about
2-3x faster; it is built only when mypyc (mypy, a build requirement) and a C compiler are at hand,
and an install without either keeps the pure Python kernel, saying so. The extension records the
SHA-256 of the botsearch.py it was compiled from, and the bots use it only beside that very file
(hashi_print/game/bots.py), so an edited checkout falls back to pure Python until it is built again
(scripts/build_native_bots.py, or installing again).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
GAME = Path("hashi_print") / "game"
NAME = "_botsearch_native"


def compile_kernel(into: Path) -> list[Path]:
    """Compile a copy of botsearch.py that records its source's hash into `into`/hashi_print/game; return
    the extension files (raises CalledProcessError or OSError when mypyc or the compiler fails)."""
    source = (ROOT / GAME / "botsearch.py").read_bytes()
    digest = hashlib.sha256(source).hexdigest()
    with tempfile.TemporaryDirectory() as tmp:
        pkg = Path(tmp) / GAME
        pkg.mkdir(parents=True)
        (pkg.parent / "__init__.py").write_text("")
        (pkg / "__init__.py").write_text("")
        (pkg / f"{NAME}.py").write_text(source.decode() + f'\n\nSOURCE_SHA256 = "{digest}"\n')
        subprocess.run([sys.executable, "-m", "mypyc", str(GAME / f"{NAME}.py")], cwd=tmp, check=True,
                       stdout=subprocess.DEVNULL)
        target = into / GAME
        target.mkdir(parents=True, exist_ok=True)
        for old in target.glob(f"{NAME}*.so"):
            old.unlink()
        return [Path(shutil.copy2(built, target / built.name)) for built in pkg.glob(f"{NAME}*.so")]


class BuildKernel(build_ext):
    """Compile the kernel into the build (or, for an editable install, beside botsearch.py), if it can."""

    def run(self) -> None:
        """Build the kernel, or warn and leave the pure Python one."""
        into = ROOT if self.inplace or getattr(self, "editable_mode", False) else Path(self.build_lib)
        try:
            self.built = compile_kernel(into)
        except (OSError, subprocess.CalledProcessError) as err:
            self.built = []
            print(f"hashi-print: the bots' compiled kernel was not built ({err}); the pure Python kernel "
                  "plays the same moves, more slowly", file=sys.stderr)

    def get_outputs(self) -> list[str]:
        """The extension files built (none when the build fell back)."""
        return [str(p) for p in getattr(self, "built", [])]


class KernelDistribution(Distribution):
    """A distribution whose build runs build_ext, which has no setuptools Extension to build."""

    def has_ext_modules(self) -> bool:
        """Always: the wheel may carry the compiled kernel, so it is tagged for this platform."""
        return True


if __name__ == "__main__":
    setup(distclass=KernelDistribution, cmdclass={"build_ext": BuildKernel})
