"""In a real browser: when the class server stops under an open page, the page says so at
once, in the learner's language, and what to do (the capital-lux template's script)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import browser as B

pytestmark = [pytest.mark.browser, pytest.mark.slow]
LEARNER = ".cl-exercises.cl-ready"


@pytest.mark.parametrize("lang, words", [("fr", "Rechargez la page")])
def test_a_page_whose_server_stops_says_so_at_once_and_what_to_do(tmp_path: Path, lang: str, words: str) -> None:
    if not os.path.exists(B.CHROMIUM):
        pytest.skip(f"no Chromium at {B.CHROMIUM}")
    sync_api = pytest.importorskip("playwright.sync_api")
    with pytest.MonkeyPatch.context() as patch, sync_api.sync_playwright() as p:
        patch.setattr(B, "NOTEBOOK", "notebooks")
        patch.setenv("CAPITAL_LUX_DB", str(tmp_path / "class.sqlite3"))
        browser = B.launch(p)
        try:
            page = browser.new_page()
            with B.voila_server(tmp_path / "voila.log", options=(B.UNPACED, *B.EXERCISES_WARM)) as url:
                page.goto(f"{url}voila/render/probability_exercises.ipynb?lang={lang}", timeout=120_000)
                page.wait_for_selector(LEARNER, timeout=90_000)
                assert page.locator(".cl-connection-lost").count() == 0  # nothing said while all is well
            # the server has stopped (a laptop asleep, a crash, make class-stop)
            page.wait_for_selector(".cl-connection-lost[role=alert]", timeout=30_000)
            text = page.inner_text(".cl-connection-lost")
            assert words in text and text.startswith("⚠")  # a sentence and a symbol, not a colour alone
            assert page.get_attribute(".cl-connection-lost", "lang") == lang
        finally:
            browser.close()
