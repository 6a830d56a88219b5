"""Capitol's rules: the legal actions of a state, and the state an action leads to.

``apply(state, action)`` returns a new state, or raises an ``IllegalActionError`` whose
message is a catalogue text saying why, and the state given is unchanged (it is frozen).
``legal_actions(state)`` lists the current player's actions, sorted; ``refusal(state,
action)`` is the error an action would meet (None: legal), so the two cannot disagree
with ``apply``.

>>> from .state import new_game
>>> s = new_game(2, seed=3)
>>> [str(a) for a in legal_actions(s)][:3]
['pass', 'B1', 'B6']
>>> s = apply(s, parse_action("pass"))
>>> s.current, s.passed
(1, (True, False))
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations, product
from typing import Iterator, Optional, TypeVar

from ..engine.errors import IllegalActionError
from .components import (
    AMPHITHEATRE, AUCTIONS, DECK, DISTRICTS, DRAWS, FLOOR_KIND, FOUNTAIN, N_, PILES, ROOF_KIND, ROOF_TYPES, ROUND, ROUNDS,
    TEMPLE, Card, RoofType, colour_of,
)
from .notation import (
    Action, Bid, Draw, Offer, Pass, Place, PlayFloors, PlayOnly, PlayPermit, PlayRoof, Stop, bid, parse_action,
)
from .state import BID, BUILD, DRAW, OVER, PLACE, AuctionResult, District, State, set_at

__all__ = ["apply", "auction_winner", "card_refusal", "district_points", "extra_draws", "legal_actions", "parse_action",
           "placement_refusal", "ranking", "refusal"]

T = TypeVar("T")
_CARD_ORDER = {card: i for i, card in enumerate(sorted({c for cards in DECK.values() for c in cards}))}
_RANK = {Pass: 0, PlayOnly: 1, PlayFloors: 2, PlayRoof: 3, PlayPermit: 4, Stop: 5, Offer: 6, Place: 7, Draw: 8}


# -- what the rules ask --------------------------------------------------------------
def ranking(board: District, players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The players first and second in a district by floors, with the rulebook's ties: a tie
    for first goes to the tallest building, the others tied being second; a tie there too
    makes all of them first and nobody second; a tie for second shares it (C8).

    >>> d = District("B1", ((0, 2, "r"), (1, 1, "r"), (1, 1, "r"), (2, 1, "r")))
    >>> ranking(d, 3)  # 2 floors each for seats 0 and 1: seat 0's building is taller
    ((0,), (1,))
    """
    floors = [board.floors_of(p) for p in range(players)]
    top = max(floors)
    if top == 0:
        return (), ()
    tied = tuple(p for p in range(players) if floors[p] == top)
    if len(tied) == 1:
        below = [f for f in floors if 0 < f < top]
        return tied, tuple(p for p in range(players) if below and floors[p] == max(below))
    tallest = max(board.tallest_of(p) for p in tied)
    leaders = tuple(p for p in tied if board.tallest_of(p) == tallest)
    if len(leaders) > 1:
        return leaders, ()
    return leaders, tuple(p for p in tied if p not in leaders)


def district_points(board: District, players: int) -> list[int]:
    """Each player's points from a district at a scoring: first 2 plus 1 per fountain, second
    1 per fountain, all doubled by a temple."""
    first, second = ranking(board, players)
    factor = 2 if board.large == TEMPLE else 1
    points = [0] * players
    for p in first:
        points[p] = (2 + board.all_fountains) * factor
    for p in second:
        points[p] = board.all_fountains * factor
    return points


def extra_draws(state: State) -> list[int]:
    """Cards each player draws beyond six, from the amphitheatres: two for first, one for second."""
    extra = [0] * state.players
    for board in state.board:
        if board.large == AMPHITHEATRE:
            first, second = ranking(board, state.players)
            for p in first:
                extra[p] += 2
            for p in second:
                extra[p] += 1
    return extra


def auction_winner(bids: tuple[Bid, ...], order: tuple[int, ...]) -> Optional[int]:
    """The highest bid; a tie goes to the highest single card in it, then to the first in turn
    order. An empty bid (the STOP card on top) never wins (C7).

    >>> auction_winner((bid([Card("F", 6)]), bid([Card("F", 2), Card("R", 4)]), Bid(())), (1, 2, 0))
    0
    """
    best: Optional[tuple[int, int]] = None
    winner = None
    for p in order:
        if bids[p].cards:
            key = (bids[p].total, max(card.value for card in bids[p].cards))
            if best is None or key > best:
                best, winner = key, p
    return winner


