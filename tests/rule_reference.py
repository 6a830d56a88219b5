"""The rule of thumb as it was written before issue 11 made it fast: the reference.

A frozen copy of the straightforward judge (``Table`` of dicts keyed by colour letter,
a copied table per candidate move). ``tests/test_rule_of_thumb.py`` checks that the
fast ``capital_lux.players.rule_of_thumb`` makes exactly the choices this makes, over
many positions of seeded games and many random tables. Do not optimise it.

Its rules change with the rule of thumb's, written here the straightforward way: since the
rule weighs the chances of the face-down modifiers, a table carries what each capital shows
and what its unseen modifiers may add (``limit_chances``), a move shifts them with the
capital, and ``with_chances`` adds a move's change in them to ``judge``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import permutations
from operator import itemgetter
from typing import Callable, Mapping, Sequence

from capital_lux.engine.cards import COLOURS, MODIFIERS, Card
from capital_lux.engine.notation import CAPITAL, HOME, Action, Pick, PlaceModifier, Play, SaveWithGold, TakeLowest
from capital_lux.engine.rules import CLERIC_COLOURS
from capital_lux.engine.state import AGENT, CLERIC, DRAFT, GOLD, PLAY
from capital_lux.engine.views import PlayerView


#: What a card's special action is worth in points, roughly, when it can be performed.
ACTION_WORTH: dict[str, float] = {"B": 1.5, "G": 2.0, "P": 0.0, "Y": 1.0}
#: Points lost per face-down modifier the viewer cannot see: it might be the -3.
CAUTION = 1.0
#: Cards still in hand count for less than cards already down: plans change.
HAND_DISCOUNT = 0.85
#: How far each limit is expected to rise before the round ends, per card still in any hand.
LATER_PER_CARD = 0.25
#: A move's change in the chances of keeping one's colours is counted in 24ths (every count of
#: ordered draws from at most four modifiers divides 24), so that it adds up exactly.
CHANCE_PARTS = 24


@dataclass
class Table:
    """The numbers a rule of thumb reasons with, seen from one seat."""

    me: int
    home: list[dict[str, int]]  # hometown totals per seat and colour
    capital: dict[str, list[int]]  # capital card values
    limit: dict[str, float]  # capital total as the viewer estimates it
    gold: list[int]
    gold_pile: int
    hand: list[Card]
    deck: int
    modifier_deck: int
    later: float = 0.0  # the rise each limit is expected to take before the round ends
    #: each colour's capital total as the seat sees it (cards and modifiers face up to it)
    known: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COLOURS, 0))
    #: what each colour's unseen modifiers add, one sum per equally likely draw of them
    chances: dict[str, list[int]] = field(default_factory=lambda: {c: [] for c in COLOURS})

    def copy(self) -> Table:
        return Table(
            self.me, [dict(h) for h in self.home], {c: v[:] for c, v in self.capital.items()},
            dict(self.limit), self.gold[:], self.gold_pile, self.hand[:], self.deck, self.modifier_deck, self.later,
            dict(self.known), {c: v[:] for c, v in self.chances.items()},
        )


def estimate_limits(
    capital: Mapping[str, Sequence[int]], seen: Mapping[str, Sequence[int | None]], pending: int | None,
    caution: float = CAUTION,
) -> dict[str, float]:
    """Each capital colour's total as far as a seat can tell, cautiously.

    ``seen`` holds the modifiers above each colour as the seat sees them (None when face
    down to it) and ``pending`` its own Agent draw not yet placed; each unseen modifier
    counts as the average of those the seat has not seen, less ``caution``.
    """
    visible = [value for c in COLOURS for value in seen[c] if value is not None]
    if pending is not None:
        visible.append(pending)
    pool = list(MODIFIERS)
    for value in visible:
        if value in pool:
            pool.remove(value)
    unseen_mean = sum(pool) / len(pool) if pool else 0.0
    limits = {}
    for c in COLOURS:
        hidden = sum(value is None for value in seen[c])
        mean = unseen_mean if hidden else 0.0
        known = sum(value for value in seen[c] if value is not None)
        limits[c] = sum(capital[c]) + known + hidden * (mean - caution)
    return limits


def limit_chances(
    capital: Mapping[str, Sequence[int]], seen: Mapping[str, Sequence[int | None]], pending: int | None,
) -> tuple[dict[str, int], dict[str, list[int]]]:
    """Each colour's capital total as the seat sees it, and what its unseen modifiers add for
    every ordered draw of them from the modifiers the seat has not seen."""
    pool = list(MODIFIERS)
    for value in [value for c in COLOURS for value in seen[c] if value is not None] + [pending]:
        if value in pool:
            pool.remove(value)
    known: dict[str, int] = {}
    chances: dict[str, list[int]] = {}
    for c in COLOURS:
        hidden = sum(value is None for value in seen[c])
        known[c] = sum(capital[c]) + sum(value for value in seen[c] if value is not None)
        draws = permutations(pool, min(hidden, len(pool))) if hidden else []
        chances[c] = [sum(draw) for draw in draws]
    return known, chances


def table_of(v: PlayerView) -> Table:
    """The table as the viewer sees it (``policies.table_for`` builds the same from a kernel state)."""
    hand = list(v.hand) if v.phase != DRAFT else list(v.draft_picks)
    seen = {c: [m.value for m in v.modifiers_above[c]] for c in COLOURS}
    known, chances = limit_chances(v.capital, seen, v.pending_modifier)
    return Table(
        me=v.viewer,
        home=[{c: sum(town[c]) for c in COLOURS} for town in v.hometowns],
        capital={c: list(v.capital[c]) for c in COLOURS},
        limit=estimate_limits(v.capital, seen, v.pending_modifier),
        gold=list(v.gold),
        gold_pile=v.gold_pile,
        hand=hand,
        deck=v.deck_size,
        modifier_deck=v.modifier_deck_size,
        later=LATER_PER_CARD * sum(v.hand_sizes),
        known=known,
        chances=chances,
    )


def kept_totals(t: Table, seat: int) -> tuple[dict[str, float], int]:
    """Hometown totals left after the limit check, paying gold where it saves points."""
    home, limit = t.home[seat], t.limit
    kept: dict[str, float] = dict(home)
    gold = t.gold[seat]
    over = [c for c in COLOURS if home[c] > limit[c]]
    if len(over) > 1:
        over.sort(key=home.__getitem__, reverse=True)  # save the biggest colours first (a stable sort)
    for c in over:
        cost = math.ceil(home[c] - limit[c])
        if cost <= gold and cost < home[c]:
            kept[c], gold = home[c] - cost, gold - cost
        else:
            kept[c] = 0
    return kept, gold


def secured(t: Table, seat: int, kept_by_seat: list[tuple[dict[str, float], int]] | None = None) -> float:
    """Points a seat keeps at round end if nothing else were played: cards kept, gold, bonus cards."""
    everyone = kept_by_seat or [kept_totals(t, q) for q in range(len(t.home))]
    kept, gold = everyone[seat]
    points = sum(kept.values()) + gold
    capital = t.capital
    for c in COLOURS:
        mine = kept[c]
        if mine > 0 and capital[c]:
            for q, (other, _) in enumerate(everyone):
                if q != seat and not mine > other[c]:
                    break
            else:  # more than every other seat: the bonus card
                points += max(capital[c])
    return points


_value = itemgetter(1)  # a card's value


def plan_hand(t: Table) -> float:
    """What the cards in hand are worth: high cards home while they fit, the others to the capital."""
    room = {c: t.limit[c] - t.home[t.me][c] + t.later for c in COLOURS}
    worth = 0.0
    for card in sorted(t.hand, key=_value, reverse=True):  # highest first, a stable sort
        if card.value <= room[card.colour]:
            worth += card.value
            room[card.colour] -= card.value
        else:
            worth += ACTION_WORTH[card.colour]
            room[card.colour] += card.value
    return worth * HAND_DISCOUNT


def keep_one(total: int, limit: float, gold: int) -> int:
    """What a hometown total keeps alone at the limit check, with ``gold`` to save it."""
    if total <= limit:
        return total
    cost = math.ceil(total - limit)
    return total - cost if cost <= gold and cost < total else 0


def chance_parts(t: Table) -> int:
    """What one's own colours keep, summed over the capital totals the unseen modifiers may
    make, less what they keep at the estimated limits: in ``CHANCE_PARTS``ths of a draw."""
    parts = 0
    home, gold = t.home[t.me], t.gold[t.me]
    for c in COLOURS:
        if t.chances[c]:
            kept = sum(keep_one(home[c], t.known[c] + added, gold) for added in t.chances[c])
            parts += kept * (CHANCE_PARTS // len(t.chances[c])) - keep_one(home[c], t.limit[c], gold) * CHANCE_PARTS
    return parts


def with_chances(t: Table, judge: Callable[[Table], float]) -> Callable[[Table], float]:
    """``judge`` of a table a move leads to from ``t``, plus the move's change in ``chance_parts``."""
    return lambda new: judge(new) + (chance_parts(new) - chance_parts(t)) / CHANCE_PARTS


