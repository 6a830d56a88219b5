"""The learner's side of the classroom, as a strip of widgets on the exercises page.

The learner types their name and the personal code on the slip their teacher gave them
(the class list); on JupyterHub the hub's user name is theirs, with nothing to type; in
an open lesson (the teacher's choice for a quick lesson) a name and the lesson code make
a new row and give the learner a code of their own to come back with
(``lessons.classroom.join``). Coming back (a reload, a culled tab, another computer)
with their name and own code continues their row: what they solved is restored from the
server, and answers given before joining join it. A classmate's name gets nobody into
the classmate's row. Every checked answer goes to the class
database (``lessons.storage``), where the learner's progress is kept, with the seed
of the learner's own instance of each exercise. Those seeds are HMACs under the
server's key (``lessons.classroom.instance_seed``); neither they nor the key are ever
shown on the learner's page or put in a download. A learner never names a file on the
server: progress leaves through a download link (signed by the server, with no seed)
and comes back through the browser's upload button, size-checked, schema-checked and
signature-checked. Answers the database cannot take now wait on the server's disk
(``lessons.outbox``) and are sent with the time they were typed, once each.
"""

from __future__ import annotations

import base64
import math
import os
import secrets
import time
from html import escape
from typing import Callable

import ipywidgets as W

from ..engine.cards import N_
from ..i18n import Translator
from ..lessons.classroom import (
    DEFAULT_NUMBERS, DEFAULT_POLICY, HUB_USER_VARIABLE, MAX_SEED, SOLUTIONS_SETTING, class_numbers, fractions_only,
    identity_mode, instance_seed, join, lesson, lesson_closed, lesson_exercises, server_key, solution_open,
)
from ..lessons.exercises import Checked
from ..lessons.pace import Pace
from ..lessons.progress import MAX_PROGRESS_BYTES, Progress, ProgressError
from ..lessons.outbox import Outbox, new_token, now, outbox_folder
from ..lessons.storage import Storage, StorageError, StorageMisconfigured, StorageUnavailable, database_url, new_session
from .base import Upload, tagged

PROGRESS_DOWNLOAD = "capital_lux_progress.json"
#: A link the learner should see as something to click, like the page's buttons.
BUTTON_STYLE = ("display:inline-block;padding:3px 10px;border:1px solid #767676;border-radius:4px;"
                "background:#f3f3f3;color:#1a1a1a;text-decoration:none;font:13px sans-serif")
#: Answers one learner may check at once, then a minute: as fast as a person works them out.
CHECK_BURST, CHECKS_PER_MINUTE = 6, 12
#: Seconds between two tries to open a class database that did not answer when the page was built.
REOPEN_SECONDS = 5.0
#: Wrong codes one page may type at once, then a minute: a person mistyping, not a search.
JOIN_BURST, JOINS_PER_MINUTE = 5, 5


