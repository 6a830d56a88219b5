"""A class's day in Chromium, on one server and one browser: the teacher's export downloads at
the click (no link to click after), its times in the time zone of the teacher's browser, not the
server's; a learner whose page's kernel crashed (the server restarts it empty) is told so, and the
page keeps what they typed."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

import psutil
import pytest

from capital_lux.lessons.classroom import add_to_roster, set_identity_mode
from capital_lux.lessons.storage import Storage
import browser as B
from test_newcomer_browser import KILL_KERNEL  # the server shuts the page's kernel down, and stays up
from test_teacher_downloads import ana_answers, check_export

pytestmark = [pytest.mark.browser, pytest.mark.slow]
KEY = "a long enough key for the test"
ZONE = "Asia/Kolkata"  # not the server's: UTC+05:30 all year
CODES: dict[str, str] = {}


@pytest.fixture(scope="module")
def school(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, Any, Path]]:
    """(server URL, the stored answer's time, Chromium, the class database) for the whole module."""
    if not os.path.exists(B.CHROMIUM):
        pytest.skip(f"no Chromium at {B.CHROMIUM}")
    sync_api = pytest.importorskip("playwright.sync_api")

    database = tmp_path_factory.mktemp("school") / "class.sqlite3"
    with Storage(str(database)) as storage:
        ana_answers(storage)
        [attempt] = storage.attempts()
        set_identity_mode(storage, "roster")
        CODES.update({name: code for _, name, code in add_to_roster(storage, ["Bea"])})
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(B, "NOTEBOOK", "notebooks")
        patch.setenv("CAPITAL_LUX_DB", str(database))
        patch.setenv("CAPITAL_LUX_TEACHER_KEY", KEY)
        patch.setenv("TZ", "UTC")  # the server's clock, far from the teacher's
        with B.voila_server(B.ROOT / "test-artifacts" / "voila-teacher-day.log",
                            options=(B.UNPACED, *B.EXERCISES_WARM)) as url, \
                sync_api.sync_playwright() as p:
            browser = B.launch(p)
            try:
                yield url, attempt.at, browser, database
            finally:
                browser.close()


def test_an_export_downloads_at_the_click_in_the_teachers_time_zone(school: tuple[str, str, Any, Path]) -> None:
    url, at, browser, _ = school
    context = browser.new_context(timezone_id=ZONE, locale="fr-FR", accept_downloads=True)
    teacher = context.new_page()
    teacher.goto(f"{url}voila/render/teacher.ipynb?lang=fr", timeout=120_000)
    teacher.wait_for_selector(".cl-teacher-page.cl-ready", timeout=90_000)
    teacher.fill(".cl-teacher-key input", KEY)
    teacher.click(".cl-teacher-unlock")
    teacher.wait_for_selector(".cl-teacher-unlocked .cl-teacher-table", timeout=60_000)
    with teacher.expect_download(timeout=30_000) as download:
        teacher.click(".cl-teacher-export")  # the button only: the file comes at once
    check_export(download.value.suggested_filename, Path(download.value.path()).read_text("utf-8-sig"), at, ZONE,
                 "Heure (IST)")
    assert "Télécharger" in teacher.inner_text(".cl-teacher-csv")  # and the link, for a second copy
    context.close()


def test_a_crashed_kernel_is_told_on_the_exercises_page_which_keeps_what_was_typed(
        school: tuple[str, str, Any, Path]) -> None:
    url, _, browser, database = school
    context = browser.new_context()
    learner = context.new_page()
    learner.clock.install()  # the page's clock, moved on by the test once the kernel has crashed
    learner.goto(f"{url}voila/render/probability_exercises.ipynb?lang=en", timeout=120_000)
    learner.wait_for_selector(".cl-exercises.cl-ready", timeout=90_000)
    learner.fill(".cl-learner-name input", "Bea")
    learner.fill(".cl-learner-code input", CODES["Bea"])
    learner.click(".cl-learner-join")
    learner.wait_for_selector(".cl-learner-note:has-text('Bea')")
    learner.fill(".cl-ex-answer input", "1/7")
    learner.click(".cl-ex-check")
    learner.wait_for_selector(".cl-ex-feedback [data-status]")
    learner.fill(".cl-ex-answer input", "2/7")  # typed, not yet checked
    # The kernel crashes: the server restarts it empty, so it answers the server but knows nothing of
    # this page (a kernel shut down, DELETE, is the same script's other case: test_newcomer_browser).
    kernel = learner.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
    victims = [p for p in psutil.process_iter(["cmdline"]) if any(kernel in part for part in p.info["cmdline"] or [])]
    assert len(victims) == 1
    victims[0].kill()
    B.until_told_lost(learner)
    assert "cannot check answers" in learner.inner_text(".cl-kernel-lost")
    assert learner.input_value(".cl-ex-answer input") == "2/7"  # what was typed stays, to be copied
    with Storage(str(database)) as storage:
        assert [a.answer for a in storage.attempts() if a.name == "Bea"] == ["1/7"]  # the checked one is kept
    context.close()
