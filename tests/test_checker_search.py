"""The checker cannot be searched to "Correct": a bisection on decimals, and a Stern–Brocot
walk under "exact fractions only", each at the page's pace and reading every reply, solve at
most one of a learner's 21 exercises within 20 answers (they solve most of them with an
oracle that says higher or lower every time and checks every answer, as the checker once did).
Past ``ANSWER_BUDGET`` answers to one exercise the page checks no number."""

from __future__ import annotations

import pytest

from capital_lux.lessons.problems import EXERCISES
from classmates import learner_instance
from searching import BUDGET, bisection, minutes_at_the_pages_pace, reply, search, stern_brocot

#: Class 10 is the worst of the 20 the benchmark measures (two landings before ``ANSWER_BUDGET``).
CLASSES = (0, 1, 3, 10)


def _learners_exercises(class_seed: int) -> list:
    return [learner_instance(ex.id, class_seed, 0) for ex in EXERCISES]


@pytest.mark.parametrize("class_seed", CLASSES)
def test_a_bisection_at_the_pages_pace_solves_at_most_one_exercise_in_twenty_answers(class_seed: int) -> None:
    exercises = _learners_exercises(class_seed)
    assert search("bisection", exercises, direction_always=True).solved >= 15  # the search itself works
    assert search("bisection", exercises).solved <= 1
    assert minutes_at_the_pages_pace(BUDGET) < 2  # twenty answers fit in a lesson: the pace alone stops nothing


@pytest.mark.parametrize("class_seed", CLASSES)
def test_a_stern_brocot_walk_learns_nothing_from_the_replies(class_seed: int) -> None:
    """Under "exact fractions only" the walk solves what a blind guesser of simple fractions
    solves (the kinds whose answers are few, ``test_own_numbers.NOT_YET``), plus at most one
    exercise from the one direction a far first answer hears."""
    exercises = _learners_exercises(class_seed)
    assert search("stern-brocot", exercises).solved <= 1  # the bound, under "exact fractions only" too
    # the walk itself works: told the direction every time it solves half of them (fewer than once:
    # the kinds that now vary more have fractions deeper in the tree than twenty steps)
    assert search("stern-brocot", exercises, direction_always=True).solved >= 10
    steered = {ex.id for ex in exercises if stern_brocot(ex, reply(ex, True)) is not None}
    blind = {ex.id for ex in exercises if stern_brocot(ex, _deaf(reply(ex, True))) is not None}
    assert len(steered - blind) <= 1, steered - blind


def _deaf(answer):  # type: ignore[no-untyped-def]
    """The same replies with their words taken away but "Correct"."""
    from capital_lux.lessons.problems.checker import Checked

    def heard(text: str, given: int) -> Checked:
        checked = answer(text, given)
        return checked if checked.status == "correct" else Checked(checked.status, "", checked.value)

    return heard


def test_a_bisection_used_every_direction_it_was_given() -> None:
    """The search is a real one: told higher or lower every time, it halves and finds the
    answer in a few answers where the checker alone gives it nothing to steer by."""
    ex = learner_instance("deal-any-six", 0, 0)
    steered = bisection(ex, reply(ex, direction_always=True))
    assert steered is not None and steered <= BUDGET
    assert bisection(ex, reply(ex)) is None


def test_the_teacher_sees_an_exercise_solved_after_many_answers_flagged_with_their_number(
        tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A walk of guesses that lands lands late: the grid marks a cell solved after
    ``SEARCHED_AFTER`` answers or more with ⚠ and the count, in words too; a second try does not."""
    import re

    from capital_lux.lessons.classroom import SEARCHED_AFTER, set_identity_mode
    from capital_lux.lessons.storage import Storage
    from test_teachers_day import _answer, _teacher

    storage = Storage(str(tmp_path / "class.sqlite3"))
    set_identity_mode(storage, "open")
    sam = _answer(storage, "Sam", "modifier-after-draw", "1/2")
    for n in range(2, SEARCHED_AFTER):
        storage.record_attempt(sam.learner.session, "modifier-after-draw", f"{n}/{n + 1}", False)
    storage.record_attempt(sam.learner.session, "modifier-after-draw", "6/7", True)
    ana = _answer(storage, "Ana", "modifier-after-draw", "1/2")
    storage.record_attempt(ana.learner.session, "modifier-after-draw", "1/3", True)
    grid = _teacher(storage, monkeypatch).learners.value.split("cl-teacher-grid")[1]
    rows = {name: row for name, row in re.findall(r"<tr><th>([^<]+)</th>(.*?)</tr>", grid)}
    assert f"✓⚠{SEARCHED_AFTER}" in rows["Sam"]
    assert f"solved after {SEARCHED_AFTER} answers: ask how it was worked out" in rows["Sam"]
    assert "⚠" not in rows["Ana"] and "✓" in rows["Ana"]
