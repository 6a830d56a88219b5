"""A class database that hangs or is misconfigured never freezes a page: every call has a deadline,
a hang becomes "kept, will be sent" on the learner's page, and a setting that can never work is
named as such to the teacher and in the log.

A PostgreSQL server stopped by SIGSTOP (not closed) is the hang: its sockets stay open and the
system acknowledges what is sent, so nothing but a deadline of the client's own ends a wait.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path
from typing import Any, Callable, Iterator

import psutil
import pytest

from capital_lux.i18n import translator
from capital_lux.lessons import storage as S
from capital_lux.lessons.storage import Storage, StorageError, StorageMisconfigured, StorageUnavailable
from test_storage import PostgresServer

#: Far beyond any deadline the storage sets: a call still waiting then is frozen (the trial's
#: page waited five minutes); not a measure of how fast it gave up.
FROZEN = 60


def _outcome(call: Callable[[], Any]) -> Any:
    """What ``call`` returned or raised, or ``FROZEN`` if it was still waiting after that long."""
    found: list[Any] = []

    def run() -> None:
        try:
            found.append(call())
        except BaseException as error:  # noqa: BLE001 - the outcome is what is asserted
            found.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(FROZEN)
    return found[0] if found else FROZEN


@pytest.fixture
def server() -> Iterator[PostgresServer]:
    started = PostgresServer()
    try:
        yield started
    finally:
        started.remove()


def _processes(server: PostgresServer) -> list[psutil.Process]:
    postmaster = psutil.Process(int((server.data / "postmaster.pid").read_text().split()[0]))
    return [postmaster, *postmaster.children(recursive=True)]


def test_a_postgresql_server_stopped_by_a_signal_never_freezes_a_learners_page(
        server: PostgresServer, monkeypatch: pytest.MonkeyPatch) -> None:
    from capital_lux.tutor.exercises_app import build_app

    monkeypatch.setattr(S, "RECONNECT_PAUSE", 1.0)
    storage = Storage(server.url)
    app = build_app("en", storage=storage)._exercises
    app.learner.name.value = "Ana"
    app.picker.value = "modifier-after-draw"
    stopped = _processes(server)
    for process in stopped:
        process.suspend()
    try:
        app.answer.value = "1/2"
        assert _outcome(app.check) != FROZEN, "the page froze while the database was stopped"
        assert "is kept on the server" in app.learner.note.value
        # a second answer meanwhile, and a second page's read: told at once, never frozen
        app.answer.value = "1/3"
        assert _outcome(app.check) != FROZEN and "Your 2 answers are kept" in app.learner.note.value
        assert isinstance(_outcome(storage.attempts), StorageUnavailable)
    finally:
        for process in stopped:
            process.resume()
    import time

    time.sleep(1.5)  # the pause before the storage tries the server again
    assert app.learner.send_pending()
    assert sorted(attempt.answer for attempt in storage.attempts()) == ["1/2", "1/3"]


def test_sqlite_held_by_another_program_tells_a_writer_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # SQLite's own wait for the lock (BUSY_TIMEOUT, 20 s, set as the file is opened) ends the
    # call, as it would at its full length: 1 s here, so the test does not wait out the 20 s
    monkeypatch.setattr(S, "BUSY_TIMEOUT", 1.0)
    path = str(tmp_path / "class.sqlite3")
    with Storage(path) as storage:
        storage.set_name("a", "A")
        blocker = sqlite3.connect(path, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")  # a backup, a stuck program: the write lock held
        try:
            outcome = _outcome(lambda: storage.record_attempt("a", "x", "1", True))
            assert isinstance(outcome, StorageUnavailable)
        finally:
            blocker.execute("ROLLBACK")
        storage.record_attempt("a", "x", "1", True)  # and once the lock is free, the answer goes in
        assert len(storage.attempts()) == 1


@pytest.mark.parametrize("setting", ["postgresql://nobody@no-such-host.invalid/class",
                                     "postgresql://nobody@127.0.0.1:5432/class?no_such_option=1",
                                     "{tmp}/no such folder/class.sqlite3"])
def test_a_setting_that_can_never_work_is_named_to_the_teacher_and_in_the_log(
        setting: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("psycopg")
    with caplog.at_level(logging.ERROR, logger="capital_lux.storage"):
        with pytest.raises(StorageMisconfigured) as refused:
            Storage(setting.format(tmp=tmp_path))
    assert "CAPITAL_LUX_DB names a class database that can never work" in caplog.text
    for lang, said in (("en", "can never work as it is set"), ("fr", "CAPITAL_LUX_DB"), ("es", "CAPITAL_LUX_DB"),
                       ("pt", "CAPITAL_LUX_DB")):
        assert said in translator(lang).refusal(refused.value)
    assert translator("fr").refusal(refused.value) != translator("en").refusal(refused.value)


def test_a_server_that_is_merely_away_is_not_called_misconfigured(tmp_path: Path) -> None:
    pytest.importorskip("psycopg")
    import socket

    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # nothing listens there: a server restarting
    with pytest.raises(StorageError) as refused:
        Storage(f"postgresql://learner@127.0.0.1:{port}/class")
    assert not isinstance(refused.value, StorageMisconfigured)
