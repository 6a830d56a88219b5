"""Risk and probability from one player's view: exact where possible, simulated where not.

Everything here starts from a ``PlayerView``, never from the full state, so no answer
can depend on what the viewer cannot know.

Exact (``fractions.Fraction``):

* ``round_end_risk(view)``: if the round ended now, the distribution of each capital
  total, the chance that the viewer's hometown exceeds it (ruling R7) and the gold
  needed to keep every colour (ruling R6). The others' face-down modifiers are drawn
  uniformly, without replacement, from the modifiers the viewer has not seen (ruling
  R11: the viewer knows only their own). There are at most 4!/0! = 24 equally likely
  assignments, so the answer is an exact count.
* ``condition_on_modifier`` / ``modifier_reveal_outcomes``: the same once one unknown
  modifier becomes known.
* Card odds: ``hypergeometric``, ``draw_probability``, ``hand_probability``. From the
  viewer's side every unseen card (deck and others' hands) is equally likely to be
  anywhere unseen, so the next cards off the deck are a uniform sample of them.

Simulated (``Estimate`` with a 95% interval), seeded and reproducible:

* ``simulate_risk(view, samples, seed)``: sample the hidden information consistently
  with the view (``views.determinize``), play on with bots to the end of the round or
  the game, and count. ``horizon="now"`` ends the round at once: the Monte Carlo
  version of ``round_end_risk``, which converges to it.
* ``compare_moves(view, samples, seed)``: the same after each of the viewer's legal
  actions, with common random numbers (sample *i* is the same deal for every move).

>>> from capital_lux.engine.game import Game
>>> risk = round_end_risk(view(Game(2, seed=1).state, 0))
>>> sorted(risk.colours), risk.p_afford_all
(['B', 'G', 'P', 'Y'], Fraction(1, 1))
>>> hypergeometric(population=10, successes=3, draws=2, k=1)
Fraction(7, 15)
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations
from typing import Callable, Iterable, Mapping, Union

from ..engine import rules
from .stats import Z95, wilson_interval
from ..engine.cards import ALL_CARDS, COLOURS, Card
from ..engine.game import Policy, random_policy, sample_chance
from ..engine.notation import Action, Play
from ..engine.state import CHANCE_PHASES, OVER, PLAY, ROUNDS, GameState
from ..engine.views import PlayerView, determinize, view

__all__ = [
    "ColourRisk", "RoundEndRisk", "round_end_risk", "condition_on_modifier", "modifier_reveal_outcomes",
    "unseen_modifiers", "next_modifier_distribution", "hypergeometric", "hypergeometric_at_least",
    "unseen_composition", "draw_probability", "hand_probability", "Estimate", "SimulatedColour",
    "SimulatedRisk", "MoveEstimate", "simulate_risk", "compare_moves", "converging_estimates",
    "quick_policy", "policy_for", "HORIZONS", "benchmark",
]

Distribution = dict[int, Fraction]


# -- exact: the round end -------------------------------------------------------------
@dataclass(frozen=True)
class ColourRisk:
    colour: str
    hometown_total: int
    capital_distribution: Distribution  # capital total (cards + modifiers) if the round ended now
    p_exceed: Fraction
    gold_needed: Distribution  # gold needed to keep this colour (0 when it does not exceed)


@dataclass(frozen=True)
class RoundEndRisk:
    colours: dict[str, ColourRisk]
    gold_to_keep_all: Distribution  # joint: colours are dependent through shared modifiers
    p_afford_all: Fraction  # P(gold in hand >= gold needed for every colour)
    gold: int  # the viewer's gold
    p_exceed_any: Fraction


@dataclass(frozen=True)
class _Problem:
    """What the round end depends on, as the viewer knows it."""

    hometown: Mapping[str, int]
    known_capital: Mapping[str, int]  # capital cards plus the modifiers the viewer knows
    unknown_slots: tuple[str, ...]  # the colour under each face-down modifier the viewer cannot see
    pool: tuple[int, ...]  # the modifiers the viewer has not seen
    gold: int


def unseen_modifiers(v: PlayerView) -> tuple[int, ...]:
    """The modifiers the viewer has not seen (``PlayerView.unseen_modifiers``)."""
    return v.unseen_modifiers()


def _problem(v: PlayerView, include_hand: bool) -> _Problem:
    hometown = {c: v.hometown_total(v.viewer, c) for c in COLOURS}
    if include_hand:  # at the round end the hand goes face up into the hometown (ruling R9)
        for card in (*v.hand, *v.draft_picks):  # during the draft, the cards set aside are the hand to come
            hometown[card.colour] += card.value
    known = {c: sum(v.capital[c]) + v.known_modifiers(c) for c in COLOURS}
    slots = tuple(c for c in COLOURS for m in v.modifiers_above[c] if m.value is None)
    pool = unseen_modifiers(v)
    if len(slots) > len(pool):
        raise ValueError(f"{len(slots)} unknown modifiers but only {len(pool)} unseen: not a possible view")
    return _Problem(hometown, known, slots, pool, v.gold[v.viewer])


def _excess(hometown: int, capital: int) -> int:
    # ruling R7: strictly greater exceeds; a colour without cards never does
    return hometown - capital if hometown > 0 and hometown > capital else 0


def _solve(problem: _Problem) -> RoundEndRisk:
    capital: dict[str, Counter[int]] = {c: Counter() for c in COLOURS}
    needed: dict[str, Counter[int]] = {c: Counter() for c in COLOURS}
    total: Counter[int] = Counter()
    outcomes = 0
    for assignment in permutations(problem.pool, len(problem.unknown_slots)):
        outcomes += 1
        totals = dict(problem.known_capital)
        for colour, value in zip(problem.unknown_slots, assignment):
            totals[colour] += value
        gold = 0
        for c in COLOURS:
            capital[c][totals[c]] += 1
            over = _excess(problem.hometown[c], totals[c])
            needed[c][over] += 1
            gold += over
        total[gold] += 1

    def dist(counts: Counter[int]) -> Distribution:
        return {k: Fraction(n, outcomes) for k, n in sorted(counts.items())}

    colours = {
        c: ColourRisk(
            colour=c,
            hometown_total=problem.hometown[c],
            capital_distribution=dist(capital[c]),
            p_exceed=Fraction(outcomes - needed[c][0], outcomes),
            gold_needed=dist(needed[c]),
        )
        for c in COLOURS
    }
    afford = sum(n for g, n in total.items() if g <= problem.gold)
    return RoundEndRisk(
        colours=colours,
        gold_to_keep_all=dist(total),
        p_afford_all=Fraction(afford, outcomes),
        gold=problem.gold,
        p_exceed_any=Fraction(outcomes - total[0], outcomes),
    )


def round_end_risk(v: PlayerView, include_hand: bool = False) -> RoundEndRisk:
    """The exact risk at the viewer's round end if it happened now.

    ``include_hand=True`` counts the cards still in hand as hometown cards, as the round
    end would (ruling R9); by default the hometown is taken as it lies on the table.
    """
    return _solve(_problem(v, include_hand))


def condition_on_modifier(v: PlayerView, colour: str, value: int, include_hand: bool = False) -> RoundEndRisk:
    """The exact risk once one modifier above ``colour`` the viewer could not see shows ``value``."""
    problem = _problem(v, include_hand)
    if colour not in problem.unknown_slots:
        raise ValueError(f"no modifier above {colour} is unknown to player {v.viewer}")
    if value not in problem.pool:
        raise ValueError(f"modifier {value:+d} cannot be above {colour}: player {v.viewer} has seen it")
    slots = list(problem.unknown_slots)
    slots.remove(colour)
    pool = list(problem.pool)
    pool.remove(value)
    known = dict(problem.known_capital)
    known[colour] += value
    return _solve(_Problem(problem.hometown, known, tuple(slots), tuple(pool), problem.gold))


def modifier_reveal_outcomes(
    v: PlayerView, colour: str, include_hand: bool = False
) -> list[tuple[int, Fraction, RoundEndRisk]]:
    """Each value one unknown modifier above ``colour`` may show, its probability and the risk then.

    Weighting the conditional risks by these probabilities gives back ``round_end_risk``.
    """
    pool = unseen_modifiers(v)
    return [
        (value, Fraction(1, len(pool)), condition_on_modifier(v, colour, value, include_hand)) for value in pool
    ]


def next_modifier_distribution(v: PlayerView) -> Distribution:
    """What the next Agent would draw, as the viewer sees it (empty when the modifier deck is)."""
    if v.modifier_deck_size == 0:
        return {}
    pool = unseen_modifiers(v)
    return {value: Fraction(1, len(pool)) for value in pool}


# -- exact: card odds -------------------------------------------------------------------
def hypergeometric(population: int, successes: int, draws: int, k: int) -> Fraction:
    """P(exactly ``k`` successes in ``draws`` cards drawn without replacement)."""
    if not (0 <= successes <= population and 0 <= draws <= population):
        raise ValueError("need 0 <= successes, draws <= population")
    return Fraction(
        math.comb(successes, k) * math.comb(population - successes, draws - k), math.comb(population, draws)
    )


def hypergeometric_at_least(population: int, successes: int, draws: int, k: int) -> Fraction:
    """P(at least ``k`` successes in ``draws`` cards drawn without replacement)."""
    return sum(
        (hypergeometric(population, successes, draws, j) for j in range(max(k, 0), min(successes, draws) + 1)),
        Fraction(0),
    )


Composition = Mapping[Card, int]
Match = Union[Card, str, Callable[[Card], bool], Iterable[Card]]


def unseen_composition(v: PlayerView, known: Iterable[Card] = ()) -> dict[Card, int]:
    """Copies of each card the viewer cannot see; ``known`` cards (seen since) are taken out."""
    counts = {card: n for card, n in zip(ALL_CARDS, v.unseen_cards())}
    for card in known:
        if counts.get(card, 0) <= 0:
            raise ValueError(f"{card} cannot be seen: no unseen copy is left")
        counts[card] -= 1
    return {card: n for card, n in counts.items() if n}


def _matcher(match: Match) -> Callable[[Card], bool]:
    if isinstance(match, Card):
        return lambda card: card == match
    if isinstance(match, str):
        return lambda card: card.colour == match
    if callable(match):
        return match
    wanted = set(match)
    return lambda card: card in wanted


def draw_probability(source: PlayerView | Composition, match: Match, draws: int = 1, at_least: int = 1) -> Fraction:
    """P(at least ``at_least`` of the next ``draws`` unseen cards match).

    ``match`` is a card, a colour letter, a set of cards or a predicate.
    """
    counts = unseen_composition(source) if isinstance(source, PlayerView) else source
    accept = _matcher(match)
    population = sum(counts.values())
    successes = sum(n for card, n in counts.items() if accept(card))
    return hypergeometric_at_least(population, successes, draws, at_least)


def hand_probability(source: PlayerView | Composition, wanted: Iterable[Card], hand_size: int) -> Fraction:
    """P(a hand of ``hand_size`` unseen cards holds every card of ``wanted`` (with repeats)).

    Multivariate hypergeometric: sum over how many copies of each wanted card the hand holds.
    """
    counts = unseen_composition(source) if isinstance(source, PlayerView) else source
    population = sum(counts.values())
    need = Counter(wanted)
    kinds = sorted(need)
    rest = population - sum(counts.get(card, 0) for card in kinds)

    def ways(i: int, left: int) -> int:
        if i == len(kinds):
            return math.comb(rest, left)
        available = counts.get(kinds[i], 0)
        return sum(
            math.comb(available, x) * ways(i + 1, left - x) for x in range(need[kinds[i]], min(available, left) + 1)
        )

    return Fraction(ways(0, hand_size), math.comb(population, hand_size))


# -- simulated ------------------------------------------------------------------------
HORIZONS = ("now", "round", "game")
#: Samples between two calls of a caller's ``check`` (a sample of a rule-of-thumb game to its end
#: takes a few milliseconds, so a budget is overrun by a fraction of a second at most).
CHECK_EVERY = 10


@dataclass(frozen=True)
class Estimate:
    """A simulated mean with its 95% interval from ``n`` samples."""

    mean: float
    low: float
    high: float
    n: int

    @classmethod
    def proportion(cls, hits: int, n: int) -> Estimate:
        """Wilson score interval: sensible even when no sample (or every one) hits."""
        if n <= 0:
            raise ValueError("an estimate needs at least one sample")
        low, high = wilson_interval(hits, n)
        return cls(hits / n, low, high, n)

    @classmethod
    def of_values(cls, values: list[float] | list[int]) -> Estimate:
        """Mean with a normal-approximation interval (sample standard deviation)."""
        n = len(values)
        if n <= 0:
            raise ValueError("an estimate needs at least one sample")
        mean = sum(values) / n
        var = sum((x - mean) ** 2 for x in values) / (n - 1) if n > 1 else 0.0
        half = Z95 * math.sqrt(var / n)
        return cls(mean, mean - half, mean + half, n)

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high


@dataclass(frozen=True)
class SimulatedColour:
    colour: str
    p_exceed: Estimate  # exceeded at a round end within the horizon (saved with gold or not)
    cards_lost: Estimate  # cards discarded
    points_lost: Estimate  # their total value
    gold_spent: Estimate  # gold paid to keep the colour


@dataclass(frozen=True)
class SimulatedRisk:
    horizon: str
    bot: str
    samples: int
    seed: int
    colours: dict[str, SimulatedColour]
    p_exceed_any: Estimate
    cards_lost: Estimate
    gold_spent: Estimate
    score: Estimate  # the viewer's score at the horizon
    p_win: Estimate | None  # horizon "game" only; a shared win counts as a win (ruling R17)


@dataclass(frozen=True)
class MoveEstimate:
    action: Action
    score: Estimate
    p_exceed_any: Estimate
    p_win: Estimate | None
    risk: SimulatedRisk


@dataclass
class _Outcome:
    exceeded: set[str]
    cards_lost: Counter[str]
    points_lost: Counter[str]
    gold_spent: Counter[str]
    score: int
    won: bool


# -- rollout policies -----------------------------------------------------------------
def quick_policy(s: GameState, rng: random.Random) -> Action:
    """The search's cheap play-out rule (``search.QuickRule``), the one quick rollout player."""
    from ..players.search import quick_move  # players build on the analysis, not the reverse

    return quick_move(s, rng)


