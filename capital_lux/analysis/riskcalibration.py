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

The cases of one game are not independent: the colours of one position and the positions of
one round share a reveal. Over 30 games they are worth about a fifth of their count (the
design effect), so each frequency also gets its interval on the count of independent cases
(``game_interval``), and the mean over-statement (``bias``) its interval over games: the
honest ones. ``figures`` then measures the draft's likelihood (``riskdraft.Drafted``) on the
same cases, and ``diagnosis`` (``bench risk_oracle``) the oracles: the same chances with the
others' true hands, the true face-down modifiers, or both, which say what the panel's misses
come from.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from dataclasses import dataclass
from typing import Callable

from ..engine import kernel
from ..engine.cards import COLOURS
from ..engine.game import Game, GameRecord
from ..engine.state import DRAFT, PLAY, GameState, new_game
from ..engine.views import PlayerView
from .forward import _simulated_summary as simulated_summary, binding_draft, iter_forward_risk
from .modifiers import hidden_modifiers, modifier_posterior
from .reveal import Outcome, rollout_kernel
from .review import decisions_of, placements_of
from .riskdraft import draft_knowledge
from .stats import Z95, wilson_interval

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
    game: int = 0  # the seed of its game: the cases of one game are not independent (``game_interval``)
    drafted: bool = False  # the others' cards dealt from what the draft told (not at random)


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


def oracle_risk(v: PlayerView, truth: GameState, hands: bool, modifiers: bool,
                placement_views: dict[tuple[str, int], PlayerView] | None, seed: int) -> dict[str, float]:
    """The panel's chance of exceeding per colour, simulated as the panel does (its seeds, batches
    and stopping rule), but with some of the truth given: ``hands``, the others' true cards (the
    deck's too: only the order of its draws is left to chance); ``modifiers``, the true values of
    the face-down modifiers (and of an Agent draw the viewer has not seen). A diagnosis for the
    benchmark only: it reads the hidden state, which nothing shown to a learner ever does."""
    prior = modifier_posterior(v, "rule", placement_views)
    sample = kernel.sampler(v)
    score = kernel.scores(sample(random.Random(0)))[v.viewer]
    true = kernel.from_state(truth)
    values: list[int] = []
    for h in hidden_modifiers(v):
        value = truth.modifiers_above[h.colour][h.index][1] if h.colour is not None else truth.pending_modifier
        assert value is not None  # an Agent draw not yet placed has its value too
        values.append(value)
    outcomes: list[Outcome] = []
    while True:
        for i in range(len(outcomes), min(PANEL_SAMPLES, len(outcomes) + PANEL_BATCH)):
            rng = random.Random(seed * 1_000_003 + i)
            drawn = prior.draw(rng)
            ks = sample(rng, values if modifiers else drawn)
            if hands:
                for q in range(v.players):
                    if q != v.viewer:
                        ks.hands[q], ks.draft_hands[q] = list(true.hands[q]), list(true.draft_hands[q])
                        ks.draft_picks[q] = list(true.draft_picks[q])
                ks.deck = sorted(true.deck)
            outcomes.append(rollout_kernel(ks, "rule", rng, v.viewer, score))
        risk = simulated_summary(outcomes, "rule", "bayes", prior)
        if len(outcomes) >= PANEL_SAMPLES or risk.widest() <= PANEL_TARGET:
            return {c: risk.colours[c].p_exceed.mean for c in COLOURS}


#: The worlds a case's chance may be taken in: the panel's, or with some of the truth given
#: (``oracle_risk``): the others' hands, the face-down modifiers' values, or both.
WORLDS = {"panel": None, "true_hands": (True, False), "true_modifiers": (False, True), "truth": (True, True)}


