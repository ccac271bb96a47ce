"""The wheel carries all code and the designed data, and nothing writes into an installed package."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import shutil
import sysconfig
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from hashi_print.cli import cli
from hashi_print.errors import OutputError
from hashi_print.files import DESIGNED_FILES, checkout_layouts, designed_text, layouts_folder

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_folder_is_listed_for_the_wheel():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    inits = (ROOT / "hashi_print").rglob("__init__.py")
    on_disk = {".".join(p.parent.relative_to(ROOT).parts) for p in inits}
    missing = on_disk - listed
    assert not missing, f"add {sorted(missing)} to [tool.setuptools] packages in pyproject.toml"
    assert config["package-dir"]["hashi_print.layouts"] == "layouts"


def test_designed_data_is_the_repository_layouts_folder():
    for name in DESIGNED_FILES:
        assert designed_text(name) == (ROOT / "layouts" / name).read_text(encoding="utf-8")
        assert json.loads(designed_text(name))["format"].startswith("hashi-")


def test_checkout_is_found_from_inside_it_and_not_elsewhere(tmp_path):
    assert checkout_layouts(ROOT / "tests" / "fixtures") == ROOT / "layouts"
    assert checkout_layouts(tmp_path) is None


def test_layouts_are_never_written_into_an_installed_package(tmp_path):
    purelib = Path(sysconfig.get_paths()["purelib"])
    with pytest.raises(OutputError, match="installed Python package"):
        layouts_folder(str(purelib / "hashi_print" / "layouts"))
    with pytest.raises(OutputError, match="installed Python package"):
        layouts_folder(str(tmp_path / "venv" / "lib" / "site-packages" / "x"))
    assert layouts_folder(str(tmp_path / "mine")) == tmp_path / "mine"


def test_write_layouts_outside_a_checkout_needs_a_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["design", "--quick", "--workers", "1", "--out", str(tmp_path / "d"),
                                      "--write-layouts"])
    assert result.exit_code == 2 and "name the folder" in result.output
    assert not (tmp_path / "d" / "design.md").exists()


def test_write_layouts_writes_into_the_named_folder(tmp_path):
    target = tmp_path / "my-layouts"
    result = CliRunner().invoke(cli, ["design", "--seed", "5", "--quick", "--workers", "1",
                                      "--out", str(tmp_path / "d"), "--write-layouts", str(target)])
    assert result.exit_code == 0, result.output
    for name in DESIGNED_FILES:
        assert (target / name).read_text() == (tmp_path / "d" / "layouts" / name).read_text()


def _module_level_imports(path: Path) -> set[str]:
    """The top-level names a module imports when it is loaded (not inside functions or TYPE_CHECKING)."""
    import ast

    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_every_module_level_import_is_a_runtime_dependency():
    # A plain `pip install .` brings only [project] dependencies: an import that only the test extra
    # satisfies passes every test in the checkout and breaks the installed command.
    import importlib.metadata
    import re
    import sys

    declared = {
        re.split(r"[<>=!~\[; ]", spec, maxsplit=1)[0].lower().replace("_", "-")
        for spec in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    }
    providers = importlib.metadata.packages_distributions()
    missing = {}
    for path in (ROOT / "hashi_print").rglob("*.py"):
        for name in _module_level_imports(path):
            if name in sys.stdlib_module_names or name in ("hashi_print", "__future__"):
                continue
            dists = {d.lower().replace("_", "-") for d in providers.get(name, [name])}
            if not dists & declared:
                missing[f"{path.relative_to(ROOT)}: {name}"] = sorted(dists)
    assert not missing, f"add to [project] dependencies: {missing}"


def build_modules(into: Path, monkeypatch, force: bool = False) -> None:
    """Run setup.py's build of the C modules into a folder, as installing does (`force`: even when the
    modules there look up to date, as after an edit of a C file)."""
    from setuptools import Distribution

    import setup

    dist = Distribution({"name": "hashi-print", "ext_modules": setup.extensions(),
                         "cmdclass": {"build_ext": setup.BuildKernel}})
    build = dist.get_command_obj("build_ext")
    build.build_lib, build.build_temp = str(into / "lib"), str(into / "temp")
    build.force = force
    monkeypatch.chdir(setup.ROOT)
    dist.run_command("build_ext")


def test_an_install_without_a_c_compiler_keeps_the_python_code(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("CC", "false")  # a compiler that fails whatever it is given
    build_modules(tmp_path, monkeypatch)
    assert not list(tmp_path.rglob("*.so"))
    err = capsys.readouterr().err
    assert "the bots' C kernel was not built" in err
    assert "the solver's root propagation in C was not built" in err
    assert "the deducer's quiet run in C was not built" in err


COMPILER = (sysconfig.get_config_var("CC") or "cc").split()[0]


@pytest.mark.skipif(not shutil.which(COMPILER), reason="no C compiler")
def test_a_build_that_fails_leaves_no_older_module_behind(monkeypatch, tmp_path, capsys):
    # pip builds in the checkout's build/ folder: a module compiled there before, from older C files,
    # must not be packaged when compiling the new ones fails.
    build_modules(tmp_path, monkeypatch)
    assert len(list((tmp_path / "lib").rglob("*.so"))) == 3
    monkeypatch.setenv("CC", "false")
    build_modules(tmp_path, monkeypatch, force=True)
    assert not list((tmp_path / "lib").rglob("*.so"))
    assert "the deducer's quiet run in C was not built" in capsys.readouterr().err


@pytest.mark.skipif(not shutil.which(COMPILER), reason="no C compiler")
@pytest.mark.parametrize("name, mirrors", [
    ("hashi_print.game._botsearch_native", ["game/botsearch.py"]),
    ("hashi_print.puzzle._presolve_native", ["puzzle/presolve.py"]),
    ("hashi_print.puzzle._deduce_native", ["puzzle/deduce_engine.py", "puzzle/deduce_techniques.py"]),
])
def test_each_built_module_records_the_python_file_it_mirrors(monkeypatch, tmp_path, name, mirrors):
    build_modules(tmp_path, monkeypatch)
    built = list((tmp_path / "lib").rglob(f"{name.rsplit('.', 1)[1]}*.so"))
    assert len(built) == 1
    spec = importlib.util.spec_from_file_location(name, built[0])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sources = b"".join((ROOT / "hashi_print" / path).read_bytes() for path in mirrors)
    assert hashlib.sha256(sources).hexdigest() == module.SOURCE_SHA256
