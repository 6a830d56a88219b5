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

The numbers are those of judging a copied table per move, to the last bit: totals,
card values and gold are ints, a plan's worth is a sum of halves (exact in any
order), and every float operation on a limit or a room is the one the copied table
made. ``tests/rule_reference.py`` keeps that straightforward judge, and the tests
check that both make the same choices.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from ..engine.cards import COLOURS, KIND, MODIFIERS
from ..engine.kernel_state import CLERIC_COLOURS, COLOUR_OF, VALUE_OF, Decision, from_action
from ..engine.notation import Action
from ..engine.state import AGENT, CLERIC, DRAFT, GOLD, PLAY
from ..engine.views import PlayerView


#: What a card's special action is worth in points, roughly, when it can be performed.
ACTION_WORTH: dict[str, float] = {"B": 1.5, "G": 2.0, "P": 0.0, "Y": 1.0}
#: Points lost per face-down modifier the viewer cannot see: it might be the -3.
CAUTION = 1.0
#: Cards still in hand count for less than cards already down: plans change.
HAND_DISCOUNT = 0.85
#: How much the leading opponent's gains count against one's own.
LEADER_WEIGHT = 0.5

_B, _G, _P, _Y = range(4)  # colour indices, as in COLOURS
_WORTH = tuple(ACTION_WORTH[c] for c in COLOURS)


