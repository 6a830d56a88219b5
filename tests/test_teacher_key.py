"""The teacher is never locked out: wrong keys are limited per page and per client address, never
for the whole server, never kept across a class's restart, and ``make class-key`` draws a new
key that a running class takes at once and forgets every wrong key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from capital_lux.lessons.classroom import (CLIENT_VARIABLE, KEY_FAILURES_VARIABLE, MAX_ADDRESS_KEY_FAILURES,
                                           TEACHER_KEY_FILE_VARIABLE, TEACHER_KEY_VARIABLE, key_wait)
from capital_lux.lessons.storage import Storage, open_storage
from capital_lux.serve import classroom as launcher
from capital_lux.serve.guards import CLIENT_VARIABLE as SERVERS_CLIENT_VARIABLE
from capital_lux.tutor.teacher_app import MAX_KEY_TRIES, build_app

KEY = "a key of the teacher's own"


@pytest.fixture
def storage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Storage:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv(KEY_FAILURES_VARIABLE, str(tmp_path / "failures"))
    monkeypatch.setenv(TEACHER_KEY_VARIABLE, KEY)
    return open_storage(str(tmp_path / "class.sqlite3"))


def _page(storage: Storage, monkeypatch: pytest.MonkeyPatch, address: str) -> Any:
    """The teacher's page as the class server serves it to a browser at ``address``."""
    monkeypatch.setenv(CLIENT_VARIABLE, address)
    return build_app("en", storage=storage)._teacher


def _guess(page: Any, typed: str) -> bool:
    page.key.value = typed
    return bool(page.unlock())


def test_learners_guesses_on_many_pages_never_lock_the_right_key_out_of_another_browser(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    guesses = 0
    for learner, pages in (("10.0.0.21", 3), ("10.0.0.22", 6)):  # two learners, reloading the page to guess on
        for _ in range(pages):
            page = _page(storage, monkeypatch, learner)
            results = [_guess(page, f"guess {guesses + n}") for n in range(MAX_KEY_TRIES + 2)]
            guesses += MAX_KEY_TRIES
            assert not any(results)
    first = _page(storage, monkeypatch, "10.0.0.21")
    assert not any(_guess(first, f"guess {n}") for n in range(MAX_KEY_TRIES)) and first.key.disabled  # reload
    assert _page(storage, monkeypatch, "10.0.0.21").unlock() is False  # 20 from that address: it waits
    assert guesses > MAX_ADDRESS_KEY_FAILURES  # more than the old server-wide limit (20), which locked all out
    late = _page(storage, monkeypatch, "10.0.0.22")
    assert not _guess(late, KEY) and "Too many wrong keys from this network address" in late.lock_note.value
    teacher = _page(storage, monkeypatch, "10.0.0.5")  # a third browser: the teacher's
    assert _guess(teacher, KEY)


def test_a_class_restarted_or_a_new_key_drawn_forgets_every_wrong_key(
        storage: Storage, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for _ in range(MAX_ADDRESS_KEY_FAILURES // MAX_KEY_TRIES):
        page = _page(storage, monkeypatch, "10.0.0.21")
        for n in range(MAX_KEY_TRIES):
            _guess(page, f"guess {n}")
    assert key_wait("10.0.0.21", __import__("time").time()) > 0
    # make class-key, with the class's key in its file (as make class runs it)
    monkeypatch.delenv(TEACHER_KEY_VARIABLE)
    key_file = tmp_path / "data" / "capital-lux" / launcher.KEY_FILE
    monkeypatch.setenv(TEACHER_KEY_FILE_VARIABLE, str(key_file))
    lines = launcher.fresh_key(launcher.translator("fr"))
    new = lines[0].rsplit(" ", 1)[1]
    assert key_file.read_text().strip() == new and len(new) >= 16
    assert "oubliées" in lines[1]
    page = _page(storage, monkeypatch, "10.0.0.21")  # the same address, and the page already served
    assert not _guess(page, KEY)  # the old key opens nothing any more
    assert _guess(page, new)
    assert launcher.main(["key"]) == 0


def test_the_server_and_the_lessons_name_one_variable_for_the_clients_address() -> None:
    assert SERVERS_CLIENT_VARIABLE == CLIENT_VARIABLE
