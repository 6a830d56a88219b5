"""The playout kernel's position: a whole game as integers and lists.

A card is its kind index (``ALL_CARDS[kind]``), a colour its index in ``COLOURS``,
the deck the sorted list of the kinds left (so a draw is one index). ``from_state``
and ``to_state`` convert exactly to and from the engine's ``GameState``; the
questions (scores, winners, gold options) and the decisions (``options``, in the
engine's ``legal_actions`` order) answer as the engine does. ``kernel`` plays it.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import TYPE_CHECKING, Any, Callable, Final, Protocol, Sequence

from .errors import UsageError
from .cards import ALL_CARDS, COLOUR_LETTERS, COLOURS, KIND, MODIFIERS, full_deck_counts
from .notation import CAPITAL, HOME, Action, Pick, PlaceModifier, Play, SaveWithGold, TakeLowest
from .state import PHASES, GameState

if TYPE_CHECKING:
    from .views import PlayerView


# The kernel's constants are ``Final``: compiled by mypyc, a final literal is a C constant and
# any other final name a C static, where a plain module name is a dictionary lookup at each use.
# Phases are their index in ``state.PHASES`` (tests/test_kernel.py checks it).
SETUP_CAPITAL: Final = 0
SETUP_MODIFIERS: Final = 1
DEAL: Final = 2
DRAFT: Final = 3
PLAY: Final = 4
SCHOLAR: Final = 5
AGENT_DRAW: Final = 6
AGENT: Final = 7
CLERIC: Final = 8
GOLD: Final = 9
OVER: Final = 10
CHANCE_PHASES: Final = frozenset({SETUP_CAPITAL, SETUP_MODIFIERS, DEAL, SCHOLAR, AGENT_DRAW})
# Colours are their index in ``cards.COLOURS``.
B: Final = 0
G: Final = 1
P: Final = 2
Y: Final = 3
CLERIC_COLOURS: Final = (B, G, Y)  # never pink (ruling R2)
#: Colour and value of each card kind.
COLOUR_OF: Final[tuple[int, ...]] = tuple(COLOURS.index(card.colour) for card in ALL_CARDS)
VALUE_OF: Final[tuple[int, ...]] = tuple(card.value for card in ALL_CARDS)
_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}


_FULL_DECK = [kind for kind, count in enumerate(full_deck_counts()) for _ in range(count)]


def insort(values: list[int], value: int) -> None:
    """``bisect.insort``, after any equal values, for the kernel's short sorted lists: compiled,
    a native loop costs less than a call through the module's dictionary to ``bisect``."""
    i = len(values)
    while i and values[i - 1] > value:
        i -= 1
    values.insert(i, value)


def total(values: list[int]) -> int:
    """``sum(values)``: compiled, a native loop where ``sum`` is a generic call."""
    result = 0
    for value in values:
        result += value
    return result


def kind_of(colour: int, value: int) -> int:
    return colour * 5 + value - 2


