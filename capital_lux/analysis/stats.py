"""The one home of the project's interval estimates.

>>> tuple(round(x, 3) for x in wilson_interval(50, 100))
(0.404, 0.596)
>>> wilson_interval(0, 0)
(0.0, 1.0)
"""

from __future__ import annotations

import math

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
