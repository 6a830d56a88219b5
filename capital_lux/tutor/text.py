"""The tutor's sentences: players, phases, log lines and buttons, in the learner's language.

Actions and events become text in one place, ``capital_lux.i18n.sentences`` (shared
with the terminal and the what-if explorer); this module adds the tutor's own texts
(phases, what a colour does) and reads its log entries.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Iterator

from ..engine.cards import Card
from ..engine.notation import Action, Pick, SaveWithGold
from ..i18n import Translator, sentences
from ..i18n.sentences import colour_text as colour_text  # re-exported: the tutor modules import it here

from ..engine.state import Event

if TYPE_CHECKING:
    from .session import LogEntry


#: Whether the other seats are people (a class table, pass-and-play): "Player 1", not "Bot 1".
_PEOPLE: ContextVar[bool] = ContextVar("people", default=False)


@contextmanager
def people_at_the_table(people: bool = True) -> Iterator[None]:
    """While a panel draws a game whose other seats are people, every name it writes says so."""
    token = _PEOPLE.set(people)
    try:
        yield
    finally:
        _PEOPLE.reset(token)


def player_name(t: Translator, seat: int, learner: int, bots: bool | None = None) -> str:
    """"You" or "Bot 1"; "Player 1" where nobody plays the others (``bots=False``) or people do
    (``people_at_the_table``)."""
    return sentences.player_name(t, seat, learner, bots=not _PEOPLE.get() if bots is None else bots)


def card_text(t: Translator, card: Card) -> str:
    """A card in words, never by colour alone: "◆ Agent 5 (blue)"."""
    return sentences.card_text(t, card)


def special_action(t: Translator, colour: str) -> str:
    """What playing this colour into the Capital does."""
    if colour == "G":
        return t.gettext("Scholar: draw a profession card into your hand.")
    if colour == "Y":
        return t.gettext("Merchant: take a gold disc.")
    if colour == "B":
        return t.gettext("Agent: draw a modifier and place it face down above a Capital colour.")
    return t.gettext("Cleric: take the lowest blue, green or yellow card of the Capital into your Hometown.")


def action_label(t: Translator, action: Action) -> str:
    """Button text for a decision."""
    return sentences.action_label(t, action)


def log_line(t: Translator, entry: LogEntry, learner: int) -> str:
    """One log line in words; empty for entries the learner need not read.

    Another player's pick or gold decision is logged without its action (it is
    secret): the sentence then says only that it happened."""
    hidden: dict[str, Action] = {"pick": Pick(()), "save": SaveWithGold(())}
    if entry.kind == "play" and entry.action is not None:
        return sentences.action_sentence(t, entry.player, entry.action, learner)
    if entry.kind in hidden:
        action: Action = entry.action if entry.player == learner and entry.action is not None else hidden[entry.kind]
        return sentences.action_sentence(t, entry.player, action, learner)
    if entry.event is not None:
        return event_line(t, entry.event, learner)
    return ""


def event_line(t: Translator, e: Event, learner: int) -> str:
    """The engine's events, as the learner reads them (private ones are already filtered)."""
    return sentences.event_sentence(t, e, learner, bots=not _PEOPLE.get())
