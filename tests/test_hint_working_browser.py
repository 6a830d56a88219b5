"""At a draft pick, where the hint's ranking takes longest, the browser shows at once that the
hint is working, with the rule of thumb's move, before the hint itself (one Voila, one page).

Every text the hint's box holds is recorded in the page as it comes (a MutationObserver set
before the click), so the check does not race the ranking: the working note must be among
them, naming the rule of thumb's move for this very position, and come before the hint."""

from __future__ import annotations

from typing import Any

import pytest

import browser as B
from capital_lux.engine.state import DRAFT
from capital_lux.i18n import translator
from capital_lux.tutor.advice import move_text, rule_of_thumb
from capital_lux.tutor.session import Session

pytestmark = [pytest.mark.browser]

FREE = ".cl-freeplay "


@pytest.fixture(scope="module")
def server(tutor_server: str) -> str:
    return tutor_server


#: Records every text the hint's box shows, in order, from now on.
RECORD = """() => {
  const box = document.querySelector('.cl-freeplay .cl-hint-text');
  window.__clHints = [];
  new MutationObserver(() => {
    const text = box.innerText.replace(/\\s+/g, ' ').trim();
    if (text && window.__clHints[window.__clHints.length - 1] !== text) window.__clHints.push(text);
  }).observe(box, {subtree: true, childList: true, characterData: true});
}"""


def test_the_hint_at_a_draft_pick_shows_it_is_working_and_the_rule_of_thumb_s_move_first(
        server: str, chromium: Any) -> None:
    session = Session.new(4, 12, "rule")  # the page's game: the same seed, the same bots
    v = session.view()
    assert v.phase == DRAFT and v.legal_actions  # the learner's first decision is a draft pick
    t = translator("en")
    working = t.gettext("Working out the hint… Meanwhile, the rule of thumb would play: {move}.").format(
        move=move_text(t, rule_of_thumb(v)))

    page, _ = B.open_tutor(chromium, f"{server}?players=4&seed=12&bots=rule")
    page.wait_for_selector(FREE + ".cl-hint:enabled")
    page.evaluate(RECORD)
    page.click(FREE + ".cl-hint")
    page.wait_for_selector(FREE + ".cl-hint-move", timeout=300_000)
    shown = page.evaluate("() => window.__clHints")
    page.close()
    assert working in shown, shown
    hint = next(k for k, text in enumerate(shown) if "Why?" in text)
    assert shown.index(working) < hint, shown  # the note first, then the hint replaces it
    assert working not in shown[hint]
