"""The probability exercises as an app: predict, check, see it converge.

``build_app(lang="fr")`` returns the page's root widget (``root._exercises`` is the
``ExercisesApp``). Each exercise shows its question beside the position, as the
asking player sees it; the learner types a fraction, decimal or percentage and
checks it; a worked solution and a seeded simulation converging on the exact
value open when the teacher's setting allows (by default after an attempt). The
learner's strip (``tutor.classroom``) keeps their name and progress in the class
database; answers and teacher controls are only on the teacher's page.

Every learner works on their own numbers: the same questions on other cards, drawn
from the class seed and their place on the class list (their row, in an open lesson;
or the class seed itself, when the teacher puts everyone on the same numbers). An
exercise's cards are dealt once for the learner and kept, even while the class
database is away; they follow the learner when they join their row.
"""

from __future__ import annotations

from html import escape
from typing import Callable, Final, Literal

import ipywidgets as W

from ..analysis.charts import convergence_chart, figure_png
from ..lessons.exercises import (
    EXERCISES,
    EXERCISES_BY_ID,
    Checked,
    Exercise,
    assumptions_text,
    budget_left,
    budget_rule,
    check,
    diagnose,
    format_number,
    question_text,
    simulate,
    solution_text,
    tolerance_text,
)
from ..engine.cards import N_
from ..i18n import Translator, formatting
from ..lessons.progress import Progress
from ..lessons.storage import Storage, StorageError, StorageMisconfigured, open_or_why, open_storage
from . import keep
from .base import Page, Upload, page_root, tagged
from .classroom import LearnerPanel
from ..lessons.table import position_html

SAMPLE_SIZES = (100, 1000, 5000)
#: ``numbers=OWN``: the learner's own numbers, as the class's setting says (the page's default)
OWN: Final = "own"
Numbers = int | None | Literal["own"]


def _number(value: float, t: Translator) -> str:
    return formatting.format_number(value, t.lang, 3)


