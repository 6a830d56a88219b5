"""Figures for ``python -m capital_lux bench risk``: the exact risk "if the round ended now",
forward risk, the one ranking of the moves (to the round's end and to the game's), the
calibration of the Bayesian modifiers, and the small chances against long simulations. Times
are medians of 5 repeats, CPU beside wall.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Callable

from ..engine.game import Game
from ..engine.notation import PlaceModifier
from ..engine.state import AGENT, PLAY
from ..engine.views import PlayerView, view
from .forward import forward_risk, rank_moves
from .modifiers import hidden_modifiers, modifier_posterior
from .risk import Estimate, example_view, round_end_risk

Figures = dict[str, float]


def _rule_game_until(players: int, seed: int, stop: Callable[[Game], bool]) -> PlayerView:
    from ..players.bots import RuleOfThumbBot

    game, rng, bot = Game(players, seed), random.Random(seed), RuleOfThumbBot()
    while not stop(game):
        game.play(bot.choose(view(game.state, game.state.current), rng))
    return view(game.state, game.state.current)


def last_turn_view(players: int = 4, seed: int = 0) -> PlayerView:
    """A seeded rule-of-thumb game at the round's very last turn: the seat to move holds the last cards."""
    def stop(game: Game) -> bool:
        s = game.state
        return s.phase == PLAY and s.last_turns is not None and sum(map(len, s.hands)) == len(s.hands[s.current])

    return _rule_game_until(players, seed, stop)


def timed(name: str, work: Callable[[], object], repeats: int = 5, scale: float = 1.0) -> Figures:
    """``NAME_wall`` and ``NAME_cpu``: medians of ``repeats`` runs, times ``scale`` (1000 for ms)."""
    walls, cpus = [], []
    for _ in range(repeats):
        cpu, wall = time.process_time(), time.perf_counter()
        work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return {f"{name}_wall": round(statistics.median(walls) * scale, 3),
            f"{name}_cpu": round(statistics.median(cpus) * scale, 3)}


def calibration(games: int = 40, seed: int = 0) -> Figures:
    """Does "probably negative" come true as often as the posterior says?

    Rule-of-thumb games (4 players); each opponent modifier is judged once, at the learner's
    (seat 0's) first play after it was placed, from the learner's view with the views before
    each placement. Bins of P(negative): predicted mean against the observed frequency.
    """
    from ..players.bots import RuleOfThumbBot

    bot = RuleOfThumbBot()
    bins: dict[str, list[tuple[float, bool]]] = {"low": [], "mid": [], "high": []}
    for g in range(games):
        game, rng = Game(4, seed + g), random.Random(seed + g)
        before: dict[tuple[str, int], PlayerView] = {}
        truth: dict[tuple[str, int], int] = {}
        judged: set[tuple[str, int]] = set()
        current_round = 1
        while not game.state.is_terminal():
            s = game.state
            if s.round != current_round:
                before, truth, judged, current_round = {}, {}, set(), s.round
            if s.phase == PLAY and s.current == 0 and set(truth) - judged:
                v = view(s, 0)
                posterior = modifier_posterior(v, "rule", before)
                if posterior.used_placements:
                    for k, h in enumerate(hidden_modifiers(v)):
                        key = (h.colour or "", h.index)
                        if key in truth and key not in judged:
                            p = float(posterior.p_negative(k))
                            bins["low" if p < 0.3 else "high" if p > 0.7 else "mid"].append((p, truth[key] < 0))
                judged |= set(truth)
            action = bot.choose(view(s, s.current), rng)
            if s.phase == AGENT and s.current != 0 and isinstance(action, PlaceModifier):
                key = (action.colour, len(s.modifiers_above[action.colour]))
                before[key], truth[key] = view(s, 0), s.pending_modifier or 0
            game.play(action)
    figures: Figures = {}
    for name, cases in bins.items():
        if not cases:
            continue
        observed = Estimate.proportion(sum(neg for _, neg in cases), len(cases))
        figures[f"bayes_calibration_{name}_predicted"] = round(sum(p for p, _ in cases) / len(cases), 3)
        figures[f"bayes_calibration_{name}_observed"] = round(observed.mean, 3)
        figures[f"bayes_calibration_{name}_observed_low"] = round(observed.low, 3)
        figures[f"bayes_calibration_{name}_observed_high"] = round(observed.high, 3)
        figures[f"bayes_calibration_{name}_cases"] = float(len(cases))
    return figures


#: Small chances: the bins ``small_risks`` reports, by the chance shown (upper edges).
SMALL_BINS = (0.02, 0.05, 0.10)


