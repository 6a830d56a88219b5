"""The risk lines beside the hand: one per colour, the panel's own figures, wording that never
contradicts its number (no 0% or 100% unless exact; a note when gold covers a colour), in
the four languages."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from capital_lux.analysis.forward import ForwardColour, ForwardRisk
from capital_lux.analysis.risk import Estimate
from capital_lux.engine.cards import COLOURS, SYMBOLS
from capital_lux.engine.position import arrange
from capital_lux.engine.views import view
from capital_lux.i18n import LANGUAGES, translator
from capital_lux.i18n.sentences import colour_text
from capital_lux.tutor.riskline import chance, colour_line, risk_lines, risk_lines_html
from capital_lux.tutor.riskpanel import RiskPanel

#: A percentage that reads as certain: 0% or 100% in any of the four locales.
CERTAIN = re.compile(r"(?<![\d.,])(0|100)\s?%")
#: "your gold" in each language's sentences.
GOLD = {"en": "gold", "fr": " or", "es": "oro", "pt": "ouro"}


def estimate(p: float, n: int = 400) -> Estimate:
    return Estimate.proportion(round(p * n), n)


def points(x: float) -> Estimate:
    return Estimate(x, max(0.0, x - 0.1), x + 0.1, 400)


def figure(q: Fraction | Estimate) -> Estimate:
    return Estimate.exactly(q) if isinstance(q, Fraction) else q


def figures(p: Fraction | Estimate, lost: Fraction | Estimate) -> ForwardColour:
    return ForwardColour("Y", p_exceed=figure(p), cards_lost=figure(lost), points_lost=figure(lost),
                         gold_needed=figure(lost))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_zero_and_a_hundred_percent_only_when_exact(lang: str) -> None:
    t = translator(lang)
    assert CERTAIN.search(chance(Fraction(0), t)) and CERTAIN.search(chance(Fraction(1), t))
    near = [estimate(0), estimate(1), estimate(0.002), Fraction(1, 1000), Fraction(999, 1000),
            Estimate(0.9996, 0.999, 1.0, 10_000), Estimate(0.0004, 0.0, 0.001, 10_000)]
    for p in near:
        text = chance(p, t)
        assert not CERTAIN.search(text), (p, text)
        assert ("99" if figure(p).mean > 0.5 else "1") in text  # "over 99%" / "under 1%"
    assert chance(estimate(0.0), t) == chance(Fraction(1, 1000), t)  # "under 1%", simulated or exact
    assert chance(estimate(0.25), t, approx=True).startswith("≈")
    assert not chance(Fraction(1, 4), t, approx=True).startswith("≈")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_colour_gold_covers_says_so_and_a_loss_is_never_zero_points(lang: str) -> None:
    t = translator(lang)
    covered = colour_line(t, "Y", figures(estimate(0.255), points(0.0)), gold=3, approx=True)
    assert GOLD[lang] in covered and CERTAIN.search(covered) is None
    exact_cover = colour_line(t, "Y", figures(Fraction(1, 4), Fraction(0)), gold=3, approx=False)
    assert GOLD[lang] in exact_cover and "≈" not in exact_cover
    short = colour_line(t, "Y", figures(estimate(0.3), points(0.7)), gold=1, approx=True)
    none = colour_line(t, "Y", figures(estimate(0.3), points(0.7)), gold=0, approx=True)
    assert len({covered, short, none}) == 3  # what gold does, told apart
    assert all(re.search(r"0[.,]7", line) for line in (short, none))
    tiny = colour_line(t, "Y", figures(estimate(0.02), points(0.01)), gold=0, approx=True)
    assert not re.search(r"(?<![\d.,])0[.,]0(?!\d)", tiny), tiny  # "under 0.1", never "0.0" points lost
    safe = colour_line(t, "Y", figures(Fraction(0), Fraction(0)), gold=0, approx=False)
    assert "%" not in safe and GOLD[lang] not in safe  # exactly no chance: nothing for gold to do


#: A line's two figures: "now" (the learner's cards as they stand), then the round end's.
NOW = {"en": " now, ", "fr": " maintenant, ", "es": " ahora, ", "pt": " agora, "}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_line_separates_the_learner_s_own_cards_from_the_others_and_the_draws(lang: str) -> None:
    t = translator(lang)
    later = figures(estimate(0.3), points(0.7))
    line = colour_line(t, "Y", later, gold=0, approx=True, now=Fraction(1, 10))
    first, second = line.split(NOW[lang], 1)
    assert first.endswith(chance(Fraction(1, 10), t)) and second.startswith(chance(estimate(0.3), t, approx=True))
    assert re.search(r"0[.,]7", second) and colour_text(t, "Y") in first
    cases = {colour_line(t, "Y", f, gold=g, approx=True, now=n)
             for f, g in ((later, 0), (later, 2), (figures(estimate(0.3), points(0.0)), 0),
                          (figures(estimate(0.3), points(0.0)), 2), (figures(Fraction(0), Fraction(0)), 0))
             for n in (Fraction(0), Fraction(1, 10), Fraction(1))}
    assert len(cases) == 15  # every case its own words
    for text in cases:  # the round end's figure, simulated, is never a bare 0% or 100%
        assert NOW[lang] in text or text.endswith(".") and not CERTAIN.search(text.split(NOW[lang])[-1]), text
    assert colour_line(t, "Y", figures(Fraction(0), Fraction(0)), 0, False, now=Fraction(0)) == \
        t.gettext("{colour}: no chance of exceeding its limit.").format(colour=colour_text(t, "Y"))
    # the heading says which is which: the learner's choice, then the others' cards and the draws
    s = arrange(2, hands=["Y3 B6", "P5"], hometowns=["Y6 B3", "P5"], capital="Y5 B4 P3 G2")
    zero = estimate(0.0)
    risk = ForwardRisk("rule", "bayes", False, 400, {c: later for c in COLOURS}, zero, zero, points(0.0), zero)
    head = risk_lines(t, view(s, 0), risk, "bot")[0]
    said = t.gettext("Chance of exceeding: now, with your cards as they stand (your choice); at the round end, after "
                     "the others' cards and the draws, all playing like the {bot} (≈: simulated on {n} games, ±{x} "
                     "percentage points):")
    assert head.startswith(said.split("{bot}")[0].format(bot="bot")) and "400" in head


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_line_per_colour_names_the_colour_in_words(lang: str) -> None:
    t = translator(lang)
    s = arrange(2, hands=["Y3 B6", "P5"], hometowns=["Y6 B3", "P5"], capital="Y5 B4 P3 G2")
    v = view(s, 0)
    colours = {c: ForwardColour(c, estimate(0.1 * (i + 1)), points(0.3), points(0.3), points(0.3))
               for i, c in enumerate(COLOURS)}
    zero = estimate(0.0)
    risk = ForwardRisk("rule", "bayes", False, 400, colours, zero, zero, points(0.0), zero)
    head, *lines = risk_lines(t, v, risk, "bot")
    assert len(lines) == 4 and "400" in head and "≈" in head
    for c, line in zip(COLOURS, lines):
        assert SYMBOLS[c] in line and t.colour(c) in line and t.role(c) in line
    html = risk_lines_html(t, v, risk, "bot")
    assert [m for m in re.findall(r'data-colour="(\w)"', html)] == list(COLOURS)
    assert risk_lines(t, v, None, "bot") == [t.gettext("Working out the round end…")]


def test_the_panel_lines_show_the_tables_figures_and_the_gold_as_a_chance_of_loss() -> None:
    t = translator("en")
    s = arrange(2, hands=["Y3 B6", "P5"], hometowns=["Y6 B3", "P5"], capital="Y5 B4 P3 G2",
                modifiers_above=[("Y", 1, -1), ("B", 0, 2)])
    panel = RiskPanel(samples=100, exact_ms=50)
    panel.render(t, view(s, 0))
    panel.wait(120)
    table, lines = str(panel.html.value), str(panel.lines.value)
    for c in COLOURS:  # the same figure in the line and in the table's round-end column
        shown = re.search(rf'<tr data-colour="{c}">.*?cl-risk-forward">([^<]*)<', table)
        line = re.search(rf'data-colour="{c}">([^<]*)<', lines)
        assert shown is not None and line is not None
        assert shown.group(1) in line.group(1) or (shown.group(1) == "0%" and "no chance" in line.group(1))
        held = re.search(rf'<tr data-colour="{c}">.*?cl-risk-now">([^<]*)<', table)  # the cards as they stand
        assert held is not None
        assert held.group(1) in line.group(1) or (held.group(1) == "0%" and "no chance" in line.group(1))
        assert " now, " in line.group(1) or line.group(1).endswith("no chance of exceeding its limit.")
    assert "keeps every colour" not in table and "too little to keep every colour that exceeds" in table
    panel.show.value = False
    assert panel.lines.value == ""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_gold_is_never_said_to_keep_a_colour_no_game_saw_exceed(lang: str) -> None:
    """A simulated 0% ("under 1%") with nothing lost: no gold kept anything, in either form of
    the line, with or without gold; the two forms come from one table of sentences."""
    t = translator(lang)
    unseen = figures(estimate(0.0), points(0.0))
    for gold in (0, 2):
        for now in (None, Fraction(1, 10)):
            line = colour_line(t, "Y", unseen, gold=gold, approx=True, now=now)
            assert GOLD[lang] not in line, line
            assert chance(estimate(0.0), t, approx=True) in line
