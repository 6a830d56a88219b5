"""The risk panel and the move comparison: the learner's question, answered from their view only.

"If the round ended now" is exact and shown at once (the teaching step from the certain
to the uncertain); "at the round end, if the others play like …" is worked out in a
background thread (``analysis.forward``), exact when the rest of the round is small and
simulated with its interval otherwise, and the panel says which. "Compare my moves at the
round end" ranks every move under the same model and placement, as a job of the session's
``WorkRunner`` (progress bar, stop button, time budget). Neither blocks the other controls:
a new table or a new request cancels the work in progress.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from html import escape
from typing import TYPE_CHECKING, Callable, Unpack

import ipywidgets as W

from ..engine.cards import COLOURS
from ..engine.errors import Cancelled
from ..engine.notation import CAPITAL, HOME, Action, Play
from ..engine.state import GOLD, OVER, PLAY
from ..engine.views import PlayerView
from ..i18n import Translator, format_chance, format_number
from ..i18n.sentences import action_label, colour_text, model_name
from .base import tagged
from .riskline import chance, hands_sentence, points as points, points_text, risk_lines_html
from .work import Job, WorkRunner, page_runner

if TYPE_CHECKING:  # the analysis is imported when first used: the first screen does without it
    from ..analysis.forward import ForwardRisk, MoveRisk, RankOptions, Ranking
    from ..analysis.risk import RoundEndRisk
    from ..analysis.stats import Estimate

LOG = logging.getLogger("capital_lux.tutor")

#: The panel simulates until every probability is within this many points (or exact) ...
PANEL_TARGET = 0.05
#: ... or this many games, whichever comes first.
PANEL_SAMPLES = 2000


def signed(x: float, t: Translator) -> str:
    """A score change with a true minus sign and no plus (so it never reads like a modifier)."""
    return format_number(x, t.lang, 1).replace("-", "\u2212")


def method_text(t: Translator, risk: ForwardRisk) -> str:
    """ "exact" or "simulated (N games, ±x points)", for any forward result."""
    if risk.exact:
        return t.gettext("exact")
    return t.gettext("simulated ({n} games, ±{x} points)").format(
        n=format_number(risk.samples, t.lang), x=points(risk.widest(), t)
    )


def chart_image(css_class: str) -> W.Image:
    """A chart's place, hidden until drawn. The charts are drawn as wide as the side column
    (``charts.SIDE_WIDTH_IN``) and shown at their own size: neither shrunk (their text with them)
    nor stretched."""
    layout = W.Layout(max_width="100%", align_self="flex-start", display="none")
    return tagged(W.Image(format="png", layout=layout), css_class)


def modifier_sentences(t: Translator, v: PlayerView, risk: ForwardRisk) -> list[str]:
    """What the panel says about each face-down modifier the learner cannot see."""
    from .text import player_name

    prior = risk.prior
    if prior is None or not prior.hidden:
        return []
    if risk.placement == "random":
        return [t.gettext("Face-down modifiers are taken as placed at random: where they lie is not used.")]
    placed = [k for k, hidden in enumerate(prior.hidden) if hidden.colour is not None]
    if placed and set(placed) <= prior.unseen_placements:
        return [t.gettext("These modifiers were placed before the tutor followed this game, so every value they "
                          "could have is taken as equally likely.")]
    if not prior.used_placements:
        return [t.gettext("No values fit where the {bot} would have put these modifiers, so they are taken as "
                          "placed at random.").format(bot=model_name(t, risk.model))]
    lines = []
    for k in placed:
        hidden = prior.hidden[k]
        assert hidden.colour is not None
        p = prior.p_negative(k)
        values = {"player": player_name(t, hidden.owner, v.viewer), "colour": colour_text(t, hidden.colour),
                  "p": chance(p, t)}
        if k in prior.unseen_placements:
            text = t.gettext("The modifier {player} put above {colour} was placed before the tutor followed this "
                             "game: its values are taken as equally likely ({p} chance that it is negative).")
        elif p in (0, 1):  # certain under the model only: no "100%" for what is not a fact
            values["bot"] = model_name(t, risk.model)
            text = (t.gettext("The modifier {player} put above {colour} is negative if they place modifiers like "
                              "the {bot}: every value that fits where it lies is negative.") if p == 1 else
                    t.gettext("The modifier {player} put above {colour} is positive if they place modifiers like "
                              "the {bot}: every value that fits where it lies is positive."))
        elif p >= 0.7:
            text = t.gettext("The modifier {player} put above {colour} is probably negative ({p} chance).")
        elif p <= 0.3:
            text = t.gettext("The modifier {player} put above {colour} is probably positive "
                             "({p} chance that it is negative).")
        else:
            text = t.gettext("The modifier {player} put above {colour} may be negative or positive "
                             "({p} chance that it is negative).")
        lines.append(text.format(**values))
    return lines


class _Worker:
    """One background computation at a time; starting another cancels the one running."""

    def __init__(self) -> None:
        self._generation = 0
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def start(self, work: Callable[[Callable[[], bool]], None]) -> None:
        with self._lock:
            self._generation += 1
            mine = self._generation

        def stale() -> bool:
            return self._generation != mine

        def run() -> None:
            try:
                work(stale)
            except Cancelled:  # a newer request took over
                pass
            except Exception:
                LOG.exception("risk computation failed")

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def wait(self, timeout: float | None = None) -> None:
        """Until the latest computation is done (for tests and scripts)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def cancel(self) -> None:
        with self._lock:
            self._generation += 1


