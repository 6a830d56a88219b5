"""Capitol's pieces: cards, districts, roofs, the pieces sold at auction, and the board.

Everything here is a constant or a small frozen value; where the rulebook is silent the
choice is one of the rulings (``capital_lux.capitol.rulings``), named beside it.

>>> Card.parse("B4"), str(Card("F", 3)), Card("R", 5).pile
(Card(kind='B', value=4), 'F3', 'roof')
>>> len(DECK["floor"]), len(DECK["roof"]), len(DECK["permit"])
(24, 14, 24)
>>> [d for d in DISTRICTS if colour_of(d) == "P"], SMALL_SQUARES["P3"], PRINTED_FOUNTAINS["P3"]
(['P1', 'P2', 'P3'], 7, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from ..engine.cards import N_
from ..engine.errors import NotationError

__all__ = [
    "AMPHITHEATRE", "AUCTIONS", "Card", "COLOURS", "DECK", "DISTRICTS", "DRAWS", "FLOOR", "FLOOR_KIND", "FLOORS_TOTAL",
    "FOUNTAIN", "MAX_PLAYERS", "MIN_PLAYERS", "PERMIT", "PILES", "PRINTED_FOUNTAINS", "Pile", "ROOF", "ROOF_KIND",
    "ROOF_TYPES", "ROOFS_PER_TYPE", "ROUND", "ROUNDS", "RoofType", "SETUP_BUILDINGS", "SMALL_SQUARES", "TEMPLE",
    "TRIANGULAR", "colour_of", "N_",
]

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4
ROUNDS: Final = 4
#: Cards each player draws in a round's draw phase, before an amphitheatre's extra ones.
DRAWS: Final = 6

#: The districts' colours: blue, pink, mauve (C1).
COLOURS: Final = ("B", "P", "M")
#: Nine districts, three per colour, named by colour and number (C1).
DISTRICTS: Final = tuple(f"{colour}{n}" for colour in COLOURS for n in (1, 2, 3))
#: Small squares of each district: five, six and seven in each colour (C1).
SMALL_SQUARES: Final = {district: 4 + int(district[1]) for district in DISTRICTS}
#: The four fountains on the board from the start, on squares of their own (C2).
PRINTED_FOUNTAINS: Final = {district: int(district in ("B1", "P1", "M1", "P3")) for district in DISTRICTS}


def colour_of(district: str) -> str:
    """The colour letter of a district (``"B2"`` is blue)."""
    return district[0]


#: The two roof types, round and triangular (C4).
RoofType = Literal["r", "t"]
ROUND: Final[RoofType] = "r"
TRIANGULAR: Final[RoofType] = "t"
ROOF_TYPES: Final[tuple[RoofType, RoofType]] = (ROUND, TRIANGULAR)
#: Each player's set of roofs: five of each type.
ROOFS_PER_TYPE: Final = 5
#: The floors in the common supply at the start, before each player takes six.
FLOORS_TOTAL: Final = 90
#: The four buildings each player builds at setup: (storeys, roof).
SETUP_BUILDINGS: Final[tuple[tuple[int, RoofType], ...]] = ((1, ROUND), (2, ROUND), (1, TRIANGULAR), (2, TRIANGULAR))

#: The pieces sold in the improvement phase.
FOUNTAIN: Final = "fountain"
AMPHITHEATRE: Final = "amphitheatre"
TEMPLE: Final = "temple"
#: The three auctions of each round, in order (round 1 is index 0).
AUCTIONS: Final = ((FOUNTAIN, FOUNTAIN, AMPHITHEATRE),) * 2 + ((FOUNTAIN, FOUNTAIN, TEMPLE),) * 2

#: The three face-up piles, in the order the notation and the views list them.
Pile = Literal["roof", "floor", "permit"]
ROOF: Final[Pile] = "roof"
FLOOR: Final[Pile] = "floor"
PERMIT: Final[Pile] = "permit"
PILES: Final[tuple[Pile, Pile, Pile]] = (ROOF, FLOOR, PERMIT)
#: The letters of the two plain kinds; a permit's letter is its colour.
FLOOR_KIND: Final = "F"
ROOF_KIND: Final = "R"


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """An action card: ``F`` floor, ``R`` roof, or a permit of colour ``B``, ``P``, ``M``; and
    its value, which counts only in auctions (C3). Identical cards are interchangeable."""

    kind: str
    value: int

    def __str__(self) -> str:
        return f"{self.kind}{self.value}"

    @property
    def pile(self) -> Pile:
        return FLOOR if self.kind == FLOOR_KIND else ROOF if self.kind == ROOF_KIND else PERMIT

    @staticmethod
    def parse(text: str) -> Card:
        card = _BY_TEXT.get(text.strip().upper())
        if card is None:
            raise NotationError(N_("{text} is not a Capitol card: expected F (floor) 1 to 6, R (roof) 1 to 7, "
                                   "or a permit B, P or M 1 to 8, like B4"), text=repr(text))
        return card


#: The values on the cards (C3): every value of a kind appears equally often.
DECK: Final[dict[Pile, tuple[Card, ...]]] = {
    ROOF: tuple(Card(ROOF_KIND, v) for v in range(1, 8) for _ in range(2)),
    FLOOR: tuple(Card(FLOOR_KIND, v) for v in range(1, 7) for _ in range(4)),
    PERMIT: tuple(Card(colour, v) for colour in COLOURS for v in range(1, 9)),
}
_BY_TEXT: Final = {str(card): card for cards in DECK.values() for card in cards}
