"""The playout kernel: the same game as ``rules``, laid out for speed.

Why it exists: everything the tutor says about the future (forward risk, move
comparisons, bot hints, simulations of thousands of games) is games played out
in a loop, and the readable engine pays for its clarity at every step: card
objects, a legal-action list and a legality check per move, a walk over twenty
card kinds per draw, an event log. The kernel keeps the position as integers
and lists (a card is its kind index, ``ALL_CARDS[kind]``; the deck is the sorted
list of the kinds left, so a draw is one index), and ``play_out`` runs one fused
loop that applies decisions and chance without re-checking what it generated
itself. The public engine (``GameState``, ``rules``) is unchanged and stays the
reference: ``from_state`` and ``to_state`` convert exactly, and the tests play
thousands of games both ways and compare every final position.

Exactly the same game: for the same generator the kernel draws the same cards
as ``game.sample_chance`` (one ``randrange(deck size)`` per card, one
``choice`` of the modifier deck per modifier) and its random policy makes the
same choices as ``game.random_policy`` and ``RandomBot`` (one ``choice`` among
the legal actions in the engine's sorted order), so seeded results do not
depend on which path played them.

>>> import random
>>> ks = new_state(4)
>>> rng = random.Random(1)
>>> play_out(ks, [RandomPolicy(rng)] * 4, rng)
>>> ks.phase == OVER, len(scores(ks))
(True, 4)
"""

from __future__ import annotations

import random
from bisect import insort
from itertools import combinations
from typing import Any, Callable, Protocol, Sequence

from .cards import ALL_CARDS, COLOURS, KIND, MODIFIERS, full_deck_counts
from .notation import (CAPITAL, HOME, Action, Pick, PlaceModifier, Play, SaveWithGold, TakeLowest)
from .state import PHASES, ROUNDS, GameState, hand_size

# Phases are their index in ``state.PHASES``.
SETUP_CAPITAL, SETUP_MODIFIERS, DEAL, DRAFT, PLAY, SCHOLAR, AGENT_DRAW, AGENT, CLERIC, GOLD, OVER = range(11)
CHANCE_PHASES = frozenset({SETUP_CAPITAL, SETUP_MODIFIERS, DEAL, SCHOLAR, AGENT_DRAW})
B, G, P, Y = range(4)  # colours are their index in ``cards.COLOURS``
CLERIC_COLOURS = (B, G, Y)  # never pink (ruling R2)
#: Colour and value of each card kind.
COLOUR_OF: tuple[int, ...] = tuple(COLOURS.index(card.colour) for card in ALL_CARDS)
VALUE_OF: tuple[int, ...] = tuple(card.value for card in ALL_CARDS)
_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}


_FULL_DECK = [kind for kind, count in enumerate(full_deck_counts()) for _ in range(count)]


def kind_of(colour: int, value: int) -> int:
    return colour * 5 + value - 2


