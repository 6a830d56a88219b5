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
import json
import os
import secrets
from datetime import datetime, timezone, tzinfo
import threading
import time
from html import escape
from typing import TYPE_CHECKING, Callable, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import ipywidgets as W

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
    searched,
    ClassFigures,
    ExerciseSummary,
    class_figures,
    class_numbers,
    exercise_number,
    gradebook_csv,
    instance_seed,
    ANSWER_FORMS,
    ANSWER_FORMS_SETTING,
    IDENTITY_MODES,
    add_to_roster,
    identity_mode,
    roster_names,
    set_identity_mode,
    slips_html,
    LESSON_EXERCISES_SETTING,
    fractions_only,
    CLIENT_VARIABLE,
    key_wait,
    close_lesson,
    note_key_failure,
    lesson,
    lesson_closed,
    lesson_exercises,
    mistake_label,
    new_lesson,
    server_key,
    results_csv,
    results_time,
    set_lesson_exercises,
    stuck_now,
    set_class_numbers,
    teacher_key,
    teacher_key_matches,
)
from ..lessons.exercises import EXERCISES, EXERCISES_BY_ID, instance
from ..lessons.problems.worksheet import answer_key_html, worksheet_html
from ..lessons.storage import LOG, Attempt, Storage, StorageError, StorageMisconfigured, StorageUnavailable, open_or_why
from .base import Page, Upload, page_root, tagged
from .tables_app import TablesOverview
from ..lessons.tables import Tables

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: Wrong keys allowed per page; then the page must be reloaded (a new kernel), which slows guessing.
MAX_KEY_TRIES = 5
OUTCOME_LABELS = (
    N_("solved at the 1st answer"), N_("solved at the 2nd answer"), N_("solved at the 3rd answer"),
    N_("solved at the 4th or later"), N_("not solved yet"),
)


def class_chart(summary: ExerciseSummary, title: str, t: Translator) -> Figure:
    """How many learners solved the exercise at which answer, and how many not yet.
    (Matplotlib is imported here, not with the page: the locked page draws no chart.)"""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    from ..analysis.charts import DARK, EXCEED_HATCH, GREY

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


#: Clicks the link just made, for the teacher: the file downloads at once. A script runs in an
#: Output widget's HTML (Voila renders it as a cell's output), never in an HTML widget's value;
#: the link stays on the page for a second copy, or for a browser that blocked the first.
CLICK_LINK = """<script>
(() => {{
  const find = (tries) => {{
    const link = document.querySelector({selector});
    if (link && !link.dataset.clClicked) {{ link.dataset.clClicked = '1'; link.click(); }}
    else if (!link && tries > 0) setTimeout(() => find(tries - 1), 100);
  }};
  find(100);
}})();
</script>"""


#: Tells the page the teacher's browser's time zone (an IANA name), through a hidden field.
TELL_ZONE = """<script>
(() => {
  const tell = (tries) => {
    const input = document.querySelector('.cl-teacher-zone input');
    if (!input) { if (tries > 0) setTimeout(() => tell(tries - 1), 100); return; }
    input.value = Intl.DateTimeFormat().resolvedOptions().timeZone || '';
    input.dispatchEvent(new Event('input', {bubbles: true}));
  };
  tell(100);
})();
</script>"""


T = TypeVar("T")

#: How the grid of learners may be sorted, in one click.
SORTS = {"name": N_("name"), "solved": N_("exercises solved"), "answers": N_("answers checked")}

#: The grid's cells: a shade beside the symbol and the words (never the colour alone).
GRID_SHADES = {"solved": "background:#dcefdc", "tried": "background:#f8dede"}


