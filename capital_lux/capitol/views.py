"""What one seat may know of a Capitol table, computed in one place.

A view holds the seat's own hand, the cards it has offered and its bid; of the others,
only how many cards they hold, how many they have put above their STOP card (the pile's
height is on the table) and whether they have finished their bid; the auction's number in
the round and the draws each seat has left. It shows each pile's top card and size (the rest of a
pile is unseen: C10), the discards' sizes (cards are discarded face down), everything
built, the board, the auctions already revealed, the scores, and the history as the table
saw it (a card played in construction shows its kind, not its value). The seed is not in
it: the seed deals every hand.

>>> from .state import new_game
>>> v = view(new_game(3, seed=2), 1)
>>> len(v.hand), v.hand_sizes, v.legal_actions
(8, (8, 8, 8), ())
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Optional

from collections import Counter

from .components import AUCTIONS, DECK, Card
from .notation import Action, Bid, public_text
from .rules import legal_actions
from .state import BID, PLACE, AuctionResult, Built, Phase, State

__all__ = ["PlayerView", "unseen_cards", "view"]


@dataclass(frozen=True, slots=True)
class PlayerView(Built):
    seat: int
    players: int
    round: int
    phase: Phase
    consul: int
    current: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    my_offer: tuple[Card, ...]
    my_bid: Optional[Bid]
    bids_made: tuple[bool, ...]
    offered: tuple[int, ...]
    piece: Optional[str]
    auction: int
    draws_left: tuple[int, ...]
    pile_tops: tuple[Optional[Card], ...]
    pile_sizes: tuple[int, ...]
    discard_sizes: tuple[int, ...]
    auctions: tuple[AuctionResult, ...]
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    history: tuple[str, ...]
    legal_actions: tuple[Action, ...]

    @property
    def to_move(self) -> bool:
        return self.current == self.seat and self.phase != "over"


def view(state: State, seat: int) -> PlayerView:
    """What ``seat`` may know of ``state``; its legal actions if it is to move."""
    history = tuple(str(action) if who == seat else public_text(action) for who, action in state.history)
    return PlayerView(
        seat=seat, players=state.players, round=state.round, phase=state.phase, consul=state.consul,
        current=state.current, hand=state.hands[seat], hand_sizes=tuple(len(h) for h in state.hands),
        my_offer=state.offers[seat], my_bid=state.bids[seat], bids_made=tuple(b is not None for b in state.bids),
        offered=tuple(len(o) if b is None else len(b.cards) for o, b in zip(state.offers, state.bids)),
        piece=AUCTIONS[state.round - 1][state.auction] if state.phase in (BID, PLACE) else None,
        auction=state.auction, draws_left=state.draws_left,
        pile_tops=tuple(pile[0] if pile else None for pile in state.piles),
        pile_sizes=tuple(len(pile) for pile in state.piles), discard_sizes=tuple(len(d) for d in state.discards),
        **{field.name: getattr(state, field.name) for field in fields(Built)}, auctions=state.auctions,
        scores=state.scores, round_scores=state.round_scores, history=history,
        legal_actions=tuple(legal_actions(state)) if state.current == seat and not state.is_terminal() else (),
    )



def unseen_cards(v: PlayerView) -> Counter[Card]:
    """Every card the seat cannot see: the deck less its own hand and the piles' top cards (the
    others' hands, the rest of the piles and the face-down discards)."""
    unseen = Counter(card for cards in DECK.values() for card in cards)
    unseen.subtract(v.hand)
    unseen.subtract(top for top in v.pile_tops if top is not None)
    return +unseen
