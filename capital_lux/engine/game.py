"""A seeded game: a ``GameState`` whose chance events are resolved by a seeded
``random.Random``, with its record, replay and undo.

>>> game = Game(players=2, seed=7)
>>> game.state.phase, game.state.current_player()
('draft', 1)
>>> Game(2, seed=7).state == game.state
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

from .errors import UsageError
from .cards import ALL_CARDS
from .notation import Action, CardDrawn, ModifierDrawn
from .state import CARD_CHANCE_PHASES, GameState, new_game

Policy = Callable[[GameState, random.Random], Action]


def sample_chance(state: GameState, rng: random.Random) -> Action:
    """Draw the outcome of the pending chance event with its exact probability."""
    if not state.is_chance_node():
        raise UsageError(f"no chance event is pending in phase {state.phase}")
    if state.phase in CARD_CHANCE_PHASES:
        r = rng.randrange(state.deck_size())
        for kind, count in enumerate(state.deck):
            r -= count
            if r < 0:
                return CardDrawn(ALL_CARDS[kind])
    return ModifierDrawn(rng.choice(state.modifier_deck))


def resolve_chance(state: GameState, rng: random.Random) -> None:
    """Apply chance outcomes until a player must decide or the game is over."""
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))


@dataclass
class Game:
    """A game in progress: state, seeded chance, and the undo points of its decisions."""

    players: int
    seed: int = 0
    state: GameState = field(init=False)
    rng: random.Random = field(init=False, repr=False)
    _undo_points: list[tuple[int, object]] = field(init=False, repr=False, default_factory=list)

    def __post_init__(self) -> None:
        self.state = new_game(self.players)
        self.rng = random.Random(self.seed)
        resolve_chance(self.state, self.rng)

    def play(self, action: Action) -> None:
        """Apply a decision (refused unchanged if illegal), then resolve chance."""
        before = (len(self.state.history), self.rng.getstate())
        self.state.apply_action(action)
        self._undo_points.append(before)
        resolve_chance(self.state, self.rng)

    def undo(self) -> Action:
        """Take back the last decision by replaying the record up to it.

        The random generator goes back too, so playing the same decision again
        gives the same draws: undo cannot fish for a better card.
        """
        if not self._undo_points:
            raise IndexError("there is no decision to undo")
        length, rng_state = self._undo_points.pop()
        undone = self.state.history[length]
        self.state = replay(self.players, self.state.history[:length])
        self.rng.setstate(rng_state)  # type: ignore[arg-type]
        return undone

    def record(self) -> GameRecord:
        return GameRecord(self.players, self.seed, list(self.state.history))


@dataclass
class GameRecord:
    """Configuration, seed and every decision and chance outcome in order."""

    players: int
    seed: int
    actions: list[Action]

    def replay(self) -> GameState:
        return replay(self.players, self.actions)


def replay(players: int, actions: list[Action]) -> GameState:
    """The state reached by applying ``actions`` from a new game; each is checked."""
    state = new_game(players)
    for action in actions:
        state.apply_action(action)
    return state


def play_game(players: int, policies: list[Policy], rng: random.Random) -> GameState:
    """Play one game to the end, each seat deciding with its policy."""
    state = new_game(players)
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            action = policies[state.current](state, rng)
        state.apply_action(action)
    return state


def random_policy(state: GameState, rng: random.Random) -> Action:
    """Uniform over the legal actions."""
    return rng.choice(state.legal_actions())
