"""Exact figures for the rest of a round, enumerated in the playout kernel.

The forward risk is exact when the rest of the round can be enumerated: every hidden
card, every draw, every face-down modifier's value, every decision of the opponent model,
with its probability. The engine can walk that tree (``forward.exact_by_engine``, the
reference the tests keep), one engine step at a time, every hidden card dealt and every
modifier valued at the start. This module walks the same tree in the kernel's terms, and
walks much less of it:

* **Cards are dealt when they matter.** The unseen cards are a uniformly shuffled pool:
  the deck and the others' hands. A hidden hand is dealt (as a multiset of card kinds,
  with its hypergeometric weight) only when its seat is to decide, or at the round end
  when it goes home; a Scholar's draw (ruling R10: only from a deck with cards) joins its
  seat's undealt cards. Until then the cards stay in the pool, which is exact because no
  decision so far hung on which cards they are: a seat decides only once its own hand is
  dealt. The deck's size is the pool less the undealt cards. Less still is dealt where
  the models allow it: a seat moving at random with two cards at most deals only a card
  it plays into the capital (a card played home goes home with the round end unseen,
  ``_random_play``); the rule of thumb's last play from two unseen cards deals the card
  played and keeps the other in the pool under a filter of the cards it could be, split
  by what it decides where the seat then decides again, reading it (``_rule_last_play``,
  ``_rule_kept``); and two seats' last cards
  going home are reckoned in one pass (``_settled``'s ``first``).
* **Face-down modifiers are valued when they matter.** Each hidden modifier is a
  placeholder, and every position carries the modifier values still possible
  (``alive``: indices into equally likely assignments of values to the placeholders).
  They are split only where the play depends on them: a rule-of-thumb decision by the
  seat that owns one (it sees its own), and the reveal. An Agent's draw is one more
  placeholder, its value one more place in each assignment (``_draw_modifier``).
* **Cards of a kind are one branch**, weighted by the copies left.
* **A position met twice is valued once**: a table keyed on what still matters for the
  reveal (hometowns as each colour's total and card count; at the round end, the deck's
  size only).
* **No fractions in the loop**: a value is a sum over the alive assignments of the
  expectations of the whole numbers ``reveal.Outcome.figures`` gives, kept as integers
  over one denominator.

Opponent models: ``"random"`` (every seat, the viewer's later turns too, uniform over its
legal decisions) and ``"rule"`` (the rule of thumb, a function of the seat's own view:
one branch). The search model plays out simulated games and stays simulated.

The budget is time: ``deadline`` on ``clock`` (the thread's CPU time by default, so a busy
machine does not turn an exact answer into a simulated one); past it, or sooner where at
its pace so far it would end far past it (``Search._hopeless``), the search raises
``TooBig``. What it finished stays right (a position's value is kept only once complete),
so a search can be given more time (``resume``) and go on from there.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Callable, Final, Sequence

from ..engine.cards import N_
from ..engine import kernel
from ..engine.cards import COLOURS, MODIFIERS
from ..engine.errors import Cancelled, PositionError, UsageError
from ..engine.kernel import (AGENT, AGENT_DRAW, B, CLERIC, CLERIC_COLOURS, COLOUR_OF, G, GOLD, OVER, PLAY, VALUE_OF,
                             Y, KState)
from ..engine.kernel_state import gold_choices, insort, total
from ..engine.state import PHASES, ROUNDS
from ..players.policies import RuleHands, rule_index
from ..players.rule_of_thumb import Table, rule_decision
from .reveal import FIGURES, kernel_outcome

if TYPE_CHECKING:
    from ..engine.views import PlayerView

__all__ = ["MODELS", "TooBig", "Root", "Search"]

#: The opponent models whose decisions the search can enumerate.
MODELS: Final = ("random", "rule")
#: A phase of the search's own: the last turn is over, hands not yet dealt go home.
ROUND_END: Final = 100
#: Positions valued between two looks at the clock and at ``should_stop``.
CHECK_EVERY: Final = 256
#: A search gives up before its deadline (``Search._hopeless``) once this share of its
#: budget is spent, if at its pace it would end past the deadline by more than the share
#: of the budget left times ``GIVE_UP_SLACK``.
GIVE_UP_AFTER: Final = 0.2
GIVE_UP_SLACK: Final = 3.0
#: A hidden modifier's value in a position is ``HIDDEN - k``: the ``k``-th value of an assignment.
HIDDEN: Final = -1000
assert len(set(MODIFIERS)) == len(MODIFIERS)  # an Agent's draw is one value of each: a weight of 0 or 1


class TooBig(Cancelled):
    """The rest of the round did not fit in the time allowed (the caller simulates instead)."""

    def __init__(self) -> None:
        super().__init__("budget")


class Root:
    """Where the search starts, from a view: the others' hands not dealt (their cards in
    the deck), the hidden modifiers as placeholders, and the values they may take
    (``assignments``, equally likely)."""

    def __init__(self, v: PlayerView, assignments: Sequence[tuple[int, ...]]) -> None:
        ks = kernel.sampler(v)(random.Random(0), assignments[0])
        # The seats' cards not dealt: in each hand; then going home at the round end
        # (``_random_play``); then each seat's filter on one of those (``_rule_last_play``)
        self.undealt = [0 if q == v.viewer else len(ks.hands[q]) for q in range(v.players)] + [0] * (2 * v.players)
        for q in range(v.players):
            if q != v.viewer:
                ks.deck += ks.hands[q]
                ks.hands[q] = []
        ks.deck.sort()
        k = 0
        for c in range(len(COLOURS)):
            for i, seen in enumerate(v.modifiers_above[COLOURS[c]]):
                if seen.value is None:
                    ks.mods[c][i] = (seen.owner, HIDDEN - k)
                    k += 1
        if ks.phase == AGENT and v.current != v.viewer:  # an opponent's draw the viewer has not seen
            ks.pending = HIDDEN - k
            k += 1
        ks.modifier_deck = sorted(v.unseen_modifiers())  # the deck and the hidden values: the pool
        self.ks, self.hidden = ks, k
        self.assignments = [tuple(a) for a in assignments]
        self.score = kernel.scores(ks)[v.viewer]  # public: whatever the hidden cards


class Search:
    """The rest of one round from a ``Root``, for one viewer and model, within a time budget.

    A value is ``[denominator, numerators...]``: for every figure of ``Outcome.figures``,
    the sum over the position's alive assignments of its expectation at the reveal, as
    integers over one denominator, in lowest terms.
    """

    def __init__(self, root: Root, viewer: int, model: str, deadline: float,
                 clock: Callable[[], float] = time.thread_time, should_stop: Callable[[], bool] | None = None) -> None:
        if model not in MODELS:
            raise UsageError(f"the exact search plays the models {', '.join(MODELS)}, not {model!r}")
        self.root, self.viewer, self.rule = root, viewer, model == "rule"
        self.started = self.deadline = 0.0
        self.done = self.share = 0.0  # the progress of the question asked (``_child``, ``_tick``)
        self.resume(deadline, clock, should_stop)
        self.table: dict[tuple[object, ...], list[int]] = {}
        self.valued = 0  # positions valued (not found in the table)
        # What a seat's gold choices leave it (``_outcome``), each told apart once: by what they read, by content
        self.outcome_ids: dict[int, int] = {}  # by what they read (``_outcome``)
        self.outcome_contents: dict[tuple[int, ...], int] = {}
        self.outcomes: list[list[tuple[list[int], int]]] = []
        self.packed: list[list[int]] = []  # each outcome's choices, as ``_packed`` writes them
        self.shifts: dict[tuple[object, ...], list[tuple[tuple[int, ...], int]]] = {}  # see ``_limits``
        self.filters: list[tuple[int, ...]] = []  # see ``_rule_last_play``; told apart by content
        self.hand_lists: dict[tuple[tuple[int, ...], int, bool], list[tuple[list[int], int]]] = {}  # see ``_hands``
        self.filtered_lists: dict[tuple[tuple[int, ...], int, int, bool], list[tuple[list[int], int]]] = {}  # likewise
        self.filter_ids: dict[tuple[int, ...], int] = {}
        self.round = root.ks.round
        self.score = root.score
        self.values = list(root.assignments)  # and assignments made longer by the Agents' draws
        self.value_ids: dict[tuple[int, ...], int] = {}  # the longer ones: their places in ``values``
        n, start = root.ks.players, max(root.ks.starting, 0)  # neither changes before the reveal
        self.order = [(start + i) % n for i in range(n)]  # turn order from the starting player
        self.viewer_at = self.order.index(viewer)
        bonus = [sum(VALUE_OF[kind] for kind in cards) for cards in root.ks.bonus]  # bonus points so far
        self.bonus = [bonus[p] for p in self.order]  # in turn order
        assert max(self.bonus) < 256  # ``_Scorer``: 15 bits a seat's score

    def resume(self, deadline: float, clock: Callable[[], float] = time.thread_time,
               should_stop: Callable[[], bool] | None = None) -> None:
        """A new budget for the next ``figures``: the positions valued so far are not valued
        again, whatever stopped the search that valued them, and the pace ``_hopeless``
        reads starts afresh from the clock's reading now."""
        self.deadline, self.clock, self.should_stop = deadline, clock, should_stop
        self.started, self.done, self.share = clock(), 0.0, 1.0

    def forget(self) -> None:
        """Drop all but the values the next question on the same view asks for: the whole
        move's and each decision's at the root, where valued (``figures`` finds them there).
        Kept whole, the tables would be walked by the garbage collector, on again, in every
        collection that follows (a 200-game simulation after a search over its budget took
        three to four times as long)."""
        ks, undealt = self.root.ks, self.root.undealt
        alive = tuple(range(len(self.root.assignments)))
        kept: dict[tuple[object, ...], list[int]] = {}
        for first in [None, *kernel.options(ks)]:
            child, left = ks.copy(), undealt[:]
            if first is not None:
                self._decide(child, left, first)
            key = _key(child, left, alive)
            found = self.table.get(key)
            if found is not None:
                kept[key] = found
        self.table = kept
        self.outcome_ids, self.outcome_contents, self.outcomes, self.packed, self.shifts = {}, {}, [], [], {}
        self.hand_lists, self.filtered_lists = {}, {}

    def figures(self, first: kernel.Decision | None = None, share: float = 1.0) -> tuple[int, list[int]]:
        """The expectation of every figure at the reveal, as a denominator and numerators,
        the seat to move making ``first`` if given (else deciding by the model). ``share``:
        the part of the question since ``resume`` this call is (one of its moves), for the
        progress the budget reads (``_tick``)."""
        ks, undealt = self.root.ks.copy(), self.root.undealt[:]
        alive = tuple(range(len(self.root.assignments)))  # not those the draws made longer
        if first is not None:
            if first not in kernel.options(ks):
                raise UsageError(f"{first!r} is not a decision of the seat to move")
            self._decide(ks, undealt, first)
        self.share = share
        value = self._value(ks, undealt, alive)
        return value[0] * len(alive), value[1:]

    # -- the tree ------------------------------------------------------------------------
    def _child(self, ks: KState, undealt: list[int], alive: tuple[int, ...], of: int) -> list[int]:
        """``_value`` of one of ``of`` branches, each an equal share of the progress its parent
        stands for (``_tick``): a position valued, or found in the table, adds its share."""
        share = self.share
        self.share = share / of
        value = self._value(ks, undealt, alive)
        self.share = share
        return value

    def _value(self, ks: KState, undealt: list[int], alive: tuple[int, ...]) -> list[int]:
        before = self.done
        if ks.phase == OVER or ks.round != self.round:  # the reveal, read (not kept: what the round
            value = [1] + kernel_outcome(ks, self.viewer, self.score).figures()  # end cost is not in the key)
        elif ks.phase == GOLD:  # after one reveal: its gold decisions lead to positions met once
            value = self._expand(ks, undealt, alive)
        elif ks.phase == ROUND_END and not any(undealt):  # met twice about once in twenty: not worth a key
            self._tick()
            value = self._reveal(ks, undealt, alive)
        else:
            key = _key(ks, undealt, alive)
            found = self.table.get(key)
            if found is None:
                self._tick()
                found = self.table[key] = self._expand(ks, undealt, alive)
            value = found
        self.done = before + self.share
        return value

    def _tick(self, count: int = 1) -> None:
        """``count`` more positions valued; every ``CHECK_EVERY``, a look at the clock and ``should_stop``."""
        before = self.valued
        self.valued += count
        if before // CHECK_EVERY != self.valued // CHECK_EVERY:
            now = self.clock()
            if now > self.deadline or self._hopeless(now):
                raise TooBig
            if self.should_stop is not None and self.should_stop():
                raise Cancelled

    def _hopeless(self, now: float) -> bool:
        """Whether the search, at ``now``, gives up before its deadline: at its pace so far
        (the time spent over the share done, ``_child``) it would end past the deadline, by
        more than the budget's share still left, times ``GIVE_UP_SLACK``. The learner then
        waits for the simulation at once, not for the whole budget and then the simulation.
        Not before ``GIVE_UP_AFTER`` of the budget: the first shares are the least telling.
        The pace overstates the time most searches take (later branches meet more of the
        table), so a search that would fit is seldom given up. Traced on the five sets of
        ``bench endgame`` (seeds 26 to 30, both models, the panel's search from scratch and
        the ranking's after it: 4,195 searches), 7 of the 4,144 that fit were given up: three
        that took 190 to 197 ms, at the edge of the budget anyway; three at 40 to 70 ms with
        a tenth or less of their share done (they took 122 to 164 ms; seed 29's random 156
        and 181 spend nine tenths of it in their first move, a card into the capital whose
        round ends are two seats' contests, and a tenth in the three others); one at 181 ms
        with 71% done (it took 194 ms).
        A slack of 4 to 7 keeps the first three and loses the others all the same, while the
        searches that do not fit give up later: the 99th percentile of seed 26's random
        panel, replayed, goes from 187 ms to 193-199 ms (196 and 197 ms measured with 4). Of
        the 51 that do not fit, half give up within 41 ms, the last at 191 ms."""
        spent, budget = now - self.started, self.deadline - self.started
        if budget <= 0 or spent < budget * GIVE_UP_AFTER:  # no budget: the deadline decides alone
            return False
        allowed = budget * (1 + GIVE_UP_SLACK * (1 - spent / budget))
        return spent > self.done * allowed

    def _expand(self, ks: KState, undealt: list[int], alive: tuple[int, ...]) -> list[int]:
        phase, cur, n = ks.phase, ks.current, ks.players
        if phase == ROUND_END:  # the fewest cards first: the last deal, reckoned at once, takes the most
            going = [q for q in range(n) if undealt[n + q]]
            if not going:
                return self._reveal(ks, undealt, alive)
            if len(going) == 2:
                both = self._two_at_once(ks, undealt, alive, going)
                if both is not None:
                    return both
            return self._deal(ks, undealt, alive, min(going, key=lambda q: undealt[n + q]))
        if phase == PLAY and undealt[cur]:
            if not self.rule and len(ks.hands[cur]) + undealt[cur] <= 2:
                return self._random_play(ks, undealt, alive)
            if self.rule and undealt[cur] == 2 and not ks.hands[cur] and ks.last_turns is not None:
                return self._rule_last_play(ks, undealt, alive)
            if self.rule and undealt[cur] == 1 and not ks.hands[cur] and _last_decision(ks, undealt):
                return self._rule_last_card(ks, undealt, alive)
            return self._deal(ks, undealt, alive, cur)
        if phase == AGENT_DRAW:
            return self._draw_modifier(ks, undealt, alive)
        if phase == AGENT and not self.rule and ks.pending is not None and ks.pending <= HIDDEN:
            return self._place_unseen(ks, undealt, alive, HIDDEN - ks.pending)
        choices = kernel.options(ks)
        if not choices:
            raise PositionError(N_("No move is possible for player {seat} here: this is not a possible table."), seat=cur)
        if not self.rule:
            branches: list[tuple[int, list[int]]] = []
            for choice in choices:
                child, left = ks.copy(), undealt[:]
                self._decide(child, left, choice)
                branches.append((1, self._child(child, left, alive, len(choices))))
            return _mix(branches, len(branches))
        if undealt[2 * n + cur]:  # deciding again in its last play, reading the card it kept
            return self._rule_kept(ks, undealt, alive)
        if not _owned(ks, cur):  # the seat sees every value it decides by
            return self._rule_child(ks, undealt, alive, ks, 1)
        seen = self._as_seen(ks, alive)
        branches = [(1, self._rule_child(ks, undealt, group, shown, len(seen))) for shown, group in seen]
        return _mix(branches, 1)

    def _as_seen(self, ks: KState, alive: tuple[int, ...]) -> list[tuple[KState, tuple[int, ...]]]:
        """The alive assignments grouped by the values of the hidden modifiers the seat to move
        owns (it sees them), each group with a copy of ``ks`` showing them."""
        owned = _owned(ks, ks.current)
        groups: dict[tuple[int, ...], list[int]] = {}
        for a in alive:
            groups.setdefault(tuple(self.values[a][k] for k in owned), []).append(a)
        found = []
        for seen, group in groups.items():
            shown = ks.copy()
            _show(shown, dict(zip(owned, seen)))
            found.append((shown, tuple(group)))
        return found

    def _rule_child(self, ks: KState, undealt: list[int], alive: tuple[int, ...], shown: KState, of: int) -> list[int]:
        """The rule of thumb's decision, taken on ``shown`` (``ks`` with the seat's own values),
        one of ``of`` branches."""
        child, left = ks.copy(), undealt[:]
        self._decide(child, left, self._rule_decision(shown, _deck_size(ks, undealt), _in_hands(ks, undealt)))
        return self._child(child, left, alive, of)

    def _rule_decision(self, shown: KState, deck: int, in_hands: int) -> kernel.Decision:
        """The rule of thumb's decision for the seat to move in ``shown``, the deck holding
        ``deck`` cards (the pool less the cards not dealt), the hands ``in_hands``."""
        choices = kernel.options(shown)
        return choices[rule_index(shown, choices, deck, len(shown.modifier_deck) - self.root.hidden, in_hands)]

    def _rule_hands(self, shown: KState, deck: int, in_hands: int) -> Callable[[list[int]], kernel.Decision]:
        """``_rule_decision`` for the seat to move in ``shown`` with each hand it is given in
        turn (``shown``'s hand set to it), the rest of ``shown`` judged once (``RuleHands``):
        the rule of thumb's last plays ask it for every hand or kind the seat's unseen cards
        may be (seed 29's rule 140: 24,787 decisions in 119 positions)."""
        decide = RuleHands(shown, deck, len(shown.modifier_deck) - self.root.hidden, in_hands)
        cur = shown.current

        def decision(hand: list[int]) -> kernel.Decision:
            shown.hands[cur] = hand
            choices = kernel.options(shown)
            return choices[decide.index(hand, choices)]
        return decision

    def _deal(self, ks: KState, undealt: list[int], alive: tuple[int, ...], seat: int) -> list[int]:
        """Seat ``seat``'s undealt cards, each multiset of kinds with its chance (into its
        hand, or straight home at the round end)."""
        home, n = ks.phase == ROUND_END, ks.players
        if home and undealt[2 * n + seat]:
            return self._deal_filtered(ks, undealt, alive, seat)
        at = n + seat if home else seat
        size = undealt[at]
        branches: list[tuple[int, list[int]]] = []
        last = home and sum(undealt[n:2 * n]) == size  # the last cards dealt: only their totals matter from here
        hands = self._hands(ks.deck, size, last and size > 1)  # (one card of each kind is one total)
        if last:
            if _settles(ks, len(ks.deck) - size):  # reckoned without a position per hand
                return self._settled(ks, self._limits(ks, alive), seat, hands, math.comb(len(ks.deck), size))
        for hand, ways in hands:
            child, left = ks.copy(), undealt[:]
            for kind in hand:
                child.deck.remove(kind)
                insort(child.home[seat][COLOUR_OF[kind]] if home else child.hands[seat],
                       VALUE_OF[kind] if home else kind)
            left[at] = 0
            branches.append((ways, self._child(child, left, alive, len(hands))))
        return _mix(branches, math.comb(len(ks.deck), size))

    def _hands(self, deck: list[int], size: int, by_totals: bool = False) -> list[tuple[list[int], int]]:
        """``_multisets`` of ``size`` cards from the pool ``deck``, merged ``_by_totals`` if
        ``by_totals``, reckoned once for each pool: round ends deal from the same pool again
        and again (seed 29's rule 181: a quarter of its time went to reckoning them again).
        Shared, so not to be changed. One card, each kind with its copies, is not worth a key."""
        if size == 1:
            return _multisets(_counts(deck), 1)
        key = (tuple(deck), size, by_totals)
        found = self.hand_lists.get(key)
        if found is None:
            if size == 2 and by_totals:
                found = _pairs_by_totals(_counts(deck))
            else:
                found = _multisets(_counts(deck), size)
                if by_totals:
                    found = _by_totals(found)
            self.hand_lists[key] = found
        return found

    def _two_at_once(self, ks: KState, undealt: list[int], alive: tuple[int, ...], going: list[int]) -> list[int] | None:
        """The last cards of two seats going home at the round end, reckoned in one pass
        (``_settled``'s ``first``) where one seat has a single card, or None where not (a
        round end that does not settle). The other seat's hands are counted from the whole
        pool, one card under its filter if it has one (``_filtered_hands``, not merged: the
        ways are corrected hand by hand where they take the first seat's kind)."""
        n = ks.players
        one, other = sorted(going, key=lambda q: undealt[n + q])
        size, deck = undealt[n + other], len(ks.deck)
        if undealt[n + one] != 1 or not _settles(ks, deck - 1 - size):
            return None
        kinds = self._card_home(ks, undealt, one)
        if undealt[2 * n + other]:
            hands = self._filtered_hands(ks, undealt, other, size, False)
            over = deck * (deck - 1) * math.comb(deck - 2, size - 1)
        else:
            hands = self._hands(ks.deck, size)
            over = deck * math.comb(deck - 1, size)
        return self._settled(ks, self._limits(ks, alive), other, hands, over, (one, kinds))

    def _card_home(self, ks: KState, undealt: list[int], seat: int) -> list[tuple[int, int, int]]:
        """Each kind seat ``seat``'s one card going home may be, with its copies in the pool and
        its filter's weight (1 without a filter), the kinds the filter rules out left out."""
        found = undealt[2 * ks.players + seat]
        weights = self.filters[found - 1] if found else None
        return [(kind, copies, 1 if weights is None else weights[kind]) for kind, copies in _counts(ks.deck).items()
                if weights is None or weights[kind]]

    def _deal_filtered(self, ks: KState, undealt: list[int], alive: tuple[int, ...], seat: int) -> list[int]:
        """At the round end, seat ``seat``'s card kept from the rule of thumb's last play
        (``_rule_last_play``): each kind with its copies times the filter's weight. Where
        the seat's cards are the last dealt, the card kept and the others it takes home (a
        Scholar's draw) are one deal, reckoned at once (``_filtered_hands``)."""
        n, size, deck = ks.players, undealt[ks.players + seat], len(ks.deck)
        if sum(undealt[n:2 * n]) == size and _settles(ks, deck - size):  # the last cards dealt
            hands = self._filtered_hands(ks, undealt, seat, size)
            return self._settled(ks, self._limits(ks, alive), seat, hands, deck * math.comb(deck - 1, size - 1))
        hands = [([kind], copies * weight) for kind, copies, weight in self._card_home(ks, undealt, seat)]
        branches: list[tuple[int, list[int]]] = []
        for hand, ways in hands:
            child, left = ks.copy(), undealt[:]
            child.deck.remove(hand[0])
            insort(child.home[seat][COLOUR_OF[hand[0]]], VALUE_OF[hand[0]])
            left[n + seat] -= 1
            left[2 * n + seat] = 0
            branches.append((ways, self._child(child, left, alive, len(hands))))
        return _mix(branches, len(ks.deck))

    def _filtered_hands(self, ks: KState, undealt: list[int], seat: int, size: int,
                        merged: bool = True) -> list[tuple[list[int], int]]:
        """Seat ``seat``'s last ``size`` cards going home, one of them under its filter
        (``_deal_filtered``), as sorted hands, merged by what they give its hometown if
        ``merged`` (``_by_totals``): each kind the filter lets through, its copies times the
        filter's weight, with each hand of the others from the pool less that card, out of
        ``pool * comb(pool - 1, size - 1)``. Dealt kind by kind instead, a position is valued
        and a round end settled for each kind the filter lets through: 6,900 and 11,700 of
        them in seed 29's rule 169 and 198's rankings. Reckoned once for each pool and
        filter, as ``_hands`` (seed 29's rule 140: 797 of 3,120)."""
        key = (tuple(ks.deck), undealt[2 * ks.players + seat], size, merged)
        found = self.filtered_lists.get(key)
        if found is not None:
            return found
        pool = _counts(ks.deck)
        hands: list[tuple[list[int], int]] = []
        for kind, copies, weight in self._card_home(ks, undealt, seat):
            pool[kind] -= 1
            for rest, ways in _multisets(pool, size - 1):
                if ways:  # not a kind whose copies the card kept took
                    hands.append((sorted([kind, *rest]), copies * weight * ways))
            pool[kind] += 1
        found = self.filtered_lists[key] = _by_totals(hands) if merged and size > 1 else hands
        return found

    def _rule_last_play(self, ks: KState, undealt: list[int], alive: tuple[int, ...]) -> list[int]:
        """The rule of thumb's last play of the round from a hand of two cards not dealt:
        the card it plays is dealt, and the card it keeps stays in the pool with a filter
        (``_deal_filtered``): for each kind, 2 (1 for a second card of the kind played) where
        the rule of thumb holding both plays as this branch does, else 0. Each play is then
        one branch, not one per hand: with the chance ``copies / pool`` of its card, the
        filter weighing the card kept as the hands that lead to it would. A play after which
        the seat decides again (a Cleric's colour, an Agent's placement) reads the card kept
        there: the filter is split by what each kind it lets through decides (``_rule_kept``)."""
        cur, n, pool_size = ks.current, ks.players, len(ks.deck)
        pool = _counts(ks.deck)
        deck = _deck_size(ks, undealt)
        branches: list[tuple[int, list[int]]] = []  # out of pool_size * (pool_size - 1)
        seen = self._as_seen(ks, alive)
        for shown, group in seen:
            plays: dict[kernel.Decision, list[int]] = {}  # each play: the filter on the card kept
            decide = self._rule_hands(shown, deck, _in_hands(ks, undealt))
            for hand, _ in self._hands(ks.deck, 2):
                decision = decide(hand)
                filtered = plays.setdefault(decision, [0] * len(COLOUR_OF))
                kept = hand[1] if hand[0] == decision[0] else hand[0]
                filtered[kept] = 1 if kept == decision[0] else 2
            for decision, filtered in plays.items():
                played = decision[0]
                child, left = ks.copy(), undealt[:]
                child.deck.remove(played)
                child.hands[cur] = [played]
                left[cur] = 0
                left[n + cur] += 1
                left[2 * n + cur] = self._filter_id(tuple(filtered))
                self._decide(child, left, decision)
                value = self._child(child, left, group, len(seen) * len(plays))
                branches.append((pool[played] * (pool_size - 1), value))
        return _mix(branches, pool_size * (pool_size - 1))

    def _rule_kept(self, ks: KState, undealt: list[int], alive: tuple[int, ...]) -> list[int]:
        """The rule of thumb deciding again in its last play (a Cleric's colour, an Agent's
        placement), reading the card it kept, which is in the pool under a filter
        (``_rule_last_play``): the kinds the filter lets through, grouped by the decision the
        seat holding each makes, one branch for each decision with the filter narrowed to its
        kinds. The branches add up, not averaged: a filter weighs each kind, the chance of the
        hands that lead here, and the narrowed filters share those weights out."""
        cur, n = ks.current, ks.players
        weights = self.filters[undealt[2 * n + cur] - 1]
        deck = _deck_size(ks, undealt)
        seen = self._as_seen(ks, alive)
        branches: list[tuple[int, list[int]]] = []
        for shown, group in seen:
            narrowed: dict[kernel.Decision, list[int]] = {}  # each decision: the filter on the kinds that make it
            decide = self._rule_hands(shown, deck, _in_hands(ks, undealt))
            for kind in _counts(ks.deck):
                if weights[kind]:
                    narrowed.setdefault(decide([kind]), [0] * len(COLOUR_OF))[kind] = weights[kind]
            for decision, filtered in narrowed.items():
                child, left = ks.copy(), undealt[:]
                left[2 * n + cur] = self._filter_id(tuple(filtered))
                self._decide(child, left, decision)
                branches.append((1, self._child(child, left, group, len(seen) * len(narrowed))))
        return _mix(branches, 1)

    def _rule_last_card(self, ks: KState, undealt: list[int], alive: tuple[int, ...]) -> list[int]:
        """The round's last play, the rule of thumb's, from one card not dealt: each card it
        would play into the capital is dealt, a branch each; those it would play home go home
        unseen, one branch with a filter of them (``_deal_filtered``), as no decision reads
        them before the reveal."""
        cur, n = ks.current, ks.players
        pool = _counts(ks.deck)
        deck = _deck_size(ks, undealt)
        branches: list[tuple[int, list[int]]] = []
        seen = self._as_seen(ks, alive)
        of = len(seen) * (len(pool) + 1)  # at most
        for shown, group in seen:
            home = [0] * len(COLOUR_OF)  # the filter: the cards it plays home
            decide = self._rule_hands(shown, deck, _in_hands(ks, undealt))
            for kind, copies in pool.items():
                decision = decide([kind])
                if decision[1]:  # a play: (kind, to_home)
                    home[kind] = 1
                    continue
                child, left = ks.copy(), undealt[:]
                child.deck.remove(kind)
                child.hands[cur] = [kind]
                left[cur] = 0
                self._decide(child, left, decision)
                branches.append((copies, self._child(child, left, group, of)))
            if any(home):
                child, left = ks.copy(), undealt[:]
                left[cur] = 0
                left[n + cur] += 1
                left[2 * n + cur] = self._filter_id(tuple(home))
                _end_turn(child, left)
                branches.append((len(ks.deck), self._child(child, left, group, of)))
        return _mix(branches, len(ks.deck))

    def _filter_id(self, weights: tuple[int, ...]) -> int:
        """``weights``' place in ``self.filters``, plus one (0: no filter)."""
        found = self.filter_ids.get(weights)
        if found is None:
            self.filters.append(weights)
            found = self.filter_ids[weights] = len(self.filters)
        return found

    def _random_play(self, ks: KState, undealt: list[int], alive: tuple[int, ...]) -> list[int]:
        """The play of a seat moving at random with cards not dealt yet, two cards at most in
        its hand: with two (or one), each card is played with the same chance, half the time
        into the capital, half home (the seat's options are each kind of its hand, either
        way). So a card not dealt is dealt only when it goes into the capital, where its kind
        matters at once; played home, it stays in the pool and goes home at the round end,
        as the cards left in the hand do: the play's subtrees are shared by every card it
        could have been. Exact because the pool's cards are interchangeable: no decision
        reads them until they are dealt."""
        cur, n = ks.current, ks.players
        hidden, pool, kinds = undealt[cur], len(ks.deck), _counts(ks.deck)
        of = 2 * len(ks.hands[cur]) + 1 + len(kinds)
        branches: list[tuple[int, list[int]]] = []  # out of 2 * cards * pool
        for kind in ks.hands[cur]:  # a card the seat is known to hold (one at most)
            for to_home in (False, True):
                child, left = ks.copy(), undealt[:]
                self._decide(child, left, (kind, to_home))
                branches.append((pool, self._child(child, left, alive, of)))
        child, left = ks.copy(), undealt[:]  # played home: it goes home with the round end
        left[cur] -= 1
        left[n + cur] += 1
        _end_turn(child, left)
        branches.append((hidden * pool, self._child(child, left, alive, of)))
        for kind, copies in kinds.items():  # into the capital: its kind, with its chance
            child, left = ks.copy(), undealt[:]
            child.deck.remove(kind)
            insort(child.hands[cur], kind)
            left[cur] -= 1
            self._decide(child, left, (kind, False))
            branches.append((hidden * copies, self._child(child, left, alive, of)))
        return _mix(branches, 2 * (len(ks.hands[cur]) + hidden) * pool)

    def _draw_modifier(self, ks: KState, undealt: list[int], alive: tuple[int, ...]) -> list[int]:
        """The Agent's modifier for the seat to move, which then places it. Its value is one
        more hidden value, a place added to every alive assignment (each value the assignment
        leaves in the deck, equally likely), not a branch: no decision reads it but the seat's
        own, which sees it as it sees its other modifiers (``_owned``), and the reveal. The
        modifier deck keeps only its size right from here (its values are the assignments')."""
        size = len(ks.modifier_deck) - self.root.hidden  # the deck: the pool less the values assigned
        place, pool = len(self.values[alive[0]]), self.root.ks.modifier_deck
        drawn = []
        for a in alive:
            values = self.values[a]
            taken = [_unfloated(value)[1] for value in values]
            for value in pool:
                if value not in taken:
                    drawn.append(self._assignment(values + (value,)))
        child = ks.copy()
        child.modifier_deck.pop()
        child.pending, child.phase = HIDDEN - place, AGENT
        return _mix([(1, self._value(child, undealt[:], tuple(drawn)))], size)

    def _place_unseen(self, ks: KState, undealt: list[int], alive: tuple[int, ...], place: int) -> list[int]:
        """A seat moving at random places a modifier whose value is hidden: each colour with
        the same chance, which no decision reads before the reveal either. So its colour joins
        its value in the assignments (``_floated``: four for each alive one, equally likely),
        the modifier goes with the others placed so (``ks.mods[4]``), and the round goes on
        as one branch, not four (``place``: the modifier's place in an assignment)."""
        placed = []
        for a in alive:
            values = self.values[a]
            for colour in range(4):
                placed.append(self._assignment(values[:place] + (_floated(values[place], colour),) + values[place + 1:]))
        child, left = ks.copy(), undealt[:]
        if len(child.mods) == 4:
            child.mods.append([])
        child.mods[4].append((ks.current, HIDDEN - place))
        child.pending, child.phase = None, PLAY
        _end_turn(child, left)
        return _mix([(1, self._value(child, left, tuple(placed)))], 4)

    def _assignment(self, values: tuple[int, ...]) -> int:
        """The place in ``self.values`` of an assignment made longer by a draw."""
        found = self.value_ids.get(values)
        if found is None:
            found = self.value_ids[values] = len(self.values)
            self.values.append(values)
        return found

    def _reveal(self, ks: KState, undealt: list[int], alive: tuple[int, ...]) -> list[int]:
        """The round end, for each alive assignment: the reveal shows every modifier."""
        if _settles(ks, len(ks.deck)):
            return self._settled(ks, self._limits(ks, alive), self.viewer, [([], 1)], 1)
        return self._reveal_in_kernel(ks, undealt, alive)

    def _reveal_in_kernel(self, ks: KState, undealt: list[int], alive: tuple[int, ...]) -> list[int]:
        """``_reveal`` played by the kernel's round end, gold decisions and next round."""
        branches: list[tuple[int, list[int]]] = []
        for a in alive:
            child = ks.copy() if len(alive) > 1 else ks
            _show(child, dict(enumerate(self.values[a])))
            kernel.round_end(child)  # the reveal, then gold decisions if any
            branches.append((1, self._child(child, undealt, (a,), len(alive))))
        return _mix(branches, 1)

    def _limits(self, ks: KState, alive: tuple[int, ...]) -> list[tuple[int, list[int]]]:
        """The capital's totals at the reveal (the hometowns' limits), each with the number of
        alive assignments of the hidden modifiers that give it. What the hidden modifiers add
        to each colour is counted once for the places they lie in and the alive assignments
        (``self.shifts``): many round ends share them."""
        fixed = [total(cards) for cards in ks.capital]  # each limit but the hidden modifiers
        places: list[tuple[int, int]] = []  # each hidden modifier's colour (4: placed at random) and place
        for c in range(len(ks.mods)):  # ``ks.mods[4]``: ``_place_unseen``
            for _, value in ks.mods[c]:
                if value > HIDDEN:
                    fixed[c] += value
                else:
                    places.append((c, HIDDEN - value))
        asked = (tuple(places), alive)
        shifts = self.shifts.get(asked)
        if shifts is None:
            counted: dict[tuple[int, ...], int] = {}
            for a in alive:
                values, shift = self.values[a], [0, 0, 0, 0]
                for c, k in places:
                    if c == 4:
                        colour, value = _unfloated(values[k])
                        shift[colour] += value
                    else:
                        shift[c] += values[k]
                key = tuple(shift)
                counted[key] = counted.get(key, 0) + 1
            shifts = self.shifts[asked] = list(counted.items())
        return [(times, [fixed[0] + shift[0], fixed[1] + shift[1], fixed[2] + shift[2], fixed[3] + shift[3]])
                for shift, times in shifts]

    def _settled(self, ks: KState, by_limits: list[tuple[int, list[int]]], seat: int,
                 hands: list[tuple[list[int], int]], over: int,
                 first: tuple[int, list[tuple[int, int, int]]] | None = None) -> list[int]:
        """A round end with every card dealt but ``hands`` (each with its number of ways out of
        ``over``), one of which goes into seat ``seat``'s hometown, for each alive assignment of
        the hidden modifiers (``by_limits``: the limits they give, each with how many give it),
        reckoned as ``kernel.round_end`` and ``kernel.finish_round`` would and read as
        ``kernel_outcome`` reads it, ``ks`` unchanged.

        ``first``, if given, is another seat's one card going home too: the seat and each kind
        it may be, with its copies and its filter's weight (``_deal_filtered``; 1 without one).
        ``hands`` are then counted from the whole pool, and where a hand takes a copy of the
        kind the other seat got, its ways are corrected (``comb(c, t) - comb(c - 1, t)`` is
        ``comb(c, t) * t / c``): the two deals in one pass, not one pass per kind.

        Why it is cheap: a round end is read through what each seat keeps after its gold
        choices (``_outcome``), the viewer's own figures (``_own``) and the seats' contest for
        the score. A hand changes only its seat's hometown, and hands that give it the same
        totals are one row. The limits are grouped by what they leave the seats not dealt to
        (and, with ``first``, the other seat's kinds): for each group those seats make their
        choices ready for the contest once (``_Scorer``), and a row that keeps the same under
        every limit of the group (``_steady``) counts once for all of them. One seat dealt
        to, each row is scored against them (``_alone``). With ``first``, rows and kinds that
        leave their seat the same outcome are one (a colour over and lost leaves the same,
        whatever card took it over), an outcome met under several limits of a group is one,
        its ways summed over them (``_met``), and a contest is reckoned for each pair of
        outcomes of the two seats (``_contests``). Contests are reckoned again, not looked
        up: summed as they come, in whole numbers, one costs less than a key for it in a
        table would."""
        viewer, order, n = self.viewer, self.order, ks.players
        sums = kernel.home_totals(ks.home)
        counts = [len(cards) for cards in ks.home[viewer]]
        other, kinds = first if first is not None else (-1, [])
        kind_at = {kind: k for k, (kind, _, _) in enumerate(kinds)}
        kind_ways = sum(copies * weight for _, copies, weight in kinds)
        dealt_ways = sum(ways for _, ways in hands)
        # The seat's hometown with each hand (with the viewer's numbers of cards, for its own figures), the
        # ways of the hands to each; with ``first``, told apart, and the ways each hand takes from each kind
        row_ids: dict[tuple[int, ...], int] = {}
        rows: list[list[int]] = []
        lanes: list[int] = []  # each row packed, 8 bits a colour (one seat dealt to: ``_alone``)
        helds: list[list[int]] = []
        raw: list[int] = []  # each row: the ways of its hands
        marginal: list[int] = []  # and with the other seat's kinds, less the ways the hands take from them
        row_takes: list[list[tuple[int, int]]] = []  # each row: each kind its hands take from, and the ways taken
        taken = [0] * len(kinds)  # each kind: the ways the hands take from it
        mass = 0  # the ways of all, ``over`` but where a filter weighs the hands
        base, top0, top1, top2, top3 = _lane(sums[seat]), 0, 0, 0, 0  # one seat dealt to: the most a hand adds
        for hand, ways in hands:
            held = counts
            if seat == viewer:
                held = counts[:]
                for kind in hand:
                    held[COLOUR_OF[kind]] += 1
            if first is None:  # hands of a card each or merged by totals (``_deal``): rows all but always apart
                added = 0
                for kind in hand:
                    added += VALUE_OF[kind] << 8 * COLOUR_OF[kind]
                top0, top1 = max(top0, added & 255), max(top1, added >> 8 & 255)
                top2, top3 = max(top2, added >> 16 & 255), max(top3, added >> 24)
                lanes.append(base + added)
                helds.append(held)
                raw.append(ways)
                mass += ways
                continue
            row = sums[seat][:]
            for kind in hand:
                row[COLOUR_OF[kind]] += VALUE_OF[kind]
            taking, previous = 0, -1
            took: list[tuple[int, int]] = []
            for kind in hand:
                k = kind_at.get(kind, -1)
                if kind != previous and k >= 0:
                    t = hand.count(kind)
                    weight = kinds[k][2]
                    taking += weight * t
                    taken[k] += ways * t
                    took.append((k, weight * ways * t))
                previous = kind
            found = tuple(row + held) if seat == viewer else tuple(row)
            r = row_ids.get(found, -1)
            if r < 0:
                r = row_ids[found] = len(rows)
                rows.append(row)
                lanes.append(_lane(row))
                helds.append(held)
                raw.append(0)
                marginal.append(0)
                row_takes.append([])
            share = ways * (kind_ways - taking)
            raw[r] += ways
            marginal[r] += share
            mass += share
            row_takes[r] += took
        other_rows = []  # the other seat's hometown totals with each of its kinds
        for kind, _, _ in kinds:
            row = sums[other][:]
            row[COLOUR_OF[kind]] += VALUE_OF[kind]
            other_rows.append(row)
        plain = first is None and len(hands) == 1 and not hands[0][0]  # nothing dealt (most round ends)
        at, other_at = order.index(seat), order.index(other) if first is not None else -1
        tops = _tops(ks.capital)  # the bonus cards (``_Scorer``)
        own: dict[int, list[int]] = {}  # the viewer's own figures, summed by denominator
        contests: dict[int, list[int]] = {}  # the score change and being ahead, summed by denominator
        compared = [*enumerate(sums), *((seat, row) for row in rows), *((other, row) for row in other_rows)]
        if first is None:  # the seat's highest totals: its rows are packed
            home = sums[seat]
            compared.append((seat, [home[0] + top0, home[1] + top1, home[2] + top2, home[3] + top3]))
        # The limits grouped by what the seats not dealt to and the other seat's kinds keep (``_alone``,
        # ``_met`` and ``_contests``): for each group, those outcomes and its limits
        groups: dict[tuple[int, ...], int] = {}
        grouped: list[list[int]] = []
        alike: list[list[tuple[list[int], list[int], int]]] = []  # each group's limits
        for limits_key, times in _merged(by_limits, self._reach(ks, compared)).items():
            limits = list(limits_key)
            shown = ks.reveal_limits or limits
            outcomes = []  # each seat's outcome in turn order (-1 for those dealt to), then each kind's
            for p in order:
                outcome = -1
                if p != seat and p != other:
                    outcome = self._outcome(ks, p, sums[p], limits)
                    if p == viewer:
                        self._own(own, times * mass, ks, sums[p], counts, limits, shown, outcome)
                outcomes.append(outcome)
            if not plain:
                self._tick(len(raw) + len(kinds))  # a row each (``raw``), and a kind
            for k, (kind, copies, weight) in enumerate(kinds):
                outcome = self._outcome(ks, other, other_rows[k], limits)
                outcomes.append(outcome)
                if other == viewer:
                    held = counts[:]
                    held[COLOUR_OF[kind]] += 1
                    self._own(own, times * weight * (copies * dealt_ways - taken[k]), ks, other_rows[k], held,
                              limits, shown, outcome)
            found = tuple(outcomes)
            g = groups.get(found, -1)
            if g < 0:
                g = groups[found] = len(grouped)
                grouped.append(outcomes)
                alike.append([])
            alike[g].append((limits, shown, times))
        for g, outcomes in enumerate(grouped):
            if first is None:
                self._alone(ks, tops, outcomes, at, seat, alike[g], lanes, helds, raw, own, contests)
                continue
            met = self._met(ks, seat, alike[g], rows, lanes, helds, marginal, own)
            summed_here = self._contests(ks, tops, outcomes, at, other_at, met, raw, row_takes, kinds)
            for combinations, summed in summed_here.items():
                total_here = contests.setdefault(combinations, [0, 0])
                total_here[0] += summed[0]
                total_here[1] += summed[1]
        return _total(own, contests, over)

    def _alone(self, ks: KState, tops: int, outcomes: list[int], at: int, seat: int,
               group: list[tuple[list[int], list[int], int]], lanes: list[int], helds: list[list[int]],
               raw: list[int], own: dict[int, list[int]], contests: dict[int, list[int]]) -> None:
        """``_settled``'s contests where one seat is dealt to (at ``at`` in turn order), under a
        ``group`` of limits (each with the limits the viewer is shown and its number of
        assignments) that leave the other seats the same ``outcomes`` (each seat's in turn
        order, -1 at ``at``), added to ``contests``, and the viewer's own figures to ``own``
        where it is that seat: each of its hometown's totals (``lanes``: packed, ``_lane``; its
        ways: ``raw``) scored against each combination of the other seats' gold choices made
        ready once (``_Scorer``). A row's one choice is read off its totals (``_unasked``)
        where the seat is not asked (no colour over that it could pay for): no outcome
        looked up, and none kept. A row that keeps the same under every limit of the group
        (``_steady``; seed 29's random 189: 1.9 million rows under a limit, 0.7 million
        under a group) is scored once for all of them."""
        n, packed, viewer, score = ks.players, self.packed, self.viewer, self.score
        lists = [[0], [0], [0], [0]]  # each seat's gold choices, packed, in turn order; none at ``at``
        for i in range(n):
            if i != at:
                lists[i] = packed[outcomes[i]]
        tables = self._scorers(tops, n, at, lists)
        count = len(tables)
        gold = ks.gold[seat]
        weight = weighted = ahead = 0  # the weight, the scores weighted and being ahead of a choice, summed
        unsteady: list[int] = []  # the rows scored limit by limit
        if seat == viewer or len(group) == 1:
            unsteady = list(range(len(lanes)))
        else:
            everywhere, below, above, farther = _spread(group, gold)
            for r, lane in enumerate(lanes):
                choice = _steady(lane, below, above, farther, gold)
                if choice < 0:
                    unsteady.append(r)
                    continue
                ways = everywhere * raw[r]
                scores, wins = _against(tables, choice)
                weight += ways
                weighted += ways * scores
                ahead += ways * wins
        for limits, shown, times in group:
            over, farther = _bounds(limits, gold)
            for r in unsteady:
                ways = times * raw[r]
                choice = -1  # the seat's one choice, packed, where it is not asked
                if seat != viewer:
                    choice = _unasked(lanes[r], over, farther, gold)
                if choice < 0:
                    row = _unlane(lanes[r])
                    outcome = self._outcome(ks, seat, row, limits)
                    if seat == viewer:
                        self._own(own, ways, ks, row, helds[r], limits, shown, outcome)
                    choices = packed[outcome]
                    if len(choices) > 1:
                        self._combined(tables, choices, ways, contests)
                        continue
                    choice = choices[0]
                scores, wins = _against(tables, choice)
                weight += ways
                weighted += ways * scores
                ahead += ways * wins
        found = contests.setdefault(count, [0, 0])
        found[0] += weighted - weight * count * score
        found[1] += ahead

    def _met(self, ks: KState, seat: int, group: list[tuple[list[int], list[int], int]], rows: list[list[int]],
             lanes: list[int], helds: list[list[int]], marginal: list[int], own: dict[int, list[int]]) -> list[int]:
        """Where two seats are dealt to, each of seat ``seat``'s ``rows``' outcomes under
        the ``group`` of limits ``_contests`` reads (row, outcome, weight, row...), and the
        viewer's own figures added to ``own`` where it is that seat (``marginal``: each
        row's ways with the other seat's kinds). A row that keeps the same under each limit
        of the group (``_steady``) has one outcome for all of them, with their weights
        summed (seed 29's random 174: 108 thousand outcomes for 219 thousand rows under a
        limit)."""
        met: list[int] = []
        gold, viewer = ks.gold[seat], self.viewer
        unsteady: list[int] = []  # the rows looked up limit by limit
        if seat == viewer or len(group) == 1:
            unsteady = list(range(len(rows)))
        else:
            everywhere, below, above, farther = _spread(group, gold)
            for r, lane in enumerate(lanes):
                if _steady(lane, below, above, farther, gold) < 0:
                    unsteady.append(r)
                    continue
                met.append(r)
                met.append(self._outcome(ks, seat, rows[r], group[0][0]))
                met.append(everywhere)
        for limits, shown, times in group:
            for r in unsteady:
                outcome = self._outcome(ks, seat, rows[r], limits)
                if seat == viewer:
                    self._own(own, times * marginal[r], ks, rows[r], helds[r], limits, shown, outcome)
                met.append(r)
                met.append(outcome)
                met.append(times)
        return met

    def _contests(self, ks: KState, tops: int, outcomes: list[int], at: int, other_at: int, met: list[int],
                  raw: list[int], row_takes: list[list[tuple[int, int]]],
                  kinds: list[tuple[int, int, int]]) -> dict[int, list[int]]:
        """``_settled``'s contests where two seats are dealt to, under a group of limits that
        leave the seats not dealt to and the other seat's kinds the same outcomes
        (``outcomes``: each seat's in turn order, -1 at ``at`` and ``other_at``, the seats
        dealt to, then each of the ``kinds``'): the viewer's score change and being ahead
        summed over each pair of outcomes of the two seats, with its ways, by the number of
        combinations of gold choices. ``met``: each row's outcome under each of the group's
        limits, with the limit's weight (row, outcome, weight, row...), so that an outcome
        met under several limits is one (its ways summed over them: a row's ways, ``raw``,
        less what it takes from each kind, ``row_takes``).

        Each outcome of the other seat makes the others' choices ready once (``_Scorer``),
        and each of the seat's is scored against them in turn, its ways times theirs; the
        ways a row takes from a kind are taken off as the row is met."""
        n, packed, nothing = ks.players, self.packed, [0]
        lists = [nothing, nothing, nothing, nothing]  # each seat's gold choices, packed, in turn order
        for i in range(n):
            if outcomes[i] >= 0:
                lists[i] = packed[outcomes[i]]
        local: dict[int, int] = {}
        others: list[list[int]] = []  # the other seat's outcomes, told apart: each one's gold choices
        others_to: list[int] = []  # and the ways to it
        kind_place: list[int] = []  # each kind's outcome's place
        for k, (_, copies, weight) in enumerate(kinds):
            outcome = outcomes[n + k]
            i = local.get(outcome, -1)
            if i < 0:
                i = local[outcome] = len(others)
                others.append(packed[outcome])
                others_to.append(0)
            others_to[i] += copies * weight
            kind_place.append(i)
        score = self.score
        scorers: list[list[_Scorer]] = []  # each of the other seat's outcomes: all choices but the seat's, made ready
        by_size: dict[int, tuple[list[list[_Scorer]], list[int]]] = {}  # those by number of combinations, and ways
        for i, choices in enumerate(others):
            lists[other_at] = choices
            scorers.append(self._scorers(tops, n, at, lists))
            group = by_size.setdefault(len(scorers[i]), ([], []))
            group[0].append(scorers[i])
            group[1].append(others_to[i])
        weight = scores_weighted = ahead = 0  # those of one combination of gold choices (most), summed
        summed: dict[int, list[int]] = {}
        dealt_at: dict[int, int] = {}  # the seat's outcomes, told apart: their places below
        dealt: list[list[int]] = []  # each one's gold choices
        dealt_to: list[int] = []  # and the ways to it, over the limits
        for m in range(0, len(met), 3):
            outcome = met[m + 1]
            j = dealt_at.get(outcome, -1)
            if j < 0:
                j = dealt_at[outcome] = len(dealt)
                dealt.append(packed[outcome])
                dealt_to.append(0)
            times = met[m + 2]
            dealt_to[j] += times * raw[met[m]]
            choices = dealt[j]
            for k, ways in row_takes[met[m]]:  # the ways the row takes from the kinds: taken off
                taking = scorers[kind_place[k]]
                if len(taking) == 1 and len(choices) == 1:
                    scored = taking[0].scored(choices[0])
                    weight -= times * ways
                    scores_weighted -= times * ways * (scored >> 1)
                    if scored & 1:
                        ahead -= times * ways
                else:
                    self._combined(taking, choices, -times * ways, summed)
        for size, (alike, alike_to) in by_size.items():  # the other seat's outcomes of ``size`` combinations
            size_to = sum(alike_to)
            ones = [each[0] for each in alike] if size == 1 else []
            for j, choices in enumerate(dealt):
                to = dealt_to[j]
                scores_here = ahead_here = 0
                if ones and len(choices) == 1:  # one combination (most): scored at once, the choice read once
                    choice = choices[0]
                    points, kept0, kept1 = (choice >> 32) << 15 * at, choice & 255, choice >> 8 & 255
                    kept2, kept3 = choice >> 16 & 255, choice >> 24 & 255
                    for i, scorer in enumerate(ones):
                        scored = scorer.read(points, kept0, kept1, kept2, kept3)
                        scores_here += alike_to[i] * (scored >> 1)
                        if scored & 1:
                            ahead_here += alike_to[i]
                    weight += to * size_to
                    scores_weighted += to * scores_here
                    ahead += to * ahead_here
                    continue
                for i, each in enumerate(alike):  # several: summed by their number
                    scores, wins = _summed(each, choices)
                    scores_here += alike_to[i] * scores
                    ahead_here += alike_to[i] * wins
                combinations = size * len(choices)
                found = summed.setdefault(combinations, [0, 0])
                found[0] += to * (scores_here - size_to * combinations * score)
                found[1] += to * ahead_here
        found = summed.setdefault(1, [0, 0])
        found[0] += scores_weighted - weight * score
        found[1] += ahead
        return summed

    def _scorers(self, tops: int, n: int, at: int, lists: list[list[int]]) -> list[_Scorer]:
        """A ``_Scorer`` for each combination of the gold choices of the seats but the one at
        ``at`` (``lists``: each seat's, packed, in turn order; ``[0]`` at ``at`` and beyond
        ``n``): one but where a seat has several (random gold)."""
        return [_Scorer(tops, self.bonus, n, at, self.viewer_at, [p0, p1, p2, p3])
                for p0 in lists[0] for p1 in lists[1] for p2 in lists[2] for p3 in lists[3]]

    def _combined(self, made: list[_Scorer], choices: list[int], ways: int, summed: dict[int, list[int]]) -> None:
        """Add ``ways`` times a contest of several combinations of gold choices to ``summed``,
        by their number: each of a seat's ``choices`` scored against each combination of the
        others' (``made``, ``_scorers``)."""
        scores, wins = _summed(made, choices)
        combinations = len(choices) * len(made)
        found = summed.get(combinations)
        if found is None:
            found = summed[combinations] = [0, 0]
        found[0] += ways * (scores - combinations * self.score)
        found[1] += ways * wins

    def _reach(self, ks: KState, rows: list[tuple[int, list[int]]]) -> list[int]:
        """Each colour's highest total a round end's comparisons with its limit read, of the
        hometown ``rows`` it compares (each with its seat: every seat's, and those with the
        cards being dealt), the viewer's with its points lost."""
        lost, reach = ks.points_lost[self.viewer], [0, 0, 0, 0]
        for p, row in rows:
            for c in range(4):
                reach[c] = max(reach[c], row[c] + lost[c] if p == self.viewer else row[c])
        return reach

    def _outcome(self, ks: KState, p: int, row: list[int], limits: list[int]) -> int:
        """What seat ``p``, with hometown totals ``row`` and the capital's ``limits``, keeps
        after each of its gold choices (``_choices``; a seat not asked keeps what is not over),
        as that list's place in ``self.outcomes``. Looked up by all its choices read, the rule
        of thumb's too: the seat's gold, its totals and what each colour over costs, packed in
        one int (there are 8 gold discs, and a colour's cards add up to 72 at most), the same
        for every limit that leaves the seat the same costs: keyed by the limits as well, 45%
        of the lookups missed (seed 27's random 166), 1% so. Told apart by content, so that
        totals that leave the seat the same (a colour over and lost, whatever card took it
        over) are one outcome."""
        gold, r0, r1, r2, r3 = ks.gold[p], row[0], row[1], row[2], row[3]
        c0, c1, c2, c3 = _cost(r0, limits[0]), _cost(r1, limits[1]), _cost(r2, limits[2]), _cost(r3, limits[3])
        looked_up = (gold << 28 | r0 | r1 << 7 | r2 << 14 | r3 << 21) << 28 | c0 | c1 << 7 | c2 << 14 | c3 << 21
        found = self.outcome_ids.get(looked_up)
        if found is not None:
            return found
        cost = [c0, c1, c2, c3]
        asked = any(0 < paid <= gold for paid in cost)  # as kernel.round_end asks
        kept = self._choices(ks, row, cost, gold) if asked else [_kept(row, cost, (), gold)]
        content = tuple(k for town, left in kept for k in (*town, left))
        found = self.outcome_contents.get(content)
        if found is None:
            found = len(self.outcomes)
            self.outcomes.append(kept)
            self.packed.append([_packed(choice) for choice in kept])
            self.outcome_contents[content] = found
        self.outcome_ids[looked_up] = found
        return found

    def _choices(self, ks: KState, row: list[int], cost: list[int], gold: int) -> list[tuple[list[int], int]]:
        """A seat's hometown totals kept and gold left after each gold choice the model makes
        when asked (every choice at random, the rule of thumb's one)."""
        options = gold_choices(cost, gold)
        if self.rule:
            limits = [float(row[c] - cost[c]) for c in range(4)]  # all the rule reads of them
            table = Table(0, [row], ks.capital, limits, ks.gold, ks.gold_pile, [], 0, 0)
            options = [options[rule_decision(table, PHASES[GOLD], options, None)]]
        return [_kept(row, cost, saved, gold) for saved in options]

    def _own(self, own: dict[int, list[int]], weight: int, ks: KState, row: list[int], counts: list[int],
             limits: list[int], shown: list[int], outcome: int) -> None:
        """Add ``weight`` times the viewer's figures that read nothing of the other seats (all
        but the score change and being ahead) for its hometown totals ``row`` and numbers of
        cards ``counts``, summed over its gold choices (``outcome``), to ``own`` under their
        number. Only the figures that are not 0 are added: most are (no colour over, none
        needed), and each sum added to is a new whole number."""
        viewer = self.viewer
        choices, lost, cards_lost = self.outcomes[outcome], ks.points_lost[viewer], ks.cards_lost[viewer]
        k = len(choices)
        sums = own.get(k)
        if sums is None:
            sums = own[k] = [0] * len(FIGURES)
        each = weight * k
        needed = 0
        for c in range(4):
            held = row[c] + lost[c]
            if held > 0 and held > shown[c]:  # ruling R7
                sums[c] += each
                sums[12 + c] += each * (held - shown[c])
                needed += held - shown[c]
            cards, points = k * cards_lost[c], k * lost[c]
            if row[c] and row[c] > limits[c]:
                for town, _ in choices:
                    if not town[c]:  # over and not kept with gold: lost
                        cards += counts[c]
                        points += row[c]
            if cards:
                sums[4 + c] += weight * cards
            if points:
                sums[8 + c] += weight * points
        if needed:
            sums[16] += each
        if needed <= ks.gold[viewer] + sum(ks.gold_spent[viewer]):
            sums[17] += each

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
                if c == G:  # Scholar: a card if the deck has one (ruling R10), dealt when it matters
                    if _deck_size(ks, undealt):
                        undealt[cur] += 1
                elif c == Y:  # Merchant: a gold disc if the pile has one
                    if ks.gold_pile:
                        ks.gold_pile -= 1
                        ks.gold[cur] += 1
                elif c == B:  # Agent: a modifier if there is one (ruling R11)
                    if len(ks.modifier_deck) > self.root.hidden:
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
            raise UsageError(f"no decision is made in phase {phase}")
        _end_turn(ks, undealt)


