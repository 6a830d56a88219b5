"""One name per seat: the review's summary and the what-if explorer's "Seen by" call a seat
what the game page, the score sheet and the log call it (``sentences.player_name``)."""

from __future__ import annotations

import pytest

from capital_lux.analysis.review import Review
from capital_lux.analysis.review_text import summary_rows
from capital_lux.i18n import translator
from capital_lux.i18n.sentences import LEARNER, TERMINAL, player_name


def _names(rows: list[list[str]]) -> list[str]:
    return list(dict.fromkeys(row[0] for row in rows))  # each seat once, in the summary's order


@pytest.mark.parametrize("lang", ["en", "fr", "es", "pt"])
def test_the_review_summary_names_each_seat_as_the_page_does(lang: str) -> None:
    t = translator(lang)
    review = Review(players=3, seed=4, seat=1, model="rule", review_seed=0, games=20, decisions=[], complete=True)
    page = [player_name(t, 1, 1), player_name(t, 0, 1), player_name(t, 2, 1)]  # the reviewed seat first
    assert _names(summary_rows(t, review, LEARNER)) == page
    assert page[0] == t.gettext("You") and page[1] == t.gettext("Bot {seat}").format(seat=0)
    people = [player_name(t, 1, 1, bots=False), player_name(t, 0, 1, bots=False), player_name(t, 2, 1, bots=False)]
    assert _names(summary_rows(t, review, LEARNER, bots=False)) == people
    assert people[1] == t.gettext("Player {seat}").format(seat=0) != page[1]
    # The terminal keeps its own names, as its replay and play commands call the seats.
    terminal = _names(summary_rows(t, review))
    assert terminal[1:] == [player_name(t, 0, None, TERMINAL), player_name(t, 2, None, TERMINAL)]
    assert terminal[0] == t.gettext("{player} (reviewed)").format(player=player_name(t, 1, None, TERMINAL))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_whatif_seen_by_names_the_seats_as_its_table_does(lang: str) -> None:
    from capital_lux.tutor.whatif_app import build_app

    app = build_app(lang=lang, name="rulebook-bonus")._whatif
    t = translator(lang)
    seats = range(app.state.players)
    assert [label for label, _ in app.seen_by.options] == [player_name(t, p, None, bots=False) for p in seats]
    other = next(p for p in seats if p != app.seen_by.value)
    assert player_name(t, other, app.seen_by.value, bots=False) in app.table.value  # the table's name for it


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_pass_and_play_calls_the_other_people_players_as_the_cover_does(lang: str) -> None:
    """At a table of people no seat is a bot: the panel's score sheet and log say "Player 1",
    the same number as the cover's "Pass to Player 1"."""
    import random
    from html import escape

    from capital_lux.tutor.tables_app import build_hotseat

    t = translator(lang)
    app = build_hotseat(lang, 3)._hotseat
    rng = random.Random(2)
    covers: set[str] = set()
    shown: list[str] = []
    for _ in range(12):  # the first draft picks and plays, each player uncovering their hand
        if app.shown is None:
            covers.add(app.cover_text.value)
            app.reveal_button.click()
            continue
        shown.append(app.panel.table.value)  # the score sheet: every seat by name
        app.panel._play(rng.choice(app.seats[app.shown].view().legal_actions))
    assert any(escape(t.gettext("Pass to Player {number}").format(number=1)) in c for c in covers)
    assert shown and not any(t.gettext("Bot {seat}").format(seat=n) in text for text in shown for n in (1, 2))
    assert all(sum(t.gettext("Player {seat}").format(seat=n) in text for n in range(3)) == 2 for text in shown)
