"""What a newcomer meets first: `make kit` installs hashi-print alone, and the install page says what
Debian and Ubuntu need and how long the tests take."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_kit_installs_the_package_without_the_test_extra() -> None:
    plan = subprocess.run(["make", "-n", "-B", "kit"], cwd=ROOT, capture_output=True, text=True, check=True)
    installs = [line for line in plan.stdout.splitlines()
                if "pip install" in line and "--upgrade pip" not in line]
    assert installs == [".venv/bin/python -m pip install --quiet -e ."], plan.stdout
    assert "hashi-print kit --out output" in plan.stdout


def test_install_page_names_python3_venv_and_true_test_times() -> None:
    page = (ROOT / "docs" / "install.md").read_text(encoding="utf-8")
    assert "python3-venv" in page
    assert "a minute or two" not in page and "11 minutes" in page
