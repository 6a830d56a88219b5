"""The class tables' benchmark runs small in the suite: two tables of two learners at once,
each learner polling as the page does, each move seen by the other learner."""

from __future__ import annotations

from pathlib import Path

from capital_lux.cli import bench
from capital_lux.lessons.tablesbench import figures


def test_the_tables_benchmark_runs_small(tmp_path: Path) -> None:
    result = figures(str(tmp_path / "class.sqlite3"), tables=2, seats=2, moves=16, seconds=60)
    assert result["moves"] >= 2 * 14  # both tables played, in separate processes
    # every move stored was seen by the other learner at its table
    assert result["seen_samples"] >= result["moves"] - 2  # a move past the cap may go unseen
    assert 0 <= result["seen_p50_s"] <= result["seen_p90_s"] <= result["seen_max_s"]
    assert result["polls_per_second"] > 0 and result["cpu_s"] > 0
    assert "tables" in bench.BENCHMARKS
