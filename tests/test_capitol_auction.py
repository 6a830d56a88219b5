"""The auction chance: exact against brute force over the physical cards on small positions,
and simulated with an interval that holds the exact value when it is too big to list."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from itertools import permutations

import pytest

from capital_lux.analysis.capitol_auction import _wins, unseen_cards, win_chance
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
