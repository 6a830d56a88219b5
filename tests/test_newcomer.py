"""What a newcomer stumbled on in the chapters, the what-if page and the exercises tab
(``test_newcomer_browser.py`` checks the round-end pause in a real browser)."""

from __future__ import annotations

import re

import ipywidgets as W
import pytest

from capital_lux.engine.notation import HOME, Play
from capital_lux.i18n import translator
from capital_lux.lessons import gallery
from capital_lux.lessons.chapters import CHAPTERS, TIE_BREAKS_TAUGHT_IN
from capital_lux.tutor import build_app
from capital_lux.tutor.app import FreePlay, TutorApp
from capital_lux.tutor.chapters import ChapterView, prepared_session
from capital_lux.tutor.panel import GamePanel
from capital_lux.tutor.roundend import REPORTED
from capital_lux.tutor.text import event_line
from capital_lux.tutor.whatif_app import WhatIfApp


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# -- 1. the score sheet shows only what has been taught -------------------------------------
def test_the_tie_break_columns_wait_for_the_chapter_that_explains_them() -> None:
    t = translator("en")
    taught = [c.key for c in CHAPTERS].index(TIE_BREAKS_TAUGHT_IN)
    for index in (0, 3, taught):
        sheet = ChapterView(t, CHAPTERS[index]).panel.scores.value
        assert ("<th>6s</th>" in sheet) == (index >= taught), CHAPTERS[index].key
        assert "Hometown" in sheet and "score" in sheet  # the rest of the sheet is there
    free = FreePlay(t, 3, 5, "random").panel.scores.value
    assert all(f"<th>{x}s</th>" in free for x in (6, 5, 4, 3, 2))  # free play: the whole sheet


# -- 3. the round end: a pause, each event said once, the next round on "Continue" ---------
def played_to_the_round_end() -> GamePanel:
    session = prepared_session("last_turns")
    panel = GamePanel(translator("en"), session, extras=False)
    panel._act(session.view().legal_actions[0])
    assert session.reports and session.state.round == 2  # the session is already in round 2's draft
    return panel


def test_the_page_pauses_on_the_round_end_until_the_learner_continues() -> None:
    panel = played_to_the_round_end()
    report = panel.session.reports[-1]
    assert panel.paused_on() is report
    assert panel.pause_box.layout.display is None and panel.box.children[0] is panel.pause_box  # on top
    assert "Round 1 end, step by step" in panel.pause_text.value
    assert panel.controls.box.layout.display == "none"  # no draft of round 2 to act on yet
    table = text_of(panel.table.value)
    assert "Round 1 of 3" in table and 'data-phase="gold"' in panel.table.value
    assert panel.continue_button.description == "Continue to round 2"
    panel.continue_button.click()
    assert panel.paused_on() is None and panel.pause_box.layout.display == "none"
    assert "Round 2 of 3" in text_of(panel.table.value) and panel.controls.box.layout.display is None
    assert panel.session.view().legal_actions  # the learner's draft of round 2


def test_each_round_end_event_is_said_once_during_the_pause() -> None:
    panel = played_to_the_round_end()
    t, report = panel.t, panel.session.reports[-1]
    page = text_of(panel.pause_text.value + panel.recent.value + panel.log.value + panel.roundend.value)
    told = [e for e in report.events if e.kind in REPORTED and e.kind != "reveal"]
    assert len(told) > 5
    for event in told:
        line = text_of(event_line(t, event, panel.session.seat)).strip()
        assert page.count(line) == 1, line
    assert "You play" in text_of(panel.recent.value)  # the learner's decision stays in view
    assert "round 2" not in page.lower().replace("continue to round 2", "")


def test_free_play_pauses_too_and_a_new_game_does_not() -> None:
    free = FreePlay(translator("en"), 2, 3, "random")
    panel = free.panel
    while not panel.session.reports:
        v = panel.session.view()
        plays = [a for a in v.legal_actions if isinstance(a, Play) and a.to == HOME]
        panel._act(plays[0] if plays else v.legal_actions[0])
    assert panel.paused_on() is not None and panel.hint is not None and panel.risk is not None
    assert panel.hint.box.layout.display == "none" and panel.hint.button.disabled
    panel.risk.wait()  # the last decision's figures, had they been left running, would be back by now
    assert panel.risk.lines.value == ""  # the risk lines sit beside the hand: none on a round already ended
    free.start()  # a new game: nothing to read from the last one
    assert panel.paused_on() is None and panel.controls.box.layout.display is None


# -- 4. the what-if page: one name per seat, the viewer's own moves said as theirs -------------
def test_the_what_if_page_says_your_moves_and_names_each_seat_one_way() -> None:
    app = WhatIfApp("en", "rulebook-bonus")
    mover = app.state.current_player()
    assert app.seen_by.value == mover
    labels = [label for label, _ in app.move.options]
    assert any("into your Hometown" in label for label in labels)
    assert not any("their" in label for label in labels)
    app.move.value = next(value for value in (v for _, v in app.move.options) if value.startswith("home"))
    app.play()
    log = text_of(app.log.value)
    assert "You play" in log and "into your Hometown" in log and "Bot" not in log
    assert "into your Hometown" in app.message.value
    table = text_of(app.table.value)
    assert "You" in table and "Bot" not in table
    other = (mover + 1) % app.state.players
    app.seen_by.value = other  # another seat's eyes: the mover is "Player 2" everywhere
    assert f"Player {mover} plays" in text_of(app.log.value)
    assert all("your Hometown" not in label for label, _ in app.move.options)


@pytest.mark.parametrize("lang", ["en", "fr", "es", "pt"])
def test_the_gallery_names_the_rulebooks_players_by_their_seats(lang: str) -> None:
    t = translator(lang)
    for title in gallery.TITLES.values():
        for name in ("Mary", "María", "Maria", "Bob", "John", "Pedro"):
            assert name not in t.gettext(title), (lang, title)


# -- 5. the exercises and what-if tabs never open blank -----------------------------------------
@pytest.mark.parametrize("lang, loading", [("en", "Loading this page"), ("fr", "Chargement de la page")])
def test_the_extra_tabs_show_a_heading_and_a_loading_line_before_they_are_built(lang: str, loading: str) -> None:
    W.Widget.close_all()
    app = build_app(lang)._tutor
    assert isinstance(app, TutorApp)
    for name, slot in app.extra_slots.items():
        assert name not in app.extras  # not built yet
        shown = "".join(child.value for child in slot.children if isinstance(child, W.HTML))
        assert "<h2>" in shown and loading in shown, name
    app.tabs.selected_index = len(app.chapter_list) + 1  # the exercises tab
    assert "exercises" in app.extras and app.extra_slots["exercises"].children[0] is app.extras["exercises"].root