def leader(t: Table) -> int:
    """The opponent with the most points on the table."""
    others = [q for q in range(len(t.home)) if q != t.me]
    return max(others, key=lambda q: (sum(t.home[q].values()) + t.gold[q], -q))


def judge(t: Table) -> float:
    """One number for a position: own points kept and in hand."""
    everyone = [kept_totals(t, q) for q in range(len(t.home))]
    return secured(t, t.me, everyone) + plan_hand(t)


class _OwnMoveJudge:
    """``judge`` for the tables one seat's own moves lead to from ``t``.

    Such a move changes only that seat's cards and gold, the capital and the limits, so
    the leader stays the same and each opponent's ``kept_totals`` depends on the limits
    alone: they are computed once per set of limits. The numbers are ``judge``'s.
    """

    def __init__(self, t: Table) -> None:
        self.others: dict[tuple[float, ...], list[tuple[dict[str, float], int]]] = {}

    def __call__(self, t: Table) -> float:
        key = tuple(t.limit.values())
        everyone = self.others.get(key)
        if everyone is None:
            everyone = self.others[key] = [kept_totals(t, q) for q in range(len(t.home))]
        everyone = everyone[:]
        everyone[t.me] = kept_totals(t, t.me)
        return secured(t, t.me, everyone) + plan_hand(t)