class KState:
    """A whole position as integers and lists (see the module docstring).

    Cards are kind indices, colours 0-3 in ``COLOURS`` order, every list of cards or
    values sorted as in ``GameState``. ``cards_lost``, ``points_lost`` and ``gold_spent``
    count per seat and colour what the round ends cost since this state was made.
    """

    __slots__ = (
        "players", "round", "phase", "starting", "current", "deck", "hands", "deal_size", "draft_step",
        "draft_hands", "draft_picks", "home", "capital", "mods", "modifier_deck", "setup_modifiers",
        "pending", "gold", "gold_pile", "bonus", "discards", "last_turns", "gold_queue", "gold_choices",
        "cards_lost", "points_lost", "gold_spent",
    )

    def __init__(self, players: int) -> None:
        n = self.players = players
        self.round = 0
        self.phase = SETUP_CAPITAL
        self.starting = -1
        self.current = -1
        self.deck: list[int] = _FULL_DECK[:]
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.deal_size = 0
        self.draft_step = 0
        self.draft_hands: list[list[int]] = [[] for _ in range(n)]
        self.draft_picks: list[list[int]] = [[] for _ in range(n)]
        self.home: list[list[list[int]]] = [[[] for _ in COLOURS] for _ in range(n)]  # card values
        self.capital: list[list[int]] = [[] for _ in COLOURS]
        self.mods: list[list[tuple[int, int]]] = [[] for _ in COLOURS]  # (owner, value) above each colour
        self.modifier_deck: list[int] = sorted(MODIFIERS)
        self.setup_modifiers: list[int] = []
        self.pending: int | None = None
        self.gold = [0] * n
        self.gold_pile = 8
        self.bonus: list[list[int]] = [[] for _ in range(n)]
        self.discards: list[int] = []
        self.last_turns: list[int] | None = None
        self.gold_queue: list[int] = []
        self.gold_choices: list[tuple[int, ...] | None] = [None] * n
        self.cards_lost = [[0] * 4 for _ in range(n)]
        self.points_lost = [[0] * 4 for _ in range(n)]
        self.gold_spent = [[0] * 4 for _ in range(n)]

    def copy(self) -> KState:
        new = KState.__new__(KState)
        new.players, new.round, new.phase, new.starting = self.players, self.round, self.phase, self.starting
        new.current, new.deck, new.hands = self.current, self.deck[:], [h[:] for h in self.hands]
        new.deal_size, new.draft_step = self.deal_size, self.draft_step
        new.draft_hands, new.draft_picks = [h[:] for h in self.draft_hands], [h[:] for h in self.draft_picks]
        new.home = [[v[:] for v in town] for town in self.home]
        new.capital, new.mods = [v[:] for v in self.capital], [m[:] for m in self.mods]
        new.modifier_deck, new.setup_modifiers = self.modifier_deck[:], self.setup_modifiers[:]
        new.pending, new.gold, new.gold_pile = self.pending, self.gold[:], self.gold_pile
        new.bonus, new.discards = [b[:] for b in self.bonus], self.discards[:]
        new.last_turns = None if self.last_turns is None else self.last_turns[:]
        new.gold_queue, new.gold_choices = self.gold_queue[:], self.gold_choices[:]
        new.cards_lost = [r[:] for r in self.cards_lost]
        new.points_lost = [r[:] for r in self.points_lost]
        new.gold_spent = [r[:] for r in self.gold_spent]
        return new

    def __repr__(self) -> str:
        return f"<KState {self.players} players, round {self.round}, {PHASES[self.phase]}>"




def new_state(players: int) -> KState:
    """A game before setup, like ``state.new_game``."""
    if players not in (2, 3, 4):
        raise ValueError(f"Capital Lux is for 2 to 4 players, not {players}")
    return KState(players)


# -- conversion ------------------------------------------------------------------------
def from_state(state: GameState) -> KState:
    """A compact copy of ``state`` (its history and log are not carried)."""
    s = state
    ks = KState(s.players)
    ks.round, ks.phase, ks.starting, ks.current = s.round, PHASES.index(s.phase), s.starting_player, s.current
    ks.deck = [kind for kind, count in enumerate(s.deck) for _ in range(count)]
    ks.hands = [[KIND[c] for c in h] for h in s.hands]
    ks.deal_size, ks.draft_step = s.deal_size, s.draft_step
    ks.draft_hands = [sorted(KIND[c] for c in h) for h in s.draft_hands]
    ks.draft_picks = [sorted(KIND[c] for c in h) for h in s.draft_picks]
    ks.home = [[list(town[c]) for c in COLOURS] for town in s.hometowns]
    ks.capital = [list(s.capital[c]) for c in COLOURS]
    ks.mods = [list(s.modifiers_above[c]) for c in COLOURS]
    ks.modifier_deck, ks.setup_modifiers = list(s.modifier_deck), list(s.setup_modifiers)
    ks.pending, ks.gold, ks.gold_pile = s.pending_modifier, list(s.gold), s.gold_pile
    ks.bonus = [[KIND[c] for c in b] for b in s.bonus]
    ks.discards = [KIND[c] for c in s.discards]
    ks.last_turns = None if s.last_turns is None else list(s.last_turns)
    ks.gold_queue = list(s.gold_queue)
    ks.gold_choices = [None if ch is None else tuple(_COLOUR_INDEX[c] for c in ch) for ch in s.gold_choices]
    return ks


