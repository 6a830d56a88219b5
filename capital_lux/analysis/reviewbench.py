"""Figures for ``python -m capital_lux bench review``: is the post-game review quick, and
does it tell good play from bad?

* speed: CPU and wall seconds to review a seeded 4-player game at the default settings
  (every seat's decisions), and to the first judged decision a page can show (medians of
  ``repeats``), to the game's end (the default, keys ending ``_game``) and to the round's
  end (``_round``);
* against truth: over seeded games where random bots and rule-of-thumb bots share the
  table, the share of decisions judged mistakes or blunders, the mean points lost and the
  accuracy of each kind of seat; and a seat that plays the ranking's move (the hint)
  against rule-of-thumb seats, on accuracy.
"""

from __future__ import annotations

import random
import statistics
import time

from ..engine.game import Game, GameRecord
from ..engine.state import GOLD
from ..engine.views import view
from .forward import rank_moves
from .review import REVIEW_GAMES, Decision, review_game

Figures = dict[str, float]


def game_record(players: int, seed: int, kinds: list[str]) -> GameRecord:
    """A seeded game: each seat "random", "rule" or "hint" (the ranking's move, at the review's budget)."""
    from ..players.bots import RandomBot, RuleOfThumbBot  # players sit below the analysis

    game, rng = Game(players, seed), random.Random(seed)
    random_bot, rule_bot = RandomBot(), RuleOfThumbBot()
    while not game.state.is_terminal():
        v = view(game.state, game.state.current)
        kind = kinds[v.viewer]
        if kind == "hint" and v.phase != GOLD and len(v.legal_actions) > 1:
            game.play(rank_moves(v, seed=seed, games=REVIEW_GAMES).best.action)
        else:
            game.play((random_bot if kind == "random" else rule_bot).choose(v, rng))
    return game.record()


def speed(repeats: int = 3, seed: int = 1, horizon: str = "game") -> Figures:
    record = game_record(4, seed, ["random", "rule", "rule", "rule"])
    cpu, wall, first_cpu, first_wall, decisions = [], [], [], [], 0
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
    end = f"_{horizon}"
    figures = {
        "decisions_4_players": decisions,
        "review_cpu_s_median": round(statistics.median(cpu), 2), "review_wall_s_median": round(statistics.median(wall), 2),
        "review_cpu_s_max": round(max(cpu), 2), "review_wall_s_max": round(max(wall), 2),
        "first_decision_cpu_s_median": round(statistics.median(first_cpu), 3),
        "first_decision_wall_s_median": round(statistics.median(first_wall), 3),
    }
    return {key if key == "decisions_4_players" else key.replace("_s_", f"{end}_s_"): value
            for key, value in figures.items()}


def _tally(games: int, players: int, kinds_of: list[list[str]], horizon: str = "game") -> dict[str, list[float]]:
    """Per kind of seat: decisions, mistakes and blunders, points lost, decisions judged best or good."""
    totals: dict[str, list[float]] = {}
    for seed in range(games):
        kinds = kinds_of[seed % len(kinds_of)]
        review = review_game(game_record(players, seed, kinds), 0, seed=seed, horizon=horizon)
        for seat, kind in enumerate(kinds):
            s = review.summary(seat)
            row = totals.setdefault(kind, [0.0, 0.0, 0.0, 0.0])
            row[0] += s.decisions
            row[1] += s.counts["mistake"] + s.counts["blunder"]
            row[2] += (s.mean_loss or 0.0) * s.decisions
            row[3] += s.counts["best"] + s.counts["good"]
    return totals


def truth(games: int = 4, players: int = 4, horizon: str = "game") -> Figures:
    """Seats' verdicts against what they are, at ``horizon`` (the keys end in ``_game`` or ``_round``)."""
    figures: Figures = {"games": games, "players": players}
    mixed = _tally(games, players, [["random", "rule"] * (players // 2), ["rule", "random"] * (players // 2)], horizon)
    hinted = _tally(max(1, games // 2), players, [["hint"] + ["rule"] * (players - 1)], horizon)
    end = f"_{horizon}"
    for kind, row in [*mixed.items(), ("hint", hinted["hint"]), ("rule_beside_hint", hinted["rule"])]:
        n = max(1.0, row[0])
        figures[f"{kind}_decisions"] = row[0]
        figures[f"{kind}_mistakes_per_decision{end}"] = round(row[1] / n, 3)
        figures[f"{kind}_points_lost_per_decision{end}"] = round(row[2] / n, 3)
        figures[f"{kind}_accuracy{end}"] = round(row[3] / n, 3)
    return figures


def figures(repeats: int = 3, games: int = 4) -> Figures:
    return {**speed(repeats, horizon="round"), **speed(repeats, horizon="game"), **truth(games, horizon="round"),
            **truth(games, horizon="game")}
