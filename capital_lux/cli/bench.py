"""Benchmarks: ``python -m capital_lux bench`` prints their figures as JSON.

Each benchmark is a function returning a dict of named figures; ``BENCHMARKS``
lists them. Figures are measured on one process unless a name says otherwise. Rates
come as ``NAME_cpu`` and ``NAME_wall`` (per CPU second and per wall-clock second: the
machine may be shared, and CPU time varies less), medians of 5 interleaved repeats
with their ``_min`` and ``_max``.
"""

from __future__ import annotations

import importlib
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Callable

from ..engine import kernel
from ..engine.cards import N_
from ..engine.errors import CapitalLuxError
from ..engine.game import play_game, random_policy
from ..players.policies import make as kernel_policy

Figures = dict[str, float]


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (worker pools)."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def rates(works: dict[str, Callable[[], float]], repeats: int = 5) -> Figures:
    """Units a second of each work (which returns how many units it did), by CPU time and by
    wall time: ``NAME_cpu`` and ``NAME_wall`` are medians of ``repeats`` runs, ``_min`` and
    ``_max`` their range. The works run interleaved, round after round, so that a machine
    shared with other jobs slows them alike."""
    samples: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in works}
    for _ in range(repeats):
        for name, work in works.items():
            cpu, wall = cpu_seconds(), time.perf_counter()
            units = work()
            cpu, wall = cpu_seconds() - cpu, time.perf_counter() - wall
            samples[name][0].append(units / cpu)
            samples[name][1].append(units / wall)
    figures: Figures = {}
    for name, (by_cpu, by_wall) in samples.items():
        for clock, values in (("cpu", by_cpu), ("wall", by_wall)):
            figures[f"{name}_{clock}"] = round(statistics.median(values), 1)
            figures[f"{name}_{clock}_min"] = round(min(values), 1)
            figures[f"{name}_{clock}_max"] = round(max(values), 1)
    return figures


def _engine_games(players: int, games: int) -> Callable[[], float]:
    def work() -> float:
        for i in range(games):
            play_game(players, [random_policy] * players, random.Random(i))
        return games

    return work


def _kernel_games(players: int, kind: str, games: int) -> Callable[[], float]:
    """Games in the kernel; random bots share the chance generator, as ``random_policy`` does."""
    def work() -> float:
        for i in range(games):
            rng = random.Random(i)
            seats = [kernel_policy(kind, rng if kind == "random" else random.Random(p)) for p in range(players)]
            kernel.play_game(players, seats, rng)
        return games

    return work


def engine(repeats: int = 5) -> Figures:
    """The engine's random full games per second for 2, 3 and 4 players (chance resolved by
    a seeded generator), every move checked: the reference the kernel is measured against."""
    return rates({f"random_games_per_second_{n}p": _engine_games(n, 60) for n in (2, 3, 4)}, repeats)


