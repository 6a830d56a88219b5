"""Figures for ``python -m capital_lux bench review``: is the post-game review quick, and
does it tell good play from bad?

* speed: CPU and wall seconds to review a seeded 4-player game at the default settings
  (every seat's decisions, within ``REVIEW_BUDGET``), and to the first judged decision a page
  can show (medians of ``repeats``);
* calibration: over seeded games where a seat following the hint, rule-of-thumb seats and a seat
  playing uniformly at random share the table, each kind's share of decisions judged best or
  good and of mistakes or blunders, with counts and 95% intervals, points lost per decision, the
  ratio of random to rule-of-thumb mistakes, whether the hint's seats are the most accurate, and
  the share of decisions the budget let the review judge to the game's end (the tables played
  and reviewed in two processes);
* without the review: what picking at random at one phase (draft picks, plays, Agent, Cleric,
  gold) costs a rule-of-thumb seat in final points, so the calibration's figures by phase can be
  read against how much each phase's choices matter; and what the rule of thumb's own choices
  are worth against what it did before (``rule_variants``).
"""

from __future__ import annotations

import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Callable

from ..engine import kernel
from ..engine.game import Game, GameRecord
from ..engine.state import GOLD, PHASES
from ..engine.views import view
from .forward import RANK_MIN_GAMES, rank_moves
from .review import DEFAULT_HORIZON, REVIEW_BUDGET, Decision, Review, decisions_of, review_game
from .stats import Estimate, ratio_interval, wilson_interval

Figures = dict[str, float]
#: Games the hint's seat ranks its moves on (the ranking then plays 100 per move: ``rank_moves``).
HINT_GAMES = 200


def game_record(players: int, seed: int, kinds: list[str], hint_games: int = HINT_GAMES) -> GameRecord:
    """A seeded game: each seat "random", "rule" or "hint" (the ranking's move, on ``hint_games``
    games shared among the moves, each move played on ``RANK_MIN_GAMES`` at least, or on
    ``hint_games`` if fewer: a smoke's small table stays small)."""
    from ..players.bots import RandomBot, RuleOfThumbBot  # players sit below the analysis

    game, rng = Game(players, seed), random.Random(seed)
    random_bot, rule_bot = RandomBot(), RuleOfThumbBot()
    while not game.state.is_terminal():
        v = view(game.state, game.state.current)
        kind = kinds[v.viewer]
        if kind == "hint" and v.phase != GOLD and len(v.legal_actions) > 1:
            game.play(rank_moves(v, seed=seed, games=hint_games,
                                 min_games=min(hint_games, RANK_MIN_GAMES)).best.action)
        else:
            game.play((random_bot if kind == "random" else rule_bot).choose(v, rng))
    return game.record()


def speed(repeats: int = 3, seed: int = 1, horizon: str = DEFAULT_HORIZON) -> Figures:
    record = game_record(4, seed, ["random", "rule", "rule", "rule"])
    cpu, wall, first_cpu, first_wall, decisions = [], [], [], [], 0
    reviews = []
    for _ in range(repeats):
        c, w = time.process_time(), time.perf_counter()
        first: list[tuple[float, float]] = []

        def seen(_: Decision) -> None:
            if not first:
                first.append((time.process_time() - c, time.perf_counter() - w))

        review = review_game(record, 0, on_decision=seen, horizon=horizon)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
        first_cpu.append(first[0][0])
        first_wall.append(first[0][1])
        decisions = len(review.decisions)
        reviews.append(review)
    end = f"_{horizon}"
    figures = {
        "decisions_4_players": decisions,
        # 1: every repeat gave the very same review (the budget, on the CPU clock, never bound)
        "same_review_every_repeat": float(all(r == reviews[0] for r in reviews)),
        "review_cpu_s_median": round(statistics.median(cpu), 2), "review_wall_s_median": round(statistics.median(wall), 2),
        "review_cpu_s_max": round(max(cpu), 2), "review_wall_s_max": round(max(wall), 2),
        "first_decision_cpu_s_median": round(statistics.median(first_cpu), 3),
        "first_decision_wall_s_median": round(statistics.median(first_wall), 3),
    }
    return {key.replace("_s_", f"{end}_s_") if "_s_" in key else key: value for key, value in figures.items()}


#: The calibration's tables: every game seats each kind of player, in turn at each seat.
CALIBRATION_KINDS = ("hint", "rule", "random", "rule")


