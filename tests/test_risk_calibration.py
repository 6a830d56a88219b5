"""A smoke of ``bench risk_calibration``: the risk panel's chances set beside what happened at
each reveal, by bin, over seeded rule-of-thumb games (the whole benchmark runs 30 games)."""

from __future__ import annotations

import math

import pytest

from capital_lux.analysis import riskcalibration
from capital_lux.analysis.riskcalibration import (BINS, Case, cases_of, effective_count, exceeded, game_interval,
                                                  rule_game, summary)
from capital_lux.analysis.stats import wilson_interval
from capital_lux.engine.cards import COLOURS
from capital_lux.engine.rules import excess
from capital_lux.engine.state import GOLD, new_game


def test_what_happened_at_each_reveal_is_what_the_rules_say() -> None:
    """Wherever the game waits on a gold decision, the reveal's table is on show: every colour
    above its limit then is one ``exceeded`` counts, and no other colour of that round is."""
    record = rule_game(3)
    found = exceeded(record)
    checked = 0
    s = new_game(record.players)
    for action in record.actions:
        before = s.phase
        s.apply_action(action)
        if s.phase == GOLD and before != GOLD:  # just revealed, nothing paid or discarded yet
            over = {(s.round, q, c) for q in range(s.players) for c in COLOURS if excess(s, q, c)}
            assert over == {key for key in found if key[0] == s.round}
            checked += 1
    assert checked  # seed 3 pauses on gold at least once
    assert {rnd for rnd, _, _ in found} <= {1, 2, 3}


def test_bins_hold_every_case_and_their_intervals_their_frequency() -> None:
    cases = [Case(p / 20, False, p % 2 == 0, p % 3 == 0, "play") for p in range(21)]
    figures = summary(cases)
    counts = [figures[k] for k in figures if k.startswith("bin_") and k.endswith("_count")]
    assert len(counts) == len(BINS) and sum(counts) == len(cases)  # 1.0 falls in the last bin
    assert figures["bin_90_100_count"] == 3  # 0.90, 0.95 and 1.0
    assert figures["bin_90_100_observed"] == round(1 / 3, 4)  # only 0.90 (p = 18) came true
    assert figures["small_count"] == 1  # 0.05 only: 0 is not a small chance, and 0.10 is the next bin
    assert figures["brier"] == round(sum((c.shown - c.happened) ** 2 for c in cases) / len(cases), 4)


def test_a_short_run_gives_every_figure_and_never_contradicts_a_certainty() -> None:
    """The benchmark on one game: the panel's model, the draft's likelihood, and the two on the
    cases where the likelihood dealt from the draft (the same cases, so the same count)."""
    figures = riskcalibration.figures(games=1, every=8)
    for prefix in ("", "likelihood_"):
        assert figures[f"{prefix}cases"] > 0 and figures[f"{prefix}cases"] % len(COLOURS) == 0
        assert sum(figures[f"{prefix}bin_{round(lo * 100)}_{round(hi * 100)}_count"]
                   for lo, hi in zip((0.0, *BINS[:-1]), BINS)) == figures[f"{prefix}cases"]
        assert figures[f"{prefix}certain_wrong"] == 0  # an exact 0% never happened, an exact 100% always did
        assert 0 <= figures[f"{prefix}brier"] <= 1 and figures[f"{prefix}cpu_s"] >= 0
    for key, value in figures.items():
        if key.endswith("_observed"):
            assert figures[f"{key}_low"] <= value <= figures[f"{key}_high"]
            assert figures[f"{key[:-len('observed')]}games_low"] <= value <= figures[f"{key[:-len('observed')]}games_high"]
    assert all(math.isfinite(value) for value in figures.values())  # printed as JSON
    assert "bias" in figures and "bias_low" not in figures  # one game: no interval over games
    assert 0 < figures["likelihood_drafted_share"] < 1
    assert figures["drafted_panel_cases"] == figures["drafted_likelihood_cases"] > 0
    assert figures["likelihood_exact_share"] <= figures["exact_share"]  # a drafted world is simulated


def test_the_interval_over_games_is_wider_where_a_games_cases_go_together() -> None:
    """Ten games of twenty cases each, every case of a game alike (one reveal decides them): they
    are worth ten cases, not 200, and the honest interval is Wilson's on ten."""
    cases = [Case(0.5, False, False, g % 2 == 0, "play", g) for g in range(10) for _ in range(20)]
    assert abs(effective_count(cases) - 10 * 9 / 10) < 1e-9  # the variance over games carries 10/9
    assert game_interval(cases) == wilson_interval(4.5, 9)
    w_low, w_high = wilson_interval(100, 200)
    figures = summary(cases)
    assert figures["bin_50_75_games_low"] < w_low and figures["bin_50_75_games_high"] > w_high
    assert figures["bin_50_75_held"] == 1.0 and figures["bin_50_75_games_held"] == 1.0
    assert figures["games"] == 10 and figures["design_effect"] > 20


def test_independent_cases_keep_their_count_and_a_bias_shows_with_its_interval() -> None:
    """One case per game: the design effect is about 1 (never below), so the two intervals are
    alike; a chance shown 30% that happens 20% of the time is over-stated by 10 points."""
    cases = [Case(0.3, False, False, g % 10 < 2, "play", g) for g in range(400)]
    assert effective_count(cases) == pytest.approx(400, rel=0.01)
    figures = summary(cases)
    assert figures["bias"] == pytest.approx(0.10)
    assert 0 < figures["bias_low"] < 0.10 < figures["bias_high"] < 0.2
    none = [Case(0.01, False, False, False, "play", g // 4) for g in range(40)]
    assert effective_count(none, fallback=4.0) == 10  # nothing happened: the whole set's design effect


def test_an_oracle_takes_the_same_cases_and_the_truth_sharpens_them() -> None:
    """``bench risk_oracle``'s worlds: the same decisions and reveals as the panel's; given the
    others' hands and the face-down modifiers, the chances are sharper (a lower Brier score)."""
    record = rule_game(3)  # a game where some colour exceeds at the decisions taken
    panel = cases_of(record, every=8, world="panel")
    truth = cases_of(record, every=8, world="truth")
    assert [c.happened for c in panel] == [c.happened for c in truth] and any(c.happened for c in panel)
    assert summary(truth)["brier"] < summary(panel)["brier"]
