"""The rules of Capital Lux as transitions of a ``GameState``.

``check`` refuses an illegal action with a message naming what is wrong;
``apply`` then performs it, including the automatic steps that follow (special
actions, the end of a turn, the round end). Rulings R1–R21 are
named where they apply (``# ruling R7``); ``docs/rules.md`` states every rule,
ruling and project decision in full, with the test that pins each one.
"""

from __future__ import annotations

from bisect import insort
from fractions import Fraction
from itertools import combinations
from typing import TYPE_CHECKING, Iterable, Sequence

from .cards import ALL_CARDS, COLOUR_LETTERS, COLOURS, KIND, MODIFIERS, N_, VALUES, Card, Colour, format_cards
from .notation import (
    CAPITAL,
    HOME,
    Action,
    CardDrawn,
    ModifierDrawn,
    PlaceModifier,
    Pick,
    Play,
    SaveWithGold,
    TakeLowest,
)
from .phases import (
    AGENT,
    AGENT_DRAW,
    CARD_CHANCE_PHASES,
    CHANCE_PHASES,
    CLERIC,
    DEAL,
    DRAFT,
    GOLD,
    MODIFIER_CHANCE_PHASES,
    OVER,
    PLAY,
    ROUNDS,
    SCHOLAR,
    SETUP_CAPITAL,
    SETUP_MODIFIERS,
    Event,
    IllegalActionError,
    hand_size,
)

if TYPE_CHECKING:  # the state calls these rules; the rules only read and write its fields
    from .state import GameState

CLERIC_COLOURS: tuple[Colour, ...] = ("B", "G", "Y")  # never pink (ruling R2)
_PLAYS = {card: (Play(card, CAPITAL), Play(card, HOME)) for card in ALL_CARDS}
_CARD_DRAWN = {card: CardDrawn(card) for card in ALL_CARDS}
_PLACES = [PlaceModifier(c) for c in COLOUR_LETTERS]


# -- what may be done ------------------------------------------------------------------
def legal_actions(s: GameState) -> list[Action]:
    phase = s.phase
    if phase == PLAY:
        return [a for card in sorted(set(s.hands[s.current])) for a in _PLAYS[card]]
    if phase in CHANCE_PHASES:
        return [a for a, _ in chance_outcomes(s)]
    if phase == DRAFT:
        return draft_picks(s.draft_hands[s.current])
    if phase == AGENT:
        return list(_PLACES)
    if phase == CLERIC:
        return [TakeLowest(c) for c in cleric_options(s)]
    if phase == GOLD:
        return gold_options(s, s.current)
    return []


def chance_outcomes(s: GameState) -> list[tuple[Action, Fraction]]:
    """Each possible outcome of the pending chance event with its exact probability."""
    if s.phase in (SETUP_MODIFIERS, AGENT_DRAW):
        k = len(s.modifier_deck)
        return [(ModifierDrawn(v), Fraction(1, k)) for v in s.modifier_deck]
    if s.phase in (SETUP_CAPITAL, DEAL, SCHOLAR):
        total = s.deck_size()
        return [(_CARD_DRAWN[ALL_CARDS[k]], Fraction(n, total)) for k, n in enumerate(s.deck) if n]
    return []


def draft_picks(cards: list[Card]) -> list[Action]:
    """Every distinct choice of min(2, held) cards (ruling R15, R16)."""
    size = min(2, len(cards))
    if not size:  # nothing to choose from: no pick, not an empty one (it would not parse back)
        return []
    return [Pick(combo) for combo in sorted(set(combinations(sorted(cards), size)))]


def cleric_options(s: GameState) -> list[Colour]:
    """Blue, green or yellow colours with a card in the capital (ruling R1, R2)."""
    return [c for c in CLERIC_COLOURS if s.capital[c]]


def over_limit(cards: int, total: int, limit: int) -> int:
    """How far a hometown colour of ``cards`` cards adding up to ``total`` exceeds ``limit``.

    Equal is safe, and a colour with no cards in the hometown never exceeds, even
    against a negative limit (ruling R7). The one statement of exceeding: the state,
    views, bots and exercises all ask it.

    >>> over_limit(2, 11, 9), over_limit(2, 9, 9), over_limit(0, 0, -3)
    (2, 0, 0)
    """
    return max(0, total - limit) if cards else 0


