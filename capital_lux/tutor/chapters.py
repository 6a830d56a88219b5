"""The chapters drawn: the data in ``lessons/chapters.py``, each lesson on a live prepared
position (a record in ``lessons/positions``) that the learner acts on.
"""

from __future__ import annotations

from html import escape

import ipywidgets as W

from ..engine.cards import COLOURS, N_, Card, format_modifier
from ..engine.notation import Play
from ..engine.state import PLAY
from ..i18n import Translator
from ..i18n.editions import edition_notes
from ..lessons import positions
from ..lessons.chapters import CHAPTERS, Chapter, Goal, Lesson, tie_breaks_taught
from ..lessons.rulings import ruling_text
from .base import Page, tagged
from .panel import GamePanel
from .session import Session
from .text import card_text, player_name


def chapters() -> list[Chapter]:
    return list(CHAPTERS)


def prepared_session(name: str, bot_kind: str = "rule") -> Session:
    """A session at a lesson's stored position, the bots playing by ``bot_kind``."""
    game, seat, bot_seed = positions.load(name)
    return Session(game, seat=seat, bot_kind=bot_kind, bot_seed=bot_seed)


def reached(goal: Goal, s: Session, start: int) -> bool:
    """Whether the learner's log since ``start`` shows the lesson's goal."""
    entries = s.log[start:]
    if goal.kind == "played":
        return any(
            e.kind == "play" and e.player == s.seat and isinstance(e.action, Play)
            and goal.colour in (None, e.action.card.colour) and goal.to in (None, e.action.to)
            for e in entries
        )
    if goal.kind == "event":
        return any(e.kind == goal.event and (not goal.mine or e.player == s.seat) for e in entries)
    if goal.kind == "round_ended":
        return any(e.kind in ("starting_player", "game_over") for e in entries)
    if goal.kind == "hand_made":
        return s.state.phase == PLAY or s.state.round > 1
    return False


def rulings_html(t: Translator, rulings: tuple[str, ...]) -> str:
    """The rulings behind a lesson, each said in place in the reader's language (a web
    learner cannot open the developers' docs/rules.md), with its number for a teacher."""
    if not rulings:
        return ""
    said = [t.gettext("Ruling {ruling}: {text}").format(ruling=r, text=t.gettext(ruling_text(r))) for r in rulings]
    items = "".join(f"<li>{escape(text)}</li>" for text in said)
    notes = "".join(f'<div class="cl-note cl-edition">{escape(n)}</div>' for n in edition_notes(t, " ".join(rulings)))
    heading = escape(t.gettext("The rules behind this lesson"))
    return f'<div class="cl-ref"><small><b>{heading}</b><ul>{items}</ul></small></div>{notes}'


