"""Long simulations: memory that does not grow with the run, and a clean stop on Ctrl-C."""

from __future__ import annotations

import csv
import gc
import io
import os
import signal
import subprocess
import sys
import time
import tracemalloc
from collections import Counter
from pathlib import Path

import pytest

from capital_lux.analysis.simulate import simulate


class LiveMemory(io.StringIO):
    """A CSV destination that, every few rows written, notes the memory still alive
    (after collecting garbage), so the largest figure is what the run really holds."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = 0
        self.largest = 0

    def write(self, text: str) -> int:
        self.writes += 1
        if self.writes % 80 == 0:  # every 20 games of 4 seats: a full collection is slow in a big process
            gc.collect()
            self.largest = max(self.largest, tracemalloc.get_traced_memory()[0])
        self.seek(0)
        self.truncate()  # the text itself is not what we measure
        return len(text)


def live_bytes(games: int, keep_rows: bool) -> int:
    out = LiveMemory()
    tracemalloc.start()
    try:
        results = simulate(4, ["random"], games, seed=3, workers=1, out=out, keep_rows=keep_rows, chunk_size=10)
        return out.largest
    finally:
        tracemalloc.stop()
        assert results.completed == games and len(results.rows) == (4 * games if keep_rows else 0)


@pytest.mark.slow
def test_streamed_runs_need_the_same_memory_whatever_their_length(tmp_path: Path) -> None:
    simulate(4, ["random"], 5, seed=1, workers=1, out=tmp_path / "warm.csv")  # imports and caches first
    growth = {keep: live_bytes(200, keep) - live_bytes(30, keep) for keep in (True, False)}
    assert growth[True] > 60_000  # kept rows grow with the run (about 100 KB here)...
    assert growth[False] < 0.2 * growth[True], growth  # ...streamed ones do not
    simulate(4, ["random"], 40, seed=1, workers=1, out=tmp_path / "long.csv", keep_rows=False)
    with open(tmp_path / "long.csv") as f:
        assert sum(1 for _ in f) == 1 + 40 * 4


def test_streamed_csv_and_summary_match_a_kept_table(tmp_path: Path) -> None:
    kept = simulate(3, ["rule", "random", "random"], 30, seed=9, workers=2, chunk_size=4)
    streamed = simulate(3, ["rule", "random", "random"], 30, seed=9, workers=2, chunk_size=4, out=tmp_path / "r.csv",
                        keep_rows=False)
    assert streamed.summary() == kept.summary()
    with open(tmp_path / "r.csv") as f:
        rows = list(csv.reader(f))[1:]
    assert [(int(r[0]), int(r[1])) for r in rows] == [(x.game, x.seat) for x in kept.rows]


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_and_keeps_finished_games(tmp_path: Path) -> None:
    out = tmp_path / "run.csv"
    command = [sys.executable, "-m", "capital_lux", "simulate", "--players", "2", "--bots", "random",
               "--games", "1000000", "--workers", "2", "--seed", "5", "--no-progress", "--out", str(out)]
    env = {**os.environ, "LANGUAGE": "en"}
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 120
    while not any(p.stat().st_size >= 20_000 for p in tmp_path.glob(".run.csv.*")) and time.monotonic() < deadline:
        time.sleep(0.1)  # wait until a few hundred games are written (beside the CSV, renamed at the end)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    kept = int(stdout.split(" of 1000000 games (interrupted)")[0].split()[-1])
    assert f"Interrupted: {kept} finished games kept." in stderr
    with open(out) as f:
        rows = list(csv.reader(f))
    assert rows[0][0] == "game" and len(rows) - 1 == 2 * kept > 0
    per_game = Counter(int(r[0]) for r in rows[1:])
    assert set(per_game.values()) == {2}  # only whole games were written
