"""The what-if page's last message follows a language switch, like its log."""

from __future__ import annotations

import pytest

from capital_lux.i18n import translator


@pytest.mark.parametrize("lang", ["fr", "es", "pt"])
def test_the_played_line_follows_a_language_switch(lang: str) -> None:
    from capital_lux.tutor.whatif_app import build_app

    app = build_app(lang="en", name="rulebook-bonus")._whatif
    app.move.value = app.move.options[0][1]
    app.play()
    assert "Played: " in app.message.value
    app.set_language(lang)
    played = translator(lang).gettext("Played: {move}").split("{")[0]
    assert played != "Played: " and played.strip() in app.message.value and "Played" not in app.message.value


def test_a_risk_line_never_says_your_gold_would_keep_it_without_gold() -> None:
    from fractions import Fraction

    from capital_lux.analysis.forward import ForwardColour
    from capital_lux.analysis.stats import Estimate
    from capital_lux.tutor.riskline import colour_line

    none = Estimate.exactly(Fraction(0))
    kept = ForwardColour("B", Estimate.proportion(3, 10), none, none, Estimate.exactly(Fraction(1)))
    for lang in ("en", "fr", "es", "pt"):
        t = translator(lang)
        with_gold = colour_line(t, "B", kept, 2, False)
        without = colour_line(t, "B", kept, 0, False)
        assert with_gold != without
        assert t.gettext("{colour}: {p} chance of exceeding its limit; your gold would keep it.").split(";")[1] \
            not in without
