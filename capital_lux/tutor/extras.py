"""The risk panel and the hint button, both computed from the learner's view only.

They use ``capital_lux.analysis.risk``, ``capital_lux.players.bots`` and ``capital_lux.analysis.charts`` when
those are installed, and say so politely when they are not.
"""

from __future__ import annotations

import logging
from html import escape
from typing import Any, Callable

import ipywidgets as W

from ..i18n import Translator, format_number, format_percent
from ..engine.notation import Action
from ..engine.views import PlayerView
from .advice import Advice, advice_text, advise, move_text
from .riskpanel import RiskPanel  # the panel lives beside its forward figures

LOG = logging.getLogger("capital_lux.tutor")
__all__ = ["RiskPanel", "HintPanel"]


def _percent(p: Any, t: Translator) -> str:
    return format_percent(float(p), t.lang)


class HintPanel:
    """The hint and the comparison of every move: one ranking (``advice.ranked_moves``), two views.

    The hint names the ranking's first move with what it does and why; the table lists the
    same ranking, the hinted move first and marked. One ranking is computed per position.
    """

    def __init__(self, on_action: Callable[[Action], None]) -> None:
        self.on_action = on_action
        self.button = W.Button(icon="lightbulb-o", layout=W.Layout(width="auto"))
        self.button.add_class("cl-hint")
        self.button.on_click(lambda _: self._guard(self._hint))
        self.compare = W.Button(icon="bar-chart", layout=W.Layout(width="auto"))
        self.compare.add_class("cl-compare")
        self.compare.on_click(lambda _: self._guard(self._compare))
        self.follow = W.Button(layout=W.Layout(width="auto", display="none"))
        self.follow.add_class("cl-follow")
        self.follow.on_click(lambda _: self._follow())
        self.html = W.HTML()
        self.html.add_class("cl-hint-text")
        self.table = W.HTML()
        self.table.add_class("cl-compare-table")
        self.image = W.Image(format="png", layout=W.Layout(max_width="100%", display="none"))
        self.box = W.VBox([W.HBox([self.button, self.compare, self.follow],
                                  layout=W.Layout(flex_flow="row wrap")), self.html, self.table, self.image])
        self._t: Translator | None = None
        self._view: PlayerView | None = None
        self._advice: Advice | None = None
        self._suggested: Action | None = None

    def render(self, t: Translator, v: PlayerView) -> None:
        self._t, self._view = t, v
        self._advice = None  # a new position: a new ranking when asked
        self.button.description = t.gettext("Hint")
        self.compare.description = t.gettext("Compare my moves")
        self.follow.description = t.gettext("Play the suggested move")
        mine = bool(v.legal_actions)
        self.button.disabled = self.compare.disabled = not mine
        self.html.value = ""
        self.table.value = ""
        self.follow.layout.display = "none"
        self.image.layout.display = "none"
        self._suggested = None

    def _guard(self, work: Callable[[], None]) -> None:
        try:
            work()
        except Exception:
            LOG.exception("hint failed")
            if self._t is not None:
                self.html.value = escape(self._t.gettext("Sorry, no advice is available here."))

    def advice(self) -> Advice | None:
        """The position's ranking, computed once and shared by the hint and the table."""
        v = self._view
        if v is None or not v.legal_actions:
            return None
        if self._advice is None:
            self._advice = advise(v)
        return self._advice

    def _hint(self) -> None:
        t, v, advice = self._t, self._view, self.advice()
        if t is None or v is None or advice is None:
            return
        self._suggested = advice.action
        self.html.value = (
            f'<div class="cl-note"><b class="cl-hint-move">{escape(move_text(t, advice.action))}</b><br>'
            f"{escape(advice_text(t, v, advice))}</div>"
        )
        self.follow.layout.display = None

    def _compare(self) -> None:
        t, v, advice = self._t, self._view, self.advice()
        if t is None or v is None or advice is None:
            return
        if advice.ranking[0].samples == 0:
            self.table.value = f'<div class="cl-note">{escape(t.gettext("This is the only move."))}</div>'
            return
        rows = "".join(
            f'<tr class="{"cl-best" if i == 0 else ""}"><td>{"★ " if i == 0 else ""}{escape(move_text(t, m.action))}'
            f"</td><td>{escape(format_number(m.points, t.lang, 1))}</td><td>{escape(_percent(m.p_exceed, t))}</td></tr>"
            for i, m in enumerate(advice.ranking[:8])
        )
        head = (
            f"<tr><th>{escape(t.gettext('move'))}</th><th>{escape(t.gettext('points at round end'))}</th>"
            f"<th>{escape(t.gettext('chance to exceed'))}</th></tr>"
        )
        note = t.gettext("Simulated: {n} deals of the unseen cards per move, the others playing by rule of thumb. "
                         "★ marks the move the hint suggests.")
        self.table.value = (
            f'<div class="cl-scroll"><table class="cl-table cl-compare">{head}{rows}</table></div>'
            f'<div class="cl-note">{escape(note.format(n=advice.ranking[0].samples))}</div>'
        )
        try:
            from ..analysis.charts import figure_png, move_chart

            self.image.value = figure_png(move_chart([m.estimate for m in advice.ranking], t))
            self.image.layout.display = None
        except Exception:
            LOG.exception("move chart failed")
            self.image.layout.display = "none"

    def _follow(self) -> None:
        if self._suggested is not None:
            self.on_action(self._suggested)
