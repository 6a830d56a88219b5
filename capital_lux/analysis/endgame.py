"""Exact figures for the rest of a round, enumerated in the playout kernel.

The forward risk is exact when the rest of the round can be enumerated: every hidden
card, every draw, every decision of the opponent model, with its probability. The
engine can walk that tree (``forward.exact_by_engine``, the reference the tests keep),
one engine step at a time. This module walks the same tree in the kernel's terms, and
walks much less of it:

* **Hands are dealt when they matter.** An opponent's hidden hand is dealt (as a
  multiset of card kinds, with its hypergeometric weight) only when that seat is to
  play; until then its cards stay in the pool with the deck. The unseen cards are a
  uniformly shuffled deck, so a Scholar's draw from the deck is a draw from the pool as
  long as no decision so far hung on which cards the undealt hands hold, and none did:
  a seat decides only once its own hand is dealt. The deck's size (ruling R10: the
  Scholar draws only from a deck with cards) is the pool less the undealt cards.
* **Cards of a kind are one branch**, weighted by the copies left; a modifier draw is one
  branch per value.
* **A position met twice is valued once**: a table keyed on what still matters for the
  reveal (hometowns as each colour's total and card count; the rest of the position in
  full).
* **No fractions in the loop**: a position's value is the expectation of the whole
  numbers ``reveal.Outcome.figures`` gives, kept as integers over one denominator.

Opponent models: ``"random"`` (every seat, the viewer's later turns too, uniform over its
legal decisions) and ``"rule"`` (the rule of thumb, a function of the seat's own view:
one branch). The search model plays out simulated games and stays simulated.

The budget is time: ``deadline`` on ``clock`` (the thread's CPU time by default, so a busy
machine does not turn an exact answer into a simulated one); past it the search raises
``TooBig`` and nothing it built is kept.
"""

from __future__ import annotations

import math
import time
from typing import Callable, Final, Sequence

from ..engine import kernel
from ..engine.errors import Cancelled
from ..engine.kernel import (AGENT, AGENT_DRAW, B, CLERIC, CLERIC_COLOURS, COLOUR_OF, G, GOLD, OVER, PLAY, SCHOLAR,
                             VALUE_OF, Y, KState)
from ..engine.kernel_state import insort, total
from ..players.policies import rule_index
from .reveal import kernel_outcome

__all__ = ["MODELS", "TooBig", "Root", "Search", "values"]

#: The opponent models whose decisions the search can enumerate.
MODELS: Final = ("random", "rule")
#: A phase of the search's own: the last turn is over, hands not yet dealt go home.
ROUND_END: Final = 100
#: Positions valued between two looks at the clock and at ``should_stop``.
CHECK_EVERY: Final = 256


class TooBig(Exception):
    """The rest of the round did not fit in the time allowed."""


class Root:
    """One exact start: a kernel state whose hidden hands are not dealt (``undealt[q]``
    cards for seat ``q``, their cards in ``ks.deck`` with the deck's), and its weight."""

    def __init__(self, ks: KState, undealt: list[int]) -> None:
        self.ks = ks
        self.undealt = undealt


