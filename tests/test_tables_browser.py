"""Class tables in real browsers (one Chromium, a context per learner, one server for the module;
the helpers and the whole four-learner game's benchmark are in ``tables_browser``).

Four learners sit at one table by its code, each sees only their own draft cards and picks by
clicking, and one reloads mid-draft and is back in her seat with her pick kept. Two learners
and two bots play a whole game with every aid on: one learner closes her page, the rule-of-thumb
bot plays her seat after the table's away time, the other's page says so, she comes back (a new
page, her own code) to her seat as it stands, and they play to the end, the same scores on both
pages and the record read by ``capital-lux review``; every byte either browser received is
scanned for the other seats' hidden cards, picks and modifiers. The whole game of four learners
is ``python -m capital_lux bench tables_browser`` (minutes of four kernels' work).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from capital_lux.lessons.storage import Storage
from capital_lux.lessons.tables import Tables
import browser as B
from tables_browser import (GAME, NAMES, STALLED, Received, Seen, decide, enrol, learner, move_number, open_table, pick,
                            play_to_the_end, review_reads, scan_all, sit, wait)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def school(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, Any]]:
    if not os.path.exists(B.CHROMIUM):
        pytest.skip(f"no Chromium at {B.CHROMIUM}")
    sync_api = pytest.importorskip("playwright.sync_api")
    database = tmp_path_factory.mktemp("tables") / "class.sqlite3"
    enrol(database)
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


def test_four_learners_sit_by_code_each_sees_their_own_draft_and_a_reload_keeps_the_seat(
        school: tuple[str, Path, Any]) -> None:
    url, database, browser = school
    learners = [learner(browser, url, name) for name in NAMES[:4]]
    pages = [page for page, _ in learners]
    received: list[Received | None] = [got for _, got in learners]
    code = open_table(pages[0])
    for page in pages[1:]:
        sit(page, code)
    tables = Tables(Storage(str(database)))
    table = next(t for t in tables.all_tables() if t.code == code)
    assert [s.name for s in table.seats] == NAMES[:4]  # each seat a class list entry, in joining order
    for page in pages:  # the game started: every page draws its own draft cards
        page.wait_for_selector(".cl-draft-card:visible", timeout=30_000)
    state = tables.state(table.id)
    for seat, page in enumerate(pages):
        assert page.locator(".cl-draft-card:visible").count() == len(state.draft_hands[seat])
    seen = Seen(4)
    checks = scan_all(received, tables, table.id, seen)  # all each browser was sent until the deal
    # Bea picks first, before the engine reaches her seat unless it starts with her
    pick(pages[1])
    wait(lambda: any(seat == 1 for _, seat, _, _ in tables.who_made(table.id)))
    # Bea reloads: her class identity brings her back to her seat, her pick kept
    learner(browser, url, "Bea", pages[1])
    pages[1].wait_for_selector(f".cl-tables-table:has-text('{code}')", timeout=30_000)
    assert "Bea (you)" in pages[1].inner_text(".cl-tables-table")
    assert len([m for m in tables.who_made(table.id) if m[1] == 1]) == 1  # stored once
    for seat in (0, 2, 3):
        if not any(m[1] == seat for m in tables.who_made(table.id)):
            pick(pages[seat])
    wait(lambda: tables.state(table.id).draft_step == 2 or tables.state(table.id).phase != "draft", 60)
    state = tables.state(table.id)
    for seat, page in enumerate(pages):  # the cards passed: every page shows its second step, its own cards
        wait(lambda: page.locator(".cl-draft-card:visible").count() == len(state.draft_hands[seat]))
    checks += scan_all(received, tables, table.id, seen)
    assert checks > 10
    for page in pages:
        page.context.close()


def test_two_learners_and_two_bots_one_away_and_back_every_aid_on_and_nothing_of_the_others_sent(
        school: tuple[str, Path, Any], tmp_path: Path) -> None:
    url, database, browser = school
    (eli, eli_got), (fia, fia_got) = learner(browser, url, "Eli"), learner(browser, url, "Fia")
    eli.select_option(".cl-tables-seats select", label="4")
    eli.select_option(".cl-tables-seat-2 select", label="Rule of thumb (a sensible beginner)")
    eli.select_option(".cl-tables-seat-3 select", label="Random (plays any legal move)")
    eli.fill(".cl-tables-away input", "10")
    eli.locator(".cl-tables-away input").press("Tab")
    time.sleep(0.5)  # the value reaches the kernel with the next message: the click below comes after it
    code = open_table(eli)
    sit(fia, code)
    tables = Tables(Storage(str(database)))
    table = next(t for t in tables.all_tables() if t.code == code)
    assert [s.bot for s in table.seats] == [None, None, "rule", "random"] and table.away_seconds == 10
    assert table.aids == ("risk", "hint", "compare", "review")
    received: list[Received | None] = [eli_got, fia_got, None, None]
    seen = Seen(4)
    checks = scan_all(received, tables, table.id, seen)
    for page in (eli, fia):  # both pick in the first draft step
        page.wait_for_selector(GAME + ".cl-draft-card:visible", timeout=30_000)
        pick(page)
    wait(lambda: {m[1] for m in tables.who_made(table.id)} >= {0, 1})
    checks += scan_all(received, tables, table.id, seen)
    fia.context.close()  # her page is gone, without a goodbye to the server: her kernel lives on
    received[1] = None
    turn = 0
    deadline = time.monotonic() + 240
    while not any(by == "stand-in" and seat == 1 for _, seat, by, _ in tables.who_made(table.id)):
        assert time.monotonic() < deadline, "the stand-in never played for the seat away"
        if not decide(eli, turn):
            time.sleep(0.3)
        turn += 1
        checks += scan_all(received, tables, table.id, seen)
    eli.wait_for_selector(".cl-tables-table:has-text('Player 1 was away: the rule-of-thumb bot played for them.')",
                          timeout=30_000)
    # Fia comes back on a new page with her own code: her seat, the table as it stands
    fia, received[1] = learner(browser, url, "Fia")
    fia.wait_for_selector(f".cl-tables-table:has-text('{code}')", timeout=30_000)
    assert "Fia (you)" in fia.inner_text(".cl-tables-table")
    wait(lambda: move_number(fia) == str(tables.moves(table.id)) or tables.state(table.id).is_terminal(), 30)
    came_back = max(n for n, seat, by, _ in tables.who_made(table.id) if seat == 1 and by == "stand-in")
    checks += play_to_the_end([eli, fia], received, tables, table.id, seen)
    made = tables.who_made(table.id)
    assert any(seat == 1 and by == "learner" and n > came_back for n, seat, by, _ in made)  # hers again
    assert all(by == "learner" for n, seat, by, _ in made if seat == 1 and n > max(
        m for m, s2, b2, _ in made if s2 == 1 and b2 == "stand-in"))
    scores = tables.state(table.id).scores()
    for page in (eli, fia):
        sheet = page.inner_text(GAME + ".cl-scores")
        assert all(str(x) in sheet for x in scores), sheet
    assert checks > 20
    print("clicks that came to nothing:", STALLED)
    assert review_reads(tables, table.id, 1, tmp_path).strip()
