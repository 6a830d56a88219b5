"""A real ``simulate`` run stopped by SIGTERM or a double Ctrl-C: it ends by itself, with a
summary, only whole games in a CSV that parses, and no worker process left behind."""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import psutil
import pytest


def start_run(tmp_path: Path) -> tuple[subprocess.Popen[str], Path, list[psutil.Process]]:
    """A run far too long to finish (10**12 games), once it has written a few hundred games."""
    out = tmp_path / "run.csv"
    command = [sys.executable, "-m", "capital_lux", "simulate", "--players", "2", "--bots", "random",
               "--games", str(10**12), "--workers", "2", "--seed", "5", "--no-progress", "--out", str(out)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "LANGUAGE": "en"})
    deadline = time.monotonic() + 120
    while not any(p.stat().st_size > 20_000 for p in tmp_path.glob(".run.csv.*")):
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr and proc.stderr.read()
        time.sleep(0.05)
    workers = psutil.Process(proc.pid).children(recursive=True)
    assert len(workers) >= 2
    return proc, out, workers


def check_clean_end(proc: subprocess.Popen[str], out: Path, workers: list[psutil.Process], status: int) -> None:
    try:
        stdout, stderr = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("the run did not end after the signal")
    assert proc.returncode == status, stderr
    assert "Traceback" not in stderr
    kept = int(stdout.split(f" of {10**12} games (interrupted)")[0].split()[-1])
    assert "win rate" in stdout and f"finished games kept" in stderr
    with open(out, newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0][0] == "game" and len(rows) - 1 == 2 * kept > 0
    assert all(len(row) == len(rows[0]) and row[0].isdigit() for row in rows[1:])
    assert set(Counter(int(r[0]) for r in rows[1:]).values()) == {2}  # only whole games
    gone, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive, alive  # no orphan worker
    assert not list(out.parent.glob(".run.csv.*"))  # the temporary file became the CSV


@pytest.mark.slow
def test_sigterm_ends_a_parallel_run_cleanly(tmp_path: Path) -> None:
    proc, out, workers = start_run(tmp_path)
    proc.send_signal(signal.SIGTERM)
    check_clean_end(proc, out, workers, 128 + signal.SIGTERM)


@pytest.mark.slow
def test_two_quick_ctrl_c_do_not_hang(tmp_path: Path) -> None:
    proc, out, workers = start_run(tmp_path)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    check_clean_end(proc, out, workers, 128 + signal.SIGINT)
