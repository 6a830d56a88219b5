"""Why, in the tutor's words: every key moment and every mistake of a review has a reason
sentence, from the review's own figures, in four languages."""

from __future__ import annotations

import pytest

from capital_lux.analysis.review import Decision, Points, review_game
from capital_lux.analysis.review_text import COLOUR_REASON, reason_sentence, review_text
from capital_lux.i18n import translator
from capital_lux.i18n.formatting import format_percent
from test_review import QUICK, played_game

LANGS = ("en", "fr", "es", "pt")


@pytest.fixture(scope="module")
def reviewed() -> object:
    record = played_game(2, 3, ["random", "rule"])
    return review_game(record, 0, seats=[0], horizon="round", budget=None, **QUICK)  # type: ignore[arg-type]


def test_every_key_moment_and_every_mistake_has_a_reason_in_four_languages(reviewed: object) -> None:
    review = reviewed
    moments = review.key_moments()  # type: ignore[attr-defined]
    mistakes = [d for d in review.of_seat(0) if d.verdict not in ("best", "good")]  # type: ignore[attr-defined]
    assert moments and mistakes
    for d in {d.index: d for d in [*moments, *mistakes]}.values():
        said = {lang: reason_sentence(translator(lang), d) for lang in LANGS}
        assert all(s.endswith(".") and len(s) > 40 for s in said.values())
        assert len(set(said.values())) == 4  # each in its own language
        if d.played_gold is not None:  # the gold each choice paid, as the review found it
            assert str(d.played_gold) in said["en"] and str(d.best_gold) in said["en"]
        elif abs((d.played_colour_risk or 0) - (d.best_colour_risk or 0)) >= COLOUR_REASON:
            for lang, text in said.items():  # the colour's two chances, in the reader's locale
                assert format_percent(d.played_colour_risk or 0.0, lang) in text
                assert format_percent(d.best_colour_risk or 0.0, lang) in text
    for lang in LANGS:  # the command line's key moments carry them too
        text = review_text(translator(lang), review)  # type: ignore[arg-type]
        assert all(reason_sentence(translator(lang), d) in text for d in moments)


def _decision(played: str, best: str, **why: object) -> Decision:
    return Decision(5, 0, 1, "draft", 3, played, best, Points(1.0, 0.1), Points(3.0, 0.1), 2.0, 0.2, "mistake", 40,
                    **why)  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", LANGS)
def test_each_kind_of_reason_names_its_figure(lang: str) -> None:
    t = translator(lang)
    risk = reason_sentence(t, _decision("pick B5 G2", "pick B5 Y3", colour="B", played_colour_risk=0.42,
                                        best_colour_risk=0.1))
    assert format_percent(0.42, lang) in risk and format_percent(0.1, lang) in risk
    assert t.colour("B") in risk
    passed = reason_sentence(t, _decision("pick B5 G2", "pick B5 Y3", colour="B", played_colour_risk=0.1,
                                          best_colour_risk=0.11))  # the risk barely moved: the card passed on
    assert "3" in passed and t.role("Y") in passed and passed != risk
    gold = reason_sentence(t, _decision("save B P", "save B", played_gold=5, best_gold=2))
    assert "5" in gold and "2" in gold
    plain = reason_sentence(t, _decision("home B5", "capital B5", colour="B", played_colour_risk=0.1,
                                         best_colour_risk=0.1))
    assert plain not in (risk, passed, gold)
