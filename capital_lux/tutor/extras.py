"""The hint button (and, re-exported, the risk panel), both computed from the learner's view only."""

from __future__ import annotations

from html import escape
from typing import Callable

import ipywidgets as W

from ..i18n import Translator
from ..engine.notation import Action
from ..engine.views import PlayerView
from .advice import Advice, advice_headline, advice_reasons, advise, move_text, rule_of_thumb
from .base import guarded, tagged
from .riskpanel import RiskPanel  # the panel lives beside its forward figures

__all__ = ["RiskPanel", "HintPanel"]


class HintPanel:
    """The hint: the one ranking's first move (``advice.advise``) in one sentence, and
    behind "Why?" what it does, its figures and the moves as good as it. Every move's
    figures, in the same order, are the risk panel's "Compare my moves at the round end".
    """

    def __init__(self, on_action: Callable[[Action], None]) -> None:
        self.on_action = on_action
        self.button = tagged(W.Button(layout=W.Layout(width="auto")), "cl-hint")
        self.button.on_click(lambda _: self._guard(self._hint))
        self.follow = tagged(W.Button(layout=W.Layout(width="auto", display="none")), "cl-follow")
        self.follow.on_click(lambda _: self._follow())
        self.html = tagged(W.HTML(), "cl-hint-text")
        self.box = W.VBox([W.HBox([self.button, self.follow], layout=W.Layout(flex_flow="row wrap")), self.html])
        self._t: Translator | None = None
        self._view: PlayerView | None = None
        self._advice: Advice | None = None
        self._suggested: Action | None = None
        self._placement_views: dict[tuple[str, int], PlayerView] | None = None
        self.games: int | None = None  # the ranking's games in all (None: ``rank_moves``' own; tests settle for less)

    def render(self, t: Translator, v: PlayerView,
               placement_views: dict[tuple[str, int], PlayerView] | None = None) -> None:
        """A new position; ``placement_views`` as the risk panel's, so both read one ranking."""
        self._t, self._view, self._placement_views = t, v, placement_views
        self._advice = None  # a new position: a new ranking when asked
        self.button.description = t.gettext("Hint")
        self.follow.description = t.gettext("Play the suggested move")
        mine = bool(v.legal_actions)
        self.button.disabled = not mine
        self.html.value = ""
        self.follow.layout.display = "none"
        self._suggested = None

    def _guard(self, work: Callable[[], None]) -> None:
        guarded(work, self._no_advice, "hint failed")

    def _no_advice(self) -> None:
        if self._t is not None:
            self.html.value = escape(self._t.gettext("Sorry, no advice is available here."))

    def advice(self) -> Advice | None:
        """The position's ranking, computed once and shared by the hint and the table."""
        v = self._view
        if v is None or not v.legal_actions:
            return None
        if self._advice is None:
            self._advice = advise(v, self._placement_views, self.games)
        return self._advice

    def _hint(self) -> None:
        t, v = self._t, self._view
        if t is None or v is None or not v.legal_actions:
            return
        if self._advice is None:  # the ranking takes a moment: the page says so at once (sent before it starts)
            working = t.gettext("Working out the hint… Meanwhile, the rule of thumb would play: {move}.").format(
                move=move_text(t, rule_of_thumb(v)))
            self.html.value = f'<div class="cl-note cl-hint-working" role="status">{escape(working)}</div>'
        advice = self.advice()
        if advice is None:
            return
        self._suggested = advice.action
        reasons = "".join(f"<li>{escape(reason)}</li>" for reason in advice_reasons(t, v, advice))
        self.html.value = (
            f'<div class="cl-note"><b class="cl-hint-move">{escape(move_text(t, advice.action))}</b> '
            f'<span class="cl-hint-why-short">{escape(advice_headline(t, advice))}</span>'
            f'<details class="cl-hint-why"><summary>{escape(t.gettext("Why?"))}</summary>'
            f"<ul>{reasons}</ul></details></div>"
        )
        self.follow.layout.display = None

    def _follow(self) -> None:
        if self._suggested is not None:
            self.on_action(self._suggested)
