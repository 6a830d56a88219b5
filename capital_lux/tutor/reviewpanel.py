"""The review at the end of free play, and "Learn from your mistakes".

When the game is over, "Review my game" judges every decision (``analysis.review``) as a
job of the page's runner: the learner's own decisions first, each row shown as it is
judged, then the key moments and the mistakes to try again; then the bots' decisions, for
the summary that sets the learner's accuracy beside theirs. A stop button, a new game or
the runner's time budget ends the job; what was judged stays on show, and the page says
the review is partial.

"Learn from your mistakes" shows the table as the learner saw it before each move judged
worse than good, and asks for another move until one is within the "good" threshold; then
it says what the first choice cost. The verdicts were computed once, for every legal move.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from html import escape
from typing import Callable, Unpack

import ipywidgets as W

from ..analysis.review import (DEFAULT_HORIZON, GAME_HORIZON, THRESHOLDS, Decision, Review, ReviewOptions, RoundEnd,
                               decisions_of, review_game, round_ends_of)
from ..analysis.review_text import (chart_sentences, loss_text, method_sentences, moment_sentence, moment_title,
                                   move_text, reason_sentence, summary_headers, summary_rows, table_headers,
                                   table_rows, verdict_name)
from ..engine.cards import N_
from ..engine.errors import Cancelled
from ..engine.views import PlayerView
from ..i18n import Translator
from ..i18n.formatting import format_number
from ..i18n.sentences import LEARNER
from ..lessons.table import table_html
from .base import tagged
from .session import Session
from .work import Job, WorkRunner, page_runner

LOG = logging.getLogger("capital_lux.tutor")
#: The share of the page's work budget (``WorkRunner.budget_seconds``, wall seconds) the review
#: gives itself: it ends, every decision judged, before the runner would stop it.
REVIEW_SHARE = 0.8


def _table(headers: list[str], rows: list[list[str]], classes: list[str] | None = None) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join(f'<tr class="{classes[i] if classes else ""}">' + "".join(f"<td>{escape(c)}</td>" for c in row)
                   + "</tr>" for i, row in enumerate(rows))
    return f'{_STYLE}<table class="cl-review-grid"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


#: The verdict is written in every row; the shade only repeats it (colour is never the only signal).
_STYLE = ("<style>.cl-review-grid{border-collapse:collapse;margin:4px 0 12px}.cl-review-grid th,.cl-review-grid td"
          "{border:1px solid #bbb;padding:2px 6px;text-align:left;vertical-align:top}.cl-review-grid th"
          "{background:#eee}.cl-review-grid tr.v-blunder,.cl-review-grid tr.v-mistake{font-weight:bold}"
          ".cl-review-grid tr.v-blunder{background:#f6d5d5}.cl-review-grid tr.v-mistake{background:#f8e6cc}"
          ".cl-review-grid tr.v-inaccuracy{background:#fbf3d0}</style>")


class ReviewPanel:
    """The review step of one free game (hidden until the game is over)."""

    def __init__(self, runner: WorkRunner | None = None) -> None:
        self.runner = runner if runner is not None else page_runner()
        self.title = W.HTML()
        self.start_button = tagged(W.Button(button_style="info", layout=W.Layout(width="auto")), "cl-review-start")
        self.start_button.on_click(lambda _: self.start())
        #: How far each move's effect is counted: the game's end (the default) or the round's (quicker).
        self.horizon = tagged(W.Dropdown(layout=W.Layout(width="auto")), "cl-review-horizon")  # labelled by render
        self._horizon_lang = ""
        self.progress = tagged(W.FloatProgress(value=0.0, min=0.0, max=1.0, layout=W.Layout(display="none")),
                               "cl-review-progress")
        self.stop = tagged(W.Button(layout=W.Layout(width="auto", display="none")), "cl-review-stop")
        self.stop.on_click(lambda _: self.cancel())
        self.note = tagged(W.HTML(), "cl-review-note")
        self.moments = tagged(W.HTML(), "cl-review-moments")
        # One button per key moment, drawn again only when the moments or the language change.
        self.open_buttons = tagged(W.HBox(layout=W.Layout(flex_flow="row wrap")), "cl-review-open-moments")
        self._open_drawn: tuple[str, tuple[int, ...]] = ("", ())
        #: Opens a moment (the learner's view then, its title, the review's horizon and opponent
        #: model) in the what-if explorer: the tutor sets it to its own explorer tab; without it
        #: the buttons stay hidden.
        self.open_position: Callable[[PlayerView, str, str, str], None] | None = None
        self.chart = tagged(W.Image(format="png", layout=W.Layout(max_width="900px", display="none")),
                            "cl-review-chart")
        self.chart_note = tagged(W.HTML(), "cl-review-chart-note")
        self._chart_drawn: tuple[str, int] = ("", 0)
        self.learner_done = False  # the learner's own decisions are all judged (or the review stopped)
        self.table = tagged(W.HTML(), "cl-review-table")
        self.summary = tagged(W.HTML(), "cl-review-summary")
        self.learn_title = W.HTML()
        self.position = tagged(W.HTML(), "cl-review-position")
        self.tries = tagged(W.HBox(layout=W.Layout(flex_flow="row wrap")), "cl-review-tries")
        self._tries_drawn: Decision | None = None  # the decision and language the buttons were drawn for
        self._tries_lang = ""
        self.feedback = tagged(W.HTML(), "cl-review-feedback")
        self.next_button = tagged(W.Button(layout=W.Layout(width="auto", display="none")), "cl-review-next")
        self.next_button.on_click(lambda _: self._next())
        self.learn = W.VBox([self.learn_title, self.position, self.tries, self.feedback, self.next_button],
                            layout=W.Layout(display="none"))
        self.box = tagged(W.VBox([self.title, W.HBox([self.horizon, self.start_button, self.progress, self.stop]), self.note,
                                  self.chart, self.chart_note, self.moments, self.open_buttons, self.learn,
                                  self.table, self.summary],
                                 layout=W.Layout(display="none")), "cl-review")
        #: The other seats are bots ("Bot 1"), as on the game page; a page where people play them
        #: sets it False ("Player 1"), as its table calls them.
        self.bots = True
        self.t: Translator | None = None
        self.session: Session | None = None
        self.job: Job[Review | None] | None = None
        self.review: Review | None = None
        self.complete = False  # every seat's decisions judged
        self.views: dict[int, PlayerView] = {}
        self.mistakes: list[Decision] = []
        self.current = 0  # the mistake on show
        self.found = False
        self._lock = threading.RLock()
        self._request: object = None

    # -- the game ----------------------------------------------------------------------------
    def show(self, t: Translator, session: Session) -> None:
        """The panel for ``session``: hidden while the game goes on, offered once it is over."""
        with self._lock:
            if session is not self.session:
                self._forget()
                self.session = session
            self.t = t
            self.box.layout.display = None if session.is_over() else "none"
            self.render()

    def _forget(self) -> None:
        self._request = None
        if self.job is not None:
            self.job.cancel()
        self.review, self.complete, self.views, self.mistakes, self.current, self.found = None, False, {}, [], 0, False
        self.learner_done, self._chart_drawn = False, ("", 0)
        self.feedback.value = ""  # a verdict on another game's position must not stay under this one's
        self._tries_drawn = None
        self._busy(False)

    def _busy(self, busy: bool) -> None:
        self.progress.layout.display = None if busy else "none"
        self.stop.layout.display = None if busy else "none"
        self.start_button.disabled = self.horizon.disabled = busy

    def cancel(self) -> None:
        with self._lock:
            self._request = None
            if self.job is not None:
                self.job.cancel()
            self._busy(False)
            self.render()

    def wait(self, timeout: float | None = None) -> None:
        """Until the review on show is complete or stopped (for tests and scripts)."""
        if self.job is not None:
            self.job.wait(timeout)

    def start(self, **given: Unpack[ReviewOptions]) -> Job[Review | None] | None:
        """Judge the game's decisions, the learner's first, as a job of the page's runner
        (``given`` go to ``review_game``; the horizon is the page's choice unless given)."""
        options: ReviewOptions = {"horizon": str(self.horizon.value), **given}
        session = self.session
        if session is None or not session.is_over():
            return None
        with self._lock:
            self._forget()
            mine = self._request = object()
            self.progress.value = 0.0
            self._busy(True)
            self.render()
        record, seat = session.game.record(), session.seat
        found = decisions_of(record)
        ends = round_ends_of(record)
        with self._lock:  # what the learner saw at each decision: the key moments open it
            self.views = {index: v for index, v, _ in found if v.viewer == seat}

        # The review's own budget, on the page's clock, ends before the runner's: every decision is
        # judged, at the depth it allows. The learner's decisions get their share first.
        budget = REVIEW_SHARE * self.runner.budget_seconds
        mine_count = sum(v.viewer == seat for _, v, _ in found)
        learner_budget = budget * max(0.5, mine_count / max(1, len(found)))
        began = time.monotonic()

        def work(job: Job[Review | None]) -> Review | None:
            done: list[Decision] = []
            views = self.views
            total = max(1, len(found))

            def judged(d: Decision) -> None:
                with self._lock:
                    if self._request is not mine:
                        raise Cancelled("cancelled")
                    done.append(d)
                    self.review = _partial(record.players, record.seed, seat, done, options, ends)
                    self.progress.value = len(done) / total
                    self.render()
                job.check(len(done) / total)

            others = [p for p in range(record.players) if p != seat]
            try:
                review_game(record, seat, seats=[seat], should_stop=job.stopping, on_decision=judged,
                            budget=learner_budget, clock=time.monotonic, **options)
                with self._lock:
                    if self._request is mine:
                        self.views, self.mistakes, self.learner_done = views, _mistakes(done, seat), True
                        self.render()
                review_game(record, seat, seats=others, should_stop=job.stopping, on_decision=judged,
                            budget=max(0.0, budget - (time.monotonic() - began)), clock=time.monotonic, **options)
            except Cancelled:
                with self._lock:
                    if self._request is mine:
                        self.views, self.mistakes, self.learner_done = views, _mistakes(done, seat), True
                        self._busy(False)
                        self.render()
                raise
            except Exception:
                LOG.exception("the review failed")
                with self._lock:
                    if self._request is mine:
                        self._busy(False)
                        self.note.value = self._note("cl-error", N_("Sorry, the review could not be made."))
                raise
            with self._lock:
                if self._request is not mine:
                    return None
                self.complete = True
                self.review = dataclasses.replace(self.review, judged_all=True) if self.review is not None else None
                self._busy(False)
                self.render()
                return self.review

        self.job = self.runner.submit(work)
        return self.job

    # -- drawing -----------------------------------------------------------------------------
    def _note(self, css: str, msgid: str) -> str:
        assert self.t is not None
        return f'<div class="cl-note {css}" role="status">{escape(self.t.gettext(msgid))}</div>'

    def render(self) -> None:
        t, review = self.t, self.review
        if t is None:
            return
        self.title.value = f"<h3>{escape(t.gettext('Review of your game'))}</h3>"
        self.start_button.description = t.gettext("Review my game")
        if self._horizon_lang != t.lang:  # new labels, the same choice
            self._horizon_lang, chosen = t.lang, self.horizon.value or DEFAULT_HORIZON
            self.horizon.options = [(t.gettext("to the round's end (surest)"), "round"),
                                    (t.gettext("to the game's end (fewer moves told apart)"), "game")]
            self.horizon.value = chosen
            self.horizon.description = t.gettext("Judge each move")
        self.stop.description = t.gettext("Stop")
        self.progress.description = t.gettext("Reviewing…")
        if review is None:
            self.note.value = "" if self.progress.layout.display == "none" else self._note(
                "cl-review-working", N_("Judging your decisions, from what you could see at each one…"))
            self.moments.value = self.table.value = self.summary.value = self.chart_note.value = ""
            self.learn.layout.display = self.chart.layout.display = "none"
            self._draw_open_buttons(t, [])
            return
        busy = self.progress.layout.display != "none"
        notes = [f"<p>{escape(s)}</p>" for s in method_sentences(t, review)]
        if not busy and not self.complete:
            notes.append(self._note("cl-review-partial", N_("The review was stopped before every decision was "
                                                            "judged: what is shown covers the decisions judged so far.")))
        self.note.value = '<div class="cl-note">' + "".join(notes) + "</div>"
        mine = review.of_seat(review.seat)
        self.table.value = (f"<h4>{escape(t.gettext('Every decision'))}</h4>"
                            + _table(table_headers(t), table_rows(t, mine, review), [f"v-{d.verdict}" for d in mine]))
        moments = review.key_moments()
        items = "".join(f"<li><b>{escape(moment_title(t, d))}</b><br>{escape(moment_sentence(t, d, review.depth_of(d)))}"
                        f' <span class="cl-review-why">{escape(reason_sentence(t, d))}</span></li>' for d in moments)
        none = escape(t.gettext("No decision lost more than a good move may."))
        self.moments.value = (f"<h4>{escape(t.gettext('Key moments'))}</h4>"
                              + (f"<ol>{items}</ol>" if items else f"<p>{none}</p>"))
        self.summary.value = (f"<h4>{escape(t.gettext('Summary per player and round'))}</h4>"
                              + _table(summary_headers(t), summary_rows(t, review, LEARNER, self.bots)))
        self._draw_open_buttons(t, moments)
        self._draw_chart(t, review)
        self._render_learn(t)

    def _draw_chart(self, t: Translator, review: Review) -> None:
        """The game chart, once the learner's decisions are judged (the bots' change nothing on it)."""
        mine = len(review.of_seat(review.seat))
        if not self.learner_done or not mine:
            self.chart.layout.display = "none"
            self.chart_note.value = ""
            return
        if self._chart_drawn != (t.lang, mine):
            self._chart_drawn = (t.lang, mine)
            from ..analysis.charts import figure_png, review_chart  # matplotlib with the first chart, not the page

            figure = review_chart(review, t)
            self.chart.value = figure_png(figure)
            self.chart_note.value = ('<div class="cl-note">' + "".join(
                f"<p>{escape(s)}</p>" for s in chart_sentences(t, review)) + "</div>")
        self.chart.layout.display = None

    def _draw_open_buttons(self, t: Translator, moments: list[Decision]) -> None:
        """"Open in the what-if explorer" for each key moment, numbered as in the list."""
        shown = [d for d in moments if d.index in self.views] if self.open_position is not None else []
        key = (t.lang, tuple(d.index for d in shown))
        if key == self._open_drawn:
            return
        self._open_drawn = key
        buttons = []
        for number, d in enumerate(shown, 1):
            button = tagged(W.Button(description=t.gettext("Open key moment {number} in the what-if explorer").format(
                number=number), layout=W.Layout(width="auto")), "cl-review-open")
            button.on_click(lambda _, index=d.index: self.open_moment(index))
            buttons.append(button)
        for old in self.open_buttons.children:
            old.close()
        self.open_buttons.children = tuple(buttons)

    def open_moment(self, index: int) -> PlayerView | None:
        """Open the decision at ``index`` (a key moment) in the what-if explorer, as the learner
        saw it: only their view is passed on. The view passed, or None."""
        v = self.views.get(index)
        moment = next((d for d in (self.review.decisions if self.review else []) if d.index == index), None)
        if v is None or moment is None or self.open_position is None or self.t is None:
            return None
        horizon = "game" if self.review is not None and self.review.horizon == GAME_HORIZON else "round"
        self.open_position(v, moment_title(self.t, moment), horizon, self.review.model if self.review else "rule")
        return v

    def _render_learn(self, t: Translator) -> None:
        if not self.mistakes:
            self.learn.layout.display = "none"
            return
        self.learn.layout.display = None
        d = self.mistakes[self.current]
        v = self.views[d.index]
        self.learn_title.value = (
            f"<h4>{escape(t.gettext('Learn from your mistakes'))}</h4><p>"
            + escape(t.gettext("Position {number} of {count}: {title}").format(
                number=self.current + 1, count=len(self.mistakes), title=moment_title(t, d)))
            + "</p><p>" + escape(t.gettext("You played “{played}”. Find a move that loses less than {good} expected "
                                           "points against the best.").format(
                played=move_text(t, d.played), good=format_number(THRESHOLDS["good"], t.lang, 1))) + "</p>")
        self.position.value = table_html(t, v, d.index, doing=False)
        if self._tries_drawn is not d or self._tries_lang != t.lang:  # the same buttons while the position stays: none vanishes under a click
            self._tries_drawn, self._tries_lang = d, t.lang
            buttons = []
            for move, _ in sorted(d.moves, key=lambda m: m[0]):
                button = tagged(W.Button(description=move_text(t, move), layout=W.Layout(width="auto")), "cl-review-try")
                button.on_click(lambda _, m=move, of=d: self.try_move(m, of))
                buttons.append(button)
            for old in self.tries.children:
                old.close()
            self.tries.children = tuple(buttons)
        self.next_button.description = t.gettext("Next position")
        self.next_button.layout.display = None if self.found and self.current + 1 < len(self.mistakes) else "none"

    # -- learn from your mistakes -------------------------------------------------------------
    def try_move(self, move: str, decision: Decision | None = None) -> str:
        """The learner tries ``move`` at the mistake on show (``decision``: the one its button was
        drawn for; a click on a button of a position no longer shown changes nothing); the
        verdict it earns there."""
        t = self.t
        if t is None or not self.mistakes:
            return ""
        d = self.mistakes[self.current]
        if (decision is not None and decision is not d) or all(m != move for m, _ in d.moves):
            return ""
        verdict = d.verdict_for(move)
        if move == d.played:
            text = t.gettext("That is the move you played. Try another one.")
            css = "cl-review-again"
        elif verdict in ("best", "good"):
            self.found = True
            text = t.gettext("Well found: the verdict on “{move}” here is “{verdict}”. Your first choice, “{played}”, "
                             "cost {loss} expected points.").format(move=move_text(t, move), verdict=verdict_name(t, verdict),
                                                               played=move_text(t, d.played), loss=loss_text(t, d))
            text += " " + reason_sentence(t, d)  # why, once found: before, it would give the answer away
            css = "cl-review-found"
        else:
            lost = d.loss_of(move)[0]
            text = t.gettext("The verdict on “{move}” here is “{verdict}”: it loses {loss} expected points against "
                             "the best. Try again.").format(move=move_text(t, move), verdict=verdict_name(t, verdict),
                                                        loss=format_number(lost, t.lang, 1))
            css = "cl-review-again"
        self.feedback.value = f'<div class="cl-note {css}" role="status">{escape(text)}</div>'
        self._render_learn(t)
        return verdict

    def _next(self) -> None:
        if self.current + 1 < len(self.mistakes):
            self.current += 1
            self._tries_drawn = None
            self.found = False
            self.feedback.value = ""
            if self.t is not None:
                self._render_learn(self.t)

    def set_language(self, t: Translator) -> None:
        self.t = t
        self.feedback.value = ""
        self.render()


def _partial(players: int, seed: int, seat: int, done: list[Decision], options: ReviewOptions,
             ends: tuple[RoundEnd, ...]) -> Review:
    from ..analysis.review import HORIZONS, REVIEW_GAMES

    return Review(players, seed, seat, options.get("model", "rule"), options.get("seed", 0),
                  options.get("games", REVIEW_GAMES), sorted(done, key=lambda d: d.index), True,
                  HORIZONS[options.get("horizon", DEFAULT_HORIZON)], round_ends=ends, judged_all=False)


def _mistakes(done: list[Decision], seat: int) -> list[Decision]:
    """The learner's moves judged worse than good, in the game's order."""
    return sorted((d for d in done if d.seat == seat and d.verdict not in ("best", "good")), key=lambda d: d.index)