def table(seed: int, players: int = 4, horizon: str = DEFAULT_HORIZON, budget: float | None = REVIEW_BUDGET,
          hint_games: int = HINT_GAMES, budget_options: dict[str, float] | None = None) -> tuple[list[str], Review, float]:
    """Calibration table ``seed``: its seats' kinds, the review of its record (``budget_options``:
    ``review_game``'s games, min_games, exact_ms), and the review's seconds of CPU."""
    turn = seed % players
    kinds = [CALIBRATION_KINDS[(seat + turn) % len(CALIBRATION_KINDS)] for seat in range(players)]
    record = game_record(players, seed, kinds, hint_games)
    began = time.process_time()
    review = review_game(record, 0, seed=seed, horizon=horizon, budget=budget, **(budget_options or {}))  # type: ignore[arg-type]
    return kinds, review, time.process_time() - began


def calibration(tables: int = 12, players: int = 4, horizon: str = DEFAULT_HORIZON, budget: float | None = REVIEW_BUDGET,
                hint_games: int = HINT_GAMES, workers: int = 1, **budget_options: float) -> Figures:
    """The verdicts against play of known strength: over ``tables`` seeded games where a seat
    following the hint (the ranking's move), rule-of-thumb seats and a seat playing uniformly at
    random share the table (``CALIBRATION_KINDS``, turned one seat per game), each kind's share of
    decisions judged best or good and share judged mistakes or blunders, each with its count and
    95% (Wilson) interval, and its points lost per decision; then the ratios the verdicts must
    show: random seats' mistakes at least twice as frequent as the rule of thumb's, and the
    hint's seats the most accurate. Keys end in ``_game`` or ``_round`` (the horizon). The
    tables are played and reviewed in ``workers`` processes (each review on its own CPU clock:
    the same figures as in one)."""
    one = partial(table, players=players, horizon=horizon, budget=budget, hint_games=hint_games,
                  budget_options=budget_options)
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            reviewed = list(pool.map(one, range(tables)))
    else:
        reviewed = [one(seed) for seed in range(tables)]
    return tally(reviewed, players, horizon)


def tally(reviewed: list[tuple[list[str], Review, float]], players: int = 4,
          horizon: str = DEFAULT_HORIZON) -> Figures:
    """``calibration``'s figures from its tables' reviews (``table``)."""
    tables = len(reviewed)
    counts: dict[str, list[float]] = {}  # decisions, best or good, mistakes or blunders, points lost
    phases: dict[tuple[str, str], list[int]] = {}  # (kind, phase): decisions, mistakes or blunders
    depths = [0, 0]  # decisions judged to the asked horizon, in all
    fewer = [0, 0]  # simulated decisions judged on fewer games than asked (the budget bound), in all
    cpu = []
    for kinds, review, spent in reviewed:
        cpu.append(spent)
        depths[0] += sum(review.depth_of(d) == review.horizon for d in review.decisions)
        depths[1] += len(review.decisions)
        fewer[0] += len(review.cut_short())
        fewer[1] += sum(d.games > 0 for d in review.decisions)
        for seat, kind in enumerate(kinds):
            row = counts.setdefault(kind, [0.0, 0.0, 0.0, 0.0])
            for d in review.of_seat(seat):
                row[0] += 1
                row[1] += d.verdict in ("best", "good")
                row[2] += d.verdict in ("mistake", "blunder")
                row[3] += d.loss
                by_phase = phases.setdefault((kind, d.phase), [0, 0])
                by_phase[0] += 1
                by_phase[1] += d.verdict in ("mistake", "blunder")
    end = f"_{horizon}"
    figures: Figures = {"games": tables, "players": players,
                        f"judged_to_the_horizon_share{end}": round(depths[0] / max(1, depths[1]), 3),
                        # 0 at the defaults (games = min_games): no decision cut short by the budget
                        f"judged_on_fewer_games_share{end}": round(fewer[0] / max(1, fewer[1]), 3),
                        f"review_cpu_s_median{end}": round(statistics.median(cpu), 2) if cpu else 0.0,
                        f"review_cpu_s_max{end}": round(max(cpu), 2) if cpu else 0.0}
    rates: dict[str, tuple[float, float]] = {}
    mistakes: dict[str, tuple[int, int]] = {}  # by kind: mistakes or blunders, decisions
    for kind, (n, good, bad, lost) in sorted(counts.items()):
        count = max(1, int(n))
        low, high = wilson_interval(good, count)
        bad_low, bad_high = wilson_interval(bad, count)
        rates[kind] = (good / count, bad / count)
        mistakes[kind] = (int(bad), count)
        figures.update({
            f"{kind}_decisions": n,
            f"{kind}_best_or_good{end}": good, f"{kind}_best_or_good_share{end}": round(good / count, 3),
            f"{kind}_best_or_good_low{end}": round(low, 3), f"{kind}_best_or_good_high{end}": round(high, 3),
            f"{kind}_mistakes{end}": bad, f"{kind}_mistakes_per_decision{end}": round(bad / count, 3),
            f"{kind}_mistakes_low{end}": round(bad_low, 3), f"{kind}_mistakes_high{end}": round(bad_high, 3),
            f"{kind}_points_lost_per_decision{end}": round(lost / count, 3),
        })
    for (kind, phase), (n, bad) in sorted(phases.items()):  # where each kind's mistakes are
        figures[f"{kind}_{phase}_decisions{end}"] = float(n)
        figures[f"{kind}_{phase}_mistakes_per_decision{end}"] = round(bad / max(1, n), 3)
    if "random" in rates and "rule" in rates:  # with its interval: at a dozen tables, "twice" is a wide figure
        ratio, low, high = ratio_interval(*mistakes["random"], *mistakes["rule"])
        figures.update({f"random_over_rule_mistakes{end}": round(ratio, 2),
                        f"random_over_rule_mistakes_low{end}": round(low, 2),
                        f"random_over_rule_mistakes_high{end}": round(high, 2)})
    if "hint" in rates:
        figures[f"hint_most_accurate{end}"] = float(all(rates["hint"][0] >= r[0] for r in rates.values()))
    return figures


