"""The teacher's page: unlocked by the server's key, then the class's results, live.

``build_app(lang="fr")`` returns the page's root widget (``root._teacher`` is the
``TeacherApp``); ``notebooks/teacher.ipynb`` shows it. Until the key set in the
server's environment (``CAPITAL_LUX_TEACHER_KEY``) is typed, the page holds no
result and no control: the dashboard's widgets are made only after the unlock.
Then it shows the settings every learner's page obeys (when solutions open; whose
numbers the exercises are on, and the class seed), the worksheet and its answer
key on the class seed's cards in the teacher's language, figures per exercise
(learners who answered, solved, median answers, the most common wrong answers
with the mistake each looks like and the most common mistakes, each answer
checked against the instance its learner saw), a chart per exercise, every
learner's count, and a CSV export that the browser downloads.
"""

from __future__ import annotations

import base64
import os
import secrets
import threading
import time
from html import escape
from typing import Callable, TypeVar

import ipywidgets as W
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from ..analysis.charts import DARK, EXCEED_HATCH, GREY
from ..engine.cards import N_
from ..i18n import Translator, format_number
from ..lessons.classroom import (
    DEFAULT_NUMBERS,
    DEFAULT_POLICY,
    MAX_SEED,
    MIN_TEACHER_KEY,
    NUMBERS_POLICIES,
    SOLUTION_POLICIES,
    SOLUTIONS_SETTING,
    TEACHER_KEY_VARIABLE,
    ClassFigures,
    ExerciseSummary,
    class_figures,
    class_numbers,
    exercise_number,
    gradebook_csv,
    instance_seed,
    ANSWER_FORMS,
    ANSWER_FORMS_SETTING,
    LESSON_EXERCISES_SETTING,
    fractions_only,
    CLIENT_VARIABLE,
    key_wait,
    note_key_failure,
    lesson,
    mistake_label,
    new_lesson,
    server_key,
    results_csv,
    set_lesson_exercises,
    stuck_now,
    set_class_numbers,
    teacher_key,
    teacher_key_matches,
)
from ..lessons.exercises import EXERCISES, instance
from ..lessons.problems.worksheet import answer_key_html, worksheet_html
from ..lessons.storage import Attempt, Storage, StorageError, open_storage
from ..analysis.charts import figure_png
from .base import Page, page_root, tagged

#: Wrong keys allowed per page; then the page must be reloaded (a new kernel), which slows guessing.
MAX_KEY_TRIES = 5
OUTCOME_LABELS = (
    N_("solved at the 1st answer"), N_("solved at the 2nd answer"), N_("solved at the 3rd answer"),
    N_("solved at the 4th or later"), N_("not solved yet"),
)


def class_chart(summary: ExerciseSummary, title: str, t: Translator) -> Figure:
    """How many learners solved the exercise at which answer, and how many not yet."""
    fig = Figure(figsize=(4.2, 2.6), layout="constrained")
    ax = fig.subplots()
    labels = [t.gettext(label) for label in OUTCOME_LABELS]
    bars = ax.barh(labels, summary.outcomes, color=[DARK] * 4 + [GREY], edgecolor=DARK)
    bars[-1].set_hatch(EXCEED_HATCH)  # not solved reads apart without colour too
    ax.invert_yaxis()
    ax.set_xlabel(t.gettext("Learners"))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(title, fontsize=9)
    return fig


T = TypeVar("T")

#: The grid's cells: a shade beside the symbol and the words (never the colour alone).
GRID_SHADES = {"solved": "background:#dcefdc", "tried": "background:#f8dede"}


