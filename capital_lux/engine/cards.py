"""The components of Capital Lux: profession cards, modifiers, gold.

A card is a value: ``Card("B", 5)`` is written ``B5``. Identical cards are
interchangeable, so collections of cards are multisets.

>>> Card.parse("Y6")
Card(colour='Y', value=6)
>>> str(Card("G", 2)), role("P")
('G2', 'Cleric')
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from .errors import CapitalLuxError as CapitalLuxError  # re-exported: the engine's callers import them here
from .errors import NotationError as NotationError

#: A colour letter: blue (Agent), green (Scholar), pink (Cleric), yellow (Merchant).
Colour = Literal["B", "G", "P", "Y"]
#: Colours in the project's canonical order (also the sort order of cards).
COLOURS: tuple[str, ...] = ("B", "G", "P", "Y")
#: The same, typed as the few values an action's colour field may hold.
COLOUR_LETTERS: tuple[Colour, ...] = ("B", "G", "P", "Y")
COLOUR_NAMES: dict[str, str] = {"B": "blue", "G": "green", "P": "pink", "Y": "yellow"}
ROLES: dict[str, str] = {"B": "Agent", "G": "Scholar", "P": "Cleric", "Y": "Merchant"}
#: Symbols shown beside the colour so that colour is never the only signal.
SYMBOLS: dict[str, str] = {"B": "◆", "G": "✎", "P": "✚", "Y": "●"}

VALUES: tuple[int, ...] = (2, 3, 4, 5, 6)
#: Copies of each value in one colour: 3 twos, 4 threes, 4 fours, 4 fives, 3 sixes.
COPIES: dict[int, int] = {2: 3, 3: 4, 4: 4, 5: 4, 6: 3}
CARDS_PER_COLOUR = sum(COPIES.values())  # 18
DECK_SIZE = CARDS_PER_COLOUR * len(COLOURS)  # 72

MODIFIERS: tuple[int, ...] = (-3, -1, 2, 4)
GOLD_DISCS = 8


class Card(NamedTuple):
    """A profession card: a colour letter and a value from 2 to 6."""

    colour: str
    value: int

    def __str__(self) -> str:
        return f"{self.colour}{self.value}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card written like ``B5``; raise ``NotationError`` otherwise."""
        card = _BY_TEXT.get(text.strip().upper())
        if card is None:
            raise NotationError(
                N_("{text} is not a card: expected a colour letter ({colours}) followed by a value from 2 to 6, "
                   "like B5"), text=repr(text), colours=", ".join(COLOURS),
            )
        return card


def N_(message: str) -> str:
    """Mark a text for the translation catalogue; it is translated where it is shown."""
    return message


#: Every distinct card, in sorted order; ``ALL_CARDS[i]`` has kind index ``i``.
ALL_CARDS: tuple[Card, ...] = tuple(Card(c, v) for c in COLOURS for v in VALUES)
KIND: dict[Card, int] = {card: i for i, card in enumerate(ALL_CARDS)}
_BY_TEXT: dict[str, Card] = {str(card): card for card in ALL_CARDS}


def full_deck_counts() -> list[int]:
    """Copies of each card kind in a new deck, indexed like ``ALL_CARDS``."""
    return [COPIES[card.value] for card in ALL_CARDS]


def role(colour: str) -> str:
    """The role a colour stands for in the capital (English name)."""
    return ROLES[colour]


def format_modifier(value: int) -> str:
    """``+4``, ``-3``: modifiers always carry their sign."""
    return f"{value:+d}"


def parse_modifier(text: str) -> int:
    """Read a modifier written like ``+4`` or ``-3``."""
    stripped = text.strip()
    for value in MODIFIERS:
        if stripped in (format_modifier(value), str(value)):
            return value
    raise NotationError(
        N_("{text} is not a modifier: expected one of {modifiers}"), text=repr(text),
        modifiers=", ".join(format_modifier(m) for m in MODIFIERS),
    )


def format_cards(cards: list[Card] | tuple[Card, ...]) -> str:
    return " ".join(str(c) for c in cards)
