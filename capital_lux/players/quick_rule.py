"""The search's play-out rule, compiled with the kernel (``capital_lux/compiled.py``).

Why it is a module of its own: a search iteration is almost all play-out, and a play-out
is almost all this rule's decisions, so it runs compiled by mypyc beside the kernel that
calls it (``search`` itself stays Python). It is written for mypyc: concrete types, plain
loops instead of ``key=`` functions, module constants ``Final``. Its choices and its draws
are those of the rule as first written with ``max(..., key=...)`` (``tests/test_quick_rule.py``
keeps a copy of that one and compares them).

>>> import random
>>> from capital_lux.engine import kernel
>>> rng = random.Random(4)
>>> ks = kernel.play_game(4, [QuickRule(rng)] * 4, rng)
>>> ks.phase == kernel.OVER
True
"""

from __future__ import annotations

import random
from typing import Callable, Final

from ..engine.errors import UsageError
from ..engine import kernel_state
from ..engine.kernel_state import (
    AGENT, BITS, CLERIC, DRAFT, GOLD, PAIRS, PLAY, Decision, KState, cleric_options, copies, draw_below,
    draws_as_random, excess, gold_options, options, total,
)
from ..engine.rules import gold_choice_worth

#: In play-outs, how often a player moves at random instead of by the quick rule.
ROLLOUT_NOISE: Final = 0.1

_COLOUR_OF: Final[list[int]] = list(kernel_state.COLOUR_OF)
_VALUE_OF: Final[list[int]] = list(kernel_state.VALUE_OF)


class QuickRule:
    """A cheap, mostly sensible policy for play-outs inside a sampled world, where reading
    the world's "hidden" cards is fine: it is a guess, not the real table. One time in ten
    (``ROLLOUT_NOISE``) it moves at random. It draws from the search's own generator."""

    name = "quick"
    random_below: Callable[[int], int] | None = None
    random_bits: Callable[[int], int] | None = None

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.random: Callable[[], float] = rng.random
        self.below: Callable[[int], int] = getattr(rng, "_randbelow")
        # ``rng.getrandbits`` when ``rng`` draws below ``m`` as ``random.Random`` does (then
        # ``draw_below`` draws natively); else ``below`` draws.
        self.bits: Callable[[int], int] | None = rng.getrandbits if draws_as_random(rng) else None

    def decide(self, ks: KState) -> Decision:
        phase = ks.phase
        if self.random() < ROLLOUT_NOISE:
            # As ``options(ks)[randrange(len)]``, without building the options where it can.
            if phase == PLAY:  # each distinct card, to the capital or home
                distinct = _distinct(ks.hands[ks.current])
                i = self._below(2 * len(distinct))
                return distinct[i >> 1], (i & 1) == 1
            if phase == DRAFT:
                held = ks.draft_hands[ks.current]
                if 2 < len(held) < len(PAIRS) and not copies(held):  # the pairs of positions, in order
                    pairs = PAIRS[len(held)]
                    a, b = pairs[self._below(len(pairs))]
                    return held[a], held[b]
            elif phase == AGENT:
                return self._below(4)  # a colour
            choices = options(ks)
            return choices[self._below(len(choices))]
        if phase == PLAY:
            return _play(ks)
        if phase == DRAFT:
            return _draft(ks)
        if phase == AGENT:
            return _agent(ks)
        if phase == CLERIC:
            return _cleric(ks)
        if phase == GOLD:
            return _gold(ks)
        raise UsageError(f"no decision is pending in phase {ks.phase}")

    def _below(self, m: int) -> int:
        """A number below ``m``, drawn as ``rng.randrange(m)`` draws it."""
        bits = self.bits
        if bits is None or m >= len(BITS):
            return self.below(m)
        return draw_below(bits, m)


def _limit(ks: KState, colour: int) -> int:
    """The colour's hometown limit: its capital cards and the modifiers above it."""
    limit = total(ks.capital[colour])
    for above in ks.mods[colour]:
        limit += above[1]
    return limit


