"""Capitol's auction chance: how likely a bid is to win, from what its player can see.

The player sees their own hand, the others' hand sizes and the piles' top cards; every other
card (the others' hands, the rest of the piles, the discards) is unseen, and the others'
hands are taken as dealt at random from the unseen cards. The others are assumed to bid as
the rule of thumb does (``bid_plan``: the cheapest few cards reaching what the piece is
worth to it), so a hand gives one bid; the auction's own rules then decide (highest total,
then highest card, then turn order; an empty bid never wins).

What the view shows of the others' bids is used: how many cards each has put above its STOP
card, and whether it has finished. Only the deals in which the rule of thumb would have done
so count (as many cards as a finished bid holds, at least as many as one under way holds).
Where no deal fits (the others do not bid like the rule of thumb), the model cannot explain
what the seat sees: the chance then leaves the others' piles aside, and ``Chance.fitted`` is
False so that the reader is told. The model's other limit: it has no memory (the cards
revealed in earlier auctions, or seen going to a discard pile, may be dealt to a hand).

``win_chance`` is exact (a ``Fraction``) when the deals of the unseen cards can be listed:
hands are enumerated as multisets, each weighted by how many ways the physical cards give
it, so identical cards cost nothing. Otherwise it is simulated, with its sample count and
95% Wilson interval; ``Chance.exact`` says which one the reader has.

>>> from capital_lux.capitol.state import new_game
>>> from capital_lux.capitol.views import view
>>> from dataclasses import replace
>>> from capital_lux.capitol.components import Card
>>> s = new_game(2, seed=1)
>>> s = replace(s, phase="bid", bids=(None, None), hands=(s.hands[0], s.hands[1][:1]))
>>> chance = win_chance(view(s, 0), (Card("F", 5),), rng=random.Random(0))
>>> chance.exact, chance.samples  # the other's one card outbids F5 only if it is a 6, 7 or 8
(Fraction(38, 51), 0)
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Iterator, Optional

from matplotlib.figure import Figure

from ..capitol.bots import WORTH, bid_plan
from ..capitol.components import Card
from ..capitol.notation import Bid, bid
from ..capitol.rules import auction_winner
from ..capitol.views import PlayerView, unseen_cards
from ..i18n import Translator, format_chance, format_number
from .charts import DARK, GREY, SIDE_WIDTH_IN
from .stats import wilson_interval

__all__ = ["Chance", "bid_chance_chart", "bid_chances", "unseen_cards", "win_chance"]

#: Deals listed at most before the chance is simulated instead.
EXACT_LIMIT = 5_000
#: Deals drawn at most per sample wanted, when only those fitting the others' STOP piles count.
ATTEMPTS = 20


@dataclass(frozen=True)
class Chance:
    """A bid's chance of winning: ``exact`` when counted, else an estimate from ``samples``
    simulated deals with its 95% interval (``low``, ``high``)."""

    estimate: float
    low: float
    high: float
    samples: int
    exact: Optional[Fraction] = None
    #: False when no deal fits what the others have put above their STOP cards under the rule of
    #: thumb, and the chance leaves those piles aside.
    fitted: bool = True


@lru_cache(maxsize=65536)
def _others_bid(hand: tuple[Card, ...], piece: str) -> Bid:
    return bid(bid_plan(hand, WORTH.get(piece, 0)))


def _fits(view: PlayerView, hands: dict[int, tuple[Card, ...]]) -> bool:
    """Whether every other seat's hand gives, by the rule of thumb, the STOP pile the view shows:
    exactly its height once the bid is finished, at least its height while it is being made."""
    for p, hand in hands.items():
        size = len(_others_bid(hand, view.piece or "").cards)
        if size < view.offered[p] or (view.bids_made[p] and size != view.offered[p]):
            return False
    return True


def _wins(view: PlayerView, mine: Bid, hands: dict[int, tuple[Card, ...]]) -> bool:
    bids = tuple(mine if p == view.seat else _others_bid(hands[p], view.piece or "") for p in range(view.players))
    order = tuple((view.consul + i) % view.players for i in range(view.players))
    return auction_winner(bids, order) == view.seat


def _deals(pool: list[tuple[Card, int]], sizes: list[int]) -> Iterator[tuple[list[tuple[Card, ...]], int]]:
    """Every way to deal hands of ``sizes`` from the pool, as multisets with their weight (the
    number of ways to pick the physical cards)."""
    if not sizes:
        yield [], 1
        return

    def hands(i: int, need: int) -> Iterator[tuple[list[int], int]]:
        if need == 0:
            yield [0] * (len(pool) - i), 1
            return
        if i == len(pool):
            return
        card, count = pool[i]
        for k in range(min(count, need), -1, -1):
            for rest, weight in hands(i + 1, need - k):
                yield [k] + rest, comb(count, k) * weight

    for taken, weight in hands(0, sizes[0]):
        hand = tuple(card for (card, _), k in zip(pool, taken) for _ in range(k))
        left = [(card, count - k) for (card, count), k in zip(pool, taken) if count > k]
        for others, more in _deals(left, sizes[1:]):
            yield [hand] + others, weight * more


def _hands_at_most(pool: list[tuple[Card, int]], size: int, cap: int) -> int:
    """How many different hands (multisets) of ``size`` cards the pool holds, counted up to ``cap + 1``."""
    ways = [1] + [0] * size
    for _, count in pool:
        ways = [min(cap + 1, sum(ways[j - i] for i in range(min(count, j) + 1))) for j in range(size + 1)]
    return ways[size]


def win_chance(view: PlayerView, cards: tuple[Card, ...], rng: random.Random, *, samples: int = 1000,
               limit: int = EXACT_LIMIT) -> Chance:
    """The chance that bidding ``cards`` wins the auction under way, from ``view``'s seat."""
    mine = bid(cards)
    if not mine.cards:
        return Chance(0.0, 0.0, 0.0, 0, Fraction(0))
    others = [p for p in range(view.players) if p != view.seat]
    pool = sorted(unseen_cards(view).items())
    fit = any(view.offered[p] for p in others)  # the others' STOP piles say something of their hands
    chance = _chance(view, mine, others, pool, rng, samples, limit, fit)
    if chance is None:  # no deal fits the piles seen under the rule of thumb: leave them aside
        chance = _chance(view, mine, others, pool, rng, samples, limit, False)
        assert chance is not None
        return replace(chance, fitted=False)
    return chance