def gold_choice_worth(totals: Sequence[int], costs: Sequence[int], colours: Iterable[int]) -> tuple[int, int]:
    """How good it is to pay gold to keep ``colours`` (indices into ``totals`` and ``costs``,
    the hometown totals and the gold each colour costs): the points kept net of the gold
    paid, a disc being a point at the game's end, then the fewer colours. A colour whose
    cards are not worth more than its gold spoils the option (-1). The best gold choice is
    the option worth most; the rule-of-thumb bot and the search's play-outs both choose
    by it, and the exercises' "does gold pay?" is its one-colour case.

    >>> gold_choice_worth([11, 4, 6], [2, 1, 0], [0, 1]), gold_choice_worth([11, 3], [2, 3], [0, 1])
    ((12, -2), (-1, 0))
    """
    kept = 0
    count = 0
    for c in colours:
        if totals[c] <= costs[c]:
            return -1, 0
        kept += totals[c] - costs[c]
        count += 1
    return kept, -count


def excess(s: GameState, player: int, colour: str) -> int:
    """How far a hometown colour exceeds the capital (cards plus modifiers): 0 when it does not."""
    cards = s.hometowns[player][colour]
    return over_limit(len(cards), sum(cards), s.capital_total(colour))


def gold_options(s: GameState, player: int) -> list[Action]:
    """Every set of exceeding colours the player can pay for in full (ruling R6)."""
    costs = {c: excess(s, player, c) for c in COLOURS}
    exceeding = [c for c in COLOUR_LETTERS if costs[c]]
    return sorted(
        SaveWithGold(combo)
        for size in range(len(exceeding) + 1)
        for combo in combinations(exceeding, size)
        if sum(costs[c] for c in combo) <= s.gold[player]
    )


def check(s: GameState, action: Action) -> None:
    """Raise ``IllegalActionError`` unless ``action`` is legal now.

    This is the law: an action passes exactly when it is in ``legal_actions(s)``
    (``tests/test_rules.py`` checks the equivalence over random games and over
    every action type with bad fields). The message is a catalogue text.
    """
    phase = s.phase
    if phase == OVER:
        raise IllegalActionError(N_("the game is over; {action} cannot be played"), action=_quoted(action))
    if phase in CARD_CHANCE_PHASES and isinstance(action, CardDrawn):
        card = action.card
        kind = KIND.get(card) if isinstance(card, Card) and isinstance(card.value, int) else None
        if kind is not None and s.deck[kind]:
            return
        raise IllegalActionError(N_("{action} cannot happen: no {card} is left in the deck"),
                                 action=_quoted(action), card=_quoted(card))
    if phase in MODIFIER_CHANCE_PHASES and isinstance(action, ModifierDrawn):
        if action.value in s.modifier_deck:
            return
        raise IllegalActionError(N_("{action} cannot happen: that modifier is not in the modifier deck"),
                                 action=_quoted(action))
    player = s.current
    if phase == PLAY and isinstance(action, Play):
        if action.card not in s.hands[player]:
            raise IllegalActionError(N_("{card} is not in player {player}'s hand ({hand})"),
                                     card=action.card, player=player, hand=format_cards(s.hands[player]))
        if action.to not in (HOME, CAPITAL):
            raise IllegalActionError(N_("{place} is not a place to play a card: write home or capital"),
                                     place=repr(action.to))
        return
    if phase == DRAFT and isinstance(action, Pick):
        held = s.draft_hands[player]
        if action not in draft_picks(held):
            raise IllegalActionError(
                N_("player {player} must pick {count} of the cards held ({held}), not {picked}"),
                player=player, count=min(2, len(held)), held=format_cards(held), picked=_cards_text(action.cards),
            )
        return
    if phase == AGENT and isinstance(action, PlaceModifier):
        if action.colour in COLOURS:
            return
        raise IllegalActionError(N_("the modifier goes above a capital colour ({colours}), not {colour}"),
                                 colours=", ".join(COLOURS), colour=repr(action.colour))
    if phase == CLERIC and isinstance(action, TakeLowest):
        if action.colour not in cleric_options(s):
            raise IllegalActionError(N_("the Cleric cannot take {colour}: choose one of {options}"),
                                     colour=action.colour, options=", ".join(cleric_options(s)))
        return
    if phase == GOLD and isinstance(action, SaveWithGold):
        options = gold_options(s, player)
        if action not in options:
            raise IllegalActionError(N_("player {player} cannot {action}: expected one of {options}"),
                                     player=player, action=_quoted(action), options=", ".join(map(str, options)))
        return
    raise IllegalActionError(_EXPECTED.get(phase, N_("{action} is not possible now")), action=_quoted(action),
                             player=player)


