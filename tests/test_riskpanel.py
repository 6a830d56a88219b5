"""The risk panel and the move comparison: labels, exact or interval, no peeking, cancelling."""

from __future__ import annotations

import random
import re
import threading

import pytest

from capital_lux.engine.game import Game
from capital_lux.engine.position import arrange
from capital_lux.engine.views import PlayerView, sample_hidden, view
from capital_lux.i18n import translator
from capital_lux.players.bots import RuleOfThumbBot
from capital_lux.analysis.forward import Cancelled
from capital_lux.tutor.riskpanel import MoveComparison, RiskPanel
from capital_lux.tutor.work import WorkRunner, WorkStopped

EN, FR = translator("en"), translator("fr")
METHOD = re.compile(r"exact|simulated \([\d,]+ games, ±[\d.]+ points\)")


def small_table() -> PlayerView:
    s = arrange(2, hands=["Y3 B6", "P5"], hometowns=["Y6 B3", "P5"], capital="Y5 B4 P3 G2",
                modifiers_above=[("Y", 1, -1), ("B", 0, 2)])
    return view(s, 0)


def last_turn_small_deck() -> PlayerView:
    """Your last card, then the other player's last turn, with all but three unseen cards out
    of the game (discarded): a tree small enough to enumerate."""
    from capital_lux.engine.cards import ALL_CARDS, Card, full_deck_counts

    hands, hometowns, capital = ["Y3", "B6"], ["Y6 B3", "P5"], "Y5 B4 P3 G2"
    counts = full_deck_counts()
    for text in " ".join([*hands, *hometowns, capital, "P2 B4 G5"]).split():
        counts[ALL_CARDS.index(Card.parse(text))] -= 1
    discards = " ".join(str(card) for card, n in zip(ALL_CARDS, counts) for _ in range(n))
    s = arrange(2, discards=discards, hands=hands, hometowns=hometowns, capital=capital,
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
    return RiskPanel(samples=100, exact_ms=50)


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
    comparison.start(EN, v, model="random", placement="random", games=100 * len(v.legal_actions), exact_ms=0)
    comparison.wait(120)
    html = comparison.html.value
    assert html.count("<tr") == len(v.legal_actions) + 1
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
    panel = RiskPanel(samples=60, exact_ms=50)
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


def test_the_hint_panel_has_one_comparison_the_risk_panels() -> None:
    """The quick 24-deal table without margins of error is gone: the moves are compared in
    the risk panel, and the hint says how its ranking differs."""
    from capital_lux.tutor.extras import HintPanel

    hint = HintPanel(lambda action: None)
    hint.render(EN, small_table())
    assert not hasattr(hint, "compare") and not hasattr(hint, "table")
    hint.button.click()
    assert "Compare my moves at the round end" in hint.html.value


# -- "Compare my moves at the round end": through the session's work runner ----------------------
class Spy:
    """Wraps ``rank_moves`` to note what the panel asked for and on which thread it ran."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from capital_lux.analysis import forward

        self.calls: list[dict[str, object]] = []
        real = forward.rank_moves

        def spy(v: PlayerView, model: str = "rule", placement: str = "bayes", **options: object) -> object:
            self.calls.append({"model": model, "placement": placement, "thread": threading.current_thread().name,
                               "placement_views": options.get("placement_views")})
            return real(v, model, placement, **options)  # type: ignore[arg-type]

        monkeypatch.setattr(forward, "rank_moves", spy)


def test_panel_compares_through_the_work_runner_with_the_chosen_model_and_progress(
        monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch)
    runner = WorkRunner(budget_seconds=600)
    panel = RiskPanel(samples=60, exact_ms=50, runner=runner)
    panel.compare_options = {"games": 800, "exact_ms": 0}
    seen: list[float] = []
    panel.comparison.progress.observe(lambda change: seen.append(change["new"]), names="value")
    v = small_table()
    before = {("Y", 0): v}
    panel.render(EN, v, placement_views=before)
    assert panel.compare_button.description == "Compare my moves at the round end"
    panel.model.value, panel.placement.value = "random", "random"
    job = panel.compare()
    assert job is not None and panel.comparison.runner is runner and panel.comparison.job is job
    ranking = job.result(120)
    assert ranking is not None and {m.risk.model for m in ranking.moves} == {"random"}
    assert {m.risk.placement for m in ranking.moves} == {"random"}
    assert spy.calls == [{"model": "random", "placement": "random", "thread": spy.calls[0]["thread"],
                          "placement_views": before}]
    assert str(spy.calls[0]["thread"]).startswith("capital-lux-work")  # off the kernel's main thread
    assert seen and seen == sorted(seen) and seen[-1] == pytest.approx(1.0)
    html = panel.comparison.html.value
    assert "if the others play like the random bot" in html and "± gives the 95% interval" in html
    assert "±" in html.split("<table")[1]  # every figure carries its interval
    assert panel.comparison.progress.layout.display == "none" and panel.comparison.stop.layout.display == "none"
    panel.render(EN, v, placement_views=before)  # the same table: the comparison stays
    assert panel.comparison.html.value == html
    panel.model.value = "rule"  # another model: that comparison no longer applies
    assert panel.comparison.html.value == ""
    runner.close()


def test_panel_comparison_says_exact_when_it_is() -> None:
    panel = RiskPanel(samples=60, exact_ms=50)
    panel.render(EN, last_turn_small_deck())
    panel.model.value = "random"
    job = panel.compare()
    assert job is not None
    ranking = job.result(120)
    assert ranking is not None and all(m.risk.exact for m in ranking.moves)
    html = panel.comparison.html.value
    assert "Exact, if the others play like the random bot." in html and "±" not in html
    panel.render(FR, last_turn_small_deck())
    assert panel.compare_button.description == "Comparer mes coups à la fin de la manche"


def test_the_stop_button_cancels_the_comparison_and_a_new_request_replaces_it() -> None:
    game, p = mid_round()
    runner = WorkRunner(budget_seconds=600)
    comparison = MoveComparison(runner)
    started = threading.Event()
    comparison.progress.observe(lambda change: started.set(), names="value")
    job = comparison.start(EN, view(game.state, p), model="random", placement="random", exact_ms=0,
                           min_games=100_000, batch=20)
    assert comparison.stop.layout.display is None and comparison.stop.description == "Stop"
    assert started.wait(120)  # it reports progress while it runs
    comparison.stop.click()
    with pytest.raises((WorkStopped, Cancelled)):
        job.result(120)
    assert job.cancelled and comparison.html.value == "" and comparison.progress.layout.display == "none"
    first = comparison.start(EN, view(game.state, p), model="random", exact_ms=0, min_games=100_000, batch=20)
    latest = comparison.start(EN, small_table(), model="random", placement="random")
    assert latest.result(120) is not None
    assert first.cancelled and "<table" in comparison.html.value
    runner.close()


def test_a_comparison_over_the_time_budget_says_so_and_keeps_the_figures_so_far() -> None:
    now = [0.0]
    runner = WorkRunner(budget_seconds=5, clock=lambda: now[0])
    comparison = MoveComparison(runner)
    shown: list[str] = []

    def watch(change: dict[str, str]) -> None:
        shown.append(change["new"])
        if "<table" in change["new"]:
            now[0] = 100.0  # the first partial ranking is on show: the budget runs out now

    comparison.html.observe(watch, names="value")
    job = comparison.start(EN, small_table(), model="random", placement="random", exact_ms=0, min_games=100_000,
                           batch=10)
    with pytest.raises((WorkStopped, Cancelled)):
        job.result(120)
    assert "<table" in shown[0]  # shown while it ran
    html = comparison.html.value
    assert "it took longer than the time allowed. The figures above come from the games played so far" in html
    assert "<table" in html and "±" in html and not job.cancelled
    assert comparison.progress.layout.display == "none"
    runner.close()


def test_session_keeps_the_learners_view_before_each_face_down_modifier_of_the_others() -> None:
    from capital_lux.analysis.modifiers import hidden_modifiers
    from capital_lux.tutor.session import Session

    bot = RuleOfThumbBot()
    checked = 0
    for seed in range(6):
        session, rng = Session.new(4, seed=seed, bot_kind="rule"), random.Random(seed)
        while not session.is_over() and session.state.round <= 2:
            views = session.placement_views()
            for h in hidden_modifiers(session.view()):
                if h.colour is None:
                    continue
                before = views[(h.colour, h.index)]  # every one placed during the session
                assert before.viewer == 0 and before.current == h.owner and before.phase == "agent"
                assert len(before.modifiers_above[h.colour]) == h.index  # it was not there yet
                checked += 1
            assert all(key[1] < len(session.state.modifiers_above[key[0]]) for key in views)
            session.play(bot.choose(session.view(), rng))
        if session.can_undo():
            session.undo()
            views = session.placement_views()
            assert all(before.current == session.state.modifiers_above[c][i][0] for (c, i), before in views.items())
    assert checked > 10


def test_the_game_panel_gives_the_risk_panel_the_sessions_placement_views(monkeypatch: pytest.MonkeyPatch) -> None:
    from capital_lux.tutor.panel import GamePanel
    from capital_lux.tutor.session import Session

    given: list[object] = []
    monkeypatch.setattr(RiskPanel, "_redraw", lambda self: given.append(self._placement_views))
    session = Session.new(4, seed=3, bot_kind="rule")  # a seed where another player places a modifier in round 1
    bot, rng = RuleOfThumbBot(), random.Random(3)
    while not session.placement_views() and session.state.round == 1:
        session.play(bot.choose(session.view(), rng))
    assert session.placement_views()  # another player's modifier lies face down
    GamePanel(EN, session)
    assert given and given[-1] == session.placement_views()
