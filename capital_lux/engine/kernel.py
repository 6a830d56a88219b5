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
from typing import Callable, Final, Protocol, Sequence

from .errors import UsageError
from .cards import MODIFIERS
from .kernel_state import (  # the kernel's public API: the state, its questions and decisions
    AGENT, AGENT_DRAW, B, CHANCE_PHASES, CLERIC, CLERIC_COLOURS, COLOUR_OF, DEAL, DRAFT, GOLD, OVER, PAIRS, PLAY,
    SCHOLAR, SETUP_CAPITAL, SETUP_MODIFIERS, VALUE_OF, Decision, G, KState, P, Y, capital_total, cleric_options,
    copies, draft_options, draw_below, draws_as_random, excess, from_action, from_state, gold_options, insort,
    kind_of, legal_actions, limits, new_state, options, ranks, sampler, scores, standings, to_action, to_state, total,
    turn_order, winners,
)
from .state import ROUNDS, hand_size

__all__ = [
    "AGENT", "AGENT_DRAW", "B", "CHANCE_PHASES", "CLERIC", "CLERIC_COLOURS", "COLOUR_OF", "DEAL", "DRAFT", "GOLD",
    "OVER", "PLAY", "SCHOLAR", "SETUP_CAPITAL", "SETUP_MODIFIERS", "VALUE_OF", "Decision", "G", "KState", "P", "Y",
    "capital_total", "cleric_options", "draft_options", "excess", "from_action", "from_state", "gold_options",
    "kind_of", "legal_actions", "limits", "new_state", "options", "ranks", "sampler", "scores", "standings",
    "to_action", "to_state", "total", "turn_order", "winners", "KernelPolicy", "First", "RandomPolicy", "randbelow",
    "random_bits", "policy", "play_out", "play_game", "round_end", "finish_round",
]

# -- policies -------------------------------------------------------------------------------
class KernelPolicy(Protocol):
    """Decides for the seat to move in a ``KState`` (``ks.current``), from what that seat may
    know, returning one of ``options(ks)``. ``random_below`` and ``random_bits`` are set only
    by uniform policies (``RandomPolicy``): the loop makes their decisions inline with
    ``random_bits``, drawing exactly as their ``decide`` would."""

    random_below: Callable[[int], int] | None
    random_bits: Callable[[int], int] | None

    def decide(self, ks: KState) -> Decision: ...


def randbelow(rng: random.Random) -> Callable[[int], int]:
    """The draw behind ``rng.choice`` and ``rng.randrange(n)``, without their per-call checks:
    ``randbelow(rng)(n)`` consumes the generator exactly as ``rng.randrange(n)`` does."""
    below: Callable[[int], int] = getattr(rng, "_randbelow")
    return below


def random_bits(rng: random.Random) -> Callable[[int], int]:
    """``rng.getrandbits``, for the loop's inline draws (``draw_below``: the same as ``randbelow``'s)."""
    if not draws_as_random(rng):
        raise UsageError("the kernel draws numbers as random.Random does: give it a random.Random")
    return rng.getrandbits


class First:
    """A seat that makes ``first`` (when set) its next decision, then decides by ``then``: the
    move a forward look compares, or the search tree's choice, before the play-out's policy."""

    random_below: Callable[[int], int] | None = None
    random_bits: Callable[[int], int] | None = None

    def __init__(self, then: KernelPolicy, first: Decision | None = None) -> None:
        self.then = then
        self.first = first

    def decide(self, ks: KState) -> Decision:
        decision = self.first
        if decision is None:
            return self.then.decide(ks)
        self.first = None
        return decision


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


# -- the loop -----------------------------------------------------------------------------
#: The Cleric's colours (never pink) by which of blue, green and yellow have capital cards,
#: as the bit mask ``1 * blue + 2 * green + 4 * yellow``.
_CLERIC_TAKES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(c for bit, c in ((1, B), (2, G), (4, Y)) if mask & bit) for mask in range(8))


