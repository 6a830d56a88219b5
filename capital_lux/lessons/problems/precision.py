"""When a decimal answer is right: near the exact value, and not what a classic mistake gives.

A decimal written with ``k`` decimals (a percentage with ``k - 2``) stands for any value
that rounds or cuts off to it: it *could come from* each of those. The checker accepts a decimal only when it is within the exercise's
``radius`` of the exact answer and could come from no classic mistake's value; a
decimal that could come from both is asked for more decimals, never called correct.
So a classic mistake, rounded or cut off at any precision, is never accepted.

The radius is the tolerance (for a probability 2% of the answer and at most 0.01; for an
expected value 2% of its size and at least 0.01), narrowed to half the gap between the
exact answer and the nearest classic value, so that an accepted decimal is always nearer
the answer than any classic mistake, and cut off to ``MAX_DECIMALS`` decimals, as it is
stated to the learner. ``decimals_needed`` is the fewest decimals with which the exact answer,
rounded or cut off, is accepted: what the learner is told to give. An instance whose
answer needs more than ``MAX_DECIMALS``, or where two classic values lie within two units
of the last decimal asked (at least the second), does not tell the methods apart and is not dealt (``Exercise.interesting``).

>>> radius(Fraction(2, 3), True, [Fraction(1, 3)])
Fraction(1, 100)
>>> decimals_needed(Fraction(2, 3), True, [Fraction(1, 3)]), decimals_needed(Fraction(7, 124), True, [])
(2, 3)
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations
from typing import Final, Sequence

#: The tolerance's share of the answer's size, and its cap (probabilities) or floor (expected values).
RELATIVE: Final = Fraction(1, 50)
ABSOLUTE: Final = Fraction(1, 100)
#: The most decimals a learner is asked for.
MAX_DECIMALS: Final = 4


def unit(decimals: int) -> Fraction:
    """One unit of the last of ``decimals`` decimals (an integer's is 1)."""
    return Fraction(1, 10**max(decimals, 0))


def radius(exact: Fraction, probability: bool, classics: Sequence[Fraction]) -> Fraction:
    """How far (strictly less) an accepted decimal may be from ``exact``."""
    size = abs(exact) * RELATIVE
    tolerance = min(ABSOLUTE, size) if probability and exact else max(ABSOLUTE, size)
    narrowest = min([tolerance, *(abs(exact - m) / 2 for m in classics)])
    return Fraction(math.floor(narrowest * 10**MAX_DECIMALS), 10**MAX_DECIMALS)  # as it is stated


def could_come_from(written: Fraction, decimals: int, value: Fraction) -> bool:
    """Whether ``value``, rounded (half up or half down) or cut off to ``decimals``
    decimals, is ``written``."""
    return written in {_written(value, decimals, cut) for cut in (False, True)} | {
        Fraction(math.ceil(value * 10**decimals - Fraction(1, 2))) * unit(decimals)}


def accepted(written: Fraction, decimals: int, exact: Fraction, probability: bool,
             classics: Sequence[Fraction]) -> bool:
    return (abs(written - exact) < radius(exact, probability, classics)
            and not any(could_come_from(written, decimals, m) for m in classics))


def _written(value: Fraction, decimals: int, cut: bool) -> Fraction:
    scaled = value * 10**decimals
    whole = math.trunc(scaled) if cut else math.floor(scaled + Fraction(1, 2))
    return Fraction(whole) * unit(decimals)


def decimals_needed(exact: Fraction, probability: bool, classics: Sequence[Fraction],
                    most: int = 8) -> int | None:
    """The fewest decimals with which ``exact``, rounded or cut off, is accepted (``None``:
    more than ``most``)."""
    for decimals in range(most + 1):
        if all(accepted(_written(exact, decimals, cut), decimals, exact, probability, classics)
               for cut in (False, True)):
            return decimals
    return None


def told_apart(exact: Fraction, probability: bool, classics: Sequence[Fraction]) -> bool:
    """Whether a learner can give this answer in at most ``MAX_DECIMALS`` decimals, and
    two classic mistakes never give decimals the checker could take for each other."""
    decimals = decimals_needed(exact, probability, classics, MAX_DECIMALS)
    return decimals is not None and all(abs(a - b) >= 2 * unit(max(decimals, 2)) for a, b in combinations(classics, 2))
