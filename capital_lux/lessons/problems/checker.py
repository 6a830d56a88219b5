"""Checking a learner's answer, and naming the classic mistake it looks like.

A fraction (``3/8``) must equal the exact value. A decimal (``0.375``, ``0,375``) or a
percentage (``37.5%``) is correct when it is near the exact value and could not come
from a classic mistake's value at the precision it is written with (``precision``): a
method is judged, not a nearby number. A decimal too coarse to tell the right method from
a classic mistake, or from a value outside the tolerance, is asked for more decimals and
not counted; so is anything else that is not a number.

>>> check_answer("0.68", Fraction(6854, 10000)).status, check_answer("66.7%", Fraction(2, 3)).status
('correct', 'correct')
>>> check_answer("0.15", Fraction(1511, 10000), classics=[(BINOMIAL, Fraction(1504, 10000))]).status
'invalid'
>>> check_answer("0.150", Fraction(1511, 10000), classics=[(BINOMIAL, Fraction(1504, 10000))]).mistake
'binomial'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Final


from . import mistakes as M
from ...engine.cards import N_
from ...engine.errors import CapitalLuxError
from .core import Exercise, Mistake, classics as classic_outcomes
from .precision import ABSOLUTE, MAX_DECIMALS, accepted, could_come_from, decimals_needed, radius
from ...i18n import Translator, translator
from ...i18n.formatting import format_number as i18n_number

#: The widest a tolerance gets for a probability (and the narrowest for an expected value).
TOLERANCE = ABSOLUTE
#: From this many answers to one exercise on, a decimal counts only as the exact value with
#: ``MAX_DECIMALS`` decimals, rounded or cut off (or the exact fraction): a nearby number no longer
#: does. With 3, a bisection's sweep still solved up to 2 of a learner's 21 exercises in 20 answers
#: (its second guess, a quarter or three quarters, falling near the answer); the rule the page
#: states (``tolerance_text``) says "after your first answer".
STRICT_AFTER: Final = 1
#: How far (a share of 1, or of an expected value's size) a first wrong answer must be to be told which way.
FAR: Final = Fraction(1, 4)
#: The answers to one exercise the page checks. Past them a number is no longer checked (a classic
#: mistake is still named), so that trying numbers ends: measured on 20 classes (``bench numbers``),
#: a bisection's sweep and a Stern-Brocot walk landed on "Correct" at their 10th to 19th answer
#: in a few exercises, two in one learner's 21; an honest learner is flagged to the teacher at 6.
ANSWER_BUDGET: Final = 8
#: Every wrong answer after the first that looks like no classic mistake hears these words,
#: wherever it lies: nothing a search can steer by.
AGAIN: Final = N_("Not yet: this is not the exact answer. Go through your method again, step by step.")

_DECIMAL = re.compile(r"[+-]?(\d+([.,]\d*)?|[.,]\d+)")
_FRACTION = re.compile(r"([+-]?\d+)\s*/\s*(\d+)")

BINOMIAL = Mistake("binomial", M.BINOMIAL, lambda v: None)  # for the examples above
PERCENT_WITHOUT_SIGN = Mistake("percent-without-sign", M.PERCENT_WITHOUT_SIGN, lambda v: None)
PERCENT_OF_FRACTION = Mistake("percent-of-fraction", M.PERCENT_OF_FRACTION, lambda v: None)
PERCENT_FOR_EXPECTED = Mistake("percent-for-expected", M.PERCENT_FOR_EXPECTED, lambda v: None)


class AnswerError(CapitalLuxError):
    """An answer that is not a number in a form the checker reads."""


@dataclass(frozen=True)
class Checked:
    """The verdict on one answer: ``correct``, ``wrong`` or ``invalid`` (not counted), and
    the classic mistake it looks like (its id), if any."""

    status: str
    message: str
    value: Fraction | None = None
    mistake: str | None = None


def tolerance(exact: Fraction, probability: bool = True,
              classics: list[tuple[Mistake, Fraction]] | None = None) -> Fraction:
    """How far a decimal or percentage may be from ``exact`` (strictly less passes)."""
    return radius(exact, probability, [value for _, value in classics or []])


def format_number(value: Fraction) -> str:
    """``3/8``, ``-4/3`` or ``2``: the exact form shown to learners."""
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def decimal_text(value: Fraction | float, t: Translator, digits: int = 4) -> str:
    """A number in the reader's locale, at most ``digits`` decimals (``0,6854`` in French)."""
    return i18n_number(value, t.lang, digits, trim=True)