def placement_refusal(state: State, storeys: int, roof: RoofType, district: str) -> Optional[IllegalActionError]:
    """Why a finished building may not go into ``district`` (None: it may), by the permit rules."""
    board = state.district(district)
    if board.free_small <= 0:
        return IllegalActionError(N_("District {district} has no free small square."), district=district)
    if board.roof is not None and board.roof != roof:
        if board.roof == ROUND:
            return IllegalActionError(N_("District {district} has round roofs: a building with a triangular roof "
                                         "cannot go there."), district=district)
        return IllegalActionError(N_("District {district} has triangular roofs: a building with a round roof "
                                     "cannot go there."), district=district)
    if board.roof is None:
        others = [d for d in state.board if colour_of(d.name) == colour_of(district) and d.name != district]
        if all(d.roof == roof for d in others):
            if roof == ROUND:
                return IllegalActionError(N_("Districts {first} and {second} have round roofs: the third district of "
                                             "their colour must have triangular roofs."),
                                          first=others[0].name, second=others[1].name)
            return IllegalActionError(N_("Districts {first} and {second} have triangular roofs: the third district of "
                                         "their colour must have round roofs."),
                                      first=others[0].name, second=others[1].name)
        if storeys != 1:
            return IllegalActionError(N_("The first building of district {district} must have one storey."),
                                      district=district)
    elif storeys not in (board.tallest, board.tallest + 1):
        return IllegalActionError(N_("A building in district {district} must have {tallest} or {taller} storeys: "
                                     "as tall as its tallest building or one storey more."),
                                  district=district, tallest=board.tallest, taller=board.tallest + 1)
    return None


def card_refusal(state: State, card: Card) -> Optional[IllegalActionError]:
    """Why ``card``, in the hand of the player to move in construction, cannot be played with its
    action now (None: it can); it may always be played without it. A permit that fits no district
    is refused as a whole here; ``placement_refusal`` says why for each building and district."""
    p = state.current
    if card.kind == FLOOR_KIND:
        if state.floor_supply == 0:
            return IllegalActionError(N_("The supply has no floor left: a floor card can only be played without "
                                         "its action."))
        return None
    if card.kind == ROOF_KIND:
        if not state.unfinished[p]:
            return IllegalActionError(N_("You have no building under construction: a roof card can only be played "
                                         "without its action."))
        if not any(state.roofs_left[p]):
            return IllegalActionError(N_("You have no roof left: a roof card can only be played without its "
                                         "action."))
        return None
    if not state.finished[p]:
        return IllegalActionError(N_("You have no finished building: a permit can only be played without its "
                                     "action."))
    if any(placement_refusal(state, storeys, roof, district) is None
           for storeys, roof in set(state.finished[p]) for district in DISTRICTS if colour_of(district) == card.kind):
        return None
    return IllegalActionError(N_("None of your finished buildings may go to a district of this permit's colour: "
                                 "it can only be played without its action."))


# -- legal actions ----------------------------------------------------------------------
def legal_actions(state: State) -> list[Action]:
    """The current player's legal actions, sorted (by kind of action, then by value)."""
    return sorted(_candidates(state), key=_order)


def _order(action: Action) -> tuple[object, ...]:
    """The sort key: the kind of action, then its fields, cards by their place in the deck's order
    (cheaper than comparing the dataclasses field by field)."""
    if isinstance(action, (PlayOnly, PlayFloors, PlayRoof, PlayPermit, Offer)):
        return (_RANK[type(action)], _CARD_ORDER[action.card], str(action))
    return (_RANK[type(action)], str(action))


