"""Which tables a game of Capital Lux can reach: the checks behind every loaded position.

``validate(state)`` refuses, with a ``PositionError`` naming the problem, any
state that no sequence of legal actions produces: every one of the 72 cards,
8 gold discs and 4 modifiers accounted for exactly once, and each phase's
bookkeeping (the deal, the draft's picks, whose turn it is, the last turns,
the gold decisions) as the rules leave it. A position that passes can be
played to the end (``tests/test_fuzz_loaders.py`` plays on from mutated ones).

>>> from .state import new_game
>>> validate(new_game(3))
>>> s = new_game(3); s.gold[0] = 1
>>> validate(s)
Traceback (most recent call last):
...
capital_lux.engine.errors.PositionError: gold discs add up to 9; the game has 8
"""

from __future__ import annotations

from collections import Counter

from .cards import ALL_CARDS, COLOURS, COPIES, GOLD_DISCS, MODIFIERS, N_, Card, format_modifier
from .errors import PositionError as PositionError  # re-exported: callers import it here
from .notation import SaveWithGold
from .phases import (
    AGENT,
    AGENT_DRAW,
    CLERIC,
    DEAL,
    DRAFT,
    GOLD,
    OVER,
    PLAY,
    ROUNDS,
    SCHOLAR,
    SETUP_CAPITAL,
    SETUP_MODIFIERS,
    hand_size,
)
from .rules import cleric_options, gold_options, must_decide_gold
from .state import GameState

#: Phases of a turn in progress: a card has been or is being played.
TURN_PHASES = frozenset({PLAY, SCHOLAR, AGENT_DRAW, AGENT, CLERIC})


def validate(s: GameState) -> None:
    """Refuse a state that no game of Capital Lux can reach in its phase."""
    _check_cards(s)
    _check_modifiers(s)
    if sum(s.gold) + s.gold_pile != GOLD_DISCS or min(s.gold + [s.gold_pile]) < 0:
        raise PositionError(N_("gold discs add up to {total}; the game has {gold}"), total=sum(s.gold) + s.gold_pile,
                            gold=GOLD_DISCS)
    _check_phase(s)
    _check_setup(s)
    if s.phase in (DEAL, DRAFT):
        _check_draft(s)
    _check_turns(s)
    _check_gold(s)


def _check_cards(s: GameState) -> None:
    found: Counter[Card] = Counter()
    for kind, count in enumerate(s.deck):
        found[ALL_CARDS[kind]] += count
    for zone in s.hands + s.draft_hands + s.draft_picks + s.bonus + [s.discards]:
        found.update(zone)
    for town in [s.capital, *s.hometowns]:
        found.update(Card(c, v) for c, values in town.items() for v in values)
    for card in ALL_CARDS:
        if found[card] != COPIES[card.value]:
            raise PositionError(
                N_("{card} appears {found} times; the game has {copies} ({total} cards in all where the game has 72)"),
                card=str(card), found=found[card], copies=COPIES[card.value], total=sum(found.values()),
            )


def _check_modifiers(s: GameState) -> None:
    held = s.modifier_deck + [v for c in COLOURS for _, v in s.modifiers_above[c]]
    if s.pending_modifier is not None:
        held.append(s.pending_modifier)
    if s.phase == SETUP_MODIFIERS:
        held += s.setup_modifiers
    if sorted(held) != sorted(MODIFIERS):
        names = ", ".join(format_modifier(v) for v in sorted(held))
        expected = ", ".join(format_modifier(v) for v in MODIFIERS)
        raise PositionError(N_("the modifiers are {names}; expected each of {expected} exactly once"),
                            names=names or "-", expected=expected)


def _check_phase(s: GameState) -> None:
    n, phase, p = s.players, s.phase, s.current
    setup = phase in (SETUP_CAPITAL, SETUP_MODIFIERS)
    if setup != (s.round == 0) or (phase == OVER and s.round != ROUNDS):
        raise PositionError(N_("phase {phase} does not fit round {round} (round 0 is the setup)"), phase=phase,
                            round=s.round)
    if not setup and not 0 <= s.starting_player < n:
        raise PositionError(N_("a starting player is needed once the setup is done"))
    if phase not in (SETUP_CAPITAL, OVER) and not 0 <= p < n:
        raise PositionError(N_("phase {phase} needs a current player (0 to {last}), not {p}"), phase=phase,
                            last=n - 1, p=p)
    drafting = phase in (DEAL, DRAFT)
    if not drafting and (any(s.draft_hands + s.draft_picks) or s.draft_step):
        raise PositionError(N_("draft cards are only held while dealing or drafting, not in phase {phase}"),
                            phase=phase)
    if drafting and any(s.hands):
        raise PositionError(N_("hands are empty while dealing and drafting: the draft makes them"))
    if (phase == AGENT) != (s.pending_modifier is not None):
        raise PositionError(N_("a drawn modifier waits to be placed exactly when the phase is agent"))
    if phase in (SETUP_CAPITAL, SETUP_MODIFIERS, GOLD, OVER) and any(s.hands):
        raise PositionError(N_("no player holds a hand in phase {phase}"), phase=phase)
    if phase == PLAY and not s.hands[p]:
        raise PositionError(N_("player {p} is to play but has no card in hand"), p=p)
    if phase == CLERIC and len(cleric_options(s)) < 2:
        raise PositionError(N_("a Cleric choice needs at least two of blue, green, yellow in the capital"))
    if phase == SCHOLAR and not s.deck_size():
        raise PositionError(N_("a Scholar draw needs a card in the deck"))
    if phase == AGENT_DRAW and not s.modifier_deck:
        raise PositionError(N_("an Agent draw needs a modifier in the modifier deck"))
    if phase in (SETUP_CAPITAL, SETUP_MODIFIERS, DEAL, DRAFT) and any(s.modifiers_above.values()):
        raise PositionError(N_("no modifier lies above the capital before the first card of a round is played"))


