"""Actions and their short text forms.

Every action a player or chance can take is a small frozen value with a text
form that parses back to the same action:

>>> parse_action("capital B5")
Play(card=Card(colour='B', value=5), to='capital')
>>> str(parse_action("pick G3 Y6")), str(parse_action("save none"))
('pick G3 Y6', 'save none')

Decisions: ``pick B5 G3`` (draft), ``home B5`` / ``capital B5`` (play a card),
``place Y`` (put the drawn modifier above a capital colour), ``take G`` (Cleric:
the lowest card of that colour), ``save B Y`` / ``save none`` (gold at round end).
Chance outcomes: ``card B5`` (a profession card comes off the deck) and
``modifier +4`` (a modifier comes off the modifier deck).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal, Union, cast

from .cards import COLOUR_LETTERS, COLOURS, N_, Colour, Card, NotationError, format_modifier, parse_modifier


class Spelled:
    """The text form the house's notations share (Capital Lux's and Capitol's): an action's
    verb, then each of its fields in its own text form (``place Y``, ``card B5``, ``draw roof``).
    An action with a form of its own (``home B5``, ``save none``) writes its ``__str__``.

    >>> str(TakeLowest("G")), str(CardDrawn(Card("B", 5)))
    ('take G', 'card B5')
    """

    __slots__ = ()
    verb: ClassVar[str]

    def __str__(self) -> str:
        names = _FIELD_NAMES.get(type(self))
        if names is None:  # once per class: the fields a dataclass declares, in order
            names = _FIELD_NAMES[type(self)] = tuple(field.name for field in fields(cast(Any, self)))
        if not names:
            return self.verb
        if len(names) == 1:
            return f"{self.verb} {getattr(self, names[0])}"
        return " ".join([self.verb, *(str(getattr(self, name)) for name in names)])


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


#: Where a card is played: into the player's own hometown or into the capital.
Destination = Literal["home", "capital"]
HOME: Destination = "home"
CAPITAL: Destination = "capital"


@dataclass(frozen=True, order=True, slots=True)
class Pick:
    """Draft: the cards set aside face down from the cards being chosen from."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return "pick " + " ".join(map(str, self.cards))


@dataclass(frozen=True, order=True, slots=True)
class Play:
    """Play a card from hand into the player's hometown or into the capital."""

    card: Card
    to: Destination

    def __str__(self) -> str:
        return f"{self.to} {self.card}"


@dataclass(frozen=True, order=True, slots=True)
class PlaceModifier(Spelled):
    """Agent: put the modifier just drawn face down above a capital colour."""

    verb: ClassVar[str] = "place"
    colour: Colour


@dataclass(frozen=True, order=True, slots=True)
class TakeLowest(Spelled):
    """Cleric: take the lowest capital card of this colour into the hometown."""

    verb: ClassVar[str] = "take"
    colour: Colour


@dataclass(frozen=True, order=True, slots=True)
class SaveWithGold:
    """Round end: the exceeding colours this player pays gold to keep."""

    colours: tuple[Colour, ...]

    def __str__(self) -> str:
        return "save " + (" ".join(self.colours) if self.colours else "none")


@dataclass(frozen=True, order=True, slots=True)
class CardDrawn(Spelled):
    """Chance: this profession card comes off the deck (deal, Scholar, setup)."""

    verb: ClassVar[str] = "card"
    card: Card


@dataclass(frozen=True, order=True, slots=True)
class ModifierDrawn:
    """Chance: this modifier comes off the modifier deck (setup or Agent)."""

    value: int

    def __str__(self) -> str:
        return f"modifier {format_modifier(self.value)}"


Action = Union[Pick, Play, PlaceModifier, TakeLowest, SaveWithGold, CardDrawn, ModifierDrawn]

# The forms a player types, written inside each message so that a translator can name CARD and
# COLOUR in their language; the chance outcomes (card CARD, modifier VALUE) are read from records,
# never typed by a player, and are not offered.


def _colour(text: str) -> Colour:
    for colour in COLOUR_LETTERS:
        if text.upper() == colour:
            return colour
    raise NotationError(N_("{text} is not a colour: expected one of {colours}"), text=repr(text),
                        colours=", ".join(COLOURS))


def parse_action(text: str) -> Action:
    """Read an action from its text form; raise ``NotationError`` naming the problem."""
    words = text.split()
    if not words:
        # TRANSLATORS: pick, home, capital, place, take, save and none are typed as they are; CARD and COLOUR are not
        raise NotationError(N_("empty action: type one of pick CARD [CARD]; home CARD; capital CARD; place COLOUR; "
                               "take COLOUR; save COLOUR... or save none"))
    verb, args = words[0].lower(), words[1:]
    if verb == "pick" and 1 <= len(args) <= 2:
        return Pick(tuple(sorted(Card.parse(a) for a in args)))
    if verb in (HOME, CAPITAL) and len(args) == 1:
        return Play(Card.parse(args[0]), HOME if verb == HOME else CAPITAL)
    if verb == "place" and len(args) == 1:
        return PlaceModifier(_colour(args[0]))
    if verb == "take" and len(args) == 1:
        return TakeLowest(_colour(args[0]))
    if verb == "save" and args == ["none"]:
        return SaveWithGold(())
    if verb == "save" and args:
        colours = sorted({_colour(a) for a in args})
        if len(colours) != len(args):
            raise NotationError(N_("{text} names a colour twice"), text=repr(text))
        return SaveWithGold(tuple(colours))
    if verb == "card" and len(args) == 1:
        return CardDrawn(Card.parse(args[0]))
    if verb == "modifier" and len(args) == 1:
        return ModifierDrawn(parse_modifier(args[0]))
    # TRANSLATORS: pick, home, capital, place, take, save and none are typed as they are; CARD and COLOUR are not
    raise NotationError(N_("{text} is not an action: type one of pick CARD [CARD]; home CARD; capital CARD; "
                           "place COLOUR; take COLOUR; save COLOUR... or save none"), text=repr(text))
