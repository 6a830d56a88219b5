"""Capitol's page in a real browser (Voila on loopback, Debian's Chromium through Playwright): a move
refused with the rules' sentence, in French, changing nothing; then a whole seeded game against the
rule-of-thumb bot, clicked move by move, while every widget message the page receives is scanned for
the bot's cards that the learner has never seen; and a reload that resumes the game.

The game is mirrored in this process (same seed, same moves), so the test knows the bot's hand at
every step. One server and one page serve both tests (a module's tests run in one worker).
"""

from __future__ import annotations

import os
import random
import re
import struct
from typing import Any, Iterator

import pytest

import browser as B
from capital_lux.capitol.bots import RuleOfThumbBot
from capital_lux.capitol.components import DISTRICTS
from capital_lux.capitol.notation import Action, Offer, Stop
from capital_lux.capitol.state import BID, BUILD
from capital_lux.capitol.texts import move_text
from capital_lux.capitol.views import view
from capital_lux.i18n import translator
from capital_lux.tutor.capitol_app import CapitolApp

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = B.ROOT / "test-artifacts"
PLAYERS, SEED = 2, 3
READY = ".cl-capitol.cl-ready"

if not os.path.exists(B.CHROMIUM):
    pytest.skip(f"no Chromium at {B.CHROMIUM}", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")


def frame_text(frame: str | bytes) -> str:
    """A kernel websocket frame's message without its binary buffers (a chart's PNG is one): a text
    frame as it is; a binary frame of the v1 protocol (a count of offsets, the offsets, then channel,
    header, parent header, metadata, content and buffers) as its first five parts."""
    if isinstance(frame, str):
        return frame
    try:
        (count,) = struct.unpack_from("<Q", frame, 0)
        offsets = list(struct.unpack_from(f"<{count}Q", frame, 8)) + [len(frame)]
        return "\n".join(frame[offsets[i]:offsets[i + 1]].decode("utf-8") for i in range(min(5, count)))
    except (struct.error, UnicodeDecodeError, MemoryError, OverflowError):
        return ""


@pytest.fixture(scope="module")
def table(chromium: Any) -> Iterator[tuple[Any, list[str]]]:
    ARTIFACTS.mkdir(exist_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(B, "NOTEBOOK", "notebooks/capitol.ipynb")
        with B.voila_server(ARTIFACTS / "voila-capitol.log") as url:
            page = chromium.new_page(viewport={"width": 1400, "height": 1000})
            frames: list[str] = []
            page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(frame_text(f))))
            page.goto(f"{url}?lang=fr&players={PLAYERS}&seed={SEED}&bots=rule", timeout=120_000)
            page.wait_for_selector(READY, timeout=120_000)
            page.wait_for_selector(".cl-capitol-table[data-move]", timeout=60_000)
            try:
                yield page, frames
            finally:
                page.close()


def moves_played(page: Any) -> int:
    return int(page.get_attribute(".cl-capitol-table", "data-move"))


def test_a_typed_move_against_the_permit_rules_is_refused_in_french_and_changes_nothing(
        table: tuple[Any, list[str]]) -> None:
    page, _ = table
    local = CapitolApp("fr", PLAYERS, SEED, "rule", samples=10)
    assert moves_played(page) == len(local.state.history)
    # the moves are offered with one chosen, so Play this move plays something
    assert page.eval_on_selector(".cl-capitol-moves select", "s => s.selectedIndex") == 0
    permit = next(card for card in local.state.hands[0] if card.kind in "BPM")
    page.fill(".cl-capitol-typed input", f"{permit} 2r {permit.kind}2")
    page.click(".cl-capitol-try")
    sentence = f"Le premier immeuble de la zone {permit.kind}2 doit avoir un seul étage."
    page.wait_for_selector(f".cl-capitol-refused:has-text('{sentence}')", timeout=60_000)
    assert moves_played(page) == len(local.state.history)  # nothing played
    assert page.input_value(".cl-capitol-typed input") == f"{permit} 2r {permit.kind}2"  # nothing lost
    assert "Construction" in page.inner_text(".cl-capitol-lesson")
    page.screenshot(path=str(ARTIFACTS / "capitol-refused.png"), full_page=True)


def hidden_patterns(local: CapitolApp, seen: set[str]) -> list[re.Pattern[str]]:
    """The bot's cards the learner has never seen a copy of (district names aside: B2 is both)."""
    v = view(local.state, 0)
    seen |= {str(card) for card in v.hand + v.my_offer if card}
    seen |= {str(card) for card in v.pile_tops if card}
    seen |= {str(card) for result in v.auctions for b in result.bids for card in b.cards}
    seen |= {word for line in v.history for word in re.findall(r"[0-9A-Za-z]+", line)}  # "R2." is R2, public
    seen |= set(re.findall(r"[0-9A-Za-z]+", local.log.value))  # what the log told all, winning bids included
    hidden = {str(card) for card in local.state.hands[1]} - seen - set(DISTRICTS)
    return [re.compile(rf"(?<![0-9A-Za-z]){card}(?![0-9A-Za-z])") for card in sorted(hidden)]


