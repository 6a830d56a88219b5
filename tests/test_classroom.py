"""The classroom without a browser: progress files, the learner's strip, the teacher's page."""

from __future__ import annotations

import csv
import io
import re
import json
from datetime import datetime, timedelta, timezone
from dataclasses import replace
from html import escape
from pathlib import Path
from typing import Any

import pytest

from capital_lux.i18n import LANGUAGES, translator
from capital_lux.lessons.classroom import (
    STUCK_MINUTES, TEACHER_KEY_VARIABLE, class_numbers, instance_seed, mistake_label, results_csv, server_key,
    set_class_numbers, set_identity_mode, solution_open, stuck_now, summarise,
)
from capital_lux.lessons.exercises import EXERCISES, EXERCISES_BY_ID, check_answer, format_number
from capital_lux.lessons.problems.checker import classic_values
from capital_lux.lessons.problems.mistakes import LABELS
from capital_lux.lessons.progress import (
    MAX_PROGRESS_BYTES, PROGRESS_FORMAT, Progress, ProgressError, ProgressFile, progress_schema, signature,
)
from capital_lux.lessons.storage import Attempt, Storage
from typed_json import hint_form, schema_form

KEY = "correct horse battery staple"


#: The server's key in the tests that read progress files without a class database.
SERVER_KEY = bytes(range(32))


def _file(exercises: dict[str, Any], learner: str = "", key: bytes = SERVER_KEY) -> str:
    """A progress file as a server with ``key`` signs it (whatever it holds)."""
    return json.dumps({"format": PROGRESS_FORMAT, "version": 2, "learner": learner, "exercises": exercises,
                       "signature": signature(key, learner, exercises)})


def _seed(storage: Storage, policy: str, exercise: str, name: str = "", session: str = "") -> int:
    """The seed the server deals ``exercise`` on, for that learner (or the class), as its pages do."""
    _, class_seed = class_numbers(storage)
    return instance_seed(policy, server_key(storage), class_seed, exercise, name, session)


@pytest.fixture
def storage(tmp_path: Path) -> Storage:
    """A class database in an open lesson, names only (the class list's codes: test_roster)."""
    storage = Storage(str(tmp_path / "class.sqlite3"))
    set_identity_mode(storage, "open")
    return storage


def _learner(storage: Storage, lang: str = "en", numbers: Any = None) -> Any:
    """A learner's page; on the base positions' numbers unless ``numbers`` says otherwise."""
    from capital_lux.tutor.exercises_app import build_app

    return build_app(lang, storage=storage, numbers=numbers)._exercises


def _answered(storage: Storage, learners: list[tuple[str, list[str]]], exercise: str = "modifier-after-draw",
              page: Any = None) -> list[Any]:
    """A page per (name, answers), each answer checked on ``exercise`` (the first on ``page`` if given)."""
    pages = []
    for name, answers in learners:
        app, page = page or _learner(storage), None
        app.learner.name.value = name
        app.picker.value = exercise
        for answer in answers:
            app.answer.value = answer
            app.check()
        pages.append(app)
    return pages


