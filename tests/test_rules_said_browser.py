"""The four rules a learner used to meet only in play are said by chapter 4 (the round end),
in the browser, in each language: a bonus card leaves the Capital and lowers that colour's
limit; only a player who can pay in full is asked about gold; who starts when Hometown totals
tie; the modifiers shuffled back after rounds 1 and 2."""

from __future__ import annotations

from typing import Any

import pytest

import browser as B
from capital_lux.i18n import LANGUAGE_NAMES, translator

pytestmark = pytest.mark.browser

ARTIFACTS = B.ROOT / "test-artifacts"
#: Each rule's sentence (an English msgid of chapter 4's introduction), by its ruling.
RULES = {
    "R3": "A bonus card leaves the Capital: its winner keeps it and scores it, and from the next round on that "
          "colour's limit is lower by its value, for every player.",
    "R6": "Only a player who can pay a colour's whole difference in gold is asked about gold: paying part of it "
          "saves nothing. A player whose gold cannot pay in full for any exceeding colour is not asked, and those "
          "colours are discarded.",
    "R13": "When several players share the highest Hometown total (bonus cards do not count), the one reached "
           "first going clockwise from this round's starting player starts the next round, the starting player "
           "counting first.",
    "R12": "After rounds 1 and 2, all four modifiers, placed or not, are gathered and shuffled into a new modifier "
           "deck: the next round's Agents draw from all four again.",
}


@pytest.fixture(scope="module")
def server(tutor_server: str) -> str:
    """The tutor server this test process shares (``conftest.tutor_server``)."""
    return tutor_server


def test_chapter_4_says_the_four_rules_in_every_language(server: str, chromium: Any) -> None:
    from capital_lux.lessons.chapters import CHAPTERS

    roundend = next(c for c in CHAPTERS if c.key == "roundend")
    assert set(RULES.values()) <= set(roundend.intro)  # said where the round end is taught, and only there first
    earlier = [p for c in CHAPTERS[:CHAPTERS.index(roundend)] for p in c.intro]
    assert not set(RULES.values()) & set(earlier)
    page, _ = B.open_tutor(chromium, f"{server}?lang=en&players=3&seed=5")
    page.click(".lm-TabBar-tab:has-text('4.')")
    chapter = ".cl-chapter-roundend"
    page.wait_for_selector(chapter + " .cl-lessons")
    for lang in ("en", "fr", "es", "pt"):
        if lang != "en":
            page.select_option(".cl-language select", label=LANGUAGE_NAMES[lang])
        t = translator(lang)
        for ruling, msgid in RULES.items():
            said = t.gettext(msgid)
            assert lang == "en" or said != msgid, (lang, ruling)  # translated
            shown = page.locator(f"{chapter} .cl-note p", has_text=said).first
            shown.wait_for(state="visible")
            assert said in shown.inner_text()
        page.screenshot(path=str(ARTIFACTS / f"rules-said-{lang}.png"), full_page=True)
    page.close()
