"""Checking a learner's answer, with a stated tolerance, and naming a classic mistake.

A fraction (``3/8``) must equal the exact value. A decimal (``0.375``, ``0,375``) or a
percentage (``37.5%``) is correct when it is *strictly less* than ``tolerance(exact)``
away: for a probability that is 0.01 (one percentage point), so two correct decimals,
rounded or cut off, are enough (0.68 for 0.6854, 66% for 2/3); for an expected value it
is 2% of the exact value's size, and at least 0.01 (1 for 72/71). Anything else that is
not a number is ``invalid``: explained, and not counted.

>>> check_answer("0.68", Fraction(6854, 10000)).status, check_answer("66%", Fraction(2, 3)).status
('correct', 'correct')
>>> check_answer("1", Fraction(72, 71), probability=False).status
'correct'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction


from . import mistakes as M
from ...engine.errors import CapitalLuxError
from .core import Exercise, Mistake
from ...i18n import Translator, translator
from ...i18n.formatting import format_number as i18n_number

#: A probability given as a decimal or percentage passes strictly within this distance.
TOLERANCE = Fraction(1, 100)
#: An expected value passes strictly within this share of its size (and at least ``TOLERANCE``).
RELATIVE_TOLERANCE = Fraction(1, 50)

_DECIMAL = re.compile(r"[+-]?(\d+([.,]\d*)?|[.,]\d+)")
_FRACTION = re.compile(r"([+-]?\d+)\s*/\s*(\d+)")

COMPLEMENT = Mistake("complement", M.COMPLEMENT, lambda v: None)
PERCENT_WITHOUT_SIGN = Mistake("percent-without-sign", M.PERCENT_WITHOUT_SIGN, lambda v: None)
PERCENT_OF_FRACTION = Mistake("percent-of-fraction", M.PERCENT_OF_FRACTION, lambda v: None)


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


def tolerance(exact: Fraction, probability: bool = True) -> Fraction:
    """How far a decimal or percentage may be from ``exact`` (strictly less passes)."""
    return TOLERANCE if probability else max(TOLERANCE, abs(exact) * RELATIVE_TOLERANCE)


def format_number(value: Fraction) -> str:
    """``3/8``, ``-4/3`` or ``2``: the exact form shown to learners."""
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def decimal_text(value: Fraction | float, t: Translator, digits: int = 4) -> str:
    """A number in the reader's locale, at most ``digits`` decimals (``0,6854`` in French)."""
    return i18n_number(value, t.lang, digits, trim=True)


def tolerance_text(ex: Exercise, t: Translator) -> str:
    """The rule stated to the learner, with this exercise's own tolerance."""
    if ex.probability:
        return t.gettext("Fractions must be exact. Decimals and percentages count as correct when they are "
                         "less than {tolerance} (one percentage point) from the exact answer: two correct "
                         "decimals, rounded or cut off, are enough.").format(tolerance=decimal_text(TOLERANCE, t))
    return t.gettext("Fractions must be exact. Decimals count as correct when they are less than {tolerance} "
                     "from the exact answer (2% of its size, and at least 0.01).").format(
        tolerance=decimal_text(tolerance(ex.exact(), False), t))


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


def _close(value: Fraction, form: str, target: Fraction, probability: bool) -> bool:
    if form == "fraction":
        return value == target
    return abs(value - target) < tolerance(target, probability)


def classic_values(ex: Exercise) -> list[tuple[Mistake, Fraction]]:
    """The exercise's classic wrong values on its own cards, different from the answer."""
    v, exact = ex.view(), ex.exact()
    found = [(m, m.value(v)) for m in ex.mistakes]
    if ex.probability:
        found.append((COMPLEMENT, 1 - exact))
    return [(m, value) for m, value in found if value is not None and value != exact]


def _match(value: Fraction, form: str, exact: Fraction, probability: bool,
           classics: list[tuple[Mistake, Fraction]]) -> Mistake | None:
    if probability and exact and form != "percentage" and _close(value / 100, "decimal", exact, True) and value > 1:
        return PERCENT_WITHOUT_SIGN
    if probability and form == "percentage" and value < Fraction(1, 100) and _close(value * 100, "decimal", exact, True):
        return PERCENT_OF_FRACTION
    if _close(value, form, exact, probability):
        return None
    return next((m for m, wrong in classics if _close(value, form, wrong, probability)), None)


def check_answer(text: str, exact: Fraction, lang: str = "en", probability: bool = True,
                 classics: list[tuple[Mistake, Fraction]] | None = None) -> Checked:
    """Compare an answer with the exact value (see the module's rule), and name the
    classic mistake among ``classics`` (a mistake and its value) it looks like."""
    t = translator(lang)
    try:
        value, form = parse_answer(text)
    except AnswerError:
        return Checked("invalid", t.gettext(
            "Write a number: a fraction like 3/8, a decimal like 0.375 or a percentage like 37.5%."))
    mistake = _match(value, form, exact, probability, classics or [])
    if mistake is not None:
        return Checked("wrong", t.gettext("Not yet. {mistake}").format(mistake=t.gettext(mistake.text)),
                       value, mistake.id)
    if probability and not 0 <= value <= 1:
        return Checked("invalid", t.gettext("A probability is between 0 and 1 (0% and 100%)."), value)
    if value == exact or (form != "fraction" and _close(value, form, exact, probability)):
        return Checked("correct", t.gettext("Correct! The exact answer is {answer}.").format(
            answer=format_number(exact)), value)
    if form == "fraction":
        hint = (t.gettext("Not yet: your fraction is higher than the exact answer.") if value > exact
                else t.gettext("Not yet: your fraction is lower than the exact answer."))
    else:
        hint = (t.gettext("Not yet: your answer is too high, by {tolerance} or more.") if value > exact
                else t.gettext("Not yet: your answer is too low, by {tolerance} or more.")).format(
            tolerance=decimal_text(tolerance(exact, probability), t))
    return Checked("wrong", hint, value)


def check(ex: Exercise, text: str, lang: str = "en") -> Checked:
    """Check an answer to an exercise (or instance), naming its classic mistakes."""
    return check_answer(text, ex.exact(), lang, ex.probability, classic_values(ex))


def diagnose(ex: Exercise, answer: str) -> Mistake | None:
    """The classic mistake a wrong answer looks like, or ``None`` (also for a correct or
    unreadable answer). Show ``t.gettext(mistake.text)``; ``mistake.id`` is stable."""
    try:
        value, form = parse_answer(answer)
    except AnswerError:
        return None
    return _match(value, form, ex.exact(), ex.probability, classic_values(ex))