@dataclass
class Table:
    """The numbers a rule of thumb reasons with, seen from one seat.

    Colours are indices into ``COLOURS``, cards kind indices into ``ALL_CARDS``:
    the kernel's own terms, so that its seats' tables cost little to build.
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


def estimate_limits(
    capital: Sequence[Sequence[int]], seen: Sequence[Sequence[int | None]], pending: int | None,
    caution: float = CAUTION,
) -> list[float]:
    """Each capital colour's total as far as a seat can tell, cautiously.

    ``seen`` holds the modifiers above each colour as the seat sees them (None when face
    down to it) and ``pending`` its own Agent draw not yet placed; each unseen modifier
    counts as the average of those the seat has not seen, less ``caution``.
    """
    visible = [value for above in seen for value in above if value is not None]
    if pending is not None:
        visible.append(pending)
    pool = list(MODIFIERS)
    for value in visible:
        if value in pool:
            pool.remove(value)
    unseen_mean = sum(pool) / len(pool) if pool else 0.0
    limits = []
    for cards, above in zip(capital, seen):
        hidden = sum(value is None for value in above)
        mean = unseen_mean if hidden else 0.0
        known = sum(value for value in above if value is not None)
        limits.append(sum(cards) + known + hidden * (mean - caution))
    return limits


def table_of(v: PlayerView) -> Table:
    """The table as the viewer sees it (``policies.table_for`` builds the same from a kernel state)."""
    held = v.hand if v.phase != DRAFT else v.draft_picks
    capital = [list(v.capital[c]) for c in COLOURS]
    return Table(
        me=v.viewer,
        home=[[sum(town[c]) for c in COLOURS] for town in v.hometowns],
        capital=capital,
        limit=estimate_limits(capital, [[m.value for m in v.modifiers_above[c]] for c in COLOURS], v.pending_modifier),
        gold=list(v.gold),
        gold_pile=v.gold_pile,
        hand=[KIND[card] for card in held],
        deck=v.deck_size,
        modifier_deck=v.modifier_deck_size,
    )


def kept_totals(home: list[int], limit: Sequence[float], gold: int) -> tuple[list[int], int]:
    """A seat's hometown totals left after the limit check, paying gold where it saves points,
    and the gold left. With no colour over its limit that is ``home`` itself: do not change it."""
    h0, h1, h2, h3 = home
    if h0 <= limit[0] and h1 <= limit[1] and h2 <= limit[2] and h3 <= limit[3]:
        return home, gold
    kept = home[:]
    over = [c for c in range(4) if home[c] > limit[c]]
    if len(over) > 1:
        over.sort(key=home.__getitem__, reverse=True)  # save the biggest colours first (a stable sort)
    for c in over:
        cost = math.ceil(home[c] - limit[c])
        if cost <= gold and cost < home[c]:
            kept[c], gold = home[c] - cost, gold - cost
        else:
            kept[c] = 0
    return kept, gold


def _plan_colour(room: float, values: Sequence[int], worth: float) -> float:
    """One colour's part of ``plan_hand``, its cards' ``values`` highest first. Colours share
    nothing in the plan, so the hand's worth is the sum of the colours' parts (exactly: halves)."""
    total = 0.0
    for value in values:
        if value <= room:
            total += value
            room -= value
        else:
            total += worth
            room += value
    return total


def _values_by_colour(hand: Sequence[int]) -> list[list[int]]:
    """The values of the cards in hand by colour, highest first."""
    values: list[list[int]] = [[], [], [], []]
    for kind in sorted(hand, reverse=True):
        values[COLOUR_OF[kind]].append(VALUE_OF[kind])
    return values


def plan_hand(t: Table) -> float:
    """What the cards in hand are worth: high cards home while they fit, the others to the capital."""
    mine = t.home[t.me]
    values = _values_by_colour(t.hand)
    return sum(_plan_colour(t.limit[c] - mine[c], values[c], _WORTH[c]) for c in range(4)) * HAND_DISCOUNT


def leader(t: Table) -> int:
    """The opponent with the most points on the table."""
    others = [q for q in range(len(t.home)) if q != t.me]
    return max(others, key=lambda q: (sum(t.home[q]) + t.gold[q], -q))


#: What ``judge`` needs of the opponents' kept cards: the most any opponent keeps of each
#: colour, the leader's kept cards and points, the most any other opponent keeps of each colour.
_Others = tuple[list[int], list[int], int, list[int]]


class _Judge:
    """``judge`` for ``t`` and for the tables one seat's own moves lead to from it.

    Such a move changes only that seat's hometown and gold, the capital and the
    limits: the leader stays the same, and an opponent's kept cards change only if it
    exceeds a changed limit before or after. So the opponents' kept cards, the best
    capital cards and the plan of each colour are computed once, and a move recomputes
    what it touches. A point is worth a point as in the straightforward judge: cards
    kept and gold, plus the top capital card of a colour where a seat keeps more than
    every other seat (the bonus card), plus the plan of the hand, less part of the leader's.
    """

    def __init__(self, t: Table) -> None:
        self.t = t
        self.leader = leader(t)
        self.opponents = [q for q in range(len(t.home)) if q != t.me]
        self.best = [max(cards) if cards else 0 for cards in t.capital]  # bonus card by colour; 0 for none
        self.values = _values_by_colour(t.hand)
        mine, limit = t.home[t.me], t.limit
        self.plans = [_plan_colour(limit[c] - mine[c], self.values[c], _WORTH[c]) for c in range(4)]
        self.plan = sum(self.plans)
        self.kept = [kept_totals(t.home[q], limit, t.gold[q]) for q in range(len(t.home))]
        self.others = self._others(self.kept)

    def _others(self, kept: list[tuple[list[int], int]]) -> _Others:
        lead = self.leader
        top = [max(column) for column in zip(*(kept[q][0] for q in self.opponents))]
        rest = [kept[q][0] for q in self.opponents if q != lead]
        rest_top = [max(column) for column in zip(*rest)] if rest else [0, 0, 0, 0]
        lead_kept, lead_gold = kept[lead]
        return top, lead_kept, sum(lead_kept) + lead_gold, rest_top

    def others_at(self, limit: list[float], changed: Sequence[int]) -> _Others:
        """The opponents at ``limit``, which differs from the table's in the ``changed`` colours."""
        t, kept = self.t, self.kept
        home, base = t.home, t.limit
        moved = [q for q in self.opponents if any(home[q][c] > limit[c] or home[q][c] > base[c] for c in changed)]
        if not moved:
            return self.others
        kept = kept[:]
        for q in moved:
            kept[q] = kept_totals(home[q], limit, t.gold[q])
        return self._others(kept)

    def points(self, mine: list[int], gold: int, limit: Sequence[float], best: Sequence[int],
               others: _Others) -> tuple[int, int]:
        """Points one's own seat and the leader keep at round end if nothing else were played."""
        kept, gold = kept_totals(mine, limit, gold)
        top, lead_kept, lead_points, rest_top = others
        points = sum(kept) + gold
        for k, other, card in zip(kept, top, best):
            if k > other and card:
                points += card
        for k, m, other, card in zip(lead_kept, kept, rest_top, best):
            if k > m and k > other and card:
                lead_points += card
        return points, lead_points

    def judge(self, mine: list[int], gold: int, limit: Sequence[float], best: Sequence[int], plan: float,
              others: _Others) -> float:
        """One number for a position: own points kept and in hand, less part of the leader's."""
        points, lead_points = self.points(mine, gold, limit, best, others)
        return points + plan * HAND_DISCOUNT - LEADER_WEIGHT * lead_points

    def take(self, colour: int, mine: list[int], gold: int, limit: list[float], best: list[int], plan: float,
             changed: tuple[int, ...]) -> float:
        """``judge`` after a Cleric brings the lowest ``colour`` card home (the limits already
        differ from the table's in the ``changed`` colours)."""
        cards = self.t.capital[colour]
        value = min(cards)
        limit, mine, best = limit[:], mine[:], best[:]
        limit[colour] -= value
        mine[colour] += value
        if len(cards) == 1:
            best[colour] = 0
        plan += _plan_colour(limit[colour] - mine[colour], self.values[colour], _WORTH[colour]) - self.plans[colour]
        return self.judge(mine, gold, limit, best, plan, self.others_at(limit, changed + (colour,)))

    def play(self, kind: int, to_home: bool) -> tuple[float, int | None]:
        """The move's worth: ``judge`` after it, a Scholar's draw and an Agent's modifier at
        ``ACTION_WORTH``; and the Cleric's best take (the first best), if it leads to one."""
        t = self.t
        colour, value = COLOUR_OF[kind], VALUE_OF[kind]
        mine, limit, gold = t.home[t.me], t.limit, t.gold[t.me]
        values = self.values[colour][:]
        values.remove(value)
        plan = self.plan - self.plans[colour]
        if to_home:
            mine = mine[:]
            mine[colour] += value
            plan += _plan_colour(limit[colour] - mine[colour], values, _WORTH[colour])
            return self.judge(mine, gold, limit, self.best, plan, self.others), None
        limit = limit[:]
        limit[colour] += value
        best = self.best
        if value > best[colour]:
            best = best[:]
            best[colour] = value
        plan += _plan_colour(limit[colour] - mine[colour], values, _WORTH[colour])
        if colour == _Y and t.gold_pile:
            gold += 1
        elif colour == _P:
            top, take = None, None
            for c in CLERIC_COLOURS:
                if t.capital[c]:
                    worth = self.take(c, mine, gold, limit, best, plan, (colour,))
                    if top is None or worth > top:
                        top, take = worth, c
            if top is not None:
                return top, take
        worth = self.judge(mine, gold, limit, best, plan, self.others_at(limit, (colour,)))
        if colour == _G and t.deck:
            worth += _WORTH[_G]
        elif colour == _B and t.modifier_deck:
            worth += _WORTH[_B]
        return worth, None


