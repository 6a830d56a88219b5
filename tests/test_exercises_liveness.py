"""The exercises page on its own carries the page script's liveness check, the same piece as the
tutor page's (``keep.Liveness``): a kernel restarted empty after a crash no longer echoes the
page's pings, and the script tells the learner (in Chromium: ``test_class_day_browser``)."""

from __future__ import annotations

from pathlib import Path

import ipywidgets as W

from capital_lux.lessons.storage import Storage
from capital_lux.tutor import keep
from capital_lux.tutor.app import TutorApp
from capital_lux.tutor.exercises_app import ExercisesApp, build_app


def _classes(widget: W.Widget) -> list[str]:
    found = list(getattr(widget, "_dom_classes", ()))
    for child in getattr(widget, "children", ()):
        found += _classes(child)
    return found


def test_the_exercises_page_echoes_the_scripts_ping_with_the_tutors_piece(tmp_path: Path) -> None:
    with Storage(str(tmp_path / "class.sqlite3")) as storage:
        root = build_app("en", storage=storage)
        app = root._exercises
        assert isinstance(app.alive, keep.Liveness)
        assert _classes(root).count("cl-ping") == 1 and app.alive.pong in root.children
        app.alive.ping.value = "1764370000000"
        assert app.alive.pong.value == '<span data-cl-pong="1764370000000"></span>'
        app.alive.ping.value = '1"><script>'  # nothing but the page's clock is echoed
        assert app.alive.pong.value == '<span data-cl-pong="1764370000000"></span>'
        # inside the tutor's tab the tutor page's own check covers it: one ping on a page
        assert ExercisesApp("en", storage=storage).alive is None


def test_the_tutor_page_keeps_its_check_in_the_same_piece() -> None:
    tutor = TutorApp("en", 3, 1, "rule")
    assert isinstance(tutor.alive, keep.Liveness) and tutor.alive.ping in tutor.root.children
    tutor.alive.ping.value = "42"
    assert 'data-cl-pong="42"' in tutor.alive.pong.value
