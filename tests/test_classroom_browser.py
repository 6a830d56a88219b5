"""A class in real browsers: learners in separate contexts, the teacher on the teacher's page.

One Voila serves the notebooks folder with a class database and a teacher's key of
the test's own (both set in the server's environment, as a school would).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from capital_lux.lessons.classroom import add_to_roster, instance_seed
from capital_lux.lessons.exercises import EXERCISES, EXERCISES_BY_ID, format_number, instance
from capital_lux.lessons.storage import Storage
import browser as B

pytestmark = [pytest.mark.browser, pytest.mark.slow]
KEY = "a long enough key for the test"
LEARNER = ".cl-exercises.cl-ready"
TEACHER = ".cl-teacher-page.cl-ready"
ARTIFACTS = B.ROOT / "test-artifacts"
#: The class is put on one seed's cards (the teacher's setting), so the test knows every page's answers.
CLASS_SEED = 1
#: The server's key, fixed so that the class's cards, and so the answers below, are known here.
SERVER_KEY = bytes(range(32))
#: The class list's personal codes, by name.
CODES: dict[str, str] = {}


def _class_instance(exercise: str) -> Any:
    return instance(exercise, instance_seed("class", SERVER_KEY, CLASS_SEED, exercise, "", ""))


AFTER_DRAW = format_number(_class_instance("modifier-after-draw").exact())
ANY_SIX = f"{float(_class_instance('deal-any-six').exact()):.4f}"  # the decimals asked


@pytest.fixture(scope="module")
def school(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, Any]]:
    """(server URL, class database, Chromium) for the whole module."""
    if not os.path.exists(B.CHROMIUM):
        pytest.skip(f"no Chromium at {B.CHROMIUM}")
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(exist_ok=True)
    database = tmp_path_factory.mktemp("school") / "class.sqlite3"
    with Storage(str(database)) as storage:
        storage.set_setting("numbers", "class")
        storage.set_setting("class_seed", str(CLASS_SEED))
        storage.set_setting("server_key", SERVER_KEY.hex())
        CODES.update({name: code for _, name, code in add_to_roster(storage, ["Ana", "Bea"])})
    assert AFTER_DRAW == "7/29"  # the answers below: 1/2 is wrong, 0.5 too
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(B, "NOTEBOOK", "notebooks")  # the folder: both pages from one server
        patch.setenv("CAPITAL_LUX_DB", str(database))
        patch.setenv("CAPITAL_LUX_TEACHER_KEY", KEY)
        with B.voila_server(ARTIFACTS / "voila-classroom.log", options=(B.UNPACED, *B.EXERCISES_WARM)) as url, \
                sync_api.sync_playwright() as p:
            browser = B.launch(p)
            try:
                yield url, database, browser
            finally:
                browser.close()


def _open(browser: Any, url: str, notebook: str, ready: str) -> Any:
    """A page in a browser context of its own (its own cookies and storage: another person)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    page = context.new_page()
    outside = B.outside_requests(page)
    page.goto(f"{url}voila/render/{notebook}", timeout=120_000)  # Voila runs the notebook first
    page.wait_for_selector(ready, timeout=90_000)
    assert outside == [], f"{notebook} asked hosts other than the server: {outside}"
    return page


def _learner(browser: Any, url: str, name: str | None, code: str | None = None) -> Any:
    page = _open(browser, url, "probability_exercises.ipynb", LEARNER)
    if name is not None:
        _join(page, name, CODES[name] if code is None else code)
        page.wait_for_selector(f".cl-learner-note:has-text('{name}')")
    return page


def _join(page: Any, name: str, code: str) -> None:
    page.fill(".cl-learner-name input", name)
    page.fill(".cl-learner-code input", code)
    page.click(".cl-learner-join")


