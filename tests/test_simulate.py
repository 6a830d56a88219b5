"""Simulation: the same seed gives the same table whatever runs it."""

from __future__ import annotations

import concurrent.futures
import csv
import io
import os
import signal
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


def test_the_last_bot_fills_the_remaining_seats_and_bad_line_ups_are_refused() -> None:
    results = simulate(2, ["random"], games=2, seed=0, workers=1)
    assert Counter(r.bot for r in results.rows) == {"random": 4}
    results = simulate(3, ["rule", "random"], games=1, seed=0, workers=1)
    assert [r.bot for r in sorted(results.rows, key=lambda r: r.seat)] == ["rule", "random", "random"]
    with pytest.raises(ValueError, match="3 bots for 2 seats"):
        simulate(2, ["rule", "random", "rule"], games=1, seed=0)
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


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_seats_choose_with_the_games_chance_generator(players: int) -> None:
    """One generator a game, as ``game.random_policy`` uses it: no generator of a seat's own."""
    from capital_lux.analysis.simulate import game_rng, play_in_engine, play_in_kernel
    from capital_lux.engine import kernel
    from capital_lux.engine.game import play_game, random_policy

    for g in range(10):
        expected = play_game(players, [random_policy] * players, game_rng(5, g))
        assert play_in_engine(players, ["random"] * players, 5, g) == expected
        ks = play_in_kernel(players, ["random"] * players, 5, g)
        assert ks is not None and kernel.to_state(ks) == expected


@pytest.mark.parametrize("line_up", [["rule", "random"] * 2, ["random", "rule", "rule", "random"]])
def test_mixed_line_ups_play_the_same_game_in_the_kernel_and_the_engine(line_up: list[str]) -> None:
    from capital_lux.analysis.simulate import play_in_engine, play_in_kernel
    from capital_lux.engine import kernel

    for g in range(6):
        ks = play_in_kernel(4, line_up, 11, g)
        assert ks is not None and kernel.to_state(ks) == play_in_engine(4, line_up, 11, g)


def test_a_search_seat_thinks_with_its_own_generator_and_moves_no_card() -> None:
    """Replaying the search seat's moves (drawing nothing) with the chance generator for the
    cards and the random seats gives the same game: the search drew none of its numbers from it."""
    from capital_lux.analysis.simulate import game_rng, play_in_engine
    from capital_lux.engine.game import play_game, random_policy
    from capital_lux.engine.notation import Action
    from capital_lux.engine.state import GameState

    for g in range(2):
        played = play_in_engine(2, ["search:iterations=8", "random"], 3, g)

        def replay(state: GameState, _rng: object, moves: list[Action] = played.history) -> Action:
            return moves[len(state.history)]

        assert play_game(2, [replay, random_policy], game_rng(3, g)) == played
        # the search did think: with the chance generator's draws it would play another game
        assert play_game(2, [random_policy, random_policy], game_rng(3, g)) != played


def test_the_first_deal_is_the_same_whatever_the_line_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """Setup and deal come before any decision, so they depend on the seed and game only."""
    import random

    from capital_lux.analysis import simulate as module
    from capital_lux.engine.game import Policy, new_game, sample_chance
    from capital_lux.engine.state import GameState

    def until_first_decision(players: int, _policies: list[Policy], rng: random.Random) -> GameState:
        state = new_game(players)
        while state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        return state

    monkeypatch.setattr(module, "play_game", until_first_decision)
    firsts = []
    for g in range(5):
        deals = [module.play_in_engine(3, line_up, 8, g)
                 for line_up in (["random"] * 3, ["rule"] * 3, ["search:iterations=5", "rule", "random"])]
        assert all(len(hand) == 6 for hand in deals[0].draft_hands)
        assert deals[1] == deals[0] and deals[2] == deals[0]
        firsts.append(deals[0])
    assert firsts[0] != firsts[1]


class _SecondChunkStuck(concurrent.futures.Executor):
    """Plays every chunk at once except the second, which never finishes; the fourth chunk
    submitted sends the process a Ctrl-C, as a user would while chunk 1 is still playing."""

    def __init__(self) -> None:
        self.submitted = 0

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def]
        future: concurrent.futures.Future[object] = concurrent.futures.Future()
        if self.submitted != 1:
            future.set_result(fn(*args, **kwargs))
        self.submitted += 1
        if self.submitted == 4:
            os.kill(os.getpid(), signal.SIGINT)
        return future


def test_an_interrupted_run_keeps_a_prefix_of_its_games_with_no_hole() -> None:
    out = io.StringIO()
    results = simulate(2, ["random"], 40, 3, executor=_SecondChunkStuck(), workers=1, chunk_size=2, out=out)
    assert results.interrupted and results.stop_signal == signal.SIGINT
    # chunks 0, 2 and 3 finished, chunk 1 did not: the run's prefix is chunk 0's two games
    games = [row[0] for row in csv.reader(io.StringIO(out.getvalue()))][1:]
    assert games == ["0", "0", "1", "1"]
    assert results.completed == 2 and len(results.rows) == 4
    assert sum(t.seats for t in results.tallies.values()) == 4