def tolerance_text(ex: Exercise, t: Translator) -> str:
    """The rule stated to the learner, with this exercise's own precision."""
    exact, classics = ex.exact(), classic_values(ex)
    decimals = decimals_needed(exact, ex.probability, [value for _, value in classics])
    if decimals is None:
        return t.gettext("Give the exact fraction: on these cards, decimals cannot tell the right method "
                         "from a classic mistake.")
    return t.ngettext(
        "Fractions must be exact. Give decimals with at least {count} decimal place, rounded or cut off: "
        "an answer less than {tolerance} from the exact one counts as correct, unless a classic mistake "
        "could give it too.",
        "Fractions must be exact. Give decimals with at least {count} decimal places, rounded or cut off: "
        "an answer less than {tolerance} from the exact one counts as correct, unless a classic mistake "
        "could give it too.", decimals).format(
        count=i18n_number(decimals, t.lang), tolerance=decimal_text(tolerance(exact, ex.probability, classics), t)
    ) + " " + t.gettext("After your first answer to an exercise, only the exact fraction, or the exact value to "
                        "{decimals} decimal places (rounded or cut off), counts as correct.").format(
        decimals=i18n_number(MAX_DECIMALS, t.lang))  # STRICT_AFTER answers: one


def budget_rule(t: Translator) -> str:
    """The page's budget of checked answers, stated under every question before it is reached."""
    return t.ngettext("The page checks at most {count} answer to each exercise.",
                      "The page checks at most {count} answers to each exercise.",
                      ANSWER_BUDGET).format(count=i18n_number(ANSWER_BUDGET, t.lang))


def budget_left(t: Translator, answered: int) -> str:
    """After a wrong answer, the checks left to this exercise once few are ("" while many are)."""
    left = ANSWER_BUDGET - answered
    if left > 3:
        return ""
    if left <= 0:
        return t.gettext("That was the last answer the page checks for this exercise: read the worked solution, "
                         "or work it out on paper and show your teacher.")
    return t.ngettext("The page will check {count} more answer to this exercise.",
                      "The page will check {count} more answers to this exercise.",
                      left).format(count=i18n_number(left, t.lang))


def paper_rule(ex: Exercise, t: Translator) -> str:
    """What a printed sheet asks for: the exact fraction, or enough decimals. The screen's
    marking rule (how near counts as correct) is the checker's, not the paper's."""
    decimals = decimals_needed(ex.exact(), ex.probability, [value for _, value in classic_values(ex)])
    if decimals is None:
        return t.gettext("Give the exact fraction: on these cards, decimals cannot tell the right method "
                         "from a classic mistake.")
    return t.ngettext("Give the exact fraction, or a decimal with at least {count} decimal place.",
                      "Give the exact fraction, or a decimal with at least {count} decimal places.",
                      decimals).format(count=i18n_number(decimals, t.lang))


def decimal_places(text: str) -> int:
    """How many decimals a decimal or percentage is written with, as a share of 1.

    >>> decimal_places("0,375"), decimal_places("37.5 %"), decimal_places("2")
    (3, 3, 0)
    """
    number = text.strip().rstrip("%").strip()
    decimals = len(re.split(r"[.,]", number, maxsplit=1)[1]) if re.search(r"[.,]", number) else 0
    return decimals + 2 if text.strip().endswith("%") else decimals


def parse_answer(text: str) -> tuple[Fraction, str]:
    """The number written and its form: ``fraction``, ``decimal`` or ``percentage``.

    >>> parse_answer(" 6/16 "), parse_answer("0,375")[0], parse_answer("37.5 %")
    ((Fraction(3, 8), 'fraction'), Fraction(3, 8), (Fraction(3, 8), 'percentage'))
    """
    cleaned = text.strip().replace("−", "-").replace("\u00a0", " ").replace("\u202f", " ")
    if len(cleaned) > 40:
        raise AnswerError(cleaned)
    if cleaned.endswith("%") and _DECIMAL.fullmatch(cleaned[:-1].strip()):
        return Fraction(cleaned[:-1].strip().replace(",", ".")) / 100, "percentage"
    if _DECIMAL.fullmatch(cleaned):
        return Fraction(cleaned.replace(",", ".")), "decimal"
    match = _FRACTION.fullmatch(cleaned)
    if match and int(match.group(2)) != 0:
        return Fraction(int(match.group(1)), int(match.group(2))), "fraction"
    raise AnswerError(cleaned)


def classic_values(ex: Exercise) -> list[tuple[Mistake, Fraction]]:
    """The exercise's classic wrong values on its own cards, different from the answer."""
    return list(_classic_values(ex))