def small_risks(games: int = 6, every: int = 4, samples: int = 2000, long_samples: int = 20_000,
                seed: int = 0) -> Figures:
    """Are the small chances the risk lines show right under their model? Rule-of-thumb games
    (4 players); at every ``every``-th decision of seat 0 (draft picks and plays), the forward
    risk as the panel computes it (``samples`` games, exact where it fits) against a long
    simulation of the same position (``long_samples`` games, another seed). Every colour shown
    between 0 and 10% is a case: by bin of the chance shown, the count, the mean shown and the
    mean of the long run, and the share of cases whose shown interval holds the long run's
    figure (95% intervals: about 95% expected). Exact figures are counted apart (they equal the
    engine's enumeration: ``tests/test_forward.py``). This checks the computation, not the
    model: whether the others play like the model is ``bench review``'s and the issue's question."""
    from ..engine.cards import COLOURS
    from ..engine.state import DRAFT
    from ..players.bots import RuleOfThumbBot

    bot = RuleOfThumbBot()
    cases: list[tuple[float, float, float, float]] = []  # shown, its low and high ends, the long run's
    exact = decisions = 0
    for g in range(games):
        game, rng = Game(4, seed + g), random.Random(seed + g)
        while not game.state.is_terminal():
            s = game.state
            v = view(s, s.current)
            if v.viewer == 0 and v.phase in (DRAFT, PLAY) and v.round >= 1 and len(v.legal_actions) > 1:
                decisions += 1
                if decisions % every == 0:
                    shown = forward_risk(v, "rule", samples=samples, seed=1)
                    small = [c for c in COLOURS if 0 < shown.colours[c].p_exceed.mean < SMALL_BINS[-1]]
                    if shown.exact:
                        exact += len(small)
                    elif small:
                        long = forward_risk(v, "rule", samples=long_samples, seed=2, exact_ms=0)
                        for c in small:
                            p = shown.colours[c].p_exceed
                            cases.append((p.mean, p.low, p.high, long.colours[c].p_exceed.mean))
            game.play(bot.choose(v, rng))
    figures: Figures = {"small_risk_decisions_looked_at": float(decisions // every),
                        "small_risk_exact_cases": float(exact), "small_risk_simulated_cases": float(len(cases))}
    low = 0.0
    for high in SMALL_BINS:
        inside = [c for c in cases if low <= c[0] < high]
        name = f"small_risk_{round(low * 100)}_{round(high * 100)}pct"
        figures[f"{name}_cases"] = float(len(inside))
        if inside:
            figures[f"{name}_shown_mean"] = round(statistics.mean(c[0] for c in inside), 4)
            figures[f"{name}_long_mean"] = round(statistics.mean(c[3] for c in inside), 4)
            figures[f"{name}_held_share"] = round(sum(c[1] <= c[3] <= c[2] for c in inside) / len(inside), 3)
        low = high
    if cases:
        figures["small_risk_held_share"] = round(sum(c[1] <= c[3] <= c[2] for c in cases) / len(cases), 3)
    return figures


def quick_bias(samples: int = 600) -> Figures:
    """The cheaper rollout rule (``reveal.QUICK``) against the full rule of thumb: CPU seconds
    per 1,000 games and the mean and largest gap in P(exceed in any colour), in points, over
    four seeded mid-round positions. Too large a gap is why the panel keeps the full bot."""
    from .reveal import QUICK

    gaps, cpu = [], {"rule": 0.0, QUICK: 0.0}
    for players, seed, left in ((4, 34, 4), (3, 1, 3), (2, 5, 4), (4, 7, 3)):
        v = example_view(players, seed, cards_left=left)
        p = {}
        for model in cpu:
            start = time.process_time()
            p[model] = forward_risk(v, model, samples=samples, seed=1, exact_ms=0).p_exceed_any.mean
            cpu[model] += time.process_time() - start
        gaps.append(abs(p["rule"] - p[QUICK]) * 100)
    games = 4 * samples / 1000
    return {"rollout_rule_cpu_s_per_1000_games": round(cpu["rule"] / games, 3),
            "rollout_quick_cpu_s_per_1000_games": round(cpu[QUICK] / games, 3),
            "rollout_quick_vs_rule_mean_gap_points": round(sum(gaps) / len(gaps), 1),
            "rollout_quick_vs_rule_max_gap_points": round(max(gaps), 1)}


def figures(repeats: int = 5) -> Figures:
    last = last_turn_view(4, 0)
    mid = example_view(players=4, seed=34, cards_left=4)
    six = example_view(players=3, seed=1, cards_left=6)
    nine = example_view()  # two modifiers the viewer cannot see: 4!/2! assignments
    out: Figures = timed("exact_round_end_risk_4p_ms", lambda: [round_end_risk(nine) for _ in range(100)], repeats,
                         1000 / 100)
    exact = forward_risk(last, "rule")
    out["exact_forward_last_turns_4p_is_exact"] = float(exact.exact)
    out.update(timed("exact_forward_last_turns_4p_rule_ms", lambda: forward_risk(last, "rule"), repeats, 1000))
    for model in ("rule", "random"):
        out.update(timed(f"simulated_forward_2000_games_{model}_4p_mid_round_s",
                         lambda: forward_risk(mid, model, samples=2000, seed=1, exact_ms=0), repeats))
    for model in ("rule", "random"):
        ranking = rank_moves(six, model, seed=1)
        out[f"rank_6_card_hand_{model}_moves"] = float(len(ranking.moves))
        out[f"rank_6_card_hand_{model}_games_per_move"] = float(ranking.games)
        out[f"rank_6_card_hand_{model}_tied_moves"] = float(ranking.tied)
        out[f"rank_6_card_hand_{model}_widest_half_interval_points"] = round(
            max(m.risk.widest() for m in ranking.moves) * 100, 2)
        out.update(timed(f"rank_6_card_hand_{model}_s", lambda: rank_moves(six, model, seed=1), repeats))
        to_end = rank_moves(six, model, seed=1, horizon="game")  # each game played on to the game's end
        out[f"rank_6_card_hand_{model}_game_games_per_move"] = float(to_end.games)
        out[f"rank_6_card_hand_{model}_game_tied_moves"] = float(to_end.tied)
        out[f"rank_6_card_hand_{model}_game_widest_half_interval_win_points"] = round(
            max(m.risk.widest() for m in to_end.moves) * 100, 2)
        out.update(timed(f"rank_6_card_hand_{model}_game_s", lambda: rank_moves(six, model, seed=1, horizon="game"),
                         repeats))
    out.update(calibration())
    out.update(small_risks())
    out.update(quick_bias())
    return out
