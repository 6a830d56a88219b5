"""The review always finishes within its budget, every decision judged at the depth the budget
allows and saying so; the chart never runs past what was judged; "Learn from your mistakes"
belongs to its own game."""

from __future__ import annotations

import time
from typing import Any

import pytest

from capital_lux.analysis.review import (GAME_HORIZON, HORIZON, REVIEW_BUDGET, Review, decisions_of, review_game)
from capital_lux.analysis.review_text import method_sentences, table_rows
from capital_lux.engine.game import GameRecord
from capital_lux.i18n import translator
from test_review import QUICK, played_game


@pytest.mark.slow
def test_a_4_player_game_s_review_judges_every_decision_within_the_default_budget() -> None:
    record = played_game(4, 2, ["random", "rule", "rule", "random"])
    began = time.thread_time()
    review = review_game(record, 0)  # every default: to the round's end, within REVIEW_BUDGET
    spent = time.thread_time() - began
    assert [d.index for d in review.decisions] == [i for i, _, _ in decisions_of(record)]  # all, every seat
    assert spent < 30.0  # seconds of this thread's CPU: the bound (the budget is REVIEW_BUDGET)
    assert REVIEW_BUDGET < 30.0
    assert review.horizon == HORIZON and all(d.horizon == HORIZON for d in review.decisions)
    rows = table_rows(translator("en"), review.decisions, review)
    assert not any("judged to the round's end" in row[-1] for row in rows)  # the review's own horizon: no remark
    said = " ".join(method_sentences(translator("en"), review))
    assert "judged to the round's end instead" not in said and "effect on the final result" in said


def test_a_tight_budget_judges_every_decision_to_the_round_s_end_and_the_chart_stops_there() -> None:
    record = played_game(2, 3, ["random", "rule"])
    review = review_game(record, 0, budget=0.0, horizon="game", **QUICK)  # type: ignore[arg-type]
    assert [d.index for d in review.decisions] == [i for i, _, _ in decisions_of(record)]
    assert {d.horizon for d in review.decisions} == {HORIZON} and review.horizon == GAME_HORIZON
    # none was judged to the game's end: nothing of the game's end is charted, no "luck" counted
    assert review.series() == [] and review.steps() == []
    assert all("judged to the round's end" in row[-1] for row in table_rows(translator("en"), review.decisions,
                                                                            review))


def test_a_review_not_judged_through_charts_nothing_past_its_last_decision() -> None:
    record = played_game(2, 3, ["random", "rule"])
    whole = review_game(record, 0, seats=[0], horizon="round", budget=None, **QUICK)  # type: ignore[arg-type]
    cut = [d for d in whole.decisions if d.round == 1]
    partial = Review(whole.players, whole.seed, 0, whole.model, whole.review_seed, whole.games, cut, True,
                     whole.horizon, round_ends=whole.round_ends, judged_all=False)
    last = max(d.index for d in cut)
    assert all(p.index <= last for p in partial.series())
    assert len([p for p in whole.series() if p.kind == "round_end"]) == 3
    to_end = Review(whole.players, whole.seed, 0, whole.model, whole.review_seed, whole.games,
                    [d.__class__(**{**d.__dict__, "horizon": GAME_HORIZON}) for d in cut], True, GAME_HORIZON,
                    round_ends=whole.round_ends, judged_all=False)
    assert not [p for p in to_end.series() if p.kind == "round_end"]  # no final margin: rounds 2 and 3 unjudged


# -- learn from your mistakes, game after game ----------------------------------------------------
def _finish(free: Any, pick: int) -> None:
    while not free.panel.session.is_over():
        legal = free.panel.session.view().legal_actions
        free.panel._act(legal[pick % len(legal)])


