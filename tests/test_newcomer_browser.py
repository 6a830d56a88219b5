"""The tutor as a newcomer meets it, in a real browser (one Voila, several pages).

From the bare URL the first chapter is open; at a round end the page pauses with the
steps on top, each event said once, the learner's own decision leading the "what followed"
panel, and round 2 only after "Continue to round 2"; at 1024×768 and 1920×1080, in every language,
no element overflows its container (measured in the page) and tab labels are whole.
Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

from typing import Any

import pytest

import browser as B

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = B.ROOT / "test-artifacts"
#: Elements whose content is wider than their box and that neither scroll nor wrap.
OVERFLOWS = """() => {
  const found = [];
  const root = document.querySelector('.cl-tutor');
  const scroller = (el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
  const inScroller = (el) => { for (let a = el.parentElement; a && a !== root; a = a.parentElement) {
    if (scroller(a)) return true; } return false; };
  for (const el of root.querySelectorAll('*')) {
    if (!el.offsetParent || el.clientWidth === 0) continue;          // hidden
    const style = getComputedStyle(el);
    const scrolls = scroller(el) || inScroller(el);  // wide content that scrolls is readable
    // An element that hides its own overflow (a label ending in "…") cuts its text, whatever
    // scrolls around it.
    if (!scroller(el) && el.scrollWidth > el.clientWidth + 1 && style.overflowX !== 'visible') {
      found.push(`${el.tagName}.${el.className} clips ${el.scrollWidth}>${el.clientWidth}: ${el.innerText.slice(0, 40)}`);
    }
    if (el.tagName === 'SELECT' && el.selectedIndex >= 0) {  // a drop-down's chosen text, against its box
      const probe = document.createElement('span');
      probe.style.font = style.font;
      probe.style.whiteSpace = 'pre';
      probe.textContent = el.options[el.selectedIndex].text;
      document.body.appendChild(probe);
      const needed = probe.getBoundingClientRect().width + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
      probe.remove();
      if (needed > el.clientWidth + 1) found.push(`SELECT cuts its choice (${Math.round(needed)}>${el.clientWidth}): ${probe.textContent}`);
    }
    const box = el.getBoundingClientRect();
    if (!scrolls && box.width > 0 && box.right > document.documentElement.clientWidth + 1) {
      found.push(`${el.tagName}.${el.className} beyond the page (${Math.round(box.right)}px): ${el.innerText.slice(0, 40)}`);
    }
  }
  for (const label of document.querySelectorAll('.cl-tabs .lm-TabBar-tabLabel')) {
    if (label.scrollWidth > label.clientWidth + 1) found.push(`tab label cut: ${label.innerText}`);
  }
  return found;
}"""


@pytest.fixture(scope="module")
def server(tutor_server: str) -> str:
    """The tutor server this test process shares (``conftest.tutor_server``)."""
    return tutor_server


def open_page(browser: Any, url: str, width: int = 1400, height: int = 1000) -> Any:
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(url, timeout=180_000)  # the kernel runs the notebook before the page loads
    page.wait_for_selector(B.READY, timeout=120_000)
    return page


def test_the_bare_url_opens_the_first_chapter(server: str, chromium: Any) -> None:
    page = open_page(chromium, server)
    page.wait_for_selector(".cl-chapter-setup .cl-quiz-answer", timeout=60_000)
    selected = page.inner_text(".cl-tabs .lm-TabBar-tab.lm-mod-current")
    assert selected.startswith("1.")
    assert "The goal" in page.inner_text(".cl-chapter-setup")
    page.click(".lm-TabBar-tab:has-text('Free play')")  # free play can be chosen
    page.wait_for_selector(".cl-freeplay .cl-draft-card")
    page.close()


def test_the_round_end_pauses_with_its_steps_on_top_until_the_learner_continues(server: str, chromium: Any) -> None:
    from capital_lux.engine.notation import HOME, Play
    from capital_lux.i18n import translator
    from capital_lux.tutor.chapters import prepared_session
    from capital_lux.tutor.roundend import REPORTED
    from capital_lux.tutor.text import event_line, log_line

    page = open_page(chromium, server)
    page.click(".lm-TabBar-tab:has-text('4.')")
    chapter = ".cl-chapter-roundend"
    page.wait_for_selector(f"{chapter} .cl-hand-card")
    card = page.inner_text(f"{chapter} .cl-hand-card >> nth=0")
    page.click(f"{chapter} .cl-hand-card >> nth=0")
    page.click(f"{chapter} .cl-to-home")
    page.wait_for_selector(f"{chapter} .cl-continue:visible", timeout=60_000)
    page.wait_for_selector(f"{chapter} .cl-lesson-status.cl-done")
    first = page.inner_text(f"{chapter} .cl-recent .cl-my-decision")
    value = card.strip().split()[-1]
    assert first.startswith("You play") and value in first and "Hometown" in first  # the decision leads
    # the steps on top of the table, visible, and the table still the round that ended
    steps = page.locator(f"{chapter} .cl-pause .cl-roundend")
    assert steps.is_visible() and "Round 1 end, step by step" in steps.inner_text()
    above, table = steps.bounding_box(), page.locator(f"{chapter} {B.TABLE}").bounding_box()
    assert above is not None and table is not None and above["y"] + above["height"] <= table["y"]
    assert "Round 1 of 3" in page.inner_text(f"{chapter} {B.TABLE}")
    assert not B.visible(page, f"{chapter} .cl-draft-card")  # no draft of round 2 yet
    page.screenshot(path=str(ARTIFACTS / "newcomer-round-end-pause.png"), full_page=True)
    # each event of the round end said once on the page (the same game, replayed here)
    local = prepared_session("last_turns")
    local.play(Play(local.view().hand[0], HOME))
    events = [e for e in local.reports[-1].events if e.kind in REPORTED and e.kind != "reveal"]
    shown, t, report = page.inner_text(chapter), translator("en"), local.reports[-1]
    lines = [event_line(t, e, local.seat) for e in events]
    # an earlier round's event may read the same ("Bot 1 is the starting player." at setup): once each
    since = max(i for i, e in enumerate(local.log[: report.log_end]) if e.kind == "round_start")
    earlier = [log_line(t, e, local.seat) for e in local.log[:since]]
    assert len(lines) > 5
    assert [(line, shown.count(line)) for line in lines if shown.count(line) != 1 + earlier.count(line)] == []
    page.click(f"{chapter} .cl-continue")
    page.wait_for_selector(f"{chapter} .cl-draft-card:visible", timeout=60_000)
    # the table is redrawn last (after the advice): wait for it, not only for the draft's cards
    page.wait_for_selector(f"{chapter} {B.TABLE}:has-text('Round 2 of 3')", timeout=60_000)
    assert not B.visible(page, f"{chapter} .cl-continue")
    page.close()


#: The screen sizes every page is measured at, a school's small screen and a large one.
SIZES = [(1024, 768), (1920, 1080)]


def test_nothing_is_clipped_in_any_language(server: str, chromium: Any) -> None:
    problems = []
    pages = {}
    for lang in ("en", "fr", "es", "pt"):  # the four load at once (a kernel each), then are measured in turn
        pages[lang] = chromium.new_page(viewport={"width": SIZES[0][0], "height": SIZES[0][1]})
        pages[lang].goto(f"{server}?lang={lang}", wait_until="commit", timeout=180_000)
    for lang, page in pages.items():
        page.wait_for_selector(B.READY, timeout=120_000)
        for width, height in SIZES:  # one page resized: the same layout a fresh page at that size gets
            page.set_viewport_size({"width": width, "height": height})
            page.click(".cl-tabs .lm-TabBar-tab >> nth=0")
            page.wait_for_selector(".cl-chapter-setup .cl-quiz-answer", timeout=60_000)
            problems += [f"{lang} {width}x{height} chapter 1: {p}" for p in page.evaluate(OVERFLOWS)]
            page.screenshot(path=str(ARTIFACTS / f"newcomer-{lang}-{width}-chapter.png"), full_page=True)
            page.click(".cl-tabs .lm-TabBar-tab >> nth=5")  # free play
            page.wait_for_selector(".cl-freeplay .cl-draft-card")
            if not B.visible(page, ".cl-freeplay .cl-hint-move"):
                page.click(".cl-freeplay .cl-hint")
                page.wait_for_selector(".cl-freeplay .cl-hint-move", timeout=60_000)
            problems += [f"{lang} {width}x{height} free play: {p}" for p in page.evaluate(OVERFLOWS)]
            page.screenshot(path=str(ARTIFACTS / f"newcomer-{lang}-{width}-free-play.png"), full_page=True)
        page.close()
    assert problems == []


#: The server shuts this page's kernel down, as the idle culler or a restart would (Tornado's
#: XSRF check wants the same value in a cookie and a header).
KILL_KERNEL = """async () => {
  const config = JSON.parse(document.getElementById('jupyter-config-data').textContent);
  const xsrf = 'test' + Date.now();
  document.cookie = '_xsrf=' + xsrf + '; path=/';
  const answer = await fetch(config.baseUrl + 'api/kernels/' + config.kernelId,
                             {method: 'DELETE', headers: {'X-XSRFToken': xsrf}});
  return answer.status;
}"""


def test_a_lost_kernel_is_told_and_the_reloaded_page_resumes_the_game(server: str, chromium: Any) -> None:
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})  # one browser's storage
    page = context.new_page()
    page.goto(f"{server}?open=free", timeout=180_000)
    page.wait_for_selector(B.READY, timeout=120_000)
    B.learner_move(page, 0)
    B.learner_move(page, 1)
    page.wait_for_selector('[data-cl-save]:not([data-cl-save=""])', state="attached")
    hand = page.inner_text(".cl-freeplay .cl-controls")
    assert page.evaluate(KILL_KERNEL) in (200, 204)  # the server stops this page's kernel
    page.wait_for_selector(".cl-kernel-lost", timeout=30_000)
    assert "connection" in page.inner_text(".cl-kernel-lost")
    page.screenshot(path=str(ARTIFACTS / "newcomer-kernel-lost.png"))
    page.click(".cl-kernel-lost button")  # reload
    page.wait_for_selector(B.READY, timeout=120_000)
    page.wait_for_selector(".cl-resume-offer .cl-resume", timeout=60_000)
    page.click(".cl-resume-offer .cl-resume")
    page.wait_for_selector(f'.cl-freeplay {B.TABLE}[data-move="2"]', timeout=60_000)
    assert page.inner_text(".cl-freeplay .cl-controls") == hand  # the same hand: the same game
    context.close()


def test_a_crashed_kernel_restarted_empty_is_told(server: str, chromium: Any) -> None:
    import psutil

    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    page.clock.install()  # the page's clock, moved on by the test once the kernel has crashed
    page.goto(f"{server}?open=free", timeout=180_000)
    page.wait_for_selector(B.READY, timeout=120_000)
    page.wait_for_selector(".cl-freeplay .cl-draft-card")
    kernel = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
    victims = [p for p in psutil.process_iter(["cmdline"]) if any(kernel in part for part in p.info["cmdline"] or [])]
    assert len(victims) == 1
    victims[0].kill()  # the server restarts it empty: it answers, but knows nothing of this page
    B.until_told_lost(page)
    page.close()
