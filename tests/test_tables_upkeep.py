"""A class's tables over a day: a process lets go of the games it no longer reads (and rebuilds
the same game if it reads one again), and a seated page's poll ends when its browser stops
ticking (the page closed while its kernel lives on), its seat then played by the stand-in."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from capital_lux.lessons import tables as T
from capital_lux.lessons.storage import Storage
from capital_lux.lessons.tables import Tables
from capital_lux.tutor import tables_app
from capital_lux.tutor.tables_app import TablesApp, build_app


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _finished(tables: Tables, seed: int) -> int:
    """A table of one learner and a random bot, played to its end."""
    info = tables.open("p-ada", 2, [None, "random"], seed=seed)
    tables.join(info.code, "p-ada", "Ada")
    rng = random.Random(seed)
    while not (frame := tables.frame(info.id, 0, "p-ada")).over:
        tables.play(info.id, 0, "p-ada", rng.choice(frame.choices), frame.turn)
    return info.id


def test_a_process_lets_go_of_finished_and_idle_games_and_rebuilds_the_same_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(T, "LIVE_MOST", 3)
    clock = Clock()
    tables = Tables(Storage(str(tmp_path / "class.sqlite3")), clock)
    done = _finished(tables, 1)
    history = list(tables.state(done).history)
    running = tables.open("p-bo", 2, [None, "rule"], seed=2)
    tables.join(running.code, "p-bo", "Bo")
    tables.state(running.id)
    assert tables.kept() == 2
    clock.now += T.LIVE_OVER_SECONDS + 1  # the finished game goes first, the running one stays
    tables.state(running.id)
    assert set(tables._live) == {running.id}
    assert list(tables.state(done).history) == history  # read again: rebuilt, the same game
    clock.now += T.LIVE_IDLE_SECONDS + 1
    tables.state(done)
    assert set(tables._live) == {done}  # the idle running game too
    more = [_finished(tables, seed) for seed in range(3, 6)]
    for table in more:
        tables.state(table)
        assert tables.kept() <= T.LIVE_MOST
    assert more[-1] in tables._live and done not in tables._live  # the least recently read went
    frame = tables.frame(running.id, 0, "p-bo")  # a game let go plays on where it stood
    tables.play(running.id, 0, "p-bo", frame.choices[0], frame.turn)


def _seated_page(storage: Storage, name: str, code: str) -> TablesApp:
    app: TablesApp = build_app("en", storage=storage, poll=False)._tables
    app.learner.name.value = name
    app.learner.code.value = code
    assert app.learner.joined == name
    return app


def test_a_closed_page_stops_ticking_its_poll_ends_and_its_seat_goes_to_the_stand_in(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables_app, "POLL_SECONDS", 0.05)
    # A page is gone (5 s) before its learner is away (the table's 10 s): while Ada's poll thread may
    # still be at work, no seat is away yet, so no poll can close the table for both being away.
    monkeypatch.setattr(tables_app, "GONE_SECONDS", 5.0)
    storage = Storage(str(tmp_path / "class.sqlite3"))
    storage.add_person("Ada", "ADA111")
    storage.add_person("Bo", "BOB222")
    ada, bo = _seated_page(storage, "Ada", "ADA111"), _seated_page(storage, "Bo", "BOB222")
    clock = Clock()
    for page in (ada, bo):
        page.clock = clock
        assert page.tables is not None
        page.tables.clock = clock
    ada.poll = True
    ada.seat_count.value = 2
    ada.away.value = 10
    ada.open_table()
    assert ada.seat is not None and ada.pulse.playing  # the browser ticks once seated
    bo.join_table(ada.tables.info(ada.seat.table).code)  # type: ignore[union-attr]
    assert ada.polling
    ada.pulse.value += 1  # a tick from Ada's browser
    assert ada.ticked == clock.now
    clock.now += tables_app.GONE_SECONDS + 1  # then silence: the page was closed
    deadline = time.monotonic() + 10
    while ada.polling and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not ada.polling, "the poll of a closed page ended"
    clock.now += 20  # no thread runs now: Ada is away, and Bo's page ticks on
    # Ada's seat is away (her kernel no longer says she is there); Bo's page plays on
    table = ada.seat.table
    bo.pulse.value += 1
    for _ in range(200):
        bo.check()
        frame = bo.seat.frame  # type: ignore[union-attr]
        if frame.stand_ins:
            break
        if frame.choices:
            bo.panel._play(frame.choices[0])  # type: ignore[union-attr]
        bo.pulse.value += 1
    assert {seat for _, seat in bo.seat.frame.stand_ins} == {0}  # type: ignore[union-attr]
    assert "Player 0 was away: the rule-of-thumb bot played for them." in bo.table_text.value
    ada.pulse.value += 1  # the tab wakes: it ticks, and its poll starts again
    assert ada.polling
    ada.stop()
    assert bo.tables is not None and bo.tables.info(table).closed is None