def judge(t: Table) -> float:
    """One number for a position: own points kept and in hand, less part of the leader's."""
    j = _Judge(t)
    return j.judge(t.home[t.me], t.gold[t.me], t.limit, j.best, j.plan, j.others)


def cleric_take(t: Table, kind: int) -> int | None:
    """The colour the Cleric would take after playing the card ``kind`` into the capital, if any."""
    return _Judge(t).play(kind, False)[1]


def rule_decision(t: Table, phase: str, options: Sequence[Decision], pending: int | None) -> int:
    """The rule of thumb's decision from a ``Table``: the index of its choice among ``options``,
    given as the kernel gives them (``kernel.options``: ``(kind, to_home)`` plays, picks of kinds,
    colour indices, tuples of colour indices). The one decision code of the view-based bot
    (through ``rule_choice``) and of the kernel's rule policy (``policies.RulePolicy``)."""
    indices = range(len(options))
    if phase == PLAY:
        j = _Judge(t)
        keys = [(j.play(kind, to_home)[0], to_home, kind) for kind, to_home in options]
        return max(indices, key=keys.__getitem__)
    if phase == DRAFT:
        worth = _draft_worth(t, options)
        return max(indices, key=worth.__getitem__)  # the first best
    if phase == AGENT:
        assert pending is not None
        worth = _agent_worth(t, pending)
        return max(indices, key=lambda i: worth[options[i]])
    if phase == CLERIC:
        j = _Judge(t)
        mine, gold = t.home[t.me], t.gold[t.me]
        judged = [j.take(c, mine, gold, t.limit, j.best, j.plan, ()) for c in options]
        return max(indices, key=judged.__getitem__)
    if phase == GOLD:
        totals, costs = _gold_costs(t)
        gains = [_gold_worth(totals, costs, colours) for colours in options]
        return max(indices, key=gains.__getitem__)
    return 0


