"""Capitol's actions and their text forms, each parsing back to the same action.

>>> [str(parse_action(text)) for text in ("pass", "F3 0+1 2+1", "R5 2r", "B4 1t B2", "F3")]
['pass', 'F3 0+1 2+1', 'R5 2r', 'B4 1t B2', 'F3']
>>> [str(parse_action(text)) for text in ("offer F3", "stop", "place P1", "draw permit")]
['offer F3', 'stop', 'place P1', 'draw permit']

Construction: a card and what it does. ``F3 0+1 2+1`` plays floor card F3 and puts one
floor on a new building (``0``) and one on a building of two storeys under construction;
``R5 2r`` plays roof card R5 and roofs a building of two storeys with a round roof (``t``:
triangular); ``B4 1t B2`` plays blue permit B4 and places a finished one-storey triangular
building in district B2; a card alone (``F3``) is played without its action; ``pass``.
Improvement: each player in turn builds a bid as the rulebook's pile, a card at a time:
``offer B4`` puts a card above the STOP card, ``stop`` puts the STOP card down and ends the
bid (``stop`` at once: the STOP card on top, no bid). A bid's cards are offered one by one
so that a hand of twenty cards has twenty moves, not a million sets. Then the winner's
``place B2``. Draw: ``draw roof|floor|permit``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Union, cast

from ..engine.errors import NotationError
from ..engine.notation import Spelled
from .components import DISTRICTS, FLOOR_KIND, N_, PILES, ROOF_KIND, ROOF_TYPES, Card, Pile, RoofType

__all__ = ["Action", "Bid", "Draw", "Offer", "Pass", "Place", "PlayFloors", "PlayOnly", "PlayPermit", "PlayRoof",
           "Stop", "bid", "parse_action", "public_text"]


@dataclass(frozen=True, order=True, slots=True)
class Pass(Spelled):
    verb: ClassVar[str] = "pass"


@dataclass(frozen=True, order=True, slots=True)
class PlayOnly:
    """A card played without its action (the rulebook allows it, to stay in the phase)."""

    card: Card

    def __str__(self) -> str:
        return str(self.card)


@dataclass(frozen=True, order=True, slots=True)
class PlayFloors:
    """A floor card: ``adds`` pairs a building's storeys before (0: a new building) with the
    floors it gets, sorted; the floors given add up to two (one when the supply has one)."""

    card: Card
    adds: tuple[tuple[int, int], ...]

    def __str__(self) -> str:
        return " ".join([str(self.card), *(f"{h}+{k}" for h, k in self.adds)])


@dataclass(frozen=True, order=True, slots=True)
class PlayRoof:
    """A roof card: a roof of type ``roof`` on a building of ``height`` storeys under construction."""

    card: Card
    height: int
    roof: RoofType

    def __str__(self) -> str:
        return f"{self.card} {self.height}{self.roof}"


@dataclass(frozen=True, order=True, slots=True)
class PlayPermit:
    """A permit: a finished building (storeys and roof) placed in a district of the permit's colour."""

    card: Card
    height: int
    roof: RoofType
    district: str

    def __str__(self) -> str:
        return f"{self.card} {self.height}{self.roof} {self.district}"


@dataclass(frozen=True, order=True, slots=True)
class Offer(Spelled):
    """Auction: one more card from the hand above the STOP card."""

    verb: ClassVar[str] = "offer"
    card: Card


@dataclass(frozen=True, order=True, slots=True)
class Stop(Spelled):
    """Auction: the STOP card goes down; the bid is the cards offered before it."""

    verb: ClassVar[str] = "stop"


@dataclass(frozen=True, order=True, slots=True)
class Bid:
    """A finished bid, as the auction reveals it: the cards above the STOP card, highest first."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return "bid " + (" ".join(map(str, self.cards)) if self.cards else "none")

    @property
    def total(self) -> int:
        return sum(card.value for card in self.cards)


@dataclass(frozen=True, order=True, slots=True)
class Place(Spelled):
    """The auction's winner puts the piece bought in a district."""

    verb: ClassVar[str] = "place"
    district: str


@dataclass(frozen=True, order=True, slots=True)
class Draw(Spelled):
    """Draw phase: the top card of one of the three face-up piles."""

    verb: ClassVar[str] = "draw"
    pile: Pile


Action = Union[Pass, PlayOnly, PlayFloors, PlayRoof, PlayPermit, Offer, Stop, Place, Draw]


def bid(cards: list[Card] | tuple[Card, ...]) -> Bid:
    """A bid of these cards, in the order they are revealed (highest first)."""
    return Bid(tuple(sorted(cards, key=lambda c: (-c.value, c.kind))))


def _unreadable(text: str) -> NotationError:
    return NotationError(N_("{text} is not a Capitol move: expected pass, a card with its action (F3 0+1 2+1, "
                            "R5 2r, B4 1t B2), a card alone, offer B4, stop, place B2 or draw floor"),
                         text=repr(text))


def _building(token: str, text: str) -> tuple[int, RoofType]:
    if len(token) < 2 or not token[:-1].isdigit() or token[-1] not in ROOF_TYPES:
        raise _unreadable(text)
    return int(token[:-1]), "r" if token[-1] == "r" else "t"


def parse_action(text: str) -> Action:
    """The action a text spells; a ``NotationError`` naming the text if it spells none."""
    words = text.strip().split()
    if not words or len(text) > 200:
        raise _unreadable(text)
    head, rest = words[0].lower(), words[1:]
    if head == "pass" and not rest:
        return Pass()
    if head == "stop" and not rest:
        return Stop()
    if head == "offer" and len(rest) == 1:
        return Offer(Card.parse(rest[0]))
    if head == "place" and len(rest) == 1 and rest[0].upper() in DISTRICTS:
        return Place(rest[0].upper())
    if head == "draw" and len(rest) == 1 and rest[0].lower() in PILES:
        return Draw(cast(Pile, rest[0].lower()))
    if head in ("place", "draw", "offer", "stop"):
        raise _unreadable(text)
    card = Card.parse(words[0])
    if not rest:
        return PlayOnly(card)
    if card.kind == FLOOR_KIND:
        adds = []
        for word in rest:
            height, plus, floors = word.partition("+")
            if not (plus and height.isdigit() and floors.isdigit()):
                raise _unreadable(text)
            adds.append((int(height), int(floors)))
        return PlayFloors(card, tuple(sorted(adds)))
    if card.kind == ROOF_KIND and len(rest) == 1:
        return PlayRoof(card, *_building(rest[0], text))
    if card.kind not in (FLOOR_KIND, ROOF_KIND) and len(rest) == 2 and rest[1].upper() in DISTRICTS:
        return PlayPermit(card, *_building(rest[0], text), rest[1].upper())
    raise _unreadable(text)


def public_text(action: Action) -> str:
    """What the other players see of an action: a card played in construction is discarded
    face down, so its value is hidden (its kind, the pile it goes beside, is not), and a card
    offered stays hidden until the auction reveals every bid together.

    >>> public_text(parse_action("B4 1t B2")), public_text(parse_action("offer F3"))
    ('B? 1t B2', 'offer ?')
    """
    if isinstance(action, Offer):
        return "offer ?"
    if isinstance(action, (PlayOnly, PlayFloors, PlayRoof, PlayPermit)):
        return f"{action.card.kind}?" + str(action)[len(str(action.card)):]
    return str(action)