class KState:
    """A whole position as integers and lists (see the module docstring).

    Cards are kind indices, colours 0-3 in ``COLOURS`` order, every list of cards or
    values sorted as in ``GameState``. ``cards_lost``, ``points_lost`` and ``gold_spent``
    count per seat and colour what the round ends cost since this state was made, and
    ``reveal_limits`` are the capital's totals by colour (cards and modifiers, before the
    bonus cards leave) at the first reveal since then (empty before one; a round with no
    cards left to deal ends at once, in the same step as the round before it).
    """

    __slots__ = (
        "players", "round", "phase", "starting", "current", "deck", "hands", "deal_size", "draft_step",
        "draft_hands", "draft_picks", "home", "capital", "mods", "modifier_deck", "setup_modifiers",
        "pending", "gold", "gold_pile", "bonus", "discards", "last_turns", "gold_queue", "gold_choices",
        "cards_lost", "points_lost", "gold_spent", "reveal_limits",
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
        self.reveal_limits: list[int] = []

    def copy(self) -> KState:
        new = KState(0)  # every field is set below (a compiled class has no bare __new__)
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
        new.reveal_limits = self.reveal_limits[:]
        return new

    def __repr__(self) -> str:
        return f"<KState {self.players} players, round {self.round}, {PHASES[self.phase]}>"


def new_state(players: int) -> KState:
    """A game before setup, like ``state.new_game``."""
    if players not in (2, 3, 4):
        raise UsageError(f"Capital Lux is for 2 to 4 players, not {players}")
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


#: Bits drawn for a number below ``m``: ``random.Random`` draws ``m.bit_length()`` bits and
#: draws again while the result is ``m`` or more (``draw_below``).
BITS: Final[tuple[int, ...]] = tuple(m.bit_length() for m in range(128))
_STANDARD_DRAW: Final = getattr(random.Random, "_randbelow")


def draws_as_random(rng: random.Random) -> bool:
    """Whether ``rng`` draws numbers below ``m`` as ``random.Random`` does (``draw_below``)."""
    return getattr(type(rng), "_randbelow", None) is _STANDARD_DRAW


def draw_below(bits: Callable[[int], int], m: int) -> int:
    """A number below ``m`` (under ``len(BITS)``) from ``bits``, a generator's ``getrandbits``,
    consuming it exactly as ``randrange(m)`` does: the kernel's inline draws, made natively."""
    width = BITS[m]
    i = bits(width)
    while i >= m:
        i = bits(width)
    return i


def _shuffle(cards: list[int], rng: random.Random) -> None:
    """``rng.shuffle(cards)``, with its draws inline: the same swaps from the same bits
    (``draw_below``) when ``rng`` draws as ``random.Random`` does."""
    if len(cards) >= len(BITS) or not draws_as_random(rng):
        rng.shuffle(cards)
        return
    bits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        j = draw_below(bits, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


class Sampler(Protocol):
    """Deals one world consistent with a view (``sampler``)."""

    def __call__(self, rng: random.Random, values: Sequence[int] = ()) -> KState: ...


def sampler(v: PlayerView) -> Sampler:
    """``(rng, values) -> from_state(views.determinize(v, rng, values))``, without the ``GameState``.

    The search and the forward risk draw a world per sample from one view: what the view
    shows is converted once, and each sample only deals the unseen cards and modifiers.
    A sample consumes ``rng`` exactly as ``determinize`` does (the same shuffles of the
    same lengths, the same gold draws), so it is the same world: a bot still never sees
    the real hidden cards (``tests/test_kernel.py`` compares the two). ``values`` (may be
    empty) are chosen values for the face-down modifiers, in the order of the view's
    modifiers above each colour, then the others' pending draw: the forward risk's
    Bayesian placement draws them."""
    me, n = v.viewer, v.players
    base = KState(n)
    base.round, base.phase, base.starting, base.current = v.round, PHASES.index(v.phase), v.starting_player, v.current
    base.deal_size, base.draft_step = v.deal_size, v.draft_step
    base.home = [[list(town[c]) for c in COLOURS] for town in v.hometowns]
    base.capital = [list(v.capital[c]) for c in COLOURS]
    base.setup_modifiers = list(v.setup_modifiers)
    base.gold, base.gold_pile = list(v.gold), v.gold_pile
    base.bonus = [[KIND[c] for c in b] for b in v.bonus]
    base.discards = [KIND[c] for c in v.discards]
    base.last_turns = None if v.last_turns is None else list(v.last_turns)
    base.gold_queue = list(v.gold_waiting)
    pool = [kind for kind, count in enumerate(v.unseen_cards()) for _ in range(count)]
    own = ([KIND[c] for c in v.hand], sorted(KIND[c] for c in v.draft_hand), sorted(KIND[c] for c in v.draft_picks))
    sizes = (v.hand_sizes, v.draft_hand_sizes, v.draft_pick_counts)
    # The modifiers' places in determinize's order: face-down ones (None) take the unseen
    # values popped from the end of a shuffled list, colour by colour, then a pending draw.
    slots = [[(m.owner, m.value) for m in v.modifiers_above[c]] for c in COLOURS]
    unknown = list(v.unseen_modifiers())
    if base.phase == SETUP_MODIFIERS:
        for value in v.setup_modifiers:
            unknown.remove(value)
    agent, gold_phase = base.phase == AGENT, base.phase == GOLD
    own_choice = None if v.own_gold_choice is None else tuple(_COLOUR_INDEX[c] for c in v.own_gold_choice)

    def sample(rng: random.Random, values: Sequence[int] = ()) -> KState:
        ks = base.copy()
        cards = pool[:]
        _shuffle(cards, rng)
        at = 0
        for zone, mine, size in zip((ks.hands, ks.draft_hands, ks.draft_picks), own, sizes):
            for q in range(n):
                if q == me:
                    zone[q] = mine[:]
                else:
                    zone[q] = sorted(cards[at:at + size[q]])
                    at += size[q]
        ks.deck = sorted(cards[at:])
        hidden = unknown[:]
        _shuffle(hidden, rng)
        if values:  # as determinize: the chosen values are popped first, in slot order
            for value in values:
                hidden.remove(value)
            hidden += reversed(values)
        ks.mods = [[(owner, hidden.pop() if value is None else value) for owner, value in places] for places in slots]
        if agent:
            ks.pending = v.pending_modifier if v.current == me else hidden.pop()
        ks.modifier_deck = sorted(hidden)
        if gold_phase:
            ks.gold_choices = [None] * n
            ks.gold_choices[me] = own_choice
            for q in range(n):  # the others' secret decisions, drawn among their options
                if q != me and q not in ks.gold_queue:
                    options = gold_options(ks, q)
                    if len(options) > 1:
                        ks.gold_choices[q] = rng.choice(options)
        return ks

    return sample


# -- questions ---------------------------------------------------------------------------
def capital_total(ks: KState, colour: int) -> int:
    """Cards plus every modifier above (what the engine's ``capital_total`` gives)."""
    return sum(ks.capital[colour]) + sum(v for _, v in ks.mods[colour])


def limits(ks: KState) -> list[int]:
    """Every colour's ``capital_total`` at once (the hometown limits, modifiers included)."""
    capital, mods, totals = ks.capital, ks.mods, [0, 0, 0, 0]
    for c in range(4):
        limit = total(capital[c])
        for _, value in mods[c]:
            limit += value
        totals[c] = limit
    return totals


def excess(ks: KState, seat: int, colour: int) -> int:
    """How far a hometown colour exceeds the capital; 0 for an empty colour (ruling R7)."""
    cards = ks.home[seat][colour]
    if not cards:
        return 0
    over = sum(cards) - capital_total(ks, colour)
    return over if over > 0 else 0


def gold_options(ks: KState, seat: int) -> list[tuple[int, ...]]:
    """The engine's ``gold_options`` in its sorted order, as colour-index tuples."""
    return gold_choices([excess(ks, seat, c) for c in range(4)], ks.gold[seat])


def gold_choices(costs: list[int], gold: int) -> list[tuple[int, ...]]:
    """``gold_options`` of a seat whose colours cost ``costs`` (0: not over) and who holds ``gold``."""
    exceeding = [c for c in range(4) if costs[c]]
    return sorted(
        combo for size in range(len(exceeding) + 1) for combo in combinations(exceeding, size)
        if sum(costs[c] for c in combo) <= gold
    )


#: The pairs of positions in a draft hand of distinct sorted cards, by its size: its
#: ``draft_options`` (sorted combinations) as positions, so that a uniform pick is one draw.
PAIRS: Final[list[list[tuple[int, int]]]] = [[(a, b) for a in range(h) for b in range(a + 1, h)] for h in range(13)]


def draft_options(held: list[int]) -> list[tuple[int, ...]]:
    """Every distinct choice of min(2, held) cards from ``held`` (sorted), in order: the
    engine's ``draft_picks``, ``sorted(set(combinations(held, 2)))`` without the set."""
    n = len(held)
    if n < 2:
        return [tuple(held)]
    found: list[tuple[int, ...]] = []
    for a in range(n - 1):
        if a and held[a] == held[a - 1]:
            continue
        for b in range(a + 1, n):
            if b > a + 1 and held[b] == held[b - 1]:
                continue
            found.append((held[a], held[b]))
    return found


def copies(cards: list[int]) -> int:
    """How many of the (sorted) ``cards`` repeat an earlier one: ``len(cards) - len(set(cards))``."""
    repeats = 0
    for i in range(1, len(cards)):
        if cards[i] == cards[i - 1]:
            repeats += 1
    return repeats


def cleric_options(ks: KState) -> list[int]:
    capital = ks.capital
    return [c for c in CLERIC_COLOURS if capital[c]]


def scores(ks: KState) -> list[int]:
    found = []
    for p in range(ks.players):
        town, score = ks.home[p], ks.gold[p]
        for c in range(4):
            score += total(town[c])
        for kind in ks.bonus[p]:
            score += VALUE_OF[kind]
        found.append(score)
    return found


def _tie_key(ks: KState, p: int, score: int) -> tuple[int, ...]:
    values = [v for cards in ks.home[p] for v in cards] + [VALUE_OF[k] for k in ks.bonus[p]]
    return (score, *(values.count(v) for v in (6, 5, 4, 3, 2)))


def standings(ks: KState) -> tuple[list[int], list[int], list[int]]:
    """Scores, winners and ranks at once (``scores``, ``winners``, ``ranks``).

    The tie-break counts (ruling R17) matter only between equal scores, so only tied
    seats' keys carry them: a key ``(score,)`` and a key ``(score, counts...)`` compare
    by score alone when the scores differ."""
    value_of = VALUE_OF.__getitem__
    points = [sum(map(sum, town)) + sum(map(value_of, bonus)) + gold
              for town, bonus, gold in zip(ks.home, ks.bonus, ks.gold)]
    keys: list[tuple[int, ...]] = []
    for p, score in enumerate(points):
        if points.count(score) == 1:
            keys.append((score,))
            continue
        values = [v for cards in ks.home[p] for v in cards] + [VALUE_OF[k] for k in ks.bonus[p]]
        keys.append((score, values.count(6), values.count(5), values.count(4), values.count(3), values.count(2)))
    best = max(keys)
    return points, [p for p, key in enumerate(keys) if key == best], [1 + sum(map(mine.__lt__, keys)) for mine in keys]


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
_TAKES = {c: TakeLowest(COLOUR_LETTERS[c]) for c in CLERIC_COLOURS}
_PLACES = [PlaceModifier(c) for c in COLOUR_LETTERS]
_SAVES: dict[tuple[int, ...], SaveWithGold] = {}


def _pick(combo: tuple[int, ...]) -> Pick:
    pick = _PICKS.get(combo)
    if pick is None:
        pick = _PICKS[combo] = Pick(tuple(ALL_CARDS[k] for k in combo))
    return pick


def _save(combo: tuple[int, ...]) -> SaveWithGold:
    save = _SAVES.get(combo)
    if save is None:
        save = _SAVES[combo] = SaveWithGold(tuple(COLOUR_LETTERS[c] for c in combo))
    return save


#: A kernel decision: ``(kind, to_home)`` for a play, the kinds picked in the draft, a colour
#: index for an Agent or a Cleric, the colour indices saved with gold.
Decision = Any


#: The plays of each card kind, to the capital and home, made once.
_PLAYS: Final = [((kind, False), (kind, True)) for kind in range(len(ALL_CARDS))]


def options(ks: KState) -> list[Decision]:
    """The decisions open to the seat to move, in the engine's ``legal_actions`` order."""
    phase, p = ks.phase, ks.current
    if phase == PLAY:
        plays: list[Decision] = []
        last = -1
        for k in ks.hands[p]:  # sorted: each kind once
            if k != last:
                capital, home = _PLAYS[k]
                plays.append(capital)
                plays.append(home)
                last = k
        return plays
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
    raise UsageError(f"no decision is pending in phase {PHASES[phase]}")


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
    raise UsageError(f"{action} is not a decision")


def legal_actions(ks: KState) -> list[Action]:
    """The engine's ``legal_actions`` for a decision (not for chance)."""
    return [to_action(ks, d) for d in options(ks)]
