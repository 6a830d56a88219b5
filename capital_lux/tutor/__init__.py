"""The tutor: an ipywidgets dashboard, served by Voila, that teaches Capital Lux by playing it.

``build_app(lang="fr", players=3, seed=1)`` returns the page's root widget;
``notebooks/tutorial.ipynb`` displays it. Everything shown comes from the
learner's ``PlayerView``; the widgets know no rule, the engine decides.

The tutorial's names are imported when first asked for: every page's notebook imports
``language_from_query`` from here, and the tutorial's app imports matplotlib (about 2 s of a
teacher's page, which draws no chart until the key is typed).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from .base import language_from_query

if TYPE_CHECKING:
    from .app import TutorApp, build_app, friendly_error, options_from_query

__all__ = ["TutorApp", "build_app", "friendly_error", "language_from_query", "options_from_query"]


def __getattr__(name: str) -> object:
    if name in __all__:
        return getattr(import_module(".app", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