def _check_setup(s: GameState) -> None:
    """The setup: one capital card, then one modifier per seat in seat order (ruling R14)."""
    n, phase = s.players, s.phase
    if phase == SETUP_CAPITAL:
        untouched = s.deck_size() == 72 and s.gold_pile == GOLD_DISCS and not s.setup_modifiers
        if not untouched or s.current != -1:
            raise PositionError(N_("before the setup every card is in the deck and every gold disc in the pile"))
        return
    setup = s.setup_modifiers
    if phase == SETUP_MODIFIERS:
        placed = sum(len(v) for v in s.capital.values())
        if placed != 1 or s.deck_size() != 71 or s.gold_pile != GOLD_DISCS or s.current != len(setup):
            raise PositionError(N_("while the starting player is decided, one card is in the capital and seat "
                                   "{seat} receives the next modifier"), seat=len(setup))
        return
    if not setup:  # a table laid out by hand may leave them out: they no longer matter
        return
    if len(setup) != n or len(set(setup)) != n:
        raise PositionError(N_("the setup dealt {count} modifiers; {n} players get one each"), count=len(setup), n=n)
    if s.round == 1 and s.starting_player != setup.index(max(setup)):
        raise PositionError(N_("in round 1 the starting player is seat {seat}, who got the highest setup modifier"),
                            seat=setup.index(max(setup)))


def _check_draft(s: GameState) -> None:
    """The deal goes round one card at a time; each draft step takes min(2, held) per seat in turn."""
    n, p = s.players, s.current
    order = s.turn_order()
    done = order[: order.index(p)]  # seats already dealt to (or picked) in this pass
    dealt = sum(len(h) for h in s.draft_hands + s.draft_picks)
    size = min(hand_size(n), (s.deck_size() + dealt) // n)
    if s.deal_size != size or size == 0:
        raise PositionError(N_("the deal gives each player {size} cards here, not {deal_size}"), size=size,
                            deal_size=s.deal_size)
    if s.phase == DEAL:
        base = min(len(h) for h in s.draft_hands)
        expected = [base + (q in done) for q in range(n)]
        if s.draft_step or any(s.draft_picks) or base >= size or [len(h) for h in s.draft_hands] != expected:
            raise PositionError(N_("the deal goes round one card at a time from the starting player to seat {p}"),
                                p=p)
        return
    first = min(2, size)
    second = min(2, size - first)
    if s.draft_step == 1:
        picked = [first if q in done else 0 for q in range(n)]
    elif s.draft_step == 2:
        picked = [first + (second if q in done else 0) for q in range(n)]
    else:
        picked = []
    held = [size - k for k in picked]
    if picked == [] or [len(h) for h in s.draft_picks] != picked or [len(h) for h in s.draft_hands] != held \
            or not s.draft_hands[p]:
        raise PositionError(N_("player {p} is to pick but the draft cards do not fit step {step} of a deal of "
                               "{size}"), p=p, step=s.draft_step, size=size)


def _check_turns(s: GameState) -> None:
    """Before a hand runs out every seat holds a card; the last turns follow it (ruling R9)."""
    phase, p, last = s.phase, s.current, s.last_turns
    if phase not in TURN_PHASES:
        allowed: list[list[int] | None] = [None, []] if phase in (GOLD, OVER) else [None]
        if last not in allowed:
            raise PositionError(N_("last_turns lists seats still to play, each once, not the current player"))
        return
    if last is None:
        empty = [q for q in range(s.players) if not s.hands[q] and q != p]
        if empty:
            raise PositionError(N_("player {seat} has no card although no hand has run out yet this round"),
                                seat=empty[0])
        return
    clockwise = all((b - a) % s.players == 1 for a, b in zip(last, last[1:]))
    if p in last or len(set(last)) != len(last) or not clockwise:
        raise PositionError(N_("last_turns lists seats still to play, each once, not the current player"))


def _check_gold(s: GameState) -> None:
    """Gold decisions are asked in turn order of those who must decide (ruling R6, R21)."""
    if s.phase != GOLD:
        if s.gold_queue or any(c is not None for c in s.gold_choices):
            raise PositionError(N_("gold decisions are only made in phase gold"))
        return
    deciders = [q for q in s.turn_order() if must_decide_gold(s, q)]
    queue = s.gold_queue
    if not queue or queue[0] != s.current or deciders[len(deciders) - len(queue):] != queue:
        raise PositionError(N_("in phase gold the current player must be the first one waiting to decide"))
    for q in range(s.players):
        choice = s.gold_choices[q]
        decided = q in deciders and q not in queue
        options = [a.colours for a in gold_options(s, q) if isinstance(a, SaveWithGold)]
        if decided and choice not in options:
            raise PositionError(N_("player {seat} has decided on gold but not with a choice they can pay for"), seat=q)
        if not decided and choice is not None:
            raise PositionError(N_("only players with gold enough to keep an exceeding colour decide on gold"))
