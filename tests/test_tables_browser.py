"""Class tables in real browsers: four learners, each in a browser context of their own, play a
whole game at one table under Voila (``tables_browser.whole_game``: the teacher's aids, sitting
by code and from the list, a page closed mid-game and its seat played by the bot, its learner
back in her seat on a new page, every decision clicked through three rounds, the same final
scores on every page, the record read by ``capital-lux review``, and every byte each browser
received scanned for the other seats' hidden cards).

The module's one server keeps its class database on PostgreSQL, as JupyterHub does, started
from Debian's binaries by ``test_storage``'s fixture; where that cannot be, on SQLite, and the
test that says the pages ran on PostgreSQL is skipped with the reason. The pages poll at their
usual pace (0.4 s): a faster one (``CAPITAL_LUX_TABLES_POLL`` = 0.15) cost more CPU and no
less wall time on this 2-core machine.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

import pytest

from capital_lux.lessons.classroom import TEACHER_KEY_VARIABLE
import browser as B
from tables_browser import TEACHER_KEY, enrol, whole_game
from test_storage import postgres  # noqa: F401  (the fixture: a throwaway PostgreSQL server)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Why the module's pages did not run on PostgreSQL (empty when they did).
NO_POSTGRESQL: list[str] = []


@pytest.fixture(scope="module")
def class_database(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """PostgreSQL's URL for the class database, or where it cannot be started, an SQLite file."""
    try:
        server: str = request.getfixturevalue("postgres")
    except pytest.skip.Exception as why:
        NO_POSTGRESQL.append(str(why))
        return str(tmp_path_factory.mktemp("tables") / "class.sqlite3")
    import psycopg

    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute("DROP DATABASE IF EXISTS tables_browser")
        connection.execute("CREATE DATABASE tables_browser")
    return server.rsplit("/", 1)[0] + "/tables_browser"


@pytest.fixture(scope="module")
def school(class_database: str) -> Iterator[tuple[str, str, Any]]:
    if not os.path.exists(B.CHROMIUM):
        pytest.skip(f"no Chromium at {B.CHROMIUM}")
    sync_api = pytest.importorskip("playwright.sync_api")
    enrol(class_database)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(B, "NOTEBOOK", "notebooks")
        patch.setenv("CAPITAL_LUX_DB", class_database)
        patch.setenv(TEACHER_KEY_VARIABLE, TEACHER_KEY)
        B.ROOT.joinpath("test-artifacts").mkdir(exist_ok=True)
        with B.voila_server(B.ROOT / "test-artifacts" / "voila-tables.log", options=(B.UNPACED, *B.NONE_WARM)) as url, \
                sync_api.sync_playwright() as p:
            browser = B.launch(p)
            try:
                yield url, class_database, browser
            finally:
                browser.close()


def test_four_learners_play_a_whole_game_at_one_table_each_from_their_own_browser(
        school: tuple[str, str, Any], tmp_path: Path) -> None:
    url, database, browser = school
    figures = whole_game(url, database, browser, tmp_path)
    print(figures)


def test_the_tables_pages_ran_on_postgresql(school: tuple[str, str, Any]) -> None:
    if NO_POSTGRESQL:
        pytest.skip(f"the tables' pages ran on SQLite: {NO_POSTGRESQL[0]}")
    assert school[1].startswith("postgresql://")
