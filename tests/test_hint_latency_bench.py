"""A smoke of ``bench hint``: the hint's latency measured by decision kind."""

from __future__ import annotations

import pytest

from capital_lux.cli import bench


@pytest.mark.slow
def test_the_hint_is_timed_at_every_kind_of_decision() -> None:
    figures = bench.hint(games=1, players=2, rank_games=40, rounds=1)
    kinds = {key.removesuffix("_decisions") for key in figures if key.endswith("_decisions")}
    assert {"draft_first", "draft", "play"} <= kinds  # a round's first pick apart from the others
    for kind in kinds:
        assert figures[f"{kind}_decisions"] >= 1
        assert 0 <= figures[f"{kind}_cpu_ms_median"] <= figures[f"{kind}_cpu_ms_p90"] <= figures[f"{kind}_cpu_ms_max"]
        assert figures[f"{kind}_wall_ms_median"] <= figures[f"{kind}_wall_ms_p90"]
        assert 0.0 <= figures[f"{kind}_under_1s_cpu_share"] <= 1.0
    assert "hint" in bench.BENCHMARKS
    assert bench._p90([float(x) for x in range(1, 11)]) == 9.0 and bench._p90([5.0]) == 5.0