class Search:
    """The rest of one round from roots that share a viewer, a model and a time budget.

    A value is ``[denominator, figure numerators...]``: the expectation of every figure of
    ``Outcome.figures`` at the reveal, as integers over one denominator, in lowest terms.
    """

    def __init__(self, viewer: int, score: int, model: str, deadline: float,
                 clock: Callable[[], float] = time.thread_time, should_stop: Callable[[], bool] | None = None) -> None:
        if model not in MODELS:
            raise ValueError(f"the exact search plays the models {', '.join(MODELS)}, not {model!r}")
        self.viewer, self.score, self.rule = viewer, score, model == "rule"
        self.deadline, self.clock, self.should_stop = deadline, clock, should_stop
        self.table: dict[tuple[object, ...], list[int]] = {}
        self.valued = 0  # positions valued (not found in the table)
        self.round = -1

    # -- the tree ------------------------------------------------------------------------
    def value(self, root: Root, first: kernel.Decision | None = None) -> list[int]:
        """The value of ``root``, its seat to move making ``first`` if given."""
        ks, undealt = root.ks.copy(), root.undealt[:]
        self.round = ks.round
        if first is None:
            return self._value(ks, undealt)
        if first not in kernel.options(ks):
            raise ValueError(f"{first!r} is not a decision of the seat to move")
        self._decide(ks, undealt, first)
        return self._value(ks, undealt)

    def _value(self, ks: KState, undealt: list[int]) -> list[int]:
        if ks.phase == OVER or ks.round != self.round:  # the round is over: the reveal is read (not kept:
            return [1] + kernel_outcome(ks, self.viewer, self.score).figures()  # what it cost is not in the key)
        key = _key(ks, undealt)
        found = self.table.get(key)
        if found is not None:
            return found
        self.valued += 1
        if self.valued % CHECK_EVERY == 0:
            if self.clock() > self.deadline:
                raise TooBig
            if self.should_stop is not None and self.should_stop():
                raise Cancelled
        value = self._expand(ks, undealt)
        self.table[key] = value
        return value

    def _expand(self, ks: KState, undealt: list[int]) -> list[int]:
        phase, cur = ks.phase, ks.current
        if phase == ROUND_END:
            for q in range(ks.players):
                if undealt[q]:
                    return self._deal(ks, undealt, q)
            kernel.round_end(ks)  # hands home, the reveal, then gold decisions if any
            return self._value(ks, undealt)
        if phase == PLAY and undealt[cur]:
            return self._deal(ks, undealt, cur)
        if phase == SCHOLAR:
            return self._draw_card(ks, undealt)
        if phase == AGENT_DRAW:
            return self._draw_modifier(ks, undealt)
        choices = kernel.options(ks)
        if not choices:
            raise ValueError(f"no move is possible for seat {cur} in phase {phase}: not a possible table")
        if self.rule:
            child, left = ks.copy(), undealt[:]
            self._decide(child, left, choices[rule_index(ks, choices, _deck_size(ks, undealt))])
            return self._value(child, left)
        branches: list[tuple[int, list[int]]] = []
        for choice in choices:
            child, left = ks.copy(), undealt[:]
            self._decide(child, left, choice)
            branches.append((1, self._value(child, left)))
        return _mix(branches)

    def _deal(self, ks: KState, undealt: list[int], seat: int) -> list[int]:
        """Seat ``seat``'s hidden hand, each multiset of kinds with its chance."""
        size, counts = undealt[seat], _counts(ks.deck)
        branches: list[tuple[int, list[int]]] = []
        for hand, ways in _multisets(counts, size):
            child, left = ks.copy(), undealt[:]
            for kind in hand:
                child.deck.remove(kind)
            child.hands[seat] = hand
            left[seat] = 0
            branches.append((ways, self._value(child, left)))
        return _mix(branches)

    def _draw_card(self, ks: KState, undealt: list[int]) -> list[int]:
        """The Scholar's draw for the seat to move, then the end of its turn."""
        branches: list[tuple[int, list[int]]] = []
        for kind, copies in _counts(ks.deck).items():
            child, left = ks.copy(), undealt[:]
            child.deck.remove(kind)
            insort(child.hands[child.current], kind)
            child.phase = PLAY
            self._end_turn(child, left)
            branches.append((copies, self._value(child, left)))
        return _mix(branches)

    def _draw_modifier(self, ks: KState, undealt: list[int]) -> list[int]:
        """The Agent's modifier for the seat to move, which then places it."""
        branches: list[tuple[int, list[int]]] = []
        for value, copies in _counts(ks.modifier_deck).items():
            child = ks.copy()
            child.modifier_deck.remove(value)
            child.pending, child.phase = value, AGENT
            branches.append((copies, self._value(child, undealt[:])))
        return _mix(branches)

    def _decide(self, ks: KState, undealt: list[int], decision: kernel.Decision) -> None:
        """Make the seat to move's ``decision`` in place (as ``kernel.play_out`` does)."""
        phase, cur = ks.phase, ks.current
        if phase == PLAY:
            kind, to_home = decision
            ks.hands[cur].remove(kind)
            c, v = COLOUR_OF[kind], VALUE_OF[kind]
            if to_home:
                insort(ks.home[cur][c], v)
            else:
                insort(ks.capital[c], v)
                if c == G:  # Scholar: a card if the deck has one (ruling R10)
                    if _deck_size(ks, undealt):
                        ks.phase = SCHOLAR
                        return
                elif c == Y:  # Merchant: a gold disc if the pile has one
                    if ks.gold_pile:
                        ks.gold_pile -= 1
                        ks.gold[cur] += 1
                elif c == B:  # Agent: a modifier if there is one (ruling R11)
                    if ks.modifier_deck:
                        ks.phase = AGENT_DRAW
                        return
                else:  # Cleric (rulings R1, R2, R21)
                    takes = [colour for colour in CLERIC_COLOURS if ks.capital[colour]]
                    if len(takes) > 1:
                        ks.phase = CLERIC
                        return
                    if takes:
                        insort(ks.home[cur][takes[0]], ks.capital[takes[0]].pop(0))
        elif phase == AGENT:
            ks.mods[decision].append((cur, ks.pending))  # type: ignore[arg-type]  # set by the draw
            ks.pending = None
            ks.phase = PLAY
        elif phase == CLERIC:
            insort(ks.home[cur][decision], ks.capital[decision].pop(0))
            ks.phase = PLAY
        elif phase == GOLD:
            ks.gold_choices[cur] = decision
            ks.gold_queue.pop(0)
            if ks.gold_queue:
                ks.current = ks.gold_queue[0]
            else:
                kernel.finish_round(ks)
            return
        else:
            raise ValueError(f"no decision is made in phase {phase}")
        self._end_turn(ks, undealt)

    def _end_turn(self, ks: KState, undealt: list[int]) -> None:
        """The next seat clockwise, or the last turns once a hand runs out (ruling R9), or
        the round end (``ROUND_END``), as ``kernel.play_out`` ends a turn."""
        n, cur = ks.players, ks.current
        if ks.last_turns is None:
            if ks.hands[cur] or undealt[cur]:
                ks.current = cur + 1 if cur + 1 < n else 0
                return
            ks.last_turns = [(cur + i) % n for i in range(1, n)]
        last = ks.last_turns
        while last:
            q = last.pop(0)
            if ks.hands[q] or undealt[q]:
                ks.current = q
                return
        ks.phase = ROUND_END


