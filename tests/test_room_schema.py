"""Schema version 9: the unwritten ``key_failures`` table leaves a class database from before,
and nothing else in it changes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from capital_lux.lessons.storage import SCHEMA_VERSION, Storage


def _tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as connection:
        return {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_a_version_8_database_loses_its_key_failures_table_and_keeps_its_answers(tmp_path: Path) -> None:
    path = tmp_path / "class.sqlite3"
    with Storage(str(path)) as storage:
        storage.set_name("s1", "Ana")
        storage.record_attempt("s1", "deal-any-six", "1/2", False)
    # as a version 8 database was: the table there, with a row a server of then had written
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE key_failures (at DOUBLE PRECISION NOT NULL)")
        connection.execute("INSERT INTO key_failures (at) VALUES (1.5)")
        connection.execute("UPDATE schema_version SET version = 8")
    assert "key_failures" in _tables(path)
    with Storage(str(path)) as storage:
        assert storage.schema_version() == SCHEMA_VERSION == 9
        [attempt] = storage.attempts()
        assert (attempt.name, attempt.answer, attempt.correct) == ("Ana", "1/2", False)
    assert "key_failures" not in _tables(path)
    assert {"learners", "attempts", "roster", "game_tables"} <= _tables(path)


def test_a_new_database_never_has_the_table(tmp_path: Path) -> None:
    path = tmp_path / "class.sqlite3"
    Storage(str(path)).close()
    assert "key_failures" not in _tables(path)
    assert "schema_version" in _tables(path)
