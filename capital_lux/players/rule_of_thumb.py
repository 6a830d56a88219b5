"""The rule of thumb: how the ``RuleOfThumbBot`` judges a table (``bots`` explains its moves).

Everything here works from a ``Table``, the few numbers a beginner reasons with,
seen from one seat. ``table_of`` builds it from a ``PlayerView`` and
``policies.table_for`` from the playout kernel's compact state; both paths decide
with ``rule_decision`` (``rule_choice`` is the same for engine actions), so the
bot and the kernel's rule policy choose alike.

Why the layout (issue 11): the kernel plays rule-of-thumb games by the thousand,
and a play decision judges every card in hand both ways. So a table is lists
indexed by colour (``COLOURS.index``) with cards as kind indices (``ALL_CARDS``),
and ``_Judge`` judges a move from the numbers its decision shares, recomputing
only what the move changes: one's own hometown and gold, the capital and limit of
one colour (two with a Cleric's take), the opponents' kept cards only where they
exceed a changed limit, the hand's plan only in the colours touched.

A play also weighs the chance of keeping each colour it changes (``_Judge.kept_parts``):
the estimated limit takes each unseen modifier as one number, so a total just under it
would count as safe and one just over it as lost, where the chances may be near even.
So a move's worth adds what its colours keep on average over every draw the unseen
modifiers may be, less what they keep at the estimate. Where nothing is hidden, that is
nothing. It made the bot's plays stronger and its mistakes, as the review finds them,
fewer (``docs/benchmarks.md``, the review).

The numbers are those of judging a copied table per move, to the last bit: totals,
card values and gold are ints, a plan's worth is a sum of halves (exact in any
order), chances are counted in 24ths as ints, and every float operation on a limit or
a room is the one the copied table made. ``tests/rule_reference.py`` keeps that
straightforward judge, and the tests check that both make the same choices.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Final, Sequence

from ..engine.cards import COLOURS, KIND, MODIFIERS
from ..engine.kernel_state import CLERIC_COLOURS, COLOUR_OF, VALUE_OF, B, G, P, Y, Decision, from_action
from ..engine.notation import Action
from ..engine.rules import gold_choice_worth
from ..engine.state import AGENT, CLERIC, DRAFT, GOLD, PLAY
from ..engine.views import PlayerView


# The constants are ``Final`` so that, compiled (``capital_lux.compiled``), they are C constants
# rather than a dictionary lookup at each use.
#: What a card's special action is worth in points, roughly, when it can be performed.
ACTION_WORTH: Final[dict[str, float]] = {"B": 1.5, "G": 2.0, "P": 0.0, "Y": 1.0}
#: Points lost per face-down modifier the viewer cannot see: it might be the -3.
CAUTION: Final = 1.0
#: Cards still in hand count for less than cards already down: plans change.
HAND_DISCOUNT: Final = 0.85
#: How far each capital colour's total is expected to rise before the round ends, per card still
#: in any hand: the plan keeps a card home while it fits the limit as it will be, not as it is.
#: Planning with the limits as they stand scores 1.05 ± 0.40 points a game less (``bench review``'s
#: ``rule_variants``: seat 0 of 6,000 seeded 4-player games against rule-of-thumb seats); from a
#: quarter to three quarters of a point a card the gain was about the same, an eighth about half.
LATER_PER_CARD: Final = 0.25

#: The chances a move changes are counted in parts of this many (``_Judge.kept_parts``): every
#: count of equally likely draws of unseen modifiers (in order, from at most four) divides it.
CHANCE_PARTS: Final = 24

_WORTH: Final = tuple(ACTION_WORTH[c] for c in COLOURS)


@dataclass(init=False)  # compiled, a written-out __init__ is a native call; the generated one is not
class Table:
    """The numbers a rule of thumb reasons with, seen from one seat.

    Colours are indices into ``COLOURS``, cards kind indices into ``ALL_CARDS``:
    the kernel's own terms, so that its seats' tables cost little to build. Every list of
    values is sorted, as in the game's state.
    """

    me: int
    home: list[list[int]]  # hometown totals per seat, by colour
    capital: list[list[int]]  # capital card values by colour
    limit: list[float]  # each capital total as the viewer estimates it
    gold: list[int]
    gold_pile: int
    hand: list[int]  # card kinds in hand (during the draft, the cards picked so far)
    deck: int
    modifier_deck: int
    later: float  # the rise each limit is expected to take before the round ends (``LATER_PER_CARD``)
    known: list[int]  # by colour, the capital's total the viewer sees: cards and modifiers face up to it
    chances: list[list[tuple[int, int]]]  # by colour, what its unseen modifiers may add (``estimate_limits``)

    def __init__(self, me: int, home: list[list[int]], capital: list[list[int]], limit: list[float], gold: list[int],
                 gold_pile: int, hand: list[int], deck: int, modifier_deck: int, later: float = 0.0,
                 known: list[int] | None = None, chances: list[list[tuple[int, int]]] | None = None) -> None:
        self.me, self.home, self.capital, self.limit, self.gold = me, home, capital, limit, gold
        self.gold_pile, self.hand, self.deck, self.modifier_deck = gold_pile, hand, deck, modifier_deck
        self.later = later
        self.known = [0, 0, 0, 0] if known is None else known
        self.chances = [[], [], [], []] if chances is None else chances


def estimate_limits(
    capital: list[list[int]], seen: list[list[int | None]], pending: int | None, caution: float = CAUTION,
) -> tuple[list[float], list[int], list[list[tuple[int, int]]]]:
    """Each capital colour's total as far as a seat can tell: cautiously, as it sees it, and by
    its chances.

    ``seen`` holds the modifiers above each colour as the seat sees them (None when face
    down to it) and ``pending`` its own Agent draw not yet placed. In the first list, each
    unseen modifier counts as the average of those the seat has not seen, less ``caution``.
    The second holds the cards and the modifiers seen. The third lists, by colour, each sum its
    unseen modifiers may add once turned, the lowest first, with its chance in parts of
    ``CHANCE_PARTS`` (the modifiers the seat has not seen, drawn in order, each draw as
    likely); none for a colour with none unseen. Those lists are shared: never change them.
    """
    limits: list[float] = []
    known: list[int] = []
    chances: list[list[tuple[int, int]]] = [[], [], [], []]
    pool: tuple[int, ...] | None = None
    mean = 0.0
    for c in range(4):
        total = hidden = 0  # the cards and the modifiers seen; the modifiers unseen
        for value in capital[c]:
            total += value
        for modifier in seen[c]:
            if modifier is None:
                hidden += 1
            else:
                total += modifier
        known.append(total)
        if not hidden:  # hidden * (mean - caution) would be 0 * (0.0 - caution), a zero
            limits.append(float(total))
            continue
        if pool is None:
            pool = _unseen(seen, pending)
            mean = _mean(pool)
        limits.append(total + hidden * (mean - caution))
        chances[c] = _draws(pool, hidden)
    return limits, known, chances


#: ``_draws`` by its arguments: there are few pools and counts, and a table is built at every decision
_DRAWS: Final[dict[tuple[tuple[int, ...], int], list[tuple[int, int]]]] = {}


def _draws(pool: tuple[int, ...], hidden: int) -> list[tuple[int, int]]:
    """The sums of ``hidden`` modifiers drawn in order from ``pool`` (all of it if fewer), each
    sum once with its chance in parts of ``CHANCE_PARTS``, the lowest sum first."""
    found = _DRAWS.get((pool, hidden))
    if found is None:
        counts: dict[int, int] = {}
        draws = 0
        for draw in itertools.permutations(pool, min(hidden, len(pool))):
            added = sum(draw)
            counts[added] = counts.get(added, 0) + 1
            draws += 1
        assert CHANCE_PARTS % draws == 0, f"{draws} draws do not divide CHANCE_PARTS"
        found = _DRAWS[(pool, hidden)] = [(total, n * (CHANCE_PARTS // draws)) for total, n in sorted(counts.items())]
    return found


def _unseen(seen: list[list[int | None]], pending: int | None) -> tuple[int, ...]:
    """The modifiers (each value once) neither in ``seen`` nor ``pending``."""
    pool = list(MODIFIERS)
    for above in seen:
        for modifier in above:
            if modifier is not None and modifier in pool:
                pool.remove(modifier)
    if pending is not None and pending in pool:
        pool.remove(pending)
    return tuple(pool)


def _mean(pool: tuple[int, ...]) -> float:
    """The mean of ``pool``; 0 if empty."""
    total = 0
    for modifier in pool:
        total += modifier
    return total / len(pool) if pool else 0.0


def table_of(v: PlayerView) -> Table:
    """The table as the viewer sees it (``policies.table_for`` builds the same from a kernel state)."""
    held = v.hand if v.phase != DRAFT else v.draft_picks
    capital = [list(v.capital[c]) for c in COLOURS]
    limits, known, chances = estimate_limits(capital, [[m.value for m in v.modifiers_above[c]] for c in COLOURS],
                                             v.pending_modifier)
    return Table(
        me=v.viewer,
        home=[[sum(town[c]) for c in COLOURS] for town in v.hometowns],
        capital=capital,
        limit=limits,
        gold=list(v.gold),
        gold_pile=v.gold_pile,
        hand=[KIND[card] for card in held],
        deck=v.deck_size,
        modifier_deck=v.modifier_deck_size,
        later=LATER_PER_CARD * sum(v.hand_sizes),
        known=known,
        chances=chances,
    )


def kept_totals(home: list[int], limit: list[float], gold: int) -> tuple[list[int], int]:
    """A seat's hometown totals left after the limit check, paying gold where it saves points,
    and the gold left. With no colour over its limit that is ``home`` itself: do not change it."""
    h0, h1, h2, h3 = home
    if h0 <= limit[0] and h1 <= limit[1] and h2 <= limit[2] and h3 <= limit[3]:
        return home, gold
    kept = home[:]
    over: list[int] = []  # the colours over their limit, the biggest first (the first of equals first)
    for c in range(4):
        if home[c] > limit[c]:
            i = len(over)
            while i and home[over[i - 1]] < home[c]:
                i -= 1
            over.insert(i, c)
    for c in over:
        cost = math.ceil(home[c] - limit[c])
        if cost <= gold and cost < home[c]:
            kept[c], gold = home[c] - cost, gold - cost
        else:
            kept[c] = 0
    return kept, gold


def _plan_colour(room: float, values: list[int], worth: float, played: int = 0) -> float:
    """One colour's part of ``plan_hand``, its cards' ``values`` highest first (less one card of
    value ``played``, if given: the card being played). Colours share nothing in the plan, so
    the hand's worth is the sum of the colours' parts (exactly: halves)."""
    total = 0.0
    for value in values:
        if value == played:
            played = 0
            continue
        if value <= room:
            total += value
            room -= value
        else:
            total += worth
            room += value
    return total


def _values_by_colour(hand: list[int]) -> list[list[int]]:
    """The values of the cards in ``hand`` (sorted) by colour, highest first."""
    values: list[list[int]] = [[], [], [], []]
    for i in range(len(hand) - 1, -1, -1):
        kind = hand[i]
        values[COLOUR_OF[kind]].append(VALUE_OF[kind])
    return values




def plan_hand(t: Table) -> float:
    """What the cards in hand are worth: high cards home while they fit, the others to the capital."""
    mine = t.home[t.me]
    values = _values_by_colour(t.hand)
    return sum(_plan_colour(t.limit[c] - mine[c] + t.later, values[c], _WORTH[c]) for c in range(4)) * HAND_DISCOUNT


def leader(t: Table) -> int:
    """The opponent with the most points on the table (the first such seat on a tie)."""
    best, lead = -1, -1
    home, gold = t.home, t.gold
    for q in range(len(home)):
        town = home[q]
        points = town[0] + town[1] + town[2] + town[3] + gold[q]
        if points > best and q != t.me:
            best, lead = points, q
    return lead


def _secured(kept: list[int], left: int, top: list[int], rest_top: list[int], lead_kept: list[int],
             lead_left: int, best: list[int]) -> tuple[int, int]:
    """Points one's own seat and the leader keep at round end if nothing else were played: cards
    kept (``kept``, ``lead_kept``), gold left, and the bonus card (``best``, 0 for none) of each
    colour where the seat keeps more than every other seat; ``top`` is the most any opponent
    keeps of each colour, ``rest_top`` the most any opponent but the leader keeps (0 for none)."""
    points, lead_points = left, lead_left
    for c in range(4):
        k, lk, card = kept[c], lead_kept[c], best[c]
        points += k + (card if k > top[c] else 0)  # top >= 0, so k > 0
        lead_points += lk + (card if lk > k and lk > rest_top[c] else 0)
    return points, lead_points


#: A move's change in one colour: the colour, one's own hometown total, the limit and the
#: bonus card (0 for none) after it.
Change = tuple[int, int, float, int]


class _Judge:
    """``judge`` for ``t`` and for the tables one seat's own moves lead to from it.

    Such a move changes one's own hometown and gold and, in one or two colours, the
    capital and the limit: the leader stays the same, and the opponents' kept cards
    change only where they exceed a changed limit, before or after. So the decision
    keeps, per colour, the points each side had and recomputes only the changed colours
    (``points_after_one``, ``points_after_two``). That is exact while each colour's fate is its own: a seat with
    no gold, or whose only colours over their limit are among the changed ones and are at
    most one after the move, or none of whose changed colours is over before or after with
    its gold unchanged. Otherwise gold is shared between colours in order, and
    ``_points_anew`` recomputes the seats concerned in every colour.
    """

    def __init__(self, t: Table) -> None:
        self.t = t
        me, home, limit, gold = t.me, t.home, t.limit, t.gold
        self.opponents = opponents = _OPPONENTS[len(home)][me]
        self.leader = lead = leader(t)
        self.lead_index = opponents.index(lead)
        self.best = best = [cards[-1] if cards else 0 for cards in t.capital]  # bonus card; 0 for none
        self.values: list[list[int]] = []
        self.plans: list[float] = []
        self.plan = 0.0
        self.hold(t.hand)
        #: Each move's points (``points_after_one``, ``points_after_two``), which read no card in
        #: hand, kept by move where the judge judges one hand after another (``Judged``)
        self.secured: dict[int, tuple[int, int]] | None = None
        l0, l1, l2, l3 = limit[0], limit[1], limit[2], limit[3]
        over: list[int] = []  # a bit per colour over its limit (1 << colour), by seat
        over_count: list[int] = []
        kept: list[list[int]] = []  # each seat's hometown totals kept at round end
        kept_gold: list[int] = []  # and its gold left
        self.over, self.over_count, self.kept, self.kept_gold = over, over_count, kept, kept_gold
        for q in range(len(home)):
            town = home[q]
            o0, o1, o2, o3 = int(town[0] > l0), int(town[1] > l1), int(town[2] > l2), int(town[3] > l3)
            over.append(o0 | o1 << 1 | o2 << 2 | o3 << 3)
            n = o0 + o1 + o2 + o3
            over_count.append(n)
            if n:
                town, left_q = kept_totals(town, limit, gold[q])
                kept.append(town)
                kept_gold.append(left_q)
            else:
                kept.append(town)
                kept_gold.append(gold[q])
        # By colour: the opponents' highest hometown total (none exceeds a limit at least this),
        # the most any opponent keeps, the most any but the leader keeps (none below 0).
        self.high, self.top, self.rest_top = high, top, rest_top = [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]
        for q in opponents:
            town, kept_q = home[q], kept[q]
            for c in range(4):
                if town[c] > high[c]:
                    high[c] = town[c]
                k = kept_q[c]
                if k > top[c]:
                    top[c] = k
                if q != lead and k > rest_top[c]:
                    rest_top[c] = k
        own, left = kept[me], kept_gold[me]
        lead_kept, lead_left = kept[lead], kept_gold[lead]
        mine_parts, lead_parts = [0, 0, 0, 0], [0, 0, 0, 0]
        for c in range(4):
            k, lk, b = own[c], lead_kept[c], best[c]
            mine_parts[c] = k + (b if k > top[c] else 0)
            lead_parts[c] = lk + (b if lk > k and lk > rest_top[c] else 0)
        self.mine_parts, self.lead_parts = mine_parts, lead_parts
        self.points = mine_parts[0] + mine_parts[1] + mine_parts[2] + mine_parts[3] + left
        self.lead_points = lead_parts[0] + lead_parts[1] + lead_parts[2] + lead_parts[3] + lead_left
        chances = t.chances
        #: whether some colour's capital hides a modifier from the seat: otherwise no chances to weigh
        self.hidden = bool(chances[0] or chances[1] or chances[2] or chances[3])
        #: ``kept_parts`` of each colour as it stands, once asked (``chance_known``: a bit per colour)
        self.chance_now = [0, 0, 0, 0]
        self.chance_known = 0

    def hold(self, hand: list[int]) -> None:
        """Judge with ``hand`` in hand: its cards' values by colour and their plan (``plan_hand``)."""
        t = self.t
        mine, limit = t.home[t.me], t.limit
        self.values = values = _values_by_colour(hand)
        self.plans = plans = [_plan_colour(limit[c] - mine[c] + t.later, values[c], _WORTH[c]) for c in range(4)]
        self.plan = plans[0] + plans[1] + plans[2] + plans[3]

    def _after_one(self, move: int, c: int, mine: int, limit: float, best: int, gold: int) -> tuple[int, int]:
        """``points_after_one``, kept in ``secured`` under ``move`` where it is kept."""
        secured = self.secured
        if secured is None:
            return self.points_after_one(c, mine, limit, best, gold)
        found = secured.get(move)
        if found is None:
            found = secured[move] = self.points_after_one(c, mine, limit, best, gold)
        return found

    def points_after_one(self, c: int, mine: int, limit: float, best: int, gold: int) -> tuple[int, int]:
        """``_secured`` after a move that changes one colour ``c`` (most moves) to one's own
        hometown total ``mine``, the limit ``limit`` and the bonus card ``best`` (0 for none), and
        leaves one's own gold at ``gold``: the numbers kept per colour, only ``c`` recomputed."""
        t = self.t
        me, lead = t.me, self.leader
        kept, kept_gold = self.kept, self.kept_gold
        was_over = self.over[me] >> c & 1
        if not was_over and mine <= limit and gold == t.gold[me]:
            k, left = mine, kept_gold[me]
        elif gold == 0 or self.over_count[me] == was_over:
            k, left = _keep_one(mine, limit, gold)
        else:
            return self._points_anew(((c, mine, limit, best),), gold)
        lead_left = kept_gold[lead]
        high = self.high[c]
        if limit != t.limit[c] and (high > limit or high > t.limit[c]):  # an opponent is over, before or after
            home, golds = t.home, t.gold
            lk = top = rest_top = 0  # the leader's, every opponent's most, the others' most (kept >= 0)
            for q in self.opponents:
                h, over = home[q][c], self.over[q] >> c & 1
                if h <= limit and not over:
                    kq = kept[q][c]
                else:
                    if golds[q] and self.over_count[q] != over:
                        return self._points_anew(((c, mine, limit, best),), gold)
                    kq, left_q = _keep_one(h, limit, golds[q])
                    if q == lead:
                        lead_left = left_q
                if q == lead:
                    lk = kq
                elif kq > rest_top:
                    rest_top = kq
                if kq > top:
                    top = kq
        else:
            lk, top, rest_top = kept[lead][c], self.top[c], self.rest_top[c]
        points = self.points - kept_gold[me] + left + k + (best if k > top else 0) - self.mine_parts[c]
        lead_points = (self.lead_points - kept_gold[lead] + lead_left
                       + lk + (best if lk > k and lk > rest_top else 0) - self.lead_parts[c])
        return points, lead_points

    def points_after_two(self, c1: int, h1: int, lim1: float, b1: int, c2: int, h2: int, lim2: float, b2: int,
                         gold: int) -> tuple[int, int]:
        """``_secured`` after a move that changes two colours (a Cleric's play into the capital,
        then its take: ``c1`` and ``c2`` differ), each change as in ``points_after_one``, and
        leaves one's own gold at ``gold``: the same numbers, reckoned in scalars."""
        t = self.t
        me, lead = t.me, self.leader
        kept, kept_gold = self.kept, self.kept_gold
        over = self.over[me]
        before = (over >> c1 & 1) + (over >> c2 & 1)
        after = int(h1 > lim1) + int(h2 > lim2)
        if not before and not after and gold == t.gold[me]:  # the changed colours fit before and after
            k1, k2, left = h1, h2, kept_gold[me]
        elif gold == 0 or (self.over_count[me] == before and after <= 1):
            k1, left = _keep_one(h1, lim1, gold)
            k2, left = _keep_one(h2, lim2, left)
        else:
            return self._points_anew(((c1, h1, lim1, b1), (c2, h2, lim2, b2)), gold)
        lead_left = kept_gold[lead]
        home, base, high = t.home, t.limit, self.high
        if ((lim1 != base[c1] and (high[c1] > lim1 or high[c1] > base[c1]))
                or (lim2 != base[c2] and (high[c2] > lim2 or high[c2] > base[c2]))):
            # An opponent is over in a changed colour, before or after: by colour, the leader's
            # kept cards, every opponent's most, the others' most (kept cards are never negative).
            lead1 = top1 = rest1 = lead2 = top2 = rest2 = 0
            for q in self.opponents:
                town, over_q, gold_q = home[q], self.over[q], t.gold[q]
                before = (over_q >> c1 & 1) + (over_q >> c2 & 1)
                after = int(town[c1] > lim1) + int(town[c2] > lim2)
                if not before and not after:
                    q1, q2 = kept[q][c1], kept[q][c2]
                else:
                    if gold_q and not (self.over_count[q] == before and after <= 1):
                        return self._points_anew(((c1, h1, lim1, b1), (c2, h2, lim2, b2)), gold)
                    q1, gold_q = _keep_one(town[c1], lim1, gold_q)
                    q2, gold_q = _keep_one(town[c2], lim2, gold_q)
                    if q == lead:
                        lead_left = gold_q
                if q == lead:
                    lead1, lead2 = q1, q2
                else:
                    rest1, rest2 = q1 if q1 > rest1 else rest1, q2 if q2 > rest2 else rest2
                top1, top2 = q1 if q1 > top1 else top1, q2 if q2 > top2 else top2
        else:
            lead_kept, top, rest_top = kept[lead], self.top, self.rest_top
            lead1, top1, rest1 = lead_kept[c1], top[c1], rest_top[c1]
            lead2, top2, rest2 = lead_kept[c2], top[c2], rest_top[c2]
        mine_parts, lead_parts = self.mine_parts, self.lead_parts
        points = (self.points - kept_gold[me] + left + k1 + (b1 if k1 > top1 else 0) - mine_parts[c1]
                  + k2 + (b2 if k2 > top2 else 0) - mine_parts[c2])
        lead_points = (self.lead_points - kept_gold[lead] + lead_left
                       + lead1 + (b1 if lead1 > k1 and lead1 > rest1 else 0) - lead_parts[c1]
                       + lead2 + (b2 if lead2 > k2 and lead2 > rest2 else 0) - lead_parts[c2])
        return points, lead_points

    def _points_anew(self, changes: tuple[Change, ...], gold: int) -> tuple[int, int]:
        """``_secured`` after the ``changes`` where gold is shared between colours: the changed
        seats' kept cards recomputed in every colour."""
        t = self.t
        mine, limit, best = t.home[t.me][:], t.limit[:], self.best[:]
        for c, h, lim, b in changes:
            mine[c], limit[c], best[c] = h, lim, b
        own, left = kept_totals(mine, limit, gold)
        kept, home, base, high = self.kept, t.home, t.limit, self.high
        others: list[list[int]] = []  # the opponents' kept totals
        lead_left = self.kept_gold[self.leader]
        moved = False
        for c, _, lim, _ in changes:
            if lim != base[c] and (high[c] > lim or high[c] > base[c]):  # an opponent may be over
                for q in self.opponents:
                    town, over = home[q], self.over[q]
                    for d, _, lim_d, _ in changes:
                        if lim_d != base[d] and (town[d] > lim_d or over >> d & 1):
                            kept_q, left_q = kept_totals(town, limit, t.gold[q])
                            others.append(kept_q)
                            if q == self.leader:
                                lead_left = left_q
                            moved = True
                            break
                    else:
                        others.append(kept[q])
                break
        if not moved:
            return _secured(own, left, self.top, self.rest_top, kept[self.leader], lead_left, best)
        i = self.lead_index
        return _secured(own, left, _most(others), _most(others[:i] + others[i + 1:]), others[i], lead_left, best)

    def kept_parts(self, c: int, mine: int, limit: float, shift: int, gold: int) -> int:
        """What one's own hometown total ``mine`` of colour ``c`` keeps at the limit check,
        weighed over the capital's totals its unseen modifiers may make (``Table.known`` and
        ``Table.chances``, moved by ``shift``: a move's change to the capital), less what it keeps
        at the estimate ``limit``; in parts of ``CHANCE_PARTS``, so that sums of them are exact."""
        t = self.t
        chances = t.chances[c]
        if not chances:
            return 0
        over = mine - t.known[c] - shift  # what the unseen modifiers must add for ``mine`` to fit
        if over <= chances[0][0] and mine <= limit:
            return 0  # kept at the lowest total the capital may have, and at the estimate: no change
        kept = 0
        for added, parts in chances:
            cost = over - added  # totals are ints: the gold a total over its limit costs
            if cost <= 0:
                kept += mine * parts
            elif cost <= gold and cost < mine:
                kept += (mine - cost) * parts
        return kept - _keep_one(mine, limit, gold)[0] * CHANCE_PARTS

    def chance_change(self, c: int, mine: int, limit: float, shift: int, gold: int) -> int:
        """The change in ``kept_parts`` over every colour after a move that leaves colour ``c``
        at ``mine``, ``limit`` and ``shift`` and one's own gold at ``gold``."""
        t = self.t
        change = 0
        if t.chances[c]:
            change = self.kept_parts(c, mine, limit, shift, gold) - self.chance_as_it_stands(c)
        if gold != t.gold[t.me]:  # gold saves a colour over its limit: every colour's chance moves
            home = t.home[t.me]
            for d in range(4):
                if d != c and t.chances[d]:
                    change += self.kept_parts(d, home[d], t.limit[d], 0, gold) - self.chance_as_it_stands(d)
        return change

    def chance_as_it_stands(self, c: int) -> int:
        """``kept_parts`` of colour ``c`` before any move (reckoned once)."""
        if not self.chance_known >> c & 1:
            t = self.t
            self.chance_now[c] = self.kept_parts(c, t.home[t.me][c], t.limit[c], 0, t.gold[t.me])
            self.chance_known |= 1 << c
        return self.chance_now[c]

    def take(self, colour: int, change: Change | None, gold: int, plan: float, move: int, chance: int = 0) -> float:
        """The worth of the table after a Cleric brings the lowest ``colour`` card home (after
        ``change``, its play into the capital, if given, and ``chance``, that play's
        ``chance_change``) with one's own gold at ``gold``; ``move`` tells it apart in
        ``secured`` (``play``)."""
        t = self.t
        cards = t.capital[colour]
        value = cards[0]
        mine = t.home[t.me][colour] + value
        limit = t.limit[colour] - value
        plan += _plan_colour(limit - mine + t.later, self.values[colour], _WORTH[colour]) - self.plans[colour]
        best = self.best[colour] if len(cards) > 1 else 0
        secured = self.secured
        found = None if secured is None else secured.get(move)
        if found is None:
            if change is None:
                found = self.points_after_one(colour, mine, limit, best, gold)
            else:
                c, h, lim, b = change
                found = self.points_after_two(c, h, lim, b, colour, mine, limit, best, gold)
            if secured is not None:
                secured[move] = found
        if t.chances[colour]:  # the take changes no gold: only its colour's chances can move
            chance += self.chance_change(colour, mine, limit, -value, gold)
        return found[0] + plan * HAND_DISCOUNT + chance / CHANCE_PARTS

    def play(self, kind: int, to_home: bool) -> tuple[float, int | None]:
        """The move's worth: ``judge`` after it, a Scholar's draw and an Agent's modifier at
        ``ACTION_WORTH``; and the Cleric's best take (the first best), if it leads to one.
        Its moves in ``secured``: ``kind << 3`` into the capital, ``| 1`` home, ``| 4 + c``
        and a Cleric's take of colour ``c`` (``kind`` -1: the take alone, ``rule_decision``)."""
        t = self.t
        colour, value = COLOUR_OF[kind], VALUE_OF[kind]
        mine, limit, gold = t.home[t.me][colour], t.limit[colour], t.gold[t.me]
        values = self.values[colour]
        plan = self.plan - self.plans[colour]
        if to_home:
            mine += value
            plan += _plan_colour(limit - mine + t.later, values, _WORTH[colour], value)
            points = self._after_one(kind << 3 | 1, colour, mine, limit, self.best[colour], gold)[0]
            chance = self.chance_change(colour, mine, limit, 0, gold) if t.chances[colour] else 0
            return points + plan * HAND_DISCOUNT + chance / CHANCE_PARTS, None
        limit += value
        plan += _plan_colour(limit - mine + t.later, values, _WORTH[colour], value)
        change = (colour, mine, limit, max(self.best[colour], value))
        if colour == Y and t.gold_pile:
            gold += 1
        moved = bool(t.chances[colour]) or (gold != t.gold[t.me] and self.hidden)  # gold moves every colour's
        chance = self.chance_change(colour, mine, limit, value, gold) if moved else 0
        if colour == P:
            top, take = 0.0, -1
            for c in CLERIC_COLOURS:
                if t.capital[c]:
                    worth = self.take(c, change, gold, plan, kind << 3 | 4 + c, chance)
                    if take < 0 or worth > top:
                        top, take = worth, c
            if take >= 0:
                return top, take
        worth = self._after_one(kind << 3, colour, mine, limit, change[3], gold)[0] + plan * HAND_DISCOUNT
        worth += chance / CHANCE_PARTS
        if colour == G and t.deck:
            worth += _WORTH[G]
        elif colour == B and t.modifier_deck:
            worth += _WORTH[B]
        return worth, None


