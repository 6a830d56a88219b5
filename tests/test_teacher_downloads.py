"""The teacher's exports download at the click, and their times follow the teacher's browser's
time zone (the page's own checks; the browser's are in test_class_day_browser.py)."""

from __future__ import annotations

import base64
import csv
import io
import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from capital_lux.lessons.classroom import TEACHER_KEY_VARIABLE, set_identity_mode
from capital_lux.lessons.storage import Storage

KEY = "correct horse battery staple"


def ana_answers(storage: Storage) -> None:
    """An open lesson in which Ana has checked one answer (the class whose export is downloaded)."""
    from capital_lux.tutor.exercises_app import build_app as learner_page

    set_identity_mode(storage, "open")
    page = learner_page("en", storage=storage)._exercises
    page.learner.name.value = "Ana"
    page.picker.value = "modifier-after-draw"
    page.answer.value = "1/2"
    page.check()


def check_export(name: str, text: str, at: str, zone: str, heading: str) -> None:
    """The answers' export (file ``name``, CSV ``text``) of Ana's answer stored at ``at``: its
    time column headed ``heading`` and its time in ``zone``, and its file named by the minute
    there: within the five minutes before this check (read from the name, not compared as text,
    so that a download at 18:59 checked at 19:00 is still the teacher's time)."""
    head, row = list(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=";"))[:2]
    local = datetime.fromisoformat(at).astimezone(ZoneInfo(zone))
    assert heading in head and local.strftime("%Y-%m-%d %H:%M:%S") in row
    stamp = re.fullmatch(r"class_answers_(\d{4}-\d\d-\d\dT\d{4})\.csv", name)
    assert stamp, name
    named = datetime.strptime(stamp.group(1), "%Y-%m-%dT%H%M").replace(tzinfo=ZoneInfo(zone))
    now = datetime.now(ZoneInfo(zone))
    assert now - timedelta(minutes=5) < named <= now, (name, now)


@pytest.fixture
def teacher(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    from capital_lux.tutor.teacher_app import build_app

    storage = Storage(str(tmp_path / "class.sqlite3"))
    ana_answers(storage)
    monkeypatch.setenv(TEACHER_KEY_VARIABLE, KEY)
    app = build_app("fr", storage=storage)._teacher
    app.key.value = KEY
    assert app.unlock()
    return app


def _scripts(app: Any) -> list[str]:
    return [out["data"]["text/html"] for out in app.download_now.outputs]


def test_an_export_clicks_its_own_link_at_once_in_the_teachers_language(teacher: Any) -> None:
    assert "resolvedOptions().timeZone" in _scripts(teacher)[0]  # the page asks the browser's zone
    for make, holder in ((teacher.export_csv, "csv_link"), (teacher.export_gradebook, "csv_link"),
                         (lambda: teacher.make_sheet(answers=True), "sheet_links")):
        make()
        link = getattr(teacher, holder).value
        mark = re.search(r'data-cl-fetch="([0-9a-f]+)"', link).group(1)
        [script] = _scripts(teacher)  # one script, for this link only
        assert f'a[data-cl-fetch=\\"{mark}\\"]' in script and ".click()" in script
        assert "Télécharger" in link  # the link stays, in the teacher's language, for a second copy
    teacher.export_csv()
    assert mark not in _scripts(teacher)[0]  # a new export clicks the new link, never the old one


def test_the_times_follow_the_teachers_browsers_zone(teacher: Any) -> None:
    [attempt] = teacher._attempts()
    stored = datetime.fromisoformat(attempt.at)
    for zone, heading in (("Asia/Kolkata", "Heure (IST)"), ("America/Sao_Paulo", "Heure (UTC-03:00)")):
        teacher.zone_field.value = zone  # as the page's script sets it
        teacher.export_csv()
        name = re.search(r'download="([^"]+)"', teacher.csv_link.value).group(1)
        data = base64.b64decode(re.search(r"base64,([^\"]+)", teacher.csv_link.value).group(1)).decode()
        check_export(name, data, attempt.at, zone, heading)  # the heading, the time and the file's name
        local = stored.astimezone(ZoneInfo(zone))
        teacher.row_picker.value = attempt.session
        teacher.show_answers()
        assert local.strftime("%Y-%m-%d %H:%M:%S") in teacher.answers_view.value
    for forged in ("../../etc/passwd", "Nowhere/Atlantis", "x" * 200, ""):
        teacher.zone_field.value = forged
        assert teacher.zone is None  # the server's clock, nothing read from a forged name
