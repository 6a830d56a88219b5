"""Simulation: the same seed gives the same table whatever runs it."""

from __future__ import annotations

import concurrent.futures
import io
from collections import Counter

import pytest

from capital_lux.analysis.simulate import COLUMNS, Results, play_one, simulate, wilson_interval

LINE_UP = ["rule", "random", "rule"]


@pytest.fixture(scope="module")
def serial() -> Results:
    return simulate(3, LINE_UP, games=6, seed=42, workers=1)


def test_same_seed_same_results_with_one_or_two_process_workers(serial: Results) -> None:
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        parallel = simulate(3, LINE_UP, games=6, seed=42, executor=pool, chunk_size=1)
    assert parallel.rows == serial.rows
    assert simulate(3, LINE_UP, games=6, seed=42, workers=2, chunk_size=4).rows == serial.rows


@pytest.mark.parametrize("processes", [False, True])
def test_same_seed_same_results_on_a_local_dask_cluster(serial: Results, processes: bool) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=processes,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        on_dask = simulate(3, LINE_UP, games=6, seed=42, executor=client.get_executor(), chunk_size=2)
    assert on_dask.rows == serial.rows


def test_another_seed_gives_other_games(serial: Results) -> None:
    assert simulate(3, LINE_UP, games=6, seed=43, workers=1).rows != serial.rows


def test_rows_describe_each_game_and_seat(serial: Results) -> None:
    assert [(r.game, r.seat) for r in serial.rows] == [(g, s) for g in range(6) for s in range(3)]
    assert [r.bot for r in serial.rows[:3]] == LINE_UP
    for game in range(6):
        rows = [r for r in serial.rows if r.game == game]
        final = play_one(3, LINE_UP, 42, game)
        assert [r.score for r in rows] == final.scores()
        assert sum(r.win_share for r in rows) == pytest.approx(1.0)
        assert {r.seat for r in rows if r.rank == 1} == set(final.winners())
        assert [r.bonus_points for r in rows] == [sum(c.value for c in b) for b in final.bonus]
        assert [r.gold for r in rows] == final.gold
        assert sum(r.cards_lost for r in rows) == len(final.discards)
        assert sum(r.points_lost for r in rows) == sum(c.value for c in final.discards)


def test_csv_has_a_header_and_a_line_per_row(serial: Results) -> None:
    buffer = io.StringIO()
    serial.write_csv(buffer)
    lines = buffer.getvalue().splitlines()
    assert lines[0].split(",") == list(COLUMNS)
    assert len(lines) == 1 + len(serial.rows)


def test_summary_counts_every_seat_a_bot_held(serial: Results) -> None:
    summary = {s.bot: s for s in serial.summary()}
    assert summary["rule"].seats_played == 12 and summary["random"].seats_played == 6
    assert sum(s.win_rate * s.seats_played for s in summary.values()) == pytest.approx(6)
    for s in summary.values():
        assert s.win_low <= s.win_rate <= s.win_high
    text = serial.summary_table()
    assert "rule" in text and "95% CI" in text


def test_one_bot_fills_every_seat_and_bad_line_ups_are_refused() -> None:
    results = simulate(2, ["random"], games=2, seed=0, workers=1)
    assert Counter(r.bot for r in results.rows) == {"random": 4}
    with pytest.raises(ValueError, match="2 bots for 3 players"):
        simulate(3, ["rule", "random"], games=1, seed=0)
    with pytest.raises(ValueError, match="unknown bot"):
        simulate(2, ["rule", "genius"], games=1, seed=0)
    with pytest.raises(ValueError, match="2 to 4 players"):
        simulate(5, ["rule"], games=1, seed=0)


def test_progress_bar_runs(capsys: pytest.CaptureFixture[str]) -> None:
    simulate(2, ["random"], games=3, seed=1, workers=1, progress=True)
    assert "3/3" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("wins", "n", "low", "high"),
    [(50, 100, 0.4038, 0.5962), (0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0), (1450, 2000, 0.7050, 0.7441)],
)
def test_wilson_interval(wins: int, n: int, low: float, high: float) -> None:
    assert wilson_interval(wins, n) == pytest.approx((low, high), abs=1e-4)


@pytest.mark.parametrize("players,line_up", [
    (2, ["random"]), (3, ["rule", "random", "random"]), (4, ["random"]), (4, ["rule"]), (2, ["rule"]),
])
def test_the_kernel_plays_the_games_the_engine_plays(players: int, line_up: list[str]) -> None:
    """simulate plays random and rule bots in the playout kernel: the same rows as the engine's."""
    from capital_lux.analysis.simulate import play_in_engine, play_in_kernel, result_rows

    games = 12 if "rule" in line_up else 40
    results = simulate(players, line_up, games=games, seed=7, workers=1)
    specs = line_up * players if len(line_up) == 1 else line_up
    expected = [row for g in range(games) for row in result_rows(play_in_engine(players, specs, 7, g), specs, g)]
    assert results.rows == expected
    assert play_in_kernel(players, specs + ["search"], 7, 0) is None  # search plays in the engine
