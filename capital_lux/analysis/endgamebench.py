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
of players and by model, and where the positions that were not exact lie. ``check``
positions are also walked through the engine (``exact_by_engine``) and every figure
compared.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any, Callable, TypeVar

from ..engine.game import sample_chance
from ..engine.state import AGENT, CLERIC, OVER, PLAY, GameState, new_game
from ..engine.views import PlayerView, view
from ..players.bots import RuleOfThumbBot
from . import endgame
from .forward import EXACT_MS, _exact_figures, exact_by_engine, expected_figures, forward_risk, rank_moves
from .modifiers import modifier_posterior

Figures = dict[str, Any]  # nested: shares, spreads by players, counts by place
T = TypeVar("T")


#: The seed of the bench's positions; ``bench endgame:SEED`` takes another set, for a second look.
SEED = 26
#: The engine steps an engine walk may take (``exact_by_engine``), a minute or two of CPU: on
#: seed 26's positions the biggest walk took 66 to 70 s; one of seed 29's positions needs many
#: times more for each of its moves, which took the bench from minutes to hours.
WALK_STEPS = 400_000


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


def benchmark(per_players: int = 70, check: int = 12, exact_ms: float = EXACT_MS, seed: int = SEED) -> Figures:
    positions = last_turn_positions(per_players, seed)
    out: Figures = {"positions": len(positions), "seed": seed, "budget_ms": exact_ms}
    missed: dict[str, int] = {}
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
        out[f"{model}_exact_share"] = round(exact / len(positions), 4)
        for players in (2, 3, 4):
            out[f"{model}_{players}p_panel"] = _spread(panel[players])
            out[f"{model}_{players}p_ranking"] = _spread(ranking[players])
        out[f"{model}_all_panel"] = _spread([t for times in panel.values() for t in times])
        out[f"{model}_all_ranking"] = _spread([t for times in ranking.values() for t in times])
    out["not_exact"] = dict(sorted(missed.items(), key=lambda kv: -kv[1]))
    checked, wrong, too_big = _against_engine(positions, check)
    out["engine_walk_checked"], out["engine_walk_disagreements"], out["engine_walk_too_big"] = checked, wrong, too_big
    return out


def _against_engine(positions: list[PlayerView], count: int, steps: int = WALK_STEPS) -> tuple[int, int, int]:
    """How many of ``count`` spread-out positions' figures were compared with the engine walk
    (both models, the whole move and every move), how many figures disagreed, and how many
    positions and models were too big to walk in ``steps`` engine steps. The whole move's
    walk comes first: where it is too big, the moves' are not tried. With random play it
    holds every move; with the rule of thumb it is one of them, and on seed 29's position
    too big for it, every move's walk was too big as well (68 to 112 s each, both models)."""
    checked = wrong = too_big = 0
    for v in positions[:: max(1, len(positions) // max(1, count))][:count]:
        for model in endgame.MODELS:
            prior = modifier_posterior(v, model)
            firsts = [None, *v.legal_actions]
            kernel_figures = _exact_figures(v, model, prior, firsts, 60_000)
            if kernel_figures is None:
                continue
            for first, figures in zip(firsts, kernel_figures):
                walked = exact_by_engine(v, model, prior, first, steps)
                if walked is None:
                    if first is None:  # the whole move's: its moves are not tried
                        too_big += 1
                        break
                    continue
                checked += 1
                wrong += sum(a != b for a, b in zip(figures, expected_figures(walked)))
    return checked, wrong, too_big