# -- the contest -------------------------------------------------------------------------
#: The top bit of each colour's 8 of a packed row (``_packed``, ``_unasked``).
_TOPS: Final = 0x80808080


def _bounds(limits: list[int], gold: int) -> tuple[int, int]:
    """What ``_unasked`` compares a seat's packed hometown totals with, for ``limits`` and
    the seat's ``gold``: each colour's limit, and the limit plus the gold (the most a
    colour over it can pay for), each plus 1 and kept to 1 to 128 (a total is 0 to 127),
    8 bits a colour."""
    over = farther = 0
    for c in range(4):
        over |= (min(max(limits[c], 0), 127) + 1) << 8 * c
        farther |= (min(max(limits[c] + gold, 0), 127) + 1) << 8 * c
    return over, farther


def _unasked(lane: int, over: int, farther: int, gold: int) -> int:
    """The one gold choice (``_packed``) of a seat with hometown totals ``lane`` (packed,
    8 bits a colour) that is not asked (``_bounds``: no colour over that it could pay
    for), what is not over kept and its ``gold`` left; -1 where it is asked. Each total
    with its top bit set, less a bound, keeps it set where the total is over the bound:
    four colours compared in one subtraction, with no borrow from one to the next."""
    lost = ((lane | _TOPS) - over) & _TOPS  # the colours over
    if lost & ~((lane | _TOPS) - farther):  # one over that the gold could pay for: asked
        return -1
    kept = lane - (lane & (lost >> 7) * 255)
    return kept | ((kept & 255) + (kept >> 8 & 255) + (kept >> 16 & 255) + (kept >> 24) + gold) << 32


