"""One game on screen: the table, the learner's controls, undo, the log, the round end, the scores.

A ``GamePanel`` draws a ``Session`` and turns clicks into its moves. Free play and
every chapter use one. A failure in a click shows a short message, never a
traceback (the traceback goes to the server's log).
"""

from __future__ import annotations

import logging
import time
from html import escape
from typing import Callable

import ipywidgets as W

from ..engine.cards import N_
from ..i18n import Translator
from ..engine.notation import Action
from ..engine.state import GOLD
from .base import tagged
from .controls import Controls
from .extras import HintPanel, RiskPanel
from .roundend import gold_decision_html, report_html
from .scoresheet import score_sheet_html
from .session import Session
from ..lessons.table import table_html
from .text import log_line

LOG = logging.getLogger("capital_lux.tutor")
#: How many log lines the page keeps (the newest last).
LOG_LINES = 150


class GamePanel:
    """Widgets showing one session from the learner's seat."""

    def __init__(self, t: Translator, session: Session, extras: bool = True) -> None:
        self.t = t
        self.session = session
        self.on_move: list[Callable[[GamePanel, Action], None]] = []
        self.on_undo: list[Callable[[GamePanel], None]] = []
        self.last_render_seconds = 0.0
        self.table = tagged(W.HTML(), "cl-table-html")
        self.controls = Controls(self._act)
        self.message = W.HTML()
        self._notice: tuple[str, str] | None = None  # (css class, English msgid): redrawn in each language
        self.recent = tagged(W.HTML(), "cl-recent")  # what the others did after the learner's last move
        self._recent_from: int | None = None
        self.reports_from = 0  # round-end reports before this one are not shown (a lesson's past)
        self.undo_button = tagged(W.Button(layout=W.Layout(width="auto")), "cl-undo")
        self.undo_button.on_click(lambda _: self._guard(self._undo))
        self.log = tagged(W.HTML(), "cl-log-html")
        self.roundend = W.HTML()
        self.scores = tagged(W.HTML(), "cl-scores-html")
        self.risk = RiskPanel() if extras else None
        self.hint = HintPanel(self._act) if extras else None
        side = [self.scores]
        if self.risk is not None:
            side.insert(0, self.risk.box)
        if self.hint is not None:
            side.insert(0, self.hint.box)
        self.log_title = W.HTML()
        # Right under the hand: one risk line per colour, in view without scrolling (the panel's figures)
        lines = [self.risk.lines] if self.risk is not None else []
        left = W.VBox([self.message, self.recent, self.controls.box, *lines, self.undo_button, self.roundend],
                      layout=W.Layout(flex="3 1 560px", margin="0 12px 0 0"))
        right = W.VBox([*side, self.log_title, self.log], layout=W.Layout(flex="2 1 380px"))
        below = W.HBox([left, right], layout=W.Layout(flex_flow="row wrap", width="100%"))
        self.table.layout = W.Layout(width="100%", overflow="auto")
        self.box = tagged(W.VBox([self.table, below], layout=W.Layout(width="100%")), "cl-game")
        self.render()

    # -- drawing ------------------------------------------------------------------------
    def set_language(self, t: Translator) -> None:
        self.t = t
        self.render()

    def notify(self, notice: tuple[str, str] | None) -> None:
        """A one-line note above the controls, kept as a msgid so a language change redraws it."""
        self._notice = notice
        self.message.value = (
            "" if notice is None else f'<div class="{notice[0]}">{escape(self.t.gettext(notice[1]))}</div>'
        )

    def set_session(self, session: Session) -> None:
        self.session = session
        if self.risk is not None:
            self.risk.forget_game()  # a new game: the last game's decisions leave the chart at once
        self.controls.selected = None
        self._notice = None
        self._recent_from = None
        self.render()

    def render(self) -> None:
        start = time.perf_counter()
        t, s = self.t, self.session
        v = s.view()
        self.controls.render(t, v)
        self.notify(self._notice)
        self.undo_button.description = t.gettext("Undo my last move")
        self.undo_button.tooltip = t.gettext(
            "Takes back your last move and the bots' moves after it. A move after which you saw a hidden card "
            "or modifier cannot be taken back: what you have seen stays seen."
        )
        self.undo_button.disabled = not s.can_undo()
        lines = [log_line(t, e, s.seat) for e in reversed(s.log[-LOG_LINES:])]
        self.log_title.value = f"<h4>{escape(t.gettext('Game log (newest first)'))}</h4>"
        self.log.value = '<div class="cl-log">' + "".join(f"<p>{escape(x)}</p>" for x in lines if x) + "</div>"
        recent = []
        if self._recent_from is not None:
            recent = [x for x in (log_line(t, e, s.seat) for e in s.log[self._recent_from :]) if x]
        # The decision first, then everything that followed, however long (a round end is long).
        self.recent.value = (
            f'<div class="cl-note"><b>{escape(t.gettext("Your decision and what followed:"))}</b><br>'
            f'<span class="cl-my-decision">{escape(recent[0])}</span>'
            + "".join(f"<br>{escape(x)}" for x in recent[1:]) + "</div>"
            if recent else ""
        )
        if v.phase == GOLD and s.learner_to_move():
            self.roundend.value = gold_decision_html(t, v)
        elif len(s.reports) > self.reports_from:
            self.roundend.value = report_html(t, s.reports[-1], s.seat)
        else:
            self.roundend.value = ""
        winners = s.state.winners() if s.is_over() else None  # public once the game is over
        self.scores.value = score_sheet_html(t, v, winners)
        placement_views = s.placement_views()  # for the guess from where modifiers lie
        if self.risk is not None:
            self.risk.render(t, v, placement_views)
        if self.hint is not None:
            self.hint.render(t, v, placement_views)
        # Last: a browser that sees the new table (its data-move) sees every other part updated.
        self.table.value = table_html(t, v, s.moves)
        self.last_render_seconds = time.perf_counter() - start

    # -- clicks -------------------------------------------------------------------------
    def _act(self, action: Action) -> None:
        self._guard(lambda: self._play(action))

    def _play(self, action: Action) -> None:
        start = len(self.session.log)
        self.session.play(action)
        self._recent_from = start
        self._notice = None
        self.render()
        for listener in self.on_move:
            listener(self, action)

    def _undo(self) -> None:
        if not self.session.can_undo():
            return
        self.session.undo()
        self._recent_from = None
        self._notice = ("cl-note", N_("Your last move was taken back."))
        self.render()
        for listener in self.on_undo:
            listener(self)

    def _guard(self, work: Callable[[], None]) -> None:
        try:
            work()
        except Exception:  # a friendly message for the learner, the details for the server log
            LOG.exception("tutor action failed")
            self._notice = ("cl-error", N_("Sorry, that did not work. The game is unchanged; please try again."))
            self.notify(self._notice)
            try:
                self.render()
            except Exception:
                LOG.exception("tutor redraw failed")
