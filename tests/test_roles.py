"""Each server's own role in the class database under JupyterHub (``capital_lux.serve.roles``).

Against the throwaway PostgreSQL of ``test_storage`` (skipped there, with the reason, without one).
"""

from __future__ import annotations

from typing import Any

import pytest

from test_storage import _databases, postgres  # noqa: F401 (the fixture)

from capital_lux.lessons.storage import Storage, StorageError
from capital_lux.serve.roles import prepare, retire, role_name, server_url


def _class_database(postgres: str, owner: str = "postgres") -> str:  # noqa: F811
    import psycopg

    name = f"class_{next(_databases)}"
    with psycopg.connect(postgres, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name} OWNER {owner}")
    return postgres.rsplit("/", 1)[0].replace("postgres@", f"{owner}@") + "/" + name


def _password(postgres: str, role: str) -> Any:  # noqa: F811
    import psycopg

    with psycopg.connect(postgres) as connection:
        return connection.execute("SELECT rolpassword FROM pg_authid WHERE rolname = %s", (role,)).fetchone()[0]


def test_a_servers_role_reads_and_writes_the_class_rows_and_nothing_else(postgres: str) -> None:  # noqa: F811
    import psycopg

    owner = _class_database(postgres)
    prepare(owner)
    learner = server_url(owner, "alice")
    assert learner.startswith(f"postgresql://{role_name('alice')}:") and "postgres@" not in learner
    with Storage(learner) as storage:  # opens the database the owner brought up to date, with no right to change it
        storage.set_name("s1", "Alice")
        storage.record_attempt("s1", "deal-any-six", "1/2", False)
        assert [a.answer for a in storage.attempts()] == ["1/2"]
    with psycopg.connect(learner, autocommit=True) as connection:
        for statement in ("CREATE TABLE mine (a INTEGER)", "DROP TABLE attempts", "ALTER TABLE learners ADD x INT"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                connection.execute(statement)
    first = _password(postgres, role_name("alice"))
    assert server_url(owner, "alice") != learner and _password(postgres, role_name("alice")) != first
    retire(owner, "alice")  # the server stopped: its password opens nothing
    assert _password(postgres, role_name("alice")) is None


def test_an_owner_that_may_not_make_roles_is_told_what_it_needs(postgres: str) -> None:  # noqa: F811
    import psycopg

    with psycopg.connect(postgres, autocommit=True) as connection:
        connection.execute("CREATE ROLE class_owner LOGIN")
    owner = _class_database(postgres, "class_owner")
    with pytest.raises(StorageError, match="CREATEROLE"):
        prepare(owner)
