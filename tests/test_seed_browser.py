"""In the browser: the free game's seed is nowhere on the page while the game goes on."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

import browser as B

pytestmark = pytest.mark.browser

if not os.path.exists(B.CHROMIUM):
    pytest.skip(f"no Chromium at {B.CHROMIUM}", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")


def test_the_seed_is_not_on_the_page_of_a_game_in_progress(chromium: Any) -> None:
    (B.ROOT / "test-artifacts").mkdir(exist_ok=True)
    with B.voila_server(B.ROOT / "test-artifacts" / "voila-seed.log") as url:
        page, _ = B.open_tutor(chromium, url)  # no seed in the link: the kernel draws a secret one
        field = page.query_selector(".cl-freeplay .cl-seed input")
        assert field is not None and field.input_value() == ""
        values = [e.input_value() for e in page.query_selector_all("input, textarea")]
        # A drawn seed has 64 bits (up to 20 digits); the old one had 6 and was in the field.
        assert not any(re.search(r"\d{6,}", v) for v in values), values
        assert not re.search(r"\d{12,}", page.inner_text("body"))  # nor in any text shown
        page.close()
