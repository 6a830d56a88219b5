"""An answer kept while the class database was away, and then refused by it for good, is told
to its learner's page (not only logged): their teacher does not see it."""

from __future__ import annotations

from pathlib import Path

import pytest

from capital_lux.lessons.classroom import set_identity_mode
from capital_lux.lessons.outbox import new_token, now
from capital_lux.lessons.storage import Storage, StorageError


def test_a_kept_answer_the_database_refuses_is_told_to_the_learner_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from test_teachers_day import _answer

    storage = Storage(str(tmp_path / "class.sqlite3"))
    set_identity_mode(storage, "open")
    page = _answer(storage, "Ana", "modifier-after-draw", "1/2")
    learner = page.learner
    for answer in ("3/4", "2/5"):  # kept while the database was away
        learner.outbox.keep(learner.page, {"session": learner.session, "exercise": "modifier-after-draw",
                                           "answer": answer, "correct": False, "at": now(), "token": new_token(),
                                           "page": learner.page})
    record = storage.record_attempt

    def refusing(session: str, exercise: str, answer: str, *rest: object) -> bool:
        if answer == "3/4":
            raise StorageError("refused for good")
        return record(session, exercise, answer, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(storage, "record_attempt", refusing)
    assert learner.send_pending()
    assert learner.pending == []
    note = learner.note.value
    assert "1 answer kept on the server could not be stored" in note and "3/4" in note and "2/5" not in note
    assert "every answer kept here reached your teacher" not in note
    assert [a.answer for a in storage.attempts()] == ["1/2", "2/5"]
    assert learner.outbox.take_refused(learner.session) == []  # told once
