"""Classroom probability exercises drawn from real positions: predict, check, see it converge.

Every exercise is a template (``core.Exercise``); ``instance(exercise_id, seed)`` is a
learner's own copy: the same question on other cards, its exact answer computed from
the asking player's view (a ``Fraction``) and checked by brute force in the tests.
``check`` grades an answer within a stated tolerance (``checker``) and ``diagnose``
names the classic mistake a wrong answer looks like.

>>> ex = EXERCISES_BY_ID["modifier-after-draw"]
>>> ex.exact()
Fraction(7, 32)
>>> instance("modifier-after-draw", 7) == instance("modifier-after-draw", 7)
True
"""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction

from .checker import check, decimal_text, diagnose, format_number
from .core import Exercise, Mistake, Plural
from .draws import DRAWS
from .more import MORE
from .round_end import ROUND_END
from ...analysis.risk import Estimate
from ...engine.cards import COLOUR_NAMES, COLOURS, ROLES, Card
from ...engine.views import determinize
from ...i18n import Translator, formatting
from ..table import card_html
from ...i18n.editions import edition_notes

EXERCISES: tuple[Exercise, ...] = tuple(ex.instance(None) for ex in DRAWS + ROUND_END + MORE)
EXERCISES_BY_ID: dict[str, Exercise] = {ex.id: ex for ex in EXERCISES}

__all__ = ["EXERCISES", "EXERCISES_BY_ID", "Exercise", "Mistake", "check", "diagnose", "format_number",
           "instance", "question_text", "solution_text", "assumptions_text", "simulate"]


def instance(exercise_id: str, seed: int | None) -> Exercise:
    """Exercise ``exercise_id`` on the cards of ``seed`` (``None``: the base position).

    A KeyError names an unknown id. The same seed gives every learner the same numbers."""
    return EXERCISES_BY_ID[exercise_id].instance(seed)


def _fill(ex: Exercise, t: Translator, html: bool) -> dict[str, str]:
    values: dict[str, str] = {ROLES[c]: t.role(c) for c in COLOURS}
    values.update({COLOUR_NAMES[c]: t.colour(c) for c in COLOURS})
    values.update({"Hometown": t.term("Hometown"), "Capital": t.term("Capital")})
    plurals: dict[str, Plural] = {}
    for key, fact in ex.facts(ex.view()).items():
        if isinstance(fact, Plural):
            plurals[key] = fact
        elif isinstance(fact, Card):
            values[key] = card_html(t, fact) if html else str(fact)
        elif isinstance(fact, Fraction):
            values[key] = format_number(fact)
        elif isinstance(fact, Decimal):
            values[key] = formatting.format_number(fact, t.lang, 3, trim=True)
        else:
            values[key] = str(fact)
    exact = ex.exact()
    values["answer"] = format_number(exact)
    if exact.denominator != 1:  # as the answer key writes it: one precision for the same number
        values["answer"] += f" ≈ {decimal_text(exact, t)}"
    for key, plural in plurals.items():  # the reader's language picks the form for the count
        values[key] = t.ngettext(plural.singular, plural.plural, plural.count).format(
            **values, count=formatting.format_number(plural.count, t.lang))
    return values


def question_text(ex: Exercise, t: Translator, html: bool = True) -> str:
    return t.gettext(ex.question).format(**_fill(ex, t, html))


def solution_text(ex: Exercise, t: Translator, html: bool = True) -> str:
    # a French reader's rulebook words R6 and R15 differently: say so where they are explained
    return " ".join([t.gettext(ex.solution).format(**_fill(ex, t, html)), *edition_notes(t, ex.solution)])


def assumptions_text(ex: Exercise, t: Translator) -> list[str]:
    """The assumptions the question rests on, one whole sentence each."""
    values = _fill(ex, t, False)
    return [t.gettext(a).format(**values) for a in ex.assumptions]


def simulate(ex: Exercise, samples: int, seed: int, points: int = 25) -> list[tuple[int, Estimate]]:
    """Estimates with 95% intervals after the first n of ``samples`` seeded trials, at
    about ``points`` sample sizes n (one run, so the chart shows it settling).

    Each trial draws a full state that the viewer cannot tell from the real one
    (``views.determinize``) and plays it on with the engine.
    """
    rng = random.Random(seed)
    v = ex.view()
    marks = sorted({max(1, round(samples ** (i / (points - 1)))) for i in range(points)} | {samples})
    values = [float(ex.trial(determinize(v, rng), rng)) for _ in range(samples)]
    if ex.probability:
        return [(n, Estimate.proportion(round(sum(values[:n])), n)) for n in marks]
    return [(n, Estimate.of_values(values[:n])) for n in marks]