@lru_cache(maxsize=2048)
def _classic_values(ex: Exercise) -> tuple[tuple[Mistake, Fraction], ...]:
    """``classic_values``, reckoned once an instance: every answer checked reads them."""
    exact = ex.exact()
    return tuple((m, value) for m, value in classic_outcomes(ex, ex.view(), exact) if value != exact)


@dataclass(frozen=True)
class _Reading:
    """A decimal answer against the exact value and the classic ones."""

    correct: bool
    too_coarse: bool  # the exact value could give it, but so could another, or it is too far
    mistake: Mistake | None


def _read(value: Fraction, decimals: int, exact: Fraction, probability: bool,
          classics: list[tuple[Mistake, Fraction]]) -> _Reading:
    values = [m for _, m in classics]
    if accepted(value, decimals, exact, probability, values):
        return _Reading(True, False, None)
    reach = max(radius(exact, probability, values), Fraction(1, 10**decimals))
    near = [m for m, wrong in classics if abs(value - wrong) < reach]
    if could_come_from(value, decimals, exact) or len(near) > 1:
        return _Reading(False, True, None)
    return _Reading(False, False, near[0] if near else None)


def _far(value: Fraction, exact: Fraction, probability: bool) -> bool:
    """Whether a wrong answer is far from the exact one: a quarter of the way across the
    probabilities, or a quarter of the expected value's size (at least 1). Only then, and on the
    first answer, does the checker say which way: a direction near the answer is a search's step."""
    return abs(value - exact) >= (FAR if probability else max(Fraction(1), abs(exact) * FAR))


def _strict_read(value: Fraction, decimals: int, exact: Fraction,
                 classics: list[tuple[Mistake, Fraction]]) -> _Reading:
    """From the ``STRICT_AFTER``-th answer on: a decimal is correct only as the exact value
    itself, rounded or cut off, so that trying numbers a tolerance apart finds nothing."""
    if any(could_come_from(value, decimals, wrong) for _, wrong in classics):
        return _Reading(False, True, None)
    return _Reading(could_come_from(value, decimals, exact), False, None)


def _percent_slip(value: Fraction, form: str, exact: Fraction, probability: bool) -> Mistake | None:
    if not probability or not exact:
        return None
    near = tolerance(exact, True)
    if form != "percentage" and value > 1 and abs(value / 100 - exact) < near:
        return PERCENT_WITHOUT_SIGN
    if form == "percentage" and value < Fraction(1, 100) and abs(value * 100 - exact) < near:
        return PERCENT_OF_FRACTION
    return None


def _match(value: Fraction, form: str, decimals: int, exact: Fraction, probability: bool,
           classics: list[tuple[Mistake, Fraction]]) -> Mistake | None:
    if form == "percentage" and not probability:
        return PERCENT_FOR_EXPECTED  # the unit is part of the answer, even on the right number
    slip = _percent_slip(value, form, exact, probability)
    hit = next((m for m, wrong in classics if value == wrong and value != exact), None)
    if slip is not None or hit is not None or form == "fraction" or _too_few(decimals, exact, probability, classics):
        return slip or hit  # a classic value written exactly is that mistake, at any precision
    return _read(value, decimals, exact, probability, classics).mistake


def _too_few(decimals: int, exact: Fraction, probability: bool, classics: list[tuple[Mistake, Fraction]]) -> bool:
    """Whether a decimal has fewer decimals than the learner is asked for. Such an answer is
    asked for more, whatever its value: read at a coarser precision, the reply would place the
    answer (or its complement) in a wide window, a step of a search."""
    needed = decimals_needed(exact, probability, [value for _, value in classics])
    return needed is None or decimals < needed