def _candidates(state: State) -> Iterator[Action]:
    p = state.current
    if state.phase == BUILD:
        yield Pass()
        for card in sorted(set(state.hands[p])):
            yield PlayOnly(card)
            if card.kind == FLOOR_KIND:
                yield from (PlayFloors(card, adds) for adds in _floor_options(state.unfinished[p], state.floor_supply))
            elif card.kind == ROOF_KIND:
                for storeys, roof in product(sorted(set(state.unfinished[p])), ROOF_TYPES):
                    if state.roofs_left[p][ROOF_TYPES.index(roof)]:
                        yield PlayRoof(card, storeys, roof)
            else:
                for (storeys, roof), district in product(sorted(set(state.finished[p])), DISTRICTS):
                    if colour_of(district) == card.kind and placement_refusal(state, storeys, roof, district) is None:
                        yield PlayPermit(card, storeys, roof, district)
    elif state.phase == BID:
        yield Stop()
        yield from (Offer(card) for card in sorted(set(_unoffered(state, p))))
    elif state.phase == PLACE:
        piece = AUCTIONS[state.round - 1][state.auction]
        yield from (Place(d.name) for d in state.board if _has_room(d, piece))
    elif state.phase == DRAW:
        yield from (Draw(pile) for i, pile in enumerate(PILES) if state.piles[i])


def _floor_options(unfinished: tuple[int, ...], supply: int) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every distinct way to place the floors a floor card brings (two, or the one left)."""
    heights = sorted(set(unfinished))
    if supply >= 2:
        yield ((0, 1), (0, 1))
        yield ((0, 2),)
        yield from (((0, 1), (h, 1)) for h in heights)
        yield from (((h, 2),) for h in heights)
        yield from (((a, 1), (b, 1)) for a, b in combinations(heights, 2))
        yield from (((h, 1), (h, 1)) for h in heights if unfinished.count(h) >= 2)
    elif supply == 1:
        yield ((0, 1),)
        yield from (((h, 1),) for h in heights)


def _unoffered(state: State, p: int) -> list[Card]:
    """The cards of ``p``'s hand not yet above their STOP card."""
    return list((Counter(state.hands[p]) - Counter(state.offers[p])).elements())


def _has_room(board: District, piece: str) -> bool:
    return board.free_small > 0 if piece == FOUNTAIN else board.large == ""


# -- refusals -----------------------------------------------------------------------------
def refusal(state: State, action: Action) -> Optional[IllegalActionError]:
    """Why ``action`` is not legal now (None: it is), as a catalogue sentence."""
    if state.phase == OVER:
        return IllegalActionError(N_("The game is over: no move can be played."))
    if state.phase == BUILD:
        return _build_refusal(state, action)
    if state.phase == BID:
        if not isinstance(action, (Offer, Stop)):
            return IllegalActionError(N_("During an auction each player offers cards, then puts down the STOP card: "
                                         "{action} does neither."), action=str(action))
        if isinstance(action, Offer) and action.card not in _unoffered(state, state.current):
            return IllegalActionError(N_("You have no {card} left in your hand to offer."), card=str(action.card))
        return None
    if state.phase == PLACE:
        piece = AUCTIONS[state.round - 1][state.auction]
        if not isinstance(action, Place):
            return IllegalActionError(N_("The auction's winner places the piece bought: {action} does not."),
                                      action=str(action))
        if piece == FOUNTAIN and not _has_room(state.district(action.district), piece):
            return IllegalActionError(N_("District {district} has no free small square."), district=action.district)
        if not _has_room(state.district(action.district), piece):
            return IllegalActionError(N_("The large square of district {district} is taken."),
                                      district=action.district)
        return None
    if not isinstance(action, Draw):
        return IllegalActionError(N_("During the draw phase each player draws from a pile: {action} is not a draw."),
                                  action=str(action))
    if not state.piles[PILES.index(action.pile)]:
        return IllegalActionError(N_("That pile and its discards are empty: draw from another pile."))
    return None


