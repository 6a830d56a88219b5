"""What a player saw of the others' cards in this round's draft, for the forward risk.

In the draft (ruling R15, R16, R20) each seat picks two cards of its hand and passes the rest
to the next seat, twice, and keeps what is passed to it last. So a player knows where some of
the others' hidden cards are: what it passed last is in the next seat's hand (kept), and of
what it passed first the next seat picked two and passed the rest on to the seat after, who
kept them (with two players those come back, so the other's two are known too). A
``PlayerView`` holds no history; ``draft_knowledge`` reads it from the round's actions,
seen as the player saw them (its own draft hands and picks, and the cards played face up
since), never the others' hidden cards.

``impose`` then deals a sampled world again so that these cards are where the player knows
they are, every other unseen card dealt at random as before. The model's limit: which two of
the cards it passed first the next seat picked is drawn uniformly, not as the next seat's way
of drafting would choose them, and the cards the others were dealt and picked unseen are
dealt at random. ``bench risk_calibration`` measures it beside the panel's model (the others'
hands at random); the page does not use it (it costs the exact figures for little gain).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from ..engine.cards import KIND, Card
from ..engine.kernel_state import KState
from ..engine.notation import Action, Pick, Play
from ..engine.state import DRAFT, GameState, new_game

__all__ = ["DraftKnowledge", "draft_knowledge", "impose"]


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

    @property
    def empty(self) -> bool:
        return not self.first and not self.last


def _kinds(cards: Sequence[Card]) -> tuple[int, ...]:
    return tuple(sorted(KIND[c] for c in cards))


def _minus(cards: Sequence[int], gone: Sequence[int]) -> list[int]:
    left = Counter(cards)
    left.subtract(gone)
    return sorted(left.elements())


def draft_knowledge(players: int, actions: Sequence[Action], viewer: int,
                    start: GameState | None = None) -> DraftKnowledge:
    """What ``viewer`` knows from the draft of the round the ``actions`` (from a new game, or
    from ``start``) end in: the cards it held when each hand was passed on, and the cards
    played face up since."""
    s = new_game(players) if start is None else start.clone()
    rnd, taken = s.round, 0
    first: tuple[int, ...] = ()
    last: tuple[int, ...] = ()
    returned: tuple[int, ...] | None = None
    played: dict[int, list[int]] = {}
    for action in actions:
        seat = s.current_player() if not s.is_chance_node() else -1
        own = _kinds(action.cards) if seat == viewer and isinstance(action, Pick) else ()
        # what the viewer holds once its own pick (if this is it) is made, before the hands pass
        before_round, before_step = s.round, s.draft_step
        held = tuple(_minus(_kinds(s.draft_hands[viewer]), own))
        picks = tuple(sorted(_kinds(s.draft_picks[viewer]) + own))
        s.apply_action(action)
        if s.round != before_round:  # a new round: nothing known yet
            rnd, first, last, taken, returned, played = s.round, (), (), 0, None, {}
        elif before_step == 1 and s.draft_step != 1:  # the first step's hands passed on
            first, taken = held, min(2, len(held))
        elif before_step == 2 and s.draft_step != 2:  # the second's, kept by the next seat
            last = held
            if players == 2:
                returned = tuple(_minus(_kinds(s.hands[viewer]), picks))
        elif isinstance(action, Play) and seat not in (-1, viewer) and s.phase != DRAFT:
            played.setdefault(seat, []).append(KIND[action.card])
    return DraftKnowledge(viewer, players, rnd, first, taken, last, returned,
                          {q: tuple(cards) for q, cards in played.items()})


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
