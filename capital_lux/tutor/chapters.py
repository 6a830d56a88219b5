"""The chapters: short lessons, each with a live prepared position the learner acts on.

A lesson names a prepared position (``positions.POSITIONS``), says what to do,
and knows when it is done by reading the learner's game log. The rulings are
named where a lesson shows them.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Callable

import ipywidgets as W

from ..engine.cards import COLOURS, Card, format_modifier
from ..i18n import Translator
from ..engine.notation import CAPITAL, Play
from ..engine.state import PLAY
from .panel import GamePanel
from .positions import prepared_session
from .session import Session
from .text import card_text, player_name

Text = Callable[[Translator], str]
Goal = Callable[[Session, int], bool]


@dataclass(frozen=True)
class Lesson:
    key: str
    title: Text
    text: Text
    position: str
    goal: Goal  # (session, log length when the lesson started) -> done?
    done: Text
    quiz: bool = False  # the setup lesson asks who starts before anything is played


@dataclass(frozen=True)
class Chapter:
    key: str
    title: Text
    intro: Text
    lessons: tuple[Lesson, ...]


# -- goals ------------------------------------------------------------------------------
def played(colour: str | None = None, to: str | None = None) -> Goal:
    def goal(s: Session, start: int) -> bool:
        for e in s.log[start:]:
            a = e.action
            if e.kind == "play" and e.player == s.seat and isinstance(a, Play):
                if (colour is None or a.card.colour == colour) and (to is None or a.to == to):
                    return True
        return False

    return goal


def event(kind: str, mine: bool = True) -> Goal:
    def goal(s: Session, start: int) -> bool:
        return any(e.kind == kind and (not mine or e.player == s.seat) for e in s.log[start:])

    return goal


def round_ended(s: Session, start: int) -> bool:
    return any(e.kind in ("starting_player", "game_over") for e in s.log[start:])


def hand_made(s: Session, start: int) -> bool:
    return s.state.phase == PLAY or s.state.round > 1


def never(s: Session, start: int) -> bool:
    return False


# -- the chapters -----------------------------------------------------------------------
def chapters() -> list[Chapter]:
    return [
        Chapter(
            "setup",
            lambda t: t.gettext("1. Setup"),
            lambda t: t.gettext(
                "Capital Lux has 72 profession cards in four colours, each colour with its role: blue Agents, "
                "green Scholars, pink Clerics and yellow Merchants, valued 2 to 6. There are 4 modifier cards "
                "(+4, +2, -1, -3) and 8 gold discs. At setup the top card of the deck goes face up into the "
                "Capital, and each player is dealt one modifier: the highest starts the first round (ruling R14)."
            ),
            (
                Lesson(
                    "who_starts",
                    lambda t: t.gettext("Who starts?"),
                    lambda t: t.gettext(
                        "Look at the Capital and at the modifiers dealt below. Who is the starting player?"
                    ),
                    "setup",
                    never,
                    lambda t: t.gettext("Right: the highest modifier starts. The modifiers then go back into "
                                        "the modifier deck."),
                    quiz=True,
                ),
            ),
        ),
        Chapter(
            "draft",
            lambda t: t.gettext("2. Choosing cards"),
            lambda t: t.gettext(
                "Each round starts with a draft. Everyone is dealt 6 cards (5 with four players). Pick 2 and set "
                "them aside face down; the rest pass to the next player. Pick 2 again from what you receive; the "
                "last cards passed to you are yours to keep. Nobody sees the others' picks (ruling R16)."
            ),
            (
                Lesson(
                    "draft",
                    lambda t: t.gettext("Draft a hand"),
                    lambda t: t.gettext(
                        "Click two cards and set them aside, twice. Watch what comes back to you."
                    ),
                    "draft",
                    hand_made,
                    lambda t: t.gettext("Done: your hand is made of your 4 picks and the cards passed to you last."),
                ),
            ),
        ),
        Chapter(
            "play",
            lambda t: t.gettext("3. Playing cards"),
            lambda t: t.gettext(
                "On your turn you play one card: into your Hometown, where it scores at the end, or into the "
                "Capital, where it raises that colour's limit and you must carry out its special action."
            ),
            (
                Lesson("hometown", lambda t: t.gettext("Hometown or Capital"),
                       lambda t: t.gettext("Play any card, to either place."),
                       "hometown", played(), lambda t: t.gettext("Done. The bots have answered with their turns.")),
                Lesson("scholar", lambda t: t.gettext("Scholar"),
                       lambda t: t.gettext("Play a green Scholar into the Capital: you draw the top card of the deck."),
                       "scholar", event("scholar_draw"),
                       lambda t: t.gettext("Done: the drawn card is in your hand. Only you saw it.")),
                Lesson("merchant", lambda t: t.gettext("Merchant"),
                       lambda t: t.gettext("Play a yellow Merchant into the Capital: you take a gold disc."),
                       "merchant", played("Y", CAPITAL),
                       lambda t: t.gettext("Done: gold can keep an exceeding colour at the round end, "
                                           "and each unused disc is worth 1 point.")),
                Lesson("agent", lambda t: t.gettext("Agent"),
                       lambda t: t.gettext(
                           "Play a blue Agent into the Capital, look at the modifier you draw, and place it face "
                           "down above any Capital colour, pink included (ruling R11)."),
                       "agent", event("modifier_placed"),
                       lambda t: t.gettext("Done: the others see a '?' there until the round end.")),
                Lesson("cleric", lambda t: t.gettext("Cleric"),
                       lambda t: t.gettext(
                           "Play a pink Cleric into the Capital and choose blue, green or yellow: you take the "
                           "lowest Capital card of that colour into your Hometown. Never pink (ruling R2)."),
                       "cleric", event("cleric_take"),
                       lambda t: t.gettext("Done: taking a card lowers that colour's limit for everyone.")),
                Lesson("cleric_one", lambda t: t.gettext("Cleric, one colour"),
                       lambda t: t.gettext(
                           "Only one of blue, green and yellow has cards in the Capital. Play a pink card into the "
                           "Capital: there is nothing to choose, so it happens at once (ruling R21)."),
                       "cleric_one", played("P", CAPITAL),
                       lambda t: t.gettext("Done: the log says which card you took.")),
                Lesson("cleric_none", lambda t: t.gettext("Cleric, no colour"),
                       lambda t: t.gettext(
                           "No blue, green or yellow card is in the Capital. You may still play a pink card "
                           "there: it raises the pink limit, and nothing is taken (ruling R1)."),
                       "cleric_none", played("P", CAPITAL),
                       lambda t: t.gettext("Done: a legal play that takes nothing.")),
                Lesson("scholar_last", lambda t: t.gettext("Scholar as last card"),
                       lambda t: t.gettext(
                           "Your last card is a Scholar. Play it into the Capital: you draw at once, so your hand "
                           "is not empty and the round end is not triggered (ruling R10). With an empty deck you "
                           "would draw nothing, and the round end would start."),
                       "scholar_last", played("G", CAPITAL),
                       lambda t: t.gettext("Done: you still hold a card.")),
                Lesson("agent_empty", lambda t: t.gettext("Agent, no modifier left"),
                       lambda t: t.gettext(
                           "All four modifiers are above the Capital. Play a blue card into the Capital: it still "
                           "raises the blue limit, but there is no modifier to draw (ruling R11)."),
                       "agent_empty", played("B", CAPITAL),
                       lambda t: t.gettext("Done: the log notes that the modifier deck was empty.")),
            ),
        ),
        Chapter(
            "roundend",
            lambda t: t.gettext("4. Round end"),
            lambda t: t.gettext(
                "When a player ends their turn with no card, every other player has one last turn (ruling R9). "
                "Then the cards left in hands go into their Hometowns, the modifiers are turned up, and each "
                "Hometown colour is checked against its Capital total: a colour that exceeds is discarded unless "
                "its owner pays the difference in gold (rulings R6, R7). Then the highest total in each colour "
                "takes the highest Capital card of that colour as a bonus card; tied players take cards in turn "
                "order from the starting player (rulings R3-R5). The highest Hometown total starts the next round."
            ),
            (
                Lesson("last_turns", lambda t: t.gettext("Last turns"),
                       lambda t: t.gettext(
                           "A player has run out of cards: this is your last turn. Play it, then read the round "
                           "end below, step by step."),
                       "last_turns", round_ended,
                       lambda t: t.gettext("Done: read each step of the round end below the table.")),
                Lesson("gold", lambda t: t.gettext("Your gold decision"),
                       lambda t: t.gettext(
                           "The modifiers are face up and at least one of your colours exceeds its limit. Decide "
                           "which colours to keep by paying the difference in gold; the others are discarded."),
                       "gold", round_ended,
                       lambda t: t.gettext("Done: the discards, the bonus cards and the next starting player "
                                           "are shown below.")),
                Lesson("gold_example", lambda t: t.gettext("The rulebook's gold example"),
                       lambda t: t.gettext(
                           "Like the rulebook's example: three of your colours exceed and you have 3 gold discs, "
                           "too few to keep them all. Here you exceed blue by 1, yellow by 2 and pink by 5; in the "
                           "rulebook's picture (Capital 9, 3, 9, 12 against Hometown 11, 4, 6, 13) blue and yellow "
                           "exceed by 3 together and pink by 1. What would you pay for? The rulebook's player pays "
                           "3 discs to keep blue and yellow, and discards only the pink card."),
                       "gold_example", round_ended,
                       lambda t: t.gettext("Done: compare your choice with the rulebook's in the steps below.")),
                Lesson("bonus_tie", lambda t: t.gettext("The rulebook's bonus tie"),
                       lambda t: t.gettext(
                           "As in the rulebook: Bot 0 (John) started this round, Bot 1 (Mary) sits to his left and "
                           "you are Bob. All three of you have 5 in yellow, and the Capital's yellow cards are a 6 "
                           "and a 4. Play your last card and see who takes the yellow bonus cards."),
                       "bonus_tie", round_ended,
                       lambda t: t.gettext("Done: John, first in turn order, took the 6; Mary took the 4; no "
                                           "yellow card was left for you (rulings R3, R5).")),
            ),
        ),
        Chapter(
            "scoring",
            lambda t: t.gettext("5. Scoring"),
            lambda t: t.gettext(
                "After round 3 each player scores their Hometown cards, their bonus cards and 1 point per gold "
                "disc. A tie goes to the most 6s among Hometown and bonus cards, then 5s, 4s, 3s and 2s; still "
                "tied, the win is shared (ruling R17)."
            ),
            (
                Lesson("final", lambda t: t.gettext("The last card of the game"),
                       lambda t: t.gettext("Play the last card of the game and read the score sheet."),
                       "final", event("game_over", mine=False),
                       lambda t: t.gettext("Done: that is a whole game of Capital Lux.")),
                Lesson("tie_break", lambda t: t.gettext("A tied score"),
                       lambda t: t.gettext(
                           "Play your last card: whatever you play, you end level on points with another player. "
                           "Count the 6s, then the 5s, on the score sheet to see who wins."),
                       "tie_break", event("game_over", mine=False),
                       lambda t: t.gettext("Done: the same points and the same number of 6s, so the 5s decided "
                                           "(ruling R17).")),
            ),
        ),
    ]


class ChapterView:
    """A chapter's page: its text, a lesson picker, the lesson's live position."""

    def __init__(self, t: Translator, chapter: Chapter) -> None:
        self.t = t
        self.chapter = chapter
        self.index = 0
        self.start = 0
        self.done: set[str] = set()
        self.intro = W.HTML()
        self.picker = W.ToggleButtons(options=[(lesson.key, i) for i, lesson in enumerate(chapter.lessons)])
        self.picker.add_class("cl-lessons")
        self.picker.style.button_width = "auto"  # whole lesson titles, not cut at a fixed width
        self.picker.layout.display = None if len(chapter.lessons) > 1 else "none"
        self._relabelling = False
        self.picker.observe(self._picked, names="value")
        self.task = W.HTML()
        self.status = W.HTML()
        self.status.add_class("cl-lesson-status")
        self.restart = W.Button(icon="refresh", layout=W.Layout(width="auto"))
        self.restart.add_class("cl-restart")
        self.restart.on_click(lambda _: self.open(self.index))
        self.quiz_text = W.HTML()
        self.quiz_buttons: list[W.Button] = []
        self.quiz = W.VBox([self.quiz_text, W.HBox()])
        self.quiz.add_class("cl-quiz")
        lesson = chapter.lessons[0]
        self.panel = GamePanel(t, prepared_session(lesson.position), extras=False)
        self.panel.on_move.append(lambda panel, action: self.check())
        self.box = W.VBox([self.intro, self.picker, self.task, self.quiz, self.status, self.restart, self.panel.box])
        self.box.add_class(f"cl-chapter-{chapter.key}")
        self.open(0, fresh=False)

    def _picked(self, change: dict[str, object]) -> None:
        if not self._relabelling and isinstance(change["new"], int) and change["new"] != self.index:
            self.open(change["new"])

    @property
    def lesson(self) -> Lesson:
        return self.chapter.lessons[self.index]

    def open(self, index: int, fresh: bool = True) -> None:
        self.index = index
        if fresh:
            self.panel.set_session(prepared_session(self.lesson.position))
        self.start = len(self.panel.session.log)
        self.status.remove_class("cl-done")
        self.status.value = ""
        self._build_quiz()
        self._label()

    def _label(self) -> None:
        t, lesson = self.t, self.lesson
        self.intro.value = f'<div class="cl-note">{escape(self.chapter.intro(t))}</div>'
        self._relabelling = True  # new options reset the value: not a lesson change
        try:
            self.picker.options = [
                (("✔ " if l.key in self.done else "") + l.title(t), i) for i, l in enumerate(self.chapter.lessons)
            ]
            self.picker.value = self.index
        finally:
            self._relabelling = False
        self.task.value = f'<div class="cl-note"><b>{escape(lesson.title(t))}</b><br>{escape(lesson.text(t))}</div>'
        self.restart.description = t.gettext("Start this position again")
        if self.lesson.key in self.done and self.status.value:
            self.status.value = f'<div class="cl-note cl-safe">✔ {escape(lesson.done(t))}</div>'
        self._label_quiz()

    def set_language(self, t: Translator) -> None:
        self.t = t
        self._label()
        self.panel.set_language(t)

    def check(self) -> None:
        if self.lesson.goal(self.panel.session, self.start):
            self.complete()

    def complete(self) -> None:
        self.done.add(self.lesson.key)
        self.status.value = f'<div class="cl-note cl-safe">✔ {escape(self.lesson.done(self.t))}</div>'
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
