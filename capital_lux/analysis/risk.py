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

A figure that may be simulated is an ``Estimate`` (``stats``): a mean with its 95% interval
and sample count, or an exact ``Fraction`` held as one.
Playing on, to the real round end or the game's, and ranking the viewer's moves is the
forward model's (``forward.forward_risk``, ``forward.rank_moves``); ``example_view`` gives
the seeded tables their tests and benchmarks start from.

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
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations
from typing import Callable, Iterable, Mapping, Union

from ..engine.cards import N_
from ..engine.errors import PositionError, UsageError
from .stats import Estimate as Estimate  # re-exported: the figure's home was here
from ..engine.cards import ALL_CARDS, COLOURS, Card
from ..engine.notation import Action
from ..engine.state import PLAY, GameState
from ..engine.views import PlayerView, view

__all__ = [
    "ColourRisk", "RoundEndRisk", "round_end_risk", "condition_on_modifier", "modifier_reveal_outcomes",
    "unseen_modifiers", "next_modifier_distribution", "hypergeometric", "hypergeometric_at_least",
    "unseen_composition", "draw_probability", "hand_probability", "Estimate", "quick_policy", "example_view",
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
        raise PositionError(N_("{hidden} modifiers are face down but only {unseen} are unseen: this is not a possible "
                                "table."), hidden=len(slots), unseen=len(pool))
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
        raise UsageError(f"no modifier above {colour} is unknown to player {v.viewer}")
    if value not in problem.pool:
        raise UsageError(f"modifier {value:+d} cannot be above {colour}: player {v.viewer} has seen it")
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
        raise UsageError("need 0 <= successes, draws <= population")
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
            raise UsageError(f"{card} cannot be seen: no unseen copy is left")
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


# -- the quick rollout player ---------------------------------------------------------
def quick_policy(s: GameState, rng: random.Random) -> Action:
    """The search's cheap play-out rule (``search.QuickRule``), the one quick rollout player."""
    from ..players.search import quick_move  # players build on the analysis, not the reverse

    return quick_move(s, rng)


# -- examples -----------------------------------------------------------------------
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