def _answer(page: Any, exercise: str, answer: str) -> str:
    page.select_option(".cl-ex-picker select", index=list(EXERCISES_BY_ID).index(exercise))
    page.wait_for_selector(f".cl-ex-question:has-text('{_title(exercise)}')")
    page.fill(".cl-ex-answer input", answer)
    before = page.locator(".cl-ex-feedback").inner_html()
    page.click(".cl-ex-check")
    page.wait_for_function("([sel, old]) => document.querySelector(sel).innerHTML !== old",
                           arg=[".cl-ex-feedback", before])
    status: str = page.get_attribute(".cl-ex-feedback [data-status]", "data-status")
    return status


def _title(exercise: str) -> str:
    return EXERCISES_BY_ID[exercise].title


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_learners_page_has_no_answer_no_teacher_control_and_no_path(school: tuple[str, Path, Any],
                                                                        tmp_path: Path) -> None:
    url, database, browser = school
    voila_json = B.ROOT / "voila.json"
    before = _sha(voila_json)
    page = _learner(browser, url, None)
    html = page.content()
    assert "cl-teacher" not in html and page.locator("input[type=checkbox]").count() == 0
    texts = page.locator("input[type=text], input:not([type])")
    owners = {texts.nth(i).evaluate("e => e.closest('.widget-text').className") for i in range(texts.count())}
    # no path field; the hidden ping is the page script's check that the kernel knows the page (keep.Liveness)
    allowed = ("cl-learner-name", "cl-learner-code", "cl-ex-answer", "cl-ping")
    assert len(owners) == 4 and all(any(k in o for k in allowed) for o in owners)
    first = _class_instance(EXERCISES[0].id)
    assert format_number(first.exact()) not in html and f"{float(first.exact()):.4f}" not in html
    assert page.is_disabled(".cl-ex-show-solution") and page.is_disabled(".cl-ex-simulate")
    # A path typed where text is asked for is just text: no file on the server is read or written.
    _join(page, "../../voila.json", "../..")
    page.wait_for_selector(".cl-learner-note .cl-error:has-text('not a code of the class list')")
    forged = tmp_path / "progress.json"
    forged.write_text(json.dumps({"format": "capital-lux-exercise-progress", "version": 2, "learner": "x",
                                  "exercises": {ex.id: {"attempts": 1, "solved": "1/2"} for ex in EXERCISES},
                                  "signature": "0" * 64}))
    with page.expect_file_chooser() as chooser:  # the browser's own file dialog: a file of the learner's
        page.click(".cl-ex-upload")
    chooser.value.set_files(str(forged))
    page.wait_for_selector(".cl-learner-note .cl-error:has-text('Not loaded')")
    assert f"0 of {len(EXERCISES)}" in page.inner_text(".cl-ex-progress")
    page.screenshot(path=str(ARTIFACTS / "classroom-learner.png"), full_page=True)
    assert _sha(voila_json) == before
    with Storage(str(database)) as storage:
        assert "../../voila.json" not in {a.name for a in storage.attempts()} | _names(storage)
    page.context.close()


def _names(storage: Storage) -> set[str]:
    with storage._transaction() as cursor:
        return {row[0] for row in cursor.execute("SELECT name FROM learners").fetchall()}


