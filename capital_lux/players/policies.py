"""Bots inside the playout kernel: decisions from a ``kernel.KState`` for one seat.

The kernel plays thousands of games a second, so its bots cannot build a
``PlayerView`` per decision. The rule of thumb here is not a second
implementation: ``table_for`` builds, from the compact state, the same
``rule_of_thumb.Table`` that ``rule_of_thumb.table_of`` builds from the seat's view (only what the
seat may know: its own hand and draft picks, its own face-down modifiers, public
zones and counts), and both paths decide with ``rule_of_thumb.rule_decision``, so the
choices are identical by construction.

>>> import random
>>> from capital_lux.engine import kernel
>>> from capital_lux.players.policies import make
>>> rng = random.Random(2)
>>> ks = kernel.play_game(3, [make("rule", random.Random(p)) for p in range(3)], rng)
>>> ks.phase == kernel.OVER
True
"""

from __future__ import annotations

import random
from typing import Callable

from ..engine.errors import UsageError
from ..engine import kernel
from ..engine.kernel import AGENT, DRAFT, GOLD, OVER, KState, total
from ..engine.state import PHASES
from .quick_rule import QuickRule
from .rule_of_thumb import LATER_PER_CARD, Judged, Table, estimate_limits, rule_decision


def table_for(ks: KState, seat: int, deck: int = -1, modifier_deck: int = -1, in_hands: int = -1) -> Table:
    """The ``Table`` seat ``seat`` reasons with, equal to ``table_of(view(state, seat))``.

    It shares the state's lists of capital cards, gold and the seat's own cards (the rule
    of thumb only reads a table): use it before the state changes. ``deck`` and
    ``modifier_deck`` are the decks' sizes when ``ks`` holds more there (the exact search
    keeps the cards not dealt yet with the deck, and the hidden modifiers' values with
    the modifier deck); ``in_hands`` the cards in every hand, when the state's hands hold
    fewer (the exact search's undealt cards)."""
    phase = ks.phase
    revealed = phase == GOLD or phase == OVER
    capital = ks.capital
    seen: list[list[int | None]] = []
    for above in ks.mods:
        seen.append([v if revealed or o == seat else None for o, v in above])
    pending = ks.pending if phase == AGENT and ks.current == seat else None
    held = ks.draft_picks[seat] if phase == DRAFT else ks.hands[seat]
    home = [[total(b), total(g), total(p), total(y)] for b, g, p, y in ks.home]
    if in_hands < 0:
        in_hands = 0
        for h in ks.hands:
            in_hands += len(h)
    limits, known, chances = estimate_limits(capital, seen, pending)
    return Table(  # me, home, capital, limit, gold, gold_pile, hand, deck, modifier_deck, later, known, chances
        seat, home, capital, limits, ks.gold, ks.gold_pile, held, len(ks.deck) if deck < 0 else deck,
        len(ks.modifier_deck) if modifier_deck < 0 else modifier_deck, LATER_PER_CARD * in_hands, known, chances,
    )


class RulePolicy:
    """The rule-of-thumb bot (``bots.RuleOfThumbBot``) for the kernel: the same decisions,
    chosen among the kernel's own options (no engine actions are built)."""

    name = "rule"
    random_below: Callable[[int], int] | None = None
    random_bits: Callable[[int], int] | None = None

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng  # the rule of thumb draws nothing; kept for a uniform signature

    def decide(self, ks: KState) -> kernel.Decision:
        choices = kernel.options(ks)
        return choices[rule_index(ks, choices)]


def rule_index(ks: KState, choices: list[kernel.Decision], deck: int = -1, modifier_deck: int = -1,
               in_hands: int = -1) -> int:
    """The rule of thumb's choice for the seat to move, as an index into ``choices``
    (``kernel.options(ks)``); ``deck``, ``modifier_deck`` and ``in_hands`` as for ``table_for``."""
    phase = ks.phase
    pending = ks.pending if phase == AGENT else None
    return rule_decision(table_for(ks, ks.current, deck, modifier_deck, in_hands), PHASES[phase], choices, pending)


class RuleHands:
    """``rule_index`` for the seat to move in ``ks`` with one hand after another in place of
    its own (the exact search asks what a seat would do with each hand its unseen cards may
    be), the table built and judged once (``rule_of_thumb.Judged``); ``deck``,
    ``modifier_deck`` and ``in_hands`` as for ``table_for``. ``ks`` is not to change while it is asked."""

    def __init__(self, ks: KState, deck: int = -1, modifier_deck: int = -1, in_hands: int = -1) -> None:
        self.phase = PHASES[ks.phase]
        self.pending = ks.pending if ks.phase == AGENT else None
        self.judged = Judged(table_for(ks, ks.current, deck, modifier_deck, in_hands))

    def index(self, hand: list[int], choices: list[kernel.Decision]) -> int:
        """The rule of thumb's choice among ``choices`` (``kernel.options`` with ``hand`` in hand)."""
        return self.judged.decision(hand, self.phase, choices, self.pending)


#: Kernel policies by name: the bots "random" and "rule", and the search's play-out rule
#: "quick" (it reads the whole state: for sampled worlds only, as in search and risk).
POLICIES: dict[str, Callable[[random.Random], kernel.KernelPolicy]] = {
    "random": kernel.RandomPolicy,
    "rule": RulePolicy,
    "quick": QuickRule,
}


def make(kind: str, rng: random.Random) -> kernel.KernelPolicy:
    """A seat's kernel policy by bot kind, deciding with its own generator ``rng``."""
    if kind not in POLICIES:
        raise UsageError(f"no kernel policy for {kind!r}: choose from {', '.join(POLICIES)}")
    return POLICIES[kind](rng)
