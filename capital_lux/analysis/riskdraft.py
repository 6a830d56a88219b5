"""What a player saw of the others' cards in this round's draft, for the forward risk.

In the draft (ruling R15, R16, R20) each seat picks two cards of its hand and passes the rest
to the next seat, twice, and keeps what is passed to it last. So a player knows where some of
the others' hidden cards are: what it passed last is in the next seat's hand (kept), and of
what it passed first the next seat picked two and passed the rest on to the seat after, who
kept them (with two players those come back, so the other's two are known too). A
``PlayerView`` holds no history; ``draft_knowledge`` reads it from the round's actions,
seen as the player saw them (its own draft hands and picks, and the cards played face up
since), never the others' hidden cards.

Two models deal a sampled world from it (``DraftKnowledge.model``, ``dealer``):

* ``"passes"`` (``impose``): these cards where the player knows they are, every other unseen
  card at random. Its limit: which two of the cards it passed first the next seat picked is
  drawn uniformly, and the cards the others were dealt and picked unseen are dealt at random.
* ``"likelihood"`` (``Drafted``): the others' hands as their draft made them. Each world
  deals the hands of the draft's start, plays the draft with the others' rule of thumb, and
  is kept only if it passes the player what it saw and lets the others hold what they have
  played since. Its limit: how the others played since is not weighed, and a few plays into
  a round such worlds are too rare to find, so it deals at random there.

``bench risk_calibration`` measures the likelihood model beside the panel's (the others'
hands at random); the page does not use either (the figures: ``docs/benchmarks.md``, "The risk").
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..engine.cards import KIND, Card
from ..engine.errors import UsageError
from ..engine.kernel_state import DRAFT as _KDRAFT
from ..engine.kernel_state import KState, draft_options, sampler
from ..engine.notation import Action, Pick, Play
from ..engine.state import DRAFT, GameState, new_game
from ..engine.views import PlayerView, view
from ..players.policies import rule_index

__all__ = ["DRAFT_MODELS", "DraftKnowledge", "Drafted", "dealer", "draft_knowledge", "impose"]

#: How the forward risk deals the others' cards from what the viewer saw of the draft.
DRAFT_MODELS = ("passes", "likelihood")


@dataclass(frozen=True)
class DraftKnowledge:
    """The viewer's knowledge of the others' cards from ``round``'s draft.

    ``first``: the cards the viewer passed at the first step (the next seat picks
    ``first_taken`` of them, the seat after keeps the rest), ``last``: those it passed at the
    second step (the next seat keeps them); ``returned``: with two players, what came back of
    ``first`` (so the other's pick is known); ``played``: per seat, the cards it has played
    face up since the draft (no longer in its hand). Cards as kind indices (``KIND``)."""

    viewer: int
    players: int
    round: int
    first: tuple[int, ...] = ()
    first_taken: int = 0
    last: tuple[int, ...] = ()
    returned: tuple[int, ...] | None = None
    played: dict[int, tuple[int, ...]] = field(default_factory=dict)
    #: For the draft's likelihood (``Drafted``): the viewer's view at its first pick of the round
    #: (the table then, its own dealt hand), its picks at each step, and what was passed to it
    #: at each step (the hand it drew its second pick from, then the cards it kept).
    start: PlayerView | None = field(default=None, compare=False, repr=False)
    picks: tuple[tuple[int, ...], ...] = ()
    received: tuple[tuple[int, ...], ...] = ()
    #: "passes": the cards the viewer passed dealt where they went, the rest at random
    #: (``impose``); "likelihood": every world's draft played by the others' rule of thumb,
    #: kept only where it passes the viewer what it really saw (``Drafted``).
    model: str = "passes"

    @property
    def empty(self) -> bool:
        """Nothing to deal by: no card passed yet, and (for the likelihood) no draft begun."""
        return not self.first and not self.last and (self.model != "likelihood" or self.start is None)


def _kinds(cards: Sequence[Card]) -> tuple[int, ...]:
    return tuple(sorted(KIND[c] for c in cards))


def _minus(cards: Sequence[int], gone: Sequence[int]) -> list[int]:
    left = Counter(cards)
    left.subtract(gone)
    return sorted(left.elements())


def draft_knowledge(players: int, actions: Sequence[Action], viewer: int,
                    start: GameState | None = None, model: str = "passes") -> DraftKnowledge:
    """What ``viewer`` knows from the draft of the round the ``actions`` (from a new game, or
    from ``start``) end in: the cards it held when each hand was passed on, and the cards
    played face up since; ``model``: how the forward risk deals from it (``DraftKnowledge``)."""
    if model not in DRAFT_MODELS:
        raise UsageError(f"unknown draft model {model!r}: choose from {', '.join(DRAFT_MODELS)}")
    s = new_game(players) if start is None else start.clone()
    rnd, taken = s.round, 0
    first: tuple[int, ...] = ()
    last: tuple[int, ...] = ()
    returned: tuple[int, ...] | None = None
    played: dict[int, list[int]] = {}
    seen: PlayerView | None = None
    own_picks: list[tuple[int, ...]] = []
    received: list[tuple[int, ...]] = []
    for action in actions:
        seat = s.current_player() if not s.is_chance_node() else -1
        own = _kinds(action.cards) if seat == viewer and isinstance(action, Pick) else ()
        if own and s.draft_step == 1:
            seen = view(s, viewer)  # the table as the draft began, and the viewer's dealt hand
        if own:
            own_picks.append(own)
        # what the viewer holds once its own pick (if this is it) is made, before the hands pass
        before_round, before_step = s.round, s.draft_step
        held = tuple(_minus(_kinds(s.draft_hands[viewer]), own))
        picks = tuple(sorted(_kinds(s.draft_picks[viewer]) + own))
        s.apply_action(action)
        if s.round != before_round:  # a new round: nothing known yet
            rnd, first, last, taken, returned, played = s.round, (), (), 0, None, {}
            seen, own_picks, received = None, [], []
        elif before_step == 1 and s.draft_step != 1:  # the first step's hands passed on
            first, taken = held, min(2, len(held))
            received.append(_kinds(s.draft_hands[viewer]))
        elif before_step == 2 and s.draft_step != 2:  # the second's, kept by the next seat
            last = held
            received.append(tuple(_minus(_kinds(s.hands[viewer]), picks)))
            if players == 2:
                returned = received[-1]
        elif isinstance(action, Play) and seat not in (-1, viewer) and s.phase != DRAFT:
            played.setdefault(seat, []).append(KIND[action.card])
    if seen is None and s.phase == DRAFT and s.draft_step == 1 and not s.is_chance_node():
        seen = view(s, viewer)  # the viewer's first pick to come: the others' made before it follow their hands
    return DraftKnowledge(viewer, players, rnd, first, taken, last, returned,
                          {q: tuple(cards) for q, cards in played.items()}, seen, tuple(own_picks),
                          tuple(received), model)


def _required(known: DraftKnowledge, ks: KState, rng: random.Random) -> list[tuple[str, int, list[int]]]:
    """(zone, seat, cards) the sample must hold; which of the first cards the next seat took
    is drawn uniformly (the model's limit)."""
    n, p = known.players, known.viewer
    nxt, after = (p + 1) % n, (p + 2) % n
    if known.returned is not None:
        taken = _minus(known.first, known.returned)
    else:
        taken = list(known.first)
        rng.shuffle(taken)
        taken = sorted(taken[:known.first_taken])
    passed_on = _minus(known.first, taken)
    if ks.draft_step:  # in the draft: at its second step the next seat holds the first cards, or picked from them
        if ks.draft_step != 2 or not known.first:
            return []
        if len(ks.draft_hands[nxt]) == len(known.first):
            return [("draft_hands", nxt, list(known.first))]
        return [("draft_hands", nxt, passed_on), ("draft_picks", nxt, taken)]
    if not known.last:
        return []
    wanted = [("hands", nxt, _minus(list(known.last) + taken, known.played.get(nxt, ())))]
    if after != p:
        wanted.append(("hands", after, _minus(passed_on, known.played.get(after, ()))))
    return wanted


def impose(known: DraftKnowledge, ks: KState, rng: random.Random) -> KState:
    """``ks`` dealt again so that the cards the viewer knows of are where it knows them: every
    card unseen by the viewer (the others' hidden places and the deck) is gathered, the known
    ones placed, the rest shuffled into the places left, each place keeping its size."""
    wanted = _required(known, ks, rng)
    if not wanted:
        return ks
    p = known.viewer
    zones = ("hands", "draft_hands", "draft_picks")
    pool = list(ks.deck) + [c for z in zones for q, cards in enumerate(getattr(ks, z)) if q != p for c in cards]
    fixed: dict[tuple[str, int], list[int]] = {}
    left = Counter(pool)
    for zone, q, cards in wanted:
        size = len(getattr(ks, zone)[q])
        keep = [c for c in cards if left[c] > 0][:size]
        left.subtract(keep)
        fixed[(zone, q)] = keep
    rest = sorted(left.elements())
    rng.shuffle(rest)
    for zone in zones:
        places = getattr(ks, zone)
        for q in range(known.players):
            if q == p:
                continue
            mine = fixed.get((zone, q), [])
            more = len(places[q]) - len(mine)
            places[q] = sorted(mine + rest[:more])
            del rest[:more]
    ks.deck = sorted(rest)
    return ks


class Drafted:
    """The others' cards dealt as their draft made them (``model="likelihood"``).

    Each world deals the others' hands of the draft's start from the cards the viewer could not
    see then, plays the draft with every other seat's rule of thumb (the viewer's own picks as
    made), and is kept only if it passes the viewer what the viewer was really passed: a world
    is as likely as the others' picks in it make what the viewer saw (the rule of thumb decides
    from its own cards and the table alone, so this is Bayes' rule with a likelihood of 0 or 1).
    The hand the previous seat passed holds all but its two first picks, and the card it passed
    last came from the seat before it: those are dealt there, the rest at random, and a world
    that does not fit is drawn again whole, so the worlds kept follow the posterior. Later,
    each seat holds what the draft gave it less what it has played face up since; a card it
    played that the draft did not give it was drawn (a Scholar), and its other drawn cards come
    from the rest at random. A world that cannot hold what was played is drawn again too.

    The model's limit: how the others played since the draft (which card, where) is not weighed,
    only that they held what they played; where fitting worlds are rare (fewer than ``FOUND``
    in ``PROBE`` draws: late in a round) or one is not found in ``TRIES`` draws, the others'
    cards are dealt at random among the unseen instead (``fallbacks`` counts those worlds).
    """

    PROBE, FOUND, TRIES = 500, 5, 2000

    def __init__(self, known: DraftKnowledge) -> None:
        assert known.start is not None
        self.known, self.fallbacks, self.worlds = known, 0, 0
        self.usable: bool | None = None  # found by ``_probe`` at the first world
        start = known.start
        self.deal = len(start.draft_hand)
        self.table = sampler(start)(random.Random(0))  # the draft's table: public, any world's will do
        self.table.phase = _KDRAFT
        pool = [kind for kind, count in enumerate(start.unseen_cards()) for _ in range(count)]
        self.pool = _minus(pool, [c for cards in known.received for c in cards])
        self.picks: dict[tuple[int, tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}
        self.fits: dict[tuple[int, ...], bool] = {}  # the previous seat's first picks: do they leave what it passed?

    def pick(self, seat: int, held: list[int], picked: list[int]) -> tuple[int, ...]:
        """The rule of thumb's pick for ``seat`` holding ``held``, having picked ``picked``."""
        key = (seat, tuple(held), tuple(picked))
        found = self.picks.get(key)
        if found is None:
            t = self.table
            t.current, t.draft_hands[seat], t.draft_picks[seat] = seat, list(held), list(picked)
            options = draft_options(list(held))
            found = self.picks[key] = options[rule_index(t, options)]
        return found

    def draft(self, rng: random.Random) -> tuple[dict[int, list[int]], ...] | None:
        """One draft agreeing with what the viewer saw, or None: each seat's dealt hand, first
        picks, the hand it picked from second, its second picks, what it passed last."""
        known, n, p = self.known, self.known.players, self.known.viewer
        before, second = (p - 1) % n, (p - 2) % n
        cards = self.pool[:]
        dealt: dict[int, list[int]] = {}
        if known.received:  # the previous seat's hand: what it passed, and its two first picks
            passed = list(known.received[0])
            firsts = tuple(sorted(_draw(cards, self.deal - len(passed), rng)))
            fits = self.fits.get(firsts)
            if fits is None:
                hand = sorted(passed + list(firsts))
                fits = self.fits[firsts] = _minus(hand, self.pick(before, hand, [])) == passed
            if not fits:
                return None
            dealt[before] = sorted(passed + list(firsts))
        if len(known.received) > 1 and second != p:  # the card passed last came from the seat before
            kept = list(known.received[1])
            dealt[second] = sorted(kept + _draw(cards, self.deal - len(kept), rng))
        for q in range(n):
            if q != p and q not in dealt:
                dealt[q] = sorted(_draw(cards, self.deal, rng))
        return self.play(dealt)

    def play(self, dealt: dict[int, list[int]]) -> tuple[dict[int, list[int]], ...] | None:
        """The draft from the others' ``dealt`` hands, the viewer's picks as made, or None if it
        does not pass the viewer what it saw: as ``draft``'s."""
        known, n, p = self.known, self.known.players, self.known.viewer
        before = (p - 1) % n
        assert known.start is not None
        dealt = {**dealt, p: sorted(KIND[c] for c in known.start.draft_hand)}
        if known.received and _minus(dealt[before], self.pick(before, dealt[before], [])) != list(known.received[0]):
            return None
        first_picks = {q: list(self.pick(q, dealt[q], [])) for q in range(n) if q != p}
        if not known.picks:  # the viewer's first pick to come: the others' first picks are all there is
            return dealt, first_picks, {}, {}, {}
        first_picks[p] = list(known.picks[0])
        passed = {q: _minus(dealt[q], first_picks[q]) for q in range(n)}
        held = {q: passed[(q - 1) % n] for q in range(n)}
        second_picks = {q: list(self.pick(q, held[q], first_picks[q])) for q in range(n) if q != p}
        last = {q: _minus(held[q], second_picks[q]) for q in second_picks}
        if len(known.picks) > 1:
            second_picks[p] = list(known.picks[1])
            last[p] = _minus(held[p], second_picks[p])
        if len(known.received) > 1 and last[before] != list(known.received[1]):
            return None
        return dealt, first_picks, held, second_picks, last

    def __call__(self, ks: KState, rng: random.Random) -> KState:
        self.worlds += 1
        if self.usable is None:
            self.usable = self._probe(ks)
        if self.usable:
            for _ in range(self.TRIES):
                made = self.draft(rng)
                if made is not None:
                    world = self._world(ks, made, rng)
                    if world is not None:
                        return world
        self.fallbacks += 1
        return ks

    def fits_often(self, v: PlayerView) -> bool:
        """Whether this model deals from the draft at ``v`` (the viewer's view now), rather than
        at random for want of worlds that fit (``_probe``)."""
        if self.usable is None:
            self.usable = self._probe(sampler(v)(random.Random(0)))
        return self.usable

    def _probe(self, ks: KState) -> bool:
        """Whether worlds that fit are found often enough (``FOUND`` in ``PROBE`` draws, seeded:
        the same view gives the same answer); late in a round, with many cards played, they
        are not, and every world is then dealt at random, the page's model."""
        rng, found = random.Random(0), 0
        for _ in range(self.PROBE):
            made = self.draft(rng)
            if made is not None and self._world(ks.copy(), made, rng) is not None:
                found += 1
                if found == self.FOUND:
                    return True
        return False

    def _world(self, ks: KState, made: tuple[dict[int, list[int]], ...], rng: random.Random) -> KState | None:
        """``ks`` with the others' hidden cards as the draft ``made`` them, or None if they cannot be."""
        dealt, first, held, second, last = made
        known, n, p = self.known, self.known.players, self.known.viewer
        zones = ("hands", "draft_hands", "draft_picks")
        unseen = Counter(ks.deck)
        for zone in zones:
            for q, cards in enumerate(getattr(ks, zone)):
                if q != p:
                    unseen.update(cards)
        places: dict[tuple[str, int], list[int]] = {}
        fill: dict[int, int] = {}
        for q in range(n):
            if q == p:
                continue
            if ks.draft_step == 1:  # a seat has picked already or not
                done = len(ks.draft_picks[q]) > 0
                places[("draft_picks", q)] = first[q] if done else []
                places[("draft_hands", q)] = _minus(dealt[q], first[q]) if done else dealt[q]
            elif ks.draft_step == 2:
                done = len(ks.draft_picks[q]) > len(first[q])
                places[("draft_picks", q)] = sorted(first[q] + second[q]) if done else first[q]
                places[("draft_hands", q)] = last[q] if done else held[q]
            else:
                kept = sorted(first[q] + second[q] + last[(q - 1) % n])
                played = list(known.played.get(q, ()))
                keep = _minus(kept, played)
                missing = len(played) - (len(kept) - len(keep))
                drawn = len(ks.hands[q]) - len(kept) + len(played)
                if missing > drawn:
                    return None
                places[("hands", q)] = keep
                fill[q] = len(ks.hands[q]) - len(keep)
            for zone in zones:
                places.setdefault((zone, q), [])
        needed = Counter(c for cards in places.values() for c in cards)
        if needed - unseen:
            return None
        rest = sorted((unseen - needed).elements())
        rng.shuffle(rest)
        out = ks
        for (zone, q), cards in places.items():
            more = fill.get(q, 0) if zone == "hands" else 0
            getattr(out, zone)[q] = sorted(cards + rest[:more])
            del rest[:more]
        out.deck = sorted(rest)
        return out


def _draw(cards: list[int], k: int, rng: random.Random) -> list[int]:
    """``k`` cards drawn at random from ``cards`` and taken out of it (the order of those left changes)."""
    drawn = []
    for _ in range(k):
        i = rng.randrange(len(cards))
        cards[i], cards[-1] = cards[-1], cards[i]
        drawn.append(cards.pop())
    return drawn


def dealer(known: DraftKnowledge) -> Callable[[KState, random.Random], KState]:
    """How the forward risk re-deals each sampled world from ``known`` (its ``model``)."""
    if known.model == "likelihood" and known.start is not None:
        return Drafted(known)
    return lambda ks, rng: impose(known, ks, rng)
