"""The class tables' page (``tutor.tables_app``): learners join the class with their code,
open and join a table, play it from their own pages, and a reload finds their seat."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from capital_lux.lessons.storage import Storage
from capital_lux.tutor.tables_app import TablesApp, build_app

PEOPLE = [("Ada", "ADA111"), ("Bo", "BOB222")]


@pytest.fixture
def storage(tmp_path: Path) -> Storage:
    storage = Storage(str(tmp_path / "class.sqlite3"))
    for name, code in PEOPLE:
        storage.add_person(name, code)
    return storage


def _page(storage: Storage, who: int, lang: str = "en") -> TablesApp:
    app: TablesApp = build_app(lang, storage=storage, poll=False)._tables
    name, code = PEOPLE[who]
    app.learner.name.value = name
    app.learner.code.value = code
    assert app.learner.joined == name
    return app


def _text(app: TablesApp) -> str:
    return re.sub(r"<[^>]+>", " ", app.message.value + app.table_text.value)


def test_two_learners_play_a_whole_game_from_their_own_pages(storage: Storage) -> None:
    ada, bo = _page(storage, 0), _page(storage, 1)
    ada.seat_count.value = 2
    ada.open_table()
    code = ada.tables.info(ada.seat.table).code
    assert code in _text(ada) and "Waiting for every seat" in _text(ada)
    bo.render()
    assert [value for _, value in bo.open_list.options] == [code]  # the list of open tables
    bo.open_list.value = code
    bo.join_listed.click()
    assert bo.seat is not None and bo.seat.seat == 1
    assert ada.panel is not None and ada.panel.undo_button.layout.display == "none"
    rng = random.Random(2)
    for _ in range(400):
        for page in (ada, bo):
            page.check()
            seat = page.seat
            if seat.learner_to_move():
                page.panel._play(rng.choice(seat.view().legal_actions))  # as a click on the page does
        if ada.seat.is_over() and bo.seat.is_over():
            break
    assert ada.seat.is_over() and bo.seat.is_over()
    assert ada.seat.frame.scores == bo.seat.frame.scores
    assert "Ada" in ada.table_text.value and "Bo" in ada.table_text.value and "(you)" in ada.table_text.value
    # each learner's own review, from their own seat
    assert ada.review.box.layout.display is None and ada.review.box in ada.game_box.children
    job = bo.review.start(games=2)
    assert job is not None
    bo.review.wait(120)
    assert bo.review.review is not None and bo.review.review.seat == 1


def test_a_reload_returns_the_learner_to_their_seat(storage: Storage) -> None:
    ada, bo = _page(storage, 0), _page(storage, 1)
    ada.seat_count.value = 2
    ada.open_table()
    bo.code.value = ada.tables.info(ada.seat.table).code
    bo.join_button.click()
    table = ada.seat.table
    again = _page(storage, 1)  # Bo reloads: the class identity, not a name, finds his seat
    assert again.seat is not None and (again.seat.table, again.seat.seat) == (table, 1)
    assert again.lobby.layout.display == "none"


def test_a_repeated_click_is_refused_with_a_sentence_in_the_learners_language(storage: Storage) -> None:
    ada, bo = _page(storage, 0, "fr"), _page(storage, 1)
    ada.seat_count.value = 2
    ada.open_table()
    bo.code.value = ada.tables.info(ada.seat.table).code
    bo.join_button.click()
    ada.check()  # the page learns the game started (its poll)
    seat = ada.seat
    choice = seat.view().legal_actions[0]
    turn = seat.frame.turn
    seat.play(choice)
    seat.frame = type(seat.frame)(**{**seat.frame.__dict__, "turn": turn})  # the page as it was before the click
    before = ada.tables.moves(seat.table)
    seat.play(choice)
    assert ada.tables.moves(seat.table) == before
    assert "déjà été joué" in ada.message.value


def test_a_learner_who_has_not_joined_the_class_cannot_sit(storage: Storage) -> None:
    page: Any = build_app("es", storage=storage, poll=False)._tables
    page.open_button.click()
    assert "Entra en la clase" in page.message.value and page.seat is None


def _shown_text(widget: Any) -> str:
    """Every value the page's displayed widgets hold (what the browser has to draw)."""
    parts = [str(getattr(widget, name, "")) for name in ("value", "description", "options")]
    for child in getattr(widget, "children", ()):
        parts.append(_shown_text(child))
    return " ".join(parts)


def test_pass_and_play_covers_the_screen_between_players_and_hides_the_last_hand() -> None:
    from capital_lux.tutor.tables_app import build_hotseat

    app = build_hotseat("en", 3)._hotseat
    rng = random.Random(4)
    covers, seen_by = 0, set()
    while covers < 16:  # the first round's draft and plays, three players taking turns
        if app.shown is None:
            covers += 1
            assert "Pass to Player" in app.cover_text.value and app.game_box.children == ()
            assert 'class="cl-card' not in _shown_text(app.root), "a card is drawn while the screen is covered"
            app.reveal_button.click()
            assert app.shown == app._waiting and 'class="cl-card' in _shown_text(app.root)
            seen_by.add(app.shown)
            continue
        panel, seat = app.panel, app.seats[app.shown]
        panel._play(rng.choice(seat.view().legal_actions))
        if app.shown is None:  # covered: the last hand's widgets are closed, the browser forgets them
            assert panel.box.comm is None and panel.table.comm is None
    assert seen_by == {0, 1, 2}