_TRUSTED: dict[str, Policy] = {"quick": quick_policy, "random": random_policy}


def policy_for(bot: str | Policy) -> tuple[str, Policy, bool]:
    """A bot's name, its policy and whether its actions can skip the legality check."""
    if not isinstance(bot, str):
        return getattr(bot, "__name__", "policy"), bot, False
    if bot in _TRUSTED:
        return bot, _TRUSTED[bot], True
    from ..players import bots  # imported late: the players build on the analysis, not the reverse

    return bot, bots.as_policy(bots.make_bot(bot)), False


# -- rollouts -------------------------------------------------------------------------
def _round_end_now(s: GameState, p: int, include_hand: bool) -> _Outcome:
    """The round end's reckoning without playing on (no gold decisions: counts exceeding only)."""
    exceeded: set[str] = set()
    for c in COLOURS:
        home = sum(s.hometowns[p][c]) + (sum(k.value for k in s.hands[p] if k.colour == c) if include_hand else 0)
        if _excess(home, s.capital_total(c)):
            exceeded.add(c)
    return _Outcome(exceeded, Counter(), Counter(), Counter(), 0, False)


def _play_on(s: GameState, p: int, policy: Policy, trusted: bool, rng: random.Random, last_round: int) -> _Outcome:
    while s.phase != OVER and s.round <= last_round:
        action = sample_chance(s, rng) if s.phase in CHANCE_PHASES else policy(s, rng)
        if trusted:
            rules.apply(s, action)  # the policy only offers legal actions: skip the check
        else:
            s.apply_action(action)
    outcome = _Outcome(set(), Counter(), Counter(), Counter(), s.scores()[p], False)
    for event in s.log:
        if event.kind == "round_start" and event.amount > last_round:
            break
        if event.player != p:
            continue
        if event.kind == "discard":
            c = event.colours[0]
            outcome.exceeded.add(c)
            outcome.cards_lost[c] += len(event.cards)
            outcome.points_lost[c] += sum(card.value for card in event.cards)
        elif event.kind == "gold_spent":
            outcome.exceeded.add(event.colours[0])
            outcome.gold_spent[event.colours[0]] += event.amount
    if s.phase == OVER:
        outcome.won = p in s.winners()
    return outcome


