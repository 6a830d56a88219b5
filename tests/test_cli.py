"""The command line: play, simulate, replay, bench; bad arguments exit with status 2."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

import pytest

from capital_lux.cli.main import main
from capital_lux.engine.position import loads_record


def run(argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str = "",
        monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if monkeypatch is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        status = main(argv)
    except SystemExit as e:
        status = int(e.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "required"),
        (["dance"], "invalid choice"),
        (["simulate", "--players", "5"], "invalid choice"),
        (["simulate", "--games", "0"], "at least 1"),
        (["simulate", "--games", "many"], "not a whole number"),
        (["simulate", "--bots", "rule,genius"], "unknown bot kind 'genius'"),
        (["simulate", "--players", "2", "--bots", "rule,rule,rule"], "3 bots for 2 seats"),
        (["simulate", "--bots", "search:iterations=-1"], "must be positive"),
        (["simulate", "--workers", "2", "--dask", "tcp://nowhere:1"], "not both"),
        (["play", "--seat", "3", "--players", "3"], "--seat must be between 0 and 2"),
        (["play", "--lang", "de"], "invalid choice"),
        (["replay"], "required"),
        (["replay", "missing.json"], "cannot read missing.json"),
        (["bench", "nonsense"], "Unknown benchmark nonsense"),
    ],
)
def test_bad_arguments_print_usage_and_exit_2(argv: list[str], message: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(argv, capsys)
    assert status == 2
    assert "usage: capital-lux" in err and message in err


def test_a_record_that_does_not_replay_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "capital-lux-record", "version": 1, "players": 2, "seed": 0, "actions": ["home B5"]}')
    status, _, err = run(["replay", str(bad)], capsys)
    assert status == 2 and "does not replay" in err


def test_module_entry_point_exits_2_on_bad_arguments() -> None:
    done = subprocess.run([sys.executable, "-m", "capital_lux", "simulate", "--players", "9"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "usage:" in done.stderr


def test_simulate_prints_a_summary_and_writes_the_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.csv"
    status, text, _ = run(["simulate", "--players", "3", "--bots", "rule,random", "--games", "4", "--seed", "9",
                           "--workers", "1", "--out", str(out), "--no-progress"], capsys)
    assert status == 0
    assert "4 games, 3 players, seed 9" in text and "win rate" in text
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 12 and [r["bot"] for r in rows[:3]] == ["rule", "random", "random"]


def test_play_a_whole_game_from_the_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    record = tmp_path / "game.json"
    script = "hint\nhome Z9\n99\n" + "1\n" * 200
    status, text, _ = run(["play", "--players", "2", "--bots", "random", "--seed", "5", "--lang", "en",
                           "--record", str(record)], capsys, script, monkeypatch)
    assert status == 0
    assert "Hint: " in text  # the rule of thumb's advice
    assert "'Z9' is not a card" in text
    assert "Player 1 picks cards face down." in text  # an opponent's draft pick stays hidden
    assert "Final scores:" in text and "Winner:" in text
    final = loads_record(record.read_text()).replay()
    assert final.is_terminal()
    assert f"Player 0 (you) {final.scores()[0]}" in text


def test_play_shows_only_the_players_own_cards(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from capital_lux.engine.game import Game

    status, text, _ = run(["play", "--players", "2", "--seed", "5", "--lang", "en"], capsys, "quit\n", monkeypatch)
    assert status == 1 and "Game abandoned." in text
    game = Game(2, seed=5)
    own = " ".join(str(c) for c in game.state.draft_hands[0])
    other = " ".join(str(c) for c in game.state.draft_hands[1])
    shown = text.replace("◆", "").replace("✎", "").replace("✚", "").replace("●", "")
    assert own in shown and other not in shown


def test_play_speaks_the_chosen_language(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _, text, _ = run(["play", "--players", "2", "--seed", "1", "--lang", "fr"], capsys, "", monkeypatch)
    assert "Capitale" in text


def test_replay_steps_through_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    record = tmp_path / "game.json"
    run(["play", "--players", "3", "--seed", "2", "--record", str(record)], capsys, "1\n" * 300, monkeypatch)
    game = loads_record(record.read_text())
    status, text, _ = run(["replay", str(record)], capsys)
    assert status == 0
    assert f"{len(game.actions)} actions" in text
    lines = [line for line in text.splitlines() if line[:4].strip().isdigit()]
    assert len(lines) == len(game.actions)
    assert lines[-1].endswith(str(game.actions[-1]))
    assert text.count("Round 3 of 3 ·") == 2  # the table after rounds 2 and 3
    assert "Round 2 of 3 ·" in text
    scores = game.replay().scores()
    assert text.rstrip().endswith(", ".join(f"Player {p} {s}" for p, s in enumerate(scores)))
    status, paused, _ = run(["replay", "--pause", str(record)], capsys, "\n\n", monkeypatch)
    assert status == 1 and len(paused.splitlines()) < len(text.splitlines())
    # the input ended on the third decision: no made-up "Final scores: 0, 0, 0"
    assert paused.rstrip().endswith(f"the input ended.") and "Final scores" not in paused


def test_bench_lists_figures_as_json(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from capital_lux.cli import bench

    monkeypatch.setitem(bench.BENCHMARKS, "tiny", lambda: {"answer": 42.0})
    status, text, _ = run(["bench", "tiny"], capsys)
    assert status == 0 and json.loads(text) == {"tiny": {"answer": 42.0}}


def test_simulate_on_a_dask_cluster_gives_the_same_table(capsys: pytest.CaptureFixture[str]) -> None:
    distributed = pytest.importorskip("distributed")
    argv = ["simulate", "--players", "2", "--bots", "rule,random", "--games", "3", "--seed", "4", "--no-progress"]
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster:
        status, on_dask, _ = run(argv + ["--dask", cluster.scheduler_address], capsys)
    assert status == 0
    assert on_dask == run(argv + ["--workers", "1"], capsys)[1]


def test_the_command_line_speaks_the_chosen_language(capsys: pytest.CaptureFixture[str]) -> None:
    from capital_lux.cli.main import main

    with pytest.raises(SystemExit):
        main(["simulate", "--lang", "fr", "--help"])
    assert "nombre de parties (1000 par défaut)" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit:
        main(["play", "--lang=es", "--seat", "7"])
    assert exit.value.code == 2 and "--seat debe estar entre 0 y 2" in capsys.readouterr().err