def test_the_teacher_sees_the_tables_their_records_and_closes_one(storage: Storage,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import base64

    from capital_lux.engine.position import loads_record
    from capital_lux.lessons.classroom import TEACHER_KEY_VARIABLE
    from capital_lux.lessons.tables import Tables
    from capital_lux.tutor.teacher_app import build_app as teacher_page

    tables = Tables(storage)
    done = tables.open("p-ada", 2, [None, "rule"], seed=11)
    tables.join(done.code, "p-ada", "Ada")
    rng = random.Random(3)
    while not (frame := tables.frame(done.id, 0, "p-ada")).over:
        tables.play(done.id, 0, "p-ada", rng.choice(frame.choices), frame.turn)
    running = tables.open("p-bo", 2, seed=12)
    tables.join(running.code, "p-bo", "Bo")
    tables.join(running.code, "p-cy", "Cy")
    monkeypatch.setenv(TEACHER_KEY_VARIABLE, "key of the teacher")
    teacher = teacher_page("en", storage=storage)._teacher
    teacher.key.value = "key of the teacher"
    assert teacher.unlock()
    teacher.refresh()
    view = teacher.tables_view
    assert view.box in teacher.body.children
    html = view.html.value
    assert done.code in html and running.code in html and "Ada" in html and "Bo" in html and "Cy" in html
    assert "over" in html and "round 1" in html
    data = re.search(r'base64,([^"]+)', html).group(1)
    record = loads_record(base64.b64decode(data))  # what ``capital-lux review`` reads
    assert record == tables.record(done.id)
    assert str(record.replay().scores()[0]) in html
    assert [value for _, value in view.picker.options] == [running.id]  # a finished game has nothing to close
    view.picker.value = running.id
    view.close_button.click()
    assert tables.info(running.id).closed_why == "teacher" and "closed" in view.html.value


def test_a_draft_choice_half_made_stays_when_another_players_move_redraws_the_page(storage: Storage) -> None:
    ada, bo = _page(storage, 0), _page(storage, 1)
    ada.seat_count.value = 2
    ada.open_table()
    bo.join_table(ada.tables.info(ada.seat.table).code)
    ada.check()
    controls = ada.panel.controls
    controls._toggle(0)  # Ada has chosen one card of the two she must set aside
    frame = bo.seat.frame
    bo.seat.play(frame.choices[0])  # Bo picks: Ada's page redraws
    ada.check()
    ada.render()  # redrawn, as the page's poll does when the table moved
    assert controls.chosen == {0} and "cl-selected" in controls.draft.items[0]._dom_classes
    controls._toggle(1)
    assert not controls.confirm_pick.disabled  # her two cards: she can set them aside


def test_every_seat_is_named_as_every_page_names_it_in_the_readers_language(storage: Storage) -> None:
    from capital_lux.i18n import translator
    from capital_lux.i18n.sentences import player_name

    ada = _page(storage, 0, "fr")
    ada.seat_count.value = 3
    ada.seat_kinds[1].value = "rule"
    ada.open_table()
    t = translator("fr")
    assert [w.description for w in ada.seat_kinds] == [player_name(t, s, None, bots=False) for s in (1, 2, 3)]
    seats = re.sub(r"<[^>]+>", "|", ada.table_text.value)
    for seat in range(3):  # "Joueur 0 : Ada (vous)", "Joueur 2 : …": the French colon, the names of the game page
        assert f"{player_name(t, seat, None, bots=False)}\u00a0:" in seats, seats
    assert "Joueur 0\u00a0: Ada" in seats


@pytest.mark.parametrize("setting, seconds", [("0.15", 0.15), ("fast", None), ("0", None), ("9", None)])
def test_the_pages_poll_is_set_by_the_environment_and_a_bad_setting_is_named(
        storage: Storage, monkeypatch: pytest.MonkeyPatch, setting: str, seconds: float | None) -> None:
    from capital_lux.lessons.tables import POLL_SECONDS
    from capital_lux.tutor.tables_app import POLL_SECONDS_VARIABLE

    monkeypatch.setenv(POLL_SECONDS_VARIABLE, setting)
    app = _page(storage, 0, "fr")
    if seconds is not None:
        assert app.poll_seconds == seconds and "cl-error" not in app.message.value
        return
    assert app.poll_seconds == POLL_SECONDS  # the usual pace, and the page says why
    said = _text(app)
    assert f"{POLL_SECONDS_VARIABLE}={setting}" in said and "0,05" in said and "rythme habituel" in said


def test_the_list_of_open_tables_follows_the_class_while_a_learner_waits_and_keeps_their_choice(
        storage: Storage) -> None:
    ada, bo = _page(storage, 0), _page(storage, 1)
    assert bo.pulse.playing and bo.open_list.options == ()  # joined the class: the page ticks
    ada.seat_count.value = 2
    ada.open_table()
    code = ada.tables.info(ada.seat.table).code
    assert bo.open_list.options == ()  # nothing drawn since
    bo.pulse.value += 1  # a tick from Bo's browser
    assert [value for _, value in bo.open_list.options] == [code]
    bo.open_list.value = code
    bo.pulse.value += 1
    assert bo.open_list.value == code  # the same list: the choice stays
    bo.join_listed.click()
    assert bo.seat is not None and bo.seat.seat == 1
