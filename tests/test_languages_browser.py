"""A whole game in the tutor, in French, Brazilian Portuguese and Spanish, read back from the page.

Voila on loopback, Debian's Chromium driven by Playwright (the harness of
``tests/browser.py``). The learner clicks through a whole seeded 2-player game in French;
then the game log shown on the page is read in full, in French and again in each language the
page's picker switches to: every word that is an English word
of the project's texts must be one the language rightly shares with English
(``glossary.SHARED_WITH_ENGLISH``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from capital_lux.i18n import LANGUAGE_NAMES, load_template, translator
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


def test_a_whole_game_log_reads_in_each_language(server: str, chromium: Any) -> None:
    """The game is played once, in French; the language picker then redraws the same log in
    Brazilian Portuguese and in Spanish, each read in full as the French one was."""
    page, _ = B.open_tutor(chromium, f"{server}?lang=fr&players=2&seed=7&bots=rule")
    move = 0
    while B.learner_move(page, move):
        move += 1
        assert move < 200
    assert move > 20  # the whole game: three rounds of picks, plays and round ends
    read = {}
    for lang in ("fr", "pt", "es"):
        over = translator(lang).gettext("The game is over after round 3.")
        if lang != "fr":
            page.select_option(".cl-language select", label=LANGUAGE_NAMES[lang])
        page.wait_for_selector(f".cl-freeplay .cl-log:has-text({over!r})")
        read[lang] = page.inner_text(".cl-freeplay .cl-log")
    page.close()
    for lang, log in read.items():
        lines = [line for line in log.splitlines() if line.strip()]
        assert len(lines) > 60, lang
        assert not english_left(log, lang), (lang, sorted(english_left(log, lang)))
    assert len(set(read.values())) == 3  # three texts, not one read three times