def _distinct(hand: list[int]) -> list[int]:
    """``sorted(set(hand))``, in one pass when the hand is sorted (as the kernel keeps hands)."""
    distinct: list[int] = []
    last = -1
    for kind in hand:
        if kind > last:
            distinct.append(kind)
            last = kind
        elif kind < last:  # not sorted after all
            return sorted(set(hand))
    return distinct


def _play(ks: KState) -> tuple[int, bool]:
    """The highest card that fits at home; else the lowest (the first of them) into the capital."""
    p = ks.current
    hand, town = ks.hands[p], ks.home[p]
    colour_of, value_of = _COLOUR_OF, _VALUE_OF
    best, best_value = -1, 0
    room_colour, room = -1, 0
    for kind in hand:
        value = value_of[kind]
        if value > best_value:  # only a higher card can take the place of the best so far
            c = colour_of[kind]  # its colour's room, only now, once for the cards of a colour (held together)
            if c != room_colour:
                room_colour, room = c, _limit(ks, c) - total(town[c])
            if value <= room:
                best, best_value = kind, value
    if best >= 0:
        return best, True
    lowest = hand[0]
    lowest_value = value_of[lowest]
    for kind in hand:
        value = value_of[kind]
        if value < lowest_value:
            lowest, lowest_value = kind, value
    return lowest, False


def _draft(ks: KState) -> tuple[int, ...]:
    """The two best held cards by (fits at home, value), the earlier held card first among
    equals (as a stable sort would rank them), in sorted order."""
    p = ks.current
    held = ks.draft_hands[p]
    if len(held) <= 2:
        return tuple(held)
    town = ks.home[p]
    room = [_limit(ks, c) - total(town[c]) for c in range(4)]
    colour_of, value_of = _COLOUR_OF, _VALUE_OF
    first, first_key, second, second_key = -1, -1, -1, -1
    for i in range(len(held)):
        kind = held[i]
        value = value_of[kind]
        key = value + 8 if value <= room[colour_of[kind]] else value  # orders as (fits, value)
        if key > first_key:
            second, second_key = first, first_key
            first, first_key = i, key
        elif key > second_key:
            second, second_key = i, key
    a, b = held[first], held[second]
    return (a, b) if a <= b else (b, a)


def _agent(ks: KState) -> int:
    """The first colour with the most at stake against the best other hometown (a bonus), or
    the least (a malus)."""
    p = ks.current
    pending = ks.pending
    value = 0 if pending is None else pending
    stake = [0, 0, 0, 0]
    for c in range(4):
        highest = -1
        for q in range(ks.players):
            if q != p:
                theirs = total(ks.home[q][c])
                if theirs > highest:
                    highest = theirs
        stake[c] = total(ks.home[p][c]) - highest
    chosen = 0
    for c in range(1, 4):
        if (stake[c] > stake[chosen]) if value > 0 else (stake[c] < stake[chosen]):
            chosen = c
    return chosen


def _cleric(ks: KState) -> int:
    """The colour whose lowest capital card is worth taking most: room left at home, less
    twice the card (the first such colour)."""
    town = ks.home[ks.current]
    capital = ks.capital
    chosen, chosen_worth = -1, 0
    for c in cleric_options(ks):
        worth = _limit(ks, c) - total(town[c]) - 2 * capital[c][0]
        if chosen < 0 or worth > chosen_worth:
            chosen, chosen_worth = c, worth
    if chosen < 0:
        raise UsageError("no colour for the Cleric: the capital has no blue, green or yellow card")
    return chosen


def _gold(ks: KState) -> tuple[int, ...]:
    """The gold choice worth most (``rules.gold_choice_worth``; the first of equals)."""
    p = ks.current
    home = [total(cards) for cards in ks.home[p]]
    costs = [excess(ks, p, c) for c in range(4)]
    choices = gold_options(ks, p)
    chosen = choices[0]
    chosen_worth = gold_choice_worth(home, costs, chosen)
    for combo in choices:
        worth = gold_choice_worth(home, costs, combo)
        if worth > chosen_worth:
            chosen, chosen_worth = combo, worth
    return chosen
