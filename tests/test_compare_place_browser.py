""""Compare my moves" keeps the learner's place, in a real browser at 1280×800 (one Voila, one page).

The button sits right under the dropdowns it uses, near the top of the side column: a click
on it scrolls nothing, and the comparison opens there, beside the hand, with the risk table
folded meanwhile. "Stop" or "Close the comparison" unfolds the table. Positions are read with bounding
boxes; a scrolled box anywhere above an element counts (a click scrolls the tab's own box,
which the window's scrollY does not see).
"""

from __future__ import annotations

import os
from typing import Any, Iterator

import pytest

import browser as B
from capital_lux.tutor.work import BUDGET_VARIABLE

pytestmark = [pytest.mark.browser]

ARTIFACTS = B.ROOT / "test-artifacts"
WIDTH, HEIGHT = 1280, 800
FREE = ".cl-freeplay "

if not os.path.exists(B.CHROMIUM):
    pytest.skip(f"no Chromium at {B.CHROMIUM}", allow_module_level=True)
pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    ARTIFACTS.mkdir(exist_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(BUDGET_VARIABLE, "300")  # the comparison ends on a busy machine too
        with B.voila_server(ARTIFACTS / "voila-compare-place.log") as url:
            yield url


#: Where things are in the window as it stands (viewport coordinates), and how far any box
#: above them is scrolled.
PLACES = """() => {
  const at = (selector) => { const e = document.querySelector(selector);
                             if (e === null) return null;
                             const r = e.getBoundingClientRect();
                             return {top: r.top, bottom: r.bottom, height: r.height}; };
  let scrolled = window.scrollY;
  for (const e of document.querySelectorAll('.cl-freeplay, .cl-freeplay *')) scrolled += e.scrollTop;
  for (let a = document.querySelector('.cl-freeplay'); a; a = a.parentElement) scrolled += a.scrollTop;
  return {scrolled, hand: at('.cl-freeplay .cl-controls'), button: at('.cl-freeplay .cl-risk-compare'),
          first: at('.cl-freeplay .cl-compare-table tr.cl-move'), risk: at('.cl-freeplay .cl-risk')};
}"""


#: Every box of the page scrolled back to its top.
TO_TOP = """() => { window.scrollTo(0, 0);
  for (const e of document.querySelectorAll('*')) if (e.scrollTop) e.scrollTop = 0; }"""


def in_view(box: dict[str, float] | None) -> bool:
    return box is not None and box["height"] > 0 and box["top"] >= 0 and box["bottom"] <= HEIGHT


def test_the_comparison_opens_beside_the_hand_without_scrolling(server: str, chromium: Any) -> None:
    page, _ = B.open_tutor(chromium, f"{server}?players=4&seed=12&bots=rule", viewport=(WIDTH, HEIGHT))
    move = 0
    while not B.visible(page, FREE + ".cl-hand-card"):  # the draft, to the first card to play
        B.learner_move(page, move)
        move += 1
    page.wait_for_selector(FREE + ".cl-hand-card:enabled")
    page.evaluate(TO_TOP)  # the clicks of the draft may have scrolled: the learner reads from the top
    before = page.evaluate(PLACES)
    assert before["scrolled"] == 0 and in_view(before["hand"]) and in_view(before["button"]), before
    assert before["risk"]["height"] > 0  # the risk table on show until a comparison opens

    page.click(FREE + ".cl-risk-compare")
    # the first figures are enough (the ranking sharpens as it runs): no need to wait for the end
    page.wait_for_selector(FREE + ".cl-compare-table tr.cl-move", timeout=300_000)
    after = page.evaluate(PLACES)
    page.screenshot(path=str(ARTIFACTS / "compare-place.png"))
    print(f"at {WIDTH}x{HEIGHT}: hand {after['hand']['top']:.0f}-{after['hand']['bottom']:.0f} px, "
          f"first compared move {after['first']['top']:.0f}-{after['first']['bottom']:.0f} px")
    assert after["scrolled"] == 0, after  # the click moved nothing: the hand stays where it was
    assert abs(after["hand"]["top"] - before["hand"]["top"]) <= 1 and in_view(after["hand"]), (before, after)
    assert in_view(after["first"]), after  # the comparison's first move is in the window with the hand
    assert after["risk"]["height"] == 0, after  # the risk table folded while comparing

    # "Stop" if it still runs, else "Close the comparison": either one closes it (clicked in the
    # page, where whichever is shown at that moment is the one clicked)
    page.evaluate("""() => [...document.querySelectorAll(
                        '.cl-freeplay .cl-compare-stop, .cl-freeplay .cl-compare-close')]
                      .find((e) => e.offsetParent !== null).click()""")
    page.wait_for_selector(FREE + ".cl-compare-table", state="detached", timeout=30_000)
    closed = page.evaluate(PLACES)
    assert closed["risk"]["height"] > 0 and closed["scrolled"] == 0, closed  # the table is back
