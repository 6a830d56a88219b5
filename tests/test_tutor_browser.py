"""The tutor in a real browser: Voila on loopback, Debian's Chromium driven by Playwright.

Screenshots go to ``test-artifacts/``. The whole game is replayed in this process with
the same click policy, so the test knows the opponents' hidden cards and modifiers at
every step and can look for them in the page and in every widget message received.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from capital_lux.engine.cards import ALL_CARDS, COLOURS, KIND, ROLES, Card, format_modifier
from capital_lux.engine.notation import CAPITAL, HOME, Action, Pick, PlaceModifier, Play, SaveWithGold, TakeLowest
import browser as B
from capital_lux.tutor.session import Session
from capital_lux.engine.views import PlayerView

pytestmark = pytest.mark.browser

ARTIFACTS = B.ROOT / "test-artifacts"
PLAYERS, SEED = 4, 12


@pytest.fixture(scope="module")
def server(tutor_server: str) -> str:
    """The tutor server this test process shares (``conftest.tutor_server``)."""
    return tutor_server


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def policy(v: PlayerView, move: int) -> Action:
    """The browser helper's clicks as an action (see ``browser.learner_move``)."""
    legal = v.legal_actions
    picks = [a for a in legal if isinstance(a, Pick)]
    if picks:
        need = len(picks[0].cards)
        return Pick(tuple(sorted(v.draft_hand[:need])))
    plays = [a for a in legal if isinstance(a, Play)]
    if plays:
        return Play(v.hand[0], HOME if move % 2 == 0 else CAPITAL)
    return next(a for a in legal if isinstance(a, (PlaceModifier, TakeLowest, SaveWithGold)))


def secrets(session: Session, ever_seen: set[int]) -> tuple[list[re.Pattern[str]], list[str]]:
    """Patterns of opponents' cards no copy of which the learner has seen; unknown face-down modifiers."""
    state, v = session.state, session.view()
    visible = list(v.hand) + list(v.draft_hand) + list(v.draft_picks) + list(v.discards)
    visible += [c for b in v.bonus for c in b]
    visible += [Card(c, x) for c in COLOURS for x in v.capital[c]]
    visible += [Card(c, x) for town in v.hometowns for c in COLOURS for x in town[c]]
    ever_seen |= {KIND[c] for c in visible}
    hidden = [c for p in range(1, state.players) for c in state.hands[p] + state.draft_hands[p] + state.draft_picks[p]]
    patterns = []
    for kind in {KIND[c] for c in hidden} - ever_seen:
        card = ALL_CARDS[kind]
        patterns.append(re.compile(rf"{ROLES[card.colour]}\s*(?:<b>)?{card.value}\b|\b{card}\b"))
    mods: list[str] = []
    if not state.modifiers_revealed() and state.round == 1:  # later rounds show the last reveal
        known = {m.value for c in COLOURS for m in v.modifiers_above[c] if m.value is not None}
        if v.pending_modifier is not None:
            known.add(v.pending_modifier)
        down = {val for c in COLOURS for o, val in state.modifiers_above[c] if o != v.viewer}
        mods = [format_modifier(x) for x in down - known]
    return patterns, mods


def test_whole_game_by_clicking_leaks_nothing(server: str, chromium: Any) -> None:
    frames: list[str] = []
    page, _ = B.open_tutor(chromium, f"{server}?players={PLAYERS}&seed={SEED}&bots=rule")
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f if isinstance(f, str) else "")))
    # the socket opened before we listened: reload so every message is seen from the start
    page.reload()
    page.wait_for_selector(B.READY, timeout=60_000)
    page.wait_for_selector(f"{B.TABLE}[data-move]")
    shot(page, "tutor-start")
    assert page.locator(".cl-freeplay .cl-draft-card").first.is_visible()

    local = Session.new(PLAYERS, SEED, "rule")
    ever_seen: set[int] = set()
    move = checked = 0
    while True:
        patterns, mods = secrets(local, ever_seen)
        html = page.content()
        received = "\n".join(frames)
        frames.clear()
        for pattern in patterns:
            assert not pattern.search(html), f"{pattern.pattern} in the page"
            assert not pattern.search(received), f"{pattern.pattern} in a widget message"
            checked += 1
        for text in mods:
            assert text not in html and text not in received, f"face-down modifier {text} leaked"
        if move == 3:
            shot(page, "tutor-playing")
            # the risk panel: "now" beside the real round end, which says whether it is exact
            page.wait_for_function(
                "() => { const m = document.querySelector('.cl-freeplay .cl-risk-method');"
                " return m !== null && /exact|simulated \\(/.test(m.textContent); }",
                timeout=120_000,
            )
            risk = page.inner_text(".cl-freeplay .cl-riskpanel")
            assert "If the round ended now" in risk
            assert "At the round end, if the others play like the rule-of-thumb bot" in risk
            assert re.search(r"\bexact\b|simulated \([\d,]+ games, ±[\d.]+ points\)", risk), risk
        if not B.learner_move(page, move):
            break
        local.play(policy(local.view(), move))
        move += 1
        assert "cl-error" not in page.inner_html(".cl-freeplay")
    shot(page, "tutor-final-score-sheet")
    assert local.is_over(), "the browser's game and the replayed one went apart"
    sheet = page.inner_text(".cl-freeplay .cl-scores")
    for p, score in enumerate(local.state.scores()):
        assert str(score) in sheet
    assert checked > 20