def to_state(ks: KState) -> GameState:
    """The engine's ``GameState`` for ``ks``, equal to the one the engine would reach
    (its history and log are empty: the kernel keeps neither)."""
    s = GameState(ks.players)
    s.round, s.phase, s.starting_player, s.current = ks.round, PHASES[ks.phase], ks.starting, ks.current
    s.deck = [0] * len(ALL_CARDS)
    for kind in ks.deck:
        s.deck[kind] += 1
    s.hands = [[ALL_CARDS[k] for k in h] for h in ks.hands]
    s.deal_size, s.draft_step = ks.deal_size, ks.draft_step
    s.draft_hands = [[ALL_CARDS[k] for k in h] for h in ks.draft_hands]
    s.draft_picks = [[ALL_CARDS[k] for k in h] for h in ks.draft_picks]
    s.hometowns = [{c: list(town[i]) for i, c in enumerate(COLOURS)} for town in ks.home]
    s.capital = {c: list(ks.capital[i]) for i, c in enumerate(COLOURS)}
    s.modifiers_above = {c: list(ks.mods[i]) for i, c in enumerate(COLOURS)}
    s.modifier_deck, s.setup_modifiers = list(ks.modifier_deck), list(ks.setup_modifiers)
    s.pending_modifier, s.gold, s.gold_pile = ks.pending, list(ks.gold), ks.gold_pile
    s.bonus = [[ALL_CARDS[k] for k in b] for b in ks.bonus]
    s.discards = [ALL_CARDS[k] for k in ks.discards]
    s.last_turns = None if ks.last_turns is None else list(ks.last_turns)
    s.gold_queue = list(ks.gold_queue)
    s.gold_choices = [None if ch is None else tuple(COLOURS[c] for c in ch) for ch in ks.gold_choices]
    return s


# -- questions ---------------------------------------------------------------------------
def capital_total(ks: KState, colour: int) -> int:
    """Cards plus every modifier above (what the engine's ``capital_total`` gives)."""
    return sum(ks.capital[colour]) + sum(v for _, v in ks.mods[colour])


def excess(ks: KState, seat: int, colour: int) -> int:
    """How far a hometown colour exceeds the capital; 0 for an empty colour (ruling R7)."""
    cards = ks.home[seat][colour]
    if not cards:
        return 0
    over = sum(cards) - capital_total(ks, colour)
    return over if over > 0 else 0


def gold_options(ks: KState, seat: int) -> list[tuple[int, ...]]:
    """The engine's ``gold_options`` in its sorted order, as colour-index tuples."""
    costs = [excess(ks, seat, c) for c in range(4)]
    exceeding = [c for c in range(4) if costs[c]]
    gold = ks.gold[seat]
    return sorted(
        combo for size in range(len(exceeding) + 1) for combo in combinations(exceeding, size)
        if sum(costs[c] for c in combo) <= gold
    )


def draft_options(held: list[int]) -> list[tuple[int, ...]]:
    """Every distinct choice of min(2, held) cards, sorted (the engine's ``draft_picks``)."""
    return sorted(set(combinations(held, min(2, len(held)))))


def cleric_options(ks: KState) -> list[int]:
    capital = ks.capital
    return [c for c in CLERIC_COLOURS if capital[c]]


def scores(ks: KState) -> list[int]:
    return [sum(map(sum, ks.home[p])) + sum(VALUE_OF[k] for k in ks.bonus[p]) + ks.gold[p] for p in range(ks.players)]


