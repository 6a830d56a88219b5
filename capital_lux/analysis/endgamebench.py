"""Figures for ``python -m capital_lux bench endgame``: how often the last turns are exact, and how fast.

Positions: seeded games of 2, 3 and 4 players between rule-of-thumb bots (one seat plays
at random, for variety), taken at decisions of a round's last turns (ruling R9: a hand has
run out, each other seat has one more turn) where no seat holds more than two cards: plays,
Agent placements and Cleric choices, seen by the seat to decide. The games' seed is
``SEED``; ``bench endgame:27`` takes the positions of another seed, for a second look at
figures that might hold on one set only.

For each position and each model (random, rule of thumb) the bench asks what the tutor
asks: the risk panel's forward risk (``forward_risk``), then the ranking of every legal
move (``rank_moves``), each with the default budget (the ranking reading what the
panel's search kept, as the tutor's comparison does after its panel), and reports the
share answered exactly, the CPU time of each (median, 99th percentile, most), by number
of players and by model, and where the positions that were not exact lie. The share is
that of one sample of positions: its 95% interval (Wilson) says how far the share over
every such position may be from it: 203 exact of 210 reads 93.3% to 98.4%, so another
seed's set may well fall a few positions either side. ``check``
positions are also walked through the engine (``exact_by_engine``) and every figure
compared.

``bench endgame_walk[:SEED]`` (``walk_everywhere``) compares every position of a set
instead, with smaller walks: of five sets, the twelve positions the timing bench walks
showed a wrong rule-of-thumb figure on one; every position walked showed it on two more
(the other two had none).
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any, Callable, NamedTuple, TypeVar

from ..engine.game import sample_chance
from ..engine.state import AGENT, CLERIC, OVER, PLAY, GameState, new_game
from ..engine.views import PlayerView, view
from ..players.bots import RuleOfThumbBot
from . import endgame, forward
from .forward import EXACT_MS, _exact_figures, exact_by_engine, expected_figures, forward_risk, rank_moves
from .modifiers import modifier_posterior
from .reveal import FIGURES
from .stats import wilson_interval

Figures = dict[str, Any]  # nested: shares, spreads by players, counts by place
T = TypeVar("T")


#: The seed of the bench's positions; ``bench endgame:SEED`` takes another set, for a second look.
SEED = 26
#: The engine steps an engine walk may take (``exact_by_engine``), a minute or two of CPU: on
#: seed 26's positions the biggest walk took 66 to 70 s; one of seed 29's positions needs many
#: times more for each of its moves, which took the bench from minutes to hours.
WALK_STEPS = 400_000
#: The engine steps of each walk of ``walk_everywhere``, a few seconds at most, and the CPU
#: milliseconds of its exact search: every position of a set in minutes, not hours; the
#: bigger ones are counted, not walked.
WIDE_STEPS = 20_000
WIDE_EXACT_MS = 5_000.0
#: How far from the budget the positions not exact are: each is searched again, from scratch,
#: with these multiples of the budget (``not_exact_within``).
FARTHER = (2.0, 5.0, 20.0)


def last_turn_positions(per_players: int, seed: int = SEED) -> list[PlayerView]:
    """``per_players`` seeded last-turns decisions for each of 2, 3 and 4 players (see the module)."""
    rng, bot, found = random.Random(seed), RuleOfThumbBot(), list[PlayerView]()
    for players in (2, 3, 4):
        mine: list[PlayerView] = []
        while len(mine) < per_players:
            s = new_game(players)
            wild = rng.randrange(players)  # this seat plays at random
            while s.phase != OVER and len(mine) < per_players:
                if s.is_chance_node():
                    s.apply_action(sample_chance(s, rng))
                    continue
                if _last_turns(s) and rng.random() < 0.5:
                    v = view(s, s.current_player())
                    if len(v.legal_actions) > 1:
                        mine.append(v)
                p = s.current_player()
                s.apply_action(rng.choice(s.legal_actions()) if p == wild else bot.choose(view(s, p), rng))
        found += mine
    return found


def _last_turns(s: GameState) -> bool:
    """A decision of the last turns (ruling R9: a hand has run out), no seat holding more than two cards."""
    return s.phase in (PLAY, AGENT, CLERIC) and s.last_turns is not None and max(map(len, s.hands)) <= 2


def _where(v: PlayerView) -> str:
    held = "+".join(str(n) for n in v.hand_sizes)
    return f"{v.players}p {v.phase}{' last turns' if v.last_turns is not None else ''} hands {held}"


def _cpu(task: Callable[[], T]) -> tuple[T, float]:
    start = time.thread_time()
    result = task()
    return result, (time.thread_time() - start) * 1000


def _spread(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"median_ms": round(statistics.median(ordered), 2),
            "p99_ms": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 2),
            "most_ms": round(ordered[-1], 2)}


def benchmark(per_players: int = 70, check: int = 12, exact_ms: float = EXACT_MS, seed: int = SEED,
              farther: tuple[float, ...] = FARTHER) -> Figures:
    positions = last_turn_positions(per_players, seed)
    out: Figures = {"positions": len(positions), "seed": seed, "budget_ms": exact_ms}
    missed: dict[str, int] = {}
    slow: dict[str, list[PlayerView]] = {model: [] for model in endgame.MODELS}
    for model in endgame.MODELS:
        panel: dict[int, list[float]] = {2: [], 3: [], 4: []}
        ranking: dict[int, list[float]] = {2: [], 3: [], 4: []}
        exact = 0
        for v in positions:
            risk, panel_ms = _cpu(lambda: forward_risk(v, model, exact_ms=exact_ms, samples=200))
            ranked, rank_ms = _cpu(lambda: rank_moves(v, model, exact_ms=exact_ms, games=200 * len(v.legal_actions)))
            panel[v.players].append(panel_ms)
            ranking[v.players].append(rank_ms)
            if risk.exact and ranked.games == 0:
                exact += 1
            else:
                where = f"{model}: {_where(v)}"
                missed[where] = missed.get(where, 0) + 1
                slow[model].append(v)
        low, high = wilson_interval(exact, len(positions))
        out[f"{model}_exact"] = exact
        out[f"{model}_exact_share"] = round(exact / len(positions), 4)
        out[f"{model}_exact_interval"] = [round(low, 4), round(high, 4)]
        for players in (2, 3, 4):
            out[f"{model}_{players}p_panel"] = _spread(panel[players])
            out[f"{model}_{players}p_ranking"] = _spread(ranking[players])
        out[f"{model}_all_panel"] = _spread([t for times in panel.values() for t in times])
        out[f"{model}_all_ranking"] = _spread([t for times in ranking.values() for t in times])
    out["not_exact"] = dict(sorted(missed.items(), key=lambda kv: -kv[1]))
    out["not_exact_within"] = {model: _within(views, model, [exact_ms * k for k in farther])
                               for model, views in slow.items()}
    found = _against_engine(positions, check)
    out["engine_walk_checked"], out["engine_walk_too_big"] = found.checked, found.too_big
    out["engine_walk_disagreements"], out["engine_walk_wrong"] = found.differing, found.wrong
    return out


def _within(views: list[PlayerView], model: str, budgets: list[float]) -> dict[str, int]:
    """How far the positions not exact are from the budget: how many of ``views`` the panel's
    and the ranking's search (the whole move, then every move) finishes from scratch within
    each of ``budgets`` milliseconds of CPU, the smallest first, and how many in none of them
    (it gave up, or would have: ``endgame.Search._hopeless``)."""
    counts = {f"{budget:.0f} ms": 0 for budget in budgets} | {"more": 0}
    for v in views:
        prior = modifier_posterior(v, model)
        forward._LAST_SEARCH.take(None)  # from scratch: not the search the bench's budget left off
        start = time.thread_time()
        found = _exact_figures(v, model, prior, [None, *v.legal_actions], budgets[-1])
        spent = (time.thread_time() - start) * 1000
        fits = [budget for budget in budgets if spent <= budget] if found is not None else []
        counts[f"{fits[0]:.0f} ms" if fits else "more"] += 1
    return counts


def walk_everywhere(per_players: int = 70, seed: int = SEED, steps: int = WIDE_STEPS,
                    exact_ms: float = WIDE_EXACT_MS) -> Figures:
    """Every exact figure of every position of a set (both models, the whole move and every
    move) compared with the engine walk of ``steps`` steps; where they disagree, which
    position, model, move and figures (``bench endgame_walk:SEED`` to look again)."""
    positions = last_turn_positions(per_players, seed)
    start = time.thread_time()
    found = _against_engine(positions, len(positions), steps, exact_ms)
    return {"positions": len(positions), "seed": seed, "walk_steps": steps, "search_ms": exact_ms,
            "compared": found.checked, "disagreements": found.differing, "wrong": found.wrong[:20],
            "walk_too_big": found.too_big, "search_too_big": found.not_exact,
            "cpu_s": round(time.thread_time() - start, 1)}


class _Checked(NamedTuple):
    """What ``_against_engine`` found: the moves compared (the whole move's and each move's
    figures), the figures that disagreed and where, and the positions and models too big to
    compare."""

    checked: int
    differing: int
    wrong: list[str]  # "position 102 (3p play last turns hands 2+1+2), rule, capital Y2: exceeds Y, ..."
    too_big: int  # for the walk
    not_exact: int  # for the search


def _against_engine(positions: list[PlayerView], count: int, steps: int = WALK_STEPS,
                    exact_ms: float = 60_000.0) -> _Checked:
    """``count`` spread-out positions' exact figures (both models, the whole move and every
    move) compared with the engine walk of ``steps`` engine steps. The whole move's walk
    comes first: where it is too big, the moves' are not tried. With random play it holds
    every move; with the rule of thumb it is one of them, and on seed 29's position too big
    for it, every move's walk was too big as well (68 to 112 s each, both models)."""
    checked, differing, too_big, not_exact, wrong = 0, 0, 0, 0, list[str]()
    for at in range(0, len(positions), max(1, len(positions) // max(1, count)))[:count]:
        v = positions[at]
        for model in endgame.MODELS:
            prior = modifier_posterior(v, model)
            firsts = [None, *v.legal_actions]
            kernel_figures = _exact_figures(v, model, prior, firsts, exact_ms)
            if kernel_figures is None:
                not_exact += 1
                continue
            for first, figures in zip(firsts, kernel_figures):
                walked = exact_by_engine(v, model, prior, first, steps)
                if walked is None:
                    if first is None:  # the whole move's: its moves are not tried
                        too_big += 1
                        break
                    continue
                checked += 1
                differ = [FIGURES[i] for i, (a, b) in enumerate(zip(figures, expected_figures(walked))) if a != b]
                if differ:
                    differing += len(differ)
                    move = "the whole move" if first is None else str(first)
                    wrong.append(f"position {at} ({_where(v)}), {model}, {move}: {', '.join(differ)}")
    return _Checked(checked, differing, wrong, too_big, not_exact)