#: Each seat's opponents, by number of players and seat.
_OPPONENTS: Final = [[[q for q in range(n) if q != me] for me in range(n)] for n in range(5)]


def _most(rows: list[list[int]]) -> list[int]:
    """The highest number of each colour among some seats' rows of numbers, none negative
    (0 with no seats)."""
    t0 = t1 = t2 = t3 = 0
    for row in rows:
        r0, r1, r2, r3 = row[0], row[1], row[2], row[3]
        if r0 > t0:
            t0 = r0
        if r1 > t1:
            t1 = r1
        if r2 > t2:
            t2 = r2
        if r3 > t3:
            t3 = r3
    return [t0, t1, t2, t3]


def _keep_one(h: int, limit: float, gold: int) -> tuple[int, int]:
    """``kept_totals`` in one colour of a seat whose colours' fates are their own, and the gold left."""
    if h <= limit:
        return h, gold
    cost = math.ceil(h - limit)
    if cost <= gold and cost < h:
        return h - cost, gold - cost
    return 0, gold


def judge(t: Table) -> float:
    """One number for a position: own points kept and in hand. The leader's points are not
    counted against them: weighed at a half, the rule of thumb gave up its own points to deny
    the leader theirs and scored 1.9 points a game less for it (seat 0 of 4,000 seeded 4-player
    games against rule-of-thumb seats; its margin over the best other seat 1.4 points less), and
    the review, which counts a seat's own points, called those trades mistakes. The Agent's
    placement still weighs them (``_agent_worth``)."""
    j = _Judge(t)
    return j.points + j.plan * HAND_DISCOUNT