class TeacherApp(Page):
    """The page's parts; every handler is a plain method, so tests call them directly."""
    manual = "teacher.html#the-teachers-page"  # the part of the manual its help link opens

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
        self.download_now = tagged(W.Output(layout=W.Layout(display="none")), "cl-teacher-download-now")
        #: the teacher's browser's time zone, once its page says it; the server's clock until then
        self.zone: tzinfo | None = None
        self.zone_field = tagged(W.Text(layout=W.Layout(display="none")), "cl-teacher-zone")
        self.zone_field.observe(lambda change: self.set_zone(change["new"]), names="value")
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
        self.rename_to = label(tagged(W.Text(layout=W.Layout(width="14em")), "cl-teacher-rename-to"), N_("New name"))
        self.rename_button = label(button("cl-teacher-rename"), N_("Rename"))
        self.confirm_button = tagged(W.Button(layout=W.Layout(width="auto", display="none"), button_style="danger"),
                                     "cl-teacher-confirm")
        self.cancel_button = label(tagged(W.Button(layout=W.Layout(width="auto", display="none")),
                                          "cl-teacher-cancel"), N_("Cancel"))
        self.undo_button = label(button("cl-teacher-undo"), N_("Undo the last change to a row"))
        #: the act waiting for the teacher's confirmation: (what, the sentence asking, the act)
        self._asked: tuple[str, Callable[[Storage], object]] | None = None
        self.identity = label.choice(
            label(tagged(W.Dropdown(layout=W.Layout(width="auto")), "cl-teacher-identity"), N_("Learners join")),
            lambda t: [(t.gettext(text), key) for key, text in IDENTITY_MODES.items()])
        self.roster_text = label(label(tagged(W.Textarea(rows=4, layout=W.Layout(width="24em")), "cl-teacher-roster"),
                                       N_("One name per line, or paste a CSV"), "placeholder"), N_("Class list"))
        self.roster_button = label(button("cl-teacher-roster-add"), N_("Add to the class list"))
        self.roster_upload = tagged(W.FileUpload(accept=".csv,.txt", multiple=False), "cl-teacher-roster-upload")
        self.slips_button = label(button("cl-teacher-slips"), N_("Print the join slips"))
        self.slips_link = tagged(W.HTML(), "cl-teacher-slips-link")
        self.roster_note = tagged(W.HTML(), "cl-teacher-roster-note")
        self.roster_list = tagged(W.HTML(), "cl-teacher-roster-list")
        self.roster_button.on_click(lambda _: self.add_roster())
        self.roster_upload.observe(lambda change: self.import_roster(change["new"]), names="value")
        self.slips_button.on_click(lambda _: self.make_slips())
        self.rename_button.on_click(lambda _: self.rename_row())
        self.confirm_button.on_click(lambda _: self.confirm())
        self.cancel_button.on_click(lambda _: self.cancel())
        self.undo_button.on_click(lambda _: self.undo())
        self.close_button = label(button("cl-teacher-close-lesson"), N_("Close the lesson"))
        self.close_button.on_click(lambda _: self.ask_close())
        self.sort_by = label.choice(
            label(tagged(W.ToggleButtons(style={"button_width": "auto"}), "cl-teacher-sort"), N_("Sort the learners by")),
            lambda t: [(t.gettext(text), key) for key, text in SORTS.items()])
        self.sort_by.observe(lambda change: self.refresh(), names="value")
        self.answers_button = label(button("cl-teacher-show-answers"), N_("Show their answers"))
        self.answers_button.on_click(lambda _: self.show_answers())
        self.answers_view = tagged(W.HTML(), "cl-teacher-answers")
        self.answer_picker = label(tagged(W.Dropdown(layout=W.Layout(width="auto")), "cl-teacher-answer"),
                                   N_("Answer"))
        self.mark_right = label(button("cl-teacher-mark-right"), N_("Mark it right"))
        self.mark_wrong = label(button("cl-teacher-mark-wrong"), N_("Mark it wrong"))
        self.unmark = label(button("cl-teacher-unmark"), N_("Take my mark back"))
        self.mark_right.on_click(lambda _: self.mark(True))
        self.mark_wrong.on_click(lambda _: self.mark(False))
        self.unmark.on_click(lambda _: self.mark(None))
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
            W.HBox([self.solutions, self.refresh_button, self.gradebook_button, self.export_button, self.csv_link,
                    self.download_now, self.zone_field], layout=row),
            W.HBox([self.numbers, self.class_seed, self.new_seed_button], layout=row),
            self.numbers_note,
            W.HBox([self.worksheet_button, self.key_button, self.sheet_links], layout=row),
            W.HBox([self.lesson_note, self.new_lesson_button, self.close_button], layout=row),
            W.HBox([self.identity, self.roster_text, W.VBox([self.roster_button, self.roster_upload]),
                    self.slips_button, self.slips_link], layout=row),
            self.roster_note,
            self.roster_list,
            W.HBox([self.today, self.answer_forms], layout=row),
            self.summary, self.table, self.charts, self.sort_by, self.learners,
            W.HBox([self.row_picker, self.into_picker, self.merge_button, self.remove_button], layout=row),
            W.HBox([self.rename_to, self.rename_button, self.undo_button, self.answers_button], layout=row),
            self.answers_view,
            W.HBox([self.answer_picker, self.mark_right, self.mark_wrong, self.unmark], layout=row),
            W.HBox([self.rows_note, self.confirm_button, self.cancel_button], layout=row),
        ]
        # the class's game tables (``tables_app``): who sits where, scores, records; close one
        self.tables_view = TablesOverview(self.t, Tables(self.storage) if self.storage is not None else None)
        self._run_script(TELL_ZONE)
        self.body.children = (*self.body.children, self.tables_view.box)
        self.relabel()
        if self.storage is not None:
            self.solutions.value = self._policy()
            self._show_numbers()
        if self.storage is not None:
            self._show_today()
            mode = self._read(identity_mode)
            if mode is not None:
                self.identity.value = mode
        self.identity.observe(lambda change: self.set_identity(), names="value")
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

    def _refusal(self, error: StorageError) -> str:
        """A refusal as a sentence in the teacher's language: the database driver's own words
        (English, technical) go to the server's log, not to the page."""
        t = self.t
        if isinstance(error, StorageUnavailable):
            LOG.warning("The teacher's page could not reach the class database: %s", error)
            return t.gettext("The class database does not answer right now. Nothing is lost: the learners' "
                             "answers wait on the server, and this page shows them once it answers again.")
        if "{reason}" in error.template:
            LOG.warning("The class database refused the teacher's page: %s", error)
            return t.gettext("The class database refused this: the server's log says why. Nothing was changed.")
        return t.refusal(error)

    def _read(self, read: Callable[[Storage], T]) -> T | None:
        """What ``read`` takes from the class database, or None with the page saying why."""
        if self.storage is None:
            error = self.storage_error
            if isinstance(error, StorageMisconfigured):  # what is wrong, never the driver's words
                reason = self.t.refusal(error.what)
            else:
                reason = self.t.refusal(error) if error else ""
            self.summary.value = self._error(self.t.gettext("No results can be shown: {reason}").format(
                reason=reason))  # one sentence, in the page's language
            return None
        try:
            return read(self.storage)
        except StorageError as error:
            self.summary.value = self._error(self._refusal(error))
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
            if getattr(self, "tables_view", None) is not None:
                self.tables_view.render(t)
            if self.csv_link.value and figures.answers != getattr(self, "_link_made", None):
                self.csv_link.value = ""  # an export made before these answers: click again for a new one
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
            today = self._today()
            for number, ex in enumerate(EXERCISES, 1):
                if ex.id in summaries and ex.id in today:
                    images.append(self._chart(summaries[ex.id], f"{number}. {t.gettext(ex.title)}"))
            self.charts.children = images

    def _today(self) -> tuple[str, ...]:
        """Today's exercises (all when the teacher chose none): the dashboard, the gradebook and
        the sheets show these."""
        return self._read(lesson_exercises) or lesson_exercises(None)

    def _number(self, value: float) -> str:
        return format_number(value, self.t.lang)

    # -- the lesson and its rows ---------------------------------------------------------------------
    def _show_lesson(self) -> None:
        t = self.t
        found = self._read(lesson)
        code = found[0] if found else ""
        mode = self._read(identity_mode)
        listed = self._read(lambda storage: storage.roster()) or []
        people = len(listed)
        self.roster_list.value = ('<div class="cl-note cl-teacher-roster-names">{}</div>'.format(
            escape(", ".join(name for _, name, _, _ in listed))) if listed else "")
        if mode == "open" and code:
            text = t.gettext("Open lesson, code {code}: learners type it with their name, and each gets a code "
                             "of their own to come back with.").format(code=code)
        elif mode == "open":
            text = t.gettext("Open lesson: learners join with a name alone, and each gets a code of their own to "
                             "come back with. Start a lesson to give them a code to type.")
        else:
            text = t.ngettext("Class list: {n} learner. Each joins with their name and the code on their slip.",
                              "Class list: {n} learners. Each joins with their name and the code on their slip.",
                              people or 0).format(n=self._number(people or 0))
        if self._read(lesson_closed):
            text += " " + t.gettext("The lesson is closed: learners' answers are checked but no longer stored. "
                                    "Start a new lesson to open another.")
        self.lesson_note.value = f'<span class="cl-note">{escape(text)}</span>'

    def _change(self, change: Callable[[Storage], object]) -> bool:
        """Apply a change to the class database, or say why it cannot be made."""
        if self.storage is None:
            return False
        try:
            change(self.storage)
        except StorageError as error:
            self.rows_note.value = self._error(self._refusal(error))
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

    def _name_of(self, session: object) -> str:
        labels = {value: str(text) for text, value in self.row_picker.options}
        return labels.get(session, "").rsplit(" (", 1)[0]

    def _ask(self, question: str, confirm: str, act: Callable[[Storage], object]) -> bool:
        """Ask the teacher to confirm ``act`` (a sentence, and the button that does it)."""
        self._asked = (confirm, act)
        self.rows_note.value = f'<span class="cl-note">{escape(question)}</span>'
        self.confirm_button.description = confirm
        self.confirm_button.layout.display = self.cancel_button.layout.display = None
        return True

    def cancel(self) -> None:
        self._asked = None
        self.confirm_button.layout.display = self.cancel_button.layout.display = "none"
        self.rows_note.value = ""

    def confirm(self) -> bool:
        """Do the act the teacher was asked to confirm."""
        asked, self._asked = self._asked, None
        self.confirm_button.layout.display = self.cancel_button.layout.display = "none"
        if asked is None or not self._change(asked[1]):
            return False
        self.rows_note.value = '<span class="cl-note">{}</span>'.format(escape(self.t.gettext(
            "Done. “Undo the last change to a row” puts it back.")))
        self.refresh()
        return True

    def merge_rows(self) -> bool:
        """Ask to merge the chosen learner's row into the other one (one learner who made two rows)."""
        source, target = self.row_picker.value, self.into_picker.value
        if not source or not target or source == target:
            self.rows_note.value = self._error(self.t.gettext("Choose two different rows to merge."))
            return False
        return self._ask(self.t.gettext("Merge {source}'s row into {target}'s? Every answer of {source} becomes "
                                        "{target}'s, and the merge can be undone.").format(
                             source=self._name_of(source), target=self._name_of(target)),
                         self.t.gettext("Yes, merge the two rows"),
                         lambda storage: storage.merge_rows(str(source), str(target)))

    def remove_row(self) -> bool:
        """Ask to remove the chosen learner (a test row, a name typed by mistake): archived, not deleted."""
        session = self.row_picker.value
        if not session:
            return False
        return self._ask(self.t.gettext("Remove {name} from the dashboard? Their answers are kept in the exports, "
                                        "marked as archived, and the removal can be undone.").format(
                             name=self._name_of(session)),
                         self.t.gettext("Yes, remove this learner"),
                         lambda storage: storage.archive_learner(str(session)))

    def rename_row(self) -> bool:
        """Ask to rename the chosen learner's row (and their name on the class list)."""
        session, name = self.row_picker.value, self.rename_to.value
        if not session or not name.strip():
            self.rows_note.value = self._error(self.t.gettext("Choose a learner and type their new name."))
            return False
        return self._ask(self.t.gettext("Rename {name} to {new}? This can be undone.").format(
                             name=self._name_of(session), new=" ".join(name.split())),
                         self.t.gettext("Yes, rename"),
                         lambda storage: storage.rename_learner(str(session), name))

    def ask_close(self) -> bool:
        """Ask to close the lesson: learners' pages store no more answers."""
        return self._ask(self.t.gettext("Close the lesson? Learners' pages will check answers but no longer store "
                                        "them; the answers so far stay."),
                         self.t.gettext("Yes, close the lesson"), close_lesson)

    def show_answers(self) -> bool:
        """The chosen learner's answers, one line each: the exercise, the answer, the checker's
        verdict and the teacher's mark, the time on the teacher's clock."""
        t, session = self.t, self.row_picker.value
        if not session:
            return False
        found = self._read(lambda storage: storage.attempts(lesson(storage)[1], str(session)))
        if found is None:
            return False
        verdicts = {True: "✓ " + t.gettext("right"), False: "✗ " + t.gettext("wrong")}
        lines, choices = [], []
        for a in found:
            number = exercise_number(a.exercise) or "?"
            title = t.gettext(EXERCISES_BY_ID[a.exercise].title) if a.exercise in EXERCISES_BY_ID else a.exercise
            mark = "" if a.marked is None else verdicts[a.marked]
            cells = [f"{number}. {title}", a.answer, verdicts[a.correct], mark,
                     mistake_label(t, a.mistake) if a.mistake else "", results_time(a.at, self.zone)]
            lines.append(f'<tr data-attempt="{a.id}">' + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
            choices.append((f"{number}. {a.answer} ({results_time(a.at, self.zone)[11:16]})", a.id))
        head = "".join(f"<th>{escape(h)}</th>" for h in (
            t.gettext("Exercise"), t.gettext("Answer"), t.gettext("Checker"), t.gettext("Your mark"),
            t.gettext("Mistake"), t.gettext("Time")))
        self.answers_view.value = (f"<h3>{escape(self._name_of(session))}</h3>"
                                   f'<table class="cl-table cl-teacher-answer-table"><tr>{head}</tr>{"".join(lines)}'
                                   "</table>")
        current = self.answer_picker.value
        self.answer_picker.options = choices
        ids = [value for _, value in choices]
        self.answer_picker.value = current if current in ids else (ids[0] if ids else None)
        return True

    def mark(self, correct: bool | None) -> bool:
        """Mark the chosen answer right or wrong by hand (None: take the mark back); recorded
        beside the checker's verdict, and the learner's progress follows it."""
        attempt = self.answer_picker.value
        if attempt is None:
            self.rows_note.value = self._error(self.t.gettext("Show a learner's answers and choose one first."))
            return False
        if not self._change(lambda storage: storage.mark_answer(int(attempt), correct)):
            return False
        self.show_answers()
        self.refresh()
        return True

    def undo(self) -> bool:
        """Undo the teacher's latest rename, merge or removal."""
        undone = self._read(lambda storage: storage.undo_change())
        if undone is None:
            self.rows_note.value = '<span class="cl-note">{}</span>'.format(escape(self.t.gettext(
                "There is no change to a row left to undo.")))
            return False
        self.rows_note.value = '<span class="cl-note">{}</span>'.format(escape(self.t.gettext(
            "The last change to a row is undone.")))
        self.refresh()
        return True

    # -- the class list -------------------------------------------------------------------------------
    def set_identity(self) -> None:
        """How learners join: the class list (with codes), or an open lesson with names only."""
        if self._quiet:
            return
        self._change(lambda storage: set_identity_mode(storage, str(self.identity.value)))
        self._show_lesson()

    def add_roster(self, text: str | None = None) -> int:
        """Put the names typed (or a CSV's) on the class list, each with a code; returns how many."""
        names = roster_names(self.roster_text.value if text is None else text)
        if not names:
            self.roster_note.value = self._error(self.t.gettext("Type the learners' names first, one per line."))
            return 0
        added = self._read(lambda storage: add_to_roster(storage, names))
        if added is None:
            self.roster_note.value = self.summary.value
            return 0
        self.roster_text.value = ""
        self.slips_link.value = ""  # the slips made before miss the new learners
        self.roster_note.value = '<span class="cl-note">{}</span>'.format(escape(self.t.ngettext(
            "{n} learner added to the class list: print the join slips and hand them out.",
            "{n} learners added to the class list: print the join slips and hand them out.",
            len(added)).format(n=self._number(len(added)))))
        self._show_lesson()
        return len(added)

    def import_roster(self, value: Upload) -> int:
        """A class list exported from the school's system (CSV)."""
        if not value:
            return 0
        content = value[0]["content"]
        data = content.tobytes() if isinstance(content, memoryview) else bytes(content)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")
        return self.add_roster(text)

    def make_slips(self) -> str:
        """A page of join slips (name and personal code) to print, in the teacher's language."""
        people = self._read(lambda storage: storage.roster())
        if not people:
            self.roster_note.value = self._error(self.t.gettext("The class list is empty: add the learners' "
                                                                "names first."))
            return ""
        page = slips_html(people, self.t.lang)
        data = base64.b64encode(page.encode("utf-8")).decode()
        mark = secrets.token_hex(4)
        self.slips_link.value = (f'<a class="cl-teacher-slips-download" download="capital_lux_slips_{self.t.lang}.html" '
                                 f'data-cl-fetch="{mark}" href="data:text/html;charset=utf-8;base64,{data}">'
                                 f'{escape(self.t.gettext("Download the join slips"))}</a>')
        self._fetch_now(mark)
        return page

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
        today = self._today()
        for number, ex in enumerate(EXERCISES, 1):
            if ex.id not in today:
                continue
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
        today = self._today()
        shown = [ex for ex in EXERCISES if ex.id in today]
        head = "".join(f'<th title="{escape(t.gettext(ex.title))}">{exercise_number(ex.id)}</th>' for ex in shown)
        head = (f"<tr><th>{escape(t.gettext('Learner'))}</th>{head}<th>{escape(t.gettext('Exercises solved'))}</th>"
                f"<th>{escape(t.gettext('Answers checked'))}</th></tr>")
        rows = []
        shared = self._read(lambda storage: storage.shared_rows(lesson(storage)[1])) or set()
        two_pages = t.gettext("answers from two pages at once: is someone else using this code?")
        for session, name, solved, answers, _ in self._sorted(figures.learners):
            cells = []
            for ex in shown:
                cell = figures.cells.get((session, ex.id))
                kinds = [] if cell is None else ["solved" if cell[1] else "tried"]
                kinds += ["seen"] if (session, ex.id) in figures.seen else []
                text = "".join(marks[k][0] for k in kinds) + (str(cell[0]) if cell and not cell[1] else "")
                label = "; ".join(marks[k][1] for k in kinds)
                if cell is not None and searched(*cell):  # solved after many answers: ask for the method
                    text += f"⚠{cell[0]}"
                    label += "; " + t.gettext("solved after {count} answers: ask how it was worked out").format(
                        count=self._number(cell[0]))
                shade = f' style="{GRID_SHADES[kinds[0]]}"' if kinds and kinds[0] in GRID_SHADES else ""
                cells.append(f'<td class="{" ".join(f"cl-{k}" for k in kinds)}" title="{escape(label)}"{shade}>'
                             f"{escape(text)}</td>")
            flag = (f' <span class="cl-error cl-teacher-two-pages" title="{escape(two_pages)}">⚠ {escape(two_pages)}'
                    "</span>" if session in shared else "")
            rows.append(f"<tr><th>{escape(name or t.gettext('(no name given)'))}{flag}</th>{''.join(cells)}"
                        f"<td>{self._number(solved)}</td><td>{self._number(answers)}</td></tr>")
        legend = t.gettext("✓ solved; ✗ tried, not solved yet, with the number of answers given; 👁 the worked "
                           "solution read before solving.") + " " + t.gettext(
            "✓⚠ and a number: solved after that many answers, as a search by guesses would be; ask how it "
            "was worked out.")
        return (f'<table class="cl-table cl-teacher-learner-table cl-teacher-grid">{head}{"".join(rows)}</table>'
                f'<div class="cl-note">{escape(legend)}</div>')

    def _sorted(self, learners: list[tuple[str, str, int, int, int]]) -> list[tuple[str, str, int, int, int]]:
        """The learners in the order the teacher clicked: by name, or most solved (most answers) first."""
        by_name = sorted(learners, key=lambda row: (row[1].casefold(), row[0]))
        if self.sort_by.value == "solved":
            return sorted(by_name, key=lambda row: -row[2])
        if self.sort_by.value == "answers":
            return sorted(by_name, key=lambda row: -row[3])
        return by_name

    def _chart(self, summary: ExerciseSummary, title: str) -> W.Image:
        key = (self.t.lang, title, summary.outcomes)
        cached = self._charts.get(summary.exercise)
        if cached is None or cached[0] != key:
            from ..analysis.charts import figure_png  # with the first chart (see class_chart)

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
            self.summary.value = self._error(self._refusal(error))

    def _show_numbers(self) -> None:
        assert self.storage is not None
        try:
            policy, seed = class_numbers(self.storage)
        except StorageError as error:
            self.summary.value = self._error(self._refusal(error))
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
            text = t.gettext("Each learner works on cards of their own, drawn from the class seed and their place "
                             "on the class list: the same questions with other numbers, on any computer. The "
                             "worksheet is on the class seed's cards.")
        self.numbers_note.value = f'<span class="cl-note">{escape(text)}</span>'

    def set_numbers(self) -> None:
        """Store whose numbers the learners' exercises are on; pages follow at their next exercise."""
        if self._quiet or self.storage is None:
            return
        policy = str(self.numbers.value or DEFAULT_NUMBERS)
        try:
            set_class_numbers(self.storage, policy, int(self.class_seed.value))
        except StorageError as error:
            self.summary.value = self._error(self._refusal(error))
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
            self.summary.value = self._error(self._refusal(error))
            return ""
        today = self._today()
        instances = [instance(ex.id, instance_seed("class", key, seed, ex.id, "", "")) for ex in EXERCISES
                     if ex.id in today]
        page = (answer_key_html if answers else worksheet_html)(instances, self.t.lang)
        data = base64.b64encode(page.encode("utf-8")).decode()
        kind = "answer-key" if answers else "worksheet"
        label = (self.t.gettext("Download the answer key (seed {seed})") if answers
                 else self.t.gettext("Download the worksheet (seed {seed})")).format(seed=seed)
        mark = secrets.token_hex(4)
        self.sheet_links.value = (
            f'<a class="cl-teacher-{kind}-link" download="capital_lux_{kind}_{self.t.lang}_{seed}.html" '
            f'data-cl-fetch="{mark}" href="data:text/html;charset=utf-8;base64,{data}">{escape(label)}</a>')
        self._fetch_now(mark)
        return page

    def export_csv(self) -> None:
        """A download link holding every attempt as CSV: the file goes to the teacher's browser."""
        attempts = self._attempts()
        if attempts is None:
            return
        self._download("class_answers", results_csv(attempts, self.t.lang, zone=self.zone),  # the teacher's clock
                       self.t.gettext("Download every answer"))

    def export_gradebook(self) -> None:
        """A download link holding the gradebook: one row per learner, one column per exercise."""
        read = self._read(lambda storage: (class_figures(storage), storage.learner_exercises(lesson(storage)[1]),
                                           lesson_exercises(storage)))
        if read is None:
            return
        self._download("class_gradebook", gradebook_csv(*read[:2], self.t.lang, read[2]),
                       self.t.gettext("Download the gradebook"))

    def _download(self, name: str, text: str, label: str) -> None:
        """A link the browser downloads, named with the time it was made (the teacher's clock);
        it goes from the page at the next refresh that finds new answers, never left stale."""
        moment = datetime.now(timezone.utc).astimezone(self.zone)
        data = base64.b64encode(text.encode("utf-8")).decode()
        figures = self._read(class_figures)
        self._link_made = None if figures is None else figures.answers
        stamp = moment.isoformat(timespec="minutes")[:16].replace(":", "")  # 2026-11-28T1715: a file name
        mark = secrets.token_hex(4)
        self.csv_link.value = (f'<a download="{name}_{stamp}.csv" data-cl-fetch="{mark}" '
                               f'href="data:text/csv;charset=utf-8;base64,{data}">{escape(label)}</a>')
        self._fetch_now(mark)

    def set_zone(self, name: str) -> None:
        """The teacher's browser's time zone ("Europe/Paris", as the browser names it): the times
        shown and exported follow it. A name that is no time zone leaves the server's clock."""
        try:
            self.zone = ZoneInfo(name) if 0 < len(name) <= 64 else None
        except (ValueError, OSError, ZoneInfoNotFoundError):  # a forged or unknown name
            self.zone = None

    def _fetch_now(self, mark: str) -> None:
        """The browser downloads the link marked ``mark`` at once, as the click asked."""
        self._run_script(CLICK_LINK.format(selector=json.dumps(f'a[data-cl-fetch="{mark}"]')))

    def _run_script(self, script: str) -> None:
        """A script the teacher's page runs once, in place of the one before."""
        self.download_now.outputs = ({"output_type": "display_data", "data": {"text/html": script}, "metadata": {}},)

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
    storage, error = open_or_why(storage)
    app = TeacherApp(lang, storage, error)
    app.root._teacher = app
    if live_seconds > 0:
        app.root._refresh_stop = app.refresh_every(live_seconds)
    return app.root
