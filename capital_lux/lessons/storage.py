"""Class results in a database: SQLite by default, PostgreSQL where a school has one.

``open_storage()`` connects to the database named by the environment variable
``CAPITAL_LUX_DB`` (a file path for SQLite, or a ``postgresql://`` URL), or to
``class.sqlite3`` in the server's own folder (``data_folder()``), and brings its
schema up to date: the app sets the database up itself, with no manual step.
Only the standard DB-API is used (``sqlite3`` from the standard library,
``psycopg`` 3 for PostgreSQL, installed with ``pip install capital-lux[postgresql]``).

Schema (version 9):

- ``schema_version(version)``: one row, the number of migrations applied;
- ``learners(session, name, started)``: a session id is made for each page a
  learner opens; the name is what they typed (no password: anyone may type any
  name), empty until they type one;
- ``attempts(id, session, exercise, instance, answer, correct, mistake, at)``: every
  checked answer, with the instance (seed) of the exercise if it has one, 1 or 0 for
  correct, the mistake the checker recognised if any, and the UTC time (ISO 8601);
- ``progress(session, exercise, attempts, solved)``: each learner's progress as the
  exercises page shows it (attempts made here, or brought back in a progress file);
- ``settings(name, value)``: the teacher's settings, read by every learner's page
  (``solutions``: when solutions open; ``numbers`` and ``class_seed``: whose numbers
  each learner's exercises are on, see ``lessons.classroom``), and ``server_key``,
  the server's secret, which no page shows;
- ``key_failures(at)`` (version 2, dropped in version 9): a server-wide count of wrong
  teacher's keys let a learner lock the teacher out; ``lessons.classroom`` counts them per
  address, outside the database, so a restart forgets them;
- ``progress.solved_after`` and ``wrong_answers(session, exercise, answer, mistake,
  first_id)`` (version 3): kept with every answer, so the dashboard reads one row per
  learner and exercise, and each wrong answer once per learner, never the whole log;
- ``solutions_seen(session, exercise, at)`` (version 4): when a learner first opened an
  exercise's worked solution, so the teacher can tell a learner who found the answer
  from one who read it;
- version 5, in PostgreSQL only: ``correct`` a boolean, times ``timestamptz`` (SQLite
  keeps 1/0 and ISO 8601 text); ``mistake`` holds the mistake's stable id;
- version 6: ``roster(person, name, code, hub_user, added, archived)``, the class list
  (each person's personal join code, and their JupyterHub user name); ``learners.person``
  (whose row it is: one per person and lesson), ``learners.code`` (an open lesson's
  learner's own code to come back with), ``learners.archived`` and ``merged_into`` (rows the
  teacher removed or merged: kept with their answers, out of the dashboard);
  ``attempts.page`` (the page an answer came from) and ``attempts.token`` (an answer's own
  id: one sent again after an outage is stored once); ``pages(session, page, first_id,
  last_id)`` (two pages whose answers interleave: one row answering from two places);
  ``row_changes`` (the teacher's renames, merges and removals, each undoable);
- version 7: ``overrides(attempt, correct, at)``, the teacher's mark on an answer, right
  or wrong by hand, over the checker's verdict (which stays in ``attempts``);
- version 8: the class's game tables (learners playing each other): ``game_tables``,
  ``table_seats`` and ``table_moves``, described in ``lessons.tables``;
- version 9: ``key_failures`` dropped (unwritten since the wrong keys are counted per address).

A migration is a list of statements appended to ``MIGRATIONS`` (``"postgresql: …"``
for one dialect only); ``open_storage``
applies the missing ones in one transaction, under a lock, so kernels starting
together never apply one twice.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import socket
import sqlite3
import threading
import time
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Protocol, Union

from ..engine.cards import N_, CapitalLuxError

ENVIRONMENT_VARIABLE = "CAPITAL_LUX_DB"
DEFAULT_DATABASE = "class.sqlite3"  # in ``data_folder()``
#: What names a database in memory to SQLite: each kernel would have its own.
MEMORY_MARKS = (":memory:", "mode=memory")
#: Seconds to wait for PostgreSQL to answer a connection.
CONNECT_TIMEOUT = 5
#: Seconds PostgreSQL may take to answer a call before the connection is given up and the page
#: told its answer is kept: a server stopped by a signal (not closed) held a page five minutes.
CALL_DEADLINE = 5.0
#: Seconds a SQLite writer waits for another's lock (a class of 30 writing at once on a loaded
#: 2-core machine queued for seconds; a file held by another program is given up after this).
BUSY_TIMEOUT = 20.0
#: Seconds a call waits for the calls before it on the same connection (the threads of one
#: kernel), each of them bounded by the deadlines above.
SHARED_WAIT = 60.0
#: PostgreSQL's own limits on one statement and on waiting for a lock (milliseconds).
STATEMENT_TIMEOUT_MS = 10_000
#: Seconds between two tries to reconnect to a PostgreSQL server that did not answer (a refusal
#: is tried again at once): meanwhile a call is told at once that the database does not answer,
#: not after another connection timeout.
RECONNECT_PAUSE = 10.0
#: Names longer than this are refused (a nickname, not an essay).
MAX_NAME = 40
MAX_ANSWER = 80

#: The dashboard's tables filled from the attempt log (a database from before them, or a bulk load).
FILL_DASHBOARD: tuple[str, ...] = (
    "UPDATE progress SET solved_after = (SELECT COUNT(*) FROM attempts a WHERE a.session = progress.session"
    " AND a.exercise = progress.exercise AND a.id <= (SELECT MIN(b.id) FROM attempts b WHERE"
    " b.session = progress.session AND b.exercise = progress.exercise AND b.correct = 1))"
    " WHERE solved IS NOT NULL",
    "INSERT INTO wrong_answers (session, exercise, answer, mistake, first_id)"
    " SELECT session, exercise, answer, MAX(mistake), MIN(id) FROM attempts WHERE correct = 0"
    " GROUP BY session, exercise, answer",
)

# {id} is the dialect's auto-numbered key.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        "CREATE TABLE learners (session TEXT PRIMARY KEY, name TEXT NOT NULL, started TEXT NOT NULL)",
        "CREATE TABLE attempts ("
        " id {id},"
        " session TEXT NOT NULL REFERENCES learners (session),"
        " exercise TEXT NOT NULL,"
        " instance TEXT,"
        " answer TEXT NOT NULL,"
        " correct INTEGER NOT NULL CHECK (correct IN (0, 1)),"
        " mistake TEXT,"
        " at TEXT NOT NULL)",
        "CREATE INDEX attempts_by_exercise ON attempts (exercise)",
        "CREATE TABLE progress ("
        " session TEXT NOT NULL REFERENCES learners (session),"
        " exercise TEXT NOT NULL,"
        " attempts INTEGER NOT NULL,"
        " solved TEXT,"
        " PRIMARY KEY (session, exercise))",
        "CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ),
    (
        # Wrong teacher's keys, every page of the server counted together (seconds since the epoch).
        "CREATE TABLE key_failures (at DOUBLE PRECISION NOT NULL)",
    ),
    (
        # The dashboard reads small tables kept with every answer, never the whole attempt log:
        # how many answers each learner took to solve each exercise, and each wrong answer once
        # per learner (with the first attempt that gave it). Filled here from the log so far.
        "ALTER TABLE progress ADD COLUMN solved_after INTEGER",
        "CREATE TABLE wrong_answers ("
        " session TEXT NOT NULL REFERENCES learners (session),"
        " exercise TEXT NOT NULL,"
        " answer TEXT NOT NULL,"
        " mistake TEXT,"
        " first_id BIGINT NOT NULL,"
        " PRIMARY KEY (session, exercise, answer))",
        # read in the order the dashboard groups them: no sort, no table lookups
        "CREATE INDEX wrong_answers_by_answer ON wrong_answers (exercise, answer, mistake, first_id)",
        "CREATE INDEX wrong_answers_by_mistake ON wrong_answers (exercise, mistake, session, first_id)",
        *FILL_DASHBOARD,
    ),
    (
        # When a learner first saw an exercise's answer (its worked solution) before solving it.
        "CREATE TABLE solutions_seen ("
        " session TEXT NOT NULL REFERENCES learners (session),"
        " exercise TEXT NOT NULL,"
        " at TEXT NOT NULL,"
        " PRIMARY KEY (session, exercise))",
    ),
    (
        # PostgreSQL's own types, for a school's tools that read the database: answers right or
        # wrong as booleans, times as timestamptz (SQLite has neither: it keeps 1/0 and ISO text).
        "postgresql: ALTER TABLE attempts DROP CONSTRAINT IF EXISTS attempts_correct_check",
        "postgresql: ALTER TABLE attempts ALTER COLUMN correct TYPE BOOLEAN USING correct = 1",
        "postgresql: ALTER TABLE attempts ALTER COLUMN at TYPE TIMESTAMPTZ USING at::timestamptz",
        "postgresql: ALTER TABLE learners ALTER COLUMN started TYPE TIMESTAMPTZ USING started::timestamptz",
        "postgresql: ALTER TABLE solutions_seen ALTER COLUMN at TYPE TIMESTAMPTZ USING at::timestamptz",
    ),
    (
        # Who a row is: the class list the teacher types (a person, their personal join code and,
        # on JupyterHub, their hub user name); each lesson gives a person a row of their own.
        "CREATE TABLE roster ("
        " person TEXT PRIMARY KEY,"
        " name TEXT NOT NULL,"
        " code TEXT NOT NULL UNIQUE,"
        " hub_user TEXT UNIQUE,"
        " added TEXT NOT NULL,"
        " archived TEXT)",
        "ALTER TABLE learners ADD COLUMN person TEXT REFERENCES roster (person)",
        # an open lesson's learner gets a code of their own to come back with
        "ALTER TABLE learners ADD COLUMN code TEXT",
        "CREATE UNIQUE INDEX learners_by_code ON learners (code)",
        "CREATE INDEX learners_by_person ON learners (person)",
        # removed by the teacher: kept, with their answers, out of the dashboard (undone by clearing it)
        "ALTER TABLE learners ADD COLUMN archived TEXT",
        "ALTER TABLE learners ADD COLUMN merged_into TEXT",
        # the page an answer came from, and the answer's own id (an answer kept while the database
        # was away is sent again until it arrives: it is stored once)
        "ALTER TABLE attempts ADD COLUMN page TEXT",
        "ALTER TABLE attempts ADD COLUMN token TEXT",
        "CREATE UNIQUE INDEX attempts_by_token ON attempts (token)",
        # per row and page, the first and last answer: two pages whose answers interleave are
        # one row answering from two places at once
        "CREATE TABLE pages ("
        " session TEXT NOT NULL REFERENCES learners (session),"
        " page TEXT NOT NULL,"
        " first_id BIGINT NOT NULL,"
        " last_id BIGINT NOT NULL,"
        " PRIMARY KEY (session, page))",
        # the teacher's acts on rows (rename, merge, remove), each one undoable
        "CREATE TABLE row_changes ("
        " id {id},"
        " at TEXT NOT NULL,"
        " kind TEXT NOT NULL,"
        " session TEXT NOT NULL,"
        " detail TEXT NOT NULL,"
        " undone INTEGER NOT NULL DEFAULT 0)",
    ),
    (
        # The teacher's own mark on an answer (1 right, 0 wrong), over the checker's: recorded
        # apart, so the checker's verdict stays and the mark can be taken back.
        "CREATE TABLE overrides ("
        " attempt BIGINT PRIMARY KEY REFERENCES attempts (id),"
        " correct INTEGER NOT NULL CHECK (correct IN (0, 1)),"
        " at TEXT NOT NULL)",
    ),
    (
        # Learners play each other (``lessons.tables``): a table, its seats, and every decision
        # made at it in the order it was made; the game is rebuilt from these and the seed.
        "CREATE TABLE game_tables ("
        " id {id},"
        " code TEXT NOT NULL UNIQUE,"
        " seats INTEGER NOT NULL CHECK (seats BETWEEN 2 AND 4),"
        " seed BIGINT NOT NULL,"
        " opened_by TEXT NOT NULL,"
        " opened TEXT NOT NULL,"
        " started TEXT,"
        " closed TEXT,"
        " closed_why TEXT,"
        " away_seconds INTEGER NOT NULL,"
        " aids TEXT NOT NULL,"
        " hotseat INTEGER NOT NULL DEFAULT 0,"
        " moves INTEGER NOT NULL DEFAULT 0)",
        "CREATE TABLE table_seats ("
        " table_id BIGINT NOT NULL REFERENCES game_tables (id),"
        " seat INTEGER NOT NULL,"
        " learner TEXT,"
        " name TEXT,"
        " bot TEXT,"
        " seen DOUBLE PRECISION,"
        " PRIMARY KEY (table_id, seat))",
        "CREATE INDEX table_seats_by_learner ON table_seats (learner)",
        "CREATE TABLE table_moves ("
        " table_id BIGINT NOT NULL REFERENCES game_tables (id),"
        " number INTEGER NOT NULL,"
        " seat INTEGER NOT NULL,"
        " turn INTEGER NOT NULL,"
        " action TEXT NOT NULL,"
        " made_by TEXT NOT NULL,"
        " at TEXT NOT NULL,"
        " PRIMARY KEY (table_id, number),"
        " UNIQUE (table_id, seat, turn))",
    ),
    (
        # The server-wide count of wrong teacher's keys let one learner lock the teacher out; the
        # keys are counted per page and address outside the database now, and nothing reads it.
        "DROP TABLE IF EXISTS key_failures",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)
#: The earliest time: "since the beginning", where a lesson has no start.
EPOCH = "1970-01-01T00:00:00.000+00:00"
_ID = {"sqlite": "INTEGER PRIMARY KEY AUTOINCREMENT", "postgresql": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"}
#: A fixed number of our own: PostgreSQL's advisory lock that serialises migrations.
_MIGRATION_LOCK = 7_314_159
LOG = logging.getLogger("capital_lux.storage")

#: What a column gives back: SQLite's text, integers, reals, blobs and NULL; PostgreSQL's
#: booleans and times too (schema version 5).
Value = Union[str, int, float, bytes, datetime, None]
Row = tuple[Value, ...]


class Cursor(Protocol):
    """What the storage uses of a DB-API cursor (``sqlite3``'s or ``psycopg``'s)."""

    def execute(self, statement: str, params: Sequence[Value] = ..., /) -> Cursor: ...

    def fetchone(self) -> Row | None: ...

    def fetchall(self) -> list[Row]: ...

    def close(self) -> None: ...


class Connection(Protocol):
    """What the storage uses of a DB-API connection (``sqlite3``'s or ``psycopg``'s)."""

    def cursor(self) -> Cursor: ...

    def execute(self, statement: str, params: Sequence[Value] = ..., /) -> Cursor: ...

    def commit(self) -> None: ...

    def rollback(self) -> None: ...

    def close(self) -> None: ...


class StorageError(CapitalLuxError):
    """A name, answer or database the class storage refuses; the message says why."""


class StorageUnavailable(StorageError):
    """The class database does not answer now (restarted, or the network is down): the next
    call connects again, so what could not be stored can be tried again later."""


class StorageMisconfigured(StorageError):
    """The setting names a class database that can never be used as it is (no such host, file
    folder or database, a refused password, a malformed address): waiting will not help.
    ``what`` says what is wrong in one sentence without the driver's words (a learner reads it)."""

    def __init__(self, message: str, what: StorageError | None = None, **params: object) -> None:
        super().__init__(message, **params)
        self.what = what or StorageError(N_("{setting} is set in a way that can never work."),
                                         setting=ENVIRONMENT_VARIABLE)