def cleric_take(t: Table, kind: int) -> int | None:
    """The colour the Cleric would take after playing the card ``kind`` into the capital, if any."""
    return _Judge(t).play(kind, False)[1]


def rule_decision(t: Table, phase: str, options: Sequence[Decision], pending: int | None) -> int:
    """The rule of thumb's decision from a ``Table``: the index of its choice among ``options``,
    given as the kernel gives them (``kernel.options``: ``(kind, to_home)`` plays, picks of kinds,
    colour indices, tuples of colour indices). The one decision code of the view-based bot
    (through ``rule_choice``) and of the kernel's rule policy (``policies.RulePolicy``)."""
    indices = range(len(options))
    if phase == PLAY or phase == CLERIC:
        return _judged(_Judge(t), phase, options)
    if phase == DRAFT:  # the most points, then the plan's worth: the first best
        worth, points = _draft_worth(t, options), [_points(pick) for pick in options]
        return max(indices, key=lambda i: (points[i], worth[i]))
    if phase == AGENT:
        assert pending is not None
        worth = _agent_worth(t, pending)
        return max(indices, key=lambda i: worth[options[i]])
    if phase == GOLD:
        totals, costs = _gold_costs(t)
        gains = [gold_choice_worth(totals, costs, colours) for colours in options]
        return max(indices, key=gains.__getitem__)
    return 0


