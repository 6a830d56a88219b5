"""The position of a game: everything on the table, including what is hidden.

A ``GameState`` answers the questions of OpenSpiel's state API: whose turn it
is (``current_player``, with ``CHANCE`` as a player of its own), the sorted
``legal_actions``, ``chance_outcomes`` with exact probabilities,
``apply_action``, ``is_terminal`` and ``scores``. The rules themselves live in
``rules`` and the shared vocabulary (phases, ``Event``) in ``phases``; this
module holds the data.

>>> state = new_game(3)
>>> state.current_player() == CHANCE, state.phase
(True, 'setup_capital')
"""

from __future__ import annotations

from fractions import Fraction

from . import rules
from .cards import COLOURS, GOLD_DISCS, MODIFIERS, N_, Card, CapitalLuxError, full_deck_counts
from .notation import Action
from .phases import (  # re-exported: the state's vocabulary has always been importable from here
    AGENT,
    AGENT_DRAW,
    CARD_CHANCE_PHASES,
    CHANCE,
    CHANCE_PHASES,
    CLERIC,
    DEAL,
    DRAFT,
    GOLD,
    MODIFIER_CHANCE_PHASES,
    OVER,
    PHASES,
    PLAY,
    ROUNDS,
    SCHOLAR,
    SETUP_CAPITAL,
    SETUP_MODIFIERS,
    TERMINAL,
    Event,
    IllegalActionError,
    hand_size,
)

__all__ = [
    "AGENT", "AGENT_DRAW", "CARD_CHANCE_PHASES", "CHANCE", "CHANCE_PHASES", "CLERIC", "DEAL", "DRAFT", "GOLD",
    "MODIFIER_CHANCE_PHASES", "OVER", "PHASES", "PLAY", "ROUNDS", "SCHOLAR", "SETUP_CAPITAL", "SETUP_MODIFIERS",
    "TERMINAL", "Event", "GameState", "IllegalActionError", "hand_size", "new_game",
]


class GameState:
    """All of a game's position. Mutated only through ``apply_action``.

    Every list of cards is kept sorted, so equal positions compare equal.
    """

    def __init__(self, players: int) -> None:
        if players not in (2, 3, 4):
            raise CapitalLuxError(N_("Capital Lux is for 2 to 4 players, not {players}"), players=players)
        n = players
        self.players = n
        self.round = 0
        self.phase = SETUP_CAPITAL
        self.starting_player = -1
        self.current = -1  # seat whose decision (or chance event) it is
        self.deck: list[int] = full_deck_counts()  # copies left of each card kind
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.deal_size = 0
        self.draft_step = 0  # 1 or 2 while drafting
        self.draft_hands: list[list[Card]] = [[] for _ in range(n)]  # being chosen from
        self.draft_picks: list[list[Card]] = [[] for _ in range(n)]  # set aside face down
        self.hometowns: list[dict[str, list[int]]] = [{c: [] for c in COLOURS} for _ in range(n)]
        self.capital: dict[str, list[int]] = {c: [] for c in COLOURS}
        self.modifiers_above: dict[str, list[tuple[int, int]]] = {c: [] for c in COLOURS}
        self.modifier_deck: list[int] = sorted(MODIFIERS)
        self.setup_modifiers: list[int] = []  # dealt face up at setup, one per seat
        self.pending_modifier: int | None = None  # drawn by an Agent, not yet placed
        self.gold = [0] * n
        self.gold_pile = GOLD_DISCS
        self.bonus: list[list[Card]] = [[] for _ in range(n)]
        self.discards: list[Card] = []
        self.last_turns: list[int] | None = None  # seats still to take their last turn
        self.gold_queue: list[int] = []  # seats still to decide on gold, in turn order
        self.gold_choices: list[tuple[str, ...] | None] = [None] * n
        # The story, not the position: excluded from equality and position files.
        self.history: list[Action] = []
        self.log: list[Event] = []

    # -- OpenSpiel-style questions --------------------------------------------------
    def current_player(self) -> int:
        """The seat to decide, ``CHANCE`` for a chance event, ``TERMINAL`` at the end."""
        if self.phase == OVER:
            return TERMINAL
        if self.phase in CHANCE_PHASES:
            return CHANCE
        return self.current

    def is_chance_node(self) -> bool:
        return self.phase in CHANCE_PHASES

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[Action]:
        """Sorted; never empty unless the game is over."""
        return rules.legal_actions(self)

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        return rules.chance_outcomes(self)

    def apply_action(self, action: Action) -> None:
        """Apply in place; an illegal action raises and leaves the state unchanged."""
        rules.check(self, action)
        rules.apply(self, action)

    def child(self, action: Action) -> GameState:
        """A new state with ``action`` applied; this one is untouched."""
        new = self.clone()
        new.apply_action(action)
        return new

    def scores(self) -> list[int]:
        """Hometown cards plus bonus cards plus gold, for each seat."""
        return rules.scores(self)

    def winners(self) -> list[int]:
        """The seats that win (more than one when tie-breaks leave a tie)."""
        return rules.winners(self)

    # -- derived quantities ---------------------------------------------------------
    def deck_size(self) -> int:
        return sum(self.deck)

    def hometown_total(self, player: int, colour: str) -> int:
        return sum(self.hometowns[player][colour])

    def capital_total(self, colour: str, with_modifiers: bool = True) -> int:
        """Cards plus (if asked) the modifiers above; what a hometown colour may reach."""
        total = sum(self.capital[colour])
        if with_modifiers:
            total += sum(value for _, value in self.modifiers_above[colour])
        return total

    def modifiers_revealed(self) -> bool:
        """Modifiers are turned face up at round end (and stay up once the game is over)."""
        return self.phase in (GOLD, OVER)

    def turn_order(self) -> list[int]:
        """Seats from this round's starting player, clockwise (ruling R5, R20)."""
        start = max(self.starting_player, 0)
        return [(start + i) % self.players for i in range(self.players)]

    # -- copying and comparing ------------------------------------------------------
    def clone(self) -> GameState:
        new = GameState.__new__(GameState)
        new.__dict__.update(self.__dict__)
        new.deck = self.deck[:]
        new.hands = [h[:] for h in self.hands]
        new.draft_hands = [h[:] for h in self.draft_hands]
        new.draft_picks = [h[:] for h in self.draft_picks]
        new.hometowns = [{c: v[:] for c, v in town.items()} for town in self.hometowns]
        new.capital = {c: v[:] for c, v in self.capital.items()}
        new.modifiers_above = {c: v[:] for c, v in self.modifiers_above.items()}
        new.modifier_deck = self.modifier_deck[:]
        new.setup_modifiers = self.setup_modifiers[:]
        new.gold = self.gold[:]
        new.bonus = [b[:] for b in self.bonus]
        new.discards = self.discards[:]
        new.last_turns = None if self.last_turns is None else self.last_turns[:]
        new.gold_queue = self.gold_queue[:]
        new.gold_choices = self.gold_choices[:]
        new.history = self.history[:]
        new.log = self.log[:]
        return new

    def _position(self) -> dict[str, object]:
        data = dict(self.__dict__)
        del data["history"], data["log"]
        return data

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self._position() == other._position()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<GameState {self.players} players, round {self.round}, {self.phase}>"

    def _repr_html_(self) -> str:
        from .html import state_html

        return state_html(self)


def new_game(players: int) -> GameState:
    """A game before setup: the first chance event puts a card into the capital."""
    return GameState(players)

