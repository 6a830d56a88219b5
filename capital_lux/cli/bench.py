"""Benchmarks: ``python -m capital_lux bench`` prints their figures as JSON.

Each benchmark is a function returning a dict of named figures; ``BENCHMARKS``
lists them. Figures are measured on one process unless a name says otherwise.
"""

from __future__ import annotations

import random
import time
from typing import Callable

from ..engine.game import play_game, random_policy

Figures = dict[str, float]


def timed_rate(work: Callable[[int], object], seconds: float) -> float:
    """Calls of ``work(i)`` per second over about ``seconds`` of wall time."""
    start = time.perf_counter()
    count = 0
    while (elapsed := time.perf_counter() - start) < seconds:
        work(count)
        count += 1
    return count / elapsed


def engine(seconds: float = 2.0) -> Figures:
    """Random full games per second for 2, 3 and 4 players (chance resolved by a seeded RNG)."""
    figures: Figures = {}
    for n in (2, 3, 4):
        rate = timed_rate(lambda i: play_game(n, [random_policy] * n, random.Random(i)), seconds)
        figures[f"random_games_per_second_{n}p"] = round(rate, 1)
    return figures


def bots(seconds: float = 3.0) -> Figures:
    """Rule-of-thumb games per second (every seat, and one against three random bots);
    search iterations per second on the first decisions of seeded 4-player games."""
    from ..players.bots import RuleOfThumbBot, as_policy
    from ..engine.game import Game
    from ..players.search import ismcts
    from ..engine.views import view

    rule = as_policy(RuleOfThumbBot())
    figures: Figures = {
        "rule_games_per_second_4p": round(timed_rate(lambda i: play_game(4, [rule] * 4, random.Random(i)), seconds), 1),
        "rule_vs_3_random_games_per_second_4p": round(
            timed_rate(lambda i: play_game(4, [rule] + [random_policy] * 3, random.Random(i)), seconds), 1),
    }
    start, iterations = time.perf_counter(), 0
    for seed in range(4):
        game = Game(4, seed)
        ismcts(view(game.state, game.state.current), random.Random(seed), iterations=250)
        iterations += 250
    figures["search_iterations_per_second_4p"] = round(iterations / (time.perf_counter() - start), 1)
    return figures


def simulation(games: int = 120) -> Figures:
    """Throughput of ``simulate`` (4 rule-of-thumb bots) with 1 and 2 worker processes."""
    from ..analysis.simulate import simulate

    figures: Figures = {}
    for workers in (1, 2):
        start = time.perf_counter()
        simulate(4, ["rule"], games, seed=0, workers=workers)
        figures[f"games_per_second_{workers}_worker{'s' if workers > 1 else ''}"] = round(
            games / (time.perf_counter() - start), 1)
    figures["speed_up_2_workers"] = round(figures["games_per_second_2_workers"] / figures["games_per_second_1_worker"], 2)
    return figures


def risk() -> Figures:
    """Exact round-end risk, simulated risk and the per-move comparison (``risk.benchmark``)."""
    from ..analysis.risk import benchmark

    return benchmark()


def tutor() -> Figures:
    """The tutor in Chromium via Voila: seconds to an interactive page (target < 5), and the
    median time from a click playing a card to the redrawn table and risk panel in a
    4-player game (target < 150 ms). Needs Chromium and Playwright."""
    from ..tutor.browser import measure

    return measure(players=4)


def load(learners: int = 30) -> Figures:
    """A classroom: ``learners`` (30 unless ``load:N``) open the tutor at once on one Voila and
    each plays a whole 2-player game by clicking; time to interactive, click latency (last
    click to the table's answer), wall time, fairness and the kernels' memory."""
    from ..tutor.load import figures

    return figures(sessions=learners)


def long_run(games: int = 100_000) -> Figures:
    """100,000 random 4-player games on 2 worker processes, rows streamed to a CSV file:
    wall time and peak resident memory of this process and of the workers."""
    import resource
    import tempfile

    from ..analysis.simulate import simulate

    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        results = simulate(4, ["random"], games, seed=1, workers=2, out=f"{folder}/run.csv", keep_rows=False)
        seconds = time.perf_counter() - start
    return {
        "games": float(results.completed),
        "seconds": round(seconds, 1),
        "games_per_second": round(results.completed / seconds, 1),
        "peak_rss_mib_main": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "peak_rss_mib_worker": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1),
    }


BENCHMARKS: dict[str, Callable[[], Figures]] = {
    "engine": engine, "bots": bots, "simulation": simulation, "risk": risk, "tutor": tutor, "load": load,
    "long_run": long_run,
}


def run(names: list[str] | None = None) -> dict[str, Figures]:
    chosen = names or list(BENCHMARKS)
    learners = [n for n in chosen if n.startswith("load:")]
    for name in learners:  # "load:30": the classroom benchmark with that many learners
        count = name.partition(":")[2]
        if not (count.isascii() and count.isdigit() and len(count) <= 3 and 1 <= int(count) <= 200):
            raise ValueError(f"{name}: give the number of learners, 1 to 200 (load:30)")
    unknown = [n for n in chosen if n not in BENCHMARKS and n not in learners]
    if unknown:
        raise ValueError(f"unknown benchmark {', '.join(unknown)}: choose from {', '.join(BENCHMARKS)}")
    return {name: load(int(name.partition(":")[2])) if name in learners else BENCHMARKS[name]() for name in chosen}
