"""Take the web app's picture in every language for docs/languages/ (web-<lang>.png).

Starts `hashi-print serve` on a free port, opens the play page with a hint shown in Debian's Chromium
(Playwright), and writes one small PNG per language. Run it after changing the pages or the catalogs:
    .venv/bin/python scripts/web_screenshots.py
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import cv2
from playwright.sync_api import sync_playwright

from hashi_print.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "languages"
PUZZLE = "10x10m2:1b1c5a3j3f5a3j4c4b4m3a2a1a2l2b1g4b3b1a2"
SCALE = 0.6


def free_port() -> int:
    """A loopback port nobody listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, proc: subprocess.Popen) -> None:
    """Wait until the server answers (or died)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server did not start at {url}")


def main() -> int:
    """Write docs/languages/web-<lang>.png for every language."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "hashi_print.cli", "serve", "--port", str(port)])
    try:
        wait_for(base + "/help", proc)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                        args=["--headless", "--no-sandbox"])
            for lang in LANGUAGES:
                ctx = browser.new_context(viewport={"width": 1000, "height": 620})
                page = ctx.new_page()
                page.goto(f"{base}/play?lang={lang}&p={PUZZLE}")
                page.wait_for_selector("#board .island")
                page.click("#hint")
                page.wait_for_selector("#hintbox:not([hidden])")
                page.evaluate("document.fonts.ready")
                raw = OUT / f"web-{lang}.png"
                page.screenshot(path=str(raw))
                ctx.close()
                image = cv2.imread(str(raw))
                small = cv2.resize(image, None, fx=SCALE, fy=SCALE, interpolation=cv2.INTER_AREA)
                cv2.imwrite(str(raw), small, [cv2.IMWRITE_PNG_COMPRESSION, 9])
                print(f"{raw.relative_to(ROOT)}: {raw.stat().st_size // 1024} KiB")
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
