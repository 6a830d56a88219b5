"""Capitol's state: one frozen value holding the whole table, made from a seed.

The only chance in Capitol is the shuffle of the three decks at setup (the piles are
never shuffled again: C10), so a game is its seed and its players' decisions. The
state answers what the rules ask (whose turn, the board, the hands); the rules that
change it live in ``capital_lux.capitol.rules``.

>>> s = new_game(3, seed=5)
>>> s.phase, s.round, s.current, [len(hand) for hand in s.hands], s.floor_supply
('build', 1, 0, [8, 8, 8], 72)
>>> s.finished[0], s.roofs_left[0]
(((1, 'r'), (1, 't'), (2, 'r'), (2, 't')), (3, 3))
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final, Literal, Optional, TypeVar

from ..engine.errors import UsageError
from .components import (
    DECK, DISTRICTS, FLOORS_TOTAL, MAX_PLAYERS, MIN_PLAYERS, PILES, PRINTED_FOUNTAINS, ROOFS_PER_TYPE,
    SETUP_BUILDINGS, SMALL_SQUARES, Card, RoofType,
)
from .notation import Action, Bid

__all__ = ["AuctionResult", "BID", "BUILD", "Built", "DRAW", "District", "OVER", "PLACE", "Phase", "State", "new_game",
           "set_at"]

Phase = Literal["build", "bid", "place", "draw", "over"]
BUILD: Final[Phase] = "build"
BID: Final[Phase] = "bid"
PLACE: Final[Phase] = "place"
DRAW: Final[Phase] = "draw"
OVER: Final[Phase] = "over"

#: Cards dealt to each player at setup, per pile.
DEAL: Final = {"roof": 2, "floor": 2, "permit": 4}


@dataclass(frozen=True, slots=True)
class District:
    """A district of the board: its buildings ``(owner, storeys, roof)`` in the order placed,
    the fountains bought for it, and what stands on its one large square ("" if free)."""

    name: str
    buildings: tuple[tuple[int, int, RoofType], ...] = ()
    fountains: int = 0
    large: str = ""

    @property
    def roof(self) -> RoofType | None:
        """The roof type the district's first building binds it to (None while empty)."""
        return self.buildings[0][2] if self.buildings else None

    @property
    def tallest(self) -> int:
        return max((storeys for _, storeys, _ in self.buildings), default=0)

    @property
    def free_small(self) -> int:
        """Small squares with neither a building nor a fountain bought (C6)."""
        return SMALL_SQUARES[self.name] - len(self.buildings) - self.fountains

    @property
    def all_fountains(self) -> int:
        return PRINTED_FOUNTAINS[self.name] + self.fountains

    def floors_of(self, player: int) -> int:
        return sum(storeys for owner, storeys, _ in self.buildings if owner == player)

    def tallest_of(self, player: int) -> int:
        return max((storeys for owner, storeys, _ in self.buildings if owner == player), default=0)


@dataclass(frozen=True, slots=True)
class AuctionResult:
    """A finished auction, public: every bid revealed, and the winner (None: nobody bid)."""

    round: int
    piece: str
    bids: tuple[Bid, ...]
    winner: Optional[int]


@dataclass(frozen=True, slots=True)
class Built:
    """What every seat sees of the building, in the state and in each view alike: the floors
    left in the supply, each player's roofs left, buildings under construction and finished,
    the board, and who has passed."""

    floor_supply: int
    roofs_left: tuple[tuple[int, int], ...]
    unfinished: tuple[tuple[int, ...], ...]
    finished: tuple[tuple[tuple[int, RoofType], ...], ...]
    board: tuple[District, ...]
    passed: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class State(Built):
    """The whole table. Per-player tuples are indexed by seat; piles list their top card
    first; discards list the first card discarded first (the order they come back in, C10);
    ``offers`` holds the cards each player has put above the STOP card in the auction under
    way (still in the hand until the winner discards them), ``bids`` each finished bid;
    ``history`` pairs each action with the seat that took it."""

    players: int
    seed: int
    round: int
    phase: Phase
    consul: int
    current: int
    hands: tuple[tuple[Card, ...], ...]
    piles: tuple[tuple[Card, ...], ...]
    discards: tuple[tuple[Card, ...], ...]
    auction: int
    offers: tuple[tuple[Card, ...], ...]
    bids: tuple[Optional[Bid], ...]
    winner: Optional[int]
    draws_left: tuple[int, ...]
    scores: tuple[int, ...]
    auctions: tuple[AuctionResult, ...]
    round_scores: tuple[tuple[int, ...], ...]
    history: tuple[tuple[int, Action], ...]

    def turn_order(self) -> tuple[int, ...]:
        """The seats from the consul round the table."""
        return tuple((self.consul + i) % self.players for i in range(self.players))

    def district(self, name: str) -> District:
        return self.board[DISTRICTS.index(name)]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def winners(self) -> tuple[int, ...]:
        """The seats with the highest score (all of them if tied: C12); only once the game is over."""
        if not self.is_terminal():
            raise UsageError("the game is not over")
        best = max(self.scores)
        return tuple(p for p, score in enumerate(self.scores) if score == best)


T = TypeVar("T")


def set_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """A copy of ``items`` with ``items[index]`` replaced."""
    return items[:index] + (value,) + items[index + 1:]


def new_game(players: int, seed: int = 0) -> State:
    """The table after setup: decks shuffled by ``random.Random(seed)``, cards dealt one at a
    time round the table, every player's four buildings built, seat 0 the consul (C11)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise UsageError(f"Capitol is for 2 to 4 players, not {players}")
    rng = random.Random(seed)
    hands: list[list[Card]] = [[] for _ in range(players)]
    piles = []
    for pile in PILES:
        cards = list(DECK[pile])
        rng.shuffle(cards)
        for i in range(DEAL[pile] * players):
            hands[i % players].append(cards[i])
        piles.append(tuple(cards[DEAL[pile] * players:]))
    setup_floors = sum(storeys for storeys, _ in SETUP_BUILDINGS)
    return State(
        players=players, seed=seed, round=1, phase=BUILD, consul=0, current=0,
        hands=tuple(tuple(sorted(hand)) for hand in hands),
        piles=tuple(piles), discards=((), (), ()),
        floor_supply=FLOORS_TOTAL - setup_floors * players,
        roofs_left=((ROOFS_PER_TYPE - 2, ROOFS_PER_TYPE - 2),) * players,
        unfinished=((),) * players,
        finished=(tuple(sorted(SETUP_BUILDINGS)),) * players,
        board=tuple(District(name) for name in DISTRICTS),
        passed=(False,) * players, auction=0, offers=((),) * players, bids=(None,) * players, winner=None,
        draws_left=(0,) * players, scores=(0,) * players, auctions=(), round_scores=(), history=(),
    )