def _build_refusal(state: State, action: Action) -> Optional[IllegalActionError]:
    p = state.current
    if isinstance(action, Pass):
        return None
    if not isinstance(action, (PlayOnly, PlayFloors, PlayRoof, PlayPermit)):
        return IllegalActionError(N_("During construction a player plays a card or passes: {action} is neither."),
                                  action=str(action))
    if action.card not in state.hands[p]:
        return IllegalActionError(N_("You do not hold {card}."), card=str(action.card))
    if isinstance(action, PlayFloors):
        if action.card.kind != FLOOR_KIND:
            return IllegalActionError(N_("{card} is not a floor card."), card=str(action.card))
        if action.adds not in set(_floor_options(state.unfinished[p], state.floor_supply)):
            need = min(2, state.floor_supply)
            if sum(k for _, k in action.adds) != need or any(k < 1 for _, k in action.adds):
                return IllegalActionError(N_("A floor card places {need} floors now ({supply} are left in the "
                                             "supply), each on a new building or one under construction."),
                                          need=need, supply=state.floor_supply)
            return IllegalActionError(N_("You have no building under construction of the storeys named in {action}."),
                                      action=str(action))
    elif isinstance(action, PlayRoof):
        if action.card.kind != ROOF_KIND:
            return IllegalActionError(N_("{card} is not a roof card."), card=str(action.card))
        if action.height not in state.unfinished[p]:
            return IllegalActionError(N_("You have no building of {storeys} storeys under construction to roof."),
                                      storeys=action.height)
        if not state.roofs_left[p][ROOF_TYPES.index(action.roof)]:
            if action.roof == ROUND:
                return IllegalActionError(N_("You have no round roof left."))
            return IllegalActionError(N_("You have no triangular roof left."))
    elif isinstance(action, PlayPermit):
        if action.card.kind in (FLOOR_KIND, ROOF_KIND):
            return IllegalActionError(N_("{card} is not a permit."), card=str(action.card))
        if (action.height, action.roof) not in state.finished[p]:
            return IllegalActionError(N_("You have no finished building of {storeys} storeys with that roof."),
                                      storeys=action.height)
        if colour_of(action.district) != action.card.kind:
            return IllegalActionError(N_("Permit {card} places a building only in a district of its colour, "
                                         "not in {district}."), card=str(action.card), district=action.district)
        return placement_refusal(state, action.height, action.roof, action.district)
    return None


# -- apply ----------------------------------------------------------------------------------
def apply(state: State, action: Action) -> State:
    """The state after ``action``; an ``IllegalActionError`` (state unchanged) if it is not legal."""
    error = refusal(state, action)
    if error is not None:
        raise error
    state = replace(state, history=state.history + ((state.current, action),))
    p = state.current
    if isinstance(action, Pass):
        return _next_builder(replace(state, passed=set_at(state.passed, p, True)))
    if isinstance(action, (PlayOnly, PlayFloors, PlayRoof, PlayPermit)):
        state = _discard(replace(state, hands=set_at(state.hands, p, _without(state.hands[p], [action.card]))),
                         [action.card])
        return _next_builder(_build(state, p, action))
    if isinstance(action, Offer):
        return replace(state, offers=set_at(state.offers, p, state.offers[p] + (action.card,)))
    if isinstance(action, Stop):
        state = replace(state, bids=set_at(state.bids, p, bid(state.offers[p])), offers=set_at(state.offers, p, ()))
        waiting = [q for q in state.turn_order() if state.bids[q] is None]
        return replace(state, current=waiting[0]) if waiting else _resolve_auction(state)
    if isinstance(action, Place):
        return _next_auction(_place(state, action.district), state.auction + 1)
    return _draw(state, action)


def _without(hand: tuple[Card, ...], cards: list[Card]) -> tuple[Card, ...]:
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return tuple(rest)


def _discard(state: State, cards: list[Card]) -> State:
    """Cards go face down beside their pile; an empty pile is turned over from its discards (C10)."""
    discards = list(state.discards)
    for card in cards:
        i = PILES.index(card.pile)
        discards[i] = discards[i] + (card,)
    return _refill(replace(state, discards=tuple(discards)))


def _refill(state: State) -> State:
    piles, discards = list(state.piles), list(state.discards)
    for i in range(len(PILES)):
        if not piles[i] and discards[i]:
            piles[i], discards[i] = discards[i], ()
    return replace(state, piles=tuple(piles), discards=tuple(discards))