def _tie_key(ks: KState, p: int, score: int) -> tuple[int, ...]:
    values = [v for cards in ks.home[p] for v in cards] + [VALUE_OF[k] for k in ks.bonus[p]]
    return (score, *(values.count(v) for v in (6, 5, 4, 3, 2)))


def standings(ks: KState) -> tuple[list[int], list[int], list[int]]:
    """Scores, winners and ranks at once (``scores``, ``winners``, ``ranks``)."""
    points = scores(ks)
    keys = [_tie_key(ks, p, points[p]) for p in range(ks.players)]
    best = max(keys)
    return (points, [p for p in range(ks.players) if keys[p] == best],
            [1 + sum(other > mine for other in keys) for mine in keys])


def winners(ks: KState) -> list[int]:
    """The seats that win, ties broken by ruling R17 as in ``rules.winners``."""
    points = scores(ks)
    keys = [_tie_key(ks, p, points[p]) for p in range(ks.players)]
    best = max(keys)
    return [p for p in range(ks.players) if keys[p] == best]


def ranks(ks: KState) -> list[int]:
    points = scores(ks)
    keys = [_tie_key(ks, p, points[p]) for p in range(ks.players)]
    return [1 + sum(other > mine for other in keys) for mine in keys]


def turn_order(ks: KState) -> list[int]:
    start = max(ks.starting, 0)
    return [(start + i) % ks.players for i in range(ks.players)]


# -- decisions in the engine's terms ------------------------------------------------------
_PICKS: dict[tuple[int, ...], Pick] = {}
_TAKES = {c: TakeLowest(COLOURS[c]) for c in CLERIC_COLOURS}
_PLACES = [PlaceModifier(c) for c in COLOURS]
_SAVES: dict[tuple[int, ...], SaveWithGold] = {}


def _pick(combo: tuple[int, ...]) -> Pick:
    pick = _PICKS.get(combo)
    if pick is None:
        pick = _PICKS[combo] = Pick(tuple(ALL_CARDS[k] for k in combo))
    return pick


def _save(combo: tuple[int, ...]) -> SaveWithGold:
    save = _SAVES.get(combo)
    if save is None:
        save = _SAVES[combo] = SaveWithGold(tuple(COLOURS[c] for c in combo))
    return save


#: A kernel decision: ``(kind, to_home)`` for a play, the kinds picked in the draft, a colour
#: index for an Agent or a Cleric, the colour indices saved with gold.
Decision = Any


def options(ks: KState) -> list[Decision]:
    """The decisions open to the seat to move, in the engine's ``legal_actions`` order."""
    phase, p = ks.phase, ks.current
    if phase == PLAY:
        return [(k, home) for k in sorted(set(ks.hands[p])) for home in (False, True)]
    if phase == DRAFT:
        return list(draft_options(ks.draft_hands[p]))
    if phase == AGENT:
        return [0, 1, 2, 3]
    if phase == CLERIC:
        return list(cleric_options(ks))
    if phase == GOLD:
        return list(gold_options(ks, p))
    return []


def to_action(ks: KState, decision: Decision) -> Action:
    """The engine's action for a kernel decision in the current phase."""
    phase = ks.phase
    if phase == PLAY:
        kind, home = decision
        return Play(ALL_CARDS[kind], HOME if home else CAPITAL)
    if phase == DRAFT:
        return _pick(decision)
    if phase == AGENT:
        return _PLACES[decision]
    if phase == CLERIC:
        return _TAKES[decision]
    if phase == GOLD:
        return _save(decision)
    raise ValueError(f"no decision is pending in phase {PHASES[phase]}")


