"""The class database: schema and migrations, concurrent learners, a killed writer, PostgreSQL.

Every behaviour runs against SQLite (a file of the test's own) and against a real
PostgreSQL that the test starts from Debian's packages on a temporary directory,
listening on 127.0.0.1 only (installing ``postgresql`` with apt-get first when it is
missing and the test runs as root). When that cannot be done the PostgreSQL cases
are skipped, and the skip says why.
"""

from __future__ import annotations

import glob
import multiprocessing
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Iterator

import pytest

from browser import free_port
from capital_lux.lessons.exercises import format_number
from capital_lux.lessons.storage import MIGRATIONS, SCHEMA_VERSION, Storage, StorageError, clean_name, new_session

ROOT = Path(__file__).resolve().parent.parent
LEARNERS = 25
ANSWERS = 8


# -- a PostgreSQL of our own --------------------------------------------------------------------
def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def _install_postgresql() -> str:
    """Install Debian's postgresql when we can; an empty string, or why not."""
    if _pg_bin() is not None:
        return ""
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return "PostgreSQL is not installed and this test is not root with apt-get to install it"
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for command in (["apt-get", "update"], ["apt-get", "install", "-y", "--no-install-recommends", "postgresql"]):
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            return f"{' '.join(command)} failed: {done.stderr.strip()[-300:]}"
    return "" if _pg_bin() is not None else "apt-get installed postgresql but no initdb was found"


