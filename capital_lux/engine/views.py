"""What one player may know: the observer of the game.

``view(state, p)`` keeps only what seat ``p`` may see: their own hand, draft cards
and face-down modifiers, the public zones, and counts of everything else. Two
states that differ only in what ``p`` cannot know give equal views.
``public_log`` is the story as ``p`` may read it (others' picks and gold choices
hidden, the reveal carrying the modifiers and limits). ``sample_hidden`` goes the other way: a full state drawn at random among those
``p`` cannot tell apart, for bots and risk estimates that must not peek.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from .errors import UsageError
from .cards import ALL_CARDS, COLOURS, KIND, MODIFIERS, Card, full_deck_counts
from .notation import Action, PlaceModifier, Pick, Play, SaveWithGold
from .rules import gold_options
from .state import AGENT, GOLD, SETUP_MODIFIERS, Event, GameState, new_game


@dataclass(frozen=True)
class ModifierSlot:
    """A modifier above a capital colour; ``value`` is None when the viewer cannot see it."""

    owner: int
    value: int | None


@dataclass(frozen=True)
class PlayerView:
    viewer: int
    players: int
    round: int
    phase: str
    to_move: int  # seat to decide, CHANCE or TERMINAL
    current: int  # seat a pending decision or chance event concerns (public)
    starting_player: int
    deal_size: int
    draft_step: int
    hand: tuple[Card, ...]
    draft_hand: tuple[Card, ...]
    draft_picks: tuple[Card, ...]
    pending_modifier: int | None  # the viewer's own Agent draw, not yet placed
    hand_sizes: tuple[int, ...]
    draft_hand_sizes: tuple[int, ...]
    draft_pick_counts: tuple[int, ...]
    hometowns: tuple[dict[str, tuple[int, ...]], ...]
    capital: dict[str, tuple[int, ...]]
    modifiers_above: dict[str, tuple[ModifierSlot, ...]]
    modifiers_revealed: bool
    modifier_deck_size: int
    setup_modifiers: tuple[int, ...]
    deck_size: int
    gold: tuple[int, ...]
    gold_pile: int
    bonus: tuple[tuple[Card, ...], ...]
    discards: tuple[Card, ...]
    last_turns: tuple[int, ...] | None
    gold_waiting: tuple[int, ...]  # seats still to decide on gold
    own_gold_choice: tuple[str, ...] | None
    legal_actions: tuple[Action, ...]  # empty unless it is the viewer's decision

    def capital_total(self, colour: str) -> int | None:
        """Cards plus modifiers above, or None while a modifier is unknown to the viewer."""
        slots = self.modifiers_above[colour]
        if any(m.value is None for m in slots):
            return None
        return sum(self.capital[colour]) + sum(m.value or 0 for m in slots)

    def known_modifiers(self, colour: str) -> int:
        return sum(m.value for m in self.modifiers_above[colour] if m.value is not None)

    def hometown_total(self, player: int, colour: str) -> int:
        return sum(self.hometowns[player][colour])

    def unseen_cards(self) -> list[int]:
        """Counts per card kind of the cards the viewer cannot see (deck and others' hands)."""
        counts = full_deck_counts()
        seen: list[Card] = list(self.hand) + list(self.draft_hand) + list(self.draft_picks)
        seen += list(self.discards) + [c for b in self.bonus for c in b]
        for colour in COLOURS:
            seen += [Card(colour, v) for v in self.capital[colour]]
            for town in self.hometowns:
                seen += [Card(colour, v) for v in town[colour]]
        for card in seen:
            counts[KIND[card]] -= 1
        return counts

    def unseen_modifiers(self) -> tuple[int, ...]:
        """The modifiers the viewer has not seen (the others' face-down ones are among these)."""
        pool = list(MODIFIERS)
        for c in COLOURS:
            for m in self.modifiers_above[c]:
                if m.value is not None:
                    pool.remove(m.value)
        if self.pending_modifier is not None:
            pool.remove(self.pending_modifier)
        return tuple(pool)

    def _repr_html_(self) -> str:
        from .html import view_html

        return view_html(self)


def view(state: GameState, viewer: int) -> PlayerView:
    s, p = state, viewer
    revealed = s.modifiers_revealed()
    own_turn = s.current_player() == p
    return PlayerView(
        viewer=p,
        players=s.players,
        round=s.round,
        phase=s.phase,
        to_move=s.current_player(),
        current=s.current,
        starting_player=s.starting_player,
        deal_size=s.deal_size,
        draft_step=s.draft_step,
        hand=tuple(s.hands[p]),
        draft_hand=tuple(sorted(s.draft_hands[p])),
        draft_picks=tuple(sorted(s.draft_picks[p])),
        pending_modifier=s.pending_modifier if (s.phase == AGENT and s.current == p) else None,
        hand_sizes=tuple(len(h) for h in s.hands),
        draft_hand_sizes=tuple(len(h) for h in s.draft_hands),
        draft_pick_counts=tuple(len(h) for h in s.draft_picks),
        hometowns=tuple({c: tuple(town[c]) for c in COLOURS} for town in s.hometowns),
        capital={c: tuple(s.capital[c]) for c in COLOURS},
        modifiers_above={
            c: tuple(ModifierSlot(o, v if (revealed or o == p) else None) for o, v in s.modifiers_above[c])
            for c in COLOURS
        },
        modifiers_revealed=revealed,
        modifier_deck_size=len(s.modifier_deck),
        setup_modifiers=tuple(s.setup_modifiers),
        deck_size=s.deck_size(),
        gold=tuple(s.gold),
        gold_pile=s.gold_pile,
        bonus=tuple(tuple(b) for b in s.bonus),  # face down, but their values are public (ruling R18)
        discards=tuple(sorted(s.discards)),
        last_turns=None if s.last_turns is None else tuple(s.last_turns),
        gold_waiting=tuple(s.gold_queue),
        own_gold_choice=s.gold_choices[p],
        legal_actions=tuple(s.legal_actions()) if own_turn else (),
    )


def visible_events(state: GameState, viewer: int) -> list[Event]:
    """The game log as the viewer may read it."""
    return [e for e in state.log if e.private_to in (-1, viewer)]


@dataclass(frozen=True)
class LogItem:
    """One line of the story as one viewer may read it: a decision or an engine event.

    ``kind`` is ``"play"``, ``"pick"`` or ``"save"`` for a decision (``action`` is None
    when it is hidden from the viewer: others' picks and gold choices, rulings R6, R16),
    or the ``Event`` kind. The ``reveal`` item carries the modifiers as they were turned
    face up (``revealed``: colour to ``(owner, value)`` pairs) and each colour's limit
    (``limits``: capital cards plus modifiers at that moment).
    """

    kind: str
    player: int = -1
    action: Action | None = None
    event: Event | None = None
    round: int = 0
    revealed: dict[str, tuple[tuple[int, int], ...]] | None = None
    limits: dict[str, int] | None = None


def public_step(state: GameState, action: Action, viewer: int) -> list[LogItem]:
    """Apply ``action`` to ``state`` (checked) and return what ``viewer`` may read of it.

    The one place where history is hidden: chance outcomes, others' picks, gold
    choices and private events (a Scholar's draw) never reach the viewer.
    """
    seat, round_ = state.current_player(), state.round
    mods = {c: list(state.modifiers_above[c]) for c in COLOURS}
    if isinstance(action, PlaceModifier) and state.pending_modifier is not None:
        mods[action.colour].append((state.current, state.pending_modifier))
    seen = len(state.log)
    state.apply_action(action)
    items: list[LogItem] = []
    if isinstance(action, Play):
        items.append(LogItem("play", seat, action, round=round_))
    elif isinstance(action, (Pick, SaveWithGold)):  # face down / secret until all have chosen
        items.append(LogItem("pick" if isinstance(action, Pick) else "save", seat,
                             action if seat == viewer else None, round=round_))
    new = state.log[seen:]
    for i, event in enumerate(new):
        if event.private_to not in (-1, viewer):
            continue
        if event.kind != "reveal":
            items.append(LogItem(event.kind, event.player, event=event, round=state.round))
            continue
        capital = {c: list(state.capital[c]) for c in COLOURS}
        for later in new[i:]:  # bonus cards taken in this same step were in the capital at the reveal
            if later.kind == "bonus":
                capital[later.cards[0].colour] += [c.value for c in later.cards]
        limits = {c: sum(capital[c]) + sum(v for _, v in mods[c]) for c in COLOURS}
        items.append(LogItem(event.kind, event.player, event=event, round=round_,
                             revealed={c: tuple(mods[c]) for c in COLOURS}, limits=limits))
    return items


def public_log(state: GameState, viewer: int, start: GameState | None = None) -> list[LogItem]:
    """The whole story of ``state`` as ``viewer`` may read it, replayed from ``start``
    (a new game by default; the start's own history is already part of ``state``'s)."""
    s = (start or new_game(state.players)).clone()
    items: list[LogItem] = []
    for action in state.history[len(s.history):]:
        items += public_step(s, action, viewer)
    return items


def determinize(
    v: PlayerView, rng: random.Random, cards: Sequence[Card] | None = None, modifiers: Sequence[int] | None = None
) -> GameState:
    """A full state drawn uniformly among those that give the view ``v``.

    Unseen cards (the deck and other players' hands, draft cards and picks) are dealt
    at random into places of the same sizes; unseen modifiers (the modifier deck,
    others' face-down modifiers and an opponent's undisclosed Agent draw) are shuffled
    among their places; others' secret gold decisions are drawn among their options.
    Bots and risk estimates work from this, so they can never peek.

    ``cards`` fixes the deal instead: the unseen cards in the order they go to the
    others' hands, draft cards and picks (seat by seat; the rest is the deck).
    ``modifiers`` fixes the values of the face-down modifiers the viewer cannot see
    (in colour order, then as placed); the other unseen ones go to the deck, or to an
    opponent's undisclosed Agent draw. Exact enumeration and weighted (Bayesian)
    sampling use these; each must be a possible deal, or ``ValueError`` says why.
    """
    p, n = v.viewer, v.players
    s = GameState(n)
    s.round, s.phase, s.starting_player, s.current = v.round, v.phase, v.starting_player, v.current
    s.deal_size, s.draft_step = v.deal_size, v.draft_step
    s.hometowns = [{c: list(town[c]) for c in COLOURS} for town in v.hometowns]
    s.capital = {c: list(v.capital[c]) for c in COLOURS}
    s.setup_modifiers = list(v.setup_modifiers)
    s.gold, s.gold_pile = list(v.gold), v.gold_pile
    s.bonus = [list(b) for b in v.bonus]
    s.discards = list(v.discards)
    s.last_turns = None if v.last_turns is None else list(v.last_turns)
    s.gold_queue = list(v.gold_waiting)

    unseen = v.unseen_cards()
    pool = [card for kind, k in enumerate(unseen) for card in [ALL_CARDS[kind]] * k]
    if cards is None:
        rng.shuffle(pool)
    else:
        counts = unseen[:]
        for card in cards:
            counts[KIND[card]] -= 1
            if counts[KIND[card]] < 0:
                raise UsageError(f"{card} is dealt more often than the viewer's unseen cards allow")
        pool = list(cards) + [card for kind, k in enumerate(counts) for card in [ALL_CARDS[kind]] * k]
    for zone, own, sizes in (
        (s.hands, v.hand, v.hand_sizes),
        (s.draft_hands, v.draft_hand, v.draft_hand_sizes),
        (s.draft_picks, v.draft_picks, v.draft_pick_counts),
    ):
        for q in range(n):
            if q == p:
                zone[q] = list(own)
            else:
                zone[q] = sorted(pool[: sizes[q]])
                del pool[: sizes[q]]
    s.deck = [0] * len(ALL_CARDS)
    for card in pool:
        s.deck[KIND[card]] += 1

    unknown = list(v.unseen_modifiers())
    if v.phase == SETUP_MODIFIERS:
        for value in v.setup_modifiers:
            unknown.remove(value)
    rng.shuffle(unknown)
    if modifiers is not None:
        for value in modifiers:
            if value not in unknown:
                raise UsageError(f"modifier {value:+d} cannot be face down here: the viewer has seen it")
            unknown.remove(value)
        unknown += list(reversed(modifiers))  # popped from the end, in slot order
    for c in COLOURS:
        s.modifiers_above[c] = [(m.owner, m.value if m.value is not None else unknown.pop()) for m in v.modifiers_above[c]]
    if v.phase == AGENT:
        s.pending_modifier = v.pending_modifier if v.current == p else unknown.pop()
    s.modifier_deck = sorted(unknown)

    if v.phase == GOLD:
        s.gold_choices = [None] * n
        s.gold_choices[p] = v.own_gold_choice
        decided = [q for q in range(n) if q != p and q not in v.gold_waiting and len(gold_options(s, q)) > 1]
        for q in decided:
            s.gold_choices[q] = rng.choice(gold_options(s, q)).colours  # type: ignore[union-attr]
    return s


def sample_hidden(state: GameState, viewer: int, rng: random.Random) -> GameState:
    """A state the viewer cannot tell from ``state``, drawn at random (see ``determinize``)."""
    return determinize(view(state, viewer), rng)