def from_action(action: Action) -> Decision:
    """The kernel's decision for an engine action (``to_action``'s inverse)."""
    if isinstance(action, Play):
        return KIND[action.card], action.to == HOME
    if isinstance(action, Pick):
        return tuple(KIND[c] for c in action.cards)
    if isinstance(action, (PlaceModifier, TakeLowest)):
        return _COLOUR_INDEX[action.colour]
    if isinstance(action, SaveWithGold):
        return tuple(_COLOUR_INDEX[c] for c in action.colours)
    raise ValueError(f"{action} is not a decision")


def legal_actions(ks: KState) -> list[Action]:
    """The engine's ``legal_actions`` for a decision (not for chance)."""
    return [to_action(ks, d) for d in options(ks)]


# -- policies -------------------------------------------------------------------------------
class KernelPolicy(Protocol):
    """Decides for the seat to move in a ``KState`` (``ks.current``), from what that seat may
    know, returning one of ``options(ks)``. ``random_below`` is set only by uniform policies,
    which the loop runs inline."""

    random_below: Callable[[int], int] | None
    random_bits: Callable[[int], int] | None

    def decide(self, ks: KState) -> Decision: ...


def randbelow(rng: random.Random) -> Callable[[int], int]:
    """The draw behind ``rng.choice`` and ``rng.randrange(n)``, without their per-call checks:
    ``randbelow(rng)(n)`` consumes the generator exactly as ``rng.randrange(n)`` does."""
    below: Callable[[int], int] = getattr(rng, "_randbelow")
    return below


#: Bits drawn for a number below ``m``: ``random.Random`` draws ``m.bit_length()`` bits and
#: draws again while the result is ``m`` or more; the loop does the same inline.
BITS: tuple[int, ...] = tuple(m.bit_length() for m in range(128))
_STANDARD_DRAW = getattr(random.Random, "_randbelow")


def random_bits(rng: random.Random) -> Callable[[int], int]:
    """``rng.getrandbits``, for the loop's inline draws (the same as ``randbelow``'s)."""
    if getattr(type(rng), "_randbelow", None) is not _STANDARD_DRAW:
        raise ValueError("the kernel draws numbers as random.Random does: give it a random.Random")
    return rng.getrandbits


