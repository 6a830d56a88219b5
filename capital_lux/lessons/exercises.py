"""Classroom probability exercises, and a learner's progress through them.

The exercises themselves live in ``capital_lux.lessons.problems`` (templates, the
learner's own instances, the checker and its classic mistakes, worksheets); this
module gathers them under their old names. A learner's progress is in ``lessons.progress``.

>>> ex = EXERCISES_BY_ID["modifier-after-draw"]
>>> ex.exact()
Fraction(7, 32)
>>> check_answer("7/32", ex.exact()).status, check_answer("21.875%", ex.exact()).status
('correct', 'correct')
>>> check_answer("one third", ex.exact()).status
'invalid'
"""

from __future__ import annotations

from fractions import Fraction

from .problems import (
    EXERCISES,
    EXERCISES_BY_ID,
    assumptions_text,
    check,
    diagnose,
    instance,
    question_text,
    simulate,
    solution_text,
)
from .problems.checker import (
    TOLERANCE,
    AnswerError,
    Checked,
    budget_left,
    budget_rule,
    check_answer,
    format_number,
    parse_answer,
    tolerance,
    tolerance_text,
)
from .problems.core import Exercise, Mistake, hidden_sums, limits, share, unseen

__all__ = [
    "EXERCISES", "EXERCISES_BY_ID", "TOLERANCE", "AnswerError", "Checked", "Exercise", "Fraction", "Mistake",
    "assumptions_text", "budget_left", "budget_rule", "check", "check_answer", "diagnose", "format_number",
    "hidden_sums", "instance", "limits", "parse_answer", "question_text",
    "share", "simulate", "solution_text", "tolerance", "tolerance_text", "unseen",
]
