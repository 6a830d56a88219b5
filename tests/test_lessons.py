"""The lessons as data: every stored position replays and shows what its lesson is about."""

from __future__ import annotations

from importlib import resources
from typing import Any

import pytest

from capital_lux.engine.position import loads_record
from capital_lux.engine.rules import cleric_options
from capital_lux.engine.state import GOLD, PLAY
from capital_lux.i18n import translator
from capital_lux.lessons import positions
from capital_lux.lessons.chapters import CHAPTERS
from capital_lux.tutor.chapters import prepared_session


def hand_has(state: Any, colour: str) -> bool:
    return any(c.colour == colour for c in state.hands[0])


POSITION_FACTS = {
    "setup": lambda s: s.round == 1,
    "draft": lambda s: s.phase == "draft" and s.draft_step == 1 and s.round == 1,
    "hometown": lambda s: s.phase == PLAY,
    "scholar": lambda s: s.phase == PLAY and hand_has(s, "G") and s.deck_size() > 0,
    "merchant": lambda s: s.phase == PLAY and hand_has(s, "Y") and s.gold_pile > 0,
    "agent": lambda s: s.phase == PLAY and hand_has(s, "B") and len(s.modifier_deck) > 0,
    "cleric": lambda s: s.phase == PLAY and hand_has(s, "P") and len(cleric_options(s)) >= 2,
    "cleric_one": lambda s: s.phase == PLAY and hand_has(s, "P") and len(cleric_options(s)) == 1,
    "cleric_none": lambda s: s.phase == PLAY and hand_has(s, "P") and not cleric_options(s),
    "scholar_last": lambda s: s.phase == PLAY and [c.colour for c in s.hands[0]] == ["G"] and s.deck_size() > 0,
    "agent_empty": lambda s: s.phase == PLAY and hand_has(s, "B") and not s.modifier_deck,
    "last_turns": lambda s: s.phase == PLAY and s.last_turns is not None,
    "gold": lambda s: s.phase == GOLD and len(s.legal_actions()) >= 2,
    "final": lambda s: s.phase == PLAY and s.round == 3 and s.last_turns == [],
    "tie_break": lambda s: s.phase == PLAY and s.round == 3 and s.last_turns == [],
    "gold_example": lambda s: s.phase == GOLD and s.gold[0] == 3,
    "bonus_tie": lambda s: s.phase == PLAY and s.starting_player == 1 and s.current_player() == 0,
}


@pytest.mark.parametrize("name", sorted(POSITION_FACTS))
def test_each_stored_position_replays_and_shows_its_lesson(name: str) -> None:
    text = resources.files(positions).joinpath(f"{name}.json").read_text("utf-8")
    state = loads_record(text, check_seed=False).replay()  # every action checked again by today's rules
    game, seat, _ = positions.load(name)
    assert game.state == state and state.current_player() == seat
    assert POSITION_FACTS[name](state), name


def test_every_lesson_has_a_stored_position_and_every_position_a_lesson() -> None:
    keys = {lesson.position for chapter in CHAPTERS for lesson in chapter.lessons}
    assert keys == set(positions.names()) == set(POSITION_FACTS)


def test_chapter_texts_name_no_one_who_is_not_at_the_table() -> None:
    t = translator("en")
    for chapter in CHAPTERS:
        texts = [*chapter.intro] + [x for lesson in chapter.lessons for x in (lesson.text, lesson.done)]
        for text in texts:
            for name in ("John", "Mary", "Bob", "ruling R", "Bot 0"):
                assert name not in t.gettext(text), (chapter.key, text)


def test_the_first_chapter_teaches_the_goal_the_cards_and_the_limit() -> None:
    intro = " ".join(CHAPTERS[0].intro)
    assert "The goal" in intro and "18 per colour" in intro
    assert "three 2s, four 3s, four 4s, four 5s and three 6s" in intro
    assert "limit" in intro and "modifiers placed above it" in intro
    assert "stay on the table" in " ".join(CHAPTERS[2].intro)


def test_a_lesson_session_starts_at_the_stored_position() -> None:
    session = prepared_session("bonus_tie")
    assert session.seat == 0 and session.learner_to_move()


def test_the_tutors_first_screen_imports_no_schema_validator() -> None:
    """jsonschema's import compiles format grammars (about a second of CPU in every learner's
    kernel); the first screen, a chapter on the package's own positions, needs none of it."""
    import subprocess
    import sys

    script = ("import sys\nfrom capital_lux.tutor import build_app, options_from_query\n"
              "build_app(**options_from_query(''))\n"
              "print(sorted(m for m in ('jsonschema', 'matplotlib.pyplot') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_the_rulebooks_gold_example_names_each_colour_with_its_numbers() -> None:
    # "(Capital 9, 3, 9, 12 against Hometown 11, 4, 6, 13)": a learner could not map the numbers.
    from capital_lux.i18n import translator
    from capital_lux.lessons.chapters import CHAPTERS

    [lesson] = [lesson for chapter in CHAPTERS for lesson in chapter.lessons if lesson.key == "gold_example"]
    english = lesson.text
    assert "blue 9, yellow 3, green 9, pink 12" in english and "blue 11, yellow 4, green 6, pink 13" in english
    assert "bleu 9, jaune 3, vert 9, rose 12" in translator("fr").gettext(english)


def test_the_cleric_lessons_open_in_round_1_with_nothing_untaught_on_the_table() -> None:
    """Bonus cards and the round end's gold are taught in chapter 4: chapter 3's Cleric and
    last-Scholar lessons open in round 1 with no bonus card and no gold disc anywhere."""
    for name in ("cleric", "cleric_one", "scholar_last"):
        state = positions.load(name)[0].state
        assert state.round == 1, name
        assert not any(state.bonus) and not any(state.gold), name
        assert not state.discards, name