def check_answer(text: str, exact: Fraction, lang: str = "en", probability: bool = True,
                 classics: list[tuple[Mistake, Fraction]] | None = None, fractions_only: bool = False,
                 previous: int = 0) -> Checked:
    """Compare an answer with the exact value (see the module's rule), and name the
    classic mistake among ``classics`` (a mistake and its value) it looks like.
    ``fractions_only``: the teacher asks for exact fractions; a decimal is not counted.

    ``previous``: the answers this learner gave before to this exercise (counted ones). Only
    the first one, and only when it is far off (``FAR``), is told whether it is too high or too
    low: a direction on every answer would let a search (a bisection, a Stern–Brocot walk) find
    the answer without the method. Other wrong answers hear the same words (``AGAIN``) wherever
    they lie, unless they look like a classic mistake; and from the ``STRICT_AFTER``-th answer
    on, a decimal counts only as the exact value to ``MAX_DECIMALS`` decimals, so that trying
    numbers a tolerance apart finds nothing either. From the ``ANSWER_BUDGET``-th answer on, a
    number is not checked at all (status ``invalid``, not counted), a classic mistake still named."""
    t = translator(lang)
    classics = classics or []
    try:
        value, form = parse_answer(text)
    except AnswerError:
        return Checked("invalid", t.gettext(
            "Write a number: a fraction like 3/8, a decimal like 0.375 or a percentage like 37.5%."))
    if fractions_only and form != "fraction" and value.denominator != 1:
        return Checked("invalid", t.gettext("Your teacher asks for exact fractions today: write your answer like "
                                            "3/8."), value)
    decimals = decimal_places(text)
    mistake = _match(value, form, decimals, exact, probability, classics)
    if mistake is not None:
        return Checked("wrong", t.gettext("Not yet. {mistake}").format(mistake=t.gettext(mistake.text)),
                       value, mistake.id)
    if probability and not 0 <= value <= 1:
        return Checked("invalid", t.gettext("A probability is between 0 and 1 (0% and 100%)."), value)
    if previous >= ANSWER_BUDGET:  # not counted: the box keeps it, the teacher has the answers checked
        return Checked("invalid", t.ngettext(
            "You have checked {count} answer to this exercise: the page no longer checks numbers for it, so "
            "that trying numbers cannot find the answer. Read the worked solution, or work it out on paper and "
            "show your teacher.",
            "You have checked {count} answers to this exercise: the page no longer checks numbers for it, so "
            "that trying numbers cannot find the answer. Read the worked solution, or work it out on paper and "
            "show your teacher.", previous).format(count=i18n_number(previous, t.lang)), value)
    if value == exact and form == "fraction":
        return Checked("correct", t.gettext("Correct! The exact answer is {answer}.").format(
            answer=format_number(exact)), value)
    first = previous == 0 and _far(value, exact, probability)
    if form == "fraction":
        hint = (t.gettext(AGAIN) if not first
                else t.gettext("Not yet: your fraction is higher than the exact answer.") if value > exact
                else t.gettext("Not yet: your fraction is lower than the exact answer."))
        return Checked("wrong", hint, value)
    strict = previous >= STRICT_AFTER
    needed = MAX_DECIMALS if strict else decimals_needed(exact, probability, [m for _, m in classics])
    if needed is None:
        return Checked("invalid", t.gettext("Give the exact fraction: on these cards, decimals cannot tell "
                                            "the right method from a classic mistake."), value)
    if decimals < needed:
        return Checked("invalid", t.ngettext(
            "Give at least {count} decimal place, or the exact fraction, as the rule under the question says.",
            "Give at least {count} decimal places, or the exact fraction, as the rule under the question says.",
            needed).format(count=i18n_number(needed, t.lang)), value)
    reading = _strict_read(value, decimals, exact, classics) if strict else _read(
        value, decimals, exact, probability, classics)
    if reading.correct:
        return Checked("correct", t.gettext("Correct! The exact answer is {answer}.").format(
            answer=format_number(exact)), value)
    if reading.too_coarse:
        return Checked("invalid", t.gettext(
            "Give more decimals, or the exact fraction: written like this, your answer could also come "
            "from another method, or from a value too far from the answer."), value)
    hint = (t.gettext(AGAIN) if not first
            else t.gettext("Not yet: your answer is too high, by {tolerance} or more.") if value > exact
            else t.gettext("Not yet: your answer is too low, by {tolerance} or more.")).format(
        tolerance=decimal_text(tolerance(exact, probability, classics), t))
    return Checked("wrong", hint, value)


def check(ex: Exercise, text: str, lang: str = "en", fractions_only: bool = False, previous: int = 0) -> Checked:
    """Check an answer to an exercise (or instance), naming its classic mistakes; ``previous``:
    the answers the learner gave to it before (see ``check_answer``)."""
    return check_answer(text, ex.exact(), lang, ex.probability, classic_values(ex), fractions_only, previous)


def diagnose(ex: Exercise, answer: str) -> Mistake | None:
    """The classic mistake a wrong answer looks like, or ``None`` (also for a correct or
    unreadable answer). Show ``t.gettext(mistake.text)``; ``mistake.id`` is stable."""
    try:
        value, form = parse_answer(answer)
    except AnswerError:
        return None
    return _match(value, form, decimal_places(answer), ex.exact(), ex.probability, classic_values(ex))
