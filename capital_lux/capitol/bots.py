"""Capitol's players: they decide from a seat's view, never from the state.

The house's bots' protocol: a bot has a ``name`` and ``choose(view, rng)`` returning one of
``view.legal_actions``, its randomness from the seeded ``rng`` it is given.

* ``RandomBot``: uniform over the legal actions.
* ``search`` (``capital_lux.players.capitol_search.SearchBot``): a determinized
  Monte-Carlo search that plays out with the rule of thumb (its reasons are in its module).
* ``RuleOfThumbBot``: a sensible beginner. It places a building where it gains most, roofs
  and raises its buildings while it keeps a few cards for the auctions, bids the cheapest set
  of cards reaching what the piece is worth to it, puts a piece where it scores most, and
  draws the cards its buildings need.

>>> import random
>>> from .state import new_game
>>> from .views import view
>>> bot = make_bot("rule")
>>> state = new_game(3, seed=1)
>>> bot.choose(view(state, 0), random.Random(0)) in view(state, 0).legal_actions
True
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from itertools import combinations
from typing import Callable, Final, Protocol

from ..engine.errors import UsageError
from .components import AMPHITHEATRE, Card, DISTRICTS, FOUNTAIN, PERMIT, ROOF, FLOOR, TEMPLE, Pile
from .notation import Action, Draw, Offer, Pass, Place, PlayFloors, PlayPermit, PlayRoof, Stop
from .rules import apply, district_points, ranking
from .state import BID, BUILD, DRAW, PLACE, District, State, new_game
from .views import PlayerView, view

__all__ = ["BOT_KINDS", "Bot", "RandomBot", "RuleOfThumbBot", "make_bot", "play_game"]


class Bot(Protocol):
    name: str

    def choose(self, view: PlayerView, rng: random.Random) -> Action: ...


class RandomBot:
    name = "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        return rng.choice(view.legal_actions)


#: What a piece is worth to the rule of thumb, in card values it will bid up to.
WORTH: Final = {FOUNTAIN: 6, AMPHITHEATRE: 7, TEMPLE: 10}
#: Cards kept back from construction for the auctions.
KEEP: Final = 3


class RuleOfThumbBot:
    name = "rule"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        choose = {BUILD: self._build, BID: self._bid, PLACE: self._place, DRAW: self._draw}.get(view.phase)
        if choose is None:
            raise UsageError(f"no decision is pending in phase {view.phase}")
        return choose(view)

    def _build(self, view: PlayerView) -> Action:
        legal = view.legal_actions
        permits = [a for a in legal if isinstance(a, PlayPermit)]
        if permits:
            return max(permits, key=lambda a: (_gain(view, a), a.height, a))
        if len(view.hand) <= KEEP:
            return Pass()
        roofs = [a for a in legal if isinstance(a, PlayRoof)]
        if roofs and any(c.kind not in "FR" for c in view.hand):
            return max(roofs, key=lambda a: (a.height, view.roofs_left[view.seat][a.roof == "t"], a))
        floors = [a for a in legal if isinstance(a, PlayFloors)]
        if floors:
            return max(floors, key=lambda a: (max(h + k for h, k in a.adds), a))
        return Pass()

    def _bid(self, view: PlayerView) -> Action:
        """Offers, one at a time, the cards of its plan (the same plan at every step, made from
        the whole hand), then stops."""
        plan = bid_plan(view.hand, WORTH.get(view.piece or "", 0))
        left = Counter(plan) - Counter(view.my_offer)
        return Offer(min(left.elements())) if left else Stop()

    def _place(self, view: PlayerView) -> Action:
        return max((a for a in view.legal_actions if isinstance(a, Place)),
                   key=lambda a: (_place_gain(view, a.district), a))

    def _draw(self, view: PlayerView) -> Action:
        me = view.seat
        wanted: list[Pile] = []
        if view.finished[me]:
            wanted.append(PERMIT)
        if view.unfinished[me]:
            wanted.append(ROOF)
        wanted += [FLOOR, PERMIT, ROOF]
        held = {pile: sum(1 for c in view.hand if c.pile == pile) for pile in (FLOOR, ROOF, PERMIT)}
        legal = [a for a in view.legal_actions if isinstance(a, Draw)]
        for pile in wanted:
            if held[pile] < 3 or pile == wanted[-1]:
                for action in legal:
                    if action.pile == pile:
                        return action
        return legal[0]


def bid_plan(hand: tuple[Card, ...], worth: int, most: int = 4) -> tuple[Card, ...]:
    """The cheapest set of at most ``most`` cards worth ``worth`` or more (fewest cards, then
    floor cards before roofs and permits), or no card if the hand cannot reach it.

    >>> bid_plan((Card("F", 2), Card("F", 5), Card("B", 6), Card("R", 1)), 6)
    (Card(kind='B', value=6),)
    """
    best: tuple[tuple[int, int, list[int]], tuple[Card, ...]] | None = None
    for size in range(1, min(most, len(hand)) + 1):
        for cards in set(combinations(sorted(hand), size)):
            total = sum(card.value for card in cards)
            if total >= worth:
                key = (total, size, sorted(_KIND_COST[card.pile] for card in cards))
                if best is None or key < best[0]:
                    best = (key, cards)
    return best[1] if best else ()


#: Which cards the rule of thumb would rather give up: floors first, permits last.
_KIND_COST: Final = {FLOOR: 0, ROOF: 1, PERMIT: 2}


def _gain(view: PlayerView, action: PlayPermit) -> int:
    """The seat's points from the district after the building, less before, less the others' gain."""
    board = view.board[DISTRICTS.index(action.district)]
    after = replace(board, buildings=board.buildings + ((view.seat, action.height, action.roof),))
    return _margin(view, board, after)


def _place_gain(view: PlayerView, district: str) -> int:
    board = view.board[DISTRICTS.index(district)]
    if view.piece == FOUNTAIN:
        after = replace(board, fountains=board.fountains + 1)
    else:
        after = replace(board, large=view.piece or "")
    if view.piece == AMPHITHEATRE:  # extra draws each round: two for first, one for second
        first, second = ranking(board, view.players)
        draws = [2 if p in first else 1 if p in second else 0 for p in range(view.players)]
        return draws[view.seat] - max(d for p, d in enumerate(draws) if p != view.seat)
    return _margin(view, board, after)


def _margin(view: PlayerView, before: District, after: District) -> int:
    old, new = district_points(before, view.players), district_points(after, view.players)
    mine = new[view.seat] - old[view.seat]
    theirs = max((new[p] - old[p] for p in range(view.players) if p != view.seat), default=0)
    return mine - theirs


def _search_bot() -> Bot:
    """The determinized search (``capital_lux.players.capitol_search``), imported when seated:
    it plays out with the rule of thumb above, so it lives beside the other searches."""
    from ..players.capitol_search import SearchBot

    return SearchBot()


BOT_KINDS: Final[dict[str, Callable[[], Bot]]] = {"random": RandomBot, "rule": RuleOfThumbBot, "search": _search_bot}


def make_bot(name: str) -> Bot:
    try:
        return BOT_KINDS[name]()
    except KeyError:
        raise UsageError(f"no Capitol bot is called {name!r}") from None


def play_game(players: int, bots: list[Bot], seed: int, rng: random.Random) -> State:
    """A whole game from the deal ``seed``, each seat's bot deciding from its view with ``rng``."""
    state = new_game(players, seed)
    while not state.is_terminal():
        state = apply(state, bots[state.current].choose(view(state, state.current), rng))
    return state
