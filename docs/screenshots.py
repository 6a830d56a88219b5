"""Take the README's and the guides' pictures from the real pages, in the browser tests' Chromium.

    python docs/screenshots.py docs/_static              # every picture (make screenshots)
    python docs/screenshots.py /tmp/shots --only tutor   # some of them, elsewhere

The class server is started as the browser tests start it (``tests/browser.py``: Voila with
the class server's guards, on a free loopback port), on the ``notebooks`` folder, with a class
database and a teacher's key of its own in a temporary folder: nothing of a real class is
read or shown. The teacher's page shows a small class whose answers are written to that
database first; the tutor and the review are a seeded free game played by clicking; the
exercises are a learner of the class list who joins with their code and answers with a classic
mistake; the what-if explorer compares every move of the rulebook's example.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import browser as B  # noqa: E402  (the suite's own harness: Voila and Chromium as the tests start them)
from capital_lux.tutor.work import BUDGET_VARIABLE  # noqa: E402

SHOTS = ("tutor", "teacher", "review", "exercises", "whatif")
KEY = "the key of the screenshots' class"
VIEWPORT = {"width": 1280, "height": 800}
#: The learner of the class list whose exercises page is shown, the exercise and its answer.
LEARNER, EXERCISE = "Gabriel", "modifier-after-draw"
CODES: dict[str, str] = {}
#: Each exercise's seed on the class's numbers (written by ``fill_class``).
SEEDS: dict[str, int] = {}
#: A small class: (name, exercise, answers in order); a wrong answer is one of the exercise's
#: classic mistakes where it has one, so the dashboard names it.
CLASS = (
    ("Ana", "deal-any-six", ("mistake", "right")),
    ("Bruno", "deal-any-six", ("right",)),
    ("Chloé", "deal-any-six", ("mistake", "mistake", "right")),
    ("Dylan", "modifier-after-draw", ("complement", "right")),
    ("Emma", "modifier-after-draw", ("right",)),
    ("Farid", "modifier-after-draw", ("complement", "mistake", "mistake")),
    ("Ana", "modifier-after-draw", ("right",)),
    ("Bruno", "two-scholars", ("mistake",)),
)


def fill_class(database: Path) -> None:
    """Write the small class's answers, on the class's numbers, as the learners' pages would."""
    from capital_lux.lessons.classroom import add_to_roster, instance_seed, server_key
    from capital_lux.lessons.problems import instance
    from capital_lux.lessons.problems.checker import format_number
    from capital_lux.lessons.problems.core import COMPLEMENT, classics
    from capital_lux.lessons.storage import Storage

    with Storage(str(database)) as storage:
        storage.set_setting("numbers", "class")
        storage.set_setting("class_seed", "7")
        key = server_key(storage)
        CODES.update({name: code for _, name, code in add_to_roster(storage, [LEARNER])})
        for name, exercise, answers in CLASS:
            session = f"screenshot-{name}"
            storage.set_name(session, name)
            seed = SEEDS[exercise] = instance_seed("class", key, 7, exercise, name, session)
            ex = instance(exercise, seed)
            exact = ex.exact()
            wrong = {m.id: value for m, value in classics(ex, ex.view(), exact) if value != exact}
            other = next((m for m in wrong if m != COMPLEMENT.id), COMPLEMENT.id)
            for answer in answers:
                if answer == "right":
                    storage.record_attempt(session, exercise, format_number(exact), True, str(seed))
                else:
                    mistake = COMPLEMENT.id if answer == "complement" else other
                    typed = f"{float(wrong[mistake]):.2f}"  # as a learner types it
                    storage.record_attempt(session, exercise, typed, False, str(seed), mistake)


@contextmanager
def class_server() -> Iterator[str]:
    """The class server on the notebooks folder, with a class database and key of its own."""
    with tempfile.TemporaryDirectory(prefix="capital-lux-shots-") as folder:
        database = Path(folder) / "class.sqlite3"
        settings = {"CAPITAL_LUX_DB": str(database), "CAPITAL_LUX_TEACHER_KEY": KEY,
                    "CAPITAL_LUX_KEY_FILE": str(Path(folder) / "server.key"),
                    "CAPITAL_LUX_SAVES": str(Path(folder) / "games"),
                    # the whole review, however busy the machine: a cut review says so on the picture
                    BUDGET_VARIABLE: "600"}
        saved = {name: os.environ.get(name) for name in settings}
        os.environ.update(settings)
        try:
            fill_class(database)
            with B.serving(ROOT, "notebooks", timeout=120, options=(B.UNPACED, B.ONE_WARM)) as (url, _):
                yield url
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


def _clip(page: Any, top: str, bottom: str) -> dict[str, float]:
    """The page from the top of ``top`` to the bottom of ``bottom``, at the page's width."""
    first, last = page.locator(top).first.bounding_box(), page.locator(bottom).first.bounding_box()
    scroll = page.evaluate("() => window.scrollY")
    y = first["y"] + scroll
    return {"x": 0, "y": y, "width": page.viewport_size["width"], "height": last["y"] + last["height"] + scroll - y + 8}


def _open(browser: Any, url: str, address: str, ready: str, viewport: dict[str, int] = VIEWPORT) -> Any:
    """A page of the class server, once it says it is ready (Voila runs the notebook first)."""
    page = browser.new_page(viewport=viewport)
    page.goto(f"{url}voila/render/{address}", timeout=120_000)
    page.wait_for_selector(ready, timeout=120_000)
    return page


def _shot(page: Any, out: Path, name: str, top: str, bottom: str) -> Path:
    """``name``.png: the page from ``top`` to ``bottom`` (see ``_clip``); the page is closed."""
    path = out / f"{name}.png"
    page.screenshot(path=str(path), full_page=True, clip=_clip(page, top, bottom))
    page.close()
    return path