def _played(before: PlayerView, after: PlayerView) -> Action | None:
    """The learner's card play between two of their views, read from the table (no history)."""
    gone = Counter(before.hand) - Counter(after.hand)
    if not gone or before.round != after.round:
        return None
    card = sorted(gone)[0]
    me = after.viewer
    home_before = Counter(before.hometowns[me][card.colour])
    home_after = Counter(after.hometowns[me][card.colour])
    return Play(card, HOME if home_after[card.value] > home_before[card.value] else CAPITAL)


class RiskPanel:
    """Each colour's chance to exceed: if the round ended now (exact) and at the real round end."""

    def __init__(self, samples: int = PANEL_SAMPLES, target: float = PANEL_TARGET, exact_ms: float | None = None,
                 runner: WorkRunner | None = None) -> None:
        from ..analysis.forward import EXACT_MS

        self.samples, self.target = samples, target
        self.exact_ms = EXACT_MS if exact_ms is None else exact_ms
        self.show = tagged(W.Checkbox(value=True, indent=False), "cl-risk-toggle")
        self.model = tagged(W.Dropdown(layout=W.Layout(width="auto")), "cl-wrap")  # options: in the reader's language
        self.model.add_class("cl-risk-model")
        self.placement = tagged(W.Dropdown(layout=W.Layout(width="auto")), "cl-wrap")
        self.placement.add_class("cl-risk-placement")
        self.chart_toggle = tagged(W.Checkbox(value=False, indent=False), "cl-risk-chart-toggle")
        self.html = tagged(W.HTML(), "cl-risk")
        # One line per colour, shown beside the hand (``GamePanel`` places it): the same figures as the table.
        self.lines = W.HTML()
        self.image = chart_image("cl-risk-chart")
        # "Compare my moves at the round end": the session's work runner, the dropdowns' model and placement
        self.comparison = MoveComparison(runner)
        self.compare_options: RankOptions = {}  # passed on to ``rank_moves`` (tests settle for less)
        self.compare_button = tagged(W.Button(layout=W.Layout(width="auto")), "cl-risk-compare")
        self.compare_button.on_click(lambda _: self.compare())
        # The comparison opens right under its button and the dropdowns it uses, with the risk table
        # folded meanwhile: it starts beside the hand, and the click scrolls nothing away.
        self.table_box = W.VBox([self.html, self.chart_toggle, self.image])
        self.comparison.on_open = self._fold
        self.box = W.VBox([self.show, W.HBox([self.model, self.placement], layout=W.Layout(flex_flow="row wrap")),
                           self.compare_button, self.comparison.box, self.table_box])
        self._last: tuple[Translator, PlayerView] | None = None
        self._placement_views: dict[tuple[str, int], PlayerView] | None = None
        self._compared: tuple[PlayerView, str, str] | None = None
        self._worker = _Worker()
        self._previous: PlayerView | None = None
        self.timeline: list[tuple[Action | None, ForwardRisk]] = []  # this round's forward risk after each decision
        self._timeline_round = 0
        self._quiet = False  # while the dropdowns are relabelled
        for control in (self.show, self.chart_toggle, self.model, self.placement):
            control.observe(lambda _: None if self._quiet else self._redraw(), names="value")

    def render(self, t: Translator, v: PlayerView,
               placement_views: dict[tuple[str, int], PlayerView] | None = None) -> None:
        """Show ``v``'s risk; ``placement_views`` (``Session.placement_views()``) gives the learner's
        view just before each face-down modifier was placed, for the guess from where it lies."""
        self._last = (t, v)
        self._placement_views = placement_views
        self._redraw()

    def compare(self) -> Job[Ranking | None] | None:
        """Compare every move of the learner at the round end, under the dropdowns' choices."""
        if self._last is None or self.compare_button.disabled:
            return None
        t, v = self._last
        model, placement = str(self.model.value), str(self.placement.value)
        self._compared = (v, model, placement)
        return self.comparison.start(t, v, model, placement, placement_views=self._placement_views,
                                     **self.compare_options)

    def _fold(self, comparing: bool) -> None:
        """The risk table folds while a comparison is on show, and comes back when it closes."""
        self.table_box.layout.display = "none" if comparing else None

    def wait(self, timeout: float | None = None) -> None:
        """Until the round-end figures on show are final."""
        self._worker.wait(timeout)

    def _labels(self, t: Translator) -> None:
        self.show.description = t.gettext("Show the round-end risk")
        self.chart_toggle.description = t.gettext("Chart")
        self.model.description = t.gettext("Others play like")
        self.placement.description = t.gettext("Face-down modifiers")
        self.compare_button.description = t.gettext("Compare my moves at the round end")
        self.comparison.close.description = t.gettext("Close the comparison")
        models = [(model_name(t, m), m) for m in ("rule", "random", "search")]
        placements = [(t.gettext("guessed from where they were put"), "bayes"),
                      (t.gettext("placed at random"), "random")]
        self._quiet = True
        try:
            for control, options in ((self.model, models), (self.placement, placements)):
                if list(control.options) != options:
                    value = control.value
                    control.options = options
                    control.value = value if value in dict(options).values() else options[0][1]
        finally:
            self._quiet = False

    def _redraw(self) -> None:
        if self._last is None:
            return
        t, v = self._last
        self._labels(t)
        if self._compared is not None and self._compared != (v, self.model.value, self.placement.value):
            self._compared = None  # another table or another model: that comparison no longer applies
            self.comparison.clear()
        self.compare_button.disabled = not (self.show.value and v.legal_actions and v.phase not in (GOLD, OVER)
                                            and v.round >= 1)
        if not self.show.value or v.phase in (GOLD, OVER) or v.round < 1:  # after the reveal the table says it all
            self._worker.cancel()
            self.html.value = self.lines.value = ""
            self.image.layout.display = "none"
            return
        try:
            from ..analysis.risk import round_end_risk

            now = round_end_risk(v, include_hand=True)  # the hand goes home at the round end (ruling R9)
        except Exception:
            LOG.exception("risk panel failed")
            self.html.value = f'<div class="cl-note">{escape(t.gettext("The risk cannot be computed here."))}</div>'
            self.lines.value = ""
            return
        self.html.value = self._table(t, v, now, None)
        model, placement = self.model.value, self.placement.value
        bot = model_name(t, str(model))
        self.lines.value = risk_lines_html(t, v, None, bot)
        mine = bool(v.legal_actions) and v.phase == PLAY
        placement_views = self._placement_views

        def work(stale: Callable[[], bool]) -> None:
            from ..analysis.forward import iter_forward_risk

            for risk in iter_forward_risk(v, model, placement, samples=self.samples, seed=v.round,
                                          exact_ms=self.exact_ms, placement_views=placement_views,
                                          batch=200, target=self.target, should_stop=stale):
                if stale():
                    return
                self.html.value = self._table(t, v, now, risk)
                self.lines.value = risk_lines_html(t, v, risk, bot, now)
            if mine:
                self._add_to_timeline(v, risk)
            if not stale():
                self._chart(t)

        self._worker.start(work)

    def forget_game(self) -> None:
        """Another game starts: no earlier decision stays on the chart, even in the same round."""
        self.timeline, self._timeline_round, self._previous = [], 0, None
        self.image.layout.display = "none"

    def _add_to_timeline(self, v: PlayerView, risk: ForwardRisk) -> None:
        if v.round != self._timeline_round:
            self.timeline, self._timeline_round, self._previous = [], v.round, None
        if self._previous is not None and self._previous.hand == v.hand:
            self.timeline[-1] = (self.timeline[-1][0], risk)  # the same decision, asked again
        else:
            action = _played(self._previous, v) if self._previous is not None else None
            self.timeline.append((action, risk))
        self._previous = v

    def _table(self, t: Translator, v: PlayerView, now: RoundEndRisk, risk: ForwardRisk | None) -> str:
        bot = model_name(t, self.model.value)
        head = (
            f"<tr><th></th><th>{escape(t.gettext('your {hometown} with your hand').format(hometown=t.term('Hometown')))}"
            f"</th><th>{escape(t.gettext('If the round ended now'))}</th>"
            f"<th>{escape(t.gettext('At the round end, if the others play like the {bot}').format(bot=bot))}</th>"
            f"<th>{escape(t.gettext('expected points lost'))}</th></tr>"
        )
        rows = []
        for c in COLOURS:
            a = now.colours[c]
            forward = later = "…"
            if risk is not None:
                fc = risk.colours[c]
                forward, lost = chance(fc.p_exceed, t, approx=not risk.exact), fc.points_lost.mean
                later = points_text(lost, t)
                if lost == 0 and fc.p_exceed.mean > 0:  # it may exceed, yet no point is lost: gold keeps it
                    later = t.gettext("{points} (your gold would keep it)").format(points=later)
            rows.append(
                f'<tr data-colour="{c}"><th>{escape(colour_text(t, c))}</th><td>{a.hometown_total}</td>'
                f'<td class="cl-risk-now">{escape(chance(a.p_exceed, t))}</td>'
                f'<td class="cl-risk-forward">{escape(forward)}</td><td>{escape(later)}</td></tr>'
            )
        # The chance of a loss, like every other figure here: never "gold keeps all" beside "exceeds"
        short_now = chance(1 - now.p_afford_all, t)
        if risk is None:
            method = t.gettext("Working out the round end…")
            gold = t.gettext("Chance that your gold is too little to keep every colour that exceeds, if the round "
                             "ended now: {now}.").format(now=short_now)
            notes: list[str] = []
        else:
            method = method_text(t, risk)
            gold = t.gettext("Chance that your gold is too little to keep every colour that exceeds: {now} if the "
                             "round ended now, {forward} at the round end.").format(
                now=short_now, forward=chance(risk.p_gold_keeps_all.complement(), t, approx=not risk.exact))
            notes = [hands_sentence(t), *modifier_sentences(t, v, risk)]
        title = t.gettext("Risk of exceeding the {capital}'s totals").format(capital=t.term("Capital"))
        extra = "".join(f'<div class="cl-note cl-risk-modifier">{escape(x)}</div>' for x in notes)
        return (
            f'<div class="cl-riskpanel"><h4>{escape(title)}</h4><table class="cl-table">{head}{"".join(rows)}</table>'
            f'<div class="cl-note cl-risk-method">{escape(method)}</div><div class="cl-note">{escape(gold)}</div>'
            f"{extra}</div>"
        )

    def _chart(self, t: Translator) -> None:
        from ..analysis.charts import figure_png

        if not self.chart_toggle.value or not self.timeline:
            self.image.layout.display = "none"
            return
        try:
            from ..analysis.charts import timeline_chart

            points = [(action_label(t, a) if a is not None else t.gettext("your first decision"), r)
                      for a, r in self.timeline]
            self.image.value = figure_png(timeline_chart(points, t))
            self.image.layout.display = None
        except Exception:
            LOG.exception("risk chart failed")
            self.image.layout.display = "none"


