"""A smoke of ``bench review``'s calibration: seats of known strength (the hint, the rule of
thumb, uniformly random) at one table, each kind's verdicts counted with their intervals."""

from __future__ import annotations

import math

import pytest

from capital_lux.analysis import reviewbench
from capital_lux.analysis.stats import ratio_interval
from capital_lux.engine.errors import UsageError
from capital_lux.analysis.review import decisions_of
from test_review import QUICK


@pytest.mark.slow
def test_the_calibration_counts_every_kind_s_verdicts_with_their_intervals() -> None:
    figures = reviewbench.calibration(1, 3, "round", None, hint_games=20, **QUICK)
    kinds = ("hint", "rule", "random")
    record = reviewbench.game_record(3, 0, list(reviewbench.CALIBRATION_KINDS[:3]), 20)
    assert sum(figures[f"{k}_decisions"] for k in kinds) == len(decisions_of(record))
    assert all(figures[f"{k}_decisions"] > 0 for k in kinds)
    for kind in kinds:
        n = figures[f"{kind}_decisions"]
        share = figures[f"{kind}_best_or_good_share_round"]
        assert share == round(figures[f"{kind}_best_or_good_round"] / n, 3)
        assert figures[f"{kind}_best_or_good_low_round"] <= share <= figures[f"{kind}_best_or_good_high_round"]
        rate = figures[f"{kind}_mistakes_per_decision_round"]
        assert figures[f"{kind}_mistakes_low_round"] <= rate <= figures[f"{kind}_mistakes_high_round"]
        assert figures[f"{kind}_points_lost_per_decision_round"] >= 0  # no negative loss, on average or alone
    assert figures["judged_to_the_horizon_share_round"] == 1.0  # no budget: every decision to the horizon
    assert figures["hint_most_accurate_round"] in (0.0, 1.0)
    ratio = figures["random_over_rule_mistakes_round"]
    assert figures["random_over_rule_mistakes_low_round"] <= ratio <= figures["random_over_rule_mistakes_high_round"]


def test_the_ratio_of_mistakes_carries_an_interval_that_narrows_with_the_decisions() -> None:
    """Random seats' mistakes over the rule of thumb's, as the bench reports it: the interval
    of the log ratio holds the ratio, narrows tenfold in decisions by about the root of ten,
    and stays open where one side made no mistake (nothing to measure its spread by)."""
    ratio, low, high = ratio_interval(80, 300, 80, 600)
    assert ratio == pytest.approx(2.0) and low < 2.0 < high
    _, low10, high10 = ratio_interval(800, 3000, 800, 6000)
    assert math.log(high / low) / math.log(high10 / low10) == pytest.approx(10 ** 0.5, rel=0.01)
    assert ratio_interval(0, 300, 80, 600)[1:] == (0.0, math.inf)
    assert ratio_interval(80, 300, 0, 600) == (math.inf, 0.0, math.inf)
    with pytest.raises(UsageError, match="samples on both sides"):
        ratio_interval(1, 0, 1, 10)


@pytest.mark.slow
def test_the_game_s_end_spreads_a_paired_difference_wider_than_the_round_s_end() -> None:
    """Why the review judges to the round's end by default (``bench review``'s spread figure, small)."""
    figures = reviewbench.spread(seed=1, every=30, games=30)
    assert 0 < figures["paired_spread_points_median_round"] < figures["paired_spread_points_median_game"]


@pytest.mark.slow
def test_the_calibration_s_tables_give_the_same_figures_in_two_processes_as_in_one() -> None:
    """``bench review`` reviews its tables in two processes: the verdicts and counts are those of one
    (every review is seeded and untimed here; only the CPU seconds may differ)."""
    small = {"games": 4, "min_games": 4, "exact_ms": 1.0}
    one = reviewbench.calibration(1, 2, "round", None, hint_games=4, **small)
    two = reviewbench.calibration(1, 2, "round", None, hint_games=4, workers=2, **small)
    assert one["hint_decisions"] > 0 and one["rule_decisions"] > 0
    timed = {key for key in one if "_cpu_s_" in key}
    assert {k: v for k, v in one.items() if k not in timed} == {k: v for k, v in two.items() if k not in timed}


def test_random_picks_at_one_phase_are_set_beside_the_rule_of_thumb_s_on_the_same_seeded_games() -> None:
    """``bench review``'s check without the review (small): what picking at random at one phase
    costs a rule-of-thumb seat. Plays are where it costs most: a card is lost or kept there."""
    figures = reviewbench.random_at_one_phase(games=40, players=3)
    assert figures["random_at_one_phase_games"] == 40
    phases = list(reviewbench.KERNEL_PHASES)
    for phase in phases:
        for figure in ("points", "margin"):
            assert figures[f"random_at_{phase}_{figure}_change_half"] > 0
    assert figures["random_at_play_points_change"] + figures["random_at_play_points_change_half"] < 0
    assert all(figures["random_at_play_points_change"] < figures[f"random_at_{p}_points_change"]
               for p in phases if p != "play")


def test_the_rule_of_thumb_s_measured_changes_are_set_beside_it_on_the_same_seeded_games() -> None:
    """``bench review``'s ``rule_variants`` (small): seat 0 playing the rule of thumb as before
    a change (its plan alone at the draft, the limits as they stand, the estimated limits alone
    in play) plays other games than
    the rule of thumb on the same seeds, each figure with its interval."""
    figures = reviewbench.rule_variants(games=30, players=3)
    assert figures["rule_variants_games"] == 30
    for name in ("without_values_draft", "without_later", "without_chances"):
        for figure in ("points", "margin"):
            assert figures[f"{name}_{figure}_change_half"] > 0  # some game went otherwise