#: What a driver says when the setting itself is wrong (PostgreSQL's and SQLite's words), and
#: the sentence that names it for the teacher and the learners.
_NEVER_WORKS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("could not translate host name", "failed to resolve host"),
     N_("{setting} names a database server whose host name is not known.")),
    (("password authentication failed", "no pg_hba.conf entry", "no password supplied"),
     N_("The class database refused the user name or the password that {setting} gives.")),
    (("does not exist",), N_("{setting} names a database or a user that does not exist on its server.")),
    (("invalid connection option", "missing \"=\"", "key/value separator", "invalid URI", "invalid dsn",
      "invalid integer value"),
     N_("{setting} is not a well-formed postgresql:// address.")),
    (("unable to open database file",),
     N_("{setting} names a file in a folder that does not exist, or that the server may not write in.")),
    (("file is not a database",), N_("{setting} names a file that is not a class database.")),
)
#: The kinds of address the setting may be (anything else is a mistake, not a file name).
_SCHEMES = ("postgresql", "postgres", "sqlite")


def never_works(error: BaseException) -> bool:
    """Whether ``error``, met opening the class database, says its setting is wrong, not that it is away.

    >>> never_works(sqlite3.OperationalError("unable to open database file"))
    True
    >>> never_works(OSError("connection refused"))
    False
    """
    return _what_is_wrong(error) is not None