class RandomPolicy:
    """Uniform over the legal decisions: the same choices as ``RandomBot`` and
    ``game.random_policy`` given the same generator."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.random_below: Callable[[int], int] | None = randbelow(rng)
        self.random_bits: Callable[[int], int] | None = random_bits(rng)

    def decide(self, ks: KState) -> Decision:
        choices = options(ks)
        return choices[randbelow(self.rng)(len(choices))]


def policy(kind: str, rng: random.Random) -> KernelPolicy:
    """A seat's kernel policy by bot kind ("random", "rule"; see ``players.policies``), deciding
    with ``rng``."""
    if kind == "random":
        return RandomPolicy(rng)
    from ..players import policies  # the bots' policies share their decision code (players.bots)

    return policies.make(kind, rng)


# -- the loop -----------------------------------------------------------------------------
#: Distinct cards of a hand, by the hand: hands recur, and a dictionary look-up is cheaper
#: than sorting a set.
_DISTINCT: dict[tuple[int, ...], list[int]] = {}


def play_out(ks: KState, policies: Sequence[KernelPolicy], rng: random.Random, until: str = "game",
             stop_seat: int | None = None, resume: bool = False) -> None:
    """Play on in place: decisions by each seat's policy, chance by ``rng``.

    ``until="game"`` stops at the game's end; ``until="round"`` after the round end of the
    current round (round 1 during setup): the next round has not been dealt yet. With
    ``stop_seat`` it also stops as soon as that seat has a decision to make; ``resume``
    makes the decision of ``stop_seat`` that ``ks`` stopped at instead of stopping again.
    """
    if until == "game":
        last_round = ROUNDS
    elif until == "round":
        last_round = max(ks.round, 1)
    else:
        raise ValueError(f"until must be 'round' or 'game', not {until!r}")
    below, bits = randbelow(rng), random_bits(rng)
    n = ks.players
    inline = [p.random_below for p in policies]
    inline_bits = [p.random_bits for p in policies]
    deck, hands, draft_hands, home, capital = ks.deck, ks.hands, ks.draft_hands, ks.home, ks.capital
    colour_of, value_of = COLOUR_OF, VALUE_OF
    phase, cur = ks.phase, ks.current
    while True:
        if phase == PLAY:
            if cur == stop_seat:
                if not resume:
                    break
                resume = False
            hand = hands[cur]
            seat_bits = inline_bits[cur]
            if seat_bits is not None:
                key = tuple(hand)
                distinct = _DISTINCT.get(key)
                if distinct is None:
                    distinct = _DISTINCT[key] = sorted(set(hand))
                m = 2 * len(distinct)
                i = seat_bits(BITS[m])
                while i >= m:
                    i = seat_bits(BITS[m])
                kind, to_home = distinct[i >> 1], i & 1
            else:
                ks.phase, ks.current = phase, cur
                kind, to_home = policies[cur].decide(ks)
            hand.remove(kind)
            c, v = colour_of[kind], value_of[kind]
            if to_home:
                insort(home[cur][c], v)
            else:
                insort(capital[c], v)
                if c == G:  # Scholar: draw if the deck has a card (ruling R10)
                    if deck:
                        phase = SCHOLAR
                        continue
                elif c == Y:  # Merchant: a gold disc if the pile has one
                    if ks.gold_pile:
                        ks.gold_pile -= 1
                        ks.gold[cur] += 1
                elif c == B:  # Agent: a modifier if there is one (ruling R11)
                    if ks.modifier_deck:
                        phase = AGENT_DRAW
                        continue
                else:  # Cleric (ruling R1, R2, R21)
                    takes = [k for k in CLERIC_COLOURS if capital[k]]
                    if len(takes) > 1:
                        phase = CLERIC
                        continue
                    if takes:
                        insort(home[cur][takes[0]], capital[takes[0]].pop(0))
        elif phase == DEAL:  # cards go round the table one at a time from the starting player
            size = ks.deal_size
            while True:
                m = len(deck)
                i = bits(BITS[m])
                while i >= m:
                    i = bits(BITS[m])
                insort(draft_hands[cur], deck.pop(i))
                cur = cur + 1 if cur + 1 < n else 0
                if len(draft_hands[cur]) >= size:
                    break
            ks.phase = phase
            _start_draft_step(ks, 1)
            phase, cur = ks.phase, ks.current
            continue
        elif phase == DRAFT:
            if cur == stop_seat:
                if not resume:
                    break
                resume = False
            held = draft_hands[cur]
            seat_bits = inline_bits[cur]
            cards: tuple[int, ...]
            if seat_bits is not None:
                h = len(held)
                if h > 2 and len(set(held)) == h:  # distinct cards: the i-th pair, counted
                    m = h * (h - 1) >> 1
                    i = seat_bits(BITS[m])
                    while i >= m:
                        i = seat_bits(BITS[m])
                    a = 0
                    while i >= h - 1 - a:
                        i -= h - 1 - a
                        a += 1
                    cards = held[a], held[a + 1 + i]
                else:
                    choices = draft_options(held)
                    m = len(choices)
                    i = seat_bits(BITS[m])
                    while i >= m:
                        i = seat_bits(BITS[m])
                    cards = choices[i]
            else:
                ks.phase, ks.current = phase, cur
                cards = policies[cur].decide(ks)
            picks = ks.draft_picks[cur]
            for kind in cards:
                held.remove(kind)
                insort(picks, kind)
            nxt = cur + 1 if cur + 1 < n else 0
            if nxt != ks.starting:  # picks are made in turn order but hidden (ruling R16)
                cur = nxt
            else:
                ks.phase, ks.current = phase, cur
                _pass_draft_hands(ks)
                phase, cur = ks.phase, ks.current
            continue
        elif phase == SCHOLAR:
            m = len(deck)
            i = bits(BITS[m])
            while i >= m:
                i = bits(BITS[m])
            insort(hands[cur], deck.pop(i))
        elif phase == AGENT_DRAW:
            mdeck = ks.modifier_deck
            ks.pending = mdeck.pop(below(len(mdeck)))
            phase = AGENT
            continue
        elif phase == AGENT:
            if cur == stop_seat:
                if not resume:
                    break
                resume = False
            pick = inline[cur]
            if pick is not None:
                colour = pick(4)
            else:
                ks.phase, ks.current = phase, cur
                colour = policies[cur].decide(ks)
            ks.mods[colour].append((cur, ks.pending))  # type: ignore[arg-type]  # set by the draw
            ks.pending = None
        elif phase == CLERIC:
            if cur == stop_seat:
                if not resume:
                    break
                resume = False
            pick = inline[cur]
            if pick is not None:
                takes = [k for k in CLERIC_COLOURS if capital[k]]
                colour = takes[pick(len(takes))]
            else:
                ks.phase, ks.current = phase, cur
                colour = policies[cur].decide(ks)
            insort(home[cur][colour], capital[colour].pop(0))
        elif phase == GOLD:
            if cur == stop_seat:
                if not resume:
                    break
                resume = False
            pick = inline[cur]
            ks.phase, ks.current = phase, cur
            if pick is not None:
                choices = gold_options(ks, cur)
                saved = choices[pick(len(choices))]
            else:
                saved = policies[cur].decide(ks)
            ks.gold_choices[cur] = saved
            ks.gold_queue.pop(0)
            if ks.gold_queue:
                cur = ks.gold_queue[0]
                continue
            _finish_round(ks)
            phase, cur = ks.phase, ks.current
            if ks.round > last_round:
                break
            continue
        elif phase == OVER:
            break
        else:  # setup
            ks.phase, ks.current = phase, cur
            _setup(ks, below)
            phase, cur = ks.phase, ks.current
            continue
        # The end of a turn: next seat clockwise, or the last turns once a hand runs out (R9).
        phase = PLAY
        last = ks.last_turns
        if last is None:
            if hands[cur]:
                cur = cur + 1 if cur + 1 < n else 0
                continue
            last = ks.last_turns = [(cur + i) % n for i in range(1, n)]
        while last:
            q = last.pop(0)
            if hands[q]:
                cur = q
                break
        else:
            ks.phase, ks.current = phase, cur
            _round_end(ks)
            phase, cur = ks.phase, ks.current
            if ks.round > last_round:
                break
    ks.phase, ks.current = phase, cur


def play_game(players: int, policies: Sequence[KernelPolicy], rng: random.Random) -> KState:
    """A whole game, like ``game.play_game``."""
    ks = new_state(players)
    play_out(ks, policies, rng)
    return ks


# -- the rare steps: setup, draft passing, round end -------------------------------------------
def _setup(ks: KState, below: Callable[[int], int]) -> None:
    if ks.phase == SETUP_CAPITAL:
        kind = ks.deck.pop(below(len(ks.deck)))
        insort(ks.capital[COLOUR_OF[kind]], VALUE_OF[kind])
        ks.phase, ks.current = SETUP_MODIFIERS, 0
        return
    value = ks.modifier_deck.pop(below(len(ks.modifier_deck)))  # one per seat (ruling R14)
    ks.setup_modifiers.append(value)
    if len(ks.setup_modifiers) < ks.players:
        ks.current = len(ks.setup_modifiers)
        return
    ks.starting = ks.setup_modifiers.index(max(ks.setup_modifiers))
    ks.modifier_deck = sorted(MODIFIERS)
    _start_round(ks, 1)


def _start_round(ks: KState, number: int) -> None:
    ks.round = number
    ks.last_turns = None
    ks.deal_size = min(hand_size(ks.players), len(ks.deck) // ks.players)  # ruling R15
    if ks.deal_size == 0:
        _round_end(ks)
        return
    ks.phase, ks.current = DEAL, ks.starting


def _start_draft_step(ks: KState, step: int) -> None:
    ks.draft_step = step
    ks.current = ks.starting
    if ks.draft_hands[ks.current]:
        ks.phase = DRAFT
    else:
        _pass_draft_hands(ks)


def _pass_draft_hands(ks: KState) -> None:
    """What is left passes to the next seat (ruling R20)."""
    dh = ks.draft_hands
    dh.insert(0, dh.pop())
    if ks.draft_step == 1:
        _start_draft_step(ks, 2)
        return
    for p in range(ks.players):
        ks.hands[p] = sorted(ks.draft_picks[p] + dh[p])
        dh[p] = []
        ks.draft_picks[p] = []
    ks.draft_step = 0
    ks.phase, ks.current = PLAY, ks.starting


#: Turn order by number of players and starting seat.
_ORDERS = {n: [[(start + i) % n for i in range(n)] for start in range(n)] for n in (2, 3, 4)}


def _limits(ks: KState) -> list[int]:
    """Each colour's capital total, modifiers included."""
    return [sum(cards) + sum(v for _, v in mods) if mods else sum(cards) for cards, mods in zip(ks.capital, ks.mods)]


