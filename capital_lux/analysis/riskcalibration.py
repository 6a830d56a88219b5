"""Figures for ``python -m capital_lux bench risk_calibration``: do the chances the risk panel
shows come true as often as they say?

Seeded 4-player games of rule-of-thumb bots, the panel's own opponent model: at every
``every``-th draft pick or play of every seat, the chance of exceeding at this round's reveal
that the panel shows for each colour (``forward.iter_forward_risk`` as the panel calls it:
Bayesian modifiers from the views before each placement, up to ``PANEL_SAMPLES`` games or a
5-point interval, exact where it fits), set beside what then happened at that reveal (the
colour paid for with gold or discarded: ruling R7). By bin of the chance shown: the count,
the mean shown, the observed frequency with its 95% Wilson interval, and whether the mean
shown lies inside it; the Brier score against the base rate's; the chances under 10% apart,
with and without a face-down modifier the viewer cannot see (where the issue found them
under-stated).
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from ..engine.cards import COLOURS
from ..engine.game import Game, GameRecord
from ..engine.state import DRAFT, PLAY
from ..engine.views import PlayerView
from .forward import iter_forward_risk
from .review import decisions_of, placements_of
from .riskdraft import draft_knowledge
from .stats import wilson_interval

Figures = dict[str, float]

#: The bins of the chance shown (upper edges; the last holds 1).
BINS = (0.02, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 1.0)
#: The panel's settings (``tutor.riskpanel``): games at most, the interval it stops at, per batch.
PANEL_SAMPLES, PANEL_TARGET, PANEL_BATCH = 2000, 0.05, 200


@dataclass(frozen=True)
class Case:
    """One colour at one decision: the chance shown, whether it was exact, whether a face-down
    modifier was hidden from the viewer, and whether the colour exceeded at that round's reveal."""

    shown: float
    exact: bool
    hidden: bool
    happened: bool
    phase: str


def rule_game(seed: int, players: int = 4) -> GameRecord:
    from ..players.bots import RuleOfThumbBot  # players sit below the analysis
    from ..engine.views import view

    game, rng, bot = Game(players, seed), random.Random(seed), RuleOfThumbBot()
    while not game.state.is_terminal():
        game.play(bot.choose(view(game.state, game.state.current), rng))
    return game.record()


def exceeded(record: GameRecord) -> set[tuple[int, int, str]]:
    """(round, seat, colour) for every colour above its limit at a round's reveal: each one is
    then either kept with gold or discarded (ruling R6-R8), and the log says which."""
    found, rnd = set(), 0
    for event in record.replay().log:
        if event.kind == "round_start":
            rnd = event.amount
        elif event.kind in ("discard", "gold_spent"):
            found |= {(rnd, event.player, c) for c in event.colours}
    return found


def shown_risk(v: PlayerView, placement_views: dict[tuple[str, int], PlayerView] | None, seed: int,
               **model_options: object) -> tuple[dict[str, float], bool]:
    """The chance of exceeding per colour as the panel ends up showing it, and whether exact."""
    last = None
    for last in iter_forward_risk(v, "rule", "bayes", samples=PANEL_SAMPLES, seed=seed,
                                  placement_views=placement_views, batch=PANEL_BATCH, target=PANEL_TARGET,
                                  **model_options):  # type: ignore[arg-type]
        pass
    assert last is not None
    return {c: last.colours[c].p_exceed.mean for c in COLOURS}, last.exact


def cases_of(record: GameRecord, every: int = 2, draft: bool = False, **model_options: object) -> list[Case]:
    """Every ``every``-th draft pick or play of the record (all seats), one case per colour;
    ``draft``: with what the seat saw of the others' cards in the round's draft (``riskdraft``;
    the panel deals them at random)."""
    happened = exceeded(record)
    placed = placements_of(record)
    found = []
    for k, (index, v, _) in enumerate(d for d in decisions_of(record) if d[1].phase in (DRAFT, PLAY)
                                      and d[1].round >= 1):
        if k % every:
            continue
        if draft:
            model_options["draft"] = draft_knowledge(record.players, record.actions[:index], v.viewer)
        shown, exact = shown_risk(v, placed.get(index) or None, v.round, **model_options)
        hidden = any(m.value is None for c in COLOURS for m in v.modifiers_above[c])
        found += [Case(shown[c], exact, hidden, (v.round, v.viewer, c) in happened, v.phase) for c in COLOURS]
    return found