class TeacherApp(Page):
    """The page's parts; every handler is a plain method, so tests call them directly."""

    def __init__(self, lang: str = "en", storage: Storage | None = None,
                 storage_error: StorageError | None = None) -> None:
        super().__init__(lang)
        label = self.labels
        self.storage = storage
        self.storage_error = storage_error
        self.failures = 0
        self.unlocked = False
        self._charts: dict[str, tuple[tuple[object, ...], bytes]] = {}
        self._refreshing = threading.Lock()
        self.own_header(lambda t: f"<h2>{escape(t.gettext('The teacher’s page'))}</h2>")
        self.key = label(tagged(W.Password(layout=W.Layout(width="24em")), "cl-teacher-key"), N_("Teacher’s key"))
        self.unlock_button = label(tagged(W.Button(button_style="primary", layout=W.Layout(width="auto")),
                                          "cl-teacher-unlock"), N_("Open"))
        self.lock_note = tagged(W.HTML(), "cl-teacher-lock-note")
        self.unlock_button.on_click(lambda _: self.unlock())
        row = W.Layout(flex_flow="row wrap", align_items="center")
        self.body = W.VBox([W.HBox([self.key, self.unlock_button], layout=row), self.lock_note])
        self.root = page_root("teacher-page", [self.title, self.language], self.body)
        self.relabel()
        self.root.add_class("cl-ready")

    # -- unlocking --------------------------------------------------------------------------------
    def unlock(self) -> bool:
        t = self.t
        typed, self.key.value = self.key.value, ""  # the key does not stay in the page
        if self.unlocked:
            return True
        if teacher_key() is None or self.failures >= MAX_KEY_TRIES:
            self.relabel()
            return False
        address = os.environ.get(CLIENT_VARIABLE, "")  # the browser's, as the server saw it
        wait = key_wait(address, time.time())
        if wait:
            self.lock_note.value = '<span class="cl-error">{}</span>'.format(escape(t.ngettext(
                "Too many wrong keys from this network address: try again in {n} minute, or draw a new key "
                "on the class’s machine with make class-key.",
                "Too many wrong keys from this network address: try again in {n} minutes, or draw a new key "
                "on the class’s machine with make class-key.", wait).format(n=wait)))
            return False
        if not teacher_key_matches(typed):
            self.failures += 1
            note_key_failure(address, time.time())
            self.lock_note.value = f'<span class="cl-error">{escape(t.gettext("That is not the key."))}</span>'
            if self.failures >= MAX_KEY_TRIES:
                self.relabel()
            return False
        self.unlocked = True
        self._build_dashboard()
        return True

    def _build_dashboard(self) -> None:
        label = self.labels

        def button(css_class: str) -> W.Button:
            return tagged(W.Button(layout=W.Layout(width="auto")), css_class)

        self.solutions = label.choice(
            label(tagged(W.Dropdown(layout=W.Layout(width="auto")), "cl-teacher-solutions"),
                  N_("Learners see the solutions")),
            lambda t: [(t.gettext(text), key) for key, text in SOLUTION_POLICIES.items()])
        self.refresh_button = label(button("cl-teacher-refresh"), N_("Refresh"))
        self.export_button = label(button("cl-teacher-export"), N_("Export every answer (CSV)"))
        self.gradebook_button = label(button("cl-teacher-gradebook"), N_("Export the gradebook (CSV)"))
        self.csv_link = tagged(W.HTML(), "cl-teacher-csv")
        self.summary = tagged(W.HTML(), "cl-teacher-summary")
        self.table = tagged(W.HTML(), "cl-teacher-table")
        self.learners = tagged(W.HTML(), "cl-teacher-learners")
        self.charts = tagged(W.Box(layout=W.Layout(flex_flow="row wrap")), "cl-teacher-charts")
        self.numbers = label.choice(
            label(tagged(W.Dropdown(layout=W.Layout(width="auto")), "cl-teacher-numbers"), N_("Numbers")),
            lambda t: [(t.gettext(text), key) for key, text in NUMBERS_POLICIES.items()])
        self.class_seed = label(tagged(W.BoundedIntText(min=0, max=MAX_SEED - 1, layout=W.Layout(width="16em")),
                                       "cl-teacher-class-seed"), N_("Class seed"))
        self.new_seed_button = label(button("cl-teacher-new-seed"), N_("New class seed"))
        self.numbers_note = tagged(W.HTML(), "cl-teacher-numbers-note")
        self.worksheet_button = label(button("cl-teacher-worksheet"), N_("Worksheet"))
        self.key_button = label(button("cl-teacher-answer-key"), N_("Answer key"))
        self.sheet_links = tagged(W.HTML(), "cl-teacher-sheets")
        self.lesson_note = tagged(W.HTML(), "cl-teacher-lesson")
        self.new_lesson_button = label(button("cl-teacher-new-lesson"), N_("Start a new lesson"))
        self.today = label.choice(
            label(tagged(W.SelectMultiple(rows=8, layout=W.Layout(width="32em")), "cl-teacher-today"),
                  N_("Today's exercises")),
            lambda t: [(f"{k}. {t.gettext(ex.title)}", ex.id) for k, ex in enumerate(EXERCISES, 1)])
        self.answer_forms = label.choice(
            label(tagged(W.Dropdown(layout=W.Layout(width="auto")), "cl-teacher-answer-forms"), N_("Answers")),
            lambda t: [(t.gettext(text), key) for key, text in ANSWER_FORMS.items()])
        self.row_picker = label(tagged(W.Dropdown(layout=W.Layout(width="auto")), "cl-teacher-row"), N_("Learner"))
        self.into_picker = label(tagged(W.Dropdown(layout=W.Layout(width="auto")), "cl-teacher-into"),
                                 N_("is the same as"))
        self.merge_button = label(button("cl-teacher-merge"), N_("Merge the two rows"))
        self.remove_button = label(tagged(W.Button(layout=W.Layout(width="auto"), button_style="danger"),
                                          "cl-teacher-remove"), N_("Remove this learner"))
        self.rows_note = tagged(W.HTML(), "cl-teacher-rows-note")
        self.new_lesson_button.on_click(lambda _: self.start_lesson())
        self.merge_button.on_click(lambda _: self.merge_rows())
        self.remove_button.on_click(lambda _: self.remove_row())
        self.refresh_button.on_click(lambda _: self.refresh())
        self.export_button.on_click(lambda _: self.export_csv())
        self.gradebook_button.on_click(lambda _: self.export_gradebook())
        self.new_seed_button.on_click(lambda _: self.new_class_seed())
        self.worksheet_button.on_click(lambda _: self.make_sheet(answers=False))
        self.key_button.on_click(lambda _: self.make_sheet(answers=True))
        row = W.Layout(flex_flow="row wrap", align_items="center")
        self.body.children = [
            W.HBox([self.solutions, self.refresh_button, self.gradebook_button, self.export_button, self.csv_link],
                   layout=row),
            W.HBox([self.numbers, self.class_seed, self.new_seed_button], layout=row),
            self.numbers_note,
            W.HBox([self.worksheet_button, self.key_button, self.sheet_links], layout=row),
            W.HBox([self.lesson_note, self.new_lesson_button], layout=row),
            W.HBox([self.today, self.answer_forms], layout=row),
            self.summary, self.table, self.charts, self.learners,
            W.HBox([self.row_picker, self.into_picker, self.merge_button, self.remove_button], layout=row),
            self.rows_note,
        ]
        self.relabel()
        if self.storage is not None:
            self.solutions.value = self._policy()
            self._show_numbers()
        if self.storage is not None:
            self._show_today()
        self.solutions.observe(lambda change: self.set_policy(change["new"]), names="value")
        self.today.observe(lambda change: self.set_today(), names="value")
        self.answer_forms.observe(lambda change: self.set_today(), names="value")
        self.numbers.observe(lambda change: self.set_numbers(), names="value")
        self.class_seed.observe(lambda change: self.set_numbers(), names="value")
        self.root.add_class("cl-teacher-unlocked")
        self.refresh()

    # -- what is shown ------------------------------------------------------------------------------
    def relabel(self) -> None:
        super().relabel()
        if not self.unlocked:
            t = self.t
            locked = teacher_key() is None or self.failures >= MAX_KEY_TRIES
            self.key.disabled = self.unlock_button.disabled = locked
            if teacher_key() is None:
                text = t.gettext("This page is locked: no teacher’s key is set on the server. Set the environment "
                                 "variable {variable} (at least {length} characters) where the server starts, "
                                 "then reload.").format(variable=TEACHER_KEY_VARIABLE, length=MIN_TEACHER_KEY)
            elif locked:
                text = t.gettext("Too many wrong keys: reload the page to try again.")
            else:
                text = ""
            self.lock_note.value = f'<span class="cl-note">{escape(text)}</span>' if text else ""
            return
        self.sheet_links.value = ""  # made again on demand, in the new language
        self._numbers_note()

    def render(self) -> None:
        self.refresh()

    def _policy(self) -> str:
        assert self.storage is not None
        try:
            policy = self.storage.setting(SOLUTIONS_SETTING, DEFAULT_POLICY)
        except StorageError:
            return DEFAULT_POLICY
        return policy if policy in SOLUTION_POLICIES else DEFAULT_POLICY

    def _read(self, read: Callable[[Storage], T]) -> T | None:
        """What ``read`` takes from the class database, or None with the page saying why."""
        if self.storage is None:
            self.summary.value = self._error(self.t.gettext("No results can be shown: {reason}").format(
                reason=self.t.refusal(self.storage_error) if self.storage_error else ""))  # in the page's language
            return None
        try:
            return read(self.storage)
        except StorageError as error:
            self.summary.value = self._error(self.t.refusal(error))
            return None

    def _attempts(self) -> list[Attempt] | None:
        return self._read(lambda storage: storage.attempts(lesson(storage)[1]))

    def _figures(self) -> ClassFigures | None:
        return self._read(class_figures)

    @staticmethod
    def _error(text: str) -> str:
        return f'<span class="cl-error">{escape(text)}</span>'

    def refresh(self) -> None:
        """Read the class's attempts afresh and redraw the figures (charts only where they changed)."""
        if not self.unlocked:
            return
        with self._refreshing:
            figures = self._figures()
            if figures is None:
                return
            t = self.t
            summaries = figures.summaries  # each answer as graded on the cards its learner saw
            self.summary.value = escape(t.gettext("Learners: {learners}. Answers checked: {answers}.").format(
                learners=self._number(len(figures.learners)), answers=self._number(figures.answers)))
            self.table.value = self._table(summaries)
            stuck = self._read(stuck_now)
            self.learners.value = self._stuck(stuck or []) + self._grid(figures)
            self._show_lesson()
            people = sorted(figures.learners, key=lambda row: (row[1].casefold(), row[0]))
            choices = [(f"{name or t.gettext('(no name given)')} ({self._number(answers)})", session)
                       for session, name, _, answers, _ in people]
            for picker in (self.row_picker, self.into_picker):
                current = picker.value
                picker.options = choices
                if current in dict((v, k) for k, v in choices):
                    picker.value = current
            images = []
            for number, ex in enumerate(EXERCISES, 1):
                if ex.id in summaries:
                    images.append(self._chart(summaries[ex.id], f"{number}. {t.gettext(ex.title)}"))
            self.charts.children = images

    def _number(self, value: float) -> str:
        return format_number(value, self.t.lang)

    # -- the lesson and its rows ---------------------------------------------------------------------
    def _show_lesson(self) -> None:
        t = self.t
        found = self._read(lesson)
        code = found[0] if found else ""
        if code:
            text = t.gettext("Lesson code: {code}. Learners type it with their name; the same name with the "
                             "code comes back to the same row.").format(code=code)
        else:
            text = t.gettext("No lesson code: learners join by their name alone, and the same name comes back "
                             "to the same row. Start a lesson to give them a code to type.")
        self.lesson_note.value = f'<span class="cl-note">{escape(text)}</span>'

    def _change(self, change: Callable[[Storage], object]) -> bool:
        """Apply a change to the class database, or say why it cannot be made."""
        if self.storage is None:
            return False
        try:
            change(self.storage)
        except StorageError as error:
            self.rows_note.value = self._error(self.t.refusal(error))
            return False
        return True

    def _show_today(self) -> None:
        """The lesson's exercises and answer forms as the database holds them (none chosen: all)."""
        read = self._read(lambda storage: (storage.setting(LESSON_EXERCISES_SETTING, ""), fractions_only(storage)))
        if read is None:
            return
        with self.quietly():
            self.today.value = tuple(e for e in read[0].split() if e in dict((v, k) for k, v in self.today.options))
            self.answer_forms.value = "fractions" if read[1] else "decimals"

    def set_today(self) -> None:
        """The teacher chose today's exercises or the answer forms: learners' pages follow."""
        if self._quiet:
            return
        def write(storage: Storage) -> None:
            set_lesson_exercises(storage, list(self.today.value))
            storage.set_setting(ANSWER_FORMS_SETTING, str(self.answer_forms.value))

        self._change(write)

    def start_lesson(self) -> str | None:
        """A new lesson: a new code, and a dashboard that starts empty (earlier answers are kept)."""
        code = self._read(new_lesson)
        self.refresh()
        return code

    def merge_rows(self) -> bool:
        """The chosen learner's row joins the other one's: a reload had made two of one learner."""
        source, target = self.row_picker.value, self.into_picker.value
        if not source or not target or source == target:
            self.rows_note.value = self._error(self.t.gettext("Choose two different rows to merge."))
            return False
        if not self._change(lambda storage: storage.merge_learner(str(source), str(target))):
            return False
        self.rows_note.value = f'<span class="cl-note">{escape(self.t.gettext("The two rows are one now."))}</span>'
        self.refresh()
        return True

    def remove_row(self) -> bool:
        """The chosen learner and their answers leave the class (a test row, a name typed by mistake)."""
        session = self.row_picker.value
        if not session:
            return False
        if not self._change(lambda storage: storage.remove_learner(str(session))):
            return False
        self.rows_note.value = f'<span class="cl-note">{escape(self.t.gettext("The learner is removed."))}</span>'
        self.refresh()
        return True

    def _table(self, summaries: dict[str, ExerciseSummary]) -> str:
        """Per exercise: who answered, who solved, the median answers, and the classic mistakes
        made. The most common wrong numbers only when everyone has the same cards: on their own
        cards, one number means different things for different learners."""
        t = self.t
        numbers = self._read(class_numbers)
        same_cards = numbers is not None and numbers[0] == "class"
        head = [t.gettext("Exercise"), t.gettext("Learners who answered"), t.gettext("Solved"),
                t.gettext("Median answers per learner"),
                t.gettext("Most common wrong answers") if same_cards else
                t.gettext("Most common wrong answers (shown when everyone has the same cards)"),
                t.gettext("Most common mistakes")]
        rows = []
        for number, ex in enumerate(EXERCISES, 1):
            s = summaries.get(ex.id)
            if s is None:
                cells = [escape(f"{number}. {t.gettext(ex.title)}"), "0", "0", "-", "", ""]
            else:
                wrong = []
                for answer, count, mistake in (s.wrong if same_cards else ()):
                    text = t.gettext("{answer} ({count}×)").format(answer=answer, count=self._number(count))
                    if mistake:
                        text = t.gettext("{answer}: {mistake}").format(answer=text, mistake=mistake_label(t, mistake))
                    wrong.append(escape(text))
                made = [escape(t.ngettext("{mistake} ({count} learner)", "{mistake} ({count} learners)", count).format(
                    mistake=mistake_label(t, mistake), count=self._number(count))) for mistake, count in s.mistakes]
                cells = [escape(f"{number}. {t.gettext(ex.title)}"), self._number(s.attempted),
                         self._number(s.solved), self._number(float(s.median_attempts)), "<br>".join(wrong),
                         "<br>".join(made)]
            rows.append(f'<tr data-exercise="{ex.id}">' + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        header = "".join(f"<th>{escape(h)}</th>" for h in head)
        return '<table class="cl-table cl-teacher-figures"><tr>' + header + "</tr>" + "".join(rows) + "</table>"

    def _stuck(self, stuck: list[tuple[str, str, str, int, int]]) -> str:
        """Who is stuck right now, one sentence each: the teacher's next visit."""
        t = self.t
        if not stuck:
            return ""
        lines = [t.ngettext(
            "{name}: exercise {number}, {answers} answers and none right yet; the last one {minutes} minute ago.",
            "{name}: exercise {number}, {answers} answers and none right yet; the last one {minutes} minutes ago.",
            minutes).format(name=name or t.gettext("(no name given)"), number=exercise_number(exercise) or "?",
                            answers=self._number(answers), minutes=self._number(minutes))
            for _, name, exercise, answers, minutes in stuck]
        items = "".join(f"<li>{escape(line)}</li>" for line in lines)
        return (f'<div class="cl-teacher-stuck"><h3>{escape(t.gettext("Stuck now"))}</h3>'
                f"<ul>{items}</ul></div>")

    def _grid(self, figures: ClassFigures) -> str:
        """Learners by exercises: ✓ solved, ✗ and the answers given when not yet, 👁 the solution
        read before solving; symbols and words, never colour alone."""
        t = self.t
        marks = {"solved": ("✓", t.gettext("solved")), "tried": ("✗", t.gettext("tried, not solved yet")),
                 "seen": ("👁", t.gettext("solution read before solving"))}
        head = "".join(f'<th title="{escape(t.gettext(ex.title))}">{k}</th>' for k, ex in enumerate(EXERCISES, 1))
        head = (f"<tr><th>{escape(t.gettext('Learner'))}</th>{head}<th>{escape(t.gettext('Exercises solved'))}</th>"
                f"<th>{escape(t.gettext('Answers checked'))}</th></tr>")
        rows = []
        for session, name, solved, answers, _ in sorted(figures.learners, key=lambda row: (row[1].casefold(), row[0])):
            cells = []
            for ex in EXERCISES:
                cell = figures.cells.get((session, ex.id))
                kinds = [] if cell is None else ["solved" if cell[1] else "tried"]
                kinds += ["seen"] if (session, ex.id) in figures.seen else []
                text = "".join(marks[k][0] for k in kinds) + (str(cell[0]) if cell and not cell[1] else "")
                label = "; ".join(marks[k][1] for k in kinds)
                shade = f' style="{GRID_SHADES[kinds[0]]}"' if kinds and kinds[0] in GRID_SHADES else ""
                cells.append(f'<td class="{" ".join(f"cl-{k}" for k in kinds)}" title="{escape(label)}"{shade}>'
                             f"{escape(text)}</td>")
            rows.append(f"<tr><th>{escape(name or t.gettext('(no name given)'))}</th>{''.join(cells)}"
                        f"<td>{self._number(solved)}</td><td>{self._number(answers)}</td></tr>")
        legend = t.gettext("✓ solved; ✗ tried, not solved yet, with the number of answers given; 👁 the worked "
                           "solution read before solving.")
        return (f'<table class="cl-table cl-teacher-learner-table cl-teacher-grid">{head}{"".join(rows)}</table>'
                f'<div class="cl-note">{escape(legend)}</div>')

    def _chart(self, summary: ExerciseSummary, title: str) -> W.Image:
        key = (self.t.lang, title, summary.outcomes)
        cached = self._charts.get(summary.exercise)
        if cached is None or cached[0] != key:
            cached = (key, figure_png(class_chart(summary, title, self.t)))
            self._charts[summary.exercise] = cached
        image = W.Image(value=cached[1], format="png", layout=W.Layout(max_width="340px"))
        image.add_class("cl-teacher-chart")
        return image

    # -- what the teacher does ----------------------------------------------------------------------
    def set_policy(self, policy: str) -> None:
        if self.storage is None or policy not in SOLUTION_POLICIES:
            return
        try:
            self.storage.set_setting(SOLUTIONS_SETTING, policy)
        except StorageError as error:
            self.summary.value = self._error(self.t.refusal(error))

    def _show_numbers(self) -> None:
        assert self.storage is not None
        try:
            policy, seed = class_numbers(self.storage)
        except StorageError as error:
            self.summary.value = self._error(self.t.refusal(error))
            return
        with self.quietly():
            self.numbers.value, self.class_seed.value = policy, seed
        self._numbers_note()

    def _numbers_note(self) -> None:
        t = self.t
        if self.numbers.value == "class":
            text = t.gettext("Every learner works on the cards of the class seed: the same numbers for everyone, "
                             "as on the worksheet.")
        else:
            text = t.gettext("Each learner works on cards of their own, drawn from the class seed and their name: "
                             "the same questions with other numbers. The worksheet is on the class seed's cards.")
        self.numbers_note.value = f'<span class="cl-note">{escape(text)}</span>'

    def set_numbers(self) -> None:
        """Store whose numbers the learners' exercises are on; pages follow at their next exercise."""
        if self._quiet or self.storage is None:
            return
        policy = str(self.numbers.value or DEFAULT_NUMBERS)
        try:
            set_class_numbers(self.storage, policy, int(self.class_seed.value))
        except StorageError as error:
            self.summary.value = self._error(self.t.refusal(error))
            return
        self.sheet_links.value = ""  # a sheet made before is on other cards
        self._numbers_note()

    def new_class_seed(self) -> None:
        """Draw a new class seed: new numbers for everyone (a new session, say)."""
        self.class_seed.value = secrets.randbelow(MAX_SEED)

    def make_sheet(self, answers: bool) -> str:
        """The worksheet (or its answer key) on the class seed's cards, in the page's language,
        as a link the browser downloads; returns the page's HTML."""
        seed = int(self.class_seed.value)
        try:
            key = server_key(self.storage)
        except StorageError as error:
            self.summary.value = self._error(self.t.refusal(error))
            return ""
        instances = [instance(ex.id, instance_seed("class", key, seed, ex.id, "", "")) for ex in EXERCISES]
        page = (answer_key_html if answers else worksheet_html)(instances, self.t.lang)
        data = base64.b64encode(page.encode("utf-8")).decode()
        kind = "answer-key" if answers else "worksheet"
        label = (self.t.gettext("Download the answer key (seed {seed})") if answers
                 else self.t.gettext("Download the worksheet (seed {seed})")).format(seed=seed)
        self.sheet_links.value = (
            f'<a class="cl-teacher-{kind}-link" download="capital_lux_{kind}_{self.t.lang}_{seed}.html" '
            f'href="data:text/html;charset=utf-8;base64,{data}">{escape(label)}</a>')
        return page

    def export_csv(self) -> None:
        """A download link holding every attempt as CSV: the file goes to the teacher's browser."""
        attempts = self._attempts()
        if attempts is None:
            return
        self._download("class_answers.csv", results_csv(attempts, self.t.lang),
                       self.t.gettext("Download every answer"))

    def export_gradebook(self) -> None:
        """A download link holding the gradebook: one row per learner, one column per exercise."""
        read = self._read(lambda storage: (class_figures(storage), storage.learner_exercises(lesson(storage)[1])))
        if read is None:
            return
        self._download("class_gradebook.csv", gradebook_csv(*read, self.t.lang), self.t.gettext("Download the gradebook"))

    def _download(self, name: str, text: str, label: str) -> None:
        data = base64.b64encode(text.encode("utf-8")).decode()
        self.csv_link.value = (f'<a download="{name}" href="data:text/csv;charset=utf-8;base64,{data}">'
                               f"{escape(label)}</a>")

    def refresh_every(self, seconds: float) -> threading.Event:
        """Keep the figures live: refresh every ``seconds`` until the returned event is set."""
        stop = threading.Event()

        def loop() -> None:
            while not stop.wait(seconds):
                self.refresh()

        threading.Thread(target=loop, daemon=True, name="teacher-refresh").start()
        return stop


def build_app(lang: str = "en", storage: Storage | None = None, live_seconds: float = 0) -> W.VBox:
    """The teacher's page; ``root._teacher`` is the app. ``live_seconds`` > 0 refreshes the figures."""
    error = None
    if storage is None:
        try:
            storage = open_storage()
        except StorageError as problem:
            error = problem
    app = TeacherApp(lang, storage, error)
    app.root._teacher = app
    if live_seconds > 0:
        app.root._refresh_stop = app.refresh_every(live_seconds)
    return app.root
