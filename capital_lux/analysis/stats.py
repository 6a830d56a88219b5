"""The one home of the project's interval estimates, and of a figure's one type.

Every figure a forward look gives (a chance, expected points, gold) is an ``Estimate``:
exact, when the rest of the round was counted (``exact`` holds the ``Fraction``, the
interval is that one point and ``n`` is 0), or simulated (a mean with its 95% interval
from ``n`` games). A caller asks the figure what it is (``mean``, ``half_width``,
``is_exact``, ``exact``, ``low``, ``high``) instead of testing its type.

>>> tuple(round(x, 3) for x in wilson_interval(50, 100))
(0.404, 0.596)
>>> wilson_interval(0, 0)
(0.0, 1.0)
>>> third = Estimate.exactly(Fraction(1, 3))
>>> third.is_exact, third.exact, third.half_width, third.complement().exact
(True, Fraction(1, 3), 0.0, Fraction(2, 3))
>>> half = Estimate.proportion(50, 100)
>>> half.is_exact, half.value, round(half.half_width, 3), half.n
(False, 0.5, 0.096, 100)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ..engine.errors import UsageError

__all__ = ["Z95", "wilson_interval", "ratio_interval", "Estimate"]

#: The two-sided 95% normal quantile.
Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    Sensible even when no sample, or every one, is a success. With no sample at
    all (``n == 0``) nothing is known: the interval is the whole of [0, 1]. The
    observed proportion always lies inside, despite rounding.
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half))


def ratio_interval(a: int, n_a: int, b: int, n_b: int, z: float = Z95) -> tuple[float, float, float]:
    """The ratio of two proportions, ``a / n_a`` over ``b / n_b``, with its 95% interval (by
    default): the normal interval of the log ratio (Katz's), the samples taken as independent.
    Where ``a`` or ``b`` is 0 the log ratio has no spread to measure: the interval is unbounded.

    >>> tuple(round(x, 2) for x in ratio_interval(75, 302, 77, 619))
    (2.0, 1.5, 2.66)
    """
    if n_a <= 0 or n_b <= 0:
        raise UsageError(f"a ratio of proportions needs samples on both sides (got {n_a} and {n_b})")
    if b == 0:
        return math.inf, 0.0, math.inf
    ratio = (a / n_a) / (b / n_b)
    if a == 0:
        return ratio, 0.0, math.inf
    spread = z * math.sqrt(1 / a - 1 / n_a + 1 / b - 1 / n_b)
    return ratio, ratio * math.exp(-spread), ratio * math.exp(spread)


@dataclass(frozen=True)
class Estimate:
    """A figure: a simulated mean with its 95% interval from ``n`` samples, or (``exact`` set)
    an exact value, whose interval is that one point and ``n`` 0."""

    mean: float
    low: float
    high: float
    n: int
    exact: Fraction | None = None

    @classmethod
    def exactly(cls, value: Fraction) -> Estimate:
        """An exact figure: every case counted, no interval."""
        point = float(value)
        return cls(point, point, point, 0, value)

    @classmethod
    def proportion(cls, hits: int, n: int) -> Estimate:
        """Wilson score interval: sensible even when no sample (or every one) hits."""
        if n <= 0:
            raise UsageError("an estimate needs at least one sample")
        low, high = wilson_interval(hits, n)
        return cls(hits / n, low, high, n)

    @classmethod
    def of_values(cls, values: list[float] | list[int]) -> Estimate:
        """Mean with a normal-approximation interval (sample standard deviation)."""
        n = len(values)
        if n <= 0:
            raise UsageError("an estimate needs at least one sample")
        mean = sum(values) / n
        var = sum((x - mean) ** 2 for x in values) / (n - 1) if n > 1 else 0.0
        half = Z95 * math.sqrt(var / n)
        return cls(mean, mean - half, mean + half, n)

    @property
    def is_exact(self) -> bool:
        return self.exact is not None

    @property
    def value(self) -> Fraction | float:
        """The exact fraction when there is one, else the mean: what a formatter should write."""
        return self.mean if self.exact is None else self.exact

    @property
    def half_width(self) -> float:
        """Half the 95% interval's width; 0 for an exact figure."""
        return max(self.mean - self.low, self.high - self.mean)

    def complement(self) -> Estimate:
        """1 minus a probability, exact or simulated (the interval turned round)."""
        if self.exact is not None:
            return Estimate.exactly(1 - self.exact)
        return Estimate(1 - self.mean, 1 - self.high, 1 - self.low, self.n)

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high
