"""A learner who searches instead of working the answer out: the checker's replies driving a
bisection (decimals) or a Stern–Brocot walk (exact fractions only), at the page's pace.

Used by the checker's search test and by the ``search`` benchmark (from a source checkout).
A search reads only what the page shows a learner: the reply's words (in English) and the
tolerance the question states. Each search stops at "Correct" or after ``budget`` answers.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Iterator

from capital_lux.lessons.pace import Pace
from capital_lux.lessons.problems import EXERCISES, Exercise, check, instance
from capital_lux.lessons.problems.checker import ANSWER_BUDGET, Checked, classic_values, tolerance
from capital_lux.tutor.classroom import CHECK_BURST, CHECKS_PER_MINUTE

#: The answers a search may give to one exercise.
BUDGET = 20
#: Where a search starts for an expected value (a probability starts from 0 to 1).
WIDE = Fraction(100)

Reply = Callable[[str, int], Checked]


def reply(ex: Exercise, fractions_only: bool = False, direction_always: bool = False) -> Reply:
    """The checker as the page calls it, with the answers given before. ``direction_always``: an
    oracle that also says higher or lower after every wrong answer, as the checker once did (to
    show what the searches can do with it)."""
    def answer(text: str, given: int) -> Checked:
        # the oracle, as the checker once was, checks every answer (no ``ANSWER_BUDGET``)
        checked = check(ex, text, "en", fractions_only, min(given, ANSWER_BUDGET - 1) if direction_always else given)
        if not direction_always or checked.status != "wrong" or checked.value is None:
            return checked
        way = "too high" if checked.value > ex.exact() else "too low"
        return Checked("wrong", f"{checked.message} ({way})", checked.value, checked.mistake)

    return answer


def _direction(checked: Checked) -> int:
    """+1: the answer is above the exact one (say lower), -1: below, 0: the reply does not say."""
    words = checked.message
    if "higher than the exact" in words or "too high" in words:
        return 1
    if "lower than the exact" in words or "too low" in words:
        return -1
    return 0


def _decimal(value: Fraction) -> str:
    return f"{float(value):.4f}"


def _sweep(low: Fraction, high: Fraction, step: Fraction) -> Iterator[Fraction]:
    """Points from the middle of [low, high] outwards, ``step`` apart: a search's last resort."""
    middle, k = (low + high) / 2, 0
    while middle - k * step >= low or middle + k * step <= high:
        for point in ((middle,) if k == 0 else (middle + k * step, middle - k * step)):
            if low <= point <= high:
                yield point
        k += 1


def bisection(ex: Exercise, answer: Reply, budget: int = BUDGET) -> int | None:
    """Answers a bisection on decimals needs to hear "Correct" (``None``: more than ``budget``).
    Where the reply stops giving a direction, it sweeps what is left at the stated tolerance."""
    low, high = (Fraction(0), Fraction(1)) if ex.probability else (-WIDE, WIDE)
    step = 2 * tolerance(ex.exact(), ex.probability, classic_values(ex))
    given, sweep = 0, None
    while given < budget:
        guess = (low + high) / 2 if sweep is None else next(sweep, None)
        if guess is None:
            return None
        checked = answer(_decimal(guess), given)
        given += 1
        if checked.status == "correct":
            return given
        way = _direction(checked) if sweep is None else 0
        if way > 0:
            high = guess
        elif way < 0:
            low = guess
        elif sweep is None:
            sweep = _sweep(low, high, step)
    return None


def stern_brocot(ex: Exercise, answer: Reply, budget: int = BUDGET) -> int | None:
    """Answers a Stern–Brocot walk on exact fractions needs to hear "Correct" (``None``: more
    than ``budget``). Without a direction it can only try the next mediant on one side."""
    left, right = ((0, 1), (1, 1)) if ex.probability else ((-int(WIDE), 1), (int(WIDE), 1))
    given = 0
    while given < budget:
        guess = (left[0] + right[0], left[1] + right[1])
        checked = answer(f"{guess[0]}/{guess[1]}", given)
        given += 1
        if checked.status == "correct":
            return given
        if _direction(checked) > 0:
            right = guess
        else:  # below, or no direction: a guess
            left = guess
    return None


@dataclass(frozen=True)
class Outcome:
    """One search over a set of exercises: how many it solved within the budget, and how many
    answers each took."""

    solved: int
    exercises: int
    answers: tuple[int, ...]

    @property
    def median(self) -> float | None:
        return statistics.median(self.answers) if self.answers else None


def search(kind: str, instances: list[Exercise], direction_always: bool = False,
           budget: int = BUDGET) -> Outcome:
    """``kind`` ``"bisection"`` (decimals) or ``"stern-brocot"`` (the teacher asks for exact
    fractions only) on each instance."""
    found = []
    for ex in instances:
        if kind == "bisection":
            n = bisection(ex, reply(ex, False, direction_always), budget)
        else:
            n = stern_brocot(ex, reply(ex, True, direction_always), budget)
        if n is not None:
            found.append(n)
    return Outcome(len(found), len(instances), tuple(found))


def minutes_at_the_pages_pace(answers: int) -> float:
    """Minutes a learner needs to check ``answers`` answers at the page's pace (a burst, then
    a few a minute), checking each as soon as the page lets them."""
    pace, now = Pace(CHECK_BURST, CHECKS_PER_MINUTE), 0.0
    for _ in range(answers):
        wait = pace.wait("searcher", now)
        while wait:  # not counted: wait, then check again
            now += wait
            wait = pace.wait("searcher", now)
    return round(now / 60, 2)


def base_instances() -> list[Exercise]:
    return list(EXERCISES)


def learner_instances(seeds: range) -> list[Exercise]:
    return [instance(ex.id, seed) for seed in seeds for ex in EXERCISES]