def test_a_whole_game_by_clicking_shows_no_card_of_the_bots_hand(table: tuple[Any, list[str]]) -> None:
    page, frames = table
    page.select_option(".cl-language select", label="English")
    page.wait_for_selector(".cl-capitol-phase:has-text('Round 1 of 4')", timeout=60_000)
    local = CapitolApp("en", PLAYERS, SEED, "rule", samples=10)
    t, bot, seen = translator("en"), RuleOfThumbBot(), set()
    checked = bids_seen = 0
    pending = ""  # frames are read against the state one move later: the page may be ahead of the replica
    while not local.state.is_terminal():
        v = view(local.state, 0)
        # A winning bid is shown to all by the rules, and the page may tell it a move before the replica.
        received = re.sub(r"wins the auction with [A-Z0-9 ]+\.", "", pending + "\n".join(frames))
        pending = "\n".join(frames)
        frames.clear()
        for pattern in hidden_patterns(local, seen):
            found = pattern.search(received)
            assert not found, f"the bot's {pattern.pattern} reached the page: {received[max(0, found.start() - 300):found.end() + 100]}"
            shown = re.sub(r"wins the auction with [A-Z0-9 ]+\.", "", page.inner_html(".cl-capitol"))
            assert not pattern.search(shown), f"the bot's {pattern.pattern} is on the page"
            checked += 1
        if checked == 0:  # the scan reads the messages: the learner's own hand is in them
            assert re.search(rf"(?<![0-9A-Za-z]){v.hand[0]}(?![0-9A-Za-z])", received)
        if v.phase == BID and bids_seen == 0 and not v.my_offer:  # the chance beside the bid, then a card on it
            page.locator(".cl-capitol-chart").wait_for(state="visible", timeout=60_000)
            action: Action = Offer(max(v.hand, key=lambda card: card.value))
        elif v.phase == BID and bids_seen == 0:
            bids_seen += 1
            page.wait_for_selector(".cl-capitol-chance:has-text('Chance that your bid')", timeout=60_000)
            chance = page.inner_text(".cl-capitol-chance")
            assert re.search(r"Chance that your bid .+ wins: .+, (exact|simulated over 400 deals)", chance), chance
            page.screenshot(path=str(ARTIFACTS / "capitol-auction.png"), full_page=True)
            action = Stop()
        elif v.round == 1 or v.phase not in (BUILD, BID):  # the rule of thumb's move, then passing and stopping
            action = bot.choose(v, random.Random(0))
        else:
            action = v.legal_actions[0]
        page.select_option(".cl-capitol-moves select", label=move_text(t, action, v.pile_tops))
        page.click(".cl-capitol-play")
        local._play_text(str(action))
        page.wait_for_selector(f".cl-capitol-table[data-move='{len(local.state.history)}']", timeout=120_000)
        assert not page.locator(".cl-capitol-refused").count()
    page.screenshot(path=str(ARTIFACTS / "capitol-over.png"), full_page=True)
    message = page.inner_text(".cl-capitol-message")
    assert "The game is over" in message
    for score in local.state.scores:
        assert str(score) in message
    assert checked > 20 and bids_seen == 1


def test_a_reload_offers_the_game_and_resumes_it(table: tuple[Any, list[str]]) -> None:
    """The page's script keeps the token in the browser and hands it back after a reload; resuming
    shows the very table the learner left (a new game with a secret seed: the browser never had it)."""
    page, _ = table
    page.select_option(".cl-language select", label="Français")  # the language the reloaded link asks for
    page.click(".cl-capitol-new")
    page.wait_for_selector(".cl-capitol-table[data-move='0']:has-text('Zone B1')", timeout=60_000)
    page.click(".cl-capitol-play")  # the learner moves first; the board is drawn last
    page.wait_for_selector(".cl-capitol-table:not([data-move='0'])", timeout=60_000)
    page.wait_for_function("() => localStorage.getItem('capital-lux-capitol-game')", timeout=60_000)
    played = moves_played(page)
    board, seat = page.inner_html(".cl-capitol-table"), page.inner_text(".cl-capitol-seat")
    page.reload()
    page.wait_for_selector(READY, timeout=120_000)
    page.locator(".cl-resume").wait_for(state="visible", timeout=60_000)
    page.click(".cl-resume")
    page.wait_for_selector(f".cl-capitol-table[data-move='{played}']", timeout=60_000)
    assert page.inner_text(".cl-capitol-seat") == seat and page.inner_html(".cl-capitol-table") == board
    assert "Votre partie reprend" in page.inner_text(".cl-capitol-message")
