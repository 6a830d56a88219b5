"""A whole game in the tutor, in French and in Brazilian Portuguese, read back from the page.

Voila on loopback, Debian's Chromium driven by Playwright (the harness of
``tests/browser.py``). The learner clicks through a whole seeded 2-player game;
then the game log shown on the page is read in full: every word that is an English word
of the project's texts must be one the language rightly shares with English
(``glossary.SHARED_WITH_ENGLISH``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from capital_lux.i18n import load_template, translator
from capital_lux.i18n.glossary import SHARED_WITH_ENGLISH
import browser as B

pytestmark = [pytest.mark.browser, pytest.mark.slow]

_WORD = re.compile(r"[^\W\d_]{2,}")


def english_words() -> set[str]:
    """Every word of the English msgids (placeholders removed), lower case."""
    words: set[str] = set()
    for message in load_template():
        for text in ([message.id] if isinstance(message.id, str) else list(message.id)):
            words.update(w.lower() for w in _WORD.findall(re.sub(r"\{[^{}]*\}", " ", text)))
    return words


def english_left(text: str, lang: str) -> set[str]:
    found = {w.lower() for w in _WORD.findall(text)}
    return (found & english_words()) - SHARED_WITH_ENGLISH[lang]


def test_the_check_finds_english() -> None:
    assert english_left("Robot 1 plays ● Marchand 3 (jaune) into their Cité.", "fr") == {"plays", "into", "their"}
    assert not english_left("Robot 1 joue ● Marchand 3 (jaune) dans sa Cité.", "fr")


@pytest.fixture(scope="module")
def server(tutor_server: str) -> str:
    """The tutor server this test process shares (``conftest.tutor_server``)."""
    return tutor_server


@pytest.mark.parametrize("lang", ["fr", "pt"])
def test_a_whole_game_log_reads_in_the_language(server: str, chromium: Any, lang: str) -> None:
    page, _ = B.open_tutor(chromium, f"{server}?lang={lang}&players=2&seed=7&bots=rule")
    move = 0
    while B.learner_move(page, move):
        move += 1
        assert move < 200
    log = page.inner_text(".cl-freeplay .cl-log")
    lines = [line for line in log.splitlines() if line.strip()]
    page.close()
    assert move > 20 and len(lines) > 60  # the whole game: three rounds of picks, plays and round ends
    assert translator(lang).gettext("The game is over after round 3.") in log
    assert not english_left(log, lang), sorted(english_left(log, lang))
