"""Prepared positions for the chapters, reached by playing real games.

A position is ``(players, seed, decisions)``: a seeded ``Game`` in which every seat
plays uniformly at random (from its own view, with ``random.Random(seed * 7 + 3)``)
until the learner (seat 0) has made ``decisions`` decisions and must decide again.
Being a real game record, every position is legal, and undo works from it.
``tests/test_tutor.py`` checks that each position shows what its lesson is about.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from ..game import Game
from ..views import view
from .session import Session

LEARNER = 0


class Position(NamedTuple):
    players: int
    seed: int
    decisions: int


#: Found by searching seeded games for each situation (see the module docstring).
POSITIONS: dict[str, Position] = {
    "setup": Position(3, 4, 0),
    "draft": Position(3, 0, 0),
    "hometown": Position(3, 1, 2),
    "scholar": Position(3, 1, 2),
    "merchant": Position(3, 0, 2),
    "agent": Position(3, 0, 2),
    "cleric": Position(3, 0, 15),
    "cleric_one": Position(3, 0, 12),
    "cleric_none": Position(3, 0, 2),
    "scholar_last": Position(3, 6, 29),
    "agent_empty": Position(3, 9, 11),
    "last_turns": Position(3, 1, 7),
    "gold": Position(3, 66, 8),
    "final": Position(3, 0, 30),
}


def prepared_game(position: Position) -> Game:
    """The game at the prepared position: the learner to decide."""
    game = Game(position.players, position.seed)
    rng = random.Random(position.seed * 7 + 3)
    made = 0
    while not game.state.is_terminal():
        seat = game.state.current_player()
        if seat == LEARNER:
            if made == position.decisions:
                return game
            made += 1
        game.play(rng.choice(view(game.state, seat).legal_actions))
    raise ValueError(f"{position} ends before the learner's decision number {position.decisions}")


def prepared_session(name: str, bot_kind: str = "rule") -> Session:
    position = POSITIONS[name]
    return Session(prepared_game(position), seat=LEARNER, bot_kind=bot_kind, bot_seed=position.seed)