def _summarise(outcomes: list[_Outcome], horizon: str, bot: str, seed: int) -> SimulatedRisk:
    n = len(outcomes)
    colours = {
        c: SimulatedColour(
            colour=c,
            p_exceed=Estimate.proportion(sum(c in o.exceeded for o in outcomes), n),
            cards_lost=Estimate.of_values([o.cards_lost[c] for o in outcomes]),
            points_lost=Estimate.of_values([o.points_lost[c] for o in outcomes]),
            gold_spent=Estimate.of_values([o.gold_spent[c] for o in outcomes]),
        )
        for c in COLOURS
    }
    return SimulatedRisk(
        horizon=horizon,
        bot=bot,
        samples=n,
        seed=seed,
        colours=colours,
        p_exceed_any=Estimate.proportion(sum(bool(o.exceeded) for o in outcomes), n),
        cards_lost=Estimate.of_values([sum(o.cards_lost.values()) for o in outcomes]),
        gold_spent=Estimate.of_values([sum(o.gold_spent.values()) for o in outcomes]),
        score=Estimate.of_values([o.score for o in outcomes]),
        p_win=Estimate.proportion(sum(o.won for o in outcomes), n) if horizon == "game" else None,
    )


def _outcomes(
    v: PlayerView, samples: int, seed: int, policy: Policy, trusted: bool, horizon: str,
    first: Action | None = None, include_hand: bool = False, check: Callable[[], None] | None = None,
) -> list[_Outcome]:
    if horizon not in HORIZONS:
        raise ValueError(f"unknown horizon {horizon!r}: choose from {', '.join(HORIZONS)}")
    if samples <= 0:
        raise ValueError("simulation needs at least one sample")
    # The round the view is in: a first move that ends it must not carry the horizon along.
    last_round = max(v.round, 1) if horizon == "round" else ROUNDS
    results = []
    for i in range(samples):
        if check is not None and i % CHECK_EVERY == 0:
            check()  # the caller's budget and cancellation hold within a move, not only between moves
        rng = random.Random(seed * 1_000_003 + i)  # sample i is the same deal whatever the move
        s = determinize(v, rng)
        if horizon == "now":
            results.append(_round_end_now(s, v.viewer, include_hand))
            continue
        if first is not None:
            s.apply_action(first)
        results.append(_play_on(s, v.viewer, policy, trusted, rng, last_round))
    return results


