"""The review step in a real browser: a short free game played by clicking, then "Review my
game", the key moments and the table as they come, the game's chart, one mistake tried
again until a good move is found, and a key moment opened in the what-if explorer."""

from __future__ import annotations

import re
from typing import Any

import pytest

import browser as B

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = B.ROOT / "test-artifacts"


@pytest.fixture(scope="module")
def server(unhurried_tutor_server: str) -> str:
    """The tutor server with a 300 s work budget this test process shares (``conftest.unhurried_tutor_server``)."""
    return unhurried_tutor_server


def test_a_finished_game_is_reviewed_and_a_mistake_is_tried_again(server: str, chromium: Any) -> None:
    page, _ = B.open_tutor(chromium, f"{server}?players=2&seed=5&bots=rule")
    assert not B.visible(page, ".cl-review-start")  # no review while the game goes on
    move = 0
    while B.learner_move(page, move):
        move += 1
    page.click(".cl-review-start")
    page.wait_for_selector(".cl-review-progress:visible", timeout=30_000)
    page.wait_for_selector(".cl-review-table tr.v-best, .cl-review-table tr.v-good, .cl-review-table tr.v-blunder, "
                           ".cl-review-table tr.v-mistake, .cl-review-table tr.v-inaccuracy", timeout=60_000)
    page.wait_for_selector(".cl-review-progress", state="hidden", timeout=300_000)
    page.screenshot(path=str(ARTIFACTS / "review.png"), full_page=True)
    assert "Key moments" in page.inner_text(".cl-review-moments")
    summary = page.inner_text(".cl-review-summary")  # each seat named as the game page names it
    assert "Round" in summary and "You" in summary and "Bot 1" in summary and "Player 1" not in summary
    assert "effect on the final result" in page.inner_text(".cl-review-note")  # the default horizon
    chart = page.wait_for_selector(".cl-review-chart img:visible, img.cl-review-chart:visible", timeout=30_000)
    shown, natural = chart.evaluate("img => [img.getBoundingClientRect().width, img.naturalWidth]")
    assert natural > 600 and shown >= 0.95 * natural  # not shrunk: its 12-pixel text stays readable
    chart.screenshot(path=str(ARTIFACTS / "review-chart.png"))
    assert "expected points" in page.inner_text(".cl-review-chart-note")

    tries = B.visible(page, ".cl-review-try")
    assert tries and "Learn from your mistakes" in page.inner_text(".cl-review")
    for label in [button.inner_text() for button in tries]:  # each move once, found by its label
        said = page.inner_text(".cl-review-feedback")
        # A locator, not a handle: the buttons are drawn anew as the feedback changes, and a
        # locator finds the button again at the moment of the click.
        button = page.locator(".cl-review-try:visible").filter(has_text=re.compile(f"^{re.escape(label)}$"))
        if not button.count():
            continue
        button.first.click()
        page.wait_for_function("said => document.querySelector('.cl-review-feedback').innerText !== said", arg=said,
                               timeout=30_000)
        if page.query_selector(".cl-review-feedback .cl-review-found"):
            break
    found = page.inner_text(".cl-review-feedback")
    assert "Well found" in found and "Your first choice" in found
    assert "cl-error" not in page.inner_html(".cl-freeplay")

    opens = B.visible(page, ".cl-review-open")
    assert opens and "Open key moment 1 in the what-if explorer" in opens[0].inner_text()
    opens[0].click()
    page.wait_for_selector(".cl-whatif .cl-wi-message:has-text('Opened from your review')", timeout=60_000)
    assert B.visible(page, ".cl-whatif .cl-wi-table") and not B.visible(page, ".cl-review-start")
    page.screenshot(path=str(ARTIFACTS / "review-whatif.png"), full_page=True)
