"""The class as the teacher sees it: who may see solutions, figures per exercise, a CSV.

The teacher's page is unlocked by a key set in the server's environment
(``CAPITAL_LUX_TEACHER_KEY``); with no key set, it stays locked.

>>> solution_open("after_attempt", attempts=0), solution_open("after_attempt", attempts=1)
(False, True)
>>> s = summarise([_demo("a", "x", "1/2", False), _demo("a", "x", "1/3", True), _demo("b", "x", "1/2", False)])
>>> s["x"].attempted, s["x"].solved, s["x"].median_attempts, s["x"].wrong[0][:2], s["x"].outcomes
(2, 1, Fraction(3, 2), ('1/2', 2), (0, 1, 0, 0, 1))
"""

from __future__ import annotations

import csv
import hmac
import io
import os
import re
import statistics
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from ..engine.cards import N_
from .storage import Attempt

TEACHER_KEY_VARIABLE = "CAPITAL_LUX_TEACHER_KEY"
#: A shorter key could be guessed by trying; the teacher page refuses to open with one.
MIN_TEACHER_KEY = 12

SOLUTIONS_SETTING = "solutions"
#: When a learner may open an exercise's worked solution and its simulation.
SOLUTION_POLICIES: dict[str, str] = {
    "after_attempt": N_("after an attempt"),
    "never": N_("never"),
    "always": N_("always"),
}
DEFAULT_POLICY = "after_attempt"
_NUMBER = re.compile(r"-[0-9.,/ ]+%?")
CSV_COLUMNS = ("learner", "session", "exercise", "instance", "answer", "correct", "mistake", "time")


def solution_open(policy: str, attempts: int) -> bool:
    """May a learner with this many checked answers see the solution? Unknown policies close it."""
    return policy == "always" or (policy == "after_attempt" and attempts > 0)


def teacher_key() -> str | None:
    """The key set for the server, or None when none (or too short a one) is set."""
    key = os.environ.get(TEACHER_KEY_VARIABLE, "")
    return key if len(key) >= MIN_TEACHER_KEY else None


def teacher_key_matches(typed: str) -> bool:
    key = teacher_key()
    # compare_digest: the time taken does not tell how much of a guess was right.
    return key is not None and hmac.compare_digest(typed.encode(), key.encode())


@dataclass(frozen=True)
class ExerciseSummary:
    """The class's figures for one exercise."""

    exercise: str
    attempted: int  # learners with at least one checked answer
    solved: int  # learners with a correct one
    median_attempts: Fraction  # per learner who attempted: answers up to the first correct one
    wrong: tuple[tuple[str, int, str | None], ...]  # (answer, how many times, mistake) most common first
    #: learners who solved it at the 1st, 2nd, 3rd, 4th or later answer, and who have not solved it yet
    outcomes: tuple[int, int, int, int, int]


def summarise(attempts: list[Attempt], top: int = 3) -> dict[str, ExerciseSummary]:
    """Figures per exercise from the class's attempts, in the order of ``attempts``."""
    per_learner: dict[str, dict[str, list[Attempt]]] = {}
    for a in attempts:
        per_learner.setdefault(a.exercise, {}).setdefault(a.session, []).append(a)
    result = {}
    for exercise, learners in per_learner.items():
        counts = []
        outcomes = [0] * 5
        wrong: Counter[str] = Counter()
        mistakes: dict[str, str | None] = {}
        for tries in learners.values():
            solved_at = next((i for i, a in enumerate(tries) if a.correct), None)
            counts.append(len(tries) if solved_at is None else solved_at + 1)
            outcomes[4 if solved_at is None else min(solved_at, 3)] += 1
            for a in tries:
                if not a.correct:
                    wrong[a.answer] += 1
                    mistakes[a.answer] = mistakes.get(a.answer) or a.mistake
        result[exercise] = ExerciseSummary(
            exercise, len(learners), sum(any(a.correct for a in tries) for tries in learners.values()),
            Fraction(statistics.median(counts)).limit_denominator(2),
            tuple((answer, n, mistakes[answer]) for answer, n in wrong.most_common(top)),
            (outcomes[0], outcomes[1], outcomes[2], outcomes[3], outcomes[4]),
        )
    return result


def results_csv(attempts: list[Attempt]) -> str:
    """Every attempt, one row each, for a spreadsheet."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for a in attempts:
        cells = [a.name, a.session, a.exercise, a.instance or "", a.answer, int(a.correct), a.mistake or "", a.at]
        writer.writerow([_inert(c) if isinstance(c, str) else c for c in cells])
    return out.getvalue()


def _inert(cell: str) -> str:
    """A spreadsheet runs a cell starting with = + - @ as a formula: quote those, but keep -4/3 a number."""
    if cell[:1] in ("=", "+", "@", "\t", "\r") or (cell[:1] == "-" and not _NUMBER.fullmatch(cell)):
        return "'" + cell
    return cell


def _demo(session: str, exercise: str, answer: str, correct: bool) -> Attempt:
    return Attempt(0, session, session, exercise, None, answer, correct, None, "")