def _judged(j: _Judge, phase: str, options: Sequence[Decision]) -> int:
    """``rule_decision`` in the play and the Cleric's phases, by the judge ``j``."""
    indices = range(len(options))
    if phase == PLAY:  # the best (worth, to_home, kind): the worth, then home before the capital, the higher card
        choice, most, most_home, most_kind = -1, 0.0, False, 0
        for i in indices:
            kind, to_home = options[i]
            value = j.play(kind, to_home)[0]
            if choice < 0 or value > most or (value == most and (to_home, kind) > (most_home, most_kind)):
                choice, most, most_home, most_kind = i, value, to_home, kind
        return choice
    t = j.t
    judged = [j.take(c, None, t.gold[t.me], j.plan, -1 << 3 | 4 + c) for c in options]
    return max(indices, key=judged.__getitem__)


class Judged:
    """``rule_decision`` for one table and one hand after another (the exact search asks what
    a seat would do with each hand its unseen cards may be): the judge's part that reads the
    table alone is reckoned once, and each move's points, which read no card in hand, once
    for all the hands (``_Judge.secured``)."""

    def __init__(self, t: Table) -> None:
        self.t = t
        self.judge: _Judge | None = None

    def decision(self, hand: list[int], phase: str, options: Sequence[Decision], pending: int | None) -> int:
        """``rule_decision`` with ``hand`` in hand (the table's own hand set to it)."""
        t = self.t
        t.hand = hand
        if phase != PLAY and phase != CLERIC:
            return rule_decision(t, phase, options, pending)
        j = self.judge
        if j is None:
            j = self.judge = _Judge(t)
            j.secured = {}
        else:
            j.hold(hand)
        return _judged(j, phase, options)