class ExercisesApp(Page):
    """The page's parts; every handler is a plain method, so tests call them directly."""
    manual = "learner.html#the-probability-exercises"  # the part of the manual its help link opens
    #: on a page of its own (``build_app``), the page script's liveness check
    alive: keep.Liveness | None = None

    def __init__(self, lang: str = "en", seed: int = 1, storage: Storage | None = None,
                 numbers: Numbers = OWN, reopen: Callable[[], Storage] | None = None,
                 problem: StorageError | None = None) -> None:
        super().__init__(lang)
        label = self.labels
        self.learner = LearnerPanel(self.t, storage, reopen, problem)
        self.learner.on_name = self._follow_name
        #: fixed numbers (a seed, or None for the base positions), or the learner's own
        self._fixed = numbers != OWN
        #: the seed of the cards shown (``None``: the base positions); answers are checked on it
        self.numbers: int | None = None if numbers == OWN else numbers
        self.own_header(lambda t: f"<h2>{escape(t.gettext('Probability exercises'))}</h2>")
        self.picker = tagged(W.Dropdown(layout=W.Layout(width="34em")), "cl-ex-picker")
        self.position = tagged(W.HTML(), "cl-ex-position")
        self.question = tagged(W.HTML(), "cl-ex-question")
        self.answer = label(label(tagged(W.Text(layout=W.Layout(width="12em")), "cl-ex-answer"),
                                  N_("3/8, 0.375 or 37.5%"), "placeholder"), N_("Your answer"))
        self.check_button = label(tagged(W.Button(button_style="primary", layout=W.Layout(width="auto")),
                                         "cl-ex-check"), N_("Check"))
        self.feedback = tagged(W.HTML(), "cl-ex-feedback")
        self.attempts: dict[str, int] = {}  # wrong answers checked on this page, by exercise
        self.solution_button = label(tagged(W.Button(layout=W.Layout(width="auto")), "cl-ex-show-solution"),
                                     N_("Show the worked solution"))
        self.solution = tagged(W.HTML(), "cl-ex-solution")
        self.samples = label(tagged(W.Dropdown(options=list(SAMPLE_SIZES), value=1000, layout=W.Layout(width="auto")),
                                    "cl-ex-samples"), N_("Samples"))
        self.seed = label(tagged(W.BoundedIntText(value=seed, min=0, max=10**9, layout=W.Layout(width="14em")),
                                 "cl-ex-seed"), N_("Seed"))
        self.simulate_button = label(tagged(W.Button(layout=W.Layout(width="auto")), "cl-ex-simulate"),
                                     N_("Simulate"))
        self.simulation = tagged(W.HTML(), "cl-ex-simulation")
        self.chart = tagged(W.Image(format="png", layout=W.Layout(max_width="640px", display="none")), "cl-ex-chart")
        self.progress_note = tagged(W.HTML(), "cl-ex-progress")

        self.picker.observe(self.heard(self.show_exercise), names="value")
        self.check_button.on_click(lambda _: self.check())
        self.solution_button.on_click(lambda _: self.show_solution())
        self.simulate_button.on_click(lambda _: self.run_simulation())
        self.learner.upload.observe(lambda change: self.load_upload(change["new"]), names="value")

        row = W.Layout(flex_flow="row wrap", align_items="center")
        self.root = page_root(
            "exercises", [self.title, self.language],
            self.learner.box,
            W.HBox([self.picker, self.progress_note], layout=row),
            W.HBox([self.position, W.VBox([self.question, W.HBox([self.answer, self.check_button]), self.feedback])],
                   layout=row),
            W.HBox([self.solution_button], layout=row),
            self.solution,
            W.HBox([self.samples, self.seed, self.simulate_button], layout=row),
            self.simulation,
            self.chart,
        )
        self.relabel()
        self.picker.value = self.learner.today()[0]  # the first of today's exercises
        self.render()
        self.root.add_class("cl-ready")

    # -- what is shown ------------------------------------------------------------------------
    @property
    def progress(self) -> Progress:
        return self.learner.progress

    @property
    def exercise(self) -> Exercise:
        """The chosen exercise on this learner's own cards."""
        return EXERCISES_BY_ID[str(self.picker.value)].instance(self.numbers)

    def set_numbers(self, seed: int | None) -> None:
        """Deal this learner the cards of ``seed`` (``None``: the base positions) from now
        on, whatever the class's setting, and show them."""
        self._fixed, self.numbers = True, seed
        self.show_exercise()

    def _own_numbers(self) -> None:
        if not self._fixed:
            self.numbers = self.learner.numbers(str(self.picker.value))

    def _follow_name(self) -> None:
        """A learner's numbers come from their name too: a new name, new cards; and what they
        solved (restored when they come back) shows in the picker."""
        before = self.numbers
        self._own_numbers()
        self._refresh_picker()
        if self.numbers != before:
            self.show_exercise()

    def relabel(self) -> None:
        super().relabel()
        self.learner.relabel(self.t)
        self._refresh_picker()

    def render(self) -> None:
        typed = self.answer.value
        self.show_exercise()
        self.answer.value = typed  # in another language, what the learner typed stays in its box

    def _refresh_picker(self) -> None:
        t = self.t
        current = self.picker.value
        options = []
        today = self.learner.today()
        for number, ex in enumerate(EXERCISES, 1):
            if ex.id not in today:
                continue
            mark = " ✓" if ex.id in self.progress.solved else ""
            label = t.gettext("{number}. {topic}: {title}").format(
                number=number, topic=t.gettext(ex.topic), title=t.gettext(ex.title))
            options.append((label + mark, ex.id))
        with self.quietly():  # relabelling the options must not reset the exercise shown
            self.picker.options = options
            if current in today:
                self.picker.value = current
        if current is not None and current not in today and options:
            self.show_exercise()  # the teacher took it out of the lesson: the picker moved on
        solved = len(set(self.progress.solved) & set(today))
        self.progress_note.value = escape(t.gettext("Solved: {solved} of {total}").format(
            solved=solved, total=len(today)))

    def show_exercise(self) -> None:
        """Show the chosen exercise afresh, on the learner's numbers: question and position,
        nothing answered yet."""
        self._own_numbers()
        t, ex = self.t, self.exercise
        self.position.value = position_html(t, ex.view(), 0, doing=False)
        kind = (t.gettext("Answer with a probability.") if ex.probability
                else t.gettext("Answer with a number (an expected value)."))
        assumptions = "".join(f"<li>{escape(a)}</li>" for a in assumptions_text(ex, t))
        rule = (t.gettext("Your teacher asks for exact fractions today: write your answer like 3/8.")
                if self.learner.fractions_only() else tolerance_text(ex, t)) + " " + budget_rule(t)
        self.question.value = (
            f"<h3>{escape(t.gettext(ex.title))}</h3><p>{question_text(ex, t)}</p>"
            + (f'<ul class="cl-note cl-ex-assumptions">{assumptions}</ul>' if assumptions else "")
            + f'<p class="cl-note">{escape(kind)} {escape(rule)}</p>'
        )
        self.answer.value = ""
        self.feedback.value = ""
        self.solution.value = ""
        self.simulation.value = ""
        self.chart.layout.display = "none"
        self._gate_simulation()

    def _gate_simulation(self) -> None:
        """Predict, check, then see it converge: the worked solution and the simulation (which
        draws the exact value) open when the teacher's setting allows, by default after an attempt."""
        opened = self.learner.solution_open(self.exercise.id)
        for button in (self.simulate_button, self.solution_button):
            button.disabled = not opened
            button.tooltip = "" if opened else self.t.gettext("Check an answer first.")

    # -- actions -----------------------------------------------------------------------------------
    def check(self) -> str:
        """Check the typed answer; an unreadable one is explained and changes nothing.

        An answer this learner already checked is answered again and counted once; past a
        person's pace (``LearnerPanel.wait_to_check``) nothing is checked: the page says how
        long to wait and the answer stays in its box (status ``"wait"``)."""
        ex = self.exercise
        if self.learner.already_checked(ex.id, self.answer.value):
            checked = check(ex, self.answer.value, self.t.lang, self.learner.fractions_only(), self._answered(ex.id))
            self._feedback(checked, self.t.gettext("You checked this answer already: {verdict}").format(
                verdict=checked.message))
            return checked.status
        wait = self.learner.wait_to_check()
        if wait:
            self.feedback.value = '<div class="cl-error" data-status="wait">{}</div>'.format(escape(self.t.ngettext(
                "You are checking answers faster than anyone can work them out: wait {n} second, then check again.",
                "You are checking answers faster than anyone can work them out: wait {n} seconds, then check again.",
                wait).format(n=wait)))
            return "wait"
        checked = check(ex, self.answer.value, self.t.lang, self.learner.fractions_only(), self._answered(ex.id))
        diagnosed = diagnose(ex, self.answer.value) if checked.status == "wrong" else None
        self.learner.record(ex.id, self.answer.value, checked, self.numbers, diagnosed.id if diagnosed else None)
        if checked.status == "wrong":  # a second wrong answer with the same verdict must not look like no answer
            self.attempts[ex.id] = self.attempts.get(ex.id, 0) + 1
            told = self.t.gettext("Attempt {n}: you wrote {answer}. {verdict}").format(
                n=self.attempts[ex.id], answer=self.answer.value.strip(), verdict=checked.message)
            left = budget_left(self.t, self._answered(ex.id))  # few checks left: said before they run out
            self._feedback(checked, f"{told} {left}" if left else told)
        else:
            self._feedback(checked, checked.message)
        if checked.status != "invalid":
            self._refresh_picker()
            self._gate_simulation()
        return checked.status

    def _answered(self, exercise: str) -> int:
        """The answers this learner gave to ``exercise`` before (the checker says higher or lower
        for the first wrong one only)."""
        return self.learner.progress.attempts.get(exercise, 0)

    def _feedback(self, checked: Checked, text: str) -> None:
        css = {"correct": "cl-safe", "wrong": "cl-exceed", "invalid": "cl-error"}[checked.status]
        mistake = f' data-mistake="{checked.mistake}"' if checked.mistake else ""
        self.feedback.value = f'<div class="{css}" data-status="{checked.status}"{mistake}>{escape(text)}</div>'


    def show_solution(self) -> None:
        if not self.learner.solution_open(self.exercise.id):
            return
        self.learner.solution_seen(self.exercise.id)  # the teacher sees who read it before solving
        self.solution.value = f'<div class="cl-note">{solution_text(self.exercise, self.t)}</div>'

    def run_simulation(self) -> None:
        """A seeded simulation: the estimate after n samples, with its 95% interval; the exact
        answer beside it only once the learner solved the exercise (or the teacher shows
        solutions always): else typing anything once and simulating would hand it over."""
        t, ex = self.t, self.exercise
        if not self.learner.solution_open(ex.id):
            return
        estimates = simulate(ex, int(self.samples.value), int(self.seed.value))
        exact = ex.exact() if self.learner.answer_open(ex.id) else None
        self.chart.value = figure_png(convergence_chart(exact, estimates, t, probability=ex.probability))
        self.chart.layout.display = ""
        n, final = estimates[-1]
        figures = {"n": formatting.format_number(n, t.lang), "seed": int(self.seed.value), "mean": _number(final.mean, t),
                   "low": _number(final.low, t), "high": _number(final.high, t)}
        text = (t.gettext("After {n} simulated deals (seed {seed}) the estimate is {mean}, with a 95% interval "
                          "from {low} to {high}. The exact answer is {exact}.").format(exact=format_number(exact),
                                                                                       **figures)
                if exact is not None else
                t.gettext("After {n} simulated deals (seed {seed}) the estimate is {mean}, with a 95% interval "
                          "from {low} to {high}. The exact answer is shown here once you have solved the "
                          "exercise.").format(**figures))
        self.simulation.value = '<div class="cl-note" data-samples="{n}" data-exact="{shown}">{text}</div>'.format(
            n=n, shown=int(exact is not None), text=escape(text))

    # -- progress ----------------------------------------------------------------------------------
    def load_upload(self, value: Upload) -> None:
        if self.learner.load_upload(value):
            self._refresh_picker()
            self._gate_simulation()


def build_app(lang: str = "en", seed: int = 1, storage: Storage | None = None,
              numbers: Numbers = OWN) -> W.VBox:
    """The exercises page's root widget; ``root._exercises`` is the app. Without ``storage``
    the class database (``CAPITAL_LUX_DB``) is opened, or the page says why it cannot be.
    ``numbers`` fixes the seed of this learner's cards (``None``: the base positions);
    by default (``OWN``) they are the learner's own, as the class's setting says."""
    storage, problem = open_or_why(storage)
    # a database away may come back (a PostgreSQL restarting): answers wait on the page; a wrong setting never does
    reopen = open_storage if problem is not None and not isinstance(problem, StorageMisconfigured) else None
    app = ExercisesApp(lang, seed, storage, numbers, reopen, problem)
    # A page of its own: the page script's check that the kernel still knows it (a kernel restarted
    # empty after a crash does not); inside the tutor's tab, the tutor page's check covers it.
    app.alive = keep.Liveness()
    app.root.children = (*app.root.children, *app.alive.widgets)
    app.root._exercises = app
    return app.root
