"""The README's and the guides' pictures are made by docs/screenshots.py from the real pages, in
the browser tests' Chromium. The suite runs a smoke of the script (one picture, the tutor's, into
a temporary folder): it must show a page, not a blank, at about the width the manual shows it.
The whole set (a game played and reviewed among them) is ``make screenshots``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import browser as B

pytestmark = [pytest.mark.browser, pytest.mark.slow]

if not os.path.exists(B.CHROMIUM):
    pytest.skip(f"no Chromium at {B.CHROMIUM}", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

SCRIPT = B.ROOT / "docs" / "screenshots.py"


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height, from its header (IHDR, right after the 8-byte signature)."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{path} is not a PNG"
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def test_the_screenshot_script_takes_a_picture_from_the_real_page(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path), "--only", "tutor"],
                          capture_output=True, text=True, cwd=B.ROOT, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    path = tmp_path / "tutor.png"
    assert str(path) in done.stdout and [p.name for p in tmp_path.iterdir()] == ["tutor.png"]
    width, height = png_size(path)
    assert width >= 1000 and height > 250, (width, height)
    assert path.stat().st_size > 30_000, "tutor.png is nearly blank"  # a table, a hand and its risk lines


def test_an_unknown_picture_is_refused_before_anything_starts(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path), "--only", "tutor,dashboard"],
                          capture_output=True, text=True, cwd=B.ROOT)
    assert done.returncode == 2 and "unknown picture dashboard" in done.stderr
    assert not any(tmp_path.iterdir())
