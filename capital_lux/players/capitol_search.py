"""Capitol's search bot: a determinized Monte-Carlo search from a seat's view.

Why this design. Capitol hides the others' hands, the piles below their top cards and the
discards, and its only chance is the setup's shuffle, so a decision is a choice under
hidden information rather than under dice. The bot therefore *determinizes*: it deals the
cards it cannot see (``unseen_cards``) into the places the view says they are (each pile's
rest and discards of that pile's kind, the others' hands of their sizes, the cards above
their STOP cards), every deal as likely as any other; on each deal it plays every candidate
move and then the whole table as the rule-of-thumb bot would, to the horizon; it keeps the
move with the best mean score margin (its score less the best other score). The same deals
serve every candidate (common random numbers), so two moves are compared on the same
hidden cards and the margin's difference is not the deals' noise; the rule of thumb draws
nothing at random, so a deal and a move give one playout. The search reads only the view,
and all its randomness comes from the ``rng`` it is given: the same view and the same
generator give the same move.

Its limits, plainly: it plays the others as the rule of thumb, whoever they are; it deals
the unseen cards without memory (a card it saw go into a discard pile, or revealed in an
earlier bid, may be dealt to a hand); and it looks to the end of the next scoring (the
round's, or the next round's while construction is under way), not to the game's end.
A bid is searched as a whole: the candidates are the cheapest sets of cards reaching a
few worths (``bid_plan``), each one played out as if it were put down at once; the bot then
offers the first card of the best one (or stops), and searches again at its next offer.

>>> import random
>>> from capital_lux.capitol.state import new_game
>>> from capital_lux.capitol.views import view
>>> state = new_game(2, seed=3)
>>> bot = SearchBot(deals=2)
>>> move = bot.choose(view(state, 0), random.Random(1))
>>> move in view(state, 0).legal_actions, move == bot.choose(view(state, 0), random.Random(1))
(True, True)
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Callable, Final, Sequence

from ..capitol.bots import WORTH, RuleOfThumbBot, bid_plan
from ..capitol.components import PILES, Card
from ..capitol.notation import Action, Offer, PlayFloors, PlayOnly, PlayPermit, PlayRoof, Stop, bid
from ..capitol.rules import apply
from ..capitol.state import BID, BUILD, OVER, PLACE, State, set_at
from ..capitol.views import PlayerView, unseen_cards, view

__all__ = ["SearchBot", "determinize"]

#: A candidate move played on a dealt table.
_Play = Callable[[State], State]
#: The worths (in card values) a searched bid may aim at, besides no bid at all.
BID_WORTHS: Final = (3, 5, 7, 9, 12, 15)


def determinize(v: PlayerView, rng: random.Random) -> State:
    """One table consistent with ``v``: the unseen cards dealt at random to the places the view
    says hold them; the seat's own hand, offers and bid as they are."""
    unseen = list(unseen_cards(v).elements())
    rng.shuffle(unseen)
    pool: list[Card] = []
    piles, discards = [], []
    for i, pile in enumerate(PILES):
        mine = [card for card in unseen if card.pile == pile]
        below = max(v.pile_sizes[i] - 1, 0)
        top = v.pile_tops[i]
        piles.append(((top,) if top is not None else ()) + tuple(mine[:below]))
        discards.append(tuple(mine[below:below + v.discard_sizes[i]]))
        pool += mine[below + v.discard_sizes[i]:]
    rng.shuffle(pool)
    hands, offers, bids = [], [], []
    for p in range(v.players):
        if p == v.seat:
            hands.append(v.hand)
            offers.append(v.my_offer)
            bids.append(v.my_bid)
            continue
        hand, pool = tuple(sorted(pool[:v.hand_sizes[p]])), pool[v.hand_sizes[p]:]
        hands.append(hand)
        if v.phase == PLACE:  # the bids are revealed: the auction's result shows them all
            offers.append(())
            bids.append(v.auctions[-1].bids[p])
            continue
        above = tuple(rng.sample(hand, v.offered[p])) if v.phase == BID else ()
        offers.append(() if v.bids_made[p] else above)
        bids.append(bid(above) if v.bids_made[p] else None)
    return State(
        players=v.players, seed=0, round=v.round, phase=v.phase, consul=v.consul, current=v.current,
        hands=tuple(hands), piles=tuple(piles), discards=tuple(discards), auction=v.auction, offers=tuple(offers),
        bids=tuple(bids), winner=v.current if v.phase == PLACE else None, draws_left=v.draws_left,
        scores=v.scores, auctions=v.auctions, round_scores=v.round_scores, history=(),
        floor_supply=v.floor_supply, roofs_left=v.roofs_left, unfinished=v.unfinished, finished=v.finished,
        board=v.board, passed=v.passed,
    )


