"""A smoke of ``bench risk``'s small chances: the risk lines' figures under 10% set beside a long
simulation of the same positions, by bin of the chance shown."""

from __future__ import annotations

import pytest

from capital_lux.analysis import riskbench


@pytest.mark.slow
def test_small_chances_are_set_beside_a_long_run_by_bin() -> None:
    figures = riskbench.small_risks(games=1, every=6, samples=200, long_samples=1000)
    assert figures["small_risk_decisions_looked_at"] >= 3
    bins = [key for key in figures if key.endswith("pct_cases")]
    assert len(bins) == len(riskbench.SMALL_BINS)
    assert sum(figures[key] for key in bins) == figures["small_risk_simulated_cases"]
    low = 0.0
    for high in riskbench.SMALL_BINS:
        name = f"small_risk_{round(low * 100)}_{round(high * 100)}pct"
        if figures[f"{name}_cases"]:  # a case sits in the bin of the chance shown
            assert low <= figures[f"{name}_shown_mean"] < high
            assert 0.0 <= figures[f"{name}_long_mean"] <= 1.0 and 0.0 <= figures[f"{name}_held_share"] <= 1.0
        low = high
