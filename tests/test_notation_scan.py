"""Learners never read notation: no text the tutor shows contains a card written ``B5``.

Notation stays for files (the what-if explorer's position editor and export, uploads)
and the terminal. Every widget's visible text is scanned (HTML, labels, button and
field descriptions, tooltips, placeholders, option labels, tab titles) after using
every part of the page: chapters, free play with the hint and the move comparison,
the round-end report, the exercises and the what-if explorer.
"""

from __future__ import annotations

import random
import re
from typing import Any, Iterator

import ipywidgets as W
import pytest
from ipywidgets.widgets.widget import _instances

from capital_lux.tutor import build_app
from capital_lux.tutor.app import TutorApp

NOTATION = re.compile(r"(?<![A-Za-z0-9#&])[BGPY][2-6](?![0-9A-Za-z])")
#: Inputs that hold notation on purpose: the what-if editor's fields and its export (files).
FILE_INPUTS = (W.Text, W.Textarea)


def visible_texts(widget: Any) -> Iterator[str]:
    for name in ("description", "tooltip", "placeholder"):
        value = getattr(widget, name, None)
        if isinstance(value, str):
            yield value
    if isinstance(widget, (W.HTML, W.HTMLMath, W.Label)):
        yield widget.value
    if hasattr(widget, "_options_labels"):
        yield from widget._options_labels
    if isinstance(widget, W.Tab):
        yield from (title or "" for title in widget.titles)


def scan() -> list[str]:
    found = []
    for widget in list(_instances.values()):
        if isinstance(widget, FILE_INPUTS):
            continue
        for text in visible_texts(widget):
            plain = re.sub(r"<[^>]*>", " ", text)  # attributes (class names, data-*) are not read
            match = NOTATION.search(plain)
            if match:
                found.append(f"{type(widget).__name__}: …{plain[max(0, match.start() - 40):match.end() + 40]}…")
    return found


def test_the_pattern_catches_notation_and_nothing_else() -> None:
    assert NOTATION.search("pick P6 Y5") and NOTATION.search("Y5 into the Capital")
    assert not NOTATION.search("✚ Cleric 6 (pink), R14, docs/rules.md, #B5e3c1, round 2")
    planted = W.HTML('<div class="cl-note">pick <b>P6</b> Y5</div>')
    editor = W.Textarea(value="B5 G3")  # a file-like input may hold notation
    try:
        assert len([x for x in scan() if "P6" in x]) == 1 and not any("G3" in x for x in scan())
    finally:
        planted.close()
        editor.close()


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "pt"])
def test_no_notation_anywhere_a_learner_looks(lang: str) -> None:
    W.Widget.close_all()
    app: TutorApp = build_app(lang=lang, players=3, seed=2026)._tutor  # type: ignore[attr-defined]
    for index in range(len(app.chapter_list)):  # every chapter, every lesson, one move each
        app.tabs.selected_index = index
        chapter = app.chapter_views[index]
        for i in range(len(chapter.chapter.lessons)):
            chapter.picker.value = i
            v = chapter.panel.session.view()
            if v.legal_actions and not chapter.lesson.quiz:
                chapter.panel._act(v.legal_actions[0])
    app.tabs.selected_index = len(app.chapter_list)  # free play: hint, comparison, a whole round
    panel = app.free_play.panel
    assert panel.hint is not None
    panel.hint.button.click()
    rng = random.Random(1)
    while not panel.session.reports and not panel.session.is_over():
        panel._act(rng.choice(panel.session.view().legal_actions))
    panel.hint.button.click()
    app.tabs.selected_index = len(app.chapter_list) + 1  # the exercises
    app.tabs.selected_index = len(app.chapter_list) + 2  # the what-if explorer
    whatif = app.extras["whatif"]
    whatif.load_gallery("last-turn")
    whatif.samples.value = 20
    whatif.analyse()
    whatif.wait_analysis(120)
    whatif.play()
    assert scan() == []