def test_the_teacher_sees_the_class_and_a_learner_who_reloads_stays_one_row(school: tuple[str, Path, Any]) -> None:
    url, database, browser = school
    ana = _learner(browser, url, "Ana")
    assert _answer(ana, "modifier-after-draw", "1/2") == "wrong"
    assert _answer(ana, "modifier-after-draw", AFTER_DRAW) == "correct"
    ana.wait_for_selector(f".cl-ex-progress:has-text('1 of {len(EXERCISES)}')")  # drawn just after the feedback
    # Bea, in a browser of her own, types Ana's name with her own code, then with the lesson's: refused
    bea = _learner(browser, url, None)
    for code in (CODES["Bea"], CODES["Ana"][::-1]):
        _join(bea, "Ana", code)
        bea.wait_for_selector(".cl-learner-note .cl-error")
        assert "Welcome" not in bea.inner_text(".cl-learner-note")
        assert f"0 of {len(EXERCISES)}" in bea.inner_text(".cl-ex-progress") and "✓" not in bea.inner_text(
            ".cl-ex-picker select")
    ana.reload()  # Ana reloads: a new page and kernel; her code and name continue her row
    ana.wait_for_selector(LEARNER, timeout=90_000)
    assert "Ana" not in ana.inner_text(".cl-learner-note")
    _join(ana, "ana", CODES["Ana"].lower())
    namesake = ana
    namesake.wait_for_selector(f".cl-ex-progress:has-text('1 of {len(EXERCISES)}')")  # restored from the server
    namesake.wait_for_selector(".cl-learner-note:has-text('Welcome back, Ana')")
    assert "✓" in namesake.inner_text(".cl-ex-picker select")
    assert _answer(namesake, "modifier-after-draw", "0.5000") == "wrong"

    teacher = _open(browser, url, "teacher.ipynb", TEACHER)
    assert teacher.locator(".cl-teacher-table").count() == 0 and "Ana" not in teacher.content()
    teacher.fill(".cl-teacher-key input", "not the key at all")
    teacher.click(".cl-teacher-unlock")
    teacher.wait_for_selector(".cl-teacher-lock-note:has-text('not the key')")
    teacher.fill(".cl-teacher-key input", KEY)
    teacher.click(".cl-teacher-unlock")
    teacher.wait_for_selector(".cl-teacher-unlocked .cl-teacher-table", timeout=60_000)
    assert "Learners: 1. Answers checked: 3." in teacher.inner_text(".cl-teacher-summary")  # one learner, one row
    row = teacher.locator(".cl-teacher-table tr[data-exercise='modifier-after-draw'] td").all_inner_texts()
    assert row[1:4] == ["1", "1", "2"] and row[4].startswith("1/2 (1×)")  # solved at her 2nd answer
    teacher.wait_for_selector(".cl-teacher-learners:has-text('Ana')")  # drawn after the tables
    assert teacher.inner_text(".cl-teacher-learners").count("Ana") == 1
    teacher.wait_for_selector(".cl-teacher-charts img")  # drawn after the tables
    assert teacher.locator(".cl-teacher-charts img").count() == 1

    bea.context.close()
    late = _learner(browser, url, "Bea")  # answers while the teacher watches: the figures follow
    assert _answer(late, "deal-any-six", ANY_SIX) == "correct"
    # refreshed every 5 s (the notebook's live_seconds); a loaded machine (load 15-19) took over 30 s
    teacher.wait_for_selector(".cl-teacher-summary:has-text('Learners: 2. Answers checked: 4.')", timeout=90_000)

    teacher.select_option(".cl-teacher-solutions select", "always")
    with Storage(str(database)) as storage:  # the teacher's kernel writes the setting as the click arrives
        for _ in range(300):
            if storage.setting("solutions", "") == "always":
                break
            time.sleep(0.1)
        assert storage.setting("solutions", "") == "always"
    namesake.select_option(".cl-ex-picker select", index=list(EXERCISES_BY_ID).index("bonus-tie"))
    namesake.wait_for_selector(f".cl-ex-question:has-text('{_title('bonus-tie')}')")
    namesake.wait_for_selector(".cl-ex-show-solution:not([disabled])")  # the setting, before any answer here

    teacher.click(".cl-teacher-export")
    teacher.wait_for_selector(".cl-teacher-csv a[download]")
    with teacher.expect_download() as download:
        teacher.click(".cl-teacher-csv a")
    rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text("utf-8-sig"))))
    assert [(r["Learner"], r["Exercise"], r["Answer"], r["Score"]) for r in rows] == [
        ("Ana", "modifier-after-draw", "1/2", "0"), ("Ana", "modifier-after-draw", AFTER_DRAW, "1"),
        ("Ana", "modifier-after-draw", "0.5000", "0"), ("Bea", "deal-any-six", ANY_SIX, "1")]
    assert len({r["Session"] for r in rows}) == 2
    teacher.screenshot(path=str(ARTIFACTS / "classroom-teacher.png"), full_page=True)
    for page in (ana, late, teacher):
        page.context.close()