def _build(state: State, p: int, action: Action) -> State:
    if isinstance(action, PlayFloors):
        heights = list(state.unfinished[p])
        for storeys, _ in action.adds:
            if storeys:
                heights.remove(storeys)
        heights += [storeys + k for storeys, k in action.adds]
        return replace(state, unfinished=set_at(state.unfinished, p, tuple(sorted(heights))),
                       floor_supply=state.floor_supply - sum(k for _, k in action.adds))
    if isinstance(action, PlayRoof):
        rounds, triangles = state.roofs_left[p]
        left = (rounds - 1, triangles) if action.roof == ROUND else (rounds, triangles - 1)
        return replace(state, unfinished=set_at(state.unfinished, p, _without_one(state.unfinished[p], action.height)),
                       finished=set_at(state.finished, p, tuple(sorted(state.finished[p] + ((action.height, action.roof),)))),
                       roofs_left=set_at(state.roofs_left, p, left))
    if isinstance(action, PlayPermit):
        i = DISTRICTS.index(action.district)
        board = state.board[i]
        board = replace(board, buildings=board.buildings + ((p, action.height, action.roof),))
        return replace(state, board=set_at(state.board, i, board),
                       finished=set_at(state.finished, p, _without_one(state.finished[p], (action.height, action.roof))))
    return state


def _without_one(items: tuple[T, ...], item: T) -> tuple[T, ...]:
    i = items.index(item)
    return items[:i] + items[i + 1:]


def _next_builder(state: State) -> State:
    n = state.players
    for step in range(1, n + 1):
        q = (state.current + step) % n
        if not state.passed[q]:
            return replace(state, current=q)
    return _next_auction(state, 0)


def _next_auction(state: State, index: int) -> State:
    """The auction ``index`` of the round, skipping one whose piece has no room (C9); after the
    third, the scoring, then the draw phase (none after the last round: C13)."""
    pieces = AUCTIONS[state.round - 1]
    while index < len(pieces) and not any(_has_room(d, pieces[index]) for d in state.board):
        index += 1
    if index < len(pieces):
        return replace(state, phase=BID, auction=index, bids=(None,) * state.players, winner=None,
                       offers=((),) * state.players, current=state.consul)
    points = [sum(district_points(d, state.players)[p] for d in state.board) for p in range(state.players)]
    state = replace(state, scores=tuple(s + x for s, x in zip(state.scores, points)),
                    round_scores=state.round_scores + (tuple(points),), bids=(None,) * state.players, winner=None)
    if state.round == ROUNDS:
        return replace(state, phase=OVER)
    extra = extra_draws(state)
    state = replace(state, phase=DRAW, draws_left=tuple(DRAWS + e for e in extra))
    return _next_drawer(state, first=True)


def _resolve_auction(state: State) -> State:
    bids = tuple(b for b in state.bids if b is not None)
    winner = auction_winner(bids, state.turn_order())
    piece = AUCTIONS[state.round - 1][state.auction]
    state = replace(state, auctions=state.auctions + (AuctionResult(state.round, piece, bids, winner),))
    if winner is None:
        return _next_auction(state, state.auction + 1)
    won = list(bids[winner].cards)
    state = replace(state, hands=set_at(state.hands, winner, _without(state.hands[winner], won)))
    return replace(_discard(state, won), phase=PLACE, winner=winner, current=winner)


def _place(state: State, district: str) -> State:
    i = DISTRICTS.index(district)
    board = state.board[i]
    piece = AUCTIONS[state.round - 1][state.auction]
    board = replace(board, fountains=board.fountains + 1) if piece == FOUNTAIN else replace(board, large=piece)
    return replace(state, board=set_at(state.board, i, board))


def _draw(state: State, action: Draw) -> State:
    i, p = PILES.index(action.pile), state.current
    card = state.piles[i][0]
    state = _refill(replace(state, piles=set_at(state.piles, i, state.piles[i][1:]),
                            hands=set_at(state.hands, p, tuple(sorted(state.hands[p] + (card,)))),
                            draws_left=set_at(state.draws_left, p, state.draws_left[p] - 1)))
    return _next_drawer(state)


def _next_drawer(state: State, first: bool = False) -> State:
    """The next player with draws left, in turn order; the next round once all have drawn, or
    once the three piles and their discards are empty (C10)."""
    if any(state.piles):
        order = state.turn_order()
        start = 0 if first else order.index(state.current)
        for q in order[start:]:
            if state.draws_left[q] > 0:
                return replace(state, current=q)
    return replace(state, round=state.round + 1, phase=BUILD, consul=(state.consul + 1) % state.players,
                   current=(state.consul + 1) % state.players, passed=(False,) * state.players,
                   draws_left=(0,) * state.players, auction=0)
