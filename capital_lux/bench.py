"""Benchmarks: ``python -m capital_lux bench`` prints their figures as JSON.

Each benchmark is a function returning a dict of named figures; ``BENCHMARKS``
lists them. Figures are measured on one process unless a name says otherwise.
"""

from __future__ import annotations

import random
import time
from typing import Callable

from .game import play_game, random_policy

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


BENCHMARKS: dict[str, Callable[[], Figures]] = {"engine": engine}


def run(names: list[str] | None = None) -> dict[str, Figures]:
    chosen = names or list(BENCHMARKS)
    unknown = [n for n in chosen if n not in BENCHMARKS]
    if unknown:
        raise ValueError(f"unknown benchmark {', '.join(unknown)}: choose from {', '.join(BENCHMARKS)}")
    return {name: BENCHMARKS[name]() for name in chosen}
