"""A review whose time paid for fewer games than its own says so, in four languages: the reader
learns why more of its verdicts cannot tell."""

from __future__ import annotations

import pytest

from capital_lux.analysis.review import Decision, Points, Review
from capital_lux.analysis.review_text import method_sentences
from capital_lux.i18n import translator


def _decision(index: int, games: int) -> Decision:
    return Decision(index, 0, 1, "play", 3, "home B5", "capital B5", Points(1.0, 0.1), Points(3.0, 0.1), 2.0, 0.2,
                    "mistake", games)


def _review(*games: int) -> Review:
    return Review(2, 3, 0, "rule", 0, 100, [_decision(i, g) for i, g in enumerate(games)], True)


@pytest.mark.parametrize("lang", ["en", "fr", "es", "pt"])
def test_decisions_judged_on_fewer_games_are_counted_with_the_fewest(lang: str) -> None:
    t = translator(lang)
    whole = method_sentences(t, _review(100, 0, 100))  # every simulated decision on its 100 games, one exact
    cut = method_sentences(t, _review(100, 37, 0, 64))
    extra = [s for s in cut if s not in whole]
    assert len(cut) == len(whole) + 1 and len(extra) == 1
    assert "2" in extra[0] and "37" in extra[0] and "100" in extra[0] and "64" not in extra[0]
    one = [s for s in method_sentences(t, _review(100, 12)) if s not in whole][0]
    assert "12" in one and one != extra[0]  # the singular's own sentence
