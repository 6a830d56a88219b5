"""The command line against careless and hostile input: every bad argument is a usage error
(exit status 2, in the reader's language) that changes nothing, and no input crashes a game."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from capital_lux.cli.main import main
from test_cli import run  # the in-process run: exit status, output, errors

LIMITED = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1536 * 2**20, 1536 * 2**20))  # a runaway fails fast, not the machine
"""



def run_limited(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter with 1.5 GiB of address space at most."""
    return subprocess.run([sys.executable, "-c", LIMITED + textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "0"])
def test_a_search_time_that_is_not_a_positive_finite_number_is_a_usage_error(
        value: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(["simulate", "--bots", f"search:seconds={value}", "--games", "1"], capsys)
    assert status == 2 and "usage: capital-lux" in err and "must be positive" in err


def test_out_never_replaces_an_existing_file_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.csv"
    out.write_text("earlier results\n")
    argv = ["simulate", "--players", "2", "--bots", "random", "--games", "3", "--workers", "1", "--no-progress",
            "--out", str(out)]
    status, _, err = run(argv, capsys)
    assert status == 2 and "already exists" in err and "--force" in err
    assert out.read_text() == "earlier results\n"
    status, _, _ = run([*argv, "--force"], capsys)
    assert status == 0 and out.read_text().splitlines()[0].startswith("game,seat")
    assert [p.name for p in tmp_path.iterdir()] == ["results.csv"]  # no temporary file left beside it


@pytest.mark.parametrize(("where", "message", "french"), [
    ("missing/results.csv", "does not exist", "n'existe pas"),
    (".", "is a folder", "est un dossier"),
])
def test_out_to_a_missing_folder_or_a_folder_is_a_usage_error(
        where: str, message: str, french: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / where)
    status, out, err = run(["simulate", "--games", "1", "--out", path], capsys)
    assert status == 2 and message in err and "Traceback" not in err and out == ""
    status, _, err = run(["simulate", "--games", "1", "--out", path, "--lang", "fr"], capsys)
    assert status == 2 and message not in err and french in err


def test_a_killed_run_leaves_the_earlier_file_intact(tmp_path: Path) -> None:
    out = tmp_path / "results.csv"
    out.write_text("earlier results\n")
    proc = subprocess.Popen([sys.executable, "-m", "capital_lux", "simulate", "--players", "2", "--bots", "random",
                             "--games", "1000000", "--workers", "1", "--no-progress", "--force", "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import time

        deadline = time.monotonic() + 60
        while not any(p.stat().st_size > 10_000 for p in tmp_path.glob(".results.csv.*")):
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)  # rows are being written, to a file of their own
        assert out.read_text() == "earlier results\n"
    finally:
        proc.kill()
        proc.wait()
    assert out.read_text() == "earlier results\n"


def test_a_run_of_a_trillion_games_starts_at_once_in_constant_memory() -> None:
    result = run_limited("""
        from capital_lux.analysis.simulate import simulate

        class Enough(Exception):
            pass

        class Out:
            writes = 0
            def write(self, text):
                Out.writes += 1
                if Out.writes > 50:
                    raise Enough
                return len(text)

        try:
            simulate(2, ["random"], 10**12, seed=1, workers=1, out=Out(), keep_rows=False)
        except Enough:
            print("playing")
    """)
    assert result.stdout.strip() == "playing", result.stderr[-500:]


def test_play_survives_odd_numbers_and_the_game_goes_on(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = "²\n" + "9" * 5000 + "\n٣\n0\n1\nquit\n"
    status, out, err = run(["play", "--players", "2", "--bots", "random", "--seed", "3", "--lang", "en"], capsys,
                           stdin, monkeypatch)
    assert status == 1 and "Traceback" not in err and "Game abandoned." in out
    assert out.count("There is no move number") == 2  # the 5000 digits and 0
    assert out.count("That is not a move") + out.count("not") >= 2  # ² and ٣ are explained too
    assert out.count("Your move?") >= 6  # asked again after each, then the game went on to a second decision


def test_play_refuses_a_record_it_could_not_write_before_the_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    for path, message in ((tmp_path / "nowhere" / "game.json", "does not exist"), (tmp_path, "is a folder")):
        status, out, err = run(["play", "--players", "2", "--seed", "1", "--record", str(path)], capsys, "1\n",
                               monkeypatch)
        assert status == 2 and message in err and "Your move?" not in out


def test_replay_checks_the_size_before_reading_the_whole_file() -> None:
    result = run_limited("""
        from capital_lux.cli.main import main
        try:
            main(["replay", "/dev/zero", "--lang", "en"])
        except SystemExit as e:
            print("exit", e.code)
    """)
    assert result.stdout.strip() == "exit 2", result.stderr[-500:]
    assert "larger than 262,144 bytes" in result.stderr


def test_replay_refuses_a_big_file_in_the_readers_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 300_000)
    status, _, err = run(["replay", str(big), "--lang", "fr"], capsys)
    assert status == 2 and "octets" in err and ("262\u202f144" in err or "262\xa0144" in err)


@pytest.mark.parametrize("name", ["load:abc", "load:0", "load:" + "9" * 5000])
def test_the_load_benchmark_takes_a_sensible_number_of_learners(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(["bench", name], capsys)
    assert status == 2 and "number of learners" in err


@pytest.mark.parametrize("name", ["endgame:abc", "endgame:", "endgame:-3", "endgame:" + "9" * 5000])
def test_the_endgame_benchmark_takes_a_seed(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(["bench", name], capsys)
    assert status == 2 and "seed of the positions" in err and "Traceback" not in err
    status, _, err = run(["--lang", "es", "bench", name], capsys)
    assert status == 2 and "semilla de las posiciones" in err


def test_out_into_a_folder_no_file_can_be_made_in_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """/proc lets root pass an access check, yet no file can be made there: refused before the run."""
    status, out, err = run(["simulate", "--games", "1", "--no-progress", "--out", "/proc/version", "--force"], capsys)
    assert status == 2 and "cannot write into the folder /proc" in err and "Traceback" not in err and out == ""
    status, _, err = run(["simulate", "--games", "1", "--out", "/proc/version", "--force", "--lang", "fr"], capsys)
    assert status == 2 and "/proc" in err and "cannot write" not in err


def test_play_on_an_ascii_terminal_writes_plainly_and_says_why() -> None:
    result = subprocess.run([sys.executable, "-m", "capital_lux", "play", "--players", "2", "--seed", "1",
                             "--lang", "fr"], input="1\nquit\n", capture_output=True, text=True, timeout=120,
                            env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr[-500:]
    assert "Partie abandonnee." in result.stdout and "B5" in result.stdout  # accents and symbols made plain
    assert "(ascii)" in result.stderr and "UTF-8" in result.stderr and "encoding" not in result.stderr


def test_replay_of_a_record_that_stops_mid_game_shows_no_final_scores(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from capital_lux.engine.game import Game
    from capital_lux.engine.position import dumps_record

    game = Game(3, 4)
    for _ in range(20):
        game.play(game.state.legal_actions()[0])
    record = tmp_path / "half.json"
    record.write_text(dumps_record(game.record()))
    status, out, err = run(["replay", str(record), "--lang", "en"], capsys)
    assert status == 0 and "Final scores" not in out and "before the end of the game" in out
