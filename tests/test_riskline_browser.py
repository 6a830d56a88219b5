"""What a learner sees beside the hand at 1280×800, in a real browser (one Voila, one page).

One risk line per colour under the hand without scrolling, each naming its colour, at every
decision of a whole game (the table grows round by round; a round end pauses); the
hint in one sentence with its figures behind "Why?"; the free-play charts' text at least
11 px on screen; the risk chart empty right after "New game". Screenshots go to
``test-artifacts/``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import browser as B
from capital_lux.analysis.charts import DPI, MIN_FONT_PT
from capital_lux.engine.cards import COLOURS, SYMBOLS
from capital_lux.i18n import translator
from capital_lux.i18n.sentences import colour_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = B.ROOT / "test-artifacts"
WIDTH, HEIGHT = 1280, 800
FREE = ".cl-freeplay "
#: The risk lines once the round end is worked out (their heading says exact or simulated).
FINAL_LINES = (
    "() => { const h = document.querySelector('.cl-freeplay .cl-risklines b');"
    " return h !== null && /[(]/.test(h.textContent)"
    " && document.querySelectorAll('.cl-freeplay .cl-risklines li').length === 4; }"
)
#: An image's width on screen against its own pixels: text of f px in the PNG shows at f × this.
IMAGE_SCALE = "(e) => e.getBoundingClientRect().width / e.naturalWidth"


@pytest.fixture(scope="module")
def server(unhurried_tutor_server: str) -> str:
    """The tutor server with a 300 s work budget this test process shares (``conftest.unhurried_tutor_server``)."""
    return unhurried_tutor_server


#: The lines and the hand as laid out, read in one go (the lines are redrawn as the figures sharpen).
#: Positions are as on the unscrolled page: a click scrolls the tab's own box, which the
#: window's scrollY does not see, so every scrolled ancestor's offset is added back.
LAYOUT = """() => {
  const unscrolled = (e) => { let y = window.scrollY; for (let a = e.parentElement; a; a = a.parentElement) y += a.scrollTop;
                              return y; };
  const box = (e) => { const r = e.getBoundingClientRect(), y = unscrolled(e);
                       return {top: r.top + y, bottom: r.bottom + y, right: r.right, height: r.height}; };
  const lines = [...document.querySelectorAll('.cl-freeplay .cl-risklines li')].map(
    (e) => ({colour: e.dataset.colour, text: e.innerText, ...box(e)}));
  return {lines, hand: box(document.querySelector('.cl-freeplay .cl-controls')), scrolled: window.scrollY,
          head: document.querySelector('.cl-freeplay .cl-risklines b').innerText};
}"""


def risk_lines_in_view(page: Any, lang: str = "en") -> float:
    """Each colour's line is under the hand, in the viewport unscrolled, and names its colour
    in ``lang``; the lowest bottom edge."""
    t = translator(lang)
    page.wait_for_function(FINAL_LINES, timeout=120_000)
    layout = page.evaluate(LAYOUT)
    assert layout["scrolled"] == 0
    lines = layout["lines"]
    assert [line["colour"] for line in lines] == list(COLOURS)
    for line in lines:
        text = line["text"]
        assert line["height"] > 0 and line["top"] >= layout["hand"]["bottom"] - 1, line  # shown, under the hand
        assert line["bottom"] <= HEIGHT and line["right"] <= WIDTH, line
        c = line["colour"]
        assert t.colour(c) in text and t.role(c) in text and SYMBOLS[c] in text, text
        safe = t.gettext("{colour}: no chance of exceeding its limit.").format(colour=colour_text(t, c))
        assert re.search(r"\d\s?%", text) or text == safe, text
        # a simulated round end (the heading's "≈") never reads a bare 0% or 100%: only an exact one may
        # (the "now" figure before it is always exact)
        if "≈" in layout["head"]:
            later = re.split(r" (?:now|ahora), ", text, maxsplit=1)[-1]
            assert not re.search(r"(?<![\d.,])(0|100)\s?%", later), (layout["head"], text)
    return float(max(line["bottom"] for line in lines))


def font_px_on_screen(page: Any, selector: str) -> float:
    """The smallest chart text as shown: its size in the PNG times the image's scale on screen."""
    image = page.wait_for_selector(selector, state="visible", timeout=300_000)
    page.wait_for_function("(e) => e.complete && e.naturalWidth > 0", arg=image, timeout=60_000)
    scale = float(page.evaluate(IMAGE_SCALE, image))
    return MIN_FONT_PT * DPI / 72 * scale