def summary(cases: list[Case], prefix: str = "") -> Figures:
    """By bin: count, mean shown, observed with its Wilson interval, held (shown inside it);
    Brier score and the base rate's; the small chances (under 10%) with and without hidden
    modifiers."""
    figures: Figures = {f"{prefix}cases": float(len(cases))}
    if not cases:
        return figures
    low, held = 0.0, 0
    for high in BINS:
        inside = [c for c in cases if low <= c.shown < high or (high == 1.0 and c.shown == 1.0)]
        name = f"{prefix}bin_{round(low * 100)}_{round(high * 100)}"
        figures[f"{name}_count"] = float(len(inside))
        if inside:
            n, seen = len(inside), sum(c.happened for c in inside)
            lo, hi = wilson_interval(seen, n)
            mean = statistics.mean(c.shown for c in inside)
            figures.update({f"{name}_shown": round(mean, 4), f"{name}_observed": round(seen / n, 4),
                            f"{name}_observed_low": round(lo, 4), f"{name}_observed_high": round(hi, 4),
                            f"{name}_held": float(lo <= mean <= hi)})
            held += lo <= mean <= hi
        low = high
    figures[f"{prefix}bins_held"] = float(held)
    base = statistics.mean(c.happened for c in cases)
    figures[f"{prefix}brier"] = round(statistics.mean((c.shown - c.happened) ** 2 for c in cases), 4)
    figures[f"{prefix}brier_base_rate"] = round(statistics.mean((base - c.happened) ** 2 for c in cases), 4)
    figures[f"{prefix}exact_share"] = round(sum(c.exact for c in cases) / len(cases), 3)
    figures[f"{prefix}certain_wrong"] = float(sum(c.exact and c.shown in (0.0, 1.0) and c.happened != (c.shown == 1.0)
                                                  for c in cases))
    for part, chosen in (("small", cases), ("small_hidden", [c for c in cases if c.hidden]),
                         ("small_none_hidden", [c for c in cases if not c.hidden]),
                         ("small_draft", [c for c in cases if c.phase == DRAFT]),
                         ("small_play", [c for c in cases if c.phase == PLAY])):
        small = [c for c in chosen if 0 < c.shown < BINS[2]]
        if small:
            n, seen = len(small), sum(c.happened for c in small)
            lo, hi = wilson_interval(seen, n)
            figures.update({f"{prefix}{part}_count": float(n),
                            f"{prefix}{part}_shown": round(statistics.mean(c.shown for c in small), 4),
                            f"{prefix}{part}_observed": round(seen / n, 4),
                            f"{prefix}{part}_observed_low": round(lo, 4), f"{prefix}{part}_observed_high": round(hi, 4)})
    return figures


def calibration(games: int = 12, every: int = 2, seed: int = 0, prefix: str = "", draft: bool = False,
                **model_options: object) -> Figures:
    """``summary`` over ``games`` seeded rule-of-thumb games, with the CPU and wall seconds;
    ``draft=True``: the others' cards dealt where the seat's draft says they went (``riskdraft``)."""
    cpu, wall = time.process_time(), time.perf_counter()
    cases = [case for g in range(games) for case in cases_of(rule_game(seed + g), every, draft, **model_options)]
    figures = summary(cases, prefix)
    figures[f"{prefix}cpu_s"] = round(time.process_time() - cpu, 1)
    figures[f"{prefix}wall_s"] = round(time.perf_counter() - wall, 1)
    return figures


def figures(games: int = 30, every: int = 2) -> Figures:
    """The panel's model (the others' hands dealt at random), then with the draft's knowledge."""
    return {"games": float(games), "every": float(every), **calibration(games, every),
            **calibration(games, every, prefix="draft_", draft=True)}