class PostgresServer:
    """A throwaway PostgreSQL server on 127.0.0.1 that a test can stop and start again."""

    def __init__(self) -> None:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            pytest.skip("psycopg is not installed (pip install capital-lux[postgresql])")
        problem = _install_postgresql()
        if problem:
            pytest.skip(problem)
        binaries = _pg_bin()
        assert binaries is not None
        self.binaries = binaries
        self.folder = Path(tempfile.mkdtemp(prefix="capital-lux-pg-"))
        self.data = self.folder / "data"
        # PostgreSQL refuses to run as root: as root, the server runs as Debian's postgres user.
        self.run_as: list[str] = []
        if os.geteuid() == 0:
            if shutil.which("runuser") is None:
                pytest.skip("running as root without runuser to start PostgreSQL as the postgres user")
            shutil.chown(self.folder, "postgres", "postgres")
            self.run_as = ["runuser", "-u", "postgres", "--"]
        self.port = free_port()
        self.log = self.folder / "server.log"
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        try:
            subprocess.run(self.run_as + [str(binaries / "initdb"), "-D", str(self.data), "-A", "trust", "-U",
                                          "postgres", "--no-sync"], check=True, capture_output=True, timeout=120)
            self.start()
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
            details = self.log.read_text(errors="replace")[-500:] if self.log.exists() else ""
            shutil.rmtree(self.folder, ignore_errors=True)
            pytest.skip(f"could not start PostgreSQL: {error} {details}")

    def _ctl(self, *arguments: str) -> None:
        subprocess.run(self.run_as + [str(self.binaries / "pg_ctl"), "-D", str(self.data), *arguments],
                       check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        self._ctl("-l", str(self.log), "-w", "-t", "60", "-o",
                  f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off", "start")

    def stop(self, mode: str = "fast") -> None:
        self._ctl("-m", mode, "-w", "stop")

    def remove(self) -> None:
        try:
            self.stop("immediate")
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
            pass
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """The URL of a throwaway PostgreSQL server on 127.0.0.1 (skipped, with the reason, when impossible)."""
    server = PostgresServer()
    try:
        yield server.url
    finally:
        server.remove()


_databases = iter(range(1, 10**6))


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        return str(tmp_path / "class.sqlite3")
    server: str = request.getfixturevalue("postgres")  # skips, saying why, when there is none
    import psycopg

    name = f"class_{next(_databases)}"
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name}")
        connection.execute(f"CREATE DATABASE {name}")
    return server.rsplit("/", 1)[0] + "/" + name


# -- the schema ---------------------------------------------------------------------------------
def test_the_app_creates_the_schema_itself_and_reopens_it(url: str) -> None:
    with Storage(url) as storage:
        assert storage.schema_version() == SCHEMA_VERSION == len(MIGRATIONS)
        storage.set_name("s1", "  Ana   Lima ")
        storage.record_attempt("s1", "deal-any-six", "1/2", False)
    with Storage(url) as again:  # a second kernel: nothing applied twice, nothing lost
        assert again.schema_version() == SCHEMA_VERSION
        [attempt] = again.attempts()
        assert (attempt.name, attempt.answer, attempt.correct) == ("Ana Lima", "1/2", False)


def test_a_newer_schema_is_refused_rather_than_misread(tmp_path: Path) -> None:
    path = tmp_path / "class.sqlite3"
    Storage(str(path)).close()
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    with pytest.raises(StorageError, match="schema version"):
        Storage(str(path))


def test_a_database_that_cannot_be_opened_says_so(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="names a class database that can never work as it is set"):
        Storage(str(tmp_path / "missing-folder" / "class.sqlite3"))


def test_progress_settings_and_two_learners_with_one_name(url: str) -> None:
    with Storage(url) as storage:
        a, b = new_session(), new_session()
        assert a != b
        storage.set_name(a, "Sam")
        storage.set_name(b, "Sam")
        storage.record_attempt(a, "deck-short", "0.2", False)
        storage.record_attempt(a, "deck-short", "1/12", True, instance="seed 3", mistake="with replacement")
        storage.record_attempt(a, "deck-short", "0.0833", True)
        assert storage.progress(a) == ({"deck-short": 3}, {"deck-short": "1/12"})  # the first solving answer
        assert storage.progress(b) == ({}, {})
        storage.replace_progress(b, {"bonus-tie": 2}, {"bonus-tie": "22/29"})
        assert storage.progress(b) == ({"bonus-tie": 2}, {"bonus-tie": "22/29"})
        assert storage.progress(a)[0] == {"deck-short": 3}
        rows = storage.attempts()
        assert [(r.session, r.instance, r.mistake) for r in rows][1] == (a, "seed 3", "with replacement")
        assert storage.setting("solutions", "after_attempt") == "after_attempt"
        storage.set_setting("solutions", "never")
        storage.set_setting("solutions", "always")
        assert storage.setting("solutions", "after_attempt") == "always"


@pytest.mark.parametrize("name, problem", [("   ", "Type a name"), ("x" * 41, "at most 40"), ("a\x07b", "control")])
def test_names_are_refused_with_a_reason(name: str, problem: str) -> None:
    with pytest.raises(StorageError, match=problem):
        clean_name(name)


# -- many learners at once ----------------------------------------------------------------------
def _learner(url: str, learner: int, shared: Storage | None = None) -> None:
    """One learner's page: a name, then ANSWERS checked answers, each its own transaction."""
    storage = shared or Storage(url)
    try:
        session = f"learner-{learner:02d}"
        storage.set_name(session, f"Learner {learner % 5}")  # names repeat; sessions do not
        for i in range(ANSWERS):
            storage.record_attempt(session, f"exercise-{i % 3}", f"{learner}/{i + 1}", i % 4 == 3)
    finally:
        if shared is None:
            storage.close()


def _learners_in_threads(url: str, first: int, count: int) -> None:
    threads = [threading.Thread(target=_learner, args=(url, n)) for n in range(first, first + count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _check_all_there(url: str) -> None:
    with Storage(url) as storage:
        rows = storage.attempts()
        assert storage.integrity_check() == "ok"
        for n in range(LEARNERS):
            attempts, solved = storage.progress(f"learner-{n:02d}")
            assert sum(attempts.values()) == ANSWERS and len(solved) == 2
    expected = Counter((f"learner-{n:02d}", f"{n}/{i + 1}") for n in range(LEARNERS) for i in range(ANSWERS))
    assert Counter((r.session, r.answer) for r in rows) == expected  # none lost, none twice
    assert len({r.id for r in rows}) == len(rows) == LEARNERS * ANSWERS


def test_25_learners_in_threads_each_with_a_connection(url: str) -> None:
    Storage(url).close()
    _learners_in_threads(url, 0, LEARNERS)
    _check_all_there(url)


def test_25_learners_in_threads_sharing_one_connection(url: str) -> None:
    with Storage(url) as shared:
        threads = [threading.Thread(target=_learner, args=(url, n, shared)) for n in range(LEARNERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    _check_all_there(url)


def test_25_learners_in_5_processes_of_5_threads(url: str) -> None:
    Storage(url).close()  # kernels started together: the schema is made once
    context = multiprocessing.get_context("spawn")
    processes = [context.Process(target=_learners_in_threads, args=(url, first, 5)) for first in range(0, LEARNERS, 5)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=120)
        assert process.exitcode == 0
    _check_all_there(url)


def _open_together(url: str, kernels: int) -> list[BaseException]:
    errors: list[BaseException] = []

    def start() -> None:
        try:
            Storage(url).close()
        except BaseException as error:  # collected: a thread's exception would otherwise vanish
            errors.append(error)

    threads = [threading.Thread(target=start) for _ in range(kernels)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def test_kernels_starting_together_apply_the_migrations_once(url: str) -> None:
    assert _open_together(url, 8) == []
    with Storage(url) as storage:
        assert storage.schema_version() == SCHEMA_VERSION


def test_a_new_sqlite_file_opened_by_many_kernels_at_once_is_never_locked(tmp_path: Path) -> None:
    """Switching a new file to WAL answers "locked" at once while another opener holds the
    write lock; before the switch was retried, about 1 round in 60 of 12 kernels failed."""
    for round_ in range(40):
        assert _open_together(str(tmp_path / f"class-{round_}.sqlite3"), 12) == [], round_


# -- a writer killed in the middle -------------------------------------------------------------
WRITER = """
import sys
from capital_lux.lessons.storage import Storage
storage = Storage(sys.argv[1])
storage.set_name("writer", "Writer")
big = {f"exercise-{i}": i + 1 for i in range(2000)}
n = 0
while True:
    n += 1
    storage.record_attempt("writer", "deal-any-six", str(n), False)
    print(n, flush=True)  # after the commit: this attempt must survive anything
    storage.replace_progress("writer", big, {})  # a long transaction, likely to be cut by the kill
"""


@pytest.mark.parametrize("commits", [3, 17, 40])
def test_the_database_survives_a_writer_killed_mid_write(tmp_path: Path, commits: int) -> None:
    path = tmp_path / "class.sqlite3"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True, env=env)
    assert writer.stdout is not None
    committed = 0
    while committed < commits:
        line = writer.stdout.readline()
        assert line, "the writer stopped by itself"
        committed = int(line)
    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=30)
    assert writer.returncode == -signal.SIGKILL
    with Storage(str(path)) as storage:
        assert storage.integrity_check() == "ok"
        answers = {int(a.answer) for a in storage.attempts()}
        assert set(range(1, committed + 1)) <= answers  # every committed attempt is there
        attempts, _ = storage.progress("writer")
        # Replaced whole or not at all: the first attempt's row, or 2000 rows (and the next attempt's).
        assert len(attempts) in (1, 2000, 2001)
        storage.record_attempt("writer", "deal-any-six", "after", True)  # and it takes writes again
        assert storage.attempts()[-1].answer == "after"


def test_a_writer_waiting_for_the_lock_is_not_lost(tmp_path: Path) -> None:
    """A transaction held open by one kernel makes another wait, not fail."""
    path = str(tmp_path / "class.sqlite3")
    with Storage(path) as first, Storage(path) as second:
        first.set_name("a", "A")
        second.set_name("b", "B")
        blocker = sqlite3.connect(path, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
        done = threading.Event()
        thread = threading.Thread(target=lambda: (second.record_attempt("b", "x", "1", True), done.set()))
        thread.start()
        time.sleep(0.3)  # the waiting writer is blocked meanwhile (not an assertion on time)
        assert not done.is_set()
        blocker.execute("COMMIT")
        thread.join(timeout=30)
        assert done.is_set() and [a.session for a in first.attempts()] == ["b"]


# -- settings a careless administrator gives ------------------------------------------------------
@pytest.mark.parametrize("name", [":memory:", "sqlite:///:memory:", "file::memory:?cache=shared", "file:x?mode=memory"])
def test_a_database_in_memory_is_refused_with_one_message(name: str) -> None:
    with pytest.raises(StorageError) as refused:
        Storage(name)
    text = str(refused.value)
    assert "CAPITAL_LUX_DB" in text and "memory" in text and text.count("cannot be used") == 0


def test_another_applications_sqlite_file_is_refused_and_left_untouched(tmp_path: Path) -> None:
    other = tmp_path / "notes.sqlite3"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE notes (body TEXT)")
    before = other.read_bytes()
    with pytest.raises(StorageError, match="another application's tables"):
        Storage(str(other))
    with sqlite3.connect(other) as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"notes"} and other.read_bytes() == before


def test_a_new_class_database_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "class.sqlite3"
    with Storage(str(path)) as storage:
        storage.set_setting("x", "1")
    for file in [path, *tmp_path.glob("class.sqlite3-*")]:
        assert file.stat().st_mode & 0o077 == 0, file
    open_to_all = tmp_path / "old.sqlite3"
    Storage(str(open_to_all)).close()
    open_to_all.chmod(0o644)
    Storage(str(open_to_all)).close()
    assert open_to_all.stat().st_mode & 0o777 == 0o600


def test_a_postgresql_host_that_never_answers_is_given_up_with_a_message() -> None:
    pytest.importorskip("psycopg")
    with socket.socket() as silent:  # accepts connections (the kernel's backlog) and never speaks
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        with pytest.raises(StorageError, match="the class database cannot be used"):
            Storage(f"postgresql://learner:secret@127.0.0.1:{port}/class")


def test_reading_the_class_never_waits_for_a_writer(tmp_path: Path) -> None:
    path = tmp_path / "class.sqlite3"
    with Storage(str(path)) as storage:
        storage.record_attempt(new_session(), "deck-short", "1/2", False)
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # a learner's answer being written, holding the write lock
    writer.execute("INSERT INTO settings (name, value) VALUES ('pending', '1')")
    try:
        with Storage(str(path), timeout=0.2) as reader:  # would fail "database is locked" if reads took the lock
            assert len(reader.attempts()) == 1 and reader.setting("pending", "none") == "none"
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_the_database_computes_the_dashboard_as_the_attempts_give_it(url: str) -> None:
    """Per exercise: learners, solved, median answers, when each solved, the wrong answers and
    mistakes counted by learners, each learner's totals: from SQL, equal to the reference."""
    import random

    from capital_lux.lessons.classroom import class_figures, summarise

    rng = random.Random(5)
    with Storage(url) as storage:
        sessions = [new_session() for _ in range(12)]
        for session, name in zip(sessions, ["Ana", "Bea", "Ana", ""] * 3):
            if name:
                storage.set_name(session, name)
        diagnosis = {"1/2": "binomial", "2/3": "prior", "0.25": None, "3/4": "binomial"}  # the checker's, fixed
        for _ in range(400):
            correct = rng.random() < 0.2
            answer = "1/3" if correct else rng.choice(list(diagnosis))
            storage.record_attempt(rng.choice(sessions), rng.choice(["deck-short", "bonus-tie", "two-scholars"]),
                                   answer, correct, str(rng.randrange(9)), None if correct else diagnosis[answer])
        attempts = storage.attempts()
        figures = class_figures(storage)
    assert figures.summaries == summarise(attempts)
    assert figures.answers == len(attempts) == 400
    expected = {}
    for a in attempts:
        name, solved, answers = expected.get(a.session, (a.name, set(), 0))
        expected[a.session] = (name, solved | ({a.exercise} if a.correct else set()), answers + 1)
    assert sorted(figures.learners) == sorted((s, n, len(done), k, 0) for s, (n, done, k) in expected.items())


def test_a_class_database_from_before_gets_its_dashboard_tables_filled_from_its_log(tmp_path: Path) -> None:
    """A database at schema version 2 (every answer in the log only) opened by this version:
    the migration fills the tables the dashboard reads, and the figures are the log's."""
    from capital_lux.lessons.classroom import class_figures, summarise

    path = tmp_path / "class.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for statements in MIGRATIONS[:2]:
            for statement in statements:
                connection.execute(statement.format(id="INTEGER PRIMARY KEY AUTOINCREMENT"))
        connection.execute("INSERT INTO schema_version (version) VALUES (2)")
        connection.executemany("INSERT INTO learners (session, name, started) VALUES (?, ?, 't')",
                               [("a", "Ana"), ("b", "Bea")])
        rows = [("a", "x", "1/2", 0, "binomial"), ("a", "x", "1/2", 0, "binomial"), ("a", "x", "1/3", 1, None),
                ("b", "x", "0.5", 0, None), ("b", "x", "1/2", 0, "binomial"), ("b", "y", "2", 1, None)]
        for session, exercise, answer, correct, mistake in rows:
            connection.execute("INSERT INTO attempts (session, exercise, instance, answer, correct, mistake, at) "
                               "VALUES (?, ?, NULL, ?, ?, ?, 't')", (session, exercise, answer, correct, mistake))
            connection.execute("INSERT INTO progress (session, exercise, attempts, solved) VALUES (?, ?, 1, ?) "
                               "ON CONFLICT (session, exercise) DO UPDATE SET attempts = progress.attempts + 1, "
                               "solved = COALESCE(progress.solved, excluded.solved)",
                               (session, exercise, answer if correct else None))
    with Storage(str(path)) as storage:
        assert storage.schema_version() == SCHEMA_VERSION
        figures = class_figures(storage)
        assert figures.summaries == summarise(storage.attempts())
    assert figures.summaries["x"].median_attempts == Fraction(5, 2)  # Ana solved at her 3rd, Bea tried twice
    assert figures.summaries["x"].wrong[0] == ("1/2", 2, "binomial")


def test_the_class_database_benchmark_runs_small() -> None:
    from capital_lux.cli.bench import classdb

    figures = classdb(rows=2000, learners=5, repeats=1)
    assert figures["rows"] == 2000 and figures["dashboard_sql_ms_cpu"] >= 0
    assert figures["answer_wait_ms_median_while_teacher_reads"] > 0


def test_who_is_stuck_now_is_read_from_the_database(url: str) -> None:
    with Storage(url) as storage:
        storage.set_name("s1", "Ana")
        storage.set_name("s2", "Bea")
        for answer in ("1/2", "1/3", "1/4"):
            storage.record_attempt("s1", "deal-any-six", answer, False)
        storage.record_attempt("s2", "deal-any-six", "1/2", False)
        for answer in ("1/2", "1/3", "3/4"):  # solved at the third: not stuck
            storage.record_attempt("s2", "scholar-green", answer, answer == "3/4")
        [(session, name, exercise, answers, last)] = storage.stuck("2000-01-01T00:00:00.000+00:00", 3)
        assert (session, name, exercise, answers) == ("s1", "Ana", "deal-any-six", 3) and last > "2000"
        assert storage.stuck("2999-01-01T00:00:00.000+00:00", 3) == []  # nothing answered since


def test_a_postgresql_restart_under_an_open_page_loses_no_answer(tmp_path: Path) -> None:
    # The learner's Check gave no feedback, the page still said "your answers now go to your
    # teacher", and the answers were in neither the database nor the CSV: for good.
    from capital_lux.tutor.exercises_app import build_app

    server = PostgresServer()
    try:
        with Storage(server.url) as storage:
            app = build_app("en", storage=storage)._exercises
            app.learner.name.value = "Ana"
            app.picker.value = "modifier-after-draw"
            answers = ["1/2", "0.9000", "3/4", format_number(app.exercise.exact())]
            app.answer.value = answers[0]
            assert app.check() == "wrong"
            server.stop()  # the database restarts under the open page
            for answer in answers[1:3]:
                app.answer.value = answer
                assert app.check() == "wrong"  # checked all the same
            note = app.learner.note.value
            assert "does not answer right now" in note and "Your 2 answers are kept on the server" in note
            assert app.learner.retry_button.layout.display is None and len(app.learner.pending) == 2
            server.start()
            app.answer.value = answers[3]
            assert app.check() == "correct"
            assert app.learner.pending == [] and "every answer kept here reached your teacher" in app.learner.note.value
            assert [a.answer for a in storage.attempts()] == answers  # each once, in order
            assert storage.progress(app.learner.session)[0] == {"modifier-after-draw": 4}
    finally:
        server.remove()


def test_postgresql_keeps_booleans_and_times_with_their_own_types(postgres: str) -> None:
    import psycopg

    name = f"class_{next(_databases)}"
    with psycopg.connect(postgres, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    url = postgres.rsplit("/", 1)[0] + "/" + name
    with Storage(url) as storage:
        storage.set_name("s1", "Ana")
        storage.record_attempt("s1", "deal-any-six", "1/2", False, mistake="binomial")
        storage.record_attempt("s1", "deal-any-six", "3/4", True)
        [wrong, right] = storage.attempts()
        assert (wrong.correct, right.correct, wrong.mistake) == (False, True, "binomial")
        assert wrong.at.startswith("20") and "+00:00" in wrong.at
    with psycopg.connect(url) as connection:
        types = dict(connection.execute(
            "SELECT table_name || '.' || column_name, data_type FROM information_schema.columns "
            "WHERE table_name IN ('attempts', 'learners', 'solutions_seen')").fetchall())
    assert types["attempts.correct"] == "boolean" and types["attempts.mistake"] == "text"
    assert {types[c] for c in ("attempts.at", "learners.started", "solutions_seen.at")} == {"timestamp with time zone"}


def test_the_default_class_database_lives_outside_the_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # It sat in notebooks/, inside the checkout, where a page's folder could serve it.
    from capital_lux.lessons.storage import database_url

    monkeypatch.delenv("CAPITAL_LUX_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert database_url() == str(tmp_path / "data" / "capital-lux" / "class.sqlite3")
    with Storage() as storage:
        storage.set_name("s1", "Ana")
    folder = tmp_path / "data" / "capital-lux"
    assert (folder.stat().st_mode & 0o777, (folder / "class.sqlite3").stat().st_mode & 0o777) == (0o700, 0o600)
    assert not str(database_url()).startswith(str(Path(__file__).resolve().parent.parent))


def test_a_page_opened_while_postgresql_is_down_keeps_the_answers_and_sends_them_when_it_is_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from capital_lux.tutor import classroom
    from capital_lux.tutor.exercises_app import build_app

    server = PostgresServer()
    try:
        monkeypatch.setenv("CAPITAL_LUX_DB", server.url)
        with Storage(server.url) as storage:  # the class's schema exists, an open lesson (names only);
            storage.set_setting("identity", "open")  # then the server goes down before the page opens
        server.stop()
        monkeypatch.setattr(classroom, "REOPEN_SECONDS", 0.0)
        app = build_app("en")._exercises
        assert app.learner.storage is None and "does not answer yet" in app.learner.note.value
        app.learner.name.value = "Ana"
        app.picker.value = "modifier-after-draw"
        for answer in ("1/2", "0.9000"):
            app.answer.value = answer
            assert app.check() == "wrong"
        assert len(app.learner.pending) == 2 and "Your 2 answers are kept on the server" in app.learner.note.value
        server.start()
        right = format_number(app.exercise.exact())  # on the cards shown while the database was away
        app.answer.value = right
        assert app.check() == "correct"
        assert app.learner.pending == [] and "every answer kept here reached your teacher" in app.learner.note.value
        with Storage(server.url) as storage:
            assert [(a.name, a.answer, a.correct) for a in storage.attempts()] == [
                ("Ana", "1/2", False), ("Ana", "0.9000", False), ("Ana", right, True)]
    finally:
        server.remove()


def test_a_sqlite_file_held_by_another_program_keeps_the_answer_on_the_page(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    from capital_lux.lessons import storage as S
    from capital_lux.tutor.exercises_app import build_app

    monkeypatch.setattr(S, "BUSY_TIMEOUT", 1.0)  # SQLite's wait for the lock, given up after 1 s instead of 20 s
    path = tmp_path / "class.sqlite3"
    with Storage(str(path), timeout=0.2) as storage:
        app = build_app("en", storage=storage)._exercises
        app.learner.name.value = "Ana"
        app.picker.value = "modifier-after-draw"
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # a backup tool, say, holds the file past the wait
        app.answer.value = "1/2"
        assert app.check() == "wrong" and app.learner.pending and "kept on the server" in app.learner.note.value
        holder.execute("COMMIT")
        holder.close()
        app.learner.retry_button.click()
        assert app.learner.pending == [] and [a.answer for a in storage.attempts()] == ["1/2"]