# -- values ------------------------------------------------------------------------------
def _mix(branches: Sequence[tuple[int, list[int]]]) -> list[int]:
    """The branches' values averaged with weights ``branches[k][0]`` (whole numbers), in lowest terms."""
    weights = 0
    common = 1
    for weight, value in branches:
        weights += weight
        common = math.lcm(common, value[0])
    mixed = [0] * len(branches[0][1])
    for weight, value in branches:
        scale = weight * (common // value[0])
        for i in range(1, len(value)):
            mixed[i] += scale * value[i]
    mixed[0] = weights * common
    divisor = math.gcd(*mixed)
    if divisor > 1:
        mixed = [n // divisor for n in mixed]
    return mixed


def values(value: list[int]) -> tuple[int, list[int]]:
    """A value's denominator and numerators."""
    return value[0], value[1:]


# -- positions ---------------------------------------------------------------------------
def _deck_size(ks: KState, undealt: list[int]) -> int:
    size = len(ks.deck)
    for cards in undealt:
        size -= cards
    return size


def _counts(items: list[int]) -> dict[int, int]:
    """How many of each of the sorted ``items``, in order."""
    counts: dict[int, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return counts


def _multisets(counts: dict[int, int], size: int) -> list[tuple[list[int], int]]:
    """Every sorted hand of ``size`` cards from ``counts`` with its number of ways
    (the product of ``comb(copies, taken)``: a hypergeometric weight, over ``comb(total, size)``)."""
    kinds = list(counts)
    found: list[tuple[list[int], int]] = []

    def extend(start: int, left: int, hand: list[int], ways: int) -> None:
        if left == 0:
            found.append((hand[:], ways))
            return
        for k in range(start, len(kinds)):
            kind = kinds[k]
            for take in range(1, min(counts[kind], left) + 1):
                extend(k + 1, left - take, hand + [kind] * take, ways * math.comb(counts[kind], take))

    extend(0, size, [], 1)
    return found


def _key(ks: KState, undealt: list[int]) -> tuple[object, ...]:
    """What of ``ks`` still matters for the reveal. A hometown counts by each colour's total
    and number of cards: the scores, the limits' comparisons, the rule of thumb's table and
    the cards lost read nothing else of it."""
    home = tuple(tuple((total(cards), len(cards)) for cards in town) for town in ks.home)
    return (
        ks.phase, ks.current, tuple(ks.deck), tuple(tuple(h) for h in ks.hands), tuple(undealt), home,
        tuple(tuple(c) for c in ks.capital), tuple(tuple(m) for m in ks.mods), ks.pending,
        tuple(ks.modifier_deck), tuple(ks.gold), ks.gold_pile,
        None if ks.last_turns is None else tuple(ks.last_turns), tuple(ks.gold_queue), tuple(ks.gold_choices),
    )
