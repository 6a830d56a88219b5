"""``bench tables``: class tables played at once, each learner's page a thread polling its
table as the page does (``tables.POLL_SECONDS``), each table in a process of its
own (a class's kernels are separate processes).

The figure that matters is the time from a move being stored to each other learner at the
table seeing it (their poll reading the new move number): ``seen_p50_s``, ``seen_p90_s``
(target under 1 s) and ``seen_max_s``, over every move and every other learner. Beside it:
moves stored, polls made, the wall time and the CPU time of every process (the machine is
shared: CPU time says what the work cost, wall time what the learners waited).
"""

from __future__ import annotations

import multiprocessing
import random
import statistics
import threading
import time
from dataclasses import dataclass, field

from .storage import Storage
from .tables import POLL_SECONDS, TableRefusal, Tables


@dataclass
class _Seen:
    stored: list[tuple[int, int, float]] = field(default_factory=list)  # (number, seat, when stored)
    seen: dict[int, list[tuple[int, float]]] = field(default_factory=dict)  # seat: (move number, when first seen)
    polls: int = 0


def _learner(url: str, table: int, seat: int, learner: str, poll: float, think: float, moves: int,
             deadline: float, out: _Seen, lock: threading.Lock, seed: int) -> None:
    rng = random.Random(seed)
    tables = Tables(Storage(url))
    last, seen = -1, out.seen.setdefault(seat, [])
    while time.time() < deadline:
        number = tables.poll(table, learner, last)  # what the page's poll does
        now = time.time()
        with lock:
            out.polls += 1
        if number != last:
            seen.append((number, now))
            last = number
            frame = tables.frame(table, seat, learner)
            if frame.over or frame.closed or frame.moves >= moves:
                return
            if frame.choices:
                time.sleep(think * rng.random() * 2)
                try:
                    stored = tables.play(table, seat, learner, rng.choice(frame.choices), frame.turn)
                except TableRefusal:
                    continue
                with lock:
                    out.stored.append((stored, seat, time.time()))
                continue
        time.sleep(poll)


def _table(url: str, table: int, seats: int, poll: float, think: float, moves: int, deadline: float,
           queue: "multiprocessing.Queue[tuple[list[float], int, int, float]]") -> None:
    out, lock = _Seen(), threading.Lock()
    threads = [threading.Thread(target=_learner, args=(url, table, seat, f"t{table}-s{seat}", poll, think, moves,
                                                       deadline, out, lock, table * 10 + seat))
               for seat in range(seats)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    delays = []
    for number, mover, when in out.stored:
        for seat, seen in out.seen.items():
            if seat == mover:
                continue
            first = next((at for n, at in seen if n >= number), None)
            if first is not None:
                delays.append(max(0.0, first - when))
    queue.put((delays, len(out.stored), out.polls, time.process_time()))


def figures(url: str, tables: int = 8, seats: int = 4, poll: float | None = None, think: float = 0.3,
            moves: int = 10_000, seconds: float = 600.0) -> dict[str, float]:
    """Play ``tables`` tables of ``seats`` learners at once on the class database ``url``
    (each up to ``moves`` moves or ``seconds``) and measure how soon the others see a move."""
    poll = POLL_SECONDS if poll is None else poll
    book = Tables(Storage(url))
    ids = []
    for i in range(tables):
        info = book.open("bench", seats, seed=1000 + i)
        for seat in range(seats):
            book.join(info.code, f"t{info.id}-s{seat}", f"Learner {seat + 1}")
        ids.append(info.id)
    context = multiprocessing.get_context("fork")
    queue: multiprocessing.Queue[tuple[list[float], int, int, float]] = context.Queue()
    deadline = time.time() + seconds
    wall = time.perf_counter()
    processes = [context.Process(target=_table, args=(url, table, seats, poll, think, moves, deadline, queue))
                 for table in ids]
    for process in processes:
        process.start()
    results = [queue.get() for _ in processes]
    for process in processes:
        process.join()
    wall = time.perf_counter() - wall
    delays = sorted(d for r in results for d in r[0])
    finished = sum(1 for table in ids if book.frame(table, 0, f"t{table}-s0").over)
    cut = statistics.quantiles(delays, n=10) if len(delays) >= 2 else [0.0] * 9
    return {
        "tables": tables, "seats": seats, "poll_s": poll, "think_mean_s": think,
        "moves": sum(r[1] for r in results), "games_finished": finished,
        "polls_per_second": round(sum(r[2] for r in results) / wall, 1),
        "seen_p50_s": round(statistics.median(delays), 3) if delays else 0.0,
        "seen_p90_s": round(cut[8], 3), "seen_max_s": round(max(delays, default=0.0), 3),
        "seen_samples": len(delays),
        "wall_s": round(wall, 1), "cpu_s": round(sum(r[3] for r in results), 1),
    }


def kept_memory(url: str, games: int = 40) -> dict[str, float]:
    """What one process holds for the tables it reads (the teacher's page reads every table at each
    refresh): ``games`` finished games of a learner against a random bot, read one a second and
    once more a minute on, with every rebuilt game kept (as before games were let go) and with
    ``tables.LIVE_*``'s rules; bytes held (tracemalloc) and the reads' CPU time."""
    import gc
    import tracemalloc

    from . import tables as T

    maker, ids = Tables(Storage(url)), []
    for seed in range(games):
        info = maker.open("bench", 2, [None, "random"], seed=seed)
        maker.join(info.code, "bench", "Bench")
        rng = random.Random(seed)
        while not (frame := maker.frame(info.id, 0, "bench")).over:
            maker.play(info.id, 0, "bench", rng.choice(frame.choices), frame.turn)
        ids.append(info.id)
    rules = (T.LIVE_MOST, T.LIVE_IDLE_SECONDS, T.LIVE_OVER_SECONDS)
    figures: dict[str, float] = {"games": games}
    try:
        for name, setting in (("kept_all", (10**9, 1e12, 1e12)), ("let_go", rules)):
            T.LIVE_MOST, T.LIVE_IDLE_SECONDS, T.LIVE_OVER_SECONDS = setting
            now = [1e6]
            tables = Tables(Storage(url), lambda: now[0])
            gc.collect()
            tracemalloc.start()
            base, cpu = tracemalloc.get_traced_memory()[0], time.process_time()
            for table in ids:
                tables.state(table)
                now[0] += 1
            now[0] += 61
            tables.state(ids[-1])
            cpu = time.process_time() - cpu
            gc.collect()
            held = tracemalloc.get_traced_memory()[0] - base
            tracemalloc.stop()
            figures.update({f"{name}_games": tables.kept(), f"{name}_kib": round(held / 1024),
                            f"{name}_reads_cpu_s": round(cpu, 2)})
    finally:
        T.LIVE_MOST, T.LIVE_IDLE_SECONDS, T.LIVE_OVER_SECONDS = rules
    return figures