def _what_is_wrong(error: BaseException) -> StorageError | None:
    """The sentence naming what is wrong with a setting that can never work, or None (it may come back)."""
    sqlstate = getattr(error, "sqlstate", None) or ""
    if sqlstate.startswith("28"):  # invalid authorization
        return StorageError(_NEVER_WORKS[1][1], setting=ENVIRONMENT_VARIABLE)
    if sqlstate == "3D000":  # invalid catalog name: no such database
        return StorageError(_NEVER_WORKS[2][1], setting=ENVIRONMENT_VARIABLE)
    for words, sentence in _NEVER_WORKS:
        if any(word in str(error) for word in words):
            return StorageError(sentence, setting=ENVIRONMENT_VARIABLE)
    return None


@dataclass(frozen=True)
class Attempt:
    """One checked answer, as stored."""

    id: int
    session: str
    name: str
    exercise: str
    instance: str | None
    answer: str
    correct: bool
    mistake: str | None
    at: str
    #: the learner had seen the exercise's worked solution when they gave this answer
    saw_solution: bool = False
    #: the teacher removed the learner (or merged the row into another): kept, shown as archived
    archived: bool = False
    #: the teacher's own mark, right (True) or wrong (False), over ``correct`` (the checker's); None: none
    marked: bool | None = None


def data_folder() -> Path:
    """The server's own folder, outside any checkout: ``$XDG_DATA_HOME/capital-lux``, by default
    ``~/.local/share/capital-lux`` (the class database, the key without one, ``make class``'s files)."""
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(data) / "capital-lux"


def database_url() -> str:
    """``CAPITAL_LUX_DB``, else the class database in the server's own folder: never inside the
    checkout, where a page's folder could serve it or a ``git clean`` delete it."""
    return os.environ.get(ENVIRONMENT_VARIABLE, "").strip() or str(data_folder() / DEFAULT_DATABASE)


def _owner_only(path: Path) -> None:
    """Create a new database file readable by its owner alone (it holds the server's key and
    the learners' answers; SQLite gives its -wal and -shm files the same mode), and close an
    existing one to others."""
    try:
        os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        try:
            if path.is_file() and path.stat().st_mode & 0o077:
                path.chmod(0o600)
        except PermissionError:
            pass  # another account's file: SQLite says what it can or cannot do with it
    except OSError:
        pass  # a folder that does not exist, or a name that is not a file: sqlite3 says which


def _shown(url: str) -> str:
    """A database's address as a message may show it: without its password."""
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", url)


def new_session() -> str:
    """An id no other learner can guess, so two learners with one name stay apart."""
    return secrets.token_hex(16)


def clean_name(name: str) -> str:
    """The name as stored: trimmed, single spaces; refused when empty, too long or unprintable."""
    cleaned = " ".join(name.split())
    if not cleaned:
        raise StorageError(N_("Type a name or nickname first."))
    if len(cleaned) > MAX_NAME:
        raise StorageError(N_("A name has at most {limit} characters."), limit=MAX_NAME)
    if not cleaned.isprintable():
        raise StorageError(N_("A name cannot hold control characters."))
    return cleaned


def name_key(name: str) -> str:
    """What makes two names the same learner's: the same letters, whatever the case, the
    spaces, or an accent typed as one character or two."""
    return unicodedata.normalize("NFC", " ".join(name.split())).casefold()


def _cut(connection: object, deadline: float) -> None:
    """End a PostgreSQL connection's wait for an answer that is not coming: its socket shut
    down under it (from another thread, which closing the connection itself could not do
    safely), so the call waiting raises at once and the connection reads as broken."""
    pgconn = getattr(connection, "pgconn", None)
    try:
        descriptor = pgconn.socket if pgconn is not None else -1
        if descriptor < 0:
            return
        with socket.socket(fileno=os.dup(descriptor)) as duplicate:
            duplicate.shutdown(socket.SHUT_RDWR)
    except (OSError, ValueError, AttributeError) as error:  # closed meanwhile: the call has ended
        LOG.debug("No connection to cut: %s", error)
        return
    LOG.warning("The class database did not answer within %g s: its connection is given up", deadline)


def _busy(error: BaseException) -> bool:
    """SQLite's file held by another program past the wait (a backup, a stuck kernel): the
    answer can be stored later, as when a PostgreSQL server is away."""
    return isinstance(error, sqlite3.OperationalError) and ("locked" in str(error) or "busy" in str(error))


def _text(moment: Value) -> str:
    """A time as the app passes it around: ISO 8601 text (PostgreSQL gives a datetime)."""
    return moment.isoformat(timespec="milliseconds") if isinstance(moment, datetime) else str(moment)


def _no_later(moment: Value, then: Value) -> bool:
    """Whether a time (ISO text from SQLite, a datetime from PostgreSQL) is ``then`` or earlier; False for NULL."""
    if moment is None:
        return False
    if isinstance(moment, str) and isinstance(then, str):
        return moment <= then
    if isinstance(moment, datetime) and isinstance(then, datetime):
        return moment <= then
    raise TypeError(f"times of two kinds from the class database: {moment!r}, {then!r}")


def _int(value: Value) -> int:
    """A count or an id, as ``int()`` reads it."""
    if value is None or isinstance(value, datetime):
        raise TypeError(f"a number was expected from the class database, not {value!r}")
    return int(value)


def _str(value: Value) -> str:
    """A value of a text column that is never NULL."""
    if not isinstance(value, str):
        raise TypeError(f"a text was expected from the class database, not {value!r}")
    return value


