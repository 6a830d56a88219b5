"""The risk panel and the hint button, both computed from the learner's view only.

They use ``capital_lux.analysis.risk``, ``capital_lux.players.bots`` and ``capital_lux.analysis.charts`` when
those are installed, and say so politely when they are not.
"""

from __future__ import annotations

import io
import logging
from html import escape
from typing import Any, Callable

import ipywidgets as W

from ..i18n import Translator
from ..engine.notation import Action, Pick, PlaceModifier, Play, SaveWithGold, TakeLowest
from ..engine.views import PlayerView
from .riskpanel import MoveComparison, RiskPanel
from .text import action_label, card_text, colour_text

LOG = logging.getLogger("capital_lux.tutor")
__all__ = ["RiskPanel", "HintPanel", "MoveComparison", "action_text"]


def _png(figure: Any) -> bytes:
    """A matplotlib figure as PNG bytes; the figure is closed afterwards."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    try:
        figure.savefig(buffer, format="png", dpi=80, bbox_inches="tight")
    finally:
        plt.close(figure)
    return buffer.getvalue()


def action_text(t: Translator, a: Action) -> str:
    if isinstance(a, Play):
        if a.to == "capital":
            return t.gettext("{card} into the Capital").format(card=card_text(t, a.card))
        return t.gettext("{card} into your Hometown").format(card=card_text(t, a.card))
    if isinstance(a, Pick):
        return t.gettext("Set aside {cards}").format(cards=", ".join(card_text(t, c) for c in a.cards))
    if isinstance(a, PlaceModifier):
        return t.gettext("Modifier above {colour}").format(colour=colour_text(t, a.colour))
    if isinstance(a, TakeLowest):
        return t.gettext("Take the lowest {colour}").format(colour=colour_text(t, a.colour))
    if isinstance(a, SaveWithGold):
        return action_label(t, a)
    return str(a)


class HintPanel:
    """The rule-of-thumb bot's suggestion with its reason, and a comparison of every move."""

    def __init__(self, on_action: Callable[[Action], None]) -> None:
        self.on_action = on_action
        self.button = W.Button(icon="lightbulb-o", layout=W.Layout(width="auto"))
        self.button.add_class("cl-hint")
        self.button.on_click(lambda _: self._guard(self._hint))
        self.compare = W.Button(icon="bar-chart", layout=W.Layout(width="auto"))
        self.compare.add_class("cl-compare")
        self.compare.on_click(lambda _: self._guard(self._compare))
        self.follow = W.Button(layout=W.Layout(width="auto", display="none"))
        self.follow.on_click(lambda _: self._follow())
        self.html = W.HTML()
        self.html.add_class("cl-hint-text")
        self.comparison = MoveComparison()  # runs in the background, with its own progress bar
        self.box = W.VBox([W.HBox([self.button, self.compare, self.follow]), self.html, self.comparison.box])
        self._t: Translator | None = None
        self._view: PlayerView | None = None
        self._suggested: Action | None = None

    def render(self, t: Translator, v: PlayerView) -> None:
        self._t, self._view = t, v
        self.button.description = t.gettext("Hint")
        self.compare.description = t.gettext("Compare my moves")
        self.follow.description = t.gettext("Play the suggested move")
        mine = bool(v.legal_actions)
        self.button.disabled = self.compare.disabled = not mine
        self.html.value = ""
        self.follow.layout.display = "none"
        self.comparison.clear()
        self._suggested = None

    def _guard(self, work: Callable[[], None]) -> None:
        try:
            work()
        except Exception:
            LOG.exception("hint failed")
            if self._t is not None:
                self.html.value = escape(self._t.gettext("Sorry, no advice is available here."))

    def _hint(self) -> None:
        t, v = self._t, self._view
        if t is None or v is None or not v.legal_actions:
            return
        try:
            from ..players.bots import RuleOfThumbBot
        except ImportError:
            self.html.value = escape(t.gettext("Hints are not installed."))
            return
        hint = RuleOfThumbBot().advise(v)
        self._suggested = hint.action
        self.html.value = (
            f'<div class="cl-note"><b>{escape(action_text(t, hint.action))}</b><br>{escape(hint.text(t))}</div>'
        )
        self.follow.layout.display = None

    def _compare(self) -> None:
        t, v = self._t, self._view
        if t is None or v is None or not v.legal_actions:
            return
        try:
            from ..analysis.forward import compare_forward  # noqa: F401  (present or not)
        except ImportError:
            self.html.value = escape(t.gettext("The move comparison is not installed."))
            return
        self.html.value = ""
        self.comparison.start(t, v)

    def _follow(self) -> None:
        if self._suggested is not None:
            self.on_action(self._suggested)