def simulate_risk(
    v: PlayerView, samples: int, seed: int, bot: str | Policy = "rule", horizon: str = "round",
    include_hand: bool = False,
) -> SimulatedRisk:
    """Estimates for the viewer, from ``samples`` hidden deals consistent with the view.

    ``horizon``: ``"now"`` ends the round at once (``include_hand`` as in
    ``round_end_risk``), ``"round"`` plays every seat with ``bot`` to this round's end,
    ``"game"`` to the end of the game (adding P(win)). Over more than one round end,
    a colour counts as exceeded if it exceeds at any of them.
    """
    name, policy, trusted = policy_for(bot) if horizon != "now" else ("none", random_policy, True)
    return _summarise(_outcomes(v, samples, seed, policy, trusted, horizon, None, include_hand), horizon, name, seed)


def compare_moves(
    v: PlayerView, samples: int, seed: int, bot: str | Policy = "rule", horizon: str = "round",
    check: Callable[[], None] | None = None,
) -> list[MoveEstimate]:
    """Each of the viewer's legal actions followed by ``bot`` play, in the view's order.

    Every action is tried on the same ``samples`` deals (common random numbers), so the
    differences between moves are less noisy than the estimates themselves. ``check()`` is
    called every few samples and may raise to stop the work (a job's budget).
    """
    if horizon == "now":
        raise ValueError("moves are compared by playing on: choose horizon 'round' or 'game'")
    if not v.legal_actions:
        raise ValueError(f"player {v.viewer} has no decision to make now")
    name, policy, trusted = policy_for(bot)
    moves = []
    for action in v.legal_actions:
        risk = _summarise(_outcomes(v, samples, seed, policy, trusted, horizon, action, check=check), horizon,
                          name, seed)
        moves.append(MoveEstimate(action, risk.score, risk.p_exceed_any, risk.p_win, risk))
    return moves


