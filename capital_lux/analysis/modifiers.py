"""What the face-down modifiers probably are, given where their owners put them.

A player who draws a modifier with an Agent sees it and chooses its colour (ruling R11),
so where it lies says something about its value. ``modifier_posterior`` weighs every
assignment of the unseen modifier values to the hidden places (the face-down modifiers
the viewer cannot see, then an opponent's Agent draw not yet placed) by Bayes' rule:

    P(values | placements) ∝ P(values) · Π P(owner puts value v above colour c | table then)

The prior is uniform over assignments (the modifier deck is shuffled, ruling R12). The
likelihood is the opponent model's own placement policy: for ``"rule"`` (and ``"search"``,
whose placement we stand in for with the rule of thumb's: it is too costly to run per
assignment) it is 1 for the colour the rule-of-thumb bot would choose and 0 otherwise; for
``"random"`` it is 1/4 for every colour, so the posterior is the prior. The rule of thumb
places a modifier from the table it sees and its own modifiers, not from its hand, so the
likelihood is a function of what the viewer knows plus the assignment being weighed.

The table "then" is the viewer's view just before the placement (``placement_views``, kept
by the tutor for placements made while it followed the game). A placement without it (a
position loaded mid-round) tells nothing here: guessing the table of then from today's
ruled the true value out in 98 of 926 checks, so such a modifier keeps the prior, every
unseen value equally likely, and ``unseen_placements`` counts them. When no assignment
agrees with every placement the prior is kept and ``used_placements`` is False.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import permutations

from ..engine.cards import N_
from ..engine.errors import PositionError
from ..engine.cards import COLOUR_LETTERS, COLOURS
from ..engine.notation import PlaceModifier
from ..engine.state import AGENT
from ..engine.views import ModifierSlot, PlayerView

__all__ = ["HiddenModifier", "ModifierPrior", "modifier_posterior", "hidden_modifiers"]

_PLACES = tuple(PlaceModifier(c) for c in COLOUR_LETTERS)


@dataclass(frozen=True)
class HiddenModifier:
    """A modifier the viewer cannot see: above ``colour`` (index ``index``), or an Agent draw (colour None)."""

    owner: int
    colour: str | None
    index: int


@dataclass(frozen=True)
class ModifierPrior:
    """A distribution over the values of the hidden modifiers, as (values, probability) pairs."""

    hidden: tuple[HiddenModifier, ...]
    assignments: tuple[tuple[tuple[int, ...], Fraction], ...]
    model: str  # whose placement policy gave the likelihood ("random": none)
    used_placements: bool
    #: hidden places whose placement was not seen (no view of then): they tell nothing
    unseen_placements: frozenset[int] = frozenset()

    def distribution(self, k: int) -> dict[int, Fraction]:
        """P(value) of hidden modifier ``k``."""
        out: dict[int, Fraction] = {}
        for values, w in self.assignments:
            out[values[k]] = out.get(values[k], Fraction(0)) + w
        return dict(sorted(out.items()))

    def p_negative(self, k: int) -> Fraction:
        return sum((w for value, w in self.distribution(k).items() if value < 0), Fraction(0))

    def draw(self, rng: random.Random) -> tuple[int, ...]:
        """One assignment drawn with its probability."""
        if len(self.assignments) == 1:
            return self.assignments[0][0]
        r = Fraction(rng.random())
        for values, w in self.assignments:
            r -= w
            if r < 0:
                return values
        return self.assignments[-1][0]


def hidden_modifiers(v: PlayerView) -> tuple[HiddenModifier, ...]:
    """The places of the modifiers the viewer cannot see, in ``determinize``'s order."""
    places = [
        HiddenModifier(m.owner, c, i) for c in COLOURS for i, m in enumerate(v.modifiers_above[c]) if m.value is None
    ]
    if v.phase == AGENT and v.current != v.viewer:
        places.append(HiddenModifier(v.current, None, 0))
    return tuple(places)


def _unseen(v: PlayerView) -> list[int]:
    from .risk import unseen_modifiers

    return list(unseen_modifiers(v))


def _owners_view(
    v: PlayerView, then: PlayerView, place: HiddenModifier, value: int, known: dict[tuple[str, int], int]
) -> PlayerView:
    """The table ``then`` as ``place.owner`` saw it when placing ``value``: its own modifiers known, others' not."""
    q = place.owner
    mods: dict[str, tuple[ModifierSlot, ...]] = {}
    for c in COLOURS:
        slots = []
        for i in range(len(then.modifiers_above[c])):
            slot = v.modifiers_above[c][i]
            own = known.get((c, i), slot.value) if slot.owner == q else None
            slots.append(ModifierSlot(slot.owner, own))
        mods[c] = tuple(slots)
    return replace(
        then, viewer=q, phase=AGENT, current=q, to_move=q, pending_modifier=value, hand=(), draft_hand=(),
        draft_picks=(), modifiers_above=mods, own_gold_choice=None, legal_actions=_PLACES,
    )


def modifier_posterior(
    v: PlayerView, model: str = "rule", placement_views: dict[tuple[str, int], PlayerView] | None = None
) -> ModifierPrior:
    """The distribution of the hidden modifiers' values given their placements (see the module)."""
    hidden = hidden_modifiers(v)
    pool = _unseen(v)
    if len(hidden) > len(pool):
        raise PositionError(N_("{hidden} modifiers are face down but only {unseen} are unseen: this is not a possible "
                                "table."), hidden=len(hidden), unseen=len(pool))
    candidates = sorted(set(permutations(pool, len(hidden))))
    uniform = tuple((values, Fraction(1, len(candidates))) for values in candidates)
    views = placement_views or {}
    placed = [k for k, h in enumerate(hidden) if h.colour is not None and (h.colour, h.index) in views]
    unseen = frozenset(k for k, h in enumerate(hidden) if h.colour is not None and (h.colour, h.index) not in views)
    if model == "random" or not placed:
        return ModifierPrior(hidden, uniform, "random" if model == "random" else model, False, unseen)
    from ..players.bots import RuleOfThumbBot

    bot = RuleOfThumbBot()
    cache: dict[tuple[int, int, tuple[tuple[tuple[str, int], int], ...]], bool] = {}

    def agrees(k: int, values: tuple[int, ...]) -> bool:
        place = hidden[k]
        assert place.colour is not None
        # what the owner knew: its own other face-down modifiers, by this assignment
        known = {(h.colour, h.index): values[j] for j, h in enumerate(hidden)
                 if h.owner == place.owner and h.colour is not None and j != k}
        key = (k, values[k], tuple(sorted(known.items())))
        if key not in cache:
            choice = bot.advise(_owners_view(v, views[(place.colour, place.index)], place, values[k], known)).action
            cache[key] = isinstance(choice, PlaceModifier) and choice.colour == place.colour
        return cache[key]

    weights = [(values, all(agrees(k, values) for k in placed)) for values in candidates]
    total = sum(ok for _, ok in weights)
    if total == 0:
        return ModifierPrior(hidden, uniform, model, False, unseen)
    return ModifierPrior(hidden, tuple((values, Fraction(1, total)) for values, ok in weights if ok), model, True,
                         unseen)
