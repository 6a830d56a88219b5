"""Who a row is: the class list and personal codes, the open lesson, the hub's user name,
the teacher's acts on rows (confirmed, undoable), and answers kept while the database is away."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import pytest

from capital_lux.lessons.classroom import (
    CODE_ALPHABET, HUB_USER_VARIABLE, PERSONAL_CODE_LENGTH, TEACHER_KEY_VARIABLE, add_to_roster, identity_mode,
    new_lesson, results_csv, roster_names, set_identity_mode, slips_html,
)
from capital_lux.lessons.exercises import format_number
from capital_lux.lessons.storage import Storage, StorageUnavailable

KEY = "correct horse battery staple"
EXERCISE = "modifier-after-draw"


@pytest.fixture
def storage(tmp_path: Path) -> Storage:
    return Storage(str(tmp_path / "class.sqlite3"))


def _page(storage: Storage | None, **options: Any) -> Any:
    from capital_lux.tutor.exercises_app import build_app

    app = build_app("en", storage=storage, **options)._exercises
    app.picker.value = EXERCISE
    return app


def _join(app: Any, name: str, code: str) -> None:
    app.learner.code.value = ""
    app.learner.name.value = name
    app.learner.code.value = code


def _answer(app: Any, *answers: str) -> list[str]:
    verdicts = []
    for answer in answers:
        app.answer.value = answer
        verdicts.append(app.check())
    return verdicts


def _right(app: Any) -> str:
    return format_number(app.exercise.exact())


def _download(app: Any) -> dict[str, Any]:
    link = app.learner.download.value
    data: dict[str, Any] = json.loads(base64.b64decode(re.search(r"base64,([^\"]+)", link).group(1)))
    return data


def _class(storage: Storage, *names: str) -> dict[str, str]:
    """The class list of ``names``; their codes by name (the last of two of one name)."""
    return {name: code for _, name, code in add_to_roster(storage, list(names))}


def _teacher(storage: Storage, monkeypatch: pytest.MonkeyPatch) -> Any:
    from capital_lux.tutor.teacher_app import build_app

    monkeypatch.setenv(TEACHER_KEY_VARIABLE, KEY)
    app = build_app("en", storage=storage)._teacher
    app.key.value = KEY
    assert app.unlock()
    return app


# -- the class list -----------------------------------------------------------------------------
def test_the_class_list_is_the_default_and_a_code_is_short_and_unambiguous(storage: Storage) -> None:
    assert identity_mode(storage) == "roster"
    codes = _class(storage, *(f"Learner {k}" for k in range(30)))
    assert len(set(codes.values())) == 30
    assert all(len(c) == PERSONAL_CODE_LENGTH and set(c) <= set(CODE_ALPHABET) for c in codes.values())
    assert not set(CODE_ALPHABET) & set("0O1I2Z5S8B")


def test_a_classmates_name_gets_no_access_to_their_row_answers_or_download(storage: Storage) -> None:
    codes = _class(storage, "Ana", "Bea")
    lesson_code = new_lesson(storage)
    ana = _page(storage)
    _join(ana, "Ana", codes["Ana"])
    assert ana.learner.joined == "Ana"
    assert _answer(ana, "1/2", _right(ana)) == ["wrong", "correct"]
    before = [(a.session, a.answer) for a in storage.attempts()]
    bea = _page(storage)
    for name, code in (("Ana", lesson_code), ("Ana", codes["Bea"]), ("ana", ""), ("Ana", "AAAAAA")):
        bea.learner.name.value, bea.learner.code.value = name, ""
        bea.learner.code.value = code
        assert bea.learner.joined == "" and bea.learner.session != ana.learner.session
        assert "cl-error" in bea.learner.note.value and "Welcome" not in bea.learner.note.value
    assert bea.learner.progress.solved == {} and _download(bea)["exercises"] == {}
    assert _download(bea)["learner"] == ""
    assert [(a.session, a.answer) for a in storage.attempts()] == before  # nothing changed
    assert storage.progress(ana.learner.session) == ({EXERCISE: 2}, {EXERCISE: _right(ana)})
    _answer(bea, "1/3")  # bea's answers stay on her own page's row, apart from Ana's
    assert storage.progress(ana.learner.session)[0] == {EXERCISE: 2}


def test_a_classmates_code_is_refused_after_a_few_tries_the_page_must_wait(storage: Storage) -> None:
    _class(storage, "Ana")
    page = _page(storage)
    page.learner.name.value = "Ana"
    for guess in ("AAAAAA", "CCCCCC", "DDDDDD", "EEEEEE", "FFFFFF"):
        page.learner.code.value = guess
        assert "not a code of the class list" in page.learner.note.value
    page.learner.code.value = "GGGGGG"
    assert "Too many codes tried" in page.learner.note.value


def test_two_learners_with_one_name_are_two_rows(storage: Storage) -> None:
    [(_, _, first), (_, _, second)] = add_to_roster(storage, ["Sam", "Sam"])
    one, two = _page(storage), _page(storage)
    _join(one, "Sam", first)
    _join(two, "sam", second)
    assert one.learner.joined == two.learner.joined == "Sam"
    assert one.learner.session != two.learner.session
    _answer(one, _right(one))
    assert two.learner.progress.solved == {} and storage.progress(two.learner.session) == ({}, {})


def test_a_later_visit_continues_the_row_with_its_own_code_on_the_same_cards(storage: Storage) -> None:
    codes = _class(storage, "Ana")
    first = _page(storage)
    _answer(first, "0.9000")  # before joining: joins the row
    _join(first, "Ana", codes["Ana"].lower()[:3] + " " + codes["Ana"].lower()[3:])  # typed loosely
    cards = first.numbers
    _answer(first, _right(first))
    again = _page(storage)  # a reload, or another computer
    _join(again, " ana ", codes["Ana"])
    assert again.learner.session == first.learner.session and again.numbers == cards
    assert again.learner.progress.solved == {EXERCISE: _right(first)}
    assert "Welcome back, Ana" in again.learner.note.value
    assert storage.progress(first.learner.session)[0] == {EXERCISE: 2}
    assert {a.name for a in storage.attempts()} == {"Ana"}
    # a page that is someone's is not turned into someone else's
    again.learner.name.value = "Bea"
    assert again.learner.joined == "Ana" and again.learner.name.value == "Ana"


def test_a_new_lesson_gives_a_listed_learner_a_new_row_and_their_old_file_is_refused(storage: Storage) -> None:
    codes = _class(storage, "Ana")
    new_lesson(storage)
    ana = _page(storage)
    _join(ana, "Ana", codes["Ana"])
    _answer(ana, "1/2", _right(ana))
    old = ana.learner.download.value
    old_row = ana.learner.session
    new_lesson(storage)
    later = _page(storage)
    _join(later, "Ana", codes["Ana"])
    assert later.learner.session != old_row and later.learner.progress.solved == {}
    content = base64.b64decode(re.search(r"base64,([^\"]+)", old).group(1))
    later.load_upload([{"name": "p.json", "content": memoryview(content), "size": len(content)}])
    assert "not written for you in this lesson" in later.learner.note.value
    assert later.learner.progress.solved == {} and storage.progress(later.learner.session) == ({}, {})


def test_an_earlier_progress_file_adds_and_never_hides_what_the_database_holds(storage: Storage) -> None:
    codes = _class(storage, "Ana")
    ana = _page(storage)
    _join(ana, "Ana", codes["Ana"])
    _answer(ana, "1/2")
    early = base64.b64decode(re.search(r"base64,([^\"]+)", ana.learner.download.value).group(1))
    assert _answer(ana, "0.9000", "0.9900", "3/4") == ["wrong"] * 3
    ana.load_upload([{"name": "p.json", "content": memoryview(early), "size": len(early)}])
    assert "Progress loaded" in ana.learner.note.value
    assert storage.progress(ana.learner.session)[0] == {EXERCISE: 4}
    assert ana.learner.progress.attempts == {EXERCISE: 4}
    assert len(storage.wrong_answers()) == 4


def test_the_open_lesson_is_an_explicit_choice_and_gives_each_learner_a_code(storage: Storage) -> None:
    lesson_code = new_lesson(storage)
    refused = _page(storage)
    _join(refused, "Ana", lesson_code)  # the class list is the default: a name and the lesson code are not enough
    assert refused.learner.joined == "" and "class list" in refused.learner.note.value
    set_identity_mode(storage, "open")
    one, two = _page(storage), _page(storage)
    _join(one, "Ana", lesson_code)
    _join(two, "Ana", lesson_code)  # another Ana, or a classmate typing Ana's name: a row of their own
    assert one.learner.joined == two.learner.joined == "Ana" and one.learner.session != two.learner.session
    code = one.learner.personal_code
    assert len(code) == PERSONAL_CODE_LENGTH and code in one.learner.note.value
    _answer(one, _right(one))
    assert two.learner.progress.solved == {}
    back = _page(storage)
    _join(back, "Ana", code)
    assert back.learner.session == one.learner.session and back.learner.progress.solved == {EXERCISE: _right(one)}
    thief = _page(storage)
    _join(thief, "Bea", code)  # the code with another name
    assert thief.learner.joined == "" and thief.learner.session != one.learner.session


def test_on_jupyterhub_the_hubs_user_name_is_the_learner_with_nothing_to_type(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(HUB_USER_VARIABLE, "ana.lima")
    first = _page(storage)
    assert first.learner.joined == "ana.lima" and first.learner.name.disabled
    _answer(first, _right(first))
    again = _page(storage)
    assert again.learner.session == first.learner.session and again.learner.progress.solved
    monkeypatch.setenv(HUB_USER_VARIABLE, "bea")
    other = _page(storage)
    assert other.learner.session != first.learner.session and other.learner.progress.solved == {}


def test_a_class_list_is_read_from_lines_or_a_schools_csv() -> None:
    assert roster_names("Ana Lima\n\n  Bea  \n") == ["Ana Lima", "Bea"]
    assert roster_names("\ufeffNom;Classe\nDupont;4B\nÉlise;4B\n") == ["Dupont", "Élise"]
    assert roster_names("First name,Last name,Class\nAna,Lima,4B\nBea,Souza,4B\n") == ["Ana Lima", "Bea Souza"]


@pytest.mark.parametrize("lang, words", [("en", "type your name and this code"),
                                          ("fr", "votre nom"), ("es", "tu nombre"), ("pt", "seu nome")])
def test_the_slips_are_in_the_teachers_language_with_every_code(storage: Storage, lang: str, words: str) -> None:
    codes = _class(storage, "Ana", "Bea")
    page = slips_html(storage.roster(), lang)
    assert words in page
    for name, code in codes.items():
        assert name in page and f"{code[:3]} {code[3:]}" in page


# -- the teacher's acts on rows ------------------------------------------------------------------
def test_remove_asks_archives_keeps_the_answers_in_the_export_and_undo_brings_the_learner_back(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    codes = _class(storage, "Ana", "Test")
    pages = {}
    for name in codes:
        pages[name] = _page(storage)
        _join(pages[name], name, codes[name])
        _answer(pages[name], "1/2")
    teacher = _teacher(storage, monkeypatch)
    assert "Learners: 2." in teacher.summary.value
    teacher.row_picker.value = pages["Test"].learner.session
    assert teacher.remove_row()
    assert "Learners: 2." in teacher.summary.value  # asked first: nothing done yet
    assert "Remove Test from the dashboard?" in teacher.rows_note.value
    assert teacher.confirm_button.layout.display is None
    teacher.cancel()
    assert "Learners: 2." in teacher.summary.value
    teacher.remove_row()
    assert "Ana, Test" in teacher.roster_list.value
    assert teacher.confirm()
    assert "Learners: 1." in teacher.summary.value and "Test" not in teacher.roster_list.value  # off the list too
    rows = list(csvrows(results_csv(storage.attempts())))
    archived = rows[0].index("Archived")
    assert sorted((r[0], r[archived]) for r in rows[1:]) == [("Ana", "0"), ("Test", "1")]
    again = _page(storage)
    _join(again, "Test", codes["Test"])  # a removed learner's code joins no more
    assert again.learner.joined == ""
    assert teacher.undo()
    assert "Learners: 2." in teacher.summary.value
    assert [r[archived] for r in csvrows(results_csv(storage.attempts()))[1:]] == ["0", "0"]
    _join(again, "Test", codes["Test"])
    assert again.learner.session == pages["Test"].learner.session
    assert not teacher.undo()  # nothing left to undo


def csvrows(text: str) -> list[list[str]]:
    import csv
    import io

    return list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))


def test_merge_and_rename_are_the_teachers_asked_and_undone(storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    codes = _class(storage, "Ana", "Anna")
    ana, typo = _page(storage), _page(storage)
    _join(ana, "Ana", codes["Ana"])
    _join(typo, "Anna", codes["Anna"])
    _answer(ana, "1/2")
    _answer(typo, "0.9000", _right(typo))
    teacher = _teacher(storage, monkeypatch)
    teacher.row_picker.value, teacher.into_picker.value = typo.learner.session, ana.learner.session
    assert teacher.merge_rows() and storage.progress(ana.learner.session)[0] == {EXERCISE: 1}
    assert teacher.confirm()
    assert storage.progress(ana.learner.session)[0] == {EXERCISE: 3} and "Learners: 1." in teacher.summary.value
    assert teacher.undo()
    assert storage.progress(ana.learner.session)[0] == {EXERCISE: 1}
    assert storage.progress(typo.learner.session) == ({EXERCISE: 2}, {EXERCISE: _right(typo)})
    assert "Learners: 2." in teacher.summary.value
    teacher.row_picker.value, teacher.rename_to.value = ana.learner.session, "Ana Lima"
    assert teacher.rename_row() and teacher.confirm()
    assert {a.name for a in storage.attempts()} == {"Ana Lima", "Anna"}
    assert teacher.undo() and {a.name for a in storage.attempts()} == {"Ana", "Anna"}


def test_the_dashboard_shows_a_row_answering_from_two_pages_at_once(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    codes = _class(storage, "Ana", "Bea")
    ana, thief, bea, bea_again = _page(storage), _page(storage), _page(storage), _page(storage)
    for page, name in ((ana, "Ana"), (thief, "Ana"), (bea, "Bea")):
        _join(page, name, codes[name])
    _answer(ana, "1/2")
    _answer(thief, "1/3")
    _answer(ana, "0.9000")  # the two pages' answers interleave: two places at once
    _answer(bea, "1/2")
    _join(bea_again, "Bea", codes["Bea"])  # a reload: the old page answers no more
    _answer(bea_again, "1/3")
    teacher = _teacher(storage, monkeypatch)
    rows = {m.group(1): m.group(2) for m in re.finditer(r"<tr><th>(\w+)(.*?)</tr>", teacher.learners.value)}
    assert "two pages at once" in rows["Ana"] and "two pages at once" not in rows["Bea"]


# -- nothing typed is lost -----------------------------------------------------------------------
class _Away:
    """The class database away for a while: every call fails as a stopped server's does."""

    def __init__(self, storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
        self.monkeypatch, self.storage = monkeypatch, storage

    def __enter__(self) -> None:
        def away(*args: object, **kwargs: object) -> None:
            raise StorageUnavailable("the class database does not answer: {reason}", reason="stopped")

        for method in ("record_attempt", "setting", "setting_or_default", "progress", "attempts"):
            self.monkeypatch.setattr(self.storage, method, away)

    def __exit__(self, *exc: object) -> None:
        self.monkeypatch.undo()


def test_answers_kept_while_the_database_is_away_survive_a_reload_once_each_with_their_time(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    codes = _class(storage, "Ana")
    page = _page(storage)
    _join(page, "Ana", codes["Ana"])
    cards = page.numbers
    with _Away(storage, monkeypatch):
        page.picker.value = "bonus-tie"
        page.picker.value = EXERCISE  # shown again while the database is away: the same cards
        assert page.numbers == cards
        assert _answer(page, "1/2", "0.9000") == ["wrong", "wrong"]
        assert "Your 2 answers are kept on the server" in page.learner.note.value
        typed = [a["at"] for a in page.learner.pending]
    page.picker.value = "bonus-tie"
    page.picker.value = EXERCISE  # and after it is back
    assert page.numbers == cards
    del page  # the tab is closed: its kernel goes with everything in its memory
    assert storage.attempts() == []
    again = _page(storage)  # the reload reaches the database: what was kept goes first
    assert [(a.answer, a.at) for a in storage.attempts()] == list(zip(["1/2", "0.9000"], typed))
    again.learner.send_pending()
    _join(again, "Ana", codes["Ana"])
    assert [a.answer for a in storage.attempts()] == ["1/2", "0.9000"]  # once each
    assert storage.progress(again.learner.session)[0] == {EXERCISE: 2}


def test_an_answer_sent_twice_is_stored_once(storage: Storage) -> None:
    for _ in range(2):
        storage.record_attempt("s1", EXERCISE, "1/2", False, token="t1", at="2026-11-28T10:00:00.000+00:00")
    [attempt] = storage.attempts()
    assert attempt.at.startswith("2026-11-28T10:00:00") and storage.progress("s1")[0] == {EXERCISE: 1}


KILLED_PAGE = """
import os, signal, sys, time
from pathlib import Path
from capital_lux.lessons.storage import Storage
from capital_lux.tutor.exercises_app import build_app

url, code, go = sys.argv[1], sys.argv[2], Path(sys.argv[3])
app = build_app("en", storage=Storage(url))._exercises
app.picker.value = "modifier-after-draw"
app.learner.name.value = "Ana"
app.learner.code.value = code
print("joined", app.learner.joined, flush=True)
while not go.exists():
    time.sleep(0.05)
for answer in ("1/2", "0.9000"):
    app.answer.value = answer
    assert app.check() == "wrong"
print("kept", len(app.learner.pending), flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # the server dies with the page: nothing of its memory survives
"""


@pytest.mark.slow
def test_answers_kept_during_a_postgresql_outage_survive_a_server_restart_and_a_reload(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys

    from test_storage import PostgresServer

    from capital_lux.tutor import classroom

    server = PostgresServer()
    try:
        with Storage(server.url) as storage:
            code = _class(storage, "Ana")["Ana"]
        go = tmp_path / "go"
        page = subprocess.Popen([sys.executable, "-c", KILLED_PAGE, server.url, code, str(go)],
                                stdout=subprocess.PIPE, text=True)
        assert page.stdout is not None and page.stdout.readline().split() == ["joined", "Ana"]
        server.stop()  # the database goes away under the open page
        go.touch()
        assert page.stdout.readline().split() == ["kept", "2"]
        assert page.wait(60) == -9  # and the server (its kernel) is killed
        monkeypatch.setenv("CAPITAL_LUX_DB", server.url)
        monkeypatch.setattr(classroom, "REOPEN_SECONDS", 0.0)
        again = _page(None)  # the learner reloads while the database is still away
        assert again.learner.storage is None and "does not answer yet" in again.learner.note.value
        _join(again, "Ana", code)
        assert _answer(again, "3/4") == ["wrong"]
        assert "Your 1 answer is kept on the server" in again.learner.note.value
        server.start()
        assert again.learner.send_pending()  # the button, or the next answer
        assert again.learner.joined == "Ana" and again.learner.pending == []
        with Storage(server.url) as storage:
            rows = storage.attempts()
            assert [(a.name, a.answer) for a in rows] == [("Ana", "1/2"), ("Ana", "0.9000"), ("Ana", "3/4")]
            assert [a.at for a in rows] == sorted(a.at for a in rows)  # the times they were typed, in order
            assert storage.progress(again.learner.session)[0] == {EXERCISE: 3}
    finally:
        server.remove()