def converging_estimates(
    v: PlayerView, colour: str | None, sizes: Iterable[int], seed: int, include_hand: bool = False
) -> list[tuple[int, Estimate]]:
    """P(exceed) in ``colour`` (any colour if None) if the round ended now, simulated.

    One seeded run; the estimate after its first ``n`` samples for each ``n`` in ``sizes``,
    so the chart shows one simulation settling on the exact value.
    """
    wanted = sorted(set(sizes))
    if not wanted or wanted[0] <= 0:
        raise ValueError("sizes must be positive")
    outcomes = _outcomes(v, wanted[-1], seed, random_policy, True, "now", None, include_hand)
    hits = [(colour in o.exceeded) if colour else bool(o.exceeded) for o in outcomes]
    return [(n, Estimate.proportion(sum(hits[:n]), n)) for n in wanted]


# -- examples and benchmark -----------------------------------------------------------
def example_view(players: int = 4, seed: int = 9, cards_left: int = 3) -> PlayerView:
    """A reproducible table seen by the player to move, for demonstrations and benchmarks.

    Seeded game played by ``quick_policy`` until every hand in round 1 is down to about
    ``cards_left`` cards (``cards_left=6`` stops right after the draft). The default (4
    players, seed 9) has two modifiers the viewer cannot see and a risk of 1/2.
    """
    from ..engine.game import Game

    game = Game(players, seed=seed)
    rng = random.Random(seed)
    s = game.state
    while not (s.phase == PLAY and sum(map(len, s.hands)) <= cards_left * players) and s.round == 1:
        game.play(quick_policy(s, rng))
        s = game.state
    return view(s, s.current)


