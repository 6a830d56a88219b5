"""Classroom probability exercises, and a learner's progress through them.

The exercises themselves live in ``capital_lux.lessons.problems`` (templates, the
learner's own instances, the checker and its classic mistakes, worksheets); this
module gathers them under their old names and keeps the learner's ``Progress``.

>>> ex = EXERCISES_BY_ID["modifier-after-draw"]
>>> ex.exact()
Fraction(1, 3)
>>> check_answer("1/3", ex.exact()).status, check_answer("33%", ex.exact()).status
('correct', 'correct')
>>> check_answer("one third", ex.exact()).status
'invalid'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from ..engine.cards import N_, CapitalLuxError
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
    check_answer,
    format_number,
    parse_answer,
    tolerance,
    tolerance_text,
)
from .problems.core import Exercise, Mistake, hidden_sums, limits, share, unseen

__all__ = [
    "EXERCISES", "EXERCISES_BY_ID", "TOLERANCE", "AnswerError", "Checked", "Exercise", "Fraction", "Mistake",
    "Progress", "ProgressError", "assumptions_text", "check", "check_answer", "diagnose", "format_number",
    "hidden_sums", "instance", "limits", "load_progress", "parse_answer", "question_text", "save_progress",
    "share", "simulate", "solution_text", "tolerance", "tolerance_text", "unseen",
]


# -- a learner's progress ----------------------------------------------------------------------
PROGRESS_FORMAT = "capital-lux-exercise-progress"


class ProgressError(CapitalLuxError):
    """A progress file that cannot be read; the message says why."""


@dataclass
class Progress:
    """Attempts per exercise and the answers that solved them (by exercise id)."""

    attempts: dict[str, int]
    solved: dict[str, str]

    @classmethod
    def empty(cls) -> Progress:
        return cls({}, {})

    def record(self, exercise_id: str, answer: str, checked: Checked) -> None:
        """Count a correct or wrong answer; an invalid one changes nothing."""
        if checked.status == "invalid":
            return
        self.attempts[exercise_id] = self.attempts.get(exercise_id, 0) + 1
        if checked.status == "correct":
            self.solved.setdefault(exercise_id, answer.strip())

    def to_json(self) -> str:
        exercises = {
            ex.id: {"attempts": self.attempts.get(ex.id, 0), "solved": self.solved.get(ex.id)}
            for ex in EXERCISES
            if ex.id in self.attempts
        }
        return json.dumps({"format": PROGRESS_FORMAT, "version": 1, "exercises": exercises}, indent=1)

    @classmethod
    def from_json(cls, text: str | bytes) -> Progress:
        """Read a progress file; refuse anything that is not one, naming the problem."""
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError, RecursionError) as error:
            raise ProgressError(N_("not a progress file: {problem}"), problem=error) from None
        if not isinstance(data, dict) or data.get("format") != PROGRESS_FORMAT or data.get("version") != 1:
            raise ProgressError(N_("not a progress file: expected format {format}, version 1"), format=repr(PROGRESS_FORMAT))
        entries = data.get("exercises")
        if not isinstance(entries, dict):
            raise ProgressError(N_("a progress file needs an object 'exercises'"))
        progress = cls.empty()
        for key, entry in entries.items():
            if key not in EXERCISES_BY_ID:
                raise ProgressError(N_("{key} is not an exercise; known: {known}"), key=repr(key),
                                    known=", ".join(EXERCISES_BY_ID))
            attempts = entry.get("attempts") if isinstance(entry, dict) else None
            solved = entry.get("solved") if isinstance(entry, dict) else None
            if not isinstance(attempts, int) or isinstance(attempts, bool) or attempts < 0:
                raise ProgressError(N_("exercise {key}: attempts must be a whole number"), key=repr(key))
            if solved is not None and not isinstance(solved, str):
                raise ProgressError(N_("exercise {key}: solved must be the answer given, or null"), key=repr(key))
            progress.attempts[key] = attempts
            if solved is not None:
                progress.solved[key] = solved
        return progress


def save_progress(progress: Progress, path: str | Path) -> None:
    Path(path).write_text(progress.to_json() + "\n", "utf-8")


def load_progress(path: str | Path) -> Progress:
    try:
        text = Path(path).read_bytes()
    except OSError as error:
        raise ProgressError(N_("cannot read {path}: {reason}"), path=path, reason=error.strerror) from None
    return Progress.from_json(text)
