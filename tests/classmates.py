"""A class of learners on their own numbers: the seeds the class server draws for each of them
(``lessons.classroom.instance_seed``), and how many share one exact answer.

Used by the variety test and by the ``numbers`` benchmark (from a source checkout)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from capital_lux.lessons.classroom import instance_seed
from capital_lux.lessons.problems import Exercise, instance

#: A class, and the most learners of it who may share one exact answer (20%).
CLASS, MOST = 30, 6
#: The server's secret in these measures (any key draws seeds alike).
KEY = bytes(range(32))


def learner_instance(exercise_id: str, class_seed: int, learner: int) -> Exercise:
    """The cards one learner of a class gets, as the server draws them."""
    return instance(exercise_id, instance_seed("learner", KEY, class_seed, exercise_id, f"learner {learner}",
                                               f"session {learner}"))


def answers(exercise_id: str, class_seed: int, size: int = CLASS) -> Counter[Fraction]:
    """How many learners of one class get each exact answer."""
    return Counter(learner_instance(exercise_id, class_seed, i).exact() for i in range(size))


def most_sharing(exercise_id: str, class_seed: int, size: int = CLASS) -> int:
    """The most learners of one class who share one exact answer."""
    return max(answers(exercise_id, class_seed, size).values())