def cases_of(record: GameRecord, every: int = 2, draft: str | None = None, game: int = 0, world: str = "panel",
             **model_options: object) -> list[Case]:
    """Every ``every``-th draft pick or play of the record (all seats), one case per colour,
    each marked with ``game`` (its seed); ``draft``: with what the seat saw of the others'
    cards in the round's draft, under that model (``riskdraft.DRAFT_MODELS``; the panel deals
    them at random); ``world``:
    one of ``WORLDS``, the panel's model or an oracle (``oracle_risk``)."""
    happened = exceeded(record)
    placed = placements_of(record)
    truth, at = new_game(record.players), 0
    found = []
    for k, (index, v, _) in enumerate(d for d in decisions_of(record) if d[1].phase in (DRAFT, PLAY)
                                      and d[1].round >= 1):
        if k % every:
            continue
        drafted = False
        if draft is not None:
            known = draft_knowledge(record.players, record.actions[:index], v.viewer, model=draft)
            model_options["draft"] = known
            drafted = binding_draft(v, known) is not None
        oracle = WORLDS[world]
        if oracle is None:
            shown, exact = shown_risk(v, placed.get(index) or None, v.round, **model_options)
        else:
            for action in record.actions[at:index]:
                truth.apply_action(action)
            at = index
            shown, exact = oracle_risk(v, truth, *oracle, placed.get(index) or None, v.round), False
        hidden = any(m.value is None for c in COLOURS for m in v.modifiers_above[c])
        found += [Case(shown[c], exact, hidden, (v.round, v.viewer, c) in happened, v.phase, game, drafted)
                  for c in COLOURS]
    return found


def _by_game(cases: list[Case], value: Callable[[Case], float]) -> list[tuple[float, int]]:
    """Per game: the sum of ``value`` over its cases, and their count."""
    sums: dict[int, list[float]] = {}
    for c in cases:
        total = sums.setdefault(c.game, [0.0, 0])
        total[0] += value(c)
        total[1] += 1
    return [(total, int(n)) for total, n in sums.values()]


def _cluster_variance(cases: list[Case], value: Callable[[Case], float]) -> float | None:
    """The variance of the mean of ``value`` over ``cases`` with the games as the units drawn
    (cases of one game go together: the colours of one position, the positions of one round,
    which one reveal decides): the usual ratio estimator's, over games; None from one game."""
    n, mean = len(cases), statistics.mean(value(c) for c in cases)
    games = _by_game(cases, value)
    if len(games) < 2:
        return None
    spread = sum((total - mean * count) ** 2 for total, count in games)
    return len(games) / (len(games) - 1) * spread / (n * n)


def effective_count(cases: list[Case], fallback: float = 1.0) -> float:
    """How many independent cases ``cases`` are worth: their count divided by the design effect
    (the observed frequency's variance over games against its variance were every case
    independent; at least 1). Where every case or none happened the spread cannot be seen,
    and ``fallback`` (the whole set's design effect) divides instead; from one game it cannot
    be seen either, and the count is kept."""
    n = len(cases)
    p = statistics.mean(c.happened for c in cases)
    variance = _cluster_variance(cases, lambda c: c.happened)
    if variance is None:
        return float(n)
    if p in (0.0, 1.0):
        return n / fallback
    return n / max(1.0, variance / (p * (1 - p) / n))


def game_interval(cases: list[Case], fallback: float = 1.0) -> tuple[float, float]:
    """The observed frequency's 95% Wilson interval on the effective count (``effective_count``):
    the honest interval where the cases of a game are not independent."""
    n = effective_count(cases, fallback)
    p = statistics.mean(c.happened for c in cases)
    m = max(1, round(n))
    return wilson_interval(p * m, m)


