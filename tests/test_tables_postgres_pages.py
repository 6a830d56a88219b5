"""The class tables' page on PostgreSQL, as on JupyterHub where each learner's page is a process
of its own: two processes, each a ``TablesApp`` with its own poll thread and its own connection,
sit at one table and play a whole game; both end on the same scores and the record the database
keeps, every decision stored once by its own learner. PostgreSQL is started from Debian's
binaries by ``test_storage``'s fixture, which skips saying why when it cannot."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg

from capital_lux.engine.position import dumps_record
from capital_lux.lessons.storage import Storage
from capital_lux.lessons.tables import Tables

from test_storage import postgres  # noqa: F401  (the fixture: a throwaway PostgreSQL server)

PEOPLE = [("Ada", "ADA111"), ("Bo", "BOB222")]

#: One learner's page in a process of its own: join the class, open (or join) the table, and
#: decide as the page's buttons do whenever the seat must, until the game is over.
PAGE = r"""
import json, sys, time
from pathlib import Path
from capital_lux.lessons.storage import open_storage
from capital_lux.tutor import tables_app

name, code, role, codefile = sys.argv[1:5]
app = tables_app.build_app("en", storage=open_storage(), poll=True)._tables
app.learner.name.value, app.learner.code.value = name, code
assert app.learner.joined == name, app.learner.note.value
if role == "open":
    for aid in ("risk", "hint", "compare"):  # the page's table and review only: two processes on two cores
        app.aid_boxes[aid].value = False
    app.seat_count.value = 2
    app.open_table()
    Path(codefile + ".tmp").write_text(app.tables.info(app.seat.table).code)
    Path(codefile + ".tmp").rename(codefile)
else:
    while not Path(codefile).exists():
        time.sleep(0.05)
    app.join_table(Path(codefile).read_text())
refusals = []
say = app.seat.on_refused
app.seat.on_refused = lambda refusal: (refusals.append(str(refusal)), say(refusal))
deadline = time.monotonic() + 300
decided = 0
while not app.seat.is_over():
    assert time.monotonic() < deadline, "the game did not end"
    if app.seat.learner_to_move():
        app.panel._play(app.seat.view().legal_actions[0])  # as a click on the page does
        decided += 1
    else:
        time.sleep(0.05)
assert app.polling, "the page polled to the end"
print(json.dumps({"seat": app.seat.seat, "scores": list(app.seat.frame.scores), "decided": decided,
                  "refused": refusals}))
"""


def test_two_processes_play_one_table_on_postgresql(postgres: str, tmp_path: Path) -> None:  # noqa: F811
    url = postgres.rsplit("/", 1)[0] + "/tables_pages"
    with psycopg.connect(postgres, autocommit=True) as connection:
        connection.execute("DROP DATABASE IF EXISTS tables_pages")
        connection.execute("CREATE DATABASE tables_pages")
    with Storage(url) as storage:
        for name, code in PEOPLE:
            storage.add_person(name, code)
    codefile = str(tmp_path / "code")
    env = {**os.environ, "CAPITAL_LUX_DB": url}
    pages = [subprocess.Popen([sys.executable, "-c", PAGE, name, code, role, codefile], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for (name, code), role in zip(PEOPLE, ("open", "join"))]
    results = []
    for page in pages:
        out, err = page.communicate(timeout=400)
        assert page.returncode == 0, err[-3000:]
        results.append(json.loads(out.strip().splitlines()[-1]))
    with Storage(url) as storage:
        tables = Tables(storage)
        [table] = tables.all_tables()
        state = tables.state(table.id)
        assert state.is_terminal()
        assert [r["scores"] for r in results] == [list(state.scores())] * 2  # one game, one truth
        made = tables.who_made(table.id)
        assert {by for _, _, by, _ in made} == {"learner"}
        for r in results:  # each decision its page made was stored once, by its own learner
            assert len([m for m in made if m[1] == r["seat"]]) == r["decided"]
            assert r["refused"] == []  # a page offers only what its seat may decide now
        assert dumps_record(tables.record(table.id))  # the record review reads