class MoveComparison:
    """"Compare my moves": every legal move's forward risk, ranked, with a progress bar.

    The work is a job of the session's ``WorkRunner``: off the kernel's main thread, one job
    at a time and within the runner's time budget, so the other controls stay live. The stop
    button, a new table or a new request cancels it.
    """

    def __init__(self, runner: WorkRunner | None = None) -> None:
        self.runner = runner if runner is not None else page_runner()
        self.progress = W.FloatProgress(value=0.0, min=0.0, max=1.0, layout=W.Layout(display="none"))
        self.progress.add_class("cl-compare-progress")
        self.stop = tagged(W.Button(layout=W.Layout(width="auto", display="none")), "cl-compare-stop")
        self.stop.on_click(lambda _: self.cancel())
        self.close = tagged(W.Button(layout=W.Layout(width="auto", display="none")), "cl-compare-close")
        self.close.on_click(lambda _: self.clear())
        self.html = tagged(W.HTML(), "cl-compare-result")
        self.image = chart_image("cl-compare-chart")
        self.box = W.VBox([W.HBox([self.progress, self.stop, self.close]), self.html, self.image])
        #: Told True when a comparison opens and False when it closes (the risk panel folds its table).
        self.on_open: Callable[[bool], None] | None = None
        self.job: Job[Ranking | None] | None = None
        self._request: object = None
        # Held from the check that a job's request is still the one on show to the end of its
        # writes, and by ``clear``: a stopped comparison never gets a late table.
        self._lock = threading.RLock()

    def _busy(self, busy: bool) -> None:
        self.progress.layout.display = None if busy else "none"
        self.stop.layout.display = None if busy else "none"
        self.close.layout.display = "none" if busy or self._request is None else None

    def _opened(self, comparing: bool) -> None:
        if self.on_open is not None:
            self.on_open(comparing)

    def clear(self) -> None:
        with self._lock:
            self._request = None
            if self.job is not None:
                self.job.cancel()
            self._opened(False)  # the risk table back first: the page never shows neither of them
            self._busy(False)
            self.html.value = ""
            self.image.layout.display = "none"

    def cancel(self) -> None:
        self.clear()

    def wait(self, timeout: float | None = None) -> None:
        """Until the comparison on show is complete or stopped (for tests and scripts)."""
        if self.job is not None:
            try:
                self.job.result(timeout)
            except Exception:  # stopped or failed: the widgets say so
                pass

    def start(self, t: Translator, v: PlayerView, model: str = "rule", placement: str = "bayes",
              placement_views: dict[tuple[str, int], PlayerView] | None = None,
              **options: Unpack[RankOptions]) -> Job[Ranking | None]:
        """Compare every legal move of ``v`` under ``model`` and ``placement``, as a job."""
        from ..analysis.charts import forward_move_chart

        self.clear()
        self.progress.value = 0.0
        self.progress.description = t.gettext("Comparing…")
        self.stop.description = t.gettext("Stop")
        self.close.description = t.gettext("Close the comparison")
        mine = self._request = object()  # set before the job can start: it may finish at once
        self._busy(True)
        self._opened(True)

        def work(job: Job[Ranking | None]) -> Ranking | None:
            from ..analysis.charts import figure_png
            from .advice import one_ranking  # the hint's: one ranking, one voice

            bot = model_name(t, model)
            so_far: list[Ranking] = []

            def partial(ranking: Ranking) -> None:  # the ranking sharpens while the learner watches
                so_far[:] = [ranking]
                with self._lock:
                    if self._request is mine:
                        self.html.value = self.table(t, ranking, bot)

            def progress(x: float) -> None:
                job.check(x)  # stops the job here once it is cancelled or over its budget
                with self._lock:
                    if self._request is mine:
                        self.progress.value = job.progress

            try:
                ranking = one_ranking(v, model, placement, placement_views=placement_views, progress=progress,
                                      should_stop=job.stopping, partial=partial, **options)
            except Cancelled:  # WorkStopped too: the one cancellation
                with self._lock:
                    if not job.cancelled and self._request is mine:  # over the session's time budget: say so
                        self._busy(False)
                        if so_far:
                            note = t.gettext("The comparison was stopped: it took longer than the time allowed. "
                                             "The figures above come from the games played so far, with their "
                                             "intervals.")
                            shown = self.table(t, so_far[0], bot)
                        else:
                            note = t.gettext("The comparison was stopped: it took longer than the time allowed.")
                            shown = ""
                        self.html.value = f'{shown}<div class="cl-note cl-compare-stopped">{escape(note)}</div>'
                raise
            except Exception:
                LOG.exception("move comparison failed")
                with self._lock:
                    if self._request is mine:
                        self._busy(False)
                        self.html.value = (f'<div class="cl-note">'
                                           f'{escape(t.gettext("The risk cannot be computed here."))}</div>')
                raise
            if job.cancelled or self._request is not mine:
                return None
            chart = figure_png(forward_move_chart(ranking.moves, t))  # drawn before the lock: it takes a while
            with self._lock:
                if job.cancelled or self._request is not mine:
                    return None
                self._busy(False)
                self.html.value = self.table(t, ranking, bot)
                self.image.value = chart
                self.image.layout.display = None
            return ranking

        self.job = self.runner.submit(work)
        return self.job

    @staticmethod
    def table(t: Translator, ranking: Ranking, bot: str) -> str:
        """Every move in the one ranking's order; the moves as good as the first marked ≈."""
        def cell(q: Estimate, probability: bool) -> str:
            text = format_chance(q.mean, t.lang) if probability else signed(q.mean, t)
            if q.half_width:
                spread = points(q.half_width, t) if probability else signed(q.half_width, t)
                text += " ±" + spread
            return escape(text)

        head = (
            f"<tr><th>{escape(t.gettext('move'))}</th><th>{escape(t.gettext('Expected change of your score'))}"
            f"</th><th>{escape(t.gettext('chance that some colour exceeds its limit at the round end'))}</th>"
            f"<th>{escape(t.gettext('Chance to be ahead after the round'))}</th></tr>"
        )
        def row(k: int, m: MoveRisk) -> str:
            tied = 0 < k < ranking.tied
            return (f'<tr class="{"cl-tied" if tied else "cl-move"}"><td>{"≈ " if tied else ""}'
                    f"{escape(action_label(t, m.action))}</td><td>{cell(m.risk.score_change, False)}</td>"
                    f"<td>{cell(m.risk.p_exceed_any, True)}</td><td>{cell(m.risk.p_ahead, True)}</td></tr>")

        rows = "".join(row(k, m) for k, m in enumerate(ranking.moves))
        order = t.gettext("The hint's move first, then the most points. ≈ marks the moves about as good for your "
                          "points as the first.")
        if ranking.games == 0:
            method = t.gettext("Exact, if the others play like the {bot}.").format(bot=bot)
        else:
            method = t.gettext("Simulated on the same {n} games for every move, if the others play like the {bot}; "
                               "± gives the 95% interval.").format(n=format_number(ranking.games, t.lang), bot=bot)
        return (f'<table class="cl-table cl-compare-table">{head}{rows}</table>'
                f'<div class="cl-note cl-compare-method">{escape(order)} {escape(method)}</div>')