def _str_or_none(value: Value) -> str | None:
    return None if value is None else _str(value)


def _first(row: Row | None) -> Value:
    """The first value of the one row a query always gives (a count, a setting just stored)."""
    assert row is not None, "the query gives one row"
    return row[0]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class Storage:
    """One connection to the class database; safe to share between threads."""

    def __init__(self, url: str | None = None, timeout: float = 30.0) -> None:
        self.url = url or database_url()
        if any(mark in self.url.lower() for mark in MEMORY_MARKS):
            # Each kernel would get a database of its own: learners told "your answers go to your
            # teacher" while the teacher's page, in another kernel, sees nothing.
            memory = N_("{setting} must name a file or a postgresql:// address that every page of "
                        "the class shares, not a database in memory")
            raise StorageMisconfigured(memory, StorageError(memory, setting=ENVIRONMENT_VARIABLE),
                                       setting=ENVIRONMENT_VARIABLE)
        scheme = re.match(r"([A-Za-z][A-Za-z0-9+.-]*)://", self.url)
        if scheme and scheme[1].lower() not in _SCHEMES:  # mysql://, http://: never a file's name
            LOG.error("%s names a class database that can never work as it is set: %s://", ENVIRONMENT_VARIABLE,
                      scheme[1])
            raise StorageMisconfigured(
                N_("{setting} names a class database that can never work as it is set: {reason}"),
                StorageError(N_("{setting} names a database of a kind this app cannot use ({scheme}://): it "
                                "takes a file path or a postgresql:// address."),
                             setting=ENVIRONMENT_VARIABLE, scheme=scheme[1]),
                setting=ENVIRONMENT_VARIABLE, reason=f"{scheme[1]}://")
        self._lock = threading.Lock()
        self._next_try = 0.0  # (monotonic) PostgreSQL: not before then is a lost connection made again
        self.dialect = "postgresql" if self.url.startswith(("postgresql://", "postgres://")) else "sqlite"
        self._errors: tuple[type[Exception], ...] = (sqlite3.Error,)
        self._deadline = timeout  # opening (the schema made or brought up to date) may take longer than a call
        try:
            self._connect(timeout)
            self._migrate()
            if self.dialect == "sqlite":  # then a writer waits for another's lock this long, no longer
                self._connection.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
        except self._errors as error:
            what = _what_is_wrong(error)
            if what is not None:
                LOG.error("%s names a class database that can never work as it is set: %s",
                          ENVIRONMENT_VARIABLE, error)
                raise StorageMisconfigured(N_("{setting} names a class database that can never work as it is set: "
                                              "{reason}"), what, setting=ENVIRONMENT_VARIABLE, reason=error) from None
            raise StorageError(N_("the class database cannot be used: {reason}"), reason=error) from None
        self._deadline = CALL_DEADLINE

    def _connect(self, timeout: float) -> None:
        if self.dialect == "postgresql":
            try:
                import psycopg
            except ImportError:
                needs = N_("PostgreSQL needs the psycopg package: pip install capital-lux[postgresql]")
                raise StorageMisconfigured(needs, StorageError(needs)) from None
            self._errors = (psycopg.Error,)
            # A host that accepts and never answers would hold every page's build for ``timeout``.
            self._connection: Connection = self._pg_connect()
        else:
            path = Path(self.url.removeprefix("sqlite:///"))
            if path.parent == data_folder():
                path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            _owner_only(path)
            # isolation_level=None: transactions are begun here, explicitly, as BEGIN IMMEDIATE, so two
            # writers queue for the lock (up to ``timeout``) instead of failing on an upgrade deadlock.
            self._connection = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
            self._connection.execute("PRAGMA foreign_keys = ON")
            self._refuse_foreign(self._connection.cursor())  # before WAL, which would rewrite its header
            # WAL: the teacher's dashboard reads while learners write, and a killed writer leaves
            # only an uncommitted tail of the log, which the next opener discards.
            self._set_wal(timeout)

    def _pg_connect(self) -> Connection:
        """A PostgreSQL connection whose statements the server itself ends after
        ``STATEMENT_TIMEOUT_MS`` (the URL's own ``options`` kept)."""
        import psycopg
        from psycopg.conninfo import conninfo_to_dict

        options = str(conninfo_to_dict(self.url).get("options") or "")
        limits = f"-c statement_timeout={STATEMENT_TIMEOUT_MS} -c lock_timeout={STATEMENT_TIMEOUT_MS}"
        connection: Connection = psycopg.connect(self.url, connect_timeout=CONNECT_TIMEOUT,
                                                 options=f"{options} {limits}".strip())
        return connection

    def _set_wal(self, timeout: float) -> None:
        """Switch a new database file to WAL. The switch needs the file to itself, and SQLite
        answers "locked" at once, without waiting, while another kernel opening the same new
        file holds its write lock (waiting could deadlock); so ask again until ``timeout``.
        Once the file is in WAL mode, the switch is a no-op that needs no lock."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self._connection.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    # -- plumbing ---------------------------------------------------------------------------------
    def close(self) -> None:
        with self._lock:
            self._connection.close()

    def __enter__(self) -> Storage:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _sql(self, statement: str) -> str:
        # Statements are written with sqlite3's ? placeholders; psycopg's are %s.
        return statement.replace("?", "%s") if self.dialect == "postgresql" else statement

    @contextmanager
    def _transaction(self, write: bool = True) -> Iterator[Cursor]:
        """A transaction; in SQLite a writer's takes the write lock at once (BEGIN IMMEDIATE, so
        writers queue instead of deadlocking) and a reader's takes none: in WAL mode it reads a
        snapshot while learners write."""
        if not self._lock.acquire(timeout=max(self._deadline, SHARED_WAIT)):  # the calls before are stuck
            raise StorageUnavailable(N_("the class database does not answer: {reason}"),
                                     reason=TimeoutError(f"no answer within {SHARED_WAIT:g} s"))
        watchdog = None
        try:
            self._reconnect_if_lost()
            if self.dialect == "postgresql":  # a server stopped by a signal never answers, nor closes
                watchdog = threading.Timer(self._deadline, _cut, (self._connection, self._deadline))
                watchdog.daemon = True
                watchdog.start()
            cursor = None
            try:
                cursor = self._connection.cursor()
                if self.dialect == "sqlite":
                    cursor.execute("BEGIN IMMEDIATE" if write else "BEGIN DEFERRED")
                yield cursor
                self._connection.commit()
            except BaseException as error:
                try:
                    self._connection.rollback()
                except self._errors:
                    pass  # a connection that died has nothing to roll back
                if isinstance(error, self._errors):
                    if self._lost() or _busy(error):
                        LOG.warning("The class database does not answer: %s", error)
                        raise StorageUnavailable(N_("the class database does not answer: {reason}"),
                                                 reason=error) from None
                    raise StorageError(N_("the class database refused a change: {reason}"), reason=error) from None
                raise
            finally:
                if cursor is not None:
                    try:
                        cursor.close()
                    except self._errors:
                        pass
        finally:
            if watchdog is not None:
                watchdog.cancel()
            self._lock.release()

    def _lost(self) -> bool:
        """Is the connection gone (a PostgreSQL server restarted, the network cut)?"""
        if self.dialect != "postgresql":
            return False
        import psycopg  # already imported: the connection is psycopg's

        connection = self._connection
        return isinstance(connection, psycopg.Connection) and bool(connection.closed or connection.broken)

    def _reconnect_if_lost(self) -> None:
        """Connect again after the server came back; say it does not answer while it is away."""
        if not self._lost():
            return
        import psycopg

        if time.monotonic() < self._next_try:
            raise StorageUnavailable(N_("the class database does not answer: {reason}"),
                                     reason=TimeoutError("no answer to the last try"))
        tried = time.monotonic()
        try:
            self._connection = self._pg_connect()
        except psycopg.Error as error:
            if time.monotonic() - tried > 1:  # no answer (not a refusal, which costs nothing to try again)
                self._next_try = time.monotonic() + RECONNECT_PAUSE
            raise StorageUnavailable(N_("the class database does not answer: {reason}"), reason=error) from None
        LOG.info("Connected to the class database again")

    def _run(self, cursor: Cursor, statement: str, params: tuple[Value, ...] = ()) -> Cursor:
        cursor.execute(self._sql(statement), params)
        return cursor

    def _migrate(self) -> None:
        # Up to date, as nearly always: a read, which waits for no writer and takes no lock, and all
        # that a role allowed only the class's rows may do (a server's role under JupyterHub, deploy/).
        found_table = ("SELECT name FROM sqlite_master WHERE name = 'schema_version'" if self.dialect == "sqlite"
                       else "SELECT to_regclass('schema_version')")
        with self._transaction(write=False) as cursor:
            found = cursor.execute(found_table).fetchone()
            row = cursor.execute("SELECT version FROM schema_version").fetchone() if found and found[0] else None
        if row is not None and _int(row[0]) == SCHEMA_VERSION:
            return
        with self._transaction() as cursor:
            if self.dialect == "postgresql":
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            self._refuse_foreign(cursor)
            cursor.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = self._run(cursor, "SELECT version FROM schema_version").fetchone()
            version = 0 if row is None else _int(row[0])
            if version > SCHEMA_VERSION:
                raise StorageError(N_("the class database has schema version {found}; this version of the app "
                                      "knows up to {known}"), found=version, known=SCHEMA_VERSION)
            for statements in MIGRATIONS[version:]:
                for statement in statements:
                    dialect, _, only = statement.partition(": ")
                    if dialect in _ID and only:  # a statement for one dialect
                        if dialect == self.dialect:
                            cursor.execute(only)
                    else:
                        cursor.execute(statement.format(id=_ID[self.dialect]))
            if row is None:
                self._run(cursor, "INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
            elif version < SCHEMA_VERSION:
                self._run(cursor, "UPDATE schema_version SET version = ?", (SCHEMA_VERSION,))

    def _refuse_foreign(self, cursor: Cursor) -> None:
        """Refuse a database that holds tables and is not a class database: nothing is added to it."""
        query = ("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                 if self.dialect == "sqlite" else
                 "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
        tables = {str(row[0]) for row in cursor.execute(query).fetchall()}
        if tables and "schema_version" not in tables:
            raise StorageError(N_("{url} holds another application's tables: give the class a database "
                                  "of its own"), url=_shown(self.url))

    def schema_version(self) -> int:
        with self._transaction(write=False) as cursor:
            return _int(_first(self._run(cursor, "SELECT version FROM schema_version").fetchone()))

    def integrity_check(self) -> str:
        """SQLite's own check of the file ("ok" when sound); PostgreSQL checks itself."""
        if self.dialect != "sqlite":
            return "ok"
        with self._lock:
            return str(_first(self._connection.execute("PRAGMA integrity_check").fetchone()))

    # -- learners ---------------------------------------------------------------------------------
    def set_name(self, session: str, name: str) -> str:
        """Name the learner of ``session`` (they may rename themselves); returns the name kept."""
        cleaned = clean_name(name)
        with self._transaction() as cursor:
            self._run(cursor, "INSERT INTO learners (session, name, started) VALUES (?, ?, ?) "
                              "ON CONFLICT (session) DO UPDATE SET name = excluded.name", (session, cleaned, _now()))
        return cleaned

    def find_learner(self, name: str, since: str = EPOCH) -> tuple[str, str] | None:
        """(session, name kept) of the learner called ``name`` (case, accents typed apart and
        spaces aside) who started at or after ``since`` (the lesson's start), the earliest if several."""
        wanted = name_key(name)
        with self._transaction(write=False) as cursor:
            rows = self._run(cursor, "SELECT session, name FROM learners WHERE started >= ? ORDER BY started, session",
                             (since,)).fetchall()
        for session, known in rows:
            name = _str(known)
            if name and name_key(name) == wanted:
                return str(session), name
        return None

    def merge_learner(self, source: str, target: str) -> None:
        """Everything ``source``, a page nobody has joined from yet, answered becomes ``target``'s,
        in the order given, and ``source`` is gone: the answers given before joining join the row."""
        if source == target:
            return
        with self._transaction() as cursor:
            row = self._run(cursor, "SELECT name, person, code FROM learners WHERE session = ?", (source,)).fetchone()
            if row is not None and (row[0] or row[1] or row[2]):
                # a page that is someone's never pours its answers into another row: only the teacher merges
                raise StorageError(N_("This page already belongs to a learner: reload it to join as someone else."))
            self._run(cursor, "UPDATE attempts SET session = ? WHERE session = ?", (target, source))
            self._run(cursor, "INSERT INTO solutions_seen (session, exercise, at) SELECT ?, exercise, at "
                              "FROM solutions_seen WHERE session = ? ON CONFLICT (session, exercise) DO UPDATE "
                              "SET at = CASE WHEN excluded.at < solutions_seen.at THEN excluded.at "
                              "ELSE solutions_seen.at END", (target, source))
            for table in ("solutions_seen", "wrong_answers", "progress", "pages"):
                self._run(cursor, f"DELETE FROM {table} WHERE session = ?", (source,))
            self._refill(cursor, target)
            self._run(cursor, "DELETE FROM learners WHERE session = ?", (source,))

    def _refill(self, cursor: Cursor, session: str) -> None:
        """The learner's progress, wrong answers and pages, rebuilt from their attempts in order."""
        for table in ("wrong_answers", "progress", "pages"):
            self._run(cursor, f"DELETE FROM {table} WHERE session = ?", (session,))
        rows = self._run(cursor, "SELECT a.id, a.exercise, a.answer, CASE WHEN o.correct IS NULL THEN a.correct "
                                 "ELSE o.correct = 1 END, a.mistake, a.page FROM attempts a "
                                 "LEFT JOIN overrides o ON o.attempt = a.id WHERE a.session = ? ORDER BY a.id",
                         (session,)).fetchall()
        answers: dict[str, int] = {}  # exercise: answers
        solved: dict[str, tuple[str, int]] = {}  # exercise: (solving answer, answers up to it)
        wrong: dict[tuple[str, str], tuple[str | None, Value]] = {}  # (exercise, answer): (mistake, first id)
        pages: dict[str, tuple[Value, Value]] = {}  # page: (first id, last id)
        for attempt, exercise_value, answer_value, correct, mistake_value, page in rows:
            if page is not None:
                pages[_str(page)] = (pages.get(_str(page), (attempt, attempt))[0], attempt)
            exercise, answer, mistake = _str(exercise_value), _str(answer_value), _str_or_none(mistake_value)
            answers[exercise] = answers.get(exercise, 0) + 1
            if correct and exercise not in solved:
                solved[exercise] = (answer, answers[exercise])
            if not correct:
                seen, first = wrong.get((exercise, answer), (mistake, attempt))
                wrong[exercise, answer] = (max(filter(None, (seen, mistake)), default=None), first)
        for exercise, count in answers.items():
            solving, after = solved.get(exercise, (None, None))
            self._run(cursor, "INSERT INTO progress (session, exercise, attempts, solved, solved_after) "
                              "VALUES (?, ?, ?, ?, ?)", (session, exercise, count, solving, after))
        for (exercise, answer), (mistake, first) in wrong.items():
            self._run(cursor, "INSERT INTO wrong_answers (session, exercise, answer, mistake, first_id) "
                              "VALUES (?, ?, ?, ?, ?)", (session, exercise, answer, mistake, first))
        for page, (first, last) in pages.items():
            self._run(cursor, "INSERT INTO pages (session, page, first_id, last_id) VALUES (?, ?, ?, ?)",
                      (session, page, first, last))

    def remove_learner(self, session: str) -> None:
        """The learner and everything they answered leave the class database."""
        with self._transaction() as cursor:
            self._run(cursor, "DELETE FROM overrides WHERE attempt IN (SELECT id FROM attempts WHERE session = ?)",
                      (session,))
            for table in ("solutions_seen", "wrong_answers", "progress", "pages", "attempts", "learners"):
                self._run(cursor, f"DELETE FROM {table} WHERE session = ?", (session,))

    def record_attempt(self, session: str, exercise: str, answer: str, correct: bool,
                       instance: str | None = None, mistake: str | None = None, at: str | None = None,
                       token: str | None = None, page: str | None = None) -> bool:
        """Store one checked answer and update the learner's progress, both or neither: ``at``
        the time it was typed (now if not given), ``token`` its own id (an answer sent again
        with the same token is stored once: False), ``page`` the page it came from."""
        answer = answer.strip()[:MAX_ANSWER]
        with self._transaction() as cursor:
            # A learner who has not typed a name yet is kept under an empty one.
            self._run(cursor, "INSERT INTO learners (session, name, started) VALUES (?, '', ?) "
                              "ON CONFLICT (session) DO NOTHING", (session, at or _now()))
            row = self._run(
                cursor, "INSERT INTO attempts (session, exercise, instance, answer, correct, mistake, at, token, page) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
                (session, exercise, instance, answer, bool(correct), mistake, at or _now(), token, page)).fetchone()
            if row is None:
                return False  # stored already, when it was first sent
            attempt = row[0]
            if page is not None:
                self._run(cursor, "INSERT INTO pages (session, page, first_id, last_id) VALUES (?, ?, ?, ?) "
                                  "ON CONFLICT (session, page) DO UPDATE SET last_id = excluded.last_id",
                          (session, page, attempt, attempt))
            self._run(cursor, "INSERT INTO progress (session, exercise, attempts, solved, solved_after) "
                              "VALUES (?, ?, 1, ?, ?) "
                              "ON CONFLICT (session, exercise) DO UPDATE SET attempts = progress.attempts + 1, "
                              "solved = COALESCE(progress.solved, excluded.solved), "
                              "solved_after = CASE WHEN progress.solved IS NULL AND excluded.solved IS NOT NULL "
                              "THEN progress.attempts + 1 ELSE progress.solved_after END",
                      (session, exercise, answer if correct else None, 1 if correct else None))
            if not correct:
                self._run(cursor, "INSERT INTO wrong_answers (session, exercise, answer, mistake, first_id) "
                                  "VALUES (?, ?, ?, ?, ?) ON CONFLICT (session, exercise, answer) DO NOTHING",
                          (session, exercise, answer, mistake, attempt))
        return True

    def progress(self, session: str) -> tuple[dict[str, int], dict[str, str]]:
        """The learner's attempts and solving answers, by exercise."""
        with self._transaction(write=False) as cursor:
            rows = self._run(cursor, "SELECT exercise, attempts, solved FROM progress WHERE session = ?",
                             (session,)).fetchall()
        return {_str(e): _int(a) for e, a, _ in rows}, {_str(e): str(s) for e, _, s in rows if s is not None}

    def replace_progress(self, session: str, attempts: dict[str, int], solved: dict[str, str]) -> None:
        """Add what a progress file the learner uploaded proves: per exercise, the larger count
        of answers, and a solving answer where the database has none. Nothing the database
        holds is lowered or hidden (a file from earlier cannot rub out the answers since)."""
        with self._transaction() as cursor:
            self._run(cursor, "INSERT INTO learners (session, name, started) VALUES (?, '', ?) "
                              "ON CONFLICT (session) DO NOTHING", (session, _now()))
            for exercise, count in attempts.items():
                self._run(cursor, "INSERT INTO progress (session, exercise, attempts, solved, solved_after) "
                                  "VALUES (?, ?, ?, ?, ?) ON CONFLICT (session, exercise) DO UPDATE SET "
                                  "attempts = CASE WHEN excluded.attempts > progress.attempts "
                                  "THEN excluded.attempts ELSE progress.attempts END, "
                                  "solved_after = COALESCE(progress.solved_after, excluded.solved_after), "
                                  "solved = COALESCE(progress.solved, excluded.solved)",
                          (session, exercise, count, solved.get(exercise),
                           count if exercise in solved else None))

    # -- who a row is: the class list, personal codes, and the teacher's acts on rows -------------
    def add_person(self, name: str, code: str, hub_user: str | None = None) -> str:
        """A learner on the class list, with their personal code; returns their id. Two
        people may share a name: each is a row of their own."""
        person = new_session()
        with self._transaction() as cursor:
            self._run(cursor, "INSERT INTO roster (person, name, code, hub_user, added) VALUES (?, ?, ?, ?, ?)",
                      (person, clean_name(name), code, hub_user, _now()))
        return person

    def roster(self, archived: bool = False) -> list[tuple[str, str, str, str | None]]:
        """The class list: (person, name, code, hub user), by name (the archived ones instead if asked)."""
        with self._transaction(write=False) as cursor:
            rows = self._run(cursor, "SELECT person, name, code, hub_user FROM roster WHERE archived IS "
                             + ("NOT NULL" if archived else "NULL") + " ORDER BY added, person").fetchall()
        return sorted(((_str(r[0]), _str(r[1]), _str(r[2]), _str_or_none(r[3])) for r in rows),
                      key=lambda row: (name_key(row[1]), row[0]))

    def person(self, code: str | None = None, hub_user: str | None = None) -> tuple[str, str] | None:
        """(person, name) of the class list's learner with this code (or hub user name), if not removed."""
        column, value = ("hub_user", hub_user) if hub_user is not None else ("code", code)
        with self._transaction(write=False) as cursor:
            row = self._run(cursor, f"SELECT person, name FROM roster WHERE {column} = ? AND archived IS NULL",
                            (value,)).fetchone()
        return None if row is None else (_str(row[0]), _str(row[1]))

    def code_taken(self, code: str) -> bool:
        """Is ``code`` someone's already (on the class list, or an open lesson's learner's)?"""
        with self._transaction(write=False) as cursor:
            row = self._run(cursor, "SELECT 1 FROM roster WHERE code = ? UNION SELECT 1 FROM learners WHERE code = ?",
                            (code, code)).fetchone()
        return row is not None

    def lesson_row(self, since: str, person: str | None = None, code: str | None = None) -> tuple[str, str] | None:
        """(session, name) of the row of ``person`` (or of the open lesson's learner with this
        ``code``) in the lesson that started at ``since``, if they have one and it is not removed."""
        column, value = ("person", person) if person is not None else ("code", code)
        with self._transaction(write=False) as cursor:
            row = self._run(cursor, f"SELECT session, name FROM learners WHERE {column} = ? AND started >= ? "
                                    "AND archived IS NULL ORDER BY started, session", (value, since)).fetchone()
        return None if row is None else (_str(row[0]), _str(row[1]))

    def take_row(self, session: str, name: str, person: str | None = None, code: str | None = None) -> str:
        """The page's ``session`` becomes a row of its own, named, for ``person`` (or with an open
        lesson's ``code``); a row already named is refused. Returns the name kept."""
        cleaned = clean_name(name)
        with self._transaction() as cursor:
            row = self._run(cursor, "SELECT name, person, code FROM learners WHERE session = ?", (session,)).fetchone()
            if row is not None and (row[0] or row[1] or row[2]):
                raise StorageError(N_("This page already belongs to a learner: reload it to join as someone else."))
            self._run(cursor, "INSERT INTO learners (session, name, started, person, code) VALUES (?, ?, ?, ?, ?) "
                              "ON CONFLICT (session) DO UPDATE SET name = excluded.name, person = excluded.person, "
                              "code = excluded.code", (session, cleaned, _now(), person, code))
        return cleaned

    def shared_rows(self, since: str = EPOCH) -> set[str]:
        """Rows that answered from two pages at once: two pages whose answers interleave."""
        with self._transaction(write=False) as cursor:
            rows = self._run(cursor, "SELECT DISTINCT a.session FROM pages a JOIN pages b ON a.session = b.session "
                                     "AND a.page < b.page AND a.first_id <= b.last_id AND b.first_id <= a.last_id "
                                     "JOIN learners l ON l.session = a.session WHERE l.started >= ?",
                             (since,)).fetchall()
        return {_str(r[0]) for r in rows}

    def _log_change(self, cursor: Cursor, kind: str, session: str, detail: dict[str, object]) -> None:
        self._run(cursor, "INSERT INTO row_changes (at, kind, session, detail) VALUES (?, ?, ?, ?)",
                  (_now(), kind, session, json.dumps(detail)))

    def rename_learner(self, session: str, name: str) -> str:
        """The teacher renames a row (and its person on the class list); undoable."""
        cleaned = clean_name(name)
        with self._transaction() as cursor:
            row = self._run(cursor, "SELECT name, person FROM learners WHERE session = ?", (session,)).fetchone()
            if row is None:
                raise StorageError(N_("That learner is not in the class any more."))
            self._log_change(cursor, "rename", session, {"name": row[0]})
            self._run(cursor, "UPDATE learners SET name = ? WHERE session = ?", (cleaned, session))
            if row[1] is not None:
                self._run(cursor, "UPDATE roster SET name = ? WHERE person = ?", (cleaned, row[1]))
        return cleaned

    def archive_learner(self, session: str) -> None:
        """The teacher removes a row: kept with its answers (the exports show them as archived),
        out of the dashboard, and its person's code joins no more; undoable."""
        with self._transaction() as cursor:
            self._log_change(cursor, "remove", session, {})
            self._set_archived(cursor, session, _now())

    def _set_archived(self, cursor: Cursor, session: str, at: str | None) -> None:
        self._run(cursor, "UPDATE learners SET archived = ? WHERE session = ?", (at, session))
        self._run(cursor, "UPDATE roster SET archived = ? WHERE person = "
                          "(SELECT person FROM learners WHERE session = ?)", (at, session))

    def merge_rows(self, source: str, target: str) -> None:
        """The teacher merges ``source``'s row into ``target``'s (one learner who made two rows):
        its answers become ``target``'s and it is archived; undoable."""
        if source == target:
            raise StorageError(N_("Choose two different rows to merge."))
        with self._transaction() as cursor:
            moved = [_int(r[0]) for r in self._run(cursor, "SELECT id FROM attempts WHERE session = ?",
                                                   (source,)).fetchall()]
            seen = [[_str(r[0]), _text(r[1])] for r in self._run(
                cursor, "SELECT exercise, at FROM solutions_seen WHERE session = ?", (target,)).fetchall()]
            self._log_change(cursor, "merge", source, {"target": target, "attempts": moved, "seen": seen})
            self._run(cursor, "UPDATE attempts SET session = ? WHERE session = ?", (target, source))
            self._run(cursor, "INSERT INTO solutions_seen (session, exercise, at) SELECT ?, exercise, at "
                              "FROM solutions_seen WHERE session = ? ON CONFLICT (session, exercise) DO UPDATE "
                              "SET at = CASE WHEN excluded.at < solutions_seen.at THEN excluded.at "
                              "ELSE solutions_seen.at END", (target, source))
            self._run(cursor, "UPDATE learners SET archived = ?, merged_into = ? WHERE session = ?",
                      (_now(), target, source))
            self._refill(cursor, source)
            self._refill(cursor, target)

    def mark_answer(self, attempt: int, correct: bool | None) -> None:
        """The teacher marks an answer right or wrong by hand (None: takes the mark back); the
        learner's progress follows it, the checker's verdict stays recorded."""
        with self._transaction() as cursor:
            row = self._run(cursor, "SELECT session FROM attempts WHERE id = ?", (attempt,)).fetchone()
            if row is None:
                raise StorageError(N_("That answer is not in the class database any more."))
            if correct is None:
                self._run(cursor, "DELETE FROM overrides WHERE attempt = ?", (attempt,))
            else:
                self._run(cursor, "INSERT INTO overrides (attempt, correct, at) VALUES (?, ?, ?) ON CONFLICT (attempt) "
                                  "DO UPDATE SET correct = excluded.correct, at = excluded.at",
                          (attempt, int(correct), _now()))
            self._refill(cursor, _str(row[0]))

    def last_change(self) -> tuple[int, str, str] | None:
        """The teacher's latest act not undone yet: (id, kind, session)."""
        with self._transaction(write=False) as cursor:
            row = self._run(cursor, "SELECT id, kind, session FROM row_changes WHERE undone = 0 "
                                    "ORDER BY id DESC").fetchone()
        return None if row is None else (_int(row[0]), _str(row[1]), _str(row[2]))

    def undo_change(self) -> tuple[str, str] | None:
        """Undo the teacher's latest rename, merge or removal: (kind, session), None if none is left."""
        with self._transaction() as cursor:
            row = self._run(cursor, "SELECT id, kind, session, detail FROM row_changes WHERE undone = 0 "
                                    "ORDER BY id DESC").fetchone()
            if row is None:
                return None
            change, kind, session, detail = _int(row[0]), _str(row[1]), _str(row[2]), json.loads(_str(row[3]))
            if kind == "rename":
                self._run(cursor, "UPDATE learners SET name = ? WHERE session = ?", (detail["name"], session))
                self._run(cursor, "UPDATE roster SET name = ? WHERE person = "
                                  "(SELECT person FROM learners WHERE session = ?)", (detail["name"], session))
            elif kind == "remove":
                self._set_archived(cursor, session, None)
            elif kind == "merge":
                target = detail["target"]
                for attempt in detail["attempts"]:
                    self._run(cursor, "UPDATE attempts SET session = ? WHERE id = ?", (session, attempt))
                self._run(cursor, "DELETE FROM solutions_seen WHERE session = ?", (target,))
                for exercise, at in detail["seen"]:
                    self._run(cursor, "INSERT INTO solutions_seen (session, exercise, at) VALUES (?, ?, ?)",
                              (target, exercise, at))
                self._run(cursor, "UPDATE learners SET archived = NULL, merged_into = NULL WHERE session = ?",
                          (session,))
                self._refill(cursor, session)
                self._refill(cursor, target)
            self._run(cursor, "UPDATE row_changes SET undone = 1 WHERE id = ?", (change,))
        return kind, session

    # -- the class --------------------------------------------------------------------------------
    def attempts(self, since: str = EPOCH, session: str | None = None) -> list[Attempt]:
        """Every attempt of the class (of learners who started at or after ``since``: the
        lesson's start; of ``session`` alone if given), oldest first, with the learner's name
        and the teacher's mark."""
        only = "" if session is None else " AND a.session = ?"
        with self._transaction(write=False) as cursor:
            rows = self._run(cursor, "SELECT a.id, a.session, l.name, a.exercise, a.instance, a.answer, a.correct, "
                                     "a.mistake, a.at, s.at, l.archived, o.correct FROM attempts a "
                                     "JOIN learners l ON l.session = a.session "
                                     "LEFT JOIN solutions_seen s ON s.session = a.session AND s.exercise = a.exercise "
                                     "LEFT JOIN overrides o ON o.attempt = a.id "
                                     "WHERE l.started >= ?" + only + " ORDER BY a.id",
                             (since,) if session is None else (since, session)).fetchall()
        return [Attempt(_int(r[0]), _str(r[1]), _str(r[2]), _str(r[3]), _str_or_none(r[4]), _str(r[5]), bool(r[6]),
                        _str_or_none(r[7]), _text(r[8]), _no_later(r[9], r[8]), r[10] is not None,
                        None if r[11] is None else bool(r[11])) for r in rows]

    def record_solution_seen(self, session: str, exercise: str) -> None:
        """Note that the learner of ``session`` saw ``exercise``'s solution (the first time counts)."""
        with self._transaction() as cursor:
            self._run(cursor, "INSERT INTO learners (session, name, started) VALUES (?, '', ?) "
                              "ON CONFLICT (session) DO NOTHING", (session, _now()))
            self._run(cursor, "INSERT INTO solutions_seen (session, exercise, at) VALUES (?, ?, ?) "
                              "ON CONFLICT (session, exercise) DO NOTHING", (session, exercise, _now()))

    def solutions_seen(self, since: str = EPOCH) -> list[tuple[str, str]]:
        """(session, exercise) for every solution a learner saw before solving its exercise."""
        with self._transaction(write=False) as cursor:
            rows = self._run(cursor, "SELECT s.session, s.exercise FROM solutions_seen s "
                                     "JOIN learners l ON l.session = s.session WHERE l.started >= ? AND l.archived IS NULL AND NOT EXISTS ("
                                     "SELECT 1 FROM attempts a WHERE a.session = s.session AND "
                                     "a.exercise = s.exercise AND a.correct AND a.at < s.at)", (since,)).fetchall()
        return [(str(r[0]), str(r[1])) for r in rows]

    def learner_exercises(self, since: str = EPOCH) -> list[tuple[str, str, str, int, int, bool]]:
        """Per exercise and learner: (exercise, session, name, answers, answers up to the first
        correct one, solved), from the progress kept with every answer (one row each)."""
        with self._transaction(write=False) as cursor:
            rows = self._run(cursor, (
                "SELECT p.exercise, p.session, l.name, p.attempts, COALESCE(p.solved_after, p.attempts), "
                "p.solved IS NOT NULL FROM progress p JOIN learners l ON l.session = p.session "
                "WHERE p.attempts > 0 AND l.started >= ? AND l.archived IS NULL"), (since,)).fetchall()
        return [(_str(r[0]), _str(r[1]), _str(r[2]), _int(r[3]), _int(r[4]), bool(r[5])) for r in rows]

    def stuck(self, since: str, wrong: int = 3, lesson: str = EPOCH) -> list[tuple[str, str, str, int, str]]:
        """Learners stuck now: (session, name, exercise, answers, last answer's time) for every
        exercise not solved after at least ``wrong`` answers, the last one given after ``since``
        (an ISO time), latest first."""
        with self._transaction(write=False) as cursor:
            rows = self._run(cursor, (
                "SELECT p.session, l.name, p.exercise, p.attempts, r.last FROM progress p "
                "JOIN learners l ON l.session = p.session "
                "JOIN (SELECT session, exercise, MAX(at) AS last FROM attempts WHERE at > ? "
                "GROUP BY session, exercise) r ON r.session = p.session AND r.exercise = p.exercise "
                "WHERE p.solved IS NULL AND p.attempts >= ? AND l.started >= ? AND l.archived IS NULL "
                "ORDER BY r.last DESC"),
                (since, wrong, lesson)).fetchall()
        return [(str(r[0]), str(r[1]), str(r[2]), _int(r[3]), _text(r[4])) for r in rows]

    def wrong_answers(self, since: str = EPOCH) -> list[tuple[str, str, int, str | None]]:
        """Per exercise, each wrong answer: (exercise, answer, learners who gave it, a mistake it
        was diagnosed as), most learners first, then first given first."""
        with self._transaction(write=False) as cursor:
            rows = self._run(cursor, (
                "SELECT w.exercise, w.answer, COUNT(*), MAX(w.mistake), MIN(w.first_id) FROM wrong_answers w "
                "JOIN learners l ON l.session = w.session WHERE l.started >= ? AND l.archived IS NULL "
                "GROUP BY w.exercise, w.answer ORDER BY w.exercise, 3 DESC, 5"), (since,)).fetchall()
        return [(_str(r[0]), _str(r[1]), _int(r[2]), _str_or_none(r[3])) for r in rows]

    def mistakes_made(self, since: str = EPOCH) -> list[tuple[str, str, int]]:
        """Per exercise, each diagnosed mistake: (exercise, mistake, learners who made it), most first."""
        with self._transaction(write=False) as cursor:
            rows = self._run(cursor, (
                "SELECT w.exercise, w.mistake, COUNT(DISTINCT w.session), MIN(w.first_id) FROM wrong_answers w "
                "JOIN learners l ON l.session = w.session WHERE w.mistake IS NOT NULL AND l.started >= ? "
                "AND l.archived IS NULL "
                "GROUP BY w.exercise, w.mistake ORDER BY w.exercise, 3 DESC, 4"), (since,)).fetchall()
        return [(_str(r[0]), _str(r[1]), _int(r[2])) for r in rows]

    def setting(self, name: str, default: str) -> str:
        with self._transaction(write=False) as cursor:
            row = self._run(cursor, "SELECT value FROM settings WHERE name = ?", (name,)).fetchone()
        return default if row is None else str(row[0])

    def setting_or_default(self, name: str, default: str) -> str:
        """The setting, or ``default`` stored as it when there is none yet: pages asking
        together all read the value the first one stored."""
        with self._transaction() as cursor:
            self._run(cursor, "INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                      (name, default))
            row = self._run(cursor, "SELECT value FROM settings WHERE name = ?", (name,)).fetchone()
        return str(_first(row))

    def set_setting(self, name: str, value: str) -> None:
        with self._transaction() as cursor:
            self._run(cursor, "INSERT INTO settings (name, value) VALUES (?, ?) "
                              "ON CONFLICT (name) DO UPDATE SET value = excluded.value", (name, value))


def open_storage(url: str | None = None) -> Storage:
    """The class database (``database_url()``), schema up to date."""
    return Storage(url)


def open_or_why(storage: Storage | None = None) -> tuple[Storage | None, StorageError | None]:
    """``storage`` if given, else the class database ``CAPITAL_LUX_DB`` names, opened; or None and
    why it cannot be (a page says so, and may try again later unless it is ``StorageMisconfigured``)."""
    if storage is not None:
        return storage, None
    try:
        return open_storage(), None
    except StorageError as error:
        return None, error