def _round_end(ks: KState) -> None:
    """Hands into hometowns, reveal, then gold decisions (if any)."""
    for p in range(ks.players):
        town = ks.home[p]
        for kind in ks.hands[p]:
            insort(town[COLOUR_OF[kind]], VALUE_OF[kind])
        ks.hands[p] = []
    ks.phase = GOLD
    ks.gold_choices = [None] * ks.players
    limits = _limits(ks)
    queue = ks.gold_queue = []
    for p in _ORDERS[ks.players][max(ks.starting, 0)]:  # asked only if it can pay (R6, R21)
        gold = ks.gold[p]
        if gold and any(cards and 0 < sum(cards) - limit <= gold for cards, limit in zip(ks.home[p], limits)):
            queue.append(p)
    if queue:
        ks.current = queue[0]
        return
    _finish_round(ks)


def _finish_round(ks: KState) -> None:
    """Pay gold and discard (R6, R8), bonus cards (R4), then the next round (R12, R13)."""
    order = _ORDERS[ks.players][max(ks.starting, 0)]
    limits = _limits(ks)
    home, capital = ks.home, ks.capital
    sums = [[sum(cards) for cards in town] for town in home]
    for p in order:
        row, saved = sums[p], ks.gold_choices[p]
        for c in range(4):
            total = row[c]
            if not total or total <= limits[c]:
                continue
            if saved and c in saved:
                over = total - limits[c]
                ks.gold[p] -= over
                ks.gold_pile += over
                ks.gold_spent[p][c] += over
            else:  # discarded cards leave the game (R8)
                lost = home[p][c]
                ks.discards += [kind_of(c, v) for v in lost]
                ks.discards.sort()
                ks.cards_lost[p][c] += len(lost)
                ks.points_lost[p][c] += total
                home[p][c] = []
                row[c] = 0
    ks.gold_choices = [None] * ks.players
    ks.gold_queue = []
    for c in range(4):  # bonus cards: ties share out in turn order (R3, R5)
        best = max(sums[p][c] for p in order)
        if best <= 0:
            continue
        for p in order:
            if sums[p][c] != best:
                continue
            if not capital[c]:
                break
            insort(ks.bonus[p], kind_of(c, capital[c].pop()))
    if ks.round == ROUNDS:
        ks.phase, ks.current = OVER, -1
        return
    ks.mods = [[] for _ in COLOURS]
    ks.modifier_deck = sorted(MODIFIERS)
    totals = [sum(sums[p]) for p in order]
    ks.starting = order[totals.index(max(totals))]
    _start_round(ks, ks.round + 1)
