"""One game on screen: the table, the learner's controls, undo, the log, the round end, the scores.

A ``GamePanel`` draws a ``Session`` and turns clicks into its moves. Free play and
every chapter use one. A failure in a click shows a short message, never a
traceback (the traceback goes to the server's log).

At a round end the panel pauses: the round end step by step on top, the table as the
round end left it, each event said once, and the next round's draft only after the
learner clicks "Continue to round N" (the session itself has already moved on; the
pause is only what the page shows).
"""

from __future__ import annotations

import time
from html import escape
from typing import Callable

import ipywidgets as W

from ..engine.cards import N_
from ..i18n import Translator
from ..engine.notation import Action
from ..engine.views import LogItem
from ..engine.state import GOLD
from .base import Page, guarded, tagged
from .controls import Controls
from .extras import HintPanel, RiskPanel
from .roundend import REPORTED, RoundEndReport, gold_decision_html, paused_table, report_html
from .scoresheet import score_sheet_html
from .session import Session
from ..lessons.table import table_html
from .text import log_line, people_at_the_table

#: How many log lines the page keeps (the newest last).
LOG_LINES = 150
UNDO_TOOLTIP = N_("Takes back your last move and the bots' moves after it. A move after which you saw a hidden card "
                  "or modifier cannot be taken back: what you have seen stays seen.")