def spread(seed: int = 1, every: int = 6, games: int = 100) -> Figures:
    """Why the review judges to the round's end: the standard deviation, from one game to the
    next, of the difference between the best move's points and another's on the same games
    (paired), at each horizon, median over every ``every``-th decision of a seeded 4-player game
    (each move played on ``games`` games, no exact search). A loss of ``d`` points is told from
    chance on about ``(2 * 1.96 * sd / d)**2`` games per move."""
    record = game_record(4, seed, ["random", "rule", "rule", "rule"])
    found: Figures = {}
    for horizon in ("round", "game"):
        spreads = []
        for index, v, _ in decisions_of(record)[::every]:
            if v.phase == GOLD:
                continue
            ranking = rank_moves(v, seed=index, games=games * len(v.legal_actions), min_games=games, batch=games,
                                 exact_ms=0.0, horizon=horizon, neutral=True)
            if ranking.games:  # an exact ranking has no spread to measure
                spreads += [half * ranking.games ** 0.5 / 1.96 for _, half in ranking.gaps[1:]]
        found[f"paired_spread_points_median_{horizon}"] = round(statistics.median(spreads), 2)
    return found


class _RandomAt:
    """A kernel seat playing the rule of thumb, except at ``phases``, where it picks uniformly."""

    random_below: Callable[[int], int] | None = None  # never inline: ``decide`` chooses the policy
    random_bits: Callable[[int], int] | None = None

    def __init__(self, rng: random.Random, phases: tuple[int, ...]) -> None:
        from ..players.policies import make  # players sit below the analysis

        self.rule, self.uniform, self.phases = make("rule", rng), kernel.RandomPolicy(rng), phases

    def decide(self, ks: kernel.KState) -> kernel.Decision:
        return (self.uniform if ks.phase in self.phases else self.rule).decide(ks)


#: The kernel's decision phases, by the review's names for them.
KERNEL_PHASES = {"draft": kernel.DRAFT, "play": kernel.PLAY, "agent": kernel.AGENT, "cleric": kernel.CLERIC,
                 "gold": kernel.GOLD}


