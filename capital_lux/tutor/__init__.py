"""The tutor: an ipywidgets dashboard, served by Voila, that teaches Capital Lux by playing it.

``build_app(lang="fr", players=3, seed=1)`` returns the page's root widget;
``notebooks/tutorial.ipynb`` displays it. Everything shown comes from the
learner's ``PlayerView``; the widgets know no rule, the engine decides.
"""

from .app import TutorApp, build_app, friendly_error, language_from_query, options_from_query

__all__ = ["TutorApp", "build_app", "friendly_error", "language_from_query", "options_from_query"]