class GamePanel(Page):
    """Widgets showing one session from the learner's seat."""

    def __init__(self, t: Translator, session: Session, extras: bool = True, pause: bool = True) -> None:
        super().__init__(t)
        label = self.labels
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
        self.pause = pause  # stop at each round end until the learner continues
        self.continued = len(session.reports)  # round ends the learner has read (or that came before)
        self.pause_text = W.HTML()
        self.continue_button = tagged(W.Button(button_style="primary", layout=W.Layout(width="auto")), "cl-continue")
        self.continue_button.on_click(lambda _: self._guard(self._continue))
        self.pause_box = tagged(W.VBox([self.pause_text, self.continue_button], layout=W.Layout(display="none")),
                                "cl-pause")
        self.tie_breaks = True  # the score sheet's 6s…2s columns (a chapter before they are taught: off)
        self.undoable = True  # off at a table of learners: the others have seen the move
        self.people = False  # the other seats are people (a class table, pass-and-play): "Player 1", not "Bot 1"
        self.undo_button = label(label(tagged(W.Button(layout=W.Layout(width="auto")), "cl-undo"),
                                       N_("Undo my last move")), UNDO_TOOLTIP, "tooltip")
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
        self.log_title = label(W.HTML(), lambda t: f"<h4>{escape(t.gettext('Game log (newest first)'))}</h4>", "value")
        # Right under the hand: one risk line per colour, in view without scrolling (the panel's figures);
        # what followed the learner's last move comes after them, however long it is
        lines = [self.risk.lines] if self.risk is not None else []
        left = W.VBox([self.message, self.controls.box, *lines, self.recent, self.undo_button, self.roundend],
                      layout=W.Layout(flex="3 1 560px", margin="0 12px 0 0"))
        right = W.VBox([*side, self.log_title, self.log], layout=W.Layout(flex="2 1 380px"))
        below = W.HBox([left, right], layout=W.Layout(flex_flow="row wrap", width="100%"))
        self.table.layout = W.Layout(width="100%", overflow="auto")
        self.box = tagged(W.VBox([self.pause_box, self.table, below], layout=W.Layout(width="100%")), "cl-game")
        self.relabel()
        self.render()

    # -- drawing ------------------------------------------------------------------------
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
        self.continued = len(session.reports)  # a game taken up mid-way does not pause on its past
        self.render()

    def paused_on(self) -> RoundEndReport | None:
        """The round end the page is paused on, or None (the game's end is not a pause: nothing follows it)."""
        s = self.session
        if not self.pause or len(s.reports) <= self.continued or s.is_over() or s.reports[-1].table is None:
            return None
        return s.reports[-1]

    def render(self) -> None:
        with people_at_the_table(self.people):
            self._render()

    def _render(self) -> None:
        start = time.perf_counter()
        t, s = self.t, self.session
        v = s.view()
        report = self.paused_on()
        shown = paused_table(report) if report is not None else None
        self.controls.render(t, v)
        self.controls.box.layout.display = "none" if report else None
        self.undo_button.layout.display = "none" if report or not self.undoable else None
        self.notify(self._notice)
        self.undo_button.disabled = not s.can_undo()
        lines = [log_line(t, e, s.seat) for e in reversed(self._told(report, 0)[-LOG_LINES:])]
        self.log.value = '<div class="cl-log">' + "".join(f"<p>{escape(x)}</p>" for x in lines if x) + "</div>"
        recent = []
        if self._recent_from is not None:
            recent = [x for x in (log_line(t, e, s.seat) for e in self._told(report, self._recent_from)) if x]
        # The decision first, then everything that followed, however long (a round end is long).
        self.recent.value = (
            f'<div class="cl-note"><b>{escape(t.gettext("Your decision and what followed:"))}</b><br>'
            f'<span class="cl-my-decision">{escape(recent[0])}</span>'
            + "".join(f"<br>{escape(x)}" for x in recent[1:]) + "</div>"
            if recent else ""
        )
        self.pause_box.layout.display = None if report else "none"
        if report is not None:
            self.pause_text.value = '<div class="cl-note cl-pause-note"><b>{}</b></div>{}'.format(
                escape(t.gettext("Round {number} is over. Read how it ended, step by step, then continue to round "
                                 "{next}.").format(number=report.round, next=report.round + 1)),
                report_html(t, report, s.seat))
            self.continue_button.description = t.gettext("Continue to round {number}").format(number=report.round + 1)
            self.roundend.value = ""  # on top, once
        elif v.phase == GOLD and s.learner_to_move():
            self.roundend.value = gold_decision_html(t, v)
        elif len(s.reports) > self.reports_from:
            self.roundend.value = report_html(t, s.reports[-1], s.seat)
        else:
            self.roundend.value = ""
        winners = s.state.winners() if s.is_over() else None  # public once the game is over
        self.scores.value = score_sheet_html(t, shown or v, winners, self.tie_breaks)
        for part in (self.risk, self.hint):  # advice on the next round waits for it
            if part is not None:
                part.box.layout.display = "none" if report else None
        if shown is not None:
            # nothing to decide on the paused table: no hint to ask, and the risk lines (beside the
            # hand, outside the risk box) go as the table's own round-end phase has them: the reveal says it all
            for part in (self.risk, self.hint):
                if part is not None:
                    part.render(t, shown)
        elif report is None:
            placement_views = s.placement_views()  # for the guess from where modifiers lie
            if self.risk is not None:
                self.risk.render(t, v, placement_views)
            if self.hint is not None:
                self.hint.render(t, v, placement_views)
        # Last: a browser that sees the new table (its data-move) sees every other part updated.
        bots = not self.people
        self.table.value = (table_html(t, shown, s.moves, bots, doing=False) if shown
                            else table_html(t, v, s.moves, bots))
        self.last_render_seconds = time.perf_counter() - start

    def _told(self, report: RoundEndReport | None, start: int) -> list[LogItem]:
        """The log from ``start``; while paused on ``report``, only up to its round end and
        without what the step-by-step report tells (each event is said once)."""
        log = self.session.log
        if report is None:
            return log[start:]
        since = max((i for i, e in enumerate(log[: report.log_end]) if e.kind == "round_start"), default=0)
        return [e for i, e in enumerate(log[: report.log_end]) if i >= start and not (i >= since and e.kind in REPORTED)]

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

    def _continue(self) -> None:
        """Past the round end the page paused on: the next round's table and decisions."""
        self.continued = len(self.session.reports)
        self._recent_from = None  # the round end has been read; its story stays in the log
        self.render()

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
        self.guard(work, N_("Sorry, that did not work. The game is unchanged; please try again."), self._failed)

    def _failed(self, sorry: str) -> None:
        """The notice (a msgid, redrawn in each language), then the page as it now is."""
        self._notice = ("cl-error", sorry)
        self.notify(self._notice)
        guarded(self.render, lambda: None, "tutor redraw failed")