def _teacher(storage: Storage, monkeypatch: pytest.MonkeyPatch, key: str | None = KEY) -> Any:
    from capital_lux.tutor.teacher_app import build_app

    if key is None:
        monkeypatch.delenv(TEACHER_KEY_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(TEACHER_KEY_VARIABLE, key)
    return build_app("en", storage=storage)._teacher


def _upload(text: str | bytes) -> tuple[dict[str, Any], ...]:
    data = text.encode() if isinstance(text, str) else text
    return ({"name": "p.json", "size": len(data), "content": memoryview(data)},)


# -- progress files -------------------------------------------------------------------------------
def test_progress_counts_answers_but_not_garbage_and_round_trips() -> None:
    progress = Progress.empty()
    ex = EXERCISES_BY_ID["modifier-after-draw"]
    for answer in ("1/2", "garbage", "7/32", "0.2188"):
        progress.record(ex.id, answer, check_answer(answer, ex.exact()))
    assert progress.attempts == {ex.id: 3} and progress.solved == {ex.id: "7/32"}
    assert Progress.from_json(progress.to_json(SERVER_KEY, "Ana"), SERVER_KEY, "Ana") == progress


@pytest.mark.parametrize(
    "text, problem",
    [
        ("not json", "not a progress file"),
        ("[]", "not a progress file"),
        ('{"format": "capital-lux-exercise-progress", "version": 1, "exercises": {}}', "earlier version"),
        ('{"format": "capital-lux-exercise-progress", "version": 2}', "is a required property"),
        (_file({"x": {"attempts": 1, "solved": None}}), "'x' is not an exercise"),
        (_file({"deck-short": {"attempts": -1, "solved": None}}), "attempts must be a whole number"),
        (_file({"deck-short": {"attempts": 1.5, "solved": None}}), "attempts must be a whole number"),
        (_file({"deck-short": {"attempts": 1, "solved": 3}}), "solved must be the answer"),
        (_file({"deck-short": {"attempts": 1, "solved": "banana"}}), "solved must be the answer"),
        (_file({"deck-short": {"attempts": 1, "solved": "0.9"}}, key=bytes(32)), "not written for you"),
        (_file({"deck-short": {"attempts": 1, "solved": "0.9"}}, learner="Bea"), "is 'Bea''s"),
        (_file({"deck-short": {"attempts": 1, "solved": "0.9"}}).replace('"0.9"', '"0.8"'), "not written for you"),
        (_file({"deck-short": {"attempts": 1, "solved": None, "admin": True}}), "does not match its schema"),
        ("[" * 100_000, "at most 65536"),
    ],
)
def test_bad_progress_files_are_refused_with_a_reason(text: str, problem: str) -> None:
    with pytest.raises(ProgressError, match=problem):
        Progress.from_json(text, SERVER_KEY, "")


def test_the_progress_files_typed_dict_says_what_the_schema_accepts() -> None:
    """``Progress.from_json`` reads a file the schema accepted as a ``ProgressFile``."""
    assert hint_form(ProgressFile) == schema_form(progress_schema(), progress_schema())


def test_a_forged_file_claiming_every_exercise_is_refused_in_the_learners_language(storage: Storage) -> None:
    forged = _file({ex.id: {"attempts": 1, "solved": "banana"} for ex in EXERCISES})
    for lang in LANGUAGES:
        app = _learner(storage, lang)
        app.load_upload(_upload(forged))
        note = app.learner.note.value
        assert "cl-error" in note and app.progress == Progress.empty()
        t = translator(lang)
        assert t.gettext("Solved: {solved} of {total}").format(solved=0, total=len(EXERCISES)) \
            in app.progress_note.value
        assert t.gettext("Not loaded: {reason}").split("{reason}")[0] in note
        assert t.gettext("exercise {key}: solved must be the answer that solved it (a number), or null") \
            .split("{key}")[0] in note
        if lang != "en":
            assert "Not loaded" not in note and "solved must be" not in note  # translated, not English
        assert storage.progress(app.learner.session) == ({}, {})  # nothing changed in the database


def test_an_oversized_upload_is_refused_before_it_is_read(storage: Storage) -> None:
    app = _learner(storage)
    huge = b" " * (MAX_PROGRESS_BYTES + 1)
    app.load_upload(({"name": "p.json", "size": len(huge), "content": memoryview(huge)},))
    assert "at most 65,536" in app.learner.note.value and app.progress == Progress.empty()


# -- the learner's page -----------------------------------------------------------------------------
def test_the_learners_page_has_no_path_no_teacher_control_and_no_answer(storage: Storage) -> None:
    app = _learner(storage)
    for gone in ("teacher", "reveal", "sheet", "progress_path", "save_button", "load_button"):
        assert not hasattr(app, gone)
    app.picker.value = "gold-or-hometown"
    assert app.solution_button.disabled and app.simulate_button.disabled
    app.show_solution()
    app.run_simulation()
    assert app.solution.value == "" and app.simulation.value == ""  # the handlers check too
    assert "-4/3" not in app.question.value + app.feedback.value
    app.answer.value = "1.00"
    assert app.check() == "wrong"
    assert not app.solution_button.disabled
    app.show_solution()
    assert "-4/3" in app.solution.value


def test_a_learner_comes_back_with_their_code_and_finds_what_they_solved(storage: Storage) -> None:
    # A reload used to make a new row ("Learners: 10" for 7) and "Solved: 0 of 21" for a
    # learner who had solved exercise 3 and typed the same name again; a name alone was
    # also anyone's key to that row (test_roster).
    first = _learner(storage)
    first.learner.name.value = "  Ana  "
    first.picker.value = "modifier-after-draw"
    for answer in ("1/2", "a third", format_number(first.exercise.exact())):
        first.answer.value = answer
        first.check()
    assert f"1 of {len(EXERCISES)}" in first.progress_note.value
    again = _learner(storage)  # the same learner, after a reload: a new page
    again.picker.value = "scholar-green"
    again.answer.value = "1/2"  # answered before typing the name: it joins her row
    again.check()
    again.learner.code.value = first.learner.personal_code
    again.learner.name.value = "ana"
    assert again.learner.session == first.learner.session
    assert f"1 of {len(EXERCISES)}" in again.progress_note.value and "Welcome back, Ana" in again.learner.note.value
    again.learner.name_button.click()  # "This is me" after typing: the same row, still a welcome back
    assert "Welcome back, Ana" in again.learner.note.value
    attempts, solved = storage.progress(first.learner.session)
    assert attempts == {"modifier-after-draw": 2, "scholar-green": 1} and list(solved) == ["modifier-after-draw"]
    assert [name for _, _, name, *_ in storage.learner_exercises()] == ["Ana", "Ana"]  # one learner, two exercises
    other = _learner(storage)
    other.learner.name.value = "Bea"
    assert other.learner.session != first.learner.session and "Welcome, Bea" in other.learner.note.value
    rows = storage.attempts()
    assert [(r.name, r.answer, r.correct) for r in rows] == [
        ("Ana", "1/2", False), ("Ana", format_number(first.exercise.exact()), True), ("Ana", "1/2", False)]


def test_a_lesson_code_keeps_others_out_and_a_new_lesson_starts_empty(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    ana = _learner(storage)
    ana.learner.name.value = "Ana"
    ana.picker.value = "modifier-after-draw"
    ana.answer.value = "1/2"
    ana.check()
    teacher = _teacher(storage, monkeypatch)
    teacher.key.value = KEY
    assert teacher.unlock() and "Learners: 1." in teacher.summary.value
    code = teacher.start_lesson()
    assert code and code in teacher.lesson_note.value and "Learners: 0." in teacher.summary.value
    assert len(storage.attempts()) == 1  # the earlier lesson's answers are kept
    late = _learner(storage)
    late.learner.name.value = "Ana"  # no code: not in the lesson
    assert "your code" in late.learner.note.value and late.learner.joined == ""
    late.learner.code.value = f" {code.lower()} "  # typed loosely: spaces and case do not matter
    assert late.learner.joined == "Ana" and late.learner.session != ana.learner.session  # a new lesson, a new row
    assert f"0 of {len(EXERCISES)}" in late.progress_note.value


def test_the_teacher_merges_two_rows_of_one_learner_and_removes_a_stray_one(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    ana, typo, stray = _answered(storage, [("Ana", ["1/2"]), ("Anna", ["0.900", "7/32"]), ("test", ["0.990"])])
    teacher = _teacher(storage, monkeypatch)
    teacher.key.value = KEY
    assert teacher.unlock() and "Learners: 3. Answers checked: 4." in teacher.summary.value
    teacher.row_picker.value, teacher.into_picker.value = typo.learner.session, ana.learner.session
    assert teacher.merge_rows() and teacher.confirm()  # asked, then done (test_roster: undone)
    assert storage.progress(ana.learner.session) == ({"modifier-after-draw": 3}, {"modifier-after-draw": "7/32"})
    figures = teacher._figures()
    assert figures is not None and figures.summaries["modifier-after-draw"].outcomes[2] == 1  # solved at the 3rd
    teacher.row_picker.value = stray.learner.session
    assert teacher.remove_row() and teacher.confirm()
    assert "Learners: 1. Answers checked: 3." in teacher.summary.value
    assert {(a.name, a.archived) for a in storage.attempts()} == {("Ana", False), ("test", True)}  # kept


def test_a_learner_without_a_name_is_asked_for_one_and_still_counted(storage: Storage) -> None:
    app = _learner(storage)
    assert "Type your name" in app.learner.note.value
    app.answer.value = "0.50"
    app.check()
    [row] = storage.attempts()
    assert row.name == "" and row.session == app.learner.session


def test_progress_leaves_by_download_and_comes_back_by_upload(storage: Storage) -> None:
    app = _learner(storage)
    app.picker.value = "modifier-after-draw"
    app.answer.value = "21.9%"
    app.check()
    link = app.learner.download.value
    assert 'download="capital_lux_progress.json"' in link
    data = link.split("base64,")[1].split('"')[0]
    import base64

    text = base64.b64decode(data)
    later = _learner(storage)  # another day, another page
    later.load_upload(_upload(text))
    assert later.progress == app.progress and f"1 of {len(EXERCISES)}" in later.progress_note.value
    assert storage.progress(later.learner.session) == ({"modifier-after-draw": 1}, {"modifier-after-draw": "21.9%"})
    later.load_upload(_upload("{broken"))
    assert "Not loaded" in later.learner.note.value and later.progress == app.progress


def test_the_teachers_setting_opens_or_closes_solutions_at_once(storage: Storage) -> None:
    app = _learner(storage)
    storage.set_setting("solutions", "always")
    app.show_exercise()
    assert not app.solution_button.disabled
    storage.set_setting("solutions", "never")
    app.answer.value = "1/2"
    app.check()
    assert app.solution_button.disabled and app.simulate_button.disabled
    assert solution_open("never", 5) is False and solution_open("bogus", 5) is False


# -- the teacher's page -------------------------------------------------------------------------------
def test_the_teachers_page_stays_locked_without_a_key_set(storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    teacher = _teacher(storage, monkeypatch, key=None)
    assert teacher.key.disabled and TEACHER_KEY_VARIABLE in teacher.lock_note.value
    assert teacher.unlock() is False and not hasattr(teacher, "table")
    short = _teacher(storage, monkeypatch, key="123")  # too short to be a secret
    short.key.value = "123"
    assert short.unlock() is False


def test_wrong_keys_are_refused_then_the_page_locks(storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    teacher = _teacher(storage, monkeypatch)
    for _ in range(5):
        teacher.key.value = "guess"
        assert teacher.unlock() is False
    assert teacher.key.value == "" and teacher.key.disabled and "reload" in teacher.lock_note.value
    teacher.key.value = KEY
    assert teacher.unlock() is False  # even the right key, once locked
    assert not hasattr(teacher, "table") and "cl-teacher-unlocked" not in teacher.root._dom_classes


def test_the_dashboard_shows_the_class_and_exports_it(storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    set_class_numbers(storage, "class", 7)  # everyone the same cards: the same number is the same answer
    [ana] = _answered(storage, [("Ana", ["8/33", "7/32"])])  # 8/33: the chance before the draw, a classic
    again = _learner(storage)  # Ana again, after a reload: her code and name continue her row
    again.learner.code.value = ana.learner.personal_code
    _answered(storage, [("Ana", ["8/33"]), ("=cmd|' /C calc'!A0", ["1/4", "8/33", "7/32"])], page=again)
    teacher = _teacher(storage, monkeypatch)
    teacher.key.value = KEY
    assert teacher.unlock() is True and teacher.key.value == ""
    assert "Learners: 2. Answers checked: 6." in teacher.summary.value  # the two Ana pages are one learner
    row = teacher.table.value.split('data-exercise="modifier-after-draw">')[1].split("</tr>")[0]
    cells = [c.split("</td>")[0] for c in row.split("<td>")[1:]]
    assert cells[1:4] == ["2", "2", "2.5"]  # answered, solved, median answers to solve (2, 3)
    assert cells[4].startswith("8/33 (2×)")
    assert len(teacher.charts.children) == 1 and teacher.charts.children[0].value[:4] == b"\x89PNG"
    assert teacher.learners.value.count("Ana") == 1 and "&#x27;" in teacher.learners.value  # names escaped
    teacher.solutions.value = "never"
    assert storage.setting("solutions", "") == "never"
    teacher.export_csv()
    import base64

    data = base64.b64decode(teacher.csv_link.value.split("base64,")[1].split('"')[0]).decode()
    assert data.startswith("\ufeff")  # a spreadsheet reads the accents as UTF-8
    rows = list(csv.DictReader(io.StringIO(data[1:])))
    assert len(rows) == 6 and rows[0]["Answer"] == "8/33" and {r["Learner"] for r in rows} >= {"Ana"}
    assert all(not r["Learner"].startswith("=") for r in rows)  # no formula runs in a spreadsheet
    exact = format_number(EXERCISES_BY_ID["modifier-after-draw"].exact())
    assert {r["Right answer"] for r in rows} == {exact} and {r["Exercise number"] for r in rows} == {"7"}
    assert [r["Score"] for r in rows] == ["1" if r["Answer"] == exact else "0" for r in rows]
    assert {r["Mistake"] for r in rows if r["Answer"] == "8/33"} == {"prior"}  # its id, not its sentence
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", next(v for k, v in r.items() if k.startswith("Time ("))) for r in rows)
    teacher.language.value = "fr"
    assert translator("fr").gettext("Most common wrong answers") in teacher.table.value


def test_summaries_diagnose_and_csv_keep_negative_answers() -> None:
    rows = [Attempt(1, "a", "A", "x", "seed 1", "-4/3", False, "with replacement", "t"),
            Attempt(2, "b", "B", "x", None, "-4/3", False, None, "t")]
    [(answer, count, mistake)] = summarise(rows)["x"].wrong
    assert (answer, count, mistake) == ("-4/3", 2, "with replacement")
    assert "\n'-4/3" not in results_csv(rows) and ",-4/3," in results_csv(rows)
    assert ";-4/3;" in results_csv(rows, "fr")  # a French spreadsheet splits columns at semicolons


def test_a_diagnosed_mistake_reaches_the_dashboard(storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    ex = EXERCISES_BY_ID["deal-any-six"]
    mistake = ex.mistakes[0]
    value = mistake.value(ex.view())
    assert value is not None
    app = _learner(storage)
    app.picker.value = ex.id
    app.answer.value = format_number(value)
    assert app.check() == "wrong"
    [row] = storage.attempts()
    assert row.mistake == mistake.id  # a stable id in the data, not the learner's sentence
    teacher = _teacher(storage, monkeypatch)
    teacher.key.value = KEY
    teacher.unlock()
    teacher.language.value = "fr"
    label = translator("fr").gettext(LABELS[mistake.id])
    assert escape(label) in teacher.table.value and label != LABELS[mistake.id]
    assert escape(translator("fr").gettext(mistake.text)) not in teacher.table.value  # a short label, not it
    # a class database written before ids: the sentence it holds reads as the same label
    assert mistake_label(translator("fr"), mistake.text) == label


# -- every learner their own numbers --------------------------------------------------------------------
def test_each_learner_gets_their_own_reproducible_numbers(storage: Storage) -> None:
    from capital_lux.tutor.exercises_app import OWN

    ana, bea = _learner(storage, numbers=OWN), _learner(storage, numbers=OWN)
    policy, class_seed = class_numbers(storage)
    assert policy == "learner" and class_numbers(storage) == (policy, class_seed)  # drawn once, then kept
    ana.learner.name.value = "Ana"
    bea.learner.name.value = "Bea"
    first = str(ana.picker.value)
    assert ana.numbers == _seed(storage, "learner", first, "", ana.learner.session)
    assert bea.numbers == _seed(storage, "learner", first, "", bea.learner.session) != ana.numbers
    for app in (ana, bea):
        app.picker.value = "deal-any-six"
        assert app.numbers == _seed(storage, "learner", "deal-any-six", "", app.learner.session)
        assert app.exercise == EXERCISES_BY_ID["deal-any-six"].instance(app.numbers)  # what the page shows
    assert ana.exercise.layout != bea.exercise.layout and ana.position.value != bea.position.value
    again = ana.numbers
    ana.picker.value = "scholar-green"
    ana.picker.value = "deal-any-six"
    assert ana.numbers == again  # the same learner, the same cards every time
    # the learner's identity is their row (their person on the class list): a namesake's row deals
    # other cards, and a renamed learner keeps theirs (a page joins once: a new name is refused)
    assert _seed(storage, "learner", "deal-any-six", "", "other session") != again
    ana.learner.name.value = "Anabel"
    assert ana.learner.joined == "Ana" and ana.numbers == again


def test_a_class_seed_puts_everyone_on_the_same_numbers(storage: Storage,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from capital_lux.tutor.exercises_app import OWN

    teacher = _teacher(storage, monkeypatch)
    teacher.key.value = KEY
    teacher.unlock()
    assert teacher.numbers.value == "learner"
    teacher.class_seed.value = 4242
    teacher.numbers.value = "class"
    assert storage.setting("numbers", "") == "class" and storage.setting("class_seed", "") == "4242"
    learners = [_learner(storage, numbers=OWN) for _ in range(3)]
    for name, app in zip(("Ana", "Ana", "Bea"), learners):
        app.learner.name.value = name
        app.picker.value = "bonus-tie"
    shared = _seed(storage, "class", "bonus-tie")
    assert {app.numbers for app in learners} == {shared} and shared != 4242  # a seed no learner can derive
    assert all(app.exercise == EXERCISES_BY_ID["bonus-tie"].instance(shared) for app in learners)
    teacher.new_class_seed()  # a new session: new numbers for everyone, at their next exercise
    fresh = int(storage.setting("class_seed", ""))
    assert fresh == teacher.class_seed.value
    learners[0].picker.value = "deal-any-six"
    assert learners[0].numbers == _seed(storage, "class", "deal-any-six")
    teacher.numbers.value = "learner"
    learners[1].picker.value = "deal-any-six"
    assert learners[1].numbers != _seed(storage, "class", "deal-any-six")


def test_answers_are_graded_against_the_learners_own_instance(storage: Storage,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from capital_lux.lessons.classroom import regrade
    from capital_lux.tutor.exercises_app import OWN

    storage.set_setting("class_seed", "5")  # fixed key, class seed and sessions: the same cards on every run
    storage.set_setting("server_key", SERVER_KEY.hex())
    ana, bea = _learner(storage, numbers=OWN), _learner(storage, numbers=OWN)
    ana.learner.session, bea.learner.session = "session-of-ana", "session-of-bea"
    ana.learner.name.value, bea.learner.name.value = "Ana", "Bea"
    exercise = "deal-any-six"
    for app in (ana, bea):
        app.picker.value = exercise
    mine, theirs = ana.exercise.exact(), bea.exercise.exact()
    assert mine != theirs
    shown = ana.question.value + ana.position.value + ana.learner.note.value + ana.progress_note.value
    assert len(str(ana.numbers)) > 4 and str(ana.numbers) not in shown  # the seed is not shown (its key would be)
    ana.answer.value = format_number(theirs)  # the neighbour's answer is wrong on one's own cards
    assert ana.check() == "wrong"
    replaced = ana.exercise.mistakes[0].value(ana.exercise.view())  # a classic mistake, on Ana's cards
    assert replaced is not None
    ana.answer.value = format_number(replaced)
    assert ana.check() == "wrong" and 'data-mistake="with-replacement"' in ana.feedback.value
    ana.answer.value = format_number(mine)
    assert ana.check() == "correct"
    bea.answer.value = format_number(theirs)
    assert bea.check() == "correct"
    rows = storage.attempts()
    assert [(r.name, r.instance, r.correct) for r in rows] == [
        ("Ana", str(ana.numbers), False), ("Ana", str(ana.numbers), False), ("Ana", str(ana.numbers), True),
        ("Bea", str(bea.numbers), True)]
    # The dashboard checks each stored answer afresh against the instance its learner saw
    forged = replace(rows[0], correct=True, mistake=None)  # a row the database holds wrongly
    assert regrade(forged).correct is False
    assert regrade(rows[1]).mistake == ana.exercise.mistakes[0].id
    assert regrade(replace(rows[2], correct=False)).correct is True
    assert regrade(replace(rows[2], instance=None)).correct is (mine == EXERCISES_BY_ID[exercise].exact())
    teacher = _teacher(storage, monkeypatch)
    teacher.key.value = KEY
    teacher.unlock()
    row = teacher.table.value.split(f'data-exercise="{exercise}">')[1].split("</tr>")[0]
    cells = [c.split("</td>")[0] for c in row.split("<td>")[1:]]
    assert cells[1:3] == ["2", "2"]  # both solved, each on their own cards
    label = LABELS[ana.exercise.mistakes[0].id]  # the teacher reads a short label, not the learner's sentence
    assert cells[4] == ""  # on their own cards one number means different things: not grouped
    assert "shown when everyone has the same cards" in teacher.table.value
    assert cells[5] == escape(f"{label} (1 learner)")  # the mistakes are counted by learner


def test_the_same_mistake_on_other_cards_is_counted_together() -> None:
    rows = [Attempt(1, "a", "A", "x", "1", "2/7", False, "with replacement", "t"),
            Attempt(2, "a", "A", "x", "1", "3/7", False, "with replacement", "t"),
            Attempt(3, "b", "B", "x", "2", "5/9", False, "with replacement", "t"),
            Attempt(4, "c", "C", "x", "3", "1/9", False, "prior", "t")]
    summary = summarise(rows)["x"]
    assert summary.mistakes == (("with replacement", 2), ("prior", 1))  # learners, not answers
    assert [answer for answer, _, _ in summary.wrong] == ["2/7", "3/7", "5/9"]


def test_the_teacher_hands_out_the_worksheet_and_its_key_for_the_class_seed(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    import base64

    from capital_lux.lessons.exercises import instance
    from capital_lux.lessons.problems.worksheet import answer_key_html, worksheet_html

    teacher = _teacher(storage, monkeypatch)
    teacher.key.value = KEY
    teacher.unlock()
    teacher.class_seed.value = 31
    teacher.language.value = "fr"
    teacher.worksheet_button.click()
    link = teacher.sheet_links.value
    assert 'download="capital_lux_worksheet_fr_31.html"' in link
    assert escape(translator("fr").gettext("Download the worksheet (seed {seed})").format(seed=31)) in link
    sheet = base64.b64decode(link.split("base64,")[1].split('"')[0]).decode()
    instances = [instance(ex.id, _seed(storage, "class", ex.id)) for ex in EXERCISES]
    assert sheet == worksheet_html(instances, "fr") and '<html lang="fr">' in sheet
    assert "31" not in sheet.split("<body")[1].split('class="cl-ex')[0]  # no seed in the sheet's head
    assert escape(translator("fr").gettext("Probability worksheet")) in sheet
    assert all(f"{format_number(i.exact())} ≈" not in sheet for i in instances)  # no answer on the sheet
    teacher.key_button.click()
    key = base64.b64decode(teacher.sheet_links.value.split("base64,")[1].split('"')[0]).decode()
    assert 'download="capital_lux_answer-key_fr_31.html"' in teacher.sheet_links.value
    assert key == answer_key_html(instances, "fr")
    assert all(f'<span class="cl-key-value">{escape(format_number(i.exact()))}' in key for i in instances)
    teacher.class_seed.value = 32  # another seed: the sheets made before are gone, not left stale
    assert teacher.sheet_links.value == ""


def test_a_progress_file_is_signed_for_its_learner_and_names_no_seed(storage: Storage) -> None:
    import base64

    from capital_lux.tutor.exercises_app import OWN

    ana = _learner(storage, numbers=OWN)
    ana.learner.name.value = "Ana"
    ana.picker.value = "deal-any-six"
    answer = format_number(ana.exercise.exact())
    ana.answer.value = answer
    assert ana.check() == "correct"
    text = base64.b64decode(ana.learner.download.value.split("base64,")[1].split('"')[0]).decode()
    data = json.loads(text)
    assert data["learner"] == "Ana" and data["exercises"]["deal-any-six"] == {"attempts": 1, "solved": answer}
    unsigned = json.dumps({k: v for k, v in data.items() if k != "signature"})  # hex digits could hold any number
    assert str(ana.numbers) not in unsigned and str(class_numbers(storage)[1]) not in unsigned
    later = _learner(storage, numbers=OWN)  # a reload: her code and name continue her row, and load it
    later.learner.code.value = ana.learner.personal_code
    later.learner.name.value = "Ana"
    later.load_upload(_upload(text))
    assert later.progress == ana.progress
    bea = _learner(storage, numbers=OWN)  # someone else's file, or a changed one, changes nothing
    bea.learner.name.value = "Bea"
    bea.load_upload(_upload(text))
    assert bea.progress == Progress.empty() and "Ana" in bea.learner.note.value
    data["exercises"]["bonus-tie"] = {"attempts": 1, "solved": "1/2"}
    later.load_upload(_upload(json.dumps(data)))
    assert later.progress == ana.progress and "cl-error" in later.learner.note.value
    elsewhere = Storage(str(Path(storage.url).with_name("other.sqlite3")))  # another class's server
    visitor = _learner(elsewhere, numbers=OWN)
    visitor.learner.name.value = "Ana"
    visitor.load_upload(_upload(text))
    assert visitor.progress == Progress.empty() and "cl-error" in visitor.learner.note.value


@pytest.mark.slow
def test_nothing_a_learner_receives_regenerates_another_exercise(storage: Storage) -> None:
    """The answer-key reproducer: solve one exercise, take every number the page and the
    download hold, and try each as a seed of the other exercises. None deals their cards."""
    import base64
    import re

    from capital_lux.tutor.exercises_app import OWN

    storage.set_setting("server_key", SERVER_KEY.hex())  # fixed key, seed and session: the same run every time
    storage.set_setting("class_seed", "5")
    for policy in ("learner", "class"):
        storage.set_setting("numbers", policy)
        app = _learner(storage, numbers=OWN)
        app.learner.session = f"session-{policy}"
        app.learner.name.value = f"Ana-{policy}"
        app.picker.value = "deal-any-six"
        app.answer.value = format_number(app.exercise.exact())
        assert app.check() == "correct"
        app.run_simulation() if not app.simulate_button.disabled else None
        download = base64.b64decode(app.learner.download.value.split("base64,")[1].split('"')[0]).decode()
        received = download + "".join(str(getattr(w, "value", "")) for w in _widgets(app.root))
        numbers = {int(n) for n in re.findall(r"\d+", received) if len(n) < 12}
        others = {ex.id: app.learner.numbers(ex.id) for ex in EXERCISES if ex.id != "deal-any-six"}
        assert len(set(others.values())) == len(others)  # each exercise on cards of its own
        for exercise, seed in others.items():
            shown = EXERCISES_BY_ID[exercise].instance(seed)
            assert all(EXERCISES_BY_ID[exercise].instance(n) != shown for n in numbers if n != seed), exercise
            assert seed not in numbers


def _widgets(root: Any) -> list[Any]:
    found, stack = [], [root]
    while stack:
        widget = stack.pop()
        found.append(widget)
        stack.extend(getattr(widget, "children", ()))
    return found


def test_the_teachers_key_is_normalised_and_a_blank_one_locks_the_page(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    import unicodedata

    accented = "clé du professeur de maths"
    for blank in (" " * 12, "\t" * 20):
        assert not _teacher(storage, monkeypatch, key=blank).unlock()  # no key: the page stays locked
    page = _teacher(storage, monkeypatch, key=accented)
    page.key.value = unicodedata.normalize("NFD", accented)  # é typed as e and an accent
    assert page.unlock()


def test_a_flood_of_answers_is_counted_once_and_slowed_to_a_persons_pace(storage: Storage) -> None:
    from capital_lux.tutor.classroom import CHECK_BURST

    app = _learner(storage)
    app.learner.name.value = "Flood"
    now = [0.0]
    app.learner.clock = lambda: now[0]
    app.picker.value = "modifier-after-draw"
    app.answer.value = "1/2"
    statuses = [app.check() for _ in range(50)]  # one answer clicked 50 times: one attempt
    assert statuses == ["wrong"] * 50 and len(storage.attempts()) == 1
    assert "You checked this answer already" in app.feedback.value
    answers = [f"{n}/100" for n in range(1, 40)]
    results = []
    for answer in answers:  # new answers as fast as a script types them
        app.answer.value = answer
        results.append(app.check())
    assert results[:CHECK_BURST - 1] == ["wrong"] * (CHECK_BURST - 1) and set(results[CHECK_BURST:]) == {"wait"}
    assert "wait 5 seconds" in app.feedback.value and app.answer.value == answers[-1]  # kept in its box
    assert len(storage.attempts()) == CHECK_BURST
    now[0] += 5  # a person's pause: the next one is checked
    assert app.check() == "wrong" and len(storage.attempts()) == CHECK_BURST + 1
    summary = summarise(storage.attempts() + storage.attempts())["modifier-after-draw"]
    assert summary.wrong[0][1] == 1  # the dashboard counts learners, not clicks


def test_the_simulation_keeps_the_answer_until_solved_and_the_teacher_sees_who_read_the_solution(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    app = _learner(storage)
    app.learner.name.value = "Ana"
    app.picker.value = "modifier-after-draw"
    exact = app.exercise.exact()
    app.answer.value = "0.990"
    assert app.check() == "wrong"  # one attempt opens the simulation (the default policy)
    app.run_simulation()
    assert 'data-exact="0"' in app.simulation.value and format_number(exact) not in app.simulation.value
    assert "once you have solved the exercise" in app.simulation.value
    app.show_solution()  # the worked solution gives the answer: the teacher will know it was read
    app.answer.value = format_number(exact)
    assert app.check() == "correct"
    app.run_simulation()
    assert 'data-exact="1"' in app.simulation.value and format_number(exact) in app.simulation.value
    rows = storage.attempts()
    assert [a.saw_solution for a in rows] == [False, True]
    assert results_csv(rows).splitlines()[2].endswith(",1,0,")  # the solution read first; not archived; no mark by hand
    teacher = _teacher(storage, monkeypatch)
    teacher.key.value = KEY
    teacher.unlock()
    row = teacher.learners.value.split("<th>Ana</th>")[1].split("</tr>")[0]
    cells = row.split("<td")[1:]
    number = next(k for k, ex in enumerate(EXERCISES, 1) if ex.id == "modifier-after-draw")
    assert 'class="cl-solved cl-seen"' in cells[number - 1] and "✓👁" in cells[number - 1]  # read, then solved
    bea = _learner(storage)
    bea.learner.name.value = "Bea"
    bea.picker.value = "modifier-after-draw"
    bea.answer.value = format_number(exact)
    assert bea.check() == "correct"
    bea.show_solution()  # read after solving: not counted
    assert storage.solutions_seen() == [(app.learner.session, "modifier-after-draw")]


def test_without_a_database_the_servers_key_lives_in_an_owner_only_file(tmp_path: Path) -> None:
    import os

    from capital_lux.lessons.classroom import file_key
    from capital_lux.lessons.storage import StorageError

    path = tmp_path / "keys" / "server.key"
    key = file_key(path)
    assert len(key) == 32 and file_key(path) == key  # drawn once, then kept
    assert path.stat().st_mode & 0o777 == 0o600 and path.parent.stat().st_mode & 0o777 == 0o700
    os.chmod(path, 0o644)
    assert file_key(path) == key and path.stat().st_mode & 0o777 == 0o600  # closed to others again
    path.write_text("not a key")
    with pytest.raises(StorageError, match="is damaged"):
        file_key(path)


def test_a_class_database_that_cannot_be_used_is_said_once_in_the_teachers_language(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPITAL_LUX_DB", ":memory:")  # each kernel would have its own: refused
    teacher = _teacher(None, monkeypatch)  # type: ignore[arg-type]
    teacher.language.value = "fr"
    teacher.key.value = KEY
    teacher.unlock()
    said = teacher.summary.value
    t = translator("fr")
    assert t.gettext("No results can be shown: {reason}").split("{reason}")[0] in said
    assert said.count("CAPITAL_LUX_DB") == 1 and "memory" not in said  # one sentence, in French


def test_a_second_wrong_answer_with_the_same_verdict_changes_the_page(storage: Storage) -> None:
    # Two answers with one diagnosis used to show the very same sentence: the learner
    # thought the button had done nothing.
    app = _learner(storage)
    app.learner.name.value = "Twice"
    app.picker.value = "modifier-after-draw"
    prior = next(value for mistake, value in classic_values(app.exercise) if mistake.id == "prior")
    shown = []
    for answer in (format_number(prior), f"{float(prior):.4f}"):
        app.answer.value = answer
        assert app.check() == "wrong"
        shown.append(app.feedback.value)
    assert shown[0] != shown[1] and 'data-mistake="prior"' in shown[1]
    assert "Attempt 2: you wrote" in shown[1] and f"{float(prior):.4f}" in shown[1]


def test_the_gradebook_has_one_row_per_learner_and_one_column_per_exercise(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    ana, bea = _learner(storage), _learner(storage)
    ana.learner.name.value, bea.learner.name.value = "Ana", "Béa"
    for app, exercise, answers in ((ana, "modifier-after-draw", ["1/2", "7/32"]), (ana, "scholar-green", ["1/2"]),
                                   (bea, "scholar-green", [])):
        app.picker.value = exercise
        for answer in answers or [format_number(app.exercise.exact())]:
            app.answer.value = answer
            app.check()
    bea.show_solution()  # Béa read the solution of an exercise she had solved: not "before solving"
    teacher = _teacher(storage, monkeypatch)
    teacher.key.value = KEY
    assert teacher.unlock()
    teacher.language.value = "fr"
    teacher.gradebook_button.click()
    import base64

    data = base64.b64decode(teacher.csv_link.value.split("base64,")[1].split('"')[0]).decode()
    table = list(csv.reader(io.StringIO(data.lstrip("\ufeff")), delimiter=";"))
    number = {ex.id: k for k, ex in enumerate(EXERCISES, 1)}
    title = translator("fr").gettext(EXERCISES_BY_ID["scholar-green"].title)  # named by its title
    assert table[0][0] == "Élève" and table[0][number["scholar-green"]] == f"{number['scholar-green']}. {title}"
    assert len(table[0]) == len(EXERCISES) + 3 and [row[0] for row in table[1:]] == ["Ana", "Béa"]
    ana_row, bea_row = table[1], table[2]
    assert ana_row[number["modifier-after-draw"]] == "1" and ana_row[number["scholar-green"]] == "0"
    assert bea_row[number["scholar-green"]] == "1" and bea_row[number["modifier-after-draw"]] == ""
    assert ana_row[-2:] == ["1", "0"] and bea_row[-2:] == ["1", "0"]  # total solved, solutions read first
    others = [k for ex, k in number.items() if ex not in ("modifier-after-draw", "scholar-green")]
    assert all(row[k] == "" for row in (ana_row, bea_row) for k in others)


def test_the_grid_shows_each_learner_by_exercise_and_who_is_stuck_now(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    ana, bea = _learner(storage), _learner(storage)
    ana.learner.name.value, bea.learner.name.value = "Ana", "Bea"
    ana.picker.value = bea.picker.value = "modifier-after-draw"
    for answer in ("1/2", "0.9000", "3/4"):  # three wrong answers, nothing right yet: stuck
        ana.answer.value = answer
        assert ana.check() == "wrong"
    bea.answer.value = "1/2"
    assert bea.check() == "wrong"  # one wrong answer: still working
    teacher = _teacher(storage, monkeypatch)
    teacher.key.value = KEY
    assert teacher.unlock()
    html = teacher.learners.value
    number = next(k for k, ex in enumerate(EXERCISES, 1) if ex.id == "modifier-after-draw")
    assert "Stuck now" in html and f"Ana: exercise {number}, 3 answers and none right yet" in html
    assert "Bea: exercise" not in html
    ana_cells = html.split("<th>Ana</th>")[1].split("</tr>")[0].split("<td")[1:]
    assert 'class="cl-tried"' in ana_cells[number - 1] and "✗3" in ana_cells[number - 1]
    assert all('class=""' in cell for k, cell in enumerate(ana_cells[:len(EXERCISES)], 1) if k != number)
    later = datetime.now(timezone.utc) + timedelta(minutes=STUCK_MINUTES + 1)
    assert stuck_now(storage, later) == []  # nothing answered for a while: not "stuck now"


def test_the_teacher_chooses_todays_exercises_and_asks_for_exact_fractions(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    teacher = _teacher(storage, monkeypatch)
    teacher.key.value = KEY
    assert teacher.unlock()
    teacher.today.value = ("modifier-after-draw", "scholar-green")
    teacher.answer_forms.value = "fractions"
    learner = _learner(storage)
    learner.learner.name.value = "Ana"
    assert [value for _, value in learner.picker.options] == ["scholar-green", "modifier-after-draw"]
    assert "Solved: 0 of 2" in learner.progress_note.value
    learner.picker.value = "modifier-after-draw"
    assert "exact fractions today" in learner.question.value
    exact = learner.exercise.exact()
    learner.answer.value = f"{float(exact):.4f}"
    assert learner.check() == "invalid" and "exact fractions today" in learner.feedback.value
    assert storage.attempts() == []  # not counted
    learner.answer.value = format_number(exact)
    assert learner.check() == "correct" and "Solved: 1 of 2" in learner.progress_note.value
    teacher.answer_forms.value = "decimals"  # back to decimals: the next answer is read as one
    learner.picker.value = "scholar-green"
    learner.answer.value = "0.5"
    assert learner.check() != "invalid" or "decimal" in learner.feedback.value


def test_a_learner_working_alone_reads_a_note_not_an_error_and_a_download_button() -> None:
    from capital_lux.tutor.classroom import LearnerPanel

    alone = LearnerPanel(translator("en"), None)  # no class database could be opened
    assert "working on your own" in alone.note.value and "cl-error" not in alone.note.value
    assert 'role="button"' in alone.download.value and "Download my progress" in alone.download.value