def rule_choice(t: Table, phase: str, legal: Sequence[Action], pending: int | None) -> Action:
    """``rule_decision`` among engine actions (``legal`` in the engine's order)."""
    if phase not in (PLAY, DRAFT, AGENT, CLERIC, GOLD):
        return legal[0]
    return legal[rule_decision(t, phase, [from_action(a) for a in legal], pending)]


def _points(pick: tuple[int, ...]) -> int:
    """A draft pick's points: its cards' values.

    Why the draft ranks picks by points before the plan: a round's capital fills as its cards
    are played there, so at the draft the limits the plan reads are far below the round's end,
    and a plan that counts only the cards fitting them now drafted worse than picking at random
    (random picks scored 0.87 final points more on a 4-player table). Drafting the highest
    values, the plan breaking ties, scores 5.6 points a game more than the plan alone
    (``bench review``'s ``rule_variants``), and random picks 4.2 less (``random_at_draft``)."""
    total = 0
    for kind in pick:
        total += VALUE_OF[kind]
    return total


def _draft_worth(t: Table, picks: Sequence[tuple[int, ...]]) -> list[float]:
    """``plan_hand`` with each pick added to the hand, recomputing only the picked colours
    (the change a card makes alone is reckoned once: picks share their cards)."""
    mine = t.home[t.me]
    rooms = [t.limit[c] - mine[c] + t.later for c in range(4)]
    values = _values_by_colour(t.hand)
    plans = [_plan_colour(rooms[c], values[c], _WORTH[c]) for c in range(4)]
    plan = plans[0] + plans[1] + plans[2] + plans[3]
    alone: dict[int, float] = {}  # the plan's change with one card added
    worth = []
    for pick in picks:
        total = plan
        if len(pick) == 2 and COLOUR_OF[pick[0]] == COLOUR_OF[pick[1]]:
            c = COLOUR_OF[pick[0]]
            cards = _with(_with(values[c], VALUE_OF[pick[0]]), VALUE_OF[pick[1]])
            total += _plan_colour(rooms[c], cards, _WORTH[c]) - plans[c]
        else:
            for kind in pick:
                change = alone.get(kind)
                if change is None:
                    c = COLOUR_OF[kind]
                    change = _plan_colour(rooms[c], _with(values[c], VALUE_OF[kind]), _WORTH[c]) - plans[c]
                    alone[kind] = change
                total += change
        worth.append(total * HAND_DISCOUNT)
    return worth


def _with(values: list[int], value: int) -> list[int]:
    """A copy of ``values`` (highest first) with ``value`` in its place."""
    i = 0
    while i < len(values) and values[i] >= value:
        i += 1
    return values[:i] + [value] + values[i:]


def _agent_worth(t: Table, modifier: int) -> list[float]:
    """For each colour: own points less the leader's with the modifier above it (to the
    colour's index in hundredths, so that ties go to the first colour)."""
    j = _Judge(t)
    mine, gold = t.home[t.me], t.gold[t.me]
    worth = []
    for c in range(4):
        points, lead_points = j.points_after_one(c, mine[c], t.limit[c] + modifier, j.best[c], gold)
        worth.append(points - lead_points - 0.01 * c)
    return worth


def _gold_costs(t: Table) -> tuple[list[int], list[int]]:
    """Hometown totals and the gold each colour costs; at round end the limits are exact."""
    totals = t.home[t.me]
    return totals, [totals[c] - int(t.limit[c]) for c in range(4)]
