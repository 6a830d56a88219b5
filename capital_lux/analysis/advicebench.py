"""Figures for ``python -m capital_lux bench advice``: does the one ranking survive a second look?

On seeded positions (random play to a draft or play decision, 2 to 4 players):

* stability: a rerun on other games picks the same move, or one the first look called as
  good as its own (``Ranking.tied``);
* honesty of the quote: the points quoted for the chosen move against the same move
  measured again on four times the games, or exactly (mean gap, and how often that
  falls outside the quote's 95% interval: about 8% when the quote is honest), beside the
  same gap for the estimate that chose the move;
* latency: CPU and wall seconds per ranking (median, 90th percentile, most);
* strength: the win share of a seat that plays the ranking's move against three
  rule-of-thumb bots, beside a rule-of-thumb seat on the same deals (a shared win counts).
"""

from __future__ import annotations

import random
import statistics
import time

from ..engine.game import sample_chance
from ..engine.state import DRAFT, GOLD, OVER, PLAY, GameState, new_game
from ..engine.views import PlayerView, view
from .forward import Ranking, rank_moves

Figures = dict[str, float]


def positions(count: int, seed: int = 5) -> list[PlayerView]:
    """``count`` seeded decisions with more than one legal move, reached by random play."""
    rng, found = random.Random(seed), list[PlayerView]()
    while len(found) < count:
        s = new_game(rng.choice((2, 3, 4)))
        for _ in range(rng.randrange(4, 40)):
            if s.phase == OVER:
                break
            s.apply_action(sample_chance(s, rng) if s.is_chance_node() else rng.choice(s.legal_actions()))
        if s.phase in (PLAY, DRAFT) and not s.is_chance_node():
            v = view(s, s.current_player())
            if len(v.legal_actions) > 1:
                found.append(v)
    return found


def _timed(v: PlayerView, seed: int) -> tuple[Ranking, float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    ranking = rank_moves(v, seed=seed)
    return ranking, time.process_time() - cpu, time.perf_counter() - wall


def second_look(count: int = 70) -> Figures:
    same = within = outside = ties = 0
    quoted_gap, chosen_gap, cpu, wall = [], [], [], []
    for v in positions(count):
        first, seconds, elapsed = _timed(v, 0)
        cpu.append(seconds)
        wall.append(elapsed)
        again = rank_moves(v, seed=101)
        same += again.best.action == first.best.action
        within += again.best.action in {m.action for m in first.moves[:first.tied]}
        ties += first.tied > 1
        if first.games:  # the chosen move measured again on four times the games (or exactly)
            alone = v.__class__(**{**v.__dict__, "legal_actions": (first.best.action,)})
            fresh = rank_moves(alone, seed=202, min_games=4 * first.games).best.risk.score_change.mean
            quote = first.quote.score_change
            quoted_gap.append(quote.mean - fresh)
            chosen_gap.append(first.best.risk.score_change.mean - fresh)
            outside += abs(quote.mean - fresh) > quote.half_width
    cpu.sort()
    wall.sort()
    n = len(cpu)
    return {
        "positions": n, "same_move_share": round(same / n, 3), "same_or_tied_share": round(within / n, 3),
        "tied_share": round(ties / n, 3),
        "quote_minus_fresh_points": round(statistics.fmean(quoted_gap), 3) if quoted_gap else 0.0,
        "choosing_estimate_minus_fresh_points": round(statistics.fmean(chosen_gap), 3) if chosen_gap else 0.0,
        "fresh_outside_quote_interval_share": round(outside / max(1, len(quoted_gap)), 3),
        "rank_cpu_s_median": round(statistics.median(cpu), 3), "rank_cpu_s_p90": round(cpu[int(0.9 * (n - 1))], 3),
        "rank_cpu_s_max": round(cpu[-1], 3), "rank_wall_s_median": round(statistics.median(wall), 3),
        "rank_wall_s_max": round(wall[-1], 3),
    }


def _play_game(players: int, seed: int, follow: bool) -> bool:
    """One seeded game: seat 0 plays the ranking's move (``follow``) or the rule of thumb's;
    the others play the rule of thumb. Whether seat 0 won (a shared win counts)."""
    from ..players.bots import RuleOfThumbBot

    bot, rng = RuleOfThumbBot(), random.Random(seed)
    s: GameState = new_game(players)
    while s.phase != OVER:
        if s.is_chance_node():
            s.apply_action(sample_chance(s, rng))
            continue
        v = view(s, s.current_player())
        if follow and v.viewer == 0 and v.phase != GOLD and len(v.legal_actions) > 1:
            s.apply_action(rank_moves(v, seed=seed).best.action)
        else:
            s.apply_action(bot.advise(v).action)
    return 0 in s.winners()


def strength(games: int = 20, players: int = 4) -> Figures:
    followed = sum(_play_game(players, seed, True) for seed in range(games))
    thumb = sum(_play_game(players, seed, False) for seed in range(games))
    return {"games": games, "win_share_following_the_ranking": round(followed / games, 3),
            "win_share_rule_of_thumb_seat": round(thumb / games, 3)}


def figures(count: int = 70, games: int = 20) -> Figures:
    return {**second_look(count), **strength(games)}
