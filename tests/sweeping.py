"""The right method, not a nearby number: every kind's instances on many seeds, each classic
mistake it lists rounded and cut off to 2, 3 and 4 decimals and as a percentage (none may be
"correct"), and the right answer to the decimals a learner is asked for and more (always
"correct").

Used by the sweep's smoke in the suite (a few seeds) and by the ``sweep`` benchmark (60 seeds:
915 of 17,736 classic answers were "correct" with a flat 0.01 before the precision rule)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Iterable

from capital_lux.lessons.problems import EXERCISES, check, instance
from capital_lux.lessons.problems.checker import classic_values
from capital_lux.lessons.problems.precision import MAX_DECIMALS, decimals_needed


def written(value: Fraction, decimals: int, cut: bool) -> str:
    """``value`` with ``decimals`` decimals, rounded or (``cut``) cut off."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return str(exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_DOWN if cut else ROUND_HALF_UP))


@dataclass
class Sweep:
    """What a sweep tried, and every answer it found marked the wrong way (with where)."""

    tried: int = 0
    right_tried: int = 0
    faults: list[tuple[str, int, str, str]] = field(default_factory=list)


def sweep(seeds: Iterable[int]) -> Sweep:
    found = Sweep()
    for ex in EXERCISES:
        for seed in seeds:
            inst = instance(ex.id, seed)
            exact, classics = inst.exact(), classic_values(inst)
            values = [value for _, value in classics]
            if len(set(values)) != len(values) or exact in values:
                found.faults.append((inst.id, seed, "a classic value twice, or the answer's", ""))
            for mistake, value in classics:
                for decimals in (2, 3, 4):
                    for cut in (False, True):
                        for text in (written(value, decimals, cut), written(value * 100, decimals - 2, cut) + "%"):
                            found.tried += 1
                            if check(inst, text).status == "correct":
                                found.faults.append((inst.id, seed, mistake.id, text))
            needed = decimals_needed(exact, inst.probability, values)
            if needed is None or needed > MAX_DECIMALS:
                found.faults.append((inst.id, seed, "no precision tells the answer apart", ""))
                continue
            for decimals in range(needed, MAX_DECIMALS + 1):
                for cut in (False, True):
                    found.right_tried += 1
                    if check(inst, written(exact, decimals, cut)).status != "correct":
                        found.faults.append((inst.id, seed, "right answer refused", written(exact, decimals, cut)))
    return found