class LearnerPanel:
    """Name, progress download and upload, and the class database behind them."""

    def __init__(self, t: Translator, storage: Storage | None,
                 reopen: Callable[[], Storage] | None = None, problem: StorageError | None = None) -> None:
        self.t = t
        self.storage = storage
        #: a class database setting that can never work: said on the page, never tried again
        self.misconfigured = problem if storage is None and isinstance(problem, StorageMisconfigured) else None
        #: opens the class database that could not be opened when the page was built (it may
        #: come back: a PostgreSQL restarting); tried again with the answers kept meanwhile
        self.reopen = reopen if storage is None else None
        self._reopened_at = -math.inf
        self.session = new_session()
        #: this page's own id: the dashboard sees a row answering from two pages at once
        self.page = new_session()
        #: the person on the class list (their numbers follow them), and their own code in an open lesson
        self.person: str | None = None
        self.personal_code = ""
        self.outbox = Outbox(outbox_folder(storage.url if storage is not None else database_url()))
        #: the cards dealt per exercise, kept while the learner is the same: they never change
        #: under the learner, even while the class database is away and after it comes back
        self._dealt: dict[str, int] = {}
        self._class_numbers: tuple[str, int] | None = None
        self.join_pace = Pace(JOIN_BURST, JOINS_PER_MINUTE)
        self.hub_user = os.environ.get(HUB_USER_VARIABLE, "").strip() or None
        self.progress = Progress.empty()
        #: the name the class database holds for this learner ("" until they give one)
        self.joined = ""
        #: called after the learner gives (or changes) their name: their numbers follow it
        self.on_name: Callable[[], None] | None = None
        self._alone_seed = secrets.randbelow(MAX_SEED)  # no database: a class of one
        self._key: bytes | None = None
        #: a person's pace of checking answers; the clock is a parameter for the tests
        self.pace, self.clock = Pace(CHECK_BURST, CHECKS_PER_MINUTE), time.monotonic
        self._checked: set[tuple[str, str]] = set()
        self.name = tagged(W.Text(layout=W.Layout(width="18em"), continuous_update=False), "cl-learner-name")
        self.code = tagged(W.Text(layout=W.Layout(width="12em"), continuous_update=False), "cl-learner-code")
        self.name_button = tagged(W.Button(layout=W.Layout(width="auto")), "cl-learner-join")
        self.download = tagged(W.HTML(), "cl-ex-download")
        self.upload = tagged(W.FileUpload(accept=".json", multiple=False), "cl-ex-upload")
        self.note = tagged(W.HTML(), "cl-learner-note")
        self.name_button.on_click(lambda _: self.set_name())
        self.retry_button = tagged(W.Button(layout=W.Layout(width="auto", display="none")), "cl-learner-retry")
        self.retry_button.on_click(lambda _: self.send_pending())
        self.code.observe(lambda change: self.set_name() if self.name.value.strip() else None, names="value")
        self.name.observe(lambda change: self.set_name(by_name=True) if change["new"].strip() else None,
                          names="value")
        row = W.Layout(flex_flow="row wrap", align_items="center")
        self.box = W.VBox([W.HBox([self.name, self.code, self.name_button, self.note, self.retry_button], layout=row),
                           W.HBox([self.download, self.upload], layout=row)])
        self.box.add_class("cl-learner")
        self._message = ""
        self._error = False
        if self.hub_user:  # JupyterHub says who the learner is: nothing to type
            self.name.value = self.hub_user
            self.name.disabled = self.code.disabled = True
            self.code.layout.display = self.name_button.layout.display = "none"
        #: the note said while the page is built, said again in the page's language if it changes
        #: (a page built ahead of its learner is built in English and relabelled from ``?lang``)
        self._said_first: str | None = None
        if storage is None and self.reopen is not None:
            self._said_first = N_("The class database does not answer yet: your answers are kept on this page and "
                                  "sent to your teacher when it does.")
            self._say(t.gettext(self._said_first), error=True)
        elif storage is None and self.misconfigured is None:  # working alone: nothing is wrong, say where work is
            self._said_first = N_("You are working on your own: your answers stay on this page. Download your "
                                  "progress to keep it.")
            self._say(t.gettext(self._said_first))
        self.relabel(t)
        if storage is not None:
            self.send_pending()  # what earlier pages kept (a reload, a restart) goes first
            if self.hub_user:
                self.set_name()

    @property
    def pending(self) -> list[dict[str, object]]:
        """This page's answers waiting for the class database, oldest first."""
        return self.outbox.waiting(self.page)

    def relabel(self, t: Translator) -> None:
        if self._said_first is not None and self._message == self.t.gettext(self._said_first):
            self._message = t.gettext(self._said_first)  # nothing said since: the same words, now in this language
        self.t = t
        self.name.description = t.gettext("Your name")
        self.name.placeholder = t.gettext("a name or nickname")
        self.code.description = t.gettext("Your code")
        self.code.placeholder = t.gettext("on your slip")
        self.name_button.description = t.gettext("This is me")
        self.upload.description = t.gettext("Upload progress")
        self.retry_button.description = t.gettext("Send my answers now")
        self._show_download()
        self._show_note()

    # -- what the learner reads ---------------------------------------------------------------
    def _say(self, text: str, error: bool = False) -> None:
        self._message, self._error = text, error
        self._show_note()

    def _show_note(self) -> None:
        text = self._message
        if not text and self.storage is not None and not self.joined:
            text = self.t.gettext("Type your name and your code so that your teacher sees your answers.")
        error = self._error
        if not text and self.misconfigured is not None:  # in the page's language, whenever it changes
            text, error = self.t.refusal(self.misconfigured.what) + " " + self.t.gettext(
                "Your answers cannot reach your teacher until the server's setting is put right: they stay on this "
                "page. Tell your teacher."), True
        css = "cl-error" if error else "cl-note"
        self.note.value = f'<span class="{css}">{escape(text)}</span>' if text else ""

    def key(self) -> bytes:
        """The server's key (read once: it does not change while the server runs)."""
        if self._key is None:
            try:
                self._key = server_key(self.storage)
            except StorageError:
                return server_key(None)  # the database does not answer: this server's own, not kept
        return self._key

    def bound(self) -> str:
        """What a progress file is bound to besides the name: the learner's row (so the lesson),
        or, on a page nobody joined, the lesson; "" working alone."""
        if self.joined:
            return self.session
        if self.storage is None:
            return ""
        try:
            return "lesson " + lesson(self.storage)[1]
        except StorageError:
            return "lesson"

    def _show_download(self) -> None:
        data = base64.b64encode(self.progress.to_json(self.key(), self.joined, self.bound()).encode()).decode()
        self.download.value = (f'<a class="cl-button" download="{PROGRESS_DOWNLOAD}" role="button" '
                               f'style="{BUTTON_STYLE}" href="data:application/json;base64,{data}">'
                               f"⬇ {escape(self.t.gettext('Download my progress'))}</a>")

    # -- what the learner does ----------------------------------------------------------------
    def set_name(self, by_name: bool = False) -> None:
        """Join the learner's row with the name and code typed (or the hub's user name): their
        row if it is there (what they solved comes back), else a new one. A page joins once:
        another learner reloads it. A name typed without a code (``by_name``) joins at once only
        in an open lesson with no lesson code: else the code is awaited."""
        if self.storage is None:
            return
        t = self.t
        if self.joined:
            if self.name.value != self.joined:
                self.name.value = self.joined
                self._say(t.gettext("This page is {name}'s: to join as someone else, reload it.").format(
                    name=self.joined), error=True)
            return
        if not self.hub_user and not self.name.value.strip():
            return
        if by_name and not self.hub_user and not self.code.value.strip():
            try:
                names_only = identity_mode(self.storage) == "open" and not lesson(self.storage)[0]
            except StorageError:
                names_only = False
            if not names_only:
                return  # the code comes next
        wait = math.ceil(self.join_pace.wait(self.page, self.clock())) if self.code.value.strip() else 0
        if wait:
            self._say(t.ngettext("Too many codes tried: wait {n} second, then type yours again.",
                                 "Too many codes tried: wait {n} seconds, then type yours again.", wait).format(n=wait),
                      error=True)
            return
        if not self.send_pending():  # the answers given so far join the row with the page's own
            return
        try:
            joined = join(self.storage, self.session, self.name.value, self.code.value, self.hub_user)
            attempts, solved = self.storage.progress(joined.session)
        except StorageError as error:
            self._say(t.refusal(error), error=True)
            return
        self.join_pace = Pace(JOIN_BURST, JOINS_PER_MINUTE)  # a person who got in is not searching
        self.session, self.joined, self.person, self.personal_code = (joined.session, joined.name, joined.person,
                                                                      joined.code)
        self._dealt.clear()  # the learner's own cards from now on
        self.name.value = self.joined
        self.name.disabled = self.code.disabled = self.name_button.disabled = True
        self.code.value = ""  # not left on the screen for a neighbour to read
        self.progress = Progress(attempts, solved)
        self._checked = {key for key in self._checked if key[0] in attempts}
        self._show_download()
        if joined.came_back and solved:
            text = t.ngettext("Welcome back, {name}: your {n} solved exercise is here, and your answers go "
                              "to your teacher.",
                              "Welcome back, {name}: your {n} solved exercises are here, and your answers go "
                              "to your teacher.", len(solved)).format(name=self.joined, n=len(solved))
        else:
            text = t.gettext("Welcome, {name}: your answers now go to your teacher.").format(name=self.joined)
        if self.personal_code:
            text += " " + t.gettext("Your own code is {code}: write it down. To come back to your answers (after a "
                                    "reload, or on another computer), type this code, then your name.").format(
                code=self.personal_code)
        self._say(text)
        if self.on_name is not None:
            self.on_name()

    def numbers(self, exercise: str) -> int:
        """The seed of this learner's cards for ``exercise`` under the teacher's setting, read afresh."""
        known = self._class_numbers
        if self.storage is not None:
            try:
                self._class_numbers = class_numbers(self.storage)
            except StorageError:
                pass  # the numbers last read, or a class of one until the database answers
        if known is not None and self._class_numbers != known:
            self._dealt.clear()  # the teacher changed whose numbers: new cards at the next exercise
        if exercise not in self._dealt:
            policy, class_seed = self._class_numbers or (DEFAULT_NUMBERS, self._alone_seed)
            try:
                key = self.key()
            except StorageError:
                key = bytes(32)
            self._dealt[exercise] = instance_seed(policy, key, class_seed, exercise, "", self.person or self.session)
        return self._dealt[exercise]

    def already_checked(self, exercise: str, answer: str) -> bool:
        """Did this learner check this very answer to ``exercise`` already (it counts once)?"""
        return (exercise, answer.strip()) in self._checked

    def wait_to_check(self) -> int:
        """Seconds before this learner may check another answer (0: now, and it is counted)."""
        return math.ceil(self.pace.wait(self.session, self.clock()))

    def record(self, exercise: str, answer: str, checked: Checked, instance: int | None = None,
               mistake: str | None = None) -> None:
        """Count an answer on the cards of seed ``instance`` (``None``: the base position)
        here and in the class database; an invalid one changes nothing.
        ``mistake``: the id of the classic mistake the checker says a wrong answer looks like."""
        if checked.status == "invalid":
            return
        self._checked.add((exercise, answer.strip()))
        self.progress.record(exercise, answer, checked)
        self._show_download()
        if self.storage is None and self.reopen is None:
            return
        try:
            closed = self.storage is not None and lesson_closed(self.storage)
        except StorageError:
            closed = False  # kept, and sent: the teacher decides when the database answers
        if closed:
            self._say(self.t.gettext("Your teacher has closed the lesson: your answers are still checked here, but "
                                     "no longer sent."), error=True)
            return
        self.outbox.keep(self.page, {"session": self.session, "exercise": exercise, "answer": answer,
                                     "correct": checked.status == "correct",
                                     "instance": None if instance is None else str(instance), "mistake": mistake,
                                     "at": now(), "token": new_token(), "page": self.page})
        self.send_pending()

    def _open_again(self) -> bool:
        """Open the class database the page was built without, at most every few seconds."""
        if self.storage is not None:
            return True
        if self.reopen is None or self.clock() - self._reopened_at < REOPEN_SECONDS:
            return False
        self._reopened_at = self.clock()
        try:
            self.storage = self.reopen()
        except StorageError:
            return False
        self.reopen = None
        self._show_note()
        if not self.joined and (self.hub_user or self.name.value.strip()):
            self.set_name()
        return True

    def send_pending(self) -> bool:
        """Store the answers kept on the server's disk (this page's and any an earlier page left:
        a reload, a restart), oldest first; those the class database cannot take now stay, and
        the page says so. Nothing the learner typed is lost."""
        waiting = len(self.pending)
        was_waiting = waiting > 1 or self.retry_button.layout.display != "none"
        if not self._open_again():
            if waiting:
                self._keep_waiting()
            return not waiting
        assert self.storage is not None
        try:
            self.outbox.send(self.storage)
        except StorageUnavailable:
            if self.pending:
                self._keep_waiting()
                return False
        self.retry_button.layout.display = "none"
        refused = self.outbox.take_refused(self.session)
        if refused:  # the log alone would leave the learner thinking their teacher has them
            self._say(self.t.ngettext(
                "{n} answer kept on the server could not be stored in the class database, and your teacher does "
                "not see it: {answers}. Tell your teacher.",
                "{n} answers kept on the server could not be stored in the class database, and your teacher does "
                "not see them: {answers}. Tell your teacher.", len(refused)).format(
                    n=len(refused), answers=", ".join(str(a.get("answer", "")) for a in refused)), error=True)
            return True
        if was_waiting and waiting:
            self._say(self.t.gettext("The class database answers again: every answer kept here reached your "
                                     "teacher."))
        return True

    def _keep_waiting(self) -> None:
        waiting = len(self.pending)
        self.retry_button.layout.display = None
        self._say(self.t.ngettext(
                    "The class database does not answer right now. Your {n} answer is kept on the server and will "
                    "reach your teacher when it is back, even if you reload the page: it is sent again with your "
                    "next answer, or now with the button.",
                    "The class database does not answer right now. Your {n} answers are kept on the server and "
                    "will reach your teacher when it is back, even if you reload the page: they are sent again "
                    "with your next answer, or now with the button.", waiting).format(n=waiting), error=True)

    def load_upload(self, value: Upload) -> bool:
        """Take the progress from an uploaded file, or say why not and keep the one we had."""
        if not value:
            return False
        item = value[0]
        content = item["content"]
        if int(item.get("size", len(content))) > MAX_PROGRESS_BYTES or len(content) > MAX_PROGRESS_BYTES:
            error = ProgressError("the file is {size} bytes; a progress file has at most {limit}",
                                  size=len(content), limit=MAX_PROGRESS_BYTES)
            self._say(self.t.gettext("Not loaded: {reason}").format(reason=self.t.refusal(error)), True)
            return False
        data = content.tobytes() if isinstance(content, memoryview) else bytes(content)
        try:
            progress = Progress.from_json(data, self.key(), self.joined, self.bound())
            if self.storage is not None:
                self.storage.replace_progress(self.session, progress.attempts, progress.solved)
                progress = Progress(*self.storage.progress(self.session))  # the file added to what is held
            else:
                progress = self.progress.merged(progress)
        except (ProgressError, StorageError) as error:
            self._say(self.t.gettext("Not loaded: {reason}").format(reason=self.t.refusal(error)), True)
            return False
        self.progress = progress
        self._show_download()
        self._say(self.t.gettext("Progress loaded."))
        return True

    def answer_open(self, exercise: str) -> bool:
        """May the page show ``exercise``'s exact answer outright (in the simulation)? Once the
        learner solved it, or when the teacher shows solutions always: else typing anything once
        and simulating would hand it over."""
        return exercise in self.progress.solved or self._policy() == "always"

    def solution_seen(self, exercise: str) -> None:
        """The learner opened ``exercise``'s worked solution: noted for the teacher unless solved."""
        if self.storage is None or exercise in self.progress.solved:
            return
        try:
            self.storage.record_solution_seen(self.session, exercise)
        except StorageError:
            pass  # the solution is shown all the same; the teacher's count misses it

    def solution_open(self, exercise: str) -> bool:
        """The teacher's setting decides, read afresh so a change applies at once."""
        return solution_open(self._policy(), self.progress.attempts.get(exercise, 0))

    def today(self) -> tuple[str, ...]:
        """The exercises the teacher chose for the lesson (all when none), read afresh."""
        try:
            return lesson_exercises(self.storage)
        except StorageError:
            return lesson_exercises(None)  # the database does not answer: every exercise

    def fractions_only(self) -> bool:
        """Does the teacher ask for exact fractions today (read afresh)?"""
        try:
            return fractions_only(self.storage)
        except StorageError:
            return False

    def _policy(self) -> str:
        if self.storage is not None:
            try:
                return self.storage.setting(SOLUTIONS_SETTING, DEFAULT_POLICY)
            except StorageError:
                pass  # keep the default: the learner can go on working
        return DEFAULT_POLICY
