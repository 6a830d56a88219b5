"""Where the printed French rulebook differs from the rulings, the French tutor says so."""

from __future__ import annotations

import re
from html import escape

import pytest

from capital_lux.engine.rules import excess
from capital_lux.i18n import translator
from capital_lux.i18n.editions import EDITION_NOTES, edition_notes
from capital_lux.lessons.exercises import EXERCISES_BY_ID, solution_text


@pytest.mark.parametrize(("exercise", "ruling", "printed"), [
    ("deck-short", "R15", "à la fin de la 3ème manche"),
    ("exceed-with-gold", "R6", "la différence (entre le nombre de vos cartes"),
])
def test_the_french_solution_says_what_the_printed_rulebook_says(exercise: str, ruling: str, printed: str) -> None:
    ex = EXERCISES_BY_ID[exercise]
    assert f"ruling {ruling}" in ex.solution
    french = solution_text(ex, translator("fr"), html=False)
    assert printed in french and "le tuteur les suit" in french
    for lang in ("en", "es", "pt"):  # their rulebooks agree with the tutor: no note
        assert "French" not in solution_text(ex, translator(lang), html=False)
        assert "franc" not in solution_text(ex, translator(lang), html=False)


@pytest.mark.parametrize("lang", ["es", "pt"])
def test_every_translation_of_a_note_names_the_french_edition(lang: str) -> None:
    for _, note in EDITION_NOTES.values():
        assert re.search(r"franc[eé]s|francês", translator(lang).gettext(note)), note


def test_only_cited_rulings_get_a_note() -> None:
    fr = translator("fr")
    assert len(edition_notes(fr, "(rulings R6, R7)")) == 1 and edition_notes(fr, "(ruling R16)") == []
    assert len(edition_notes(fr, "R15 and R6")) == 2


def test_the_gold_example_lesson_states_the_rulebook_and_the_position_figures() -> None:
    from capital_lux.tutor.chapters import chapters
    from capital_lux.tutor.chapters import prepared_session

    # the rulebook's picture: Capital 9, 3, 9, 12 against Hometown 11, 4, 6, 13, 3 discs keep blue and
    # yellow and the pink card goes: the exceeding colours are 2, 1, 1, so blue + yellow = 3, pink = 1
    over = sorted(h - c for c, h in zip((9, 3, 9, 12), (11, 4, 6, 13)) if h > c)
    assert over == [1, 1, 2] and sum(over) - 3 == 1
    lesson = next(l for ch in chapters() for l in ch.lessons if l.key == "gold_example")
    text = translator("en").gettext(lesson.text)
    assert "pink by 1" in text and "blue and yellow exceed by 3 together" in text
    # and what the lesson says of its own position is true of it, once the round has ended
    session = prepared_session("gold_example")
    state = session.game.state
    assert state.phase == "gold"
    assert [excess(state, session.seat, c) for c in "BYP"] == [1, 2, 5] and state.gold[session.seat] == 3
    assert "blue by 1, yellow by 2 and pink by 5" in text


@pytest.mark.parametrize(("chapter", "printed"), [
    ("draft", "à la fin de la 3ème manche"),  # the short deal, R15
    ("roundend", "la différence (entre le nombre de vos cartes"),  # the gold paid, R6
])
def test_the_french_chapter_that_explains_the_rule_says_what_the_printed_rulebook_says(
        chapter: str, printed: str) -> None:
    from capital_lux.tutor.chapters import chapters, rulings_html

    found = next(ch for ch in chapters() if ch.key == chapter)
    rulings = found.rulings + tuple(r for lesson in found.lessons for r in lesson.rulings)
    french = rulings_html(translator("fr"), rulings)
    assert printed in french.replace("&#x27;", "'") and "le tuteur les suit" in french
    for lang in ("en", "es", "pt"):
        assert "cl-edition" not in rulings_html(translator(lang), rulings)


@pytest.mark.parametrize("lang", ["en", "fr", "es", "pt"])
def test_a_lessons_rulings_are_said_in_place_in_the_readers_language(lang: str) -> None:
    # Every chapter sent a web learner to "docs/rules.md", a developers' file in English.
    from capital_lux.lessons.chapters import CHAPTERS
    from capital_lux.lessons.rulings import RULINGS
    from capital_lux.tutor.chapters import rulings_html

    assert set(RULINGS) == {f"R{n}" for n in range(1, 22)}
    t = translator(lang)
    cited = {r for chapter in CHAPTERS for r in chapter.rulings}
    cited |= {r for chapter in CHAPTERS for lesson in chapter.lessons for r in lesson.rulings}
    assert cited
    for ruling in sorted(cited):
        html = rulings_html(t, (ruling,))
        assert "docs/rules.md" not in html and escape(t.gettext(RULINGS[ruling])) in html
        assert lang == "en" or t.gettext(RULINGS[ruling]) != RULINGS[ruling]