def _spread(group: list[tuple[list[int], list[int], int]], gold: int) -> tuple[int, int, int, int]:
    """A group of limits (each with its number of assignments) as ``_steady`` reads it, for a
    seat with ``gold``: the assignments of all, ``_bounds`` of each colour's lowest limit,
    and both ``_bounds`` of each colour's highest."""
    low, high = group[0][0][:], group[0][0][:]
    everywhere = 0
    for limits, _, times in group:
        everywhere += times
        for c in range(4):
            low[c], high[c] = min(low[c], limits[c]), max(high[c], limits[c])
    above, farther = _bounds(high, gold)
    return everywhere, _bounds(low, gold)[0], above, farther


def _steady(lane: int, below: int, above: int, farther: int, gold: int) -> int:
    """``_unasked`` under every limit from the lowest to the highest of a group (``below``,
    ``above`` and ``farther``: ``_bounds`` of each colour's lowest and highest), where the
    seat keeps the same under all of them: the same colours over under the lowest and the
    highest (so under each), none it could pay for under the highest (so under none). -1
    where not."""
    if ((lane | _TOPS) - below) & _TOPS != ((lane | _TOPS) - above) & _TOPS:
        return -1
    return _unasked(lane, above, farther, gold)


def _tops(capital: list[list[int]]) -> int:
    """The capital's four highest cards of each colour, 3 bits a card (a card is worth 2 to
    6; 0: no card), the highest in the lowest bits, 12 bits a colour: the bonus cards
    ``_shares`` hands out, in one whole number."""
    tops = 0
    for c in range(4):
        cards = capital[c]
        top = 0
        for k in range(max(0, len(cards) - 4), len(cards)):  # sorted: the highest last, in the lowest bits
            top = top << 3 | cards[k]
        tops |= top << 12 * c
    return tops


