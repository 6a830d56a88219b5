"""The checker teaches, and gives a search nothing to steer by: a direction once, and only far
from the answer; the same words for every later wrong answer; a nearby number no longer counts
after a few answers; the unit is part of the answer; questions say what a learner needs to
start; and paper carries no screen rule."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from capital_lux.engine.cards import COPIES, MODIFIERS
from capital_lux.i18n import LANGUAGES, translator
from capital_lux.lessons.problems import EXERCISES, EXERCISES_BY_ID, assumptions_text, check, diagnose, instance
from capital_lux.lessons.problems.checker import AGAIN, STRICT_AFTER, check_answer, paper_rule, tolerance_text
from capital_lux.lessons.problems.draws import DECK, MODIFIER_SET
from capital_lux.lessons.problems.precision import MAX_DECIMALS
from capital_lux.lessons.problems.worksheet import worksheet_html


def test_a_direction_only_for_the_first_answer_and_only_when_it_is_far() -> None:
    exact = Fraction(3, 8)
    assert check_answer("0.90", exact, previous=0).message == "Not yet: your answer is too high, by 0.0075 or more."
    assert check_answer("9/10", exact, previous=0).message == "Not yet: your fraction is higher than the exact answer."
    for text in ("0.9000", "9/10", "0.0500", "1/20"):
        assert check_answer(text, exact, previous=1).message == AGAIN
    for text in ("0.45", "9/20", "0.30", "3/10"):  # wrong, but near: no direction even first
        assert check_answer(text, exact, previous=0).message == AGAIN


@pytest.mark.parametrize("previous", [1, 2, STRICT_AFTER, 7])
def test_later_wrong_answers_hear_the_same_words_wherever_they_lie(previous: int) -> None:
    """Every kind, answers on a grid across its range: a wrong answer is a classic mistake
    named, or the same sentence; nothing says higher, lower or how far."""
    for ex in EXERCISES:
        exact = ex.exact()
        low, high = (Fraction(0), Fraction(1)) if ex.probability else (exact - 20, exact + 20)
        plain = set()
        for i in range(201):
            value = low + (high - low) * i / 200
            for text in (f"{float(value):.4f}", f"{value.limit_denominator(97)}"):
                checked = check(ex, text, "en", previous=previous)
                if checked.status == "wrong" and checked.mistake is None:
                    plain.add(checked.message)
        assert plain == {AGAIN}, (ex.id, plain)


def test_after_a_few_answers_only_the_exact_value_counts() -> None:
    exact = Fraction(6854, 10000)  # 0.68 was near enough
    assert check_answer("0.6800", exact, previous=0).status == "correct"
    assert check_answer("0.6800", exact, previous=STRICT_AFTER).status == "wrong"
    assert check_answer("0.68", exact, previous=STRICT_AFTER).status == "invalid"  # four decimals asked
    assert check_answer("0.6854", exact, previous=STRICT_AFTER).status == "correct"
    assert check_answer("68.54%", exact, previous=STRICT_AFTER).status == "correct"
    assert check_answer("3427/5000", exact, previous=STRICT_AFTER).status == "correct"
    for ex in EXERCISES:  # the exact value rounded or cut off to four decimals always counts
        value = ex.exact()
        scaled = value * 10**MAX_DECIMALS
        for whole in {math.trunc(scaled), round(scaled)}:
            text = _fixed(whole)
            assert check(ex, text, previous=STRICT_AFTER + 2).status == "correct", (ex.id, text)


def _fixed(whole: int) -> str:
    sign, digits = ("-" if whole < 0 else ""), f"{abs(whole):0{MAX_DECIMALS + 1}d}"
    return f"{sign}{digits[:-MAX_DECIMALS]}.{digits[-MAX_DECIMALS:]}"


def test_a_percentage_is_not_an_expected_value() -> None:
    checked = check_answer("93.75%", Fraction(15, 16), probability=False)
    assert (checked.status, checked.mistake) == ("wrong", "percent-for-expected")
    assert "expected value" in checked.message and "without the % sign" in checked.message
    assert check_answer("0.9375", Fraction(15, 16), probability=False).status == "correct"
    assert check_answer("93.75%", Fraction(15, 16), probability=True).status == "correct"
    messages = {check_answer("93.75%", Fraction(15, 16), lang, probability=False).message for lang in LANGUAGES}
    assert len(messages) == len(LANGUAGES)
    for ex in EXERCISES:
        if not ex.probability:
            text = f"{float(ex.exact() * 100):.2f}%"
            assert check(ex, text).mistake == "percent-for-expected", ex.id
            found = diagnose(ex, text)
            assert found is not None and found.id == "percent-for-expected"


def test_every_question_states_the_deck_or_the_modifiers() -> None:
    words = {3: "three", 4: "four"}
    stated = ", ".join(f"{words[n]} {v}s" for v, n in COPIES.items())
    assert stated.replace(", three 6s", " and three 6s") in DECK  # the rulebook's deck, as the engine deals it
    assert "-3, -1, +2 and +4" in MODIFIER_SET and MODIFIERS == (-3, -1, 2, 4)
    t = translator("en")
    for ex in EXERCISES:
        stated = assumptions_text(instance(ex.id, 3), t)
        assert DECK in stated or MODIFIER_SET in stated, ex.id
    for ex_id in ("deal-any-six", "scholar-green", "two-scholars", "bonus-tie", "deck-short", "draws-until-green"):
        assert DECK in assumptions_text(instance(ex_id, 3), t), ex_id


@pytest.mark.parametrize("lang", LANGUAGES)
def test_paper_carries_no_screen_rule(lang: str) -> None:
    t = translator(lang)
    instances = [instance(ex.id, 1) for ex in EXERCISES]
    sheet = worksheet_html(instances, lang)
    for ex in instances:
        assert tolerance_text(ex, t) not in sheet  # the screen's rule, with its tolerance
        assert paper_rule(ex, t) in sheet
    assert "counts as correct" not in worksheet_html(instances, "en")


def test_past_the_answer_budget_no_number_is_checked_and_a_classic_is_still_named() -> None:
    """A search ends: from the ``ANSWER_BUDGET``-th answer on, even the exact answer is not
    checked (status invalid: not counted, not stored), the sentence says why and what to do, in
    the learner's language; a classic mistake is still named, as the method's diagnosis."""
    from capital_lux.lessons.problems.checker import ANSWER_BUDGET, classic_values, format_number

    ex = EXERCISES_BY_ID["deal-any-six"]
    exact = format_number(ex.exact())
    assert check(ex, exact, "en", previous=ANSWER_BUDGET - 1).status == "correct"
    late = check(ex, exact, "en", previous=ANSWER_BUDGET)
    assert late.status == "invalid" and "no longer checks numbers" in late.message
    assert f"{ANSWER_BUDGET} answers" in late.message
    assert check(ex, exact, "fr", previous=ANSWER_BUDGET).message != late.message  # in French
    mistake, value = classic_values(ex)[0]
    named = check(ex, format_number(value), "en", previous=ANSWER_BUDGET)
    assert named.status == "wrong" and named.mistake == mistake.id
    assert check(ex, "a lot", "en", previous=ANSWER_BUDGET).status == "invalid"  # unreadable: as before