class _RuleWithout:
    """A kernel seat playing the rule of thumb as it was before one of its measured changes:
    ``"plan_draft"`` drafts by its plan alone (not the highest values first), ``"limits_now"``
    plans its hand against the limits as they stand (not as expected at the round's end),
    ``"estimate_only"`` judges its plays by the estimated limits alone (not weighing the
    chances of the capital's unseen modifiers)."""

    random_below: Callable[[int], int] | None = None
    random_bits: Callable[[int], int] | None = None

    def __init__(self, rng: random.Random, variant: str) -> None:
        self.variant = variant  # the rule of thumb draws nothing: ``rng`` is the seats' signature

    def decide(self, ks: kernel.KState) -> kernel.Decision:
        from ..players.policies import table_for  # players sit below the analysis
        from ..players.rule_of_thumb import _draft_worth, rule_decision

        choices = kernel.options(ks)
        if self.variant == "plan_draft" and ks.phase == kernel.DRAFT:
            worth = _draft_worth(table_for(ks, ks.current), choices)
            return choices[max(range(len(choices)), key=worth.__getitem__)]
        t = table_for(ks, ks.current, in_hands=0 if self.variant == "limits_now" else -1)
        if self.variant == "estimate_only":
            t.chances = [[], [], [], []]
        pending = ks.pending if ks.phase == kernel.AGENT else None
        return choices[rule_decision(t, PHASES[ks.phase], choices, pending)]


def _seat_zero_change(name: str, seat_zero: Callable[[random.Random], kernel.KernelPolicy], games: int,
                      players: int, rule: list[tuple[int, int]]) -> Figures:
    """Seat 0's final points and final margin over the best other seat with ``seat_zero`` against
    rule-of-thumb seats, minus ``rule``'s (the same seeded games with the rule of thumb throughout),
    each with its 95% half-width: ``{name}_points_change`` and ``{name}_margin_change``."""
    changed = _seat_zero_results(seat_zero, games, players)
    figures: Figures = {}
    for k, figure in enumerate(("points", "margin")):
        estimate = Estimate.of_values([a[k] - b[k] for a, b in zip(changed, rule)])
        figures[f"{name}_{figure}_change"] = round(estimate.mean, 2)
        figures[f"{name}_{figure}_change_half"] = round(estimate.half_width, 2)
    return figures


def _seat_zero_results(seat_zero: Callable[[random.Random], kernel.KernelPolicy], games: int,
                       players: int) -> list[tuple[int, int]]:
    """Seat 0's final points and margin in each seeded game, ``seat_zero`` at seat 0."""
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        ks = kernel.new_state(players)
        seats = [seat_zero(rng) if seat == 0 else _RandomAt(rng, ()) for seat in range(players)]
        kernel.play_out(ks, seats, rng)
        points = kernel.standings(ks)[0]
        found.append((points[0], points[0] - max(points[1:])))
    return found


def random_at_one_phase(games: int = 20_000, players: int = 4) -> Figures:
    """What each kind of decision is worth to the rule of thumb, without the review: seat 0 plays
    the rule of thumb but for one phase, where it picks uniformly at random, against rule-of-thumb
    seats; its final points and final margin over the best other seat, minus the same seeded
    games' with seat 0 playing the rule of thumb throughout, each with its 95% half-width. Where
    random picks lose nothing, a review is right to find no more mistakes in them than in the
    rule of thumb's."""
    figures: Figures = {"random_at_one_phase_games": games}
    rule = _seat_zero_results(lambda rng: _RandomAt(rng, ()), games, players)
    for name, phase in KERNEL_PHASES.items():
        figures.update(_seat_zero_change(f"random_at_{name}", partial(_RandomAt, phases=(phase,)), games, players,
                                         rule))
    return figures


def rule_variants(games: int = 6_000, players: int = 4) -> Figures:
    """What two of the rule of thumb's choices are worth, as ``random_at_one_phase`` measures:
    seat 0 playing the rule of thumb as before each change (``_RuleWithout``) against rule-of-
    thumb seats: drafting by its plan alone (``without_values_draft_…``), planning against the
    limits as they stand (``without_later_…``), playing by the estimated limits alone
    (``without_chances_…``). Negative: the change scores more."""
    figures: Figures = {"rule_variants_games": games}
    rule = _seat_zero_results(lambda rng: _RandomAt(rng, ()), games, players)
    for name, variant in (("without_values_draft", "plan_draft"), ("without_later", "limits_now"),
                          ("without_chances", "estimate_only")):
        figures.update(_seat_zero_change(name, partial(_RuleWithout, variant=variant), games, players, rule))
    return figures


def figures(repeats: int = 3, games: int = 24) -> Figures:
    """``bench review``: the review's speed, its calibration on ``games`` tables (24: at 12 the
    ratio of random seats' mistakes to the rule of thumb's has an interval of about ±30%, and
    its point moved from 2.0 to 2.5 between two sets of 12), the spread, and the measured
    changes without the review."""
    return {**speed(repeats), **calibration(games, workers=2), **spread(),  # two processes: the machine's two cores
            **random_at_one_phase(), **rule_variants()}