def _shares(cards: int, v0: int, v1: int, v2: int, v3: int) -> int:
    """One colour's bonus cards (``cards``: its 12 bits of ``_tops``) handed out for the
    totals the seats keep of it (``v0`` to ``v3``, in turn order): to the seats with the
    highest, one each in turn order, the highest card first (R3, R5); none where no seat
    keeps any. The points each seat takes, 15 bits a seat in turn order."""
    best = v0 if v0 > v1 else v1
    if v2 > best:
        best = v2
    if v3 > best:
        best = v3
    if best == 0:
        return 0
    taken = 0
    if v0 == best:
        taken |= cards & 7
        cards >>= 3
    if v1 == best:
        taken |= (cards & 7) << 15
        cards >>= 3
    if v2 == best:
        taken |= (cards & 7) << 30
        cards >>= 3
    if v3 == best:
        taken |= (cards & 7) << 45
    return taken


class _Scorer:
    """A contest in which every seat but the one at ``at`` (in turn order) has one gold
    choice (``fixed``: packed, one a seat in turn order; 0 at ``at`` and beyond ``n``), made
    ready to score any choice of the seat at ``at`` (``scored``): the scores before that
    seat's choice (the others' with their bonus points so far, ``bonus``, and its own bonus
    points so far; 15 bits a seat), and for each colour the others' highest total kept and
    the bonus cards each seat takes (``_shares``) where the seat at ``at`` keeps less of it,
    as much, more. Its fields are whole numbers, which mypyc keeps in the object itself."""

    def __init__(self, tops: int, bonus: list[int], n: int, at: int, mine: int, fixed: list[int]) -> None:
        self.at, self.mine = at, mine
        self.base = 0
        for i in range(n):
            self.base += ((fixed[i] >> 32) + bonus[i]) << 15 * i
        self.best0, self.less0, self.same0, self.more0 = _cases(tops, 0, at, fixed)
        self.best1, self.less1, self.same1, self.more1 = _cases(tops, 1, at, fixed)
        self.best2, self.less2, self.same2, self.more2 = _cases(tops, 2, at, fixed)
        self.best3, self.less3, self.same3, self.more3 = _cases(tops, 3, at, fixed)

    def scored(self, choice: int) -> int:
        """The score of the viewer (at ``mine`` in turn order), times two, plus 1 if no seat
        scores more, where the seat at ``at`` makes gold choice ``choice`` (``_packed``) and
        the others theirs: each colour's bonus cards read by how the choice's total of it
        compares with the others' highest, not handed out again. The seats beyond the table
        score 0, no more than any seat of it."""
        return self.read((choice >> 32) << 15 * self.at, choice & 255, choice >> 8 & 255, choice >> 16 & 255,
                         choice >> 24 & 255)

    def read(self, points: int, kept0: int, kept1: int, kept2: int, kept3: int) -> int:
        """``scored`` of a choice read once for many contests (``Search._contests``): its
        points placed at its seat's 15 bits, and what it keeps of each colour."""
        scores = self.base + points
        scores += self.less0 if kept0 < self.best0 else self.same0 if kept0 == self.best0 else self.more0
        scores += self.less1 if kept1 < self.best1 else self.same1 if kept1 == self.best1 else self.more1
        scores += self.less2 if kept2 < self.best2 else self.same2 if kept2 == self.best2 else self.more2
        scores += self.less3 if kept3 < self.best3 else self.same3 if kept3 == self.best3 else self.more3
        own = scores >> 15 * self.mine & 32767
        most, other = scores & 32767, scores >> 15 & 32767
        if other > most:
            most = other
        other = scores >> 30 & 32767
        if other > most:
            most = other
        other = scores >> 45 & 32767
        if other > most:
            most = other
        return 2 * own + int(own >= most)