def rule_choice(t: Table, phase: str, legal: Sequence[Action], pending: int | None) -> Action:
    """``rule_decision`` among engine actions (``legal`` in the engine's order)."""
    if phase not in (PLAY, DRAFT, AGENT, CLERIC, GOLD):
        return legal[0]
    return legal[rule_decision(t, phase, [from_action(a) for a in legal], pending)]


def _draft_worth(t: Table, picks: Sequence[tuple[int, ...]]) -> list[float]:
    """``plan_hand`` with each pick added to the hand, recomputing only the picked colours."""
    mine = t.home[t.me]
    rooms = [t.limit[c] - mine[c] for c in range(4)]
    values = _values_by_colour(t.hand)
    plans = [_plan_colour(rooms[c], values[c], _WORTH[c]) for c in range(4)]
    plan = sum(plans)
    worth = []
    for pick in picks:
        added = _values_by_colour(pick)
        total = plan
        for c in {COLOUR_OF[kind] for kind in pick}:
            total += _plan_colour(rooms[c], sorted(values[c] + added[c], reverse=True), _WORTH[c]) - plans[c]
        worth.append(total * HAND_DISCOUNT)
    return worth


def _agent_worth(t: Table, modifier: int) -> list[float]:
    """For each colour: own points less the leader's with the modifier above it (to the
    colour's index in hundredths, so that ties go to the first colour)."""
    j = _Judge(t)
    worth = []
    for c in range(4):
        limit = t.limit[:]
        limit[c] += modifier
        points, lead_points = j.points(t.home[t.me], t.gold[t.me], limit, j.best, j.others_at(limit, (c,)))
        worth.append(points - lead_points - 0.01 * c)
    return worth


def _gold_costs(t: Table) -> tuple[list[int], list[int]]:
    """Hometown totals and the gold each colour costs; at round end the limits are exact."""
    totals = t.home[t.me]
    return totals, [totals[c] - int(t.limit[c]) for c in range(4)]


def _gold_worth(totals: list[int], costs: list[int], colours: Sequence[int]) -> tuple[int, int]:
    """Points kept net of the gold paid; colours not worth their gold spoil the option."""
    if any(totals[c] <= costs[c] for c in colours):
        return -1, 0
    return sum(totals[c] - costs[c] for c in colours), -len(colours)