def benchmark(samples: int = 2000) -> dict[str, float]:
    """Figures for ``python -m capital_lux bench risk`` (seconds unless named otherwise)."""
    mid = example_view()
    start = time.perf_counter()
    calls = 200
    for _ in range(calls):
        round_end_risk(mid)
    figures = {"exact_round_end_risk_4p_ms": round((time.perf_counter() - start) / calls * 1000, 3)}
    for bot, n in (("quick", samples), ("rule", samples // 10)):
        start, cpu = time.perf_counter(), time.process_time()
        simulate_risk(mid, n, seed=1, bot=bot)
        figures[f"simulated_risk_round_{bot}_{n}_samples_s"] = round(time.perf_counter() - start, 3)
        # CPU time too: on a shared machine it varies less than wall time
        figures[f"simulated_risk_round_{bot}_{n}_samples_cpu_s"] = round(time.process_time() - cpu, 3)
    start = time.perf_counter()
    simulate_risk(mid, samples, seed=1, horizon="now")
    figures[f"simulated_risk_now_{samples}_samples_s"] = round(time.perf_counter() - start, 3)
    six = example_view(players=3, seed=1, cards_left=6)
    per_move = samples // 10
    start = time.perf_counter()
    moves = compare_moves(six, per_move, seed=1, bot="quick")
    figures[f"compare_moves_6_card_hand_{len(moves)}_moves_{per_move}_samples_quick_s"] = round(
        time.perf_counter() - start, 3
    )
    return figures
