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
    assert re.fullmatch(r"class_answers_\d{4}-\d\d-\d\d_\d{4}\.csv", name)
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
