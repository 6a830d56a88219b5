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
from typing import Callable, Protocol, Sequence

from .cards import COLOURS, MODIFIERS
from .kernel_state import (  # the kernel's public API: the state, its questions and decisions
    AGENT, AGENT_DRAW, B, CHANCE_PHASES, CLERIC, CLERIC_COLOURS, COLOUR_OF, DEAL, DRAFT, GOLD, OVER, PLAY,
    SCHOLAR, SETUP_CAPITAL, SETUP_MODIFIERS, VALUE_OF, Decision, G, KState, P, Y, capital_total, cleric_options,
    draft_options, excess, from_action, from_state, gold_options, kind_of, legal_actions, new_state, options,
    ranks, scores, standings, to_action, to_state, turn_order, winners,
)
from .state import ROUNDS, hand_size

__all__ = [
    "AGENT", "AGENT_DRAW", "B", "CHANCE_PHASES", "CLERIC", "CLERIC_COLOURS", "COLOUR_OF", "DEAL", "DRAFT", "GOLD",
    "OVER", "PLAY", "SCHOLAR", "SETUP_CAPITAL", "SETUP_MODIFIERS", "VALUE_OF", "Decision", "G", "KState", "P", "Y",
    "capital_total", "cleric_options", "draft_options", "excess", "from_action", "from_state", "gold_options",
    "kind_of", "legal_actions", "new_state", "options", "ranks", "scores", "standings", "to_action", "to_state",
    "turn_order", "winners", "KernelPolicy", "RandomPolicy", "randbelow", "random_bits", "BITS", "policy",
    "play_out", "play_game",
]

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
    """A seat's kernel policy by name ("random", "rule", "quick"; see ``players.policies``),
    deciding with ``rng``."""
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
