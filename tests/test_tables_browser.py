"""Class tables in real browsers: four learners, each in a browser context of their own, sit at
one table by its code; each sees only their own draft cards and picks by clicking; one reloads
mid-draft and is back in their seat with their pick kept."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from capital_lux.lessons.classroom import add_to_roster
from capital_lux.lessons.storage import Storage
from capital_lux.lessons.tables import Tables
import browser as B

pytestmark = [pytest.mark.browser, pytest.mark.slow]
READY = ".cl-tables.cl-ready"
NAMES = ["Ana", "Bea", "Caio", "Dora"]
CODES: dict[str, str] = {}


@pytest.fixture(scope="module")
def school(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, Any]]:
    if not os.path.exists(B.CHROMIUM):
        pytest.skip(f"no Chromium at {B.CHROMIUM}")
    sync_api = pytest.importorskip("playwright.sync_api")
    database = tmp_path_factory.mktemp("tables") / "class.sqlite3"
    with Storage(str(database)) as storage:
        CODES.update({name: code for _, name, code in add_to_roster(storage, NAMES)})
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(B, "NOTEBOOK", "notebooks")
        patch.setenv("CAPITAL_LUX_DB", str(database))
        B.ROOT.joinpath("test-artifacts").mkdir(exist_ok=True)
        with B.voila_server(B.ROOT / "test-artifacts" / "voila-tables.log") as url, \
                sync_api.sync_playwright() as p:
            browser = B.launch(p)
            try:
                yield url, database, browser
            finally:
                browser.close()


def _learner(browser: Any, url: str, name: str, page: Any = None) -> Any:
    if page is None:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
    page.goto(f"{url}voila/render/tables.ipynb", timeout=120_000)
    page.wait_for_selector(READY, timeout=90_000)
    page.fill(".cl-learner-name input", name)
    page.fill(".cl-learner-code input", CODES[name])
    page.click(".cl-learner-join")
    page.wait_for_selector(f".cl-learner-note:has-text('{name}')", timeout=30_000)
    return page


def _pick(page: Any) -> None:
    """Click draft cards until the pick can be set aside, then set it aside."""
    cards = page.locator(".cl-draft-card:visible")
    for i in range(cards.count()):
        if page.locator(".cl-confirm-pick button:enabled, button.cl-confirm-pick:enabled").count():
            break
        cards.nth(i).click()
        time.sleep(0.2)
    page.locator(".cl-confirm-pick").first.click()


def _wait(check: Any, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the table did not move on"
        time.sleep(0.2)


def test_four_learners_sit_by_code_pick_in_their_own_browsers_and_a_reload_keeps_the_seat(
        school: tuple[str, Path, Any]) -> None:
    url, database, browser = school
    pages = [_learner(browser, url, name) for name in NAMES]
    pages[0].click(".cl-tables-open")
    pages[0].wait_for_selector(".cl-tables-table:has-text('Table ')", timeout=30_000)
    code = re.search(r"Table (\w+)", pages[0].inner_text(".cl-tables-table")).group(1)
    for page in pages[1:]:
        page.fill(".cl-tables-code input", code)
        page.click(".cl-tables-join")
        page.wait_for_selector(f".cl-tables-table:has-text('{code}')", timeout=30_000)
    tables = Tables(Storage(str(database)))
    table = tables.all_tables()[0]
    assert [s.name for s in table.seats] == NAMES  # each seat a class list entry, in joining order
    for page in pages:  # the game started: every page draws its own draft cards
        page.wait_for_selector(".cl-draft-card:visible", timeout=30_000)
    state = tables.state(table.id)
    for seat, page in enumerate(pages):
        assert page.locator(".cl-draft-card:visible").count() == len(state.draft_hands[seat])
    # Bea picks first, before the engine reaches her seat unless it starts with her
    _pick(pages[1])
    _wait(lambda: any(seat == 1 for _, seat, _, _ in tables.who_made(table.id)))
    # Bea reloads: her class identity brings her back to her seat, her pick kept
    _learner(browser, url, "Bea", pages[1])
    pages[1].wait_for_selector(f".cl-tables-table:has-text('{code}')", timeout=30_000)
    assert "Bea (you)" in pages[1].inner_text(".cl-tables-table")
    assert [m for m in tables.who_made(table.id) if m[1] == 1][:1] and \
        len([m for m in tables.who_made(table.id) if m[1] == 1]) == 1  # stored once
    for seat in (0, 2, 3):
        if not any(m[1] == seat for m in tables.who_made(table.id)):
            _pick(pages[seat])
    _wait(lambda: tables.state(table.id).draft_step == 2 or tables.state(table.id).phase != "draft", 60)
    for page in pages:  # the cards passed: every page shows its second step, its own cards only
        page.wait_for_selector(".cl-draft-card:visible", timeout=30_000)
    state = tables.state(table.id)
    for seat, page in enumerate(pages):
        _wait(lambda: page.locator(".cl-draft-card:visible").count() == len(state.draft_hands[seat]))