def summary(cases: list[Case], prefix: str = "") -> Figures:
    """By bin: count, mean shown, observed with its Wilson interval over the cases and held
    (shown inside it), and with its interval on the effective count (``games_low``,
    ``games_high``, ``games_held``: the honest one, the cases of one game going together);
    the mean over-statement (``bias``: shown minus happened) with its interval over games;
    Brier score and the base rate's; the small chances (under 10%) with and without hidden
    modifiers."""
    figures: Figures = {f"{prefix}cases": float(len(cases))}
    if not cases:
        return figures
    games = sorted({c.game for c in cases})
    design = len(cases) / effective_count(cases)
    low, held, held_games = 0.0, 0, 0
    for high in BINS:
        inside = [c for c in cases if low <= c.shown < high or (high == 1.0 and c.shown == 1.0)]
        name = f"{prefix}bin_{round(low * 100)}_{round(high * 100)}"
        figures[f"{name}_count"] = float(len(inside))
        if inside:
            n, seen = len(inside), sum(c.happened for c in inside)
            lo, hi = wilson_interval(seen, n)
            g_lo, g_hi = game_interval(inside, design)
            mean = statistics.mean(c.shown for c in inside)
            figures.update({f"{name}_shown": round(mean, 4), f"{name}_observed": round(seen / n, 4),
                            f"{name}_observed_low": round(lo, 4), f"{name}_observed_high": round(hi, 4),
                            f"{name}_held": float(lo <= mean <= hi),
                            f"{name}_games_low": round(g_lo, 4), f"{name}_games_high": round(g_hi, 4),
                            f"{name}_games_held": float(g_lo <= mean <= g_hi)})
            held += lo <= mean <= hi
            held_games += g_lo <= mean <= g_hi
        low = high
    figures[f"{prefix}bins_held"] = float(held)
    figures[f"{prefix}bins_held_games"] = float(held_games)
    figures[f"{prefix}games"] = float(len(games))
    figures[f"{prefix}design_effect"] = round(design, 2)
    # over- (above 0) or under-statement of every chance shown, in points of probability, with
    # its 95% interval over games
    bias = statistics.mean(c.shown - c.happened for c in cases)
    figures[f"{prefix}bias"] = round(bias, 4)
    variance = _cluster_variance(cases, lambda c: c.shown - c.happened)
    if variance is not None:  # from one game, no interval over games
        half = Z95 * math.sqrt(variance)
        figures.update({f"{prefix}bias_low": round(bias - half, 4), f"{prefix}bias_high": round(bias + half, 4)})
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
            g_lo, g_hi = game_interval(small, design)
            figures.update({f"{prefix}{part}_games_low": round(g_lo, 4), f"{prefix}{part}_games_high": round(g_hi, 4)})
            figures.update({f"{prefix}{part}_count": float(n),
                            f"{prefix}{part}_shown": round(statistics.mean(c.shown for c in small), 4),
                            f"{prefix}{part}_observed": round(seen / n, 4),
                            f"{prefix}{part}_observed_low": round(lo, 4), f"{prefix}{part}_observed_high": round(hi, 4)})
    return figures


def _cases(games: int, every: int, seed: int, draft: str | None, world: str,
           **model_options: object) -> tuple[list[Case], float, float]:
    """``cases_of`` over ``games`` seeded rule-of-thumb games, with their CPU and wall seconds."""
    cpu, wall = time.process_time(), time.perf_counter()
    cases = [case for g in range(seed, seed + games)
             for case in cases_of(rule_game(g), every, draft, g, world, **model_options)]
    return cases, time.process_time() - cpu, time.perf_counter() - wall


def calibration(games: int = 12, every: int = 2, seed: int = 0, prefix: str = "", draft: str | None = None,
                world: str = "panel", **model_options: object) -> Figures:
    """``summary`` over ``games`` seeded rule-of-thumb games, with the CPU and wall seconds;
    ``draft``: the others' cards dealt from what the seat saw of the draft, by that model
    (``riskdraft.DRAFT_MODELS``); ``world``: as ``cases_of``'s."""
    cases, cpu, wall = _cases(games, every, seed, draft, world, **model_options)
    return {**summary(cases, prefix), f"{prefix}cpu_s": round(cpu, 1), f"{prefix}wall_s": round(wall, 1)}


def figures(games: int = 30, every: int = 2) -> Figures:
    """The panel's model (the others' hands dealt at random), then with the draft's likelihood
    (``riskdraft.Drafted``; ``likelihood_``), and the two on the cases where that model dealt
    from the draft rather than at random (``drafted_panel_``, ``drafted_likelihood_``)."""
    found: Figures = {"games": float(games), "every": float(every)}
    panel, cpu, wall = _cases(games, every, 0, None, "panel")
    found.update({**summary(panel), "cpu_s": round(cpu, 1), "wall_s": round(wall, 1)})
    drafted, cpu, wall = _cases(games, every, 0, "likelihood", "panel")
    found.update({**summary(drafted, "likelihood_"), "likelihood_cpu_s": round(cpu, 1),
                  "likelihood_wall_s": round(wall, 1)})
    found["likelihood_drafted_share"] = round(statistics.mean(c.drafted for c in drafted), 3)
    found.update(summary([c for c, d in zip(panel, drafted) if d.drafted], "drafted_panel_"))
    found.update(summary([d for d in drafted if d.drafted], "drafted_likelihood_"))
    return found


def diagnosis(games: int = 30, every: int = 2) -> Figures:
    """The same cases in the oracles' worlds (``WORLDS``): with the others' true hands, with
    the face-down modifiers' true values, with both. Where the oracle with both is calibrated
    and the panel is not, what the panel does not know is the cause; which oracle mends it
    says which part."""
    found: Figures = {"games": float(games), "every": float(every)}
    for world in WORLDS:
        if world != "panel":
            found.update(calibration(games, every, prefix=f"{world}_", world=world))
    return found