def tutor(browser: Any, url: str, out: Path) -> Path:
    """Free play, a few decisions into a 3-player game: the table, the hand and its risk lines."""
    page = _open(browser, url, "tutorial.ipynb?players=3&seed=12&bots=rule", B.READY)
    for move in range(3):  # two picks of the draft, then the hand to play from
        B.learner_move(page, move)
    page.wait_for_selector(".cl-freeplay .cl-hand-card:visible", timeout=60_000)
    # the risk lines' figures ("now" and "at the round end") come once the round end is worked out
    page.wait_for_function("() => document.querySelectorAll('.cl-freeplay .cl-risklines li').length === 4",
                           timeout=300_000)
    page.evaluate("""() => { window.scrollTo(0, 0);
      for (const e of document.querySelectorAll('*')) if (e.scrollTop) e.scrollTop = 0; }""")  # a click scrolls the tab's box
    path = out / "tutor.png"
    page.screenshot(path=str(path))
    page.close()
    return path


def teacher(browser: Any, url: str, out: Path) -> Path:
    """The teacher's page, unlocked, on the small class."""
    page = _open(browser, url, "teacher.ipynb", ".cl-teacher-page.cl-ready")
    page.fill(".cl-teacher-key input", KEY)
    page.click(".cl-teacher-unlock")
    page.wait_for_selector(".cl-teacher-unlocked .cl-teacher-table", timeout=60_000)
    page.wait_for_selector(".cl-teacher-charts img", timeout=60_000)
    return _shot(page, out, "teacher", ".cl-teacher-page", ".cl-teacher-table tr:nth-child(8)")


def review(browser: Any, url: str, out: Path) -> Path:
    """A whole 2-player game played by clicking, then its review: the table, the key moments, the chart."""
    page = _open(browser, url, "tutorial.ipynb?players=2&seed=5&bots=rule", B.READY,
                 {"width": VIEWPORT["width"], "height": 1400})
    move = 0
    while B.learner_move(page, move):
        move += 1
    page.click(".cl-review-start")
    page.wait_for_selector(".cl-review-progress:visible", timeout=60_000)
    page.wait_for_selector(".cl-review-progress", state="hidden", timeout=600_000)
    page.wait_for_selector(".cl-review-moments li", timeout=60_000)
    page.wait_for_selector(".cl-review-chart img:visible, img.cl-review-chart:visible", timeout=60_000)
    path = out / "review.png"
    review = page.locator(".cl-freeplay .cl-review")
    # From its title to the key moments: what follows them ("Learn from your mistakes", the
    # table of every decision) is left out of the picture.
    review.evaluate("""box => {
        for (let n = box.querySelector('.cl-review-open-moments').nextElementSibling; n; n = n.nextElementSibling)
            n.style.display = 'none';
    }""")
    review.screenshot(path=str(path))
    page.close()
    return path


def exercises(browser: Any, url: str, out: Path) -> Path:
    """The exercises page of a learner of the class list: joined with their code, an exercise
    answered with its classic mistake, which the page names."""
    from capital_lux.lessons.problems import EXERCISES_BY_ID, instance
    from capital_lux.lessons.problems.checker import format_number
    from capital_lux.lessons.problems.core import COMPLEMENT, classics

    page = _open(browser, url, "probability_exercises.ipynb", ".cl-exercises.cl-ready")
    page.fill(".cl-learner-name input", LEARNER)
    page.fill(".cl-learner-code input", CODES[LEARNER])
    page.click(".cl-learner-join")
    page.wait_for_selector(f".cl-learner-note:has-text('{LEARNER}')", timeout=60_000)
    page.select_option(".cl-ex-picker select", index=list(EXERCISES_BY_ID).index(EXERCISE))
    ex = instance(EXERCISE, SEEDS[EXERCISE])
    mistake = dict((m.id, value) for m, value in classics(ex, ex.view(), ex.exact()))[COMPLEMENT.id]
    page.fill(".cl-ex-answer input", format_number(mistake))
    page.click(".cl-ex-check")
    page.wait_for_selector(".cl-ex-feedback [data-status]", timeout=60_000)
    return _shot(page, out, "exercises", ".cl-exercises", ".cl-ex-feedback")


def whatif(browser: Any, url: str, out: Path) -> Path:
    """The what-if explorer on the rulebook's example: every move compared."""
    page = _open(browser, url, "what_if.ipynb", ".cl-whatif.cl-ready")
    page.click(".cl-whatif .lm-TabBar-tab >> nth=2")  # "Analyse and play"
    page.click(".cl-wi-analyse")
    page.wait_for_selector(".cl-wi-chart img:visible, img.cl-wi-chart:visible", timeout=300_000)
    return _shot(page, out, "whatif", ".cl-whatif", ".cl-wi-analysis")


def take(out: Path, only: tuple[str, ...] = SHOTS) -> list[Path]:
    """Take the pictures named in ``only`` into ``out``; returns their paths."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    makers = {"tutor": tutor, "teacher": teacher, "review": review, "exercises": exercises, "whatif": whatif}
    with class_server() as url, sync_playwright() as p:
        browser = B.launch(p)
        try:
            return [makers[name](browser, url, out) for name in only]
        finally:
            browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the folder the pictures go to (docs/_static for the manual)")
    parser.add_argument("--only", default=",".join(SHOTS),
                        help=f"comma-separated, among {', '.join(SHOTS)} (default: all)")
    args = parser.parse_args(argv)
    only = tuple(name for name in args.only.split(",") if name)
    unknown = [name for name in only if name not in SHOTS]
    if unknown:
        parser.error(f"unknown picture {', '.join(unknown)}; choose among {', '.join(SHOTS)}")
    for path in take(args.out, only):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
