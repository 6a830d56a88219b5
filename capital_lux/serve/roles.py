"""The class database under JupyterHub: the hub holds its owner's password, each server a role of its own.

Every server's kernels write the learners' answers, so every server needs a way into the class
database; none needs the owner's. The hub (``deploy/jupyterhub_config.py``) keeps the owner's
URL in its own configuration and:

- ``prepare``: at its start, brings the schema up to date with the owner's rights and keeps a
  group role, ``capital_lux_pages``, that may read and write the class's rows and nothing else
  (no table made, changed or dropped);
- ``server_url``: as it starts a person's server, gives that person a login role of their own
  in the group, with a password drawn there and then, and hands the server that URL alone;
- ``retire``: as the server stops, voids that password.

So the owner's password is never in a learner's environment, and a server's password opens
only its own rows' tables, only while it runs. The owner's role needs ``CREATEROLE``. A SQLite
class database (one machine) has no roles: its path is handed on as it is.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING
from urllib.parse import quote, urlsplit, urlunsplit

from ..engine.cards import N_
from ..lessons.storage import CONNECT_TIMEOUT, StorageError, open_storage

if TYPE_CHECKING:
    import psycopg
    from psycopg.rows import TupleRow

GROUP = "capital_lux_pages"
ROLE_PREFIX = "capital_lux_"


def is_postgresql(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def role_name(user: str) -> str:
    """The database role of ``user``'s server: their name in letters PostgreSQL keeps as they are,
    and a digest of it, so two names that read alike keep two roles.

    >>> role_name("alice")
    'capital_lux_alice_2bd806c9'
    >>> role_name("Zoë O'Neil")
    'capital_lux_zo__o_neil_5b7652dd'
    """
    readable = re.sub(r"[^a-z0-9]", "_", user.lower())[:30]
    return f"{ROLE_PREFIX}{readable}_{hashlib.sha256(user.encode()).hexdigest()[:8]}"


def with_login(url: str, role: str, password: str) -> str:
    """``url`` with another role and password.

    >>> with_login("postgresql://owner:secret@db.school:5432/class?sslmode=require", "r", "p/w")
    'postgresql://r:p%2Fw@db.school:5432/class?sslmode=require'
    """
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{quote(role, safe='')}:{quote(password, safe='')}@{host}"))


@contextmanager
def _owner(owner_url: str) -> Iterator[psycopg.Connection[TupleRow]]:
    """A connection with the owner's rights; what PostgreSQL refuses said as a ``StorageError``."""
    import psycopg

    try:
        with psycopg.connect(owner_url, autocommit=True, connect_timeout=CONNECT_TIMEOUT) as connection:
            yield connection
    except psycopg.errors.InsufficientPrivilege as error:
        raise _may_not_make_roles(str(error).strip()) from None
    except psycopg.Error as error:
        raise StorageError(N_("the class database does not answer: {reason}"), reason=str(error).strip()) from None


def _may_not_make_roles(reason: str) -> StorageError:
    return StorageError(N_("the class database’s role may not give each server a role of its own ({reason}): "
                           "give it the CREATEROLE attribute"), reason=reason)


def prepare(owner_url: str) -> None:
    """The class database's schema made or brought up to date, and the group that may use its rows."""
    open_storage(owner_url).close()
    if not is_postgresql(owner_url):
        return
    from psycopg import sql

    group = sql.Identifier(GROUP)
    with _owner(owner_url) as connection:
        me = connection.execute("SELECT rolcreaterole OR rolsuper, rolname FROM pg_roles WHERE rolname = current_user"
                                ).fetchone()
        assert me is not None, "the role connected is one of pg_roles"
        may, role = me
        if not may:  # said at the hub's start, not as the first learner's server starts
            raise _may_not_make_roles(role)
        if connection.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (GROUP,)).fetchone() is None:
            connection.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(group))
        current = connection.execute("SELECT current_schema()").fetchone()
        assert current is not None, "a SELECT without FROM gives one row"
        schema = sql.Identifier(current[0])
        for grant in ("GRANT USAGE ON SCHEMA {schema} TO {group}",
                      "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {group}",
                      "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema} TO {group}"):
            connection.execute(sql.SQL(grant).format(schema=schema, group=group))


def server_url(owner_url: str, user: str) -> str:
    """The class database's URL for ``user``'s server: their own role, with a password drawn now
    (the one their previous server had no longer opens it)."""
    if not is_postgresql(owner_url):
        return owner_url
    from psycopg import sql

    role, password = role_name(user), secrets.token_urlsafe(24)
    with _owner(owner_url) as connection:
        exists = connection.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
        statement = "ALTER ROLE {role} LOGIN PASSWORD {password}" if exists else \
            "CREATE ROLE {role} LOGIN PASSWORD {password} IN ROLE {group}"
        connection.execute(sql.SQL(statement).format(role=sql.Identifier(role), password=sql.Literal(password),
                                                     group=sql.Identifier(GROUP)))
    return with_login(owner_url, role, password)


def retire(owner_url: str, user: str) -> None:
    """``user``'s server has stopped: its password no longer opens the class database."""
    if not is_postgresql(owner_url):
        return
    from psycopg import sql

    with _owner(owner_url) as connection:
        if connection.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role_name(user),)).fetchone():
            connection.execute(sql.SQL("ALTER ROLE {} PASSWORD NULL").format(sql.Identifier(role_name(user))))
