"""The worksheet and its answer key on paper: printed to PDF by Chromium (Playwright's
``page.pdf``, A4, the sheet's own ``@page`` margins) and their pages counted.

Used by the worksheet's print test and by the ``worksheet`` benchmark (from a source checkout).
"""

from __future__ import annotations

import re
from typing import Any

#: Classes' numbers the benchmark prints: each deals other cards, so other lengths.
SEEDS = (7, 1, 2, 3)
LANGUAGES = ("en", "fr", "es", "pt")


def pdf_pages(pdf: bytes) -> int:
    """The pages of a PDF: its page objects (``/Type /Page``, not the ``/Pages`` tree)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def printed_pages(browser: Any, html: str) -> int:
    """How many A4 pages ``html`` takes when Chromium prints it."""
    page = browser.new_page()
    try:
        page.set_content(html)
        page.emulate_media(media="print")
        return pdf_pages(page.pdf(format="A4", prefer_css_page_size=True))
    finally:
        page.close()


def sheets(lang: str, seed: int) -> tuple[str, str]:
    """The worksheet and the answer key of every exercise, on the cards of ``seed``."""
    from capital_lux.lessons.exercises import EXERCISES, instance
    from capital_lux.lessons.problems.worksheet import answer_key_html, worksheet_html

    instances = [instance(ex.id, seed) for ex in EXERCISES]
    return worksheet_html(instances, lang), answer_key_html(instances, lang)


def figures() -> dict[str, float]:
    """Pages of the worksheet and of the key per language on seed 7's cards, and the most
    over several classes' numbers (``SEEDS``)."""
    from playwright.sync_api import sync_playwright

    import browser as B

    found: dict[str, float] = {}
    with sync_playwright() as p:
        chromium = B.launch(p)
        try:
            for lang in LANGUAGES:
                counts = {seed: [printed_pages(chromium, html) for html in sheets(lang, seed)] for seed in SEEDS}
                found[f"worksheet_pages_{lang}_seed7"] = float(counts[7][0])
                found[f"answer_key_pages_{lang}_seed7"] = float(counts[7][1])
                found[f"worksheet_pages_{lang}_most"] = float(max(sheet for sheet, _ in counts.values()))
                found[f"answer_key_pages_{lang}_most"] = float(max(key for _, key in counts.values()))
        finally:
            chromium.close()
    return found