def _quoted(thing: object) -> str:
    """An action's text for a refusal, even when its fields are too malformed to write it."""
    try:
        return str(thing)
    except (TypeError, ValueError):
        return repr(thing)


def _cards_text(cards: object) -> str:
    """The cards of a refused pick, however malformed (it is only quoted back)."""
    if isinstance(cards, (tuple, list)) and all(isinstance(c, Card) for c in cards):
        return format_cards(tuple(cards)) or "nothing"
    return repr(cards)


#: What each phase waits for, as the end of a refusal (one whole sentence per phase).
_EXPECTED: dict[str, str] = {
    SETUP_CAPITAL: N_("{action} is not possible now: expected the card turned into the capital (card XN)"),
    SETUP_MODIFIERS: N_("{action} is not possible now: expected a modifier dealt to decide the starting player "
                        "(modifier +N)"),
    DEAL: N_("{action} is not possible now: expected a card dealt (card XN)"),
    SCHOLAR: N_("{action} is not possible now: expected the Scholar's draw (card XN)"),
    AGENT_DRAW: N_("{action} is not possible now: expected the Agent's modifier draw (modifier +N)"),
    DRAFT: N_("{action} is not possible now: expected player {player} to pick (pick XN XN)"),
    PLAY: N_("{action} is not possible now: expected player {player} to play a card (home XN or capital XN)"),
    AGENT: N_("{action} is not possible now: expected player {player} to place the modifier (place COLOUR)"),
    CLERIC: N_("{action} is not possible now: expected player {player} to choose the Cleric's colour "
               "(take COLOUR)"),
    GOLD: N_("{action} is not possible now: expected player {player} to decide on gold (save COLOURS or save none)"),
}


# -- doing it -------------------------------------------------------------------------
def apply(s: GameState, action: Action) -> None:
    """Perform a legal ``action`` (see ``check``) and every automatic step after it.

    The action enters the history only once it has been applied.
    """
    phase = s.phase
    if phase == PLAY:
        assert isinstance(action, Play)
        _play(s, action)
    elif phase == DEAL:
        assert isinstance(action, CardDrawn)
        _take_from_deck(s, action.card)
        insort(s.draft_hands[s.current], action.card)
        _next_deal(s)
    elif phase == DRAFT:
        assert isinstance(action, Pick)
        _pick(s, action)
    elif phase == SCHOLAR:
        assert isinstance(action, CardDrawn)
        _take_from_deck(s, action.card)
        insort(s.hands[s.current], action.card)
        s.log.append(Event("scholar_draw", s.current, (action.card,), private_to=s.current))
        _end_turn(s)
    elif phase == AGENT_DRAW:
        assert isinstance(action, ModifierDrawn)
        s.modifier_deck.remove(action.value)
        s.pending_modifier = action.value
        s.phase = AGENT
    elif phase == AGENT:
        assert isinstance(action, PlaceModifier) and s.pending_modifier is not None
        s.modifiers_above[action.colour].append((s.current, s.pending_modifier))
        s.log.append(Event("modifier_placed", s.current, colours=(action.colour,)))
        s.pending_modifier = None
        _end_turn(s)
    elif phase == CLERIC:
        assert isinstance(action, TakeLowest)
        _cleric_take(s, action.colour)
        _end_turn(s)
    elif phase == GOLD:
        assert isinstance(action, SaveWithGold)
        s.gold_choices[s.current] = action.colours
        s.gold_queue.pop(0)
        if s.gold_queue:
            s.current = s.gold_queue[0]
        else:
            _finish_round(s)
    elif phase == SETUP_CAPITAL:
        assert isinstance(action, CardDrawn)
        _take_from_deck(s, action.card)
        insort(s.capital[action.card.colour], action.card.value)
        s.log.append(Event("capital_card", cards=(action.card,)))
        s.phase, s.current = SETUP_MODIFIERS, 0
    elif phase == SETUP_MODIFIERS:
        assert isinstance(action, ModifierDrawn)
        _setup_modifier(s, action.value)
    else:  # pragma: no cover - check() refuses everything else
        raise IllegalActionError(_EXPECTED.get(phase, N_("{action} is not possible now")), action=_quoted(action),
                                 player=s.current)
    s.history.append(action)


def _take_from_deck(s: GameState, card: Card) -> None:
    s.deck[KIND[card]] -= 1