def capitol(repeats: int = 5, games: int = 20) -> Figures:
    """Capitol's engine: whole games a second with random bots for 2, 3 and 4 players, and with
    the rule of thumb at 4, every move checked and every decision made from a view."""
    from ..capitol.bots import make_bot, play_game as play_capitol

    def played(players: int, bot: str, count: int) -> Callable[[], float]:
        def work() -> float:
            for seed in range(count):
                play_capitol(players, [make_bot(bot)] * players, seed, random.Random(seed))
            return count
        return work

    works = {f"capitol_random_games_per_second_{n}p": played(n, "random", games) for n in (2, 3, 4)}
    works["capitol_rule_games_per_second_4p"] = played(4, "rule", max(1, games // 2))
    return rates(works, repeats)


def capitol_search(games: int = 30, players: int = 3, deals: int = 8) -> Figures:
    """Capitol's search bot against rule-of-thumb bots: ``games`` seeded games, the search in
    each seat in turn, its share of games won (a tie for the highest score counts as a win)
    with its 95% Wilson interval, beside the rule of thumb's own share in the same seats of the
    same deals (the control, measured in the same run); and the search's CPU and wall time per
    decision (medians, and the 90th percentile of CPU)."""
    from ..analysis.stats import wilson_interval
    from ..capitol.bots import RuleOfThumbBot
    from ..capitol.rules import apply as apply_capitol
    from ..capitol.state import new_game as new_capitol
    from ..capitol.views import view as capitol_view
    from ..players.capitol_search import SearchBot

    won = {"search": 0, "rule": 0}
    cpu_per, wall_per = [], []
    for game in range(games):
        seat = game % players
        for kind in won:
            bots = [RuleOfThumbBot() for _ in range(players)]
            bot = SearchBot(deals=deals) if kind == "search" else bots[seat]
            state, rng = new_capitol(players, game), random.Random(game)
            while not state.is_terminal():
                who = state.current
                seen = capitol_view(state, who)
                cpu, wall = time.process_time(), time.perf_counter()
                action = (bot if who == seat else bots[who]).choose(seen, rng)
                cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
                if who == seat and kind == "search" and len(seen.legal_actions) > 1:  # a decision searched
                    cpu_per.append(cpu)
                    wall_per.append(wall)
                state = apply_capitol(state, action)
            won[kind] += seat in state.winners()
    figures: Figures = {"games": float(games), "players": float(players), "deals": float(deals)}
    for kind, count in won.items():
        low, high = wilson_interval(count, games)
        figures |= {f"{kind}_win_share": round(count / games, 3), f"{kind}_win_share_low": round(low, 3),
                    f"{kind}_win_share_high": round(high, 3)}
    cpu_per.sort()
    figures |= {"search_decisions": float(len(cpu_per)),
                "search_cpu_ms_per_decision": round(1000 * statistics.median(cpu_per), 1),
                "search_cpu_ms_per_decision_p90": round(1000 * cpu_per[int(0.9 * (len(cpu_per) - 1))], 1),
                "search_wall_ms_per_decision": round(1000 * statistics.median(wall_per), 1)}
    return figures


def kernel_figures(repeats: int = 5) -> Figures:
    """The playout kernel against the engine, measured in the same run: random and
    rule-of-thumb full 4-player games a second, ``simulate`` with random bots in one
    process, search iterations a second, and samples of a simulated forward risk with
    rule-of-thumb opponents (``_forward_samples``, in samples a second).
    ``kernel_compiled`` is 1 when the kernel runs compiled by mypyc, 0 in pure Python
    (``capital_lux.compiled``)."""
    from .. import compiled
    from ..analysis.simulate import simulate
    from ..players.bots import RuleOfThumbBot, as_policy

    rule = as_policy(RuleOfThumbBot())

    def engine_rule() -> float:
        for i in range(4):
            play_game(4, [rule] * 4, random.Random(i))
        return 4

    def simulate_random() -> float:
        simulate(4, ["random"], 600, seed=1, workers=1)
        return 600

    works = {
        "engine_random_games_4p": _engine_games(4, 100),
        "kernel_random_games_4p": _kernel_games(4, "random", 600),
        "simulate_random_games_4p_1_process": simulate_random,
        "engine_rule_games_4p": engine_rule,
        "kernel_rule_games_4p": _kernel_games(4, "rule", 12),
        "search_iterations_4p": _search_iterations,
        "forward_risk_rule_samples_4p": _forward_samples,
    }
    return {"kernel_compiled": float(compiled.IMPLEMENTATION == "compiled"), **rates(works, repeats)}


def _search_iterations() -> float:
    """Search iterations on the first decisions of seeded 4-player games."""
    from ..engine.game import Game
    from ..engine.views import view
    from ..players.search import ismcts

    for seed in range(4):
        game = Game(4, seed)
        ismcts(view(game.state, game.state.current), random.Random(seed), iterations=100)
    return 400


def _forward_samples(samples: int = 2000) -> float:
    """Samples of the forward risk to the round end (``forward.forward_risk``, simulated) with
    rule-of-thumb opponents, from the 4-player mid-round table of ``bench risk``: each sample a
    world dealt from the learner's view, played out in the kernel."""
    from ..analysis.forward import forward_risk
    from ..analysis.risk import example_view

    forward_risk(example_view(players=4, seed=34, cards_left=4), "rule", samples=samples, seed=1, exact_ms=0)
    return samples


def differential(random_games: int = 3000, rule_games: int = 150) -> Figures:
    """The kernel against the engine over many more games than the test suite plays: for
    2, 3 and 4 players, random bots and rule-of-thumb bots (seeded as ``simulate`` seeds
    them: one generator a game), the games compared and how many ended differently
    (final position, scores or winners; it must be 0)."""
    from ..analysis.simulate import play_in_engine, play_in_kernel

    figures: Figures = {}
    for players in (2, 3, 4):
        for kind, games in (("random", random_games), ("rule", rule_games)):
            bots = [kind] * players
            differ = 0
            for g in range(games):
                ks = play_in_kernel(players, bots, 2026, g)
                expected = play_in_engine(players, bots, 2026, g)
                assert ks is not None
                if (kernel.to_state(ks) != expected or kernel.scores(ks) != expected.scores()
                        or kernel.winners(ks) != expected.winners()):
                    differ += 1
            figures[f"{kind}_{players}p_games_compared"] = float(games)
            figures[f"{kind}_{players}p_games_that_differ"] = float(differ)
    return figures


def bots(repeats: int = 5) -> Figures:
    """Rule-of-thumb games per second (every seat, and one against three random bots) in the
    engine with view-based bots; search iterations per second."""
    from ..players.bots import RuleOfThumbBot, as_policy

    rule = as_policy(RuleOfThumbBot())

    def rule_games() -> float:
        for i in range(3):
            play_game(4, [rule] * 4, random.Random(i))
        return 3

    def rule_vs_random() -> float:
        for i in range(6):
            play_game(4, [rule] + [random_policy] * 3, random.Random(i))
        return 6

    return rates({"rule_games_per_second_4p": rule_games, "rule_vs_3_random_games_per_second_4p": rule_vs_random,
                  "search_iterations_per_second_4p": _search_iterations}, repeats)


def simulation(games: int = 400, repeats: int = 5) -> Figures:
    """Throughput of ``simulate`` (4 rule-of-thumb bots) with 1 and 2 worker processes (CPU
    time includes the workers'). The run is long enough (400 games, about half a second on
    one core) that starting the workers does not decide the figure."""
    from ..analysis.simulate import simulate

    def run(workers: int) -> Callable[[], float]:
        def work() -> float:
            simulate(4, ["rule"], games, seed=0, workers=workers)
            return games

        return work

    figures = rates({"games_per_second_1_worker": run(1), "games_per_second_2_workers": run(2)}, repeats)
    figures["speed_up_2_workers_wall"] = round(
        figures["games_per_second_2_workers_wall"] / figures["games_per_second_1_worker_wall"], 2)
    return figures


def risk() -> Figures:
    """The exact round-end risk "now", forward risk to the real round end, the one ranking of
    the moves to the round's end and to the game's, and the Bayesian modifiers' calibration
    (``riskbench``)."""
    from ..analysis import riskbench

    return riskbench.figures()


def advice(positions: int = 70, games: int = 20) -> Figures:
    """The one ranking the hint and the comparison read, on a second look: rerun stability,
    the quoted figures against fresh ones, CPU and wall seconds per ranking, and the win
    share of a seat that follows it against three rule-of-thumb bots (``advicebench``)."""
    from ..analysis import advicebench

    return advicebench.figures(positions, games)


def endgame(per_players: int = 70, check: int = 12, seed: int | None = None) -> Figures:
    """The exact search at the end of a round: over seeded last-turns positions of 2, 3 and 4
    players, the share the risk panel and the ranking answer exactly within the default
    budget, their CPU milliseconds by players and model, where the others lie, and a sample
    compared figure by figure with the engine walk (``endgamebench``). ``seed`` (``bench
    endgame:27``) takes another set of positions than the usual one, for a second look."""
    from ..analysis import endgamebench

    return endgamebench.benchmark(per_players, check, seed=endgamebench.SEED if seed is None else seed)


def endgame_walk(seed: int | None = None) -> Figures:
    """Every exact figure of the end-of-round bench's positions, both models, the whole move
    and every move, compared with the engine walk (smaller walks than ``endgame``'s sample:
    minutes for the set); where they disagree, which position, model, move and figures.
    ``endgame_walk:27`` walks another seed's positions."""
    from ..analysis import endgamebench

    return endgamebench.walk_everywhere(seed=endgamebench.SEED if seed is None else seed)


def review(repeats: int = 3, games: int = 24) -> Figures:
    """The post-game review: CPU and wall seconds for a 4-player game at the default settings
    (target under 30 s of CPU) and to its first judged decision; the calibration of its verdicts
    against hint-following, rule-of-thumb and random seats over seeded games, each share with its
    count and 95% interval (``reviewbench``)."""
    from ..analysis import reviewbench

    return reviewbench.figures(repeats, games)


def risk_calibration(games: int = 30, every: int = 2) -> Figures:
    """The risk panel's chances against what happened: seeded rule-of-thumb games, every
    ``every``-th draft pick or play of every seat, by bin of the chance shown, the observed
    frequency with its 95% interval, the Brier score (``analysis.riskcalibration``)."""
    from ..analysis import riskcalibration

    return riskcalibration.figures(games, every)


def risk_oracle(games: int = 30, every: int = 2) -> Figures:
    """``risk_calibration``'s cases with some of the truth given, to find what its misses come
    from: the others' true hands, the face-down modifiers' true values, both
    (``riskcalibration.diagnosis``)."""
    from ..analysis import riskcalibration

    return riskcalibration.diagnosis(games, every)


def hint(games: int = 3, players: int = 4, rank_games: int | None = None, rounds: int = 3) -> Figures:
    """The hint's latency by decision kind (target under 1 s): over seeded games of rule-of-thumb
    bots, ``advise`` at every decision of seat 0 with more than one legal move, CPU and wall
    milliseconds per kind: a round's first draft pick, the other picks, plays, Agents, Clerics and
    gold; the median, the slowest and the share under a second of CPU (``rounds``: the first
    rounds of each game only)."""
    from ..engine.game import Game
    from ..engine.state import DRAFT
    from ..engine.views import view
    from ..players.bots import RuleOfThumbBot
    from ..tutor.advice import advise

    times: dict[str, list[tuple[float, float]]] = {}
    bot = RuleOfThumbBot()
    for seed in range(games):
        game, rng = Game(players, seed), random.Random(seed)
        while not game.state.is_terminal() and game.state.round <= rounds:
            v = view(game.state, game.state.current)
            if v.viewer == 0 and len(v.legal_actions) > 1:
                kind = v.phase
                if v.phase == DRAFT and not any(v.draft_pick_counts):
                    kind = "draft_first"
                c, w = time.thread_time(), time.perf_counter()
                advise(v, games=rank_games)
                times.setdefault(kind, []).append((time.thread_time() - c, time.perf_counter() - w))
            game.play(bot.choose(v, rng))
    figures: Figures = {"games": games, "players": players}
    for kind, found in sorted(times.items()):
        cpu = [x for x, _ in found]
        wall = [y for _, y in found]
        figures.update({f"{kind}_decisions": len(found),
                        f"{kind}_cpu_ms_median": round(1000 * statistics.median(cpu), 1),
                        f"{kind}_cpu_ms_max": round(1000 * max(cpu), 1),
                        f"{kind}_wall_ms_median": round(1000 * statistics.median(wall), 1),
                        f"{kind}_cpu_ms_p90": round(1000 * _p90(cpu), 1),
                        f"{kind}_wall_ms_p90": round(1000 * _p90(wall), 1),
                        f"{kind}_under_1s_cpu_share": round(sum(x < 1.0 for x in cpu) / len(cpu), 3)})
    return figures


def _p90(values: list[float]) -> float:
    """The 90th percentile (nearest rank): the slowest tenth's fastest."""
    ranked = sorted(values)
    return ranked[max(0, -(-9 * len(ranked) // 10) - 1)]


def tutor() -> Figures:
    """The tutor in Chromium via Voila: seconds to an interactive page (target < 5), and the
    median time from a click playing a card to the redrawn table and risk panel in a
    4-player game (target < 150 ms). Needs Chromium and Playwright."""
    figures: Figures = _harness("browser").measure(players=4)
    return figures


def load(learners: int = 30) -> Figures:
    """A classroom: ``learners`` (30 unless ``load:N``) open the tutor at once on one Voila and
    each plays a whole 2-player game by clicking; time to interactive, click latency (last
    click to the table's answer), wall time, fairness and the kernels' memory. First, a class
    as ``make class`` opens it (``class_...``): the teacher's page at once, then ``learners``
    arriving on the exercises at once, their time to interactive (median, p90), the server's
    CPU beside the wall time, the kernels' memory; and again beside a client holding every
    websocket it may (``class_hostile_...``)."""
    harness = _harness("load")
    figures: Figures = {**harness.class_figures(learners), **harness.figures(sessions=learners)}
    return figures


def classdb(rows: int = 300_000, learners: int = 30, repeats: int = 5) -> Figures:
    """The class database with ``rows`` answers (SQLite): the dashboard's figures read from the
    tables kept with every answer (``class_figures``) against reading every row into Python (the way before),
    and how long a learner's answer waits while the teacher's page reads (medians of
    ``repeats``; CPU beside wall)."""
    import sqlite3
    import tempfile
    import threading

    from ..lessons.classroom import class_figures, summarise
    from ..lessons.exercises import EXERCISES
    from ..lessons.storage import FILL_DASHBOARD, Storage, new_session

    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/class.sqlite3"
        sessions = [new_session() for _ in range(learners)]
        with Storage(path) as storage:
            for session in sessions:
                storage.set_name(session, f"learner {session[:4]}")
        exercises = [ex.id for ex in EXERCISES]
        with sqlite3.connect(path) as connection:  # one bulk insert: the figure is the reading, not this
            connection.executemany(
                "INSERT INTO attempts (session, exercise, instance, answer, correct, mistake, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                ((rng.choice(sessions), rng.choice(exercises), str(rng.randrange(10**9)),
                  f"{rng.randrange(1, 9)}/{rng.randrange(9, 40)}", int(rng.random() < 0.1),
                  rng.choice([None, "binomial", "prior"]), "2026-11-25T00:00:00.000+00:00") for _ in range(rows)))
            connection.execute(  # what each answer would have kept, as a class database from before gets it
                "INSERT INTO progress (session, exercise, attempts, solved) SELECT session, exercise, COUNT(*), "
                "MIN(CASE WHEN correct = 1 THEN answer END) FROM attempts GROUP BY session, exercise")
            for statement in FILL_DASHBOARD:
                connection.execute(statement)
            distinct = connection.execute("SELECT COUNT(*) FROM wrong_answers").fetchone()[0]
        figures: Figures = {"rows": float(rows), "learners": float(learners),
                            "wrong_answers_per_learner_rows": float(distinct)}
        with Storage(path) as storage:
            for name, read in (("sql", lambda: class_figures(storage)),
                               ("python", lambda: summarise(storage.attempts()))):
                cpu, wall = [], []
                for _ in range(repeats):
                    c, w = time.process_time(), time.perf_counter()
                    read()
                    cpu.append(time.process_time() - c)
                    wall.append(time.perf_counter() - w)
                figures[f"dashboard_{name}_ms_cpu"] = round(1000 * statistics.median(cpu), 1)
                figures[f"dashboard_{name}_ms_wall"] = round(1000 * statistics.median(wall), 1)
            stop = threading.Event()

            def teacher() -> None:
                with Storage(path) as reader:  # another kernel: a connection of its own
                    while not stop.is_set():
                        class_figures(reader)

            reading = threading.Thread(target=teacher)
            reading.start()
            waits = []
            try:
                for i in range(40):
                    start = time.perf_counter()
                    storage.record_attempt(sessions[i % learners], exercises[0], f"{i}/97", False)
                    waits.append(time.perf_counter() - start)
            finally:
                stop.set()
                reading.join()
        figures["answer_wait_ms_median_while_teacher_reads"] = round(1000 * statistics.median(waits), 1)
        figures["answer_wait_ms_max_while_teacher_reads"] = round(1000 * max(waits), 1)
    return figures


def worksheet() -> Figures:
    """The printed worksheet and answer key: A4 pages in Chromium's PDF, per language, on one
    class's cards and the most over several classes' (each exercise never split across pages).
    Needs Chromium and Playwright."""
    figures: Figures = _harness("printing").figures()
    return figures


def numbers(classes: int = 20) -> Figures:
    """Every learner their own numbers, and a checker that cannot be searched, over ``classes``
    classes of 30 (the seeds the server draws): per kind, the most learners of one class who
    share one exact answer (worst class); per class, how many of one learner's 21 exercises a
    bisection (decimals) and a Stern–Brocot walk (exact fractions only) solve within 20 answers
    at the page's pace, with the checker and with an oracle saying higher or lower every time."""
    variety, search = _harness("classmates"), _harness("searching")
    from ..lessons.problems import EXERCISES

    cpu, wall = cpu_seconds(), time.perf_counter()
    figures: Figures = {f"share_{ex.id}": float(max(variety.most_sharing(ex.id, c) for c in range(classes)))
                        for ex in EXERCISES}
    figures["kinds_over_6"] = float(sum(value > variety.MOST for value in list(figures.values())))
    figures["variety_cpu_s"], figures["variety_wall_s"] = round(cpu_seconds() - cpu, 1), round(time.perf_counter() - wall, 1)
    cpu, wall = cpu_seconds(), time.perf_counter()
    for kind in ("bisection", "stern-brocot"):
        for oracle in (False, True):
            outcomes = [search.search(kind, [variety.learner_instance(ex.id, c, 0) for ex in EXERCISES], oracle)
                        for c in range(classes)]
            name = f"{kind.replace('-', '_')}{'_oracle' if oracle else ''}"
            figures[f"{name}_solved_max"] = float(max(o.solved for o in outcomes))
            figures[f"{name}_solved_median"] = float(statistics.median(o.solved for o in outcomes))
            answers = [n for o in outcomes for n in o.answers]
            figures[f"{name}_answers_median"] = float(statistics.median(answers)) if answers else 0.0
    figures["minutes_for_20_answers"] = search.minutes_at_the_pages_pace(search.BUDGET)
    figures["search_cpu_s"], figures["search_wall_s"] = round(cpu_seconds() - cpu, 1), round(time.perf_counter() - wall, 1)
    return figures


def sweep(seeds: int = 60) -> Figures:
    """Every kind on ``seeds`` seeds: each classic mistake written to 2, 3 and 4 decimals and as a
    percentage, rounded and cut off, must never be "correct"; the right answer to the decimals
    asked and more always must (the suite runs a few seeds)."""
    harness = _harness("sweeping")
    cpu, wall = cpu_seconds(), time.perf_counter()
    found = harness.sweep(range(seeds))
    return {"classic_answers_tried": float(found.tried), "right_answers_tried": float(found.right_tried),
            "faults": float(len(found.faults)), "cpu_s": round(cpu_seconds() - cpu, 1),
            "wall_s": round(time.perf_counter() - wall, 1)}


def _harness(name: str) -> ModuleType:
    """A browser harness module from the source checkout's ``tests`` folder (not shipped)."""
    folder = Path(__file__).resolve().parents[2] / "tests"
    if not (folder / f"{name}.py").is_file():
        raise SystemExit(f"the tutor, load and worksheet benchmarks drive a browser with the harness in a source "
                         f"checkout's tests folder, and {folder} has no {name}.py: run them from a checkout of the "
                         f"project")
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    return importlib.import_module(name)


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
    "engine": engine, "kernel": kernel_figures, "differential": differential, "bots": bots,
    "simulation": simulation, "risk": risk, "advice": advice, "endgame": endgame, "endgame_walk": endgame_walk,
    "review": review, "tutor": tutor, "load": load,
    "long_run": long_run, "classdb": classdb, "worksheet": worksheet, "numbers": numbers, "sweep": sweep,
    "capitol": capitol, "capitol_search": capitol_search, "hint": hint,
    "risk_calibration": risk_calibration, "risk_oracle": risk_oracle,
}

def tables(tables: int = 8, seats: int = 4) -> Figures:
    """Class tables: ``tables`` tables of ``seats`` learners playing at once on one SQLite class
    database, each table a process and each learner's page a thread polling as the page does;
    the time until the other learners see a move (p90 target under 1 s), polls a second, wall
    and CPU time."""
    import tempfile

    from ..lessons.tablesbench import figures

    with tempfile.TemporaryDirectory() as folder:
        return figures(str(Path(folder) / "class.sqlite3"), tables, seats)


BENCHMARKS["tables"] = tables


def classroom(learners: int = 30) -> Figures:
    """``load``'s first part alone: a class as ``make class`` opens it, the teacher's page at once
    (target: usable within 5 s), ``learners`` arriving at once (target: median time to interactive
    under 10 s; under 15 s beside a client holding every websocket it may)."""
    figures: Figures = _harness("load").class_figures(learners)
    return figures


BENCHMARKS["classroom"] = classroom


def tables_browser() -> Figures:
    """A whole game of four learners at one class table, each in a Chromium context of their own:
    every decision clicked, every byte each browser receives scanned for the other seats' hidden
    cards, picks and modifiers, the same scores on every page and the record read by
    ``capital-lux review``; wall time, CPU of this process and of the server, kernels and browser."""
    figures: Figures = _harness("tables_browser").figures()
    return figures


BENCHMARKS["tables_browser"] = tables_browser

def guards() -> Figures:
    """The class server's guards against their absence, in fresh processes: jsonschema's import,
    a kernel's start (tutor, exercises), the server's imports, the hub's single-user server
    (``serve.servebench``)."""
    from ..serve.servebench import guards as measured

    return measured()


def class_start() -> Figures:
    """``make class --learners=2`` from ``start`` until idle, with Voila's warm pools and without:
    the server's and its kernels' CPU (``serve.servebench``)."""
    from ..serve.servebench import class_start as measured

    return measured()


def hub() -> Figures:
    """Three learners signing in to a class on JupyterHub, one after another, with the hub
    ``tests/test_hub.py`` starts (``serve.servebench.hub``)."""
    from ..serve.servebench import hub as measured

    return measured(_harness("test_hub"))


BENCHMARKS["hub"] = hub
BENCHMARKS["guards"] = guards
BENCHMARKS["class_start"] = class_start

#: The benchmarks that take another set of positions (``endgame:27``).
SEEDED: dict[str, Callable[[int], Figures]] = {"endgame": lambda seed: endgame(seed=seed), "endgame_walk": endgame_walk}


def run(names: list[str] | None = None) -> dict[str, Figures]:
    chosen = names or list(BENCHMARKS)
    learners = [n for n in chosen if n.startswith("load:")]
    for name in learners:  # "load:30": the classroom benchmark with that many learners
        count = name.partition(":")[2]
        if not (count.isascii() and count.isdigit() and len(count) <= 3 and 1 <= int(count) <= 200):
            raise CapitalLuxError(N_("{name}: give the number of learners, from 1 to 200 (for example load:30)."),
                                  name=name)
    seeded = [n for n in chosen if ":" in n and n.partition(":")[0] in SEEDED]
    for name in seeded:  # "endgame:27": the exact search's benchmarks on another set of positions
        seed = name.partition(":")[2]
        if not (seed.isascii() and seed.isdigit() and len(seed) <= 9):
            raise CapitalLuxError(N_("{name}: give the seed of the positions, a whole number of up to 9 digits "
                                     "(for example endgame:27)."), name=name)
    unknown = [n for n in chosen if n not in BENCHMARKS and n not in learners and n not in seeded]
    if unknown:
        raise CapitalLuxError(N_("Unknown benchmark {names}: choose from {choices}."), names=", ".join(unknown),
                              choices=", ".join(BENCHMARKS))
    return {name: load(int(name.partition(":")[2])) if name in learners
            else SEEDED[name.partition(":")[0]](int(name.partition(":")[2])) if name in seeded
            else BENCHMARKS[name]() for name in chosen}