def _against(made: list[_Scorer], choice: int) -> tuple[int, int]:
    """A seat's gold ``choice`` scored against each combination of the others' choices
    (``made``, ``Search._scorers``): the viewer's score and being ahead, each summed over them."""
    if len(made) == 1:  # most
        scored = made[0].scored(choice)
        return scored >> 1, scored & 1
    scores = wins = 0
    for scorer in made:
        scored = scorer.scored(choice)
        scores += scored >> 1
        wins += scored & 1
    return scores, wins


def _summed(made: list[_Scorer], choices: list[int]) -> tuple[int, int]:
    """``_against`` summed over each of a seat's gold ``choices``."""
    scores = wins = 0
    for choice in choices:
        scored, won = _against(made, choice)
        scores += scored
        wins += won
    return scores, wins


def _cases(tops: int, c: int, at: int, fixed: list[int]) -> tuple[int, int, int, int]:
    """For colour ``c`` (its bonus cards: ``tops``, as ``_tops`` packs them; the seats'
    choices: ``fixed``, as ``_Scorer`` reads them): the highest total kept by the seats but
    the one at ``at``, and the bonus cards each seat takes (``_shares``) where that seat
    keeps less (read only where the highest is more than 0), as much, more."""
    cards, shift = tops >> 12 * c & 4095, 8 * c
    v0, v1 = 0 if at == 0 else fixed[0] >> shift & 255, 0 if at == 1 else fixed[1] >> shift & 255
    v2, v3 = 0 if at == 2 else fixed[2] >> shift & 255, 0 if at == 3 else fixed[3] >> shift & 255
    best = v0 if v0 > v1 else v1
    best = best if best > v2 else v2
    best = best if best > v3 else v3
    same, more = _shares(cards, best if at == 0 else v0, best if at == 1 else v1, best if at == 2 else v2,
                         best if at == 3 else v3), 0
    if cards:  # more: the seat at ``at`` alone takes the highest card
        more = (cards & 7) << 15 * at
    return best, _shares(cards, v0, v1, v2, v3), same, more


