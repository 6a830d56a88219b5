"""A page's help link, clicked in Chromium, opens the built manual at the page's own section, as
the class server serves it at ``/manual/`` (``serve.manual``).

The page shows the link once the manual is built (``tutor.base.manual_url``). Where ``make docs``
has built it, that build is used; otherwise the module builds the manual's guides into the same
folder (the API reference left out: it is the build's costly part, and no page links to it), and
removes what it built at the end. That every page's anchor names a heading of the whole manual is
``tests/test_docs.py``'s business; this module checks, in the browser, that the link the page
shows gets there: the address the click opens, the section at the top of the window.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urljoin

import pytest

import browser as B

from capital_lux.tutor.app import TutorApp
from capital_lux.tutor.base import BUILT_MANUAL

pytestmark = [pytest.mark.browser]

pytest.importorskip("sphinx")
pytest.importorskip("myst_parser")

#: The guides alone, as ``make docs`` builds them but for the API reference.
GUIDES_ONLY = "exclude_patterns=_build,notes,locale,README.md,api.md,api/*"


@pytest.fixture(scope="module")
def manual() -> Iterator[Path]:
    if (BUILT_MANUAL / "index.html").exists():
        yield BUILT_MANUAL
        return
    with tempfile.TemporaryDirectory() as doctrees:
        done = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", "-D", GUIDES_ONLY, "-d", doctrees,
                               str(B.ROOT / "docs"), str(BUILT_MANUAL)], capture_output=True, text=True, cwd=B.ROOT)
    try:
        assert (BUILT_MANUAL / "index.html").exists(), done.stderr
        yield BUILT_MANUAL
    finally:
        shutil.rmtree(BUILT_MANUAL, ignore_errors=True)


@pytest.fixture(scope="module")
def server(manual: Path) -> Iterator[str]:
    """The tutor on the class server, started once the manual is there (its page asks for it)."""
    with B.voila_server() as url:
        yield url


def test_the_tutors_help_link_opens_its_section_of_the_built_manual(chromium: Any, server: str,
                                                                     manual: Path) -> None:
    page, _ = B.open_tutor(chromium, f"{server}?lang=en&players=2&seed=3", viewport=(1280, 800))
    try:
        link = page.locator("a.cl-manual-link")
        assert link.count() == 1 and link.inner_text() == "Help: the learner’s guide"
        with page.context.expect_page() as opened:
            link.click()
        guide = opened.value
        guide.wait_for_load_state()
        name, anchor = TutorApp.manual.split("#")
        assert guide.url == urljoin(server, f"manual/{TutorApp.manual}")  # the class server's /manual/
        assert anchor in (manual / name).read_text()
        assert guide.locator(f"[id='{anchor}']").count() == 1
        heading = guide.evaluate("""id => {  // the heading the anchor names: itself, or the one it marks
            const found = document.getElementById(id);
            const heading = found.matches("h1, h2, h3, h4") ? found : found.nextElementSibling;
            return heading.textContent; }""", anchor)
        assert heading.startswith("The tutor’s pages"), heading
        # Landed on it: the section starts at the window's top, or the page cannot scroll further.
        top, scrolled, most = guide.evaluate(
            """id => [document.getElementById(id).getBoundingClientRect().top, window.scrollY,
                      document.documentElement.scrollHeight - window.innerHeight]""", anchor)
        assert -1 <= top <= 5 or scrolled >= most - 1, (top, scrolled, most)
        assert scrolled > 0, "the manual opened at its top, not at the section"
        guide.close()
    finally:
        page.close()
