"""The checker's budget of answers is said before it runs out: under every question, and in the
last few wrong answers' feedback, in four languages."""

from __future__ import annotations

from typing import Any

import pytest

from capital_lux.i18n import translator
from capital_lux.lessons.exercises import budget_left, budget_rule
from capital_lux.lessons.problems.checker import ANSWER_BUDGET


def _app(lang: str) -> Any:
    from capital_lux.tutor.exercises_app import build_app

    app = build_app(lang=lang, numbers=None)._exercises  # type: ignore[arg-type]
    app.learner.clock = iter(range(0, 10**6, 60)).__next__  # a minute between answers: a person's pace
    return app


@pytest.mark.parametrize("lang", ["en", "fr", "es", "pt"])
def test_the_budget_is_said_under_the_question_and_counted_down_before_it_runs_out(lang: str) -> None:
    t, app = translator(lang), _app(lang)
    assert budget_rule(t) in app.question.value.replace("&#x27;", "'")
    exact = app.exercise.exact()
    told = []
    for k in range(ANSWER_BUDGET):
        app.answer.value = f"{exact.numerator + 1 + k}/{exact.denominator * 3 + 7}"  # wrong, and no classic
        assert app.check() == "wrong", app.feedback.value
        told.append(app.feedback.value)
    countdown = [budget_left(t, n) for n in range(1, ANSWER_BUDGET + 1)]
    assert countdown[:ANSWER_BUDGET - 4] == [""] * (ANSWER_BUDGET - 4) and all(countdown[ANSWER_BUDGET - 4:])
    for feedback, sentence in zip(told, countdown):
        if sentence:
            assert sentence.replace("'", "&#x27;") in feedback
    assert "3" in countdown[-4] and "1" in countdown[-2] and countdown[-1] not in countdown[:-1]
    app.answer.value = f"{exact.numerator}/{exact.denominator}"  # the exact answer, now past the budget
    assert app.check() == "invalid"  # not checked: the countdown said so before