# -- values ------------------------------------------------------------------------------
def _mix(branches: Sequence[tuple[int, list[int]]], over: int) -> list[int]:
    """The sum of the branches' values, each times its weight ``branches[k][0]``, divided by
    ``over``, in lowest terms."""
    if not branches:  # a filter that no card left in the pool passes: no chance at all
        return [1] + [0] * len(FIGURES)
    common = 1
    for _, value in branches:
        common = math.lcm(common, value[0])
    mixed = [0] * len(branches[0][1])
    for weight, value in branches:
        scale = weight * (common // value[0])
        for i in range(1, len(value)):
            mixed[i] += scale * value[i]
    mixed[0] = over * common
    divisor = math.gcd(*mixed)
    if divisor > 1:
        mixed = [n // divisor for n in mixed]
    return mixed


def _merged(by_limits: list[tuple[int, list[int]]], reach: list[int]) -> dict[tuple[int, ...], int]:
    """``by_limits`` with each limit at most ``reach`` (its colour's highest total compared
    with it), merged: a limit no total reaches reads as any other (every comparison with it
    is false: no colour over, no gold needed), so the limits that differ only there are one."""
    merged: dict[tuple[int, ...], int] = {}
    for times, limits in by_limits:
        key = (min(limits[0], reach[0]), min(limits[1], reach[1]), min(limits[2], reach[2]), min(limits[3], reach[3]))
        merged[key] = merged.get(key, 0) + times
    return merged


def _total(own: dict[int, list[int]], contests: dict[int, list[int]], over: int) -> list[int]:
    """The value of a round end: the viewer's own figures (``own``: every numerator, the last
    two 0) and the score change and being ahead (``contests``: those two numerators), each
    summed by denominator, divided by ``over``, in lowest terms."""
    common = 1
    for denominator in own:
        common = math.lcm(common, denominator)
    for denominator in contests:
        common = math.lcm(common, denominator)
    value = [0] * 21
    for denominator, numerators in own.items():
        scale = common // denominator
        for i in range(20):
            value[i + 1] += scale * numerators[i]
    for denominator, numerators in contests.items():
        scale = common // denominator
        value[19] += scale * numerators[0]
        value[20] += scale * numerators[1]
    value[0] = over * common
    divisor = math.gcd(*value)
    if divisor > 1:
        value = [k // divisor for k in value]
    return value


def _cost(total: int, limit: int) -> int:
    """What a colour with ``total`` in a hometown costs to keep against ``limit``: 0 if not over
    (a colour with no cards never is, R7)."""
    return total - limit if total and total > limit else 0


def _kept(town: list[int], cost: list[int], saved: tuple[int, ...], gold: int) -> tuple[list[int], int]:
    """A hometown's colour totals kept and the gold left once the colours over their limit
    (``cost``: what each costs, 0 if not over) are paid for where ``saved`` and lost elsewhere."""
    kept, left = town[:], gold
    for c in range(4):
        if cost[c]:
            if c in saved:
                left -= cost[c]
            else:
                kept[c] = 0
    return kept, left


# -- positions ---------------------------------------------------------------------------
def _end_turn(ks: KState, undealt: list[int]) -> None:
    """The next seat clockwise, or the last turns once a hand runs out (ruling R9), or the
    round end (``ROUND_END``, the hands dealt so far gone home), as ``kernel.play_out`` ends
    a turn."""
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
    for q in range(n):  # hands go home (ruling R9), as the round end would take them
        for kind in ks.hands[q]:
            insort(ks.home[q][COLOUR_OF[kind]], VALUE_OF[kind])
        ks.hands[q] = []
        undealt[n + q] += undealt[q]  # and the cards not dealt with them
        undealt[q] = 0


def _last_decision(ks: KState, undealt: list[int]) -> bool:
    """Whether the seat to move plays the round's last turn (ruling R9: no seat after it
    in the last turns holds a card)."""
    if ks.last_turns is None:
        return False
    for q in ks.last_turns:
        if ks.hands[q] or undealt[q]:
            return False
    return True


def _owned(ks: KState, seat: int) -> list[int]:
    """The hidden modifiers ``seat`` owns (it sees their values): their places in an assignment."""
    owned = [HIDDEN - value for above in ks.mods for owner, value in above if owner == seat and value <= HIDDEN]
    if ks.phase == AGENT and ks.pending is not None and ks.pending <= HIDDEN:
        owned.append(HIDDEN - ks.pending)
    return owned


def _packed(choice: tuple[list[int], int]) -> int:
    """A seat's gold choice as one whole number: its hometown totals kept, 8 bits a
    colour (a colour's cards add up to 72 at most: the top bit of each is free, which
    ``_alone`` reads), and above them its score before the bonus (the totals and the gold
    left)."""
    town, left = choice
    assert max(town) < 128
    return _lane(town) | (town[0] + town[1] + town[2] + town[3] + left) << 32


def _lane(totals: list[int]) -> int:
    """A hometown's four colour totals (each 0 to 127), 8 bits a colour, the first lowest."""
    return totals[0] | totals[1] << 8 | totals[2] << 16 | totals[3] << 24


def _unlane(lane: int) -> list[int]:
    """The four colour totals ``_lane`` packs."""
    return [lane & 255, lane >> 8 & 255, lane >> 16 & 255, lane >> 24]


def _floated(value: int, colour: int) -> int:
    """A modifier's value and the colour it was placed on (``Search._place_unseen``), as one
    number of an assignment: far from every value (-3 to 4), so that each is read for what it is."""
    return 100 * (colour + 1) + value


def _unfloated(code: int) -> tuple[int, int]:
    """The colour and value of a number of an assignment: -1 and the number for a value alone."""
    if -50 < code < 50:
        return -1, code
    colour = (code + 50) // 100 - 1
    return colour, code - 100 * (colour + 1)


def _show(ks: KState, values: dict[int, int]) -> None:
    """Put ``values`` (by place in an assignment) in their placeholders, in place; those placed
    at random (``ks.mods[4]``) go on the colour their value says."""
    if len(ks.mods) > 4:
        for owner, value in ks.mods.pop():
            colour, shown = _unfloated(values[HIDDEN - value])
            ks.mods[colour].append((owner, shown))
    for above in ks.mods:
        for i, (owner, value) in enumerate(above):
            if value <= HIDDEN and HIDDEN - value in values:
                above[i] = (owner, values[HIDDEN - value])
    if ks.pending is not None and ks.pending <= HIDDEN and HIDDEN - ks.pending in values:
        ks.pending = values[HIDDEN - ks.pending]


def _settles(ks: KState, deck: int) -> bool:
    """Whether ``Search._settle`` reckons this round end (a deck of ``deck`` cards left):
    not when a next round would have no cards to deal and end at once (ruling R15)."""
    return ks.round == ROUNDS or deck >= ks.players


def _in_hands(ks: KState, undealt: list[int]) -> int:
    """The cards in every hand as the game has them (the rule of thumb's ``later`` reads it):
    those dealt, those not dealt yet, and those going home at the round end, which the rule
    of thumb's seats keep in hand until then (a seat moving at random, whose cards played home
    wait there too, decides nothing that reads it)."""
    count = 0
    for q in range(ks.players):
        count += len(ks.hands[q]) + undealt[q] + undealt[ks.players + q]
    return count


def _deck_size(ks: KState, undealt: list[int]) -> int:
    size = len(ks.deck)
    for q in range(2 * ks.players):  # the cards not dealt, in hands and going home (not the filters)
        size -= undealt[q]
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
    if size == 1:  # the usual deal (a Scholar's draw, the last card of a hand): each kind with its copies
        return [([kind], copies) for kind, copies in counts.items()]
    found: list[tuple[list[int], int]] = []
    _extend(found, list(counts.items()), 0, size, [], 1)
    return found


def _extend(found: list[tuple[list[int], int]], counts: list[tuple[int, int]], start: int, left: int,
            hand: list[int], ways: int) -> None:
    """``_multisets``' hands that add ``left`` cards of the kinds from ``start`` on to ``hand``."""
    if left == 0:
        found.append((hand, ways))
        return
    for k in range(start, len(counts)):
        kind, copies = counts[k]
        for take in range(1, min(copies, left) + 1):
            _extend(found, counts, k + 1, left - take, hand + [kind] * take, ways * math.comb(copies, take))


def _by_totals(hands: list[tuple[list[int], int]]) -> list[tuple[list[int], int]]:
    """``hands`` merged where they give a hometown the same total and number of cards in every
    colour (what ``_key`` keeps of a hometown once every card is dealt): one hand of each,
    with the ways of all."""
    merged: dict[int, tuple[list[int], int]] = {}
    for hand, ways in hands:
        key = 0  # 16 bits a colour: its total, and above it its number of cards
        for kind in hand:
            key += (256 | VALUE_OF[kind]) << 16 * COLOUR_OF[kind]
        found = merged.get(key)
        merged[key] = (hand, ways) if found is None else (found[0], found[1] + ways)
    return list(merged.values())


def _pairs_by_totals(counts: dict[int, int]) -> list[tuple[list[int], int]]:
    """``_by_totals(_multisets(counts, 2))`` without listing every pair first: two cards of
    different colours are a hand of their own (each colour's total is its card), and two of
    one colour are merged by their sum, one hand of each with the ways of all."""
    kinds = list(counts.items())
    found: list[tuple[list[int], int]] = []
    same: dict[int, int] = {}  # two cards of a colour: by colour and sum, their place in ``found``
    for k, (kind, copies) in enumerate(kinds):
        for other, more in kinds[k:]:
            ways = copies * more if other != kind else copies * (copies - 1) // 2
            if not ways:
                continue
            if COLOUR_OF[kind] != COLOUR_OF[other]:
                found.append(([kind, other], ways))
                continue
            key = COLOUR_OF[kind] << 8 | VALUE_OF[kind] + VALUE_OF[other]
            at = same.get(key, -1)
            if at < 0:
                same[key] = len(found)
                found.append(([kind, other], ways))
            else:
                found[at] = (found[at][0], found[at][1] + ways)
    return found


def _key(ks: KState, undealt: list[int], alive: tuple[int, ...]) -> tuple[object, ...]:
    """What of the position still matters for the reveal. A hometown counts by each colour's
    total and number of cards: the scores, the limits' comparisons, the rule of thumb's table
    and the cards lost read nothing else of it. Once every card is dealt at the round end,
    only the deck's size matters (a round with no cards to deal ends at once, ruling R15)."""
    home = tuple(tuple((total(cards), len(cards)) for cards in town) for town in ks.home)
    dealt = ks.phase == ROUND_END and not any(undealt)
    return (
        ks.phase, ks.current, len(ks.deck) if dealt else tuple(ks.deck), tuple(tuple(h) for h in ks.hands),
        tuple(undealt), home, tuple(tuple(c) for c in ks.capital), tuple(tuple(m) for m in ks.mods), ks.pending,
        tuple(ks.modifier_deck), tuple(ks.gold), ks.gold_pile,
        None if ks.last_turns is None else tuple(ks.last_turns), tuple(ks.gold_queue), tuple(ks.gold_choices), alive,
    )
