"""The auction chance: exact against brute force over the physical cards on small positions,
and simulated with an interval that holds the exact value when it is too big to list."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from itertools import permutations

import pytest

from capital_lux.analysis.capitol_auction import _wins, unseen_cards, win_chance
from capital_lux.capitol.bots import WORTH, bid_plan
from capital_lux.capitol.components import Card
from capital_lux.capitol.notation import bid
from capital_lux.capitol.state import BID, new_game
from capital_lux.capitol.views import PlayerView, view


def small_position(players: int, seed: int, sizes: list[int], consul: int = 0) -> PlayerView:
    s = new_game(players, seed)
    hands = (s.hands[0],) + tuple(s.hands[p][:sizes[p - 1]] for p in range(1, players))
    return view(replace(s, phase=BID, bids=(None,) * players, hands=hands, consul=consul, current=0), 0)


def brute_force(v: PlayerView, cards: tuple[Card, ...]) -> Fraction:
    """Every ordered deal of the physical unseen cards, equally likely."""
    physical = [card for card, count in unseen_cards(v).items() for _ in range(count)]
    others = [p for p in range(v.players) if p != v.seat]
    sizes = [v.hand_sizes[p] for p in others]
    won = total = 0
    for dealt in permutations(range(len(physical)), sum(sizes)):
        hands, start = {}, 0
        for p, size in zip(others, sizes):
            hands[p] = tuple(sorted(physical[i] for i in dealt[start:start + size]))
            start += size
        total += 1
        won += _wins(v, bid(cards), hands)
    return Fraction(won, total)


@pytest.mark.parametrize("players, seed, sizes, consul, cards", [
    (2, 1, [1], 0, ("F5",)),
    (2, 4, [2], 1, ("F3", "R4")),
    (3, 7, [1, 1], 2, ("B6",)),
    (2, 9, [2], 0, ("F1",)),
])
def test_the_exact_chance_equals_brute_force(players: int, seed: int, sizes: list[int], consul: int,
                                             cards: tuple[str, ...]) -> None:
    v = small_position(players, seed, sizes, consul)
    mine = tuple(Card.parse(c) for c in cards)
    v = replace(v, hand=tuple(sorted(v.hand + mine)))  # the seat holds the cards it bids
    chance = win_chance(v, mine, random.Random(0))
    assert chance.exact is not None and chance.samples == 0
    assert chance.exact == brute_force(v, mine)


def test_a_big_position_is_simulated_with_an_interval_holding_the_exact_value() -> None:
    v = small_position(2, 4, [2], 1)
    mine = (v.hand[0], v.hand[1])
    exact = win_chance(v, mine, random.Random(0)).exact
    simulated = win_chance(v, mine, random.Random(1), samples=1500, limit=0)
    assert exact is not None and simulated.exact is None and simulated.samples == 1500
    assert simulated.low <= float(exact) <= simulated.high
    again = win_chance(v, mine, random.Random(2), samples=1500, limit=0)
    assert again.low <= float(exact) <= again.high


def test_an_empty_bid_has_no_chance() -> None:
    assert win_chance(small_position(2, 1, [3]), (), random.Random(0)).exact == 0


def brute_force_fitting(v: PlayerView, cards: tuple[Card, ...]) -> Fraction:
    """Every ordered deal of the physical unseen cards in which each other seat's rule-of-thumb bid
    has as many cards as the view shows above its STOP card (at least as many while it is bidding)."""
    physical = [card for card, count in unseen_cards(v).items() for _ in range(count)]
    others = [p for p in range(v.players) if p != v.seat]
    won = total = 0
    for dealt in permutations(range(len(physical)), sum(v.hand_sizes[p] for p in others)):
        hands, start = {}, 0
        for p in others:
            hands[p] = tuple(sorted(physical[i] for i in dealt[start:start + v.hand_sizes[p]]))
            start += v.hand_sizes[p]
        plans = {p: len(bid(bid_plan(hands[p], WORTH[v.piece or ""])).cards) for p in others}
        if all(plans[p] == v.offered[p] if v.bids_made[p] else plans[p] >= v.offered[p] for p in others):
            total += 1
            won += _wins(v, bid(cards), hands)
    return Fraction(won, total)


@pytest.mark.parametrize("players, seed, sizes, offered, made", [
    (2, 4, [2], (0, 1), (False, True)),   # the other finished a bid of one card
    (2, 9, [2], (0, 2), (False, True)),   # ... of two cards
    (3, 7, [1, 1], (0, 1, 1), (False, True, False)),  # one finished, one still offering
])
def test_the_chance_counts_only_the_deals_that_fit_the_others_stop_piles_exactly(
        players: int, seed: int, sizes: list[int], offered: tuple[int, ...], made: tuple[bool, ...]) -> None:
    v = small_position(players, seed, sizes)
    v = replace(v, offered=offered, bids_made=made)
    mine = (v.hand[-1],)
    chance = win_chance(v, mine, random.Random(0))
    assert chance.exact is not None and chance.fitted
    assert chance.exact == brute_force_fitting(v, mine)
    assert chance.exact != win_chance(replace(v, offered=(0,) * players), mine, random.Random(0)).exact
    simulated = win_chance(v, mine, random.Random(1), samples=1500, limit=0)
    assert simulated.exact is None and simulated.fitted and simulated.samples == 1500
    assert simulated.low <= float(chance.exact) <= simulated.high


def test_piles_no_rule_of_thumb_hand_explains_are_left_aside_and_said_so() -> None:
    v = small_position(2, 4, [2])
    blind = win_chance(v, (v.hand[-1],), random.Random(0))
    v = replace(v, offered=(0, 3), bids_made=(False, True))  # three cards from a hand of two: not the rule of thumb
    chance = win_chance(v, (v.hand[-1],), random.Random(0))
    assert not chance.fitted and chance.exact == blind.exact