class ChapterView(Page):
    """A chapter's page: its text, a lesson picker, the lesson's live position."""

    def __init__(self, t: Translator, chapter: Chapter) -> None:
        super().__init__(t)
        label = self.labels
        self.chapter = chapter
        self.index = 0
        self.start = 0
        self.done: set[str] = set()
        self.intro = label(W.HTML(), lambda t: '<div class="cl-note">' + "".join(
            f"<p>{escape(t.gettext(paragraph))}</p>" for paragraph in chapter.intro
        ) + rulings_html(t, chapter.rulings) + "</div>", "value")
        self.picker = W.ToggleButtons(options=[(lesson.key, i) for i, lesson in enumerate(chapter.lessons)])
        self.picker.add_class("cl-lessons")
        self.picker.style.button_width = "auto"  # whole lesson titles, not cut at a fixed width
        self.picker.layout.display = None if len(chapter.lessons) > 1 else "none"
        self.picker.observe(self.heard(lambda: self._picked(self.picker.value)), names="value")
        self.task = W.HTML()
        self.status = W.HTML()
        self.status.add_class("cl-lesson-status")
        self.restart = label(tagged(W.Button(layout=W.Layout(width="auto")), "cl-restart"),
                             N_("Start this position again"))
        self.restart.on_click(lambda _: self.open(self.index))
        self.quiz_text = W.HTML()
        self.quiz_buttons: list[W.Button] = []
        self.quiz = W.VBox([self.quiz_text, W.HBox()])
        self.quiz.add_class("cl-quiz")
        lesson = chapter.lessons[0]
        self.panel = GamePanel(t, prepared_session(lesson.position), extras=False)
        self.panel.tie_breaks = tie_breaks_taught(chapter)
        self.panel.reports_from = 0 if lesson.earlier_round_ends else len(self.panel.session.reports)
        self.panel.on_move.append(lambda panel, action: self.check())
        self.box = W.VBox([self.intro, self.picker, self.task, self.quiz, self.status, self.restart, self.panel.box])
        self.box.add_class(f"cl-chapter-{chapter.key}")
        self.open(0, fresh=False)

    def _picked(self, index: object) -> None:
        if isinstance(index, int) and index != self.index:
            self.open(index)

    @property
    def lesson(self) -> Lesson:
        return self.chapter.lessons[self.index]

    def open(self, index: int, fresh: bool = True) -> None:
        self.index = index
        if fresh:
            self.panel.set_session(prepared_session(self.lesson.position))
        # Round ends played before the lesson started are not what it teaches: hidden.
        self.panel.reports_from = 0 if self.lesson.earlier_round_ends else len(self.panel.session.reports)
        self.panel.render()
        self.start = len(self.panel.session.log)
        self.status.remove_class("cl-done")
        self.status.value = ""
        self._build_quiz()
        self.relabel()

    def relabel(self) -> None:
        super().relabel()
        self._label()

    def render(self) -> None:
        self.panel.set_language(self.t)

    def _label(self) -> None:
        """The lesson's parts: the picker (done lessons ticked), the task, the status, the quiz."""
        t, lesson = self.t, self.lesson
        with self.quietly():  # new options reset the value: not a lesson change
            self.picker.options = [
                (("✔ " if l.key in self.done else "") + t.gettext(l.title), i) for i, l in enumerate(self.chapter.lessons)
            ]
            self.picker.value = self.index
        self.task.value = (
            f'<div class="cl-note"><b>{escape(t.gettext(lesson.title))}</b><br>{escape(t.gettext(lesson.text))}'
            f"{rulings_html(t, lesson.rulings)}</div>"
        )
        if self.lesson.key in self.done and self.status.value:
            self.status.value = f'<div class="cl-note cl-safe">✔ {escape(t.gettext(lesson.done))}</div>'
        self._label_quiz()

    def check(self) -> None:
        if reached(self.lesson.goal, self.panel.session, self.start):
            self.complete()

    def complete(self) -> None:
        self.done.add(self.lesson.key)
        self.status.value = f'<div class="cl-note cl-safe">✔ {escape(self.t.gettext(self.lesson.done))}</div>'
        self.status.add_class("cl-done")
        self._label()

    # -- the setup quiz: predict, then check ------------------------------------------------
    def _build_quiz(self) -> None:
        self.panel.box.layout.display = None
        if not self.lesson.quiz:
            self.quiz.layout.display = "none"
            return
        self.quiz.layout.display = None
        self.panel.box.layout.display = "none"  # the table marks the starting player: answer first
        v = self.panel.session.view()
        stale, self.quiz_buttons = self.quiz_buttons, []
        for seat in range(v.players):
            b = W.Button(layout=W.Layout(width="auto"))
            b.add_class("cl-quiz-answer")
            b.on_click(lambda _, seat=seat: self._answer(seat))
            self.quiz_buttons.append(b)
        hbox = self.quiz.children[1]
        assert isinstance(hbox, W.HBox)
        hbox.children = tuple(self.quiz_buttons)
        for button in stale:
            button.close()  # a restart makes new ones: nothing stale stays in the kernel or the page
        self._answered: int | None = None

    def _label_quiz(self) -> None:
        if not self.lesson.quiz:
            return
        t = self.t
        v = self.panel.session.view()
        dealt = ", ".join(
            t.gettext("{player}: {value}").format(player=player_name(t, p, v.viewer), value=format_modifier(m))
            for p, m in enumerate(v.setup_modifiers)
        )
        capital = ", ".join(
            card_text(t, Card(c, x)) for c in COLOURS for x in v.capital[c]
        )
        text = t.gettext("The first card of the deck went into the Capital: {cards}.").format(cards=capital)
        text += " " + t.gettext("Modifiers dealt at setup: {dealt}.").format(dealt=dealt)
        answer = getattr(self, "_answered", None)
        if answer is not None and answer != v.starting_player:
            text += " " + t.gettext("Not quite: compare the values again. +4 is the highest, -3 the lowest.")
        self.quiz_text.value = f'<div class="cl-note">{escape(text)}</div>'
        for seat, b in enumerate(self.quiz_buttons):
            b.description = player_name(t, seat, v.viewer)

    def _answer(self, seat: int) -> None:
        self._answered = seat
        if seat == self.panel.session.view().starting_player:
            self.panel.box.layout.display = None
            self.complete()
        else:
            self._label_quiz()