def test_chapter_lesson_undo_and_language(server: str, chromium: Any) -> None:
    page, _ = B.open_tutor(chromium, f"{server}?lang=fr&players=3&seed=5")
    assert "Capitale" in page.inner_text(".cl-freeplay .cl-table-wrap")
    shot(page, "tutor-french")
    # the language picker switches back without losing the game
    page.select_option(".cl-language select", label="English")
    page.wait_for_selector(".cl-freeplay .cl-table-wrap:has-text('Capital')")
    # undo in free play: the draft's picks showed the next hands (no undo), the first card put
    # into the Hometown showed nothing hidden
    for move in range(3):
        B.learner_move(page, move)
    page.click(".cl-freeplay .cl-undo")
    page.wait_for_selector(".cl-freeplay .cl-note:has-text('taken back')")
    # chapter 3, the Agent lesson: play a blue card into the Capital and place the modifier
    page.click(".lm-TabBar-tab:has-text('3.')")
    chapter = ".cl-chapter-play "
    page.wait_for_selector(chapter + ".cl-lessons")
    page.click(chapter + ".cl-lessons button:has-text('Agent')")
    page.wait_for_selector(chapter + ".cl-note:has-text('blue Agent')")
    page.click(chapter + ".cl-hand-card:has-text('◆')")
    page.click(chapter + ".cl-to-capital")
    page.wait_for_selector(chapter + ".cl-controls:has-text('You drew the modifier')")
    page.wait_for_selector(f'{chapter}{B.TABLE}[data-phase="agent"]')
    shot(page, "tutor-chapter-agent")
    page.click(chapter + ".cl-choice >> nth=0")
    page.wait_for_selector(chapter + ".cl-lesson-status.cl-done")
    shot(page, "tutor-chapter-agent-done")
    # chapter 4: the learner's gold decision, then the round end step by step
    page.click(".lm-TabBar-tab:has-text('4.')")
    chapter = ".cl-chapter-roundend "
    page.wait_for_selector(chapter + ".cl-lessons")
    page.click(chapter + ".cl-lessons button >> nth=1")
    page.wait_for_selector(chapter + ".cl-roundend:has-text('your limits')")
    page.click(chapter + ".cl-choice >> nth=0")
    page.wait_for_selector(chapter + ".cl-roundend:has-text('step by step')")
    shot(page, "tutor-round-end")


def until_done(page: Any, chapter: str) -> None:
    """Make decisions in a chapter's position until its lesson says it is done."""
    done = f"{chapter} .cl-lesson-status.cl-done"
    for move in range(40):
        if page.query_selector(done):
            return
        B.learner_move(page, move, where=chapter)
    page.wait_for_selector(done)


def test_a_lesson_of_every_chapter_by_clicking(server: str, chromium: Any) -> None:
    from capital_lux.tutor.chapters import prepared_session

    page, _ = B.open_tutor(chromium, f"{server}?players=3&seed=5")
    # 1. Setup: predict the starting player, then check
    page.click(".lm-TabBar-tab:has-text('1.')")
    starter = prepared_session("setup").view().starting_player
    page.click(f".cl-chapter-setup .cl-quiz-answer >> nth={starter}")
    page.wait_for_selector(".cl-chapter-setup .cl-lesson-status.cl-done")
    shot(page, "tutor-chapter-setup")
    # 2. Choosing cards: two picks make a hand
    page.click(".lm-TabBar-tab:has-text('2.')")
    page.wait_for_selector(".cl-chapter-draft .cl-draft-card")
    until_done(page, ".cl-chapter-draft")
    # 3. The Scholar draws
    page.click(".lm-TabBar-tab:has-text('3.')")
    page.click(".cl-chapter-play .cl-lessons button >> nth=1")
    page.wait_for_selector(".cl-chapter-play .cl-note:has-text('green Scholar')")
    page.click(".cl-chapter-play .cl-hand-card:has-text('✎')")
    page.click(".cl-chapter-play .cl-to-capital")
    page.wait_for_selector(".cl-chapter-play .cl-lesson-status.cl-done")
    assert "You draw" in page.inner_text(".cl-chapter-play .cl-log")
    # 4. The rulebook's gold example: keep blue and yellow, let pink go
    page.click(".lm-TabBar-tab:has-text('4.')")
    page.click(".cl-chapter-roundend .cl-lessons button >> nth=2")
    page.wait_for_selector(".cl-chapter-roundend .cl-roundend:has-text('your limits')")
    shot(page, "tutor-gold-decision")
    page.click(".cl-chapter-roundend .cl-choice:has-text('Agent'):has-text('Merchant')")
    page.wait_for_selector(".cl-chapter-roundend .cl-lesson-status.cl-done")
    report = page.inner_text(".cl-chapter-roundend .cl-roundend")
    assert "You pay 1 gold disc to keep blue" in report and "You pay 2 gold discs to keep yellow" in report
    # 5. Scoring: a tie on points broken by the 5s
    page.click(".lm-TabBar-tab:has-text('5.')")
    page.click(".cl-chapter-scoring .cl-lessons button >> nth=1")
    page.wait_for_selector(".cl-chapter-scoring .cl-hand-card")
    until_done(page, ".cl-chapter-scoring")
    assert "Final score sheet" in page.inner_text(".cl-chapter-scoring .cl-scores")
    shot(page, "tutor-chapter-tie-break")