def play_out(ks: KState, policies: Sequence[KernelPolicy], rng: random.Random, until: str = "game",
             stop_seat: int | None = None, resume: bool = False) -> None:
    """Play on in place: decisions by each seat's policy, chance by ``rng``.

    ``until="game"`` stops at the game's end; ``until="round"`` after the round end of the
    current round (round 1 during setup): the next round has not been dealt yet. With
    ``stop_seat`` it also stops as soon as that seat has a decision to make; ``resume``
    makes the decision of ``stop_seat`` that ``ks`` stopped at instead of stopping again.

    Uniform seats (``random_bits`` set) are decided inline: a number below ``m`` drawn
    as ``random.Random`` draws it (``draw_below``), so the generator is consumed exactly
    as by ``RandomPolicy.decide``. The chance that follows
    a play (the Scholar's card, the Agent's modifier) and an inline seat's Agent or Cleric
    choice are resolved in the same step, without going round the loop; the phases
    ``SCHOLAR``, ``AGENT_DRAW``, ``AGENT`` and ``CLERIC`` remain for positions that stop or
    start there and for seats with a ``decide``.
    """
    if until == "game":
        last_round = ROUNDS
    elif until == "round":
        last_round = max(ks.round, 1)
    else:
        raise UsageError(f"until must be 'round' or 'game', not {until!r}")
    below, bits = randbelow(rng), random_bits(rng)
    n = ks.players
    # The stop seat is never inline: it goes through the branch that stops (and, resumed,
    # asks its policy, whose ``decide`` draws as the inline path would).
    inline = [None if seat == stop_seat else p.random_bits for seat, p in enumerate(policies)]
    deck, hands, draft_hands, home, capital, gold = ks.deck, ks.hands, ks.draft_hands, ks.home, ks.capital, ks.gold
    colour_of, value_of = COLOUR_OF, VALUE_OF
    clockwise = _ORDERS[n][1]  # clockwise[seat]: the next seat
    # Copies beyond the first in each hand (kept up to date as hands change): a hand
    # without any, the usual case, lists its own distinct cards, so a uniform play needs
    # no set. Recounted whenever hands are made (the draft's end).
    extra = [copies(h) for h in hands]
    phase, cur = ks.phase, ks.current
    stop = -1 if stop_seat is None else stop_seat  # an int: compiled, a plain comparison
    while True:
        # The stop seat's decision, once for every phase that asks one: stop there, or make
        # it if resumed. The stop seat is never inline, so no inline branch below needs this.
        if cur == stop and (phase == PLAY or phase == DRAFT or phase == GOLD or phase == AGENT or phase == CLERIC):
            if not resume:
                break
            resume = False
        if phase == PLAY:
            hand = hands[cur]
            seat_bits = inline[cur]
            if seat_bits is None:
                ks.phase, ks.current = phase, cur
                kind, to_home = policies[cur].decide(ks)
                hand.remove(kind)
                if extra[cur] and kind in hand:
                    extra[cur] -= 1
            elif extra[cur]:  # a card held twice: the plays are those of the distinct cards
                distinct = sorted(set(hand))
                m = 2 * len(distinct)
                i = draw_below(seat_bits, m)
                kind, to_home = distinct[i >> 1], i & 1
                hand.remove(kind)
                if kind in hand:
                    extra[cur] -= 1
            else:  # distinct cards (the usual hand): each to the capital or home, in order
                m = 2 * len(hand)
                i = draw_below(seat_bits, m)
                kind, to_home = hand.pop(i >> 1), i & 1
            c, v = colour_of[kind], value_of[kind]
            if to_home:
                insort(home[cur][c], v)
            else:
                insort(capital[c], v)
                if c == G:  # Scholar: draw if the deck has a card (ruling R10)
                    if deck:
                        m = len(deck)
                        i = draw_below(bits, m)
                        kind = deck.pop(i)
                        if kind in hand:
                            extra[cur] += 1
                        insort(hand, kind)
                elif c == Y:  # Merchant: a gold disc if the pile has one
                    if ks.gold_pile:
                        ks.gold_pile -= 1
                        gold[cur] += 1
                elif c == B:  # Agent: a modifier if there is one (ruling R11)
                    mdeck = ks.modifier_deck
                    if mdeck:
                        m = len(mdeck)
                        i = draw_below(bits, m)
                        pending = mdeck.pop(i)
                        seat_bits = inline[cur]
                        if seat_bits is None:
                            ks.pending = pending
                            phase = AGENT
                            continue
                        i = draw_below(seat_bits, 4)  # a colour: a number below 4 takes 3 bits
                        ks.mods[i].append((cur, pending))
                else:  # Cleric (ruling R1, R2, R21)
                    takes = _CLERIC_TAKES[(1 if capital[B] else 0) | (2 if capital[G] else 0)
                                          | (4 if capital[Y] else 0)]
                    if len(takes) > 1:
                        seat_bits = inline[cur]
                        if seat_bits is None:
                            phase = CLERIC
                            continue
                        m = len(takes)
                        i = draw_below(seat_bits, m)
                        c = takes[i]
                        insort(home[cur][c], capital[c].pop(0))
                    elif takes:
                        c = takes[0]
                        insort(home[cur][c], capital[c].pop(0))
        elif phase == DRAFT:
            held = draft_hands[cur]
            seat_bits = inline[cur]
            picks = ks.draft_picks[cur]
            h = len(held)
            if seat_bits is not None and 2 < h < len(PAIRS) and not copies(held):
                pairs = PAIRS[h]  # distinct cards: the i-th pair of positions
                m = len(pairs)
                i = draw_below(seat_bits, m)
                a, b = pairs[i]
                second = held.pop(b)
                insort(picks, held.pop(a))
                insort(picks, second)
            else:
                cards: tuple[int, ...]
                if seat_bits is not None:
                    choices = draft_options(held)
                    m = len(choices)
                    i = draw_below(seat_bits, m)
                    cards = choices[i]
                else:
                    ks.phase, ks.current = phase, cur
                    cards = policies[cur].decide(ks)
                for kind in cards:
                    held.remove(kind)
                    insort(picks, kind)
            cur = clockwise[cur]
            if cur == ks.starting:  # picks are made in turn order but hidden (ruling R16)
                ks.phase = phase
                _pass_draft_hands(ks)
                phase, cur = ks.phase, ks.current
                if phase == PLAY:
                    extra = [copies(h) for h in hands]
            continue
        elif phase == DEAL:  # cards go round the table one at a time from the starting player
            size = ks.deal_size
            if any(draft_hands):  # a position in mid-deal: to the next seat until its hand is full
                while True:
                    m = len(deck)
                    i = draw_below(bits, m)
                    insort(draft_hands[cur], deck.pop(i))
                    cur = cur + 1 if cur + 1 < n else 0
                    if len(draft_hands[cur]) >= size:
                        break
            else:  # the whole deal: the same draws, each hand sorted once at the end
                order = [draft_hands[p] for p in _ORDERS[n][cur]]
                for m, dealt in zip(range(len(deck), 0, -1), order * size):  # m: cards left in the deck
                    i = draw_below(bits, m)
                    dealt.append(deck.pop(i))
                for dealt in order:
                    dealt.sort()
            ks.phase = phase
            _start_draft_step(ks, 1)
            phase, cur = ks.phase, ks.current
            if phase == PLAY:
                extra = [copies(h) for h in hands]
            continue
        elif phase == GOLD:
            seat_bits = inline[cur]
            ks.phase, ks.current = phase, cur
            if seat_bits is not None:
                choices = gold_options(ks, cur)
                m = len(choices)
                i = draw_below(seat_bits, m)
                saved = choices[i]
            else:
                saved = policies[cur].decide(ks)
            ks.gold_choices[cur] = saved
            ks.gold_queue.pop(0)
            if ks.gold_queue:
                cur = ks.gold_queue[0]
                continue
            finish_round(ks)
            phase, cur = ks.phase, ks.current
            if ks.round > last_round:
                break
            continue
        elif phase == SCHOLAR:  # a position that stopped or started before the draw
            m = len(deck)
            i = draw_below(bits, m)
            kind = deck.pop(i)
            if kind in hands[cur]:
                extra[cur] += 1
            insort(hands[cur], kind)
            phase = PLAY
        elif phase == AGENT_DRAW:
            mdeck = ks.modifier_deck
            ks.pending = mdeck.pop(below(len(mdeck)))
            phase = AGENT
            continue
        elif phase == AGENT:
            seat_bits = inline[cur]
            if seat_bits is not None:
                colour = draw_below(seat_bits, 4)
            else:
                ks.phase, ks.current = phase, cur
                colour = policies[cur].decide(ks)
            ks.mods[colour].append((cur, ks.pending))  # type: ignore[arg-type]  # set by the draw
            ks.pending = None
            phase = PLAY
        elif phase == CLERIC:
            seat_bits = inline[cur]
            if seat_bits is not None:
                takes = _CLERIC_TAKES[(1 if capital[B] else 0) | (2 if capital[G] else 0) | (4 if capital[Y] else 0)]
                m = len(takes)
                i = draw_below(seat_bits, m)
                colour = takes[i]
            else:
                ks.phase, ks.current = phase, cur
                colour = policies[cur].decide(ks)
            insort(home[cur][colour], capital[colour].pop(0))
            phase = PLAY
        elif phase == OVER:
            break
        else:  # setup
            ks.phase, ks.current = phase, cur
            _setup(ks, below)
            phase, cur = ks.phase, ks.current
            continue
        # The end of a turn (the branches above that get here leave ``phase`` at PLAY): the
        # next seat clockwise, or the last turns once a hand runs out (R9).
        last = ks.last_turns
        if last is None:
            if hands[cur]:
                cur = clockwise[cur]
                continue
            last = ks.last_turns = [(cur + i) % n for i in range(1, n)]
        while last:
            q = last.pop(0)
            if hands[q]:
                cur = q
                break
        else:
            ks.phase, ks.current = phase, cur
            round_end(ks)
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
        round_end(ks)
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
_ORDERS: Final = {n: [[(start + i) % n for i in range(n)] for start in range(n)] for n in (2, 3, 4)}
#: ``kind_of(colour, value)`` as a table: ``_KIND_OF[colour][value]``.
_KIND_OF: Final = [[kind_of(c, v) if v >= 2 else -1 for v in range(7)] for c in range(4)]
_SORTED_MODIFIERS: Final = sorted(MODIFIERS)