class SearchBot:
    """Determinized Monte-Carlo search: ``deals`` tables dealt from the view, every candidate
    move played out on each by the rule of thumb, the best mean score margin chosen (ties: the
    rule of thumb's own move, then the first listed). ``most`` candidates at most per decision."""

    name = "search"

    def __init__(self, deals: int = 8, most: int = 8) -> None:
        self.deals = deals
        self.most = most
        self.rule = RuleOfThumbBot()

    def choose(self, v: PlayerView, rng: random.Random) -> Action:
        if len(v.legal_actions) == 1:
            return v.legal_actions[0]
        tables = [determinize(v, rng) for _ in range(self.deals)]
        candidates = self._bids(v) if v.phase == BID else self._moves(v)
        best: tuple[float, int] | None = None
        chosen = v.legal_actions[0]
        for index, (first, play) in enumerate(candidates):
            margin = sum(self._playout(play(table), v) for table in tables) / len(tables)
            if best is None or (margin, -index) > best:
                best, chosen = (margin, -index), first
        return chosen

    # -- candidates: the move to make now, and how to play it on a dealt table --------------
    def _moves(self, v: PlayerView) -> list[tuple[Action, _Play]]:
        """The rule of thumb's move first, then one move per distinct effect (the lowest card
        that does it: the higher ones are worth more at auction), cards played without their
        action left out."""
        preferred = self.rule.choose(v, _NO_CHANCE)
        seen: dict[object, Action] = {}
        for action in v.legal_actions:
            if isinstance(action, PlayOnly):
                continue
            # the legal moves are sorted by card: the first of an effect has the lowest card
            seen.setdefault(_effect(action), action)
        ordered = [preferred] + [a for a in seen.values() if a != preferred]
        return [(a, _then(a)) for a in ordered[: self.most]]

    def _bids(self, v: PlayerView) -> list[tuple[Action, _Play]]:
        """Whole bids that keep the cards already offered: stopping now, or adding the cheapest
        cards reaching each of a few worths; the rule of thumb's bid first."""
        offered = Counter(v.my_offer)
        rest = tuple(sorted((Counter(v.hand) - offered).elements()))
        so_far = sum(card.value for card in v.my_offer)
        worth = WORTH.get(v.piece or "", 0)
        targets: list[tuple[Card, ...]] = []
        for aim in (worth, 0, *BID_WORTHS):
            extra = bid_plan(rest, aim - so_far) if aim > so_far else ()
            if extra not in targets:
                targets.append(extra)
        return [(Offer(min(extra)) if extra else Stop(), _bid_whole(v.seat, v.my_offer + extra))
                for extra in targets[: self.most]]

    def _playout(self, state: State, v: PlayerView) -> float:
        """The seat's score margin at the horizon, every seat playing the rule of thumb."""
        scorings = len(v.round_scores) + (2 if v.phase == BUILD and v.round < 4 else 1)
        while state.phase != OVER and len(state.round_scores) < scorings:
            seat = state.current
            state = apply(state, self.rule.choose(view(state, seat), _NO_CHANCE))
        mine = state.scores[v.seat]
        return mine - max(score for p, score in enumerate(state.scores) if p != v.seat)


#: The rule of thumb draws nothing at random; it is given a generator all the same (the protocol).
_NO_CHANCE: Final = random.Random(0)


def _effect(action: Action) -> object:
    """What a construction move does, whatever the card's value (a permit's colour is its district's)."""
    if isinstance(action, PlayFloors):
        return ("floors", action.adds)
    if isinstance(action, PlayRoof):
        return ("roof", action.height, action.roof)
    if isinstance(action, PlayPermit):
        return ("permit", action.height, action.roof, action.district)
    return action


def _then(action: Action) -> _Play:
    return lambda state: apply(state, action)


def _bid_whole(seat: int, cards: Sequence[Card]) -> _Play:
    """The bid ``cards`` put down at once (the seat is to move): the cards above the STOP card, then STOP."""
    return lambda state: apply(replace(state, offers=set_at(state.offers, seat, tuple(cards))), Stop())

