"""The probability exercises as an app: predict, check, see it converge.

``build_app(lang="fr")`` returns the page's root widget (``root._exercises`` is the
``ExercisesApp``). Each exercise shows its question beside the position, as the
asking player sees it; the learner types a fraction, decimal or percentage and
checks it; a worked solution and a seeded simulation converging on the exact
value follow. Teacher mode shows every answer. Progress is saved to and loaded
from a JSON file (a path on the server, or a file uploaded from the browser).
"""

from __future__ import annotations

import base64
import io
from html import escape
from pathlib import Path
from typing import Any, Callable

import ipywidgets as W
from matplotlib.figure import Figure
from matplotlib.ticker import ScalarFormatter

from ..analysis.charts import convergence_chart
from ..lessons.exercises import (
    EXERCISES,
    EXERCISES_BY_ID,
    Exercise,
    Progress,
    ProgressError,
    assumptions_text,
    check,
    format_number,
    load_progress,
    question_text,
    save_progress,
    simulate,
    solution_text,
    tolerance_text,
)
from ..engine.cards import format_modifier
from ..i18n import LANGUAGE_NAMES, LANGUAGES, Translator, formatting, translator
from ..engine.views import PlayerView
from .table import CSS, cards_html, table_html

SAMPLE_SIZES = (100, 1000, 5000)
DEFAULT_PROGRESS_FILE = "capital_lux_progress.json"


def figure_png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=80)
    return buffer.getvalue()


def position_html(t: Translator, v: PlayerView, move: int) -> str:
    """The tutor's table for ``v``, with the others called players (not bots: nobody plays
    them here) and the viewer's own hand and drawn modifier shown below it."""
    html = table_html(t, v, move)
    for seat in range(v.players):
        if seat != v.viewer:
            html = html.replace(escape(t.gettext("Bot {seat}").format(seat=seat)),
                                escape(t.gettext("Player {seat}").format(seat=seat)))
    own = list(v.hand) + list(v.draft_hand) + list(v.draft_picks)
    parts = [f'<b>{escape(t.gettext("Your cards"))}:</b> {cards_html(t, own) or "-"}']
    if v.pending_modifier is not None:
        parts.append(escape(t.gettext("The modifier you have just drawn: {value}").format(
            value=format_modifier(v.pending_modifier))))
    return html + f'<div class="cl-note cl-own-hand">{" · ".join(parts)}</div>' + discards_html(t, v)


def discards_html(t: Translator, v: PlayerView) -> str:
    """The discard pile and the deck's size: questions that count unseen cards need both."""
    pile = cards_html(t, list(v.discards)) or escape(t.gettext("empty"))
    deck = escape(t.gettext("Cards in the deck: {count}").format(count=v.deck_size))
    label = escape(t.gettext("Discard pile (out of the game, face up)"))
    return f'<div class="cl-note cl-discards"><b>{label}:</b> {pile} · {deck}</div>'


def _number(value: float, t: Translator) -> str:
    return formatting.format_number(value, t.lang, 3)


