"""The wheel carries all code and the designed data, and nothing writes into an installed package."""

from __future__ import annotations

import json
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
