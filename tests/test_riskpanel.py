"""The risk panel and the move comparison: labels, exact or interval, no peeking, cancelling."""

from __future__ import annotations

import random
import re

import pytest

from capital_lux.engine.game import Game
from capital_lux.engine.position import arrange
from capital_lux.engine.views import PlayerView, sample_hidden, view
from capital_lux.i18n import translator
from capital_lux.players.bots import RuleOfThumbBot
from capital_lux.tutor.riskpanel import MoveComparison, RiskPanel

EN, FR = translator("en"), translator("fr")
METHOD = re.compile(r"exact|simulated \([\d,]+ games, ±[\d.]+ points\)")


def small_table() -> PlayerView:
    s = arrange(2, hands=["Y3 B6", "P5"], hometowns=["Y6 B3", "P5"], capital="Y5 B4 P3 G2",
                modifiers_above=[("Y", 1, -1), ("B", 0, 2)])
    return view(s, 0)


def mid_round(seed: int = 5) -> tuple[Game, int]:
    game, rng, bot = Game(3, seed=seed), random.Random(seed), RuleOfThumbBot()
    while not (game.state.phase == "play" and len(game.state.hands[game.state.current]) == 2):
        game.play(bot.choose(view(game.state, game.state.current), rng))
    return game, game.state.current


def panel_text(panel: RiskPanel, t: object, v: PlayerView) -> str:
    panel.render(t, v)  # type: ignore[arg-type]
    panel.wait(120)
    return str(panel.html.value)


def quick() -> RiskPanel:
    """A panel that settles for fewer games, so tests stay quick."""
    return RiskPanel(samples=100, exact_limit=400)


def test_panel_shows_now_beside_the_round_end_and_says_exact_or_interval() -> None:
    panel = quick()
    html = panel_text(panel, EN, small_table())
    assert "If the round ended now" in html
    assert "At the round end, if the others play like the rule-of-thumb bot" in html
    assert METHOD.search(html), html
    assert "…" not in html  # the forward figures arrived
    assert html.count('class="cl-risk-forward"') == 4 and html.count('class="cl-risk-now"') == 4
    panel.model.value = "random"
    panel.wait(120)
    assert "play like the random bot" in panel.html.value


def test_panel_speaks_french() -> None:
    html = panel_text(quick(), FR, small_table())
    assert "Si la manche finissait maintenant" in html and ("exact" in html or "simulé" in html)


def test_panel_numbers_do_not_depend_on_what_the_learner_cannot_see() -> None:
    game, p = mid_round()
    other = sample_hidden(game.state, p, random.Random(3))
    assert other != game.state
    a = panel_text(quick(), EN, view(game.state, p))
    b = panel_text(quick(), EN, view(other, p))
    assert a == b and METHOD.search(a)


def test_comparison_ranks_every_move_with_learner_labels_and_can_be_cancelled() -> None:
    v = small_table()
    comparison = MoveComparison()
    comparison.start(EN, v, model="random", placement="random", max_samples=100, exact_limit=0)
    comparison.wait(120)
    html = comparison.html.value
    assert html.count("<tr>") == len(v.legal_actions) + 1
    assert "Merchant 3" in html and not re.search(r"\b[BGPY][2-6]\b", html)
    assert comparison.progress.layout.display == "none" and comparison.image.layout.display is None
    game, p = mid_round()
    comparison.start(EN, view(game.state, p))
    comparison.cancel()
    comparison.wait(120)
    assert comparison.html.value == ""


@pytest.mark.slow
def test_timeline_keeps_the_forward_risk_after_each_of_the_learners_plays() -> None:
    from capital_lux.engine.notation import Play

    game, rng, bot = Game(2, seed=3), random.Random(3), RuleOfThumbBot()
    panel = RiskPanel(samples=60, exact_limit=300)
    panel.chart_toggle.value = True
    learner, labels = 0, []
    while game.state.round == 1:
        s = game.state
        if s.phase == "play" and s.current == learner:
            panel.render(EN, view(s, learner))
            panel.wait(120)
        action = bot.choose(view(s, s.current), rng)
        if s.phase == "play" and s.current == learner:
            assert isinstance(action, Play)
            labels.append(action)
        game.play(action)
    assert len(panel.timeline) == len(labels) >= 3
    assert [a for a, _ in panel.timeline[1:]] == labels[:-1]  # each point follows the play before it
    assert panel.image.layout.display is None and panel.image.value[:4] == b"\x89PNG"


def test_hint_panel_compare_button_fills_the_comparison() -> None:
    from capital_lux.tutor.extras import HintPanel

    hint = HintPanel(lambda action: None)
    v = small_table()
    hint.render(EN, v)
    hint.compare.click()
    hint.comparison.wait(300)
    assert hint.comparison.html.value.count("<tr>") == len(v.legal_actions) + 1
    hint.render(EN, v)  # a new table clears the old comparison
    assert hint.comparison.html.value == ""
