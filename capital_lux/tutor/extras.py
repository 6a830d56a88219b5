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

from ..engine.cards import COLOURS
from ..i18n import Translator, format_number, format_percent
from ..engine.notation import Action
from ..engine.state import GOLD, OVER
from ..engine.views import PlayerView
from .text import action_label, colour_text

LOG = logging.getLogger("capital_lux.tutor")
#: Deals simulated per move by the move comparison (a click's worth of time).
COMPARE_SAMPLES = 24


def _png(figure: Any) -> bytes:
    """A matplotlib figure as PNG bytes; the figure is closed afterwards."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    try:
        figure.savefig(buffer, format="png", dpi=80, bbox_inches="tight")
    finally:
        plt.close(figure)
    return buffer.getvalue()


def _percent(p: Any, t: Translator) -> str:
    return format_percent(float(p), t.lang)


def action_text(t: Translator, a: Action) -> str:
    return action_label(t, a)


class RiskPanel:
    """If the round ended now: each colour's chance to exceed its limit, exact, from the view."""

    def __init__(self) -> None:
        self.show = W.Checkbox(value=True, indent=False)
        self.show.add_class("cl-risk-toggle")
        self.chart_toggle = W.Checkbox(value=False, indent=False)
        self.html = W.HTML()
        self.html.add_class("cl-risk")
        self.image = W.Image(format="png", layout=W.Layout(max_width="100%", display="none"))
        self.box = W.VBox([self.show, self.html, self.chart_toggle, self.image])
        self._last: tuple[Translator, PlayerView] | None = None
        self.show.observe(lambda _: self._redraw(), names="value")
        self.chart_toggle.observe(lambda _: self._redraw(), names="value")

    def render(self, t: Translator, v: PlayerView) -> None:
        self._last = (t, v)
        self._redraw()

    def _redraw(self) -> None:
        if self._last is None:
            return
        t, v = self._last
        self.show.description = t.gettext("Show the round-end risk")
        self.chart_toggle.description = t.gettext("Chart")
        if not self.show.value or v.phase in (GOLD, OVER):  # after the reveal the table says it all
            self.html.value = ""
            self.image.layout.display = "none"
            return
        try:
            from ..analysis.risk import round_end_risk
        except ImportError:
            self.html.value = f'<div class="cl-note">{escape(t.gettext("The risk panel is not installed."))}</div>'
            return
        try:
            now = round_end_risk(v)
            with_hand = round_end_risk(v, include_hand=True)
        except Exception:
            LOG.exception("risk panel failed")
            self.html.value = f'<div class="cl-note">{escape(t.gettext("The risk cannot be computed here."))}</div>'
            return
        rows = []
        for c in COLOURS:
            a, b = now.colours[c], with_hand.colours[c]
            rows.append(
                f"<tr><th>{escape(colour_text(t, c))}</th><td>{a.hometown_total}</td>"
                f"<td>{_percent(a.p_exceed, t)}</td><td>{_percent(b.p_exceed, t)}</td></tr>"
            )
        head = (
            f"<tr><th></th><th>{escape(t.term('Hometown'))}</th><th>{escape(t.gettext('exceeds now'))}</th>"
            f"<th>{escape(t.gettext('with your hand added'))}</th></tr>"
        )
        gold = t.gettext("Chance that your gold keeps every colour: {p}").format(p=_percent(now.p_afford_all, t))
        title = t.gettext("If the round ended now (exact, from what you can see)")
        self.html.value = (
            f'<div class="cl-riskpanel"><h4>{escape(title)}</h4><table class="cl-table">{head}{"".join(rows)}'
            f'</table><div class="cl-note">{escape(gold)}</div></div>'
        )
        self._chart(t, now)

    def _chart(self, t: Translator, risk: Any) -> None:
        if not self.chart_toggle.value:
            self.image.layout.display = "none"
            return
        try:
            from ..analysis.charts import risk_chart

            self.image.value = _png(risk_chart(risk, t))
            self.image.layout.display = None
        except Exception:
            LOG.exception("risk chart failed")
            self.image.layout.display = "none"


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
        self.image = W.Image(format="png", layout=W.Layout(max_width="100%", display="none"))
        self.box = W.VBox([W.HBox([self.button, self.compare, self.follow]), self.html, self.image])
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
        self.image.layout.display = "none"
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
            from ..analysis.risk import compare_moves
        except ImportError:
            self.html.value = escape(t.gettext("The move comparison is not installed."))
            return
        moves = compare_moves(v, samples=COMPARE_SAMPLES, seed=v.round * 1000 + len(v.hand))
        moves.sort(key=lambda m: -m.score.mean)
        rows = "".join(
            f"<tr><td>{escape(action_text(t, m.action))}</td><td>{format_number(m.score.mean, t.lang, 1)}</td>"
            f"<td>{_percent(m.p_exceed_any.mean, t)}</td></tr>"
            for m in moves[:8]
        )
        head = (
            f"<tr><th>{escape(t.gettext('move'))}</th><th>{escape(t.gettext('points at round end'))}</th>"
            f"<th>{escape(t.gettext('chance to exceed'))}</th></tr>"
        )
        note = t.gettext("Simulated: {n} deals of the unseen cards per move, the others playing by rule of thumb.")
        self.html.value = (
            f'<table class="cl-table">{head}{rows}</table><div class="cl-note">'
            f"{escape(note.format(n=COMPARE_SAMPLES))}</div>"
        )
        try:
            from ..analysis.charts import move_chart

            self.image.value = _png(move_chart(moves, t))
            self.image.layout.display = None
        except Exception:
            self.image.layout.display = "none"

    def _follow(self) -> None:
        if self._suggested is not None:
            self.on_action(self._suggested)