class ExercisesApp:
    """The page's parts; every handler is a plain method, so tests call them directly."""

    def __init__(self, lang: str = "en", teacher: bool = False, seed: int = 1,
                 progress_file: str = DEFAULT_PROGRESS_FILE, numbers: int | None = None) -> None:
        self.t = translator(lang)
        #: the seed of this learner's cards (a class seed puts everyone on the same numbers)
        self.numbers = numbers
        self.progress = Progress.empty()
        self.title = W.HTML()
        self.language = W.Dropdown(options=[(LANGUAGE_NAMES[c], c) for c in LANGUAGES], value=self.t.lang,
                                   layout=W.Layout(width="auto"))
        self.language.add_class("cl-language")
        self.teacher = W.Checkbox(value=teacher, indent=False)
        self.teacher.add_class("cl-teacher")
        self.picker = W.Dropdown(layout=W.Layout(width="34em"))
        self.picker.add_class("cl-ex-picker")
        self.position = W.HTML()
        self.position.add_class("cl-ex-position")
        self.question = W.HTML()
        self.question.add_class("cl-ex-question")
        self.answer = W.Text(layout=W.Layout(width="12em"))
        self.answer.add_class("cl-ex-answer")
        self.check_button = W.Button(button_style="primary", icon="check", layout=W.Layout(width="auto"))
        self.check_button.add_class("cl-ex-check")
        self.feedback = W.HTML()
        self.feedback.add_class("cl-ex-feedback")
        self.reveal = W.HTML()
        self.reveal.add_class("cl-ex-reveal")
        self.sheet = W.HTML()
        self.sheet.add_class("cl-ex-sheet-box")
        self.solution_button = W.Button(icon="book", layout=W.Layout(width="auto"))
        self.solution_button.add_class("cl-ex-show-solution")
        self.solution = W.HTML()
        self.solution.add_class("cl-ex-solution")
        self.samples = W.Dropdown(options=list(SAMPLE_SIZES), value=1000, layout=W.Layout(width="auto"))
        self.samples.add_class("cl-ex-samples")
        self.seed = W.BoundedIntText(value=seed, min=0, max=10**9, layout=W.Layout(width="14em"))
        self.seed.add_class("cl-ex-seed")
        self.simulate_button = W.Button(icon="random", layout=W.Layout(width="auto"))
        self.simulate_button.add_class("cl-ex-simulate")
        self.simulation = W.HTML()
        self.simulation.add_class("cl-ex-simulation")
        self.chart = W.Image(format="png", layout=W.Layout(max_width="640px", display="none"))
        self.chart.add_class("cl-ex-chart")
        self.progress_path = W.Text(value=progress_file, layout=W.Layout(width="24em"))
        self.progress_path.add_class("cl-ex-progress-path")
        self.save_button = W.Button(icon="save", layout=W.Layout(width="auto"))
        self.save_button.add_class("cl-ex-save")
        self.load_button = W.Button(icon="folder-open", layout=W.Layout(width="auto"))
        self.load_button.add_class("cl-ex-load")
        self.upload = W.FileUpload(accept=".json", multiple=False)
        self.upload.add_class("cl-ex-upload")
        self.progress_note = W.HTML()
        self.progress_note.add_class("cl-ex-progress")

        self.language.observe(lambda change: self.set_language(change["new"]), names="value")
        self.teacher.observe(lambda change: self._teacher_changed(), names="value")
        self._quiet = False
        self.picker.observe(lambda change: None if self._quiet else self.show_exercise(), names="value")
        self.check_button.on_click(lambda _: self.check())
        self.solution_button.on_click(lambda _: self.show_solution())
        self.simulate_button.on_click(lambda _: self.run_simulation())
        self.save_button.on_click(lambda _: self.save())
        self.load_button.on_click(lambda _: self.load())
        self.upload.observe(lambda change: self.load_upload(change["new"]), names="value")

        row = W.Layout(flex_flow="row wrap", align_items="center")
        self.root = W.VBox([
            W.HTML(CSS),
            W.HBox([self.title, self.language, self.teacher], layout=row),
            W.HBox([self.picker, self.progress_note], layout=row),
            W.HBox([self.position, W.VBox([self.question, W.HBox([self.answer, self.check_button]), self.feedback,
                                           self.reveal])], layout=row),
            W.HBox([self.solution_button], layout=row),
            self.solution,
            W.HBox([self.samples, self.seed, self.simulate_button], layout=row),
            self.simulation,
            self.chart,
            W.HBox([self.progress_path, self.save_button, self.load_button, self.upload], layout=row),
            self.sheet,
        ])
        self.root.add_class("cl-tutor")
        self.root.add_class("cl-exercises")
        self._relabel()
        self.picker.value = EXERCISES[0].id
        self.show_exercise()
        self.root.add_class("cl-ready")

    # -- what is shown ------------------------------------------------------------------------
    @property
    def exercise(self) -> Exercise:
        """The chosen exercise on this learner's own cards."""
        return EXERCISES_BY_ID[str(self.picker.value)].instance(self.numbers)

    def set_numbers(self, seed: int | None) -> None:
        """Deal this learner other cards (``None``: the base positions) and show them."""
        self.numbers = seed
        self.show_exercise()

    def _relabel(self) -> None:
        t = self.t
        self.title.value = f"<h2>{escape(t.gettext('Probability exercises'))}</h2>"
        self.language.description = t.gettext("Language")
        self.teacher.description = t.gettext("Teacher mode: show the answers")
        self.answer.placeholder = t.gettext("3/8, 0.375 or 37.5%")
        self.answer.description = t.gettext("Your answer")
        self.check_button.description = t.gettext("Check")
        self.solution_button.description = t.gettext("Show the worked solution")
        self.samples.description = t.gettext("Samples")
        self.seed.description = t.gettext("Seed")
        self.simulate_button.description = t.gettext("Simulate")
        self.progress_path.description = t.gettext("Progress file")
        self.save_button.description = t.gettext("Save progress")
        self.load_button.description = t.gettext("Load progress")
        self.upload.description = t.gettext("Upload progress")
        self._refresh_picker()

    def _refresh_picker(self) -> None:
        t = self.t
        current = self.picker.value
        options = []
        for number, ex in enumerate(EXERCISES, 1):
            mark = " ✓" if ex.id in self.progress.solved else ""
            label = t.gettext("{number}. {topic}: {title}").format(
                number=number, topic=t.gettext(ex.topic), title=t.gettext(ex.title))
            options.append((label + mark, ex.id))
        self._quiet = True  # relabelling the options must not reset the exercise shown
        try:
            self.picker.options = options
            if current is not None:
                self.picker.value = current
        finally:
            self._quiet = False
        solved = len(self.progress.solved)
        self.progress_note.value = escape(t.gettext("Solved: {solved} of {total}").format(
            solved=solved, total=len(EXERCISES)))

    def show_exercise(self) -> None:
        """Show the chosen exercise afresh: question and position, nothing answered yet."""
        t, ex = self.t, self.exercise
        self.position.value = position_html(t, ex.view(), 0)
        kind = (t.gettext("Answer with a probability.") if ex.probability
                else t.gettext("Answer with a number (an expected value)."))
        assumptions = "".join(f"<li>{escape(a)}</li>" for a in assumptions_text(ex, t))
        self.question.value = (
            f"<h3>{escape(t.gettext(ex.title))}</h3><p>{question_text(ex, t)}</p>"
            + (f'<ul class="cl-note cl-ex-assumptions">{assumptions}</ul>' if assumptions else "")
            + f'<p class="cl-note">{escape(kind)} {escape(tolerance_text(ex, t))}</p>'
        )
        self.answer.value = ""
        self.feedback.value = ""
        self.solution.value = ""
        self.simulation.value = ""
        self.chart.layout.display = "none"
        self._show_reveal()
        self._gate_simulation()

    def _teacher_changed(self) -> None:
        self._show_reveal()
        self._gate_simulation()

    def _gate_simulation(self) -> None:
        """Predict, check, then see it converge: the simulation (which draws the exact value)
        opens once the learner has checked an answer, or in teacher mode."""
        ex = self.exercise
        opened = bool(self.teacher.value) or self.progress.attempts.get(ex.id, 0) > 0
        self.simulate_button.disabled = not opened
        self.simulate_button.tooltip = "" if opened else self.t.gettext("Check an answer first.")

    def _show_reveal(self) -> None:
        t, ex = self.t, self.exercise
        if self.teacher.value:
            exact = ex.exact()
            self.reveal.value = (
                f'<div class="cl-note"><b>{escape(t.gettext("Answer"))}:</b> '
                f"{escape(format_number(exact))} ≈ {_number(float(exact), t)}</div>"
            )
            self.sheet.value = self._answer_sheet()
        else:
            self.reveal.value = ""
            self.sheet.value = ""

    def _answer_sheet(self) -> str:
        """Teacher mode: every exercise's exact answer and the learner's attempts."""
        t = self.t
        head = [t.gettext("Exercise"), t.gettext("Answer"), t.gettext("Attempts"), t.gettext("Solved with")]
        rows = []
        for number, ex in enumerate(EXERCISES, 1):
            exact = ex.instance(self.numbers).exact()  # this learner's own cards
            cells = [f"{number}. {t.gettext(ex.title)}", f"{format_number(exact)} ≈ {_number(float(exact), t)}",
                     str(self.progress.attempts.get(ex.id, 0)), self.progress.solved.get(ex.id, "")]
            rows.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
        header = "".join(f"<th>{escape(h)}</th>" for h in head)
        return '<table class="cl-table cl-ex-sheet"><tr>' + header + "</tr>" + "".join(rows) + "</table>"

    # -- actions -----------------------------------------------------------------------------------
    def check(self) -> str:
        """Check the typed answer; an unreadable one is explained and changes nothing."""
        ex = self.exercise
        checked = check(ex, self.answer.value, self.t.lang)
        self.progress.record(ex.id, self.answer.value, checked)
        css = {"correct": "cl-safe", "wrong": "cl-exceed", "invalid": "cl-error"}[checked.status]
        mistake = f' data-mistake="{checked.mistake}"' if checked.mistake else ""
        self.feedback.value = (f'<div class="{css}" data-status="{checked.status}"{mistake}>'
                               f"{escape(checked.message)}</div>")
        if checked.status != "invalid":
            self._refresh_picker()
            self._gate_simulation()
            self._show_reveal()
        return checked.status

    def show_solution(self) -> None:
        self.solution.value = f'<div class="cl-note">{solution_text(self.exercise, self.t)}</div>'

    def run_simulation(self) -> None:
        """A seeded simulation: the estimate after n samples, with its 95% interval."""
        t, ex = self.t, self.exercise
        if self.simulate_button.disabled:
            return
        estimates = simulate(ex, int(self.samples.value), int(self.seed.value))
        exact = ex.exact()
        figure = convergence_chart(exact, estimates, t)
        if not ex.probability:
            axis = figure.axes[0]
            axis.relim()
            axis.autoscale()
            axis.yaxis.set_major_formatter(ScalarFormatter())
            axis.set_ylabel(t.gettext("Expected value"))
            for line in axis.get_lines():
                if line.get_linestyle() == "--":
                    line.set_label(t.gettext("exact value: {p}").format(p=format_number(exact)))
            axis.legend(loc="best")
        self.chart.value = figure_png(figure)
        self.chart.layout.display = ""
        n, final = estimates[-1]
        self.simulation.value = '<div class="cl-note" data-samples="{n}">{text}</div>'.format(
            n=n,
            text=escape(t.gettext(
                "After {n} simulated deals (seed {seed}) the estimate is {mean}, with a 95% interval from {low} "
                "to {high}. The exact answer is {exact}."
            ).format(n=n, seed=int(self.seed.value), mean=_number(final.mean, t), low=_number(final.low, t),
                     high=_number(final.high, t), exact=format_number(exact))),
        )

    # -- progress ----------------------------------------------------------------------------------
    def _note(self, text: str, error: bool = False) -> None:
        css = "cl-error" if error else "cl-note"
        self._refresh_picker()
        self.progress_note.value += f' <span class="{css}">{escape(text)}</span>'

    def save(self) -> None:
        t = self.t
        path = Path(self.progress_path.value)
        try:
            save_progress(self.progress, path)
        except OSError as error:
            self._note(t.gettext("Could not save to {path}: {reason}").format(path=path, reason=error.strerror),
                       error=True)
            return
        data = base64.b64encode(self.progress.to_json().encode()).decode()
        self._note(t.gettext("Saved to {path}.").format(path=path))
        self.progress_note.value += (
            f' <a download="{escape(path.name)}" href="data:application/json;base64,{data}">'
            f"{escape(t.gettext('Download'))}</a>"
        )

    def load(self) -> None:
        self._take_progress(lambda: load_progress(self.progress_path.value))

    def load_upload(self, value: Any) -> None:
        if not value:
            return
        content = value[0]["content"]
        data = content.tobytes() if isinstance(content, memoryview) else bytes(content)
        self._take_progress(lambda: Progress.from_json(data))

    def _take_progress(self, read: Callable[[], Progress]) -> None:
        """Use the progress ``read`` gives, or say why not and keep the one we had."""
        try:
            self.progress = read()
        except ProgressError as error:
            self._note(self.t.gettext("Not loaded: {reason}").format(reason=error.translated(self.t.gettext)), error=True)
            return
        self._note(self.t.gettext("Progress loaded."))
        self._gate_simulation()
        self._show_reveal()

    def set_language(self, lang: str) -> None:
        self.t = translator(lang)
        self._relabel()
        self.show_exercise()


def build_app(lang: str = "en", teacher: bool = False, seed: int = 1,
              progress_file: str = DEFAULT_PROGRESS_FILE, numbers: int | None = None) -> W.VBox:
    """The exercises page's root widget; ``root._exercises`` is the app. ``numbers`` is
    the seed of this learner's cards (``None``: the base positions)."""
    app = ExercisesApp(lang, teacher, seed, progress_file, numbers)
    app.root._exercises = app
    return app.root