def test_learn_from_your_mistakes_after_a_second_game_is_the_second_game_s() -> None:
    from capital_lux.tutor.app import build_app
    from capital_lux.tutor.work import WorkRunner

    free = build_app("en", players=2, seed=5, bot_kind="rule", opening="free")._tutor.free_play
    review = free.review
    review.runner = runner = WorkRunner(budget_seconds=300)
    options = {**QUICK, "horizon": "round"}
    try:
        _finish(free, -1)
        review.start(**options)  # type: ignore[arg-type]
        review.wait(300)
        assert review.mistakes
        first = review.mistakes[0]
        old_buttons = review.tries.children
        wrong = [m for m, _ in first.moves if m != first.played and first.verdict_for(m) not in ("best", "good")]
        review.try_move(wrong[0] if wrong else first.played)
        assert "Try again" in review.feedback.value or "the move you played" in review.feedback.value

        free.start()  # the second game
        assert review.feedback.value == ""
        _finish(free, 0)
        record = free.panel.session.game.record()
        review.start(**options)  # type: ignore[arg-type]
        review.wait(300)
        assert review.complete and review.review is not None and review.review.seed == record.seed
        assert review.feedback.value == ""  # nothing of the first game under the second's position
        assert review.mistakes, "the second game needs a mistake to retry"
        d = review.mistakes[0]
        seen = {i: v for i, v, _ in decisions_of(record) if v.viewer == 0}
        assert review.views[d.index] == seen[d.index]  # the second game's own position
        assert str(d.index + 1) in review.learn_title.value
        assert GameRecord(record.players, record.seed, record.actions).actions[d.index] is not None
        # a button left from the first game changes nothing
        if old_buttons:
            old_buttons[0].click()
            assert review.feedback.value == ""
        assert review.try_move(d.played) == d.verdict and "the move you played" in review.feedback.value
        best = d.moves[0][0]
        assert review.try_move(best) == "best" and "Well found" in review.feedback.value
    finally:
        runner.close()


def test_the_review_reads_where_the_others_placed_their_modifiers() -> None:
    from capital_lux.analysis.review import placements_of
    from capital_lux.engine.game import replay

    record = played_game(3, 1, ["random", "rule", "random"])
    placed = placements_of(record)
    assert set(placed) == {i for i, _, _ in decisions_of(record)}
    seen_any = False
    for index, views in placed.items():
        s = replay(record.players, record.actions[:index])
        seat = s.current_player()
        others_down = {(c, i) for c in s.modifiers_above for i, (owner, _) in enumerate(s.modifiers_above[c])
                       if owner != seat}
        assert set(views) == others_down  # every other player's modifier on the table, none of one's own
        for (c, i), before in views.items():  # the decider's view just before it went down, by its placer
            assert before.viewer == seat and before.current == s.modifiers_above[c][i][0]
            seen_any = True
    assert seen_any


def test_a_budget_short_of_the_games_judges_each_decision_on_as_many_as_its_share_pays_for(monkeypatch: Any) -> None:
    """On a clock that charges each decision for the games it played (a machine of known speed:
    deterministic), a budget half of what every game would cost still judges every decision:
    the first on all their games, later ones on as many as their share of what is left pays for,
    never fewer than ``FEWEST_GAMES``, and each says how many it was judged on."""
    from capital_lux.analysis import review as module

    record = played_game(2, 3, ["random", "rule"])
    now = [0.0]
    judge = module.judge

    def charged(v: Any, *args: Any, **kwargs: Any) -> Any:
        decision = judge(v, *args, **kwargs)
        now[0] += 0.001 * len(v.legal_actions) * decision.games  # a millisecond a game a move
        return decision

    monkeypatch.setattr(module, "judge", charged)
    games = 40
    found = decisions_of(record)
    every_game = 0.001 * games * sum(len(v.legal_actions) for _, v, _ in found)
    review = review_game(record, 0, games=games, min_games=games, exact_ms=10.0, budget=every_game / 2,
                         clock=lambda: now[0])
    assert [d.index for d in review.decisions] == [i for i, _, _ in found]
    simulated = [d.games for d in review.decisions if d.games]
    assert all(module.FEWEST_GAMES <= n <= games for n in simulated)
    assert simulated[0] == games and min(simulated) < games
    assert any(module.FEWEST_GAMES < n < games for n in simulated)  # as many as paid for, not all or the fewest