def _chance(view: PlayerView, mine: Bid, others: list[int], pool: list[tuple[Card, int]], rng: random.Random,
            samples: int, limit: int, fit: bool) -> Optional[Chance]:
    """Exact when the deals can be listed, else simulated; with ``fit``, over the deals that fit
    the others' STOP piles only (None: no deal fits)."""
    sizes = [view.hand_sizes[p] for p in others]
    # every hand one player may hold starts a deal of its own: past the limit, listing is hopeless
    if all(_hands_at_most(pool, size, limit) <= limit for size in sizes):
        won = total = 0
        listed = 0
        for hands, weight in _deals(pool, sizes):
            listed += 1
            if listed > limit:
                break
            dealt = dict(zip(others, hands))
            if fit and not _fits(view, dealt):
                continue
            total += weight
            won += weight * _wins(view, mine, dealt)
        else:
            if not total:
                return None
            exact = Fraction(won, total)
            return Chance(float(exact), float(exact), float(exact), 0, exact)
    physical = [card for card, count in pool for _ in range(count)]
    hits = kept = 0
    for _ in range(samples * (ATTEMPTS if fit else 1)):
        drawn = rng.sample(physical, sum(sizes))
        hands_at, start = {}, 0
        for p, size in zip(others, sizes):
            hands_at[p] = tuple(sorted(drawn[start:start + size]))
            start += size
        if fit and not _fits(view, hands_at):
            continue
        kept += 1
        hits += _wins(view, mine, hands_at)
        if kept == samples:
            break
    if not kept:
        return None
    low, high = wilson_interval(hits, kept)
    return Chance(hits / kept, low, high, kept)


def bid_chances(view: PlayerView, seed: int, *, samples: int = 400, most: int = 3) -> list[tuple[Bid, Chance]]:
    """The bid offered so far and, for up to ``most`` of the next cards the seat could add (its
    highest distinct ones), that bid with the card: each with its chance of winning. Every
    chance is drawn with the same ``seed``, so the bars differ by the bids, not by the draws."""
    offered = Counter(view.my_offer)
    left = sorted(set((Counter(view.hand) - offered).elements()), key=lambda c: (-c.value, c.kind))
    bids = [bid(view.my_offer)] + [bid(view.my_offer + (card,)) for card in left[:most]]
    return [(b, win_chance(view, b.cards, random.Random(seed), samples=samples)) for b in bids]


def bid_chance_chart(chances: list[tuple[Bid, Chance]], t: Translator) -> Figure:
    """One bar per bid, its chance of winning; a simulated chance carries its 95% interval (an
    exact one none), and the title says which the reader has, with the sample count."""
    fig = Figure(figsize=(SIDE_WIDTH_IN, 0.45 * len(chances) + 1.3), layout="constrained")
    ax = fig.subplots()
    labels = [" ".join(map(str, b.cards)) or t.gettext("no card") for b, _ in chances]
    values = [c.estimate for _, c in chances]
    below = [c.estimate - c.low for _, c in chances]
    above = [c.high - c.estimate for _, c in chances]
    ax.barh(range(len(chances)), values, xerr=[below, above] if any(below + above) else None, capsize=4,
            color=GREY, edgecolor=DARK, ecolor=DARK)
    for i, (value, chance) in enumerate(zip(values, (c for _, c in chances))):  # right of its interval
        ax.text(min(chance.high, 0.85) + 0.02, i, format_chance(value, t.lang), va="center")
    ax.set_yticks(list(range(len(chances))), labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1.05)
    ax.xaxis.set_major_formatter(lambda x, _: format_chance(x, t.lang))
    simulated = [c for _, c in chances if c.exact is None]
    if simulated:
        title = t.gettext("Chance that each bid wins: simulated, {n} deals each, 95% intervals").format(
            n=format_number(simulated[0].samples, t.lang))
    else:
        title = t.gettext("Chance that each bid wins: exact")
    ax.set_title(title, wrap=True)
    return fig