def _setup_modifier(s: GameState, value: int) -> None:
    """One modifier per seat; the highest starts; all go back into the deck (ruling R14)."""
    s.modifier_deck.remove(value)
    s.setup_modifiers.append(value)
    if len(s.setup_modifiers) < s.players:
        s.current = len(s.setup_modifiers)
        return
    s.starting_player = s.setup_modifiers.index(max(s.setup_modifiers))
    s.modifier_deck = sorted(MODIFIERS)
    s.log.append(Event("starting_player", s.starting_player))
    _start_round(s, 1)


def _start_round(s: GameState, number: int) -> None:
    """Deal for the draft; with a short deck each gets an equal share (ruling R15)."""
    s.round = number
    s.last_turns = None
    s.deal_size = min(hand_size(s.players), s.deck_size() // s.players)
    s.log.append(Event("round_start", s.starting_player, amount=number))
    if s.deal_size == 0:
        _round_end(s)
        return
    s.phase = DEAL
    s.current = s.starting_player


def _next_deal(s: GameState) -> None:
    """Cards go round the table one at a time from the starting player."""
    nxt = (s.current + 1) % s.players
    if len(s.draft_hands[nxt]) < s.deal_size:
        s.current = nxt
        return
    _start_draft_step(s, 1)


def _start_draft_step(s: GameState, step: int) -> None:
    s.draft_step = step
    s.current = s.starting_player
    if s.draft_hands[s.current]:
        s.phase = DRAFT
    else:  # nothing left to choose from (a short deal): the step has no picks
        _pass_draft_hands(s)


def _pick(s: GameState, pick: Pick) -> None:
    held = s.draft_hands[s.current]
    for card in pick.cards:
        held.remove(card)
        insort(s.draft_picks[s.current], card)
    nxt = (s.current + 1) % s.players
    if nxt != s.starting_player:  # picks are made in turn order but hidden (ruling R16)
        s.current = nxt
        return
    _pass_draft_hands(s)


def _pass_draft_hands(s: GameState) -> None:
    """What is left passes to the left, to the next seat (ruling R20)."""
    s.draft_hands = [s.draft_hands[(i - 1) % s.players] for i in range(s.players)]
    if s.draft_step == 1:
        _start_draft_step(s, 2)
        return
    for p in range(s.players):  # the cards passed last are kept
        s.hands[p] = sorted(s.draft_picks[p] + s.draft_hands[p])
    s.draft_hands = [[] for _ in range(s.players)]
    s.draft_picks = [[] for _ in range(s.players)]
    s.draft_step = 0
    s.phase, s.current = PLAY, s.starting_player


def _play(s: GameState, play: Play) -> None:
    p, card = s.current, play.card
    s.hands[p].remove(card)
    if play.to == HOME:
        insort(s.hometowns[p][card.colour], card.value)
        _end_turn(s)
        return
    insort(s.capital[card.colour], card.value)
    colour = card.colour
    if colour == "G":  # Scholar: draw if the deck has a card (ruling R10)
        if s.deck_size():
            s.phase = SCHOLAR
            return
        s.log.append(Event("deck_empty", p))
    elif colour == "Y":  # Merchant: a gold disc if the pile has one
        if s.gold_pile:
            s.gold_pile -= 1
            s.gold[p] += 1
        else:
            s.log.append(Event("gold_pile_empty", p))
    elif colour == "B":  # Agent: a modifier if the modifier deck has one (ruling R11)
        if s.modifier_deck:
            s.phase = AGENT_DRAW
            return
        s.log.append(Event("modifier_deck_empty", p))
    else:  # Cleric (ruling R1, R2, R21)
        options = cleric_options(s)
        if len(options) > 1:
            s.phase = CLERIC
            return
        if options:
            _cleric_take(s, options[0])
        else:
            s.log.append(Event("cleric_nothing", p))
    _end_turn(s)


def _cleric_take(s: GameState, colour: str) -> None:
    value = s.capital[colour].pop(0)
    insort(s.hometowns[s.current][colour], value)
    s.log.append(Event("cleric_take", s.current, (Card(colour, value),)))


def _end_turn(s: GameState) -> None:
    """Next seat clockwise, or the last turns once a hand runs out (ruling R9)."""
    s.phase = PLAY
    p = s.current
    if s.last_turns is None:
        if s.hands[p]:
            s.current = (p + 1) % s.players
            return
        s.last_turns = [(p + i) % s.players for i in range(1, s.players)]
        s.log.append(Event("last_turns", p))
    while s.last_turns:
        q = s.last_turns.pop(0)
        if s.hands[q]:
            s.current = q
            return
        s.log.append(Event("turn_skipped", q))
    _round_end(s)


# -- the round end ----------------------------------------------------------------------
def _round_end(s: GameState) -> None:
    """Hands into hometowns, reveal, then gold decisions (if any) before discards."""
    for p in range(s.players):
        if s.hands[p]:
            s.log.append(Event("hand_to_hometown", p, tuple(s.hands[p])))
        for card in s.hands[p]:
            insort(s.hometowns[p][card.colour], card.value)
        s.hands[p] = []
    s.log.append(Event("reveal", cards=()))
    s.phase = GOLD  # modifiers are face up from here on
    s.gold_choices = [None] * s.players
    s.gold_queue = [p for p in s.turn_order() if must_decide_gold(s, p)]
    if s.gold_queue:
        s.current = s.gold_queue[0]
        return
    _finish_round(s)


def must_decide_gold(s: GameState, player: int) -> bool:
    """Asked only when some exceeding colour can be paid for in full (ruling R6, R21)."""
    gold = s.gold[player]
    return gold > 0 and any(0 < excess(s, player, c) <= gold for c in COLOURS)


def _finish_round(s: GameState) -> None:
    """Pay gold and discard (all at once, ruling R6), then bonus cards (R4), then next round."""
    for p in s.turn_order():
        saved = s.gold_choices[p] or ()
        for colour in COLOURS:
            over = excess(s, p, colour)
            if not over:
                continue
            if colour in saved:
                s.gold[p] -= over
                s.gold_pile += over
                s.log.append(Event("gold_spent", p, colours=(colour,), amount=over))
            else:  # discarded cards leave the game (ruling R8)
                lost = tuple(Card(colour, v) for v in s.hometowns[p][colour])
                s.discards = sorted(s.discards + list(lost))
                s.hometowns[p][colour] = []
                s.log.append(Event("discard", p, lost, (colour,)))
    s.gold_choices = [None] * s.players
    s.gold_queue = []
    _award_bonus_cards(s)
    if s.round == ROUNDS:
        s.phase, s.current = OVER, -1
        s.log.append(Event("game_over"))
        return
    for colour in COLOURS:  # all four modifiers are shuffled again (ruling R12)
        s.modifiers_above[colour] = []
    s.modifier_deck = sorted(MODIFIERS)
    s.starting_player = next_starting_player(s)
    s.log.append(Event("starting_player", s.starting_player))
    _start_round(s, s.round + 1)


def _award_bonus_cards(s: GameState) -> None:
    """Highest hometown total per colour; ties share out in turn order (ruling R3, R5).

    A bonus card lies face down but its value is public: everyone saw which capital
    card was taken, so the log and every view show it (ruling R18).
    """
    for colour in COLOURS:
        totals = {p: s.hometown_total(p, colour) for p in s.turn_order()}
        best = max(totals.values())
        if best <= 0:
            continue
        for p in (p for p, t in totals.items() if t == best):
            if not s.capital[colour]:
                break
            card = Card(colour, s.capital[colour].pop())
            insort(s.bonus[p], card)
            s.log.append(Event("bonus", p, (card,), (colour,)))


def next_starting_player(s: GameState) -> int:
    """Highest hometown total; ties go to the first reached clockwise from the last
    starting player, who counts first (ruling R13)."""
    totals = {p: sum(sum(v) for v in s.hometowns[p].values()) for p in s.turn_order()}
    best = max(totals.values())
    return next(p for p, t in totals.items() if t == best)


# -- the end ---------------------------------------------------------------------------
def scores(s: GameState) -> list[int]:
    return [
        sum(sum(v) for v in s.hometowns[p].values()) + sum(c.value for c in s.bonus[p]) + s.gold[p]
        for p in range(s.players)
    ]


def tie_break_key(s: GameState, player: int) -> tuple[int, ...]:
    """Score, then the number of 6s, 5s, 4s, 3s, 2s in hometown and bonus cards (ruling R17)."""
    values = [v for cards in s.hometowns[player].values() for v in cards]
    values += [c.value for c in s.bonus[player]]
    return (scores(s)[player], *(values.count(v) for v in reversed(VALUES)))


def winners(s: GameState) -> list[int]:
    keys = [tie_break_key(s, p) for p in range(s.players)]
    best = max(keys)
    return [p for p in range(s.players) if keys[p] == best]


def ranks(s: GameState) -> list[int]:
    """1 for the winners, then by tie-break order; equal keys share a rank."""
    keys = [tie_break_key(s, p) for p in range(s.players)]
    return [1 + sum(other > mine for other in keys) for mine in keys]
