"""The Capital Lux glossary: game terms as catalogue entries with context ``term``.

Each term is an English msgid in the message context ``"term"``; its
translations live in the ordinary catalogues and must use the word of that
language's rulebook. Other code never translates these words itself: it asks
``Translator.term("Hometown")``, ``Translator.term("gold disc", n)``,
``colour_name("B", lang)`` or ``role_name("B", lang)``.

The entries below are written with the no-op markers ``pgettext_noop`` and
``npgettext_noop`` so that extraction (``python -m capital_lux.i18n.extract``)
finds them with their context; the ``TRANSLATORS:`` comments are copied to the
catalogues for the translators.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Mapping

from ..engine.errors import UsageError

#: Message context of every glossary entry.
TERM_CONTEXT: Final = "term"


def pgettext_noop(context: str, message: str) -> str:
    """Mark ``message`` (in ``context``) for extraction; return it untranslated."""
    del context
    return message


def npgettext_noop(context: str, singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural pair (in ``context``) for extraction; return it untranslated."""
    del context
    return singular, plural


@dataclass(frozen=True)
class Term:
    """One glossary entry: its English msgid, and its English plural if it has one."""

    key: str
    plural: str | None = None


def _plural(forms: tuple[str, str]) -> Term:
    return Term(forms[0], forms[1])


_TERMS: Final[tuple[Term, ...]] = (
    # Places
    # TRANSLATORS: a player's own area in front of them; its cards score at the end.
    Term(pgettext_noop("term", "Hometown")),
    # TRANSLATORS: the shared area in the middle of the table.
    Term(pgettext_noop("term", "Capital")),
    # Roles (one per colour)
    # TRANSLATORS: role of the green cards (draws a profession card).
    Term(pgettext_noop("term", "Scholar")),
    # TRANSLATORS: role of the yellow cards (takes a gold disc).
    Term(pgettext_noop("term", "Merchant")),
    # TRANSLATORS: role of the blue cards (places a modifier card).
    Term(pgettext_noop("term", "Agent")),
    # TRANSLATORS: role of the pink cards (takes the lowest card of a colour).
    Term(pgettext_noop("term", "Cleric")),
    # Colours, as nouns ("the total in blue")
    # TRANSLATORS: colour name, used as a noun.
    Term(pgettext_noop("term", "blue")),
    # TRANSLATORS: colour name, used as a noun.
    Term(pgettext_noop("term", "green")),
    # TRANSLATORS: colour name, used as a noun.
    Term(pgettext_noop("term", "yellow")),
    # TRANSLATORS: colour name, used as a noun.
    Term(pgettext_noop("term", "pink")),
    # Components
    # TRANSLATORS: the gold tokens; one is spent to raise a limit by 1.
    _plural(npgettext_noop("term", "gold disc", "gold discs")),
    # TRANSLATORS: one of the 72 coloured cards valued 2 to 6.
    Term(pgettext_noop("term", "profession card")),
    # TRANSLATORS: one of the 4 cards in the Capital showing a colour's special action.
    Term(pgettext_noop("term", "capital card")),
    # TRANSLATORS: one of the 4 cards valued +4, +2, -3, -1.
    Term(pgettext_noop("term", "modifier card")),
    # TRANSLATORS: a face-down pile of cards to draw from.
    Term(pgettext_noop("term", "deck")),
    # TRANSLATORS: the cards a player holds.
    Term(pgettext_noop("term", "hand")),
    # TRANSLATORS: a card won from the Capital at round end, kept face down.
    Term(pgettext_noop("term", "bonus card")),
    # Structure of play
    # TRANSLATORS: the player who deals and plays first in a round.
    Term(pgettext_noop("term", "starting player")),
    # TRANSLATORS: one of the 3 rounds of a game.
    Term(pgettext_noop("term", "round")),
    # TRANSLATORS: name of step 1 of a round, the draft (pick 2 cards, pass the rest).
    Term(pgettext_noop("term", "Choose cards")),
    # TRANSLATORS: the action a card triggers when played into the Capital.
    Term(pgettext_noop("term", "special action")),
    # Round end
    # TRANSLATORS: verb: a Hometown total goes over the Capital total of that colour.
    Term(pgettext_noop("term", "exceed")),
    # TRANSLATORS: noun: the Capital total a Hometown colour must not go over.
    Term(pgettext_noop("term", "limit")),
    # TRANSLATORS: verb: remove cards of a colour from a Hometown.
    Term(pgettext_noop("term", "discard")),
    # TRANSLATORS: noun: a player's total of points at the end of the game.
    Term(pgettext_noop("term", "score")),
    # TRANSLATORS: a person taking part in the game.
    Term(pgettext_noop("term", "player")),
)

#: Every glossary term by its key (the English singular msgid).
GLOSSARY: Final[Mapping[str, Term]] = MappingProxyType({term.key: term for term in _TERMS})

#: Colour letters in the project's canonical order.
COLOUR_LETTERS: Final[tuple[str, ...]] = ("B", "G", "P", "Y")
#: Glossary key of each colour's name.
COLOUR_TERMS: Final[Mapping[str, str]] = MappingProxyType(
    {"B": "blue", "G": "green", "P": "pink", "Y": "yellow"}
)
#: Glossary key of each colour's role.
ROLE_TERMS: Final[Mapping[str, str]] = MappingProxyType(
    {"B": "Agent", "G": "Scholar", "P": "Cleric", "Y": "Merchant"}
)

#: Words a translation rightly shares with English (lower case): the rulebooks' own words
#: ("Agent", "bonus", "Capital") and common words of the language spelt like English ones
#: ("en", "or", "no"). A check for English left in a translated page allows these and
#: nothing else.
SHARED_WITH_ENGLISH: Final[Mapping[str, frozenset[str]]] = MappingProxyType({
    "fr": frozenset({"agent", "bonus", "en", "face", "or", "place", "plus", "total", "six", "on", "a", "as",
                     "message", "normal", "minimum", "maximum", "robot", "robots", "secret",
                     "simulation", "simulations"}),
    "es": frozenset({"bot", "bots", "capital", "decide", "en", "es", "final", "has", "no", "total", "a", "normal"}),
    "pt": frozenset({"as", "capital", "decide", "do", "final", "total", "no", "a", "normal"}),
})


def check_colour(letter: str) -> str:
    """Return the canonical colour letter for ``letter`` (any case); raise ``ValueError``."""
    canonical = letter.strip().upper() if isinstance(letter, str) else ""
    if canonical not in COLOUR_LETTERS:
        raise UsageError(
            f"unknown colour letter {letter!r}; expected one of {', '.join(COLOUR_LETTERS)}"
        )
    return canonical