def after_play(t: Table, play: Play) -> tuple[Table, TakeLowest | None]:
    """The table after ``play`` (and the best Cleric take, if it leads to one)."""
    new, take, _ = _after_play_judged(t, play, with_chances(t, judge))
    return new, take


def _after_play_judged(
    t: Table, play: Play, judge: Callable[[Table], float],
) -> tuple[Table, TakeLowest | None, float | None]:
    """``after_play`` and, when choosing the Cleric's take judged the result, its ``judge``."""
    new = t.copy()
    card, me = play.card, t.me
    new.hand.remove(card)
    if play.to == HOME:
        new.home[me][card.colour] += card.value
        return new, None, None
    new.capital[card.colour].append(card.value)
    new.limit[card.colour] += card.value
    new.known[card.colour] += card.value
    if card.colour == "Y" and new.gold_pile:
        new.gold[me] += 1
        new.gold_pile -= 1
    elif card.colour == "P":
        options = [c for c in CLERIC_COLOURS if new.capital[c]]
        if options:
            tables = [after_take(new, c) for c in options]
            values = [judge(table) for table in tables]
            best = values.index(max(values))  # the first best, as max() picks
            return tables[best], TakeLowest(options[best]), values[best]
    return new, None, None


def after_take(t: Table, colour: str) -> Table:
    new = t.copy()
    value = min(new.capital[colour])
    new.capital[colour].remove(value)
    new.limit[colour] -= value
    new.known[colour] -= value
    new.home[t.me][colour] += value
    return new


def judge_after_play(t: Table, play: Play, judge: Callable[[Table], float] = judge) -> float:
    """``judge`` after a play, with the play's change in the chances of keeping one's colours
    (``with_chances``); a Scholar's draw and an Agent's modifier count at ``ACTION_WORTH``."""
    judge = with_chances(t, judge)
    new, _, judged = _after_play_judged(t, play, judge)
    bonus = 0.0
    if play.to == CAPITAL:
        if play.card.colour == "G" and t.deck:
            bonus = ACTION_WORTH["G"]
        elif play.card.colour == "B" and t.modifier_deck:
            bonus = ACTION_WORTH["B"]
    return (judge(new) if judged is None else judged) + bonus


def _card(card: Card) -> str:
    return str(card)


def rule_choice(t: Table, phase: str, legal: Sequence[Action], pending: int | None) -> Action:
    """The rule of thumb's decision from a ``Table``: the one decision code of the view-based
    bot and of the kernel's rule policy (``policies.RulePolicy``)."""
    if phase == DRAFT:
        return max(legal, key=lambda pick: (_points(pick), _draft_worth(t, pick)))  # the most points, then the plan
    if phase == PLAY:
        own = _OwnMoveJudge(t)
        scored = [(judge_after_play(t, a, own), a) for a in legal if isinstance(a, Play)]
        return max(scored, key=lambda sa: (sa[0], sa[1].to == HOME, sa[1].card))[1]
    if phase == AGENT:
        assert pending is not None
        return max(legal, key=lambda action: _agent_worth(t, pending, action))
    if phase == CLERIC:
        return max(legal, key=lambda action: _cleric_worth(t, action))
    if phase == GOLD:
        return max(legal, key=lambda action: _gold_worth(t, action))
    return legal[0]


def _points(pick: Action) -> int:
    assert isinstance(pick, Pick)
    return sum(card.value for card in pick.cards)


def _draft_worth(t: Table, pick: Action) -> float:
    assert isinstance(pick, Pick)
    new = t.copy()
    new.hand = new.hand + list(pick.cards)
    return plan_hand(new)


def _agent_worth(t: Table, modifier: int, action: Action) -> float:
    assert isinstance(action, PlaceModifier)
    new = t.copy()
    new.limit[action.colour] += modifier
    everyone = [kept_totals(new, q) for q in range(len(new.home))]  # once for both seats
    return secured(new, t.me, everyone) - secured(new, leader(new), everyone) - 0.01 * COLOURS.index(action.colour)


def _cleric_worth(t: Table, action: Action) -> float:
    assert isinstance(action, TakeLowest)
    return with_chances(t, judge)(after_take(t, action.colour))


def _gold_costs(t: Table) -> tuple[dict[str, int], dict[str, int]]:
    """Hometown totals and the gold each colour costs; at round end the limits are exact."""
    totals = t.home[t.me]
    return totals, {c: totals[c] - int(t.limit[c]) for c in COLOURS}


def _gold_worth(t: Table, action: Action) -> tuple[int, int]:
    """Points kept net of the gold paid; colours not worth their gold spoil the option."""
    assert isinstance(action, SaveWithGold)
    totals, costs = _gold_costs(t)
    if any(totals[c] <= costs[c] for c in action.colours):
        return -1, 0
    return sum(totals[c] - costs[c] for c in action.colours), -len(action.colours)
