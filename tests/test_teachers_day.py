"""The teacher's day: today's exercises everywhere, exports named by their time and never
left stale, titles and the teacher's clock in the exports, and sentences instead of the
database driver's words."""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Any

import pytest

from capital_lux.i18n import translator
from capital_lux.lessons.classroom import TEACHER_KEY_VARIABLE, set_identity_mode, set_lesson_exercises
from capital_lux.lessons.exercises import EXERCISES, EXERCISES_BY_ID
from capital_lux.lessons.storage import Storage, StorageUnavailable

KEY = "correct horse battery staple"
TODAY = ["modifier-after-draw", "bonus-tie"]


@pytest.fixture
def storage(tmp_path: Path) -> Storage:
    storage = Storage(str(tmp_path / "class.sqlite3"))
    set_identity_mode(storage, "open")
    return storage


def _teacher(storage: Storage, monkeypatch: pytest.MonkeyPatch, lang: str = "en") -> Any:
    from capital_lux.tutor.teacher_app import build_app

    monkeypatch.setenv(TEACHER_KEY_VARIABLE, KEY)
    app = build_app(lang, storage=storage)._teacher
    app.key.value = KEY
    assert app.unlock()
    return app


def _answer(storage: Storage, name: str, exercise: str, answer: str) -> Any:
    from capital_lux.tutor.exercises_app import build_app

    page = build_app("en", storage=storage)._exercises
    page.learner.name.value = name
    page.picker.value = exercise
    page.answer.value = answer
    page.check()
    return page


def _link(html: str) -> tuple[str, str]:
    name = re.search(r'download="([^"]+)"', html).group(1)
    return name, base64.b64decode(re.search(r"base64,([^\"]+)", html).group(1)).decode()


def test_todays_exercises_are_the_dashboards_the_gradebooks_and_the_sheets(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    set_lesson_exercises(storage, TODAY)
    _answer(storage, "Ana", "modifier-after-draw", "1/2")
    teacher = _teacher(storage, monkeypatch)
    assert re.findall(r'data-exercise="([^"]+)"', teacher.table.value) == TODAY
    grid = teacher.learners.value.split("cl-teacher-grid")[1]
    numbers = [k for k, ex in enumerate(EXERCISES, 1) if ex.id in TODAY]
    assert re.findall(r'<th title="[^"]*">(\d+)</th>', grid) == [str(k) for k in numbers]
    teacher.export_gradebook()
    _, book = _link(teacher.csv_link.value)
    head = book.lstrip("\ufeff").splitlines()[0].split(",")
    assert head[1:-2] == [f"{k}. {EXERCISES_BY_ID[e].title}" for k, e in zip(numbers, TODAY)]
    sheet = teacher.make_sheet(answers=False)
    left_out = next(ex for ex in EXERCISES if ex.id not in TODAY)
    assert EXERCISES_BY_ID[TODAY[1]].title in sheet and left_out.title not in sheet


def test_an_export_is_named_by_its_time_and_goes_once_new_answers_arrive(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    _answer(storage, "Ana", "modifier-after-draw", "1/2")
    teacher = _teacher(storage, monkeypatch, "fr")
    teacher.export_csv()
    name, data = _link(teacher.csv_link.value)
    assert re.fullmatch(r"class_answers_\d{4}-\d\d-\d\dT\d{4}\.csv", name)
    head = data.lstrip("\ufeff").splitlines()[0].split(";")
    assert translator("fr").gettext(EXERCISES_BY_ID["modifier-after-draw"].title) in data  # by its title
    assert any(cell.startswith("Heure (") for cell in head)  # in the teacher's time zone, named
    teacher.refresh()
    assert teacher.csv_link.value  # nothing new: the link stays
    _answer(storage, "Bea", "modifier-after-draw", "1/3")
    teacher.refresh()
    assert teacher.csv_link.value == ""  # stale: gone, to be made again


def test_a_database_away_is_said_in_a_sentence_of_the_teachers_language_not_the_drivers(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    teacher = _teacher(storage, monkeypatch, "fr")

    def away(*args: object) -> None:
        raise StorageUnavailable("the class database does not answer: {reason}",
                                 reason='connection to server at "127.0.0.1", port 5432 failed: Connection refused')

    monkeypatch.setattr(storage, "learner_exercises", away)
    teacher.refresh()
    said = teacher.summary.value
    assert "ne répond pas" in said and "Connection refused" not in said and "5432" not in said


def _names_in_grid(teacher: Any) -> list[str]:
    grid = teacher.learners.value.split("cl-teacher-grid")[1]
    return re.findall(r"<tr><th>([^<]+)</th>", grid)[1:]  # after the head row


def test_the_grid_sorts_by_a_click_and_opens_one_learners_answers_which_the_teacher_marks_by_hand(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    from capital_lux.lessons.classroom import results_csv

    ana = _answer(storage, "Ana", "modifier-after-draw", "1/2")
    zoe = _answer(storage, "Zoe", "modifier-after-draw", "1/3")
    for answer in ("0.9", "3/4"):
        zoe.answer.value = answer
        zoe.check()
    teacher = _teacher(storage, monkeypatch)
    assert _names_in_grid(teacher) == ["Ana", "Zoe"]
    teacher.sort_by.value = "answers"  # one click
    assert _names_in_grid(teacher) == ["Zoe", "Ana"]
    teacher.row_picker.value = ana.learner.session
    assert teacher.show_answers()
    assert teacher.answers_view.value.count("data-attempt=") == 1 and "1/2" in teacher.answers_view.value
    assert "Zoe" not in teacher.answers_view.value and "3/4" not in teacher.answers_view.value
    [attempt] = [value for _, value in teacher.answer_picker.options]
    assert storage.progress(ana.learner.session)[1] == {}
    assert teacher.mark(True)  # the teacher reads the working on paper: right after all
    assert storage.progress(ana.learner.session)[1] == {"modifier-after-draw": "1/2"}
    assert "✓" in teacher.answers_view.value.split("data-attempt=")[1]
    rows = [line.split(",") for line in results_csv(storage.attempts()).lstrip("\ufeff").splitlines()]
    ana_row = next(r for r in rows if r[0] == "Ana")
    assert rows[0][-1] == "Marked by the teacher" and ana_row[-1] == "1" and ana_row[rows[0].index("Score")] == "1"
    assert [a.correct for a in storage.attempts() if a.name == "Ana"] == [False]  # the checker's verdict stays
    assert teacher.mark(None)
    assert storage.progress(ana.learner.session)[1] == {}


def test_the_teacher_closes_the_lesson_and_pages_store_no_more(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    from capital_lux.lessons.classroom import new_lesson

    new_lesson(storage)
    set_identity_mode(storage, "open")
    page = _answer(storage, "Ana", "modifier-after-draw", "1/2")  # no lesson code typed: stays on the page's row
    teacher = _teacher(storage, monkeypatch)
    assert teacher.ask_close() and len(storage.attempts()) == 1
    assert teacher.confirm() and "lesson is closed" in teacher.lesson_note.value
    page.answer.value = "1/3"
    assert page.check() in ("wrong", "correct")  # still checked on the page
    assert "closed the lesson" in page.learner.note.value and len(storage.attempts()) == 1
    teacher.start_lesson()
    assert "lesson is closed" not in teacher.lesson_note.value