def test_risk_lines_hint_and_charts_at_1280_by_800(server: str, chromium: Any) -> None:
    page, _ = B.open_tutor(chromium, f"{server}?players=4&seed=12&bots=rule", viewport=(WIDTH, HEIGHT))
    # (a) the first decision (the draft): one line per colour under the cards, above the fold
    bottom = risk_lines_in_view(page)
    page.screenshot(path=str(ARTIFACTS / "riskline-draft.png"))
    move = 0
    while not B.visible(page, FREE + ".cl-hand-card"):
        B.learner_move(page, move)
        move += 1
    page.wait_for_selector(FREE + ".cl-hand-card:enabled")
    # ... and at the first card to play (what the others did is told below the lines)
    bottom = max(bottom, risk_lines_in_view(page))
    page.screenshot(path=str(ARTIFACTS / "riskline-play.png"))
    print(f"risk lines' bottom edge at {WIDTH}x{HEIGHT}: {bottom:.0f} px")

    # (b) the hint: one sentence, its figures behind "Why?"
    page.click(FREE + ".cl-hint")
    short = page.wait_for_selector(FREE + ".cl-hint-why-short", timeout=120_000)
    sentence = short.inner_text().strip()
    assert len(re.findall(r"[.!?](?:\s|$)", sentence)) == 1 and sentence.endswith("."), sentence
    why = page.query_selector(FREE + ".cl-hint-why ul")
    assert not why.is_visible()
    page.click(FREE + ".cl-hint-why summary")
    assert why.is_visible() and "%" in why.inner_text() and "points" in why.inner_text()

    # (d) chart text: the timeline and the comparison, as shown in the side column
    page.click(FREE + ".cl-risk-chart-toggle input")
    timeline_px = font_px_on_screen(page, FREE + ".cl-risk-chart")
    page.click(FREE + ".cl-risk-compare")
    compare_px = font_px_on_screen(page, FREE + ".cl-compare-chart")
    print(f"smallest chart text on screen: timeline {timeline_px:.1f} px, comparison {compare_px:.1f} px")
    assert timeline_px >= 11 and compare_px >= 11
    page.screenshot(path=str(ARTIFACTS / "riskline-charts.png"), full_page=True)

    # (c) "New game": the last game's chart is gone at once, before any play of the new one
    page.click(FREE + ".cl-new-game")
    page.wait_for_selector(f'{FREE}{B.TABLE}[data-move="0"]')
    assert not B.visible(page, FREE + ".cl-risk-chart")
    assert not B.visible(page, FREE + ".cl-compare-chart")


def test_the_longest_language_keeps_the_lines_above_the_fold(server: str, chromium: Any) -> None:
    page, _ = B.open_tutor(chromium, f"{server}?lang=es&players=4&seed=12&bots=rule", viewport=(WIDTH, HEIGHT))
    bottom = risk_lines_in_view(page, "es")
    page.screenshot(path=str(ARTIFACTS / "riskline-draft-es.png"))
    print(f"Spanish risk lines' bottom edge at {WIDTH}x{HEIGHT}: {bottom:.0f} px")


def test_the_lines_stay_above_the_fold_at_every_decision_of_a_game(server: str, chromium: Any) -> None:
    """A whole 4-player game by clicking: at each decision, once its figures are final, the
    lines end inside the 800 px window unscrolled (the draft, played cards, the Agent and
    the Cleric, in every round, the first pick after each round end included)."""
    page, _ = B.open_tutor(chromium, f"{server}?players=4&seed=12&bots=rule", viewport=(WIDTH, HEIGHT))
    bottoms: list[float] = []  # one per decision with lines (a decision on gold has none: the reveal says it)
    move = round_ends = 0
    while True:
        page.wait_for_selector(B.next_step(), timeout=60_000)
        if page.query_selector(FREE + ".cl-continue:visible"):  # a round end: no decision, read on
            round_ends += 1
            page.click(FREE + ".cl-continue")
            page.wait_for_selector(FREE + ".cl-continue", state="hidden", timeout=60_000)
            continue
        if page.query_selector(FREE + '.cl-scores[data-final="1"]'):
            break
        if not B.visible(page, FREE + ".cl-choice") or B.visible(page, FREE + ".cl-risklines"):
            bottoms.append(risk_lines_in_view(page))
        B.learner_move(page, move)
        move += 1
    print(f"risk lines' lowest bottom edge over {len(bottoms)} decisions: {max(bottoms):.0f} px")
    assert round_ends == 2 and len(bottoms) >= 20, (round_ends, bottoms)  # all three rounds were played
    assert max(bottoms) <= HEIGHT
