"""A class database setting that can never work is told from one that is only away: the
learner's, the tables' and the teacher's pages and ``make class`` name what is wrong, in the
reader's language, and the learner's page does not wait for it to come back."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from capital_lux.i18n import translator
from capital_lux.lessons.classroom import TEACHER_KEY_VARIABLE
from capital_lux.lessons.storage import StorageMisconfigured, StorageUnavailable, open_or_why
from capital_lux.serve import classroom as C
from capital_lux.tutor import exercises_app, tables_app, teacher_app

LANGS = ("en", "fr", "es", "pt")
#: each wrong setting, and words of the English sentence that must name it
WRONG = {
    "mysql://class@db.example/class": "of a kind this app cannot use (mysql://)",
    "{tmp}/no such folder/class.sqlite3": "a folder that does not exist",
    "postgresql://nobody@no-such-host.invalid/class": "whose host name is not known",
    "postgresql://nobody@127.0.0.1:1/class?no_such_option=1": "not a well-formed postgresql:// address",
    ":memory:": "not a database in memory",
}


@pytest.fixture(autouse=True)
def _own_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the outbox and the class's files


def _set(monkeypatch: pytest.MonkeyPatch, setting: str, tmp_path: Path) -> None:
    monkeypatch.setenv("CAPITAL_LUX_DB", setting.format(tmp=tmp_path))


@pytest.mark.parametrize("setting", WRONG)
def test_a_wrong_setting_is_named_in_four_languages(setting: str, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    if setting.startswith("postgresql"):
        pytest.importorskip("psycopg")
    _set(monkeypatch, setting, tmp_path)
    storage, problem = open_or_why()
    assert storage is None and isinstance(problem, StorageMisconfigured)
    said = {lang: translator(lang).refusal(problem.what) for lang in LANGS}
    assert WRONG[setting] in said["en"]
    assert len(set(said.values())) == 4 and all("CAPITAL_LUX_DB" in text for text in said.values())
    assert "Traceback" not in said["en"] and str(tmp_path) not in said["en"]  # no driver's words, no path


def test_the_learners_page_says_what_is_wrong_and_does_not_wait_for_it(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _set(monkeypatch, "{tmp}/no such folder/class.sqlite3", tmp_path)
    app = exercises_app.build_app("fr")._exercises
    note = app.learner.note.value
    assert "désigne un fichier dans un dossier qui n’existe pas" in note, note
    assert "ne répond pas encore" not in note and "cl-error" in note
    assert app.learner.reopen is None  # never tried again: waiting will not mend it
    app.set_language("es")
    assert "no existe" in app.learner.note.value and "désigne" not in app.learner.note.value


def test_a_database_that_is_only_away_still_reads_as_away(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("psycopg")
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # nothing listens there: a server restarting
    monkeypatch.setenv("CAPITAL_LUX_DB", f"postgresql://learner@127.0.0.1:{port}/class")
    storage, problem = open_or_why()
    assert storage is None and problem is not None and not isinstance(problem, StorageMisconfigured)
    app = exercises_app.build_app("en")._exercises
    assert "does not answer yet" in app.learner.note.value
    assert app.learner.reopen is not None
    # a page warmed ahead is built in English, then put in the learner's language from ?lang
    app.set_language("fr")
    assert "does not answer yet" not in app.learner.note.value
    french = translator("fr").gettext("The class database does not answer yet: your answers are kept on this page "
                                      "and sent to your teacher when it does.")
    assert french in app.learner.note.value.replace("&#x27;", "'")


def test_the_teachers_and_the_tables_pages_name_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPITAL_LUX_DB", "mysql://class@db.example/class")
    monkeypatch.setenv(TEACHER_KEY_VARIABLE, "a-teachers-key-long-enough")
    teacher = teacher_app.build_app("pt")._teacher
    teacher.key.value = "a-teachers-key-long-enough"
    assert teacher.unlock()
    assert "CAPITAL_LUX_DB" in teacher.summary.value and "(mysql://)" in teacher.summary.value
    assert translator("pt").refusal(teacher.storage_error.what) in teacher.summary.value
    tables = tables_app.build_app("es", poll=False)._tables
    assert translator("es").refusal(teacher.storage_error.what) in tables.message.value


def test_make_class_names_it_before_starting_anything(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAPITAL_LUX_DB", "postgres://class@db.example:5432/class?sslmode")
    pytest.importorskip("psycopg")
    with pytest.raises(C.Refused) as refused:
        C.start("", 8999, (), translator("fr"))
    assert "n’est pas une adresse postgresql:// bien formée" in str(refused.value)
    assert "La classe ne peut pas s'ouvrir" in str(refused.value)


def _texts(widget: object) -> list[tuple[str, object]]:
    """Every text a page's widgets show, in the order of its tree."""
    import ipywidgets as W

    found: list[tuple[str, object]] = []
    if isinstance(widget, W.Widget):
        for name in ("description", "placeholder", "tooltip", "value", "options", "_dom_classes"):
            value = getattr(widget, name, None)
            if isinstance(value, (str, tuple)):
                found.append((f"{type(widget).__name__}.{name}", value))
        for child in getattr(widget, "children", ()):
            found.extend(_texts(child))
    return found


@pytest.mark.parametrize("lang", ["fr", "pt"])
def test_a_page_built_ahead_in_english_then_relabelled_is_the_page_built_in_its_language(
        lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the class server's warm kernels do (notebooks/probability_exercises.ipynb): build the
    page before the learner comes, then put it in the language of the learner's ``?lang``."""
    monkeypatch.setenv("CAPITAL_LUX_DB", str(tmp_path / "class.sqlite3"))
    ahead = exercises_app.build_app("en", numbers=None)
    ahead._exercises.language.value = lang  # as the notebook does
    assert _texts(ahead) == _texts(exercises_app.build_app(lang, numbers=None))