def round_end(ks: KState) -> None:
    """Hands into hometowns, reveal, then gold decisions (if any)."""
    home, hands, n = ks.home, ks.hands, ks.players
    for p in range(n):
        if hands[p]:
            town = home[p]
            for kind in hands[p]:
                insort(town[COLOUR_OF[kind]], VALUE_OF[kind])
            hands[p] = []
    ks.phase = GOLD
    ks.gold_choices = [None] * n
    tops = limits(ks)
    if not ks.reveal_limits:
        ks.reveal_limits = tops
    sums = home_totals(home)
    queue: list[int] = []
    gold = ks.gold
    for p in _ORDERS[n][max(ks.starting, 0)]:  # asked only if it can pay (R6, R21)
        if gold[p]:
            row = sums[p]
            for c in range(4):
                total = row[c]
                if total and 0 < total - tops[c] <= gold[p]:  # a colour with cards (values are 2 or more)
                    queue.append(p)
                    break
    ks.gold_queue = queue
    if queue:
        ks.current = queue[0]
        return
    finish_round(ks, tops, sums)


def finish_round(ks: KState, tops: list[int] | None = None, sums: list[list[int]] | None = None) -> None:
    """Pay gold and discard (R6, R8), bonus cards (R4), then the next round (R12, R13).

    ``tops`` are ``limits(ks)`` and ``sums`` the hometowns' colour totals if the caller
    has them (the gold decisions change neither)."""
    n = ks.players
    order = _ORDERS[n][max(ks.starting, 0)]
    if tops is None:
        tops = limits(ks)
    home, capital, choices = ks.home, ks.capital, ks.gold_choices
    if sums is None:
        sums = home_totals(home)
    discarded = False
    for p in order:
        row = sums[p]
        saved = choices[p]
        for c in range(4):
            total = row[c]
            if total <= tops[c] or not total:
                continue
            if saved and c in saved:
                over = total - tops[c]
                ks.gold[p] -= over
                ks.gold_pile += over
                ks.gold_spent[p][c] += over
            else:  # discarded cards leave the game (R8)
                lost = home[p][c]
                kinds = _KIND_OF[c]
                for v in lost:
                    ks.discards.append(kinds[v])
                discarded = True
                ks.cards_lost[p][c] += len(lost)
                ks.points_lost[p][c] += total
                home[p][c] = []
                row[c] = 0
    if discarded:
        ks.discards.sort()
    ks.gold_choices = [None] * n
    ks.gold_queue = []
    for c in range(4):  # bonus cards: ties share out in turn order (R3, R5)
        cards = capital[c]
        best, first, ties = 0, -1, 0  # the most any seat has left, the first seat with it, how many
        for p in range(n):
            total = sums[p][c]
            if total > best:
                best, first, ties = total, p, 1
            elif total == best:
                ties += 1
        if best <= 0 or not cards:
            continue
        if ties == 1:  # the usual case: one seat has the most
            insort(ks.bonus[first], _KIND_OF[c][cards.pop()])
            continue
        for p in order:
            if sums[p][c] != best:
                continue
            if not cards:
                break
            insort(ks.bonus[p], _KIND_OF[c][cards.pop()])
    if ks.round == ROUNDS:
        ks.phase, ks.current = OVER, -1
        return
    ks.mods = [[], [], [], []]
    ks.modifier_deck = _SORTED_MODIFIERS[:]
    starting, most = -1, -1  # the first in turn order among the highest (R12)
    for p in order:
        row = sums[p]
        total = row[0] + row[1] + row[2] + row[3]
        if total > most:
            starting, most = p, total
    ks.starting = starting
    _start_round(ks, ks.round + 1)


def home_totals(home: list[list[list[int]]]) -> list[list[int]]:
    """Each seat's hometown totals by colour."""
    sums = []
    for town in home:
        sums.append([total(town[0]), total(town[1]), total(town[2]), total(town[3])])
    return sums
