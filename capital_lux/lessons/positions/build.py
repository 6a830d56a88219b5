"""Writes the chapters' prepared positions as game records: ``python -m capital_lux.lessons.positions.build``.

The records in this folder are the lessons' data; this module only made them, and
remakes them on purpose (a changed rule or generator never changes a lesson silently:
``tests/test_lessons.py`` replays every record and checks what its lesson is about).

A searched position is ``(players, seed, decisions)``: a seeded ``Game`` in which every seat
plays uniformly at random (from its own view, with ``random.Random(seed * 7 + 3)``)
until the learner (seat 0) has made ``decisions`` decisions and must decide again.
Being a real game record, every position is legal, and undo works from it.
"""

from __future__ import annotations

import json
import random
from functools import partial
from pathlib import Path
from typing import Callable, NamedTuple

from ...engine.cards import Card
from ...engine.errors import UsageError
from ...engine.game import Game, replay
from ...engine.notation import Action, CardDrawn, ModifierDrawn, Pick, parse_action
from ...engine.state import hand_size
from ...engine.views import view
from ...engine.position import dumps_record

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
    "cleric": Position(3, 29, 3),  # round 1: no bonus card or gold on the table yet
    "cleric_one": Position(3, 1, 2),
    "cleric_none": Position(3, 0, 2),
    "scholar_last": Position(3, 15, 7),
    "agent_empty": Position(3, 9, 11),
    "last_turns": Position(3, 1, 7),
    "gold": Position(3, 66, 8),
    "final": Position(3, 0, 30),
    "tie_break": Position(3, 821, 29),  # whatever you play, you tie on points with Bot 2
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
    raise UsageError(f"{position} ends before the learner's decision number {position.decisions}")


def scripted_game(
    capital: str, setup_modifiers: list[int], hands: list[str], plays: list[str], seed: int = 0
) -> Game:
    """A first round written out in full: the setup, a deal and draft that give each seat
    ``hands[seat]``, then ``plays`` (decisions and chance outcomes in notation).

    The draft is solved so that seat ``q`` keeps its cards: it is dealt its first pair, the
    second pair of the seat before it and the last pair of the seat after it; it sets aside
    its first pair, then picks its second pair out of what it receives.
    """
    n = len(hands)
    cards = [[Card.parse(c) for c in hand.split()] for hand in hands]
    size = hand_size(n)
    assert all(len(h) == size == 6 for h in cards), "a scripted round deals six cards (2 or 3 players)"
    first, second, last = ([h[i : i + 2] for h in cards] for i in (0, 2, 4))
    dealt = [first[q] + second[(q + 1) % n] + last[(q + 2) % n] for q in range(n)]
    start = setup_modifiers.index(max(setup_modifiers))
    actions: list[Action] = [CardDrawn(Card.parse(capital))]
    actions += [ModifierDrawn(m) for m in setup_modifiers]
    for k in range(size):
        actions += [CardDrawn(dealt[(start + i) % n][k]) for i in range(n)]
    for pairs in (first, second):
        actions += [Pick(tuple(sorted(pairs[(start + i) % n]))) for i in range(n)]
    actions += [parse_action(text) for text in plays]
    game = Game(n, seed)
    game.state = replay(n, actions)  # a real record: Game.undo replays it like any other
    return game


def _bonus_tie() -> Game:
    """The rulebook's bonus example: Bot 1 (seat 1) starts, Bot 2 sits to its left, and you
    (seat 0) come last. All have 5 in yellow; the Capital's yellow cards are a 6 and a 4."""
    return scripted_game(
        "G6", [-3, 4, -1],
        ["Y2 Y3 G5 P5 P6 B5", "Y5 Y6 G3 B2 B3 P2", "Y5 Y4 G4 B4 P3 P4"],
        ["home Y5", "home Y5", "home Y2", "capital Y6", "capital Y4", "home Y3", "home G3", "home G4",
         "home G5", "home B2", "home B4", "home P5", "home B3", "home P3", "home P6", "home P2", "home P4"],
    )


def _gold_example() -> Game:
    """The rulebook's round-end example: blue exceeds by 1, yellow by 2, pink by 5, with 3 gold."""
    return scripted_game(
        "B2", [4, -1, -3],
        ["Y2 Y2 Y2 Y5 B5 P5", "B2 G3 G4 P2 P3 B3", "G2 G5 P4 B4 Y3 Y4"],
        ["capital Y2", "capital B2", "modifier -3", "place Y", "home G2",
         "capital Y2", "home G3", "home G5", "capital Y2", "home G4", "home P4", "home Y5", "home P2", "home B4",
         "home B5", "home P3", "home Y3", "home P5", "home B3", "home Y4"],
    )


#: Positions written out move by move (the rulebook's examples), with the learner's seat.
SCRIPTED: dict[str, tuple[Callable[[], Game], int]] = {
    "bonus_tie": (_bonus_tie, 0),
    "gold_example": (_gold_example, 0),
}


def build(folder: Path | None = None) -> list[Path]:
    """Write one record per lesson position, named after it, and ``index.json``: each
    position's learner seat and the seed of the bots' own choices."""
    folder = folder or Path(__file__).parent
    index: dict[str, dict[str, int]] = {}
    games: dict[str, tuple[Callable[[], Game], int, int]] = {
        name: (partial(prepared_game, p), LEARNER, p.seed) for name, p in POSITIONS.items()
    }
    games.update({name: (make, seat, 0) for name, (make, seat) in SCRIPTED.items()})
    written = []
    for name, (make, seat, bot_seed) in games.items():
        path = folder / f"{name}.json"
        path.write_text(dumps_record(make().record()) + "\n", "utf-8")
        index[name] = {"seat": seat, "bot_seed": bot_seed}
        written.append(path)
    (folder / "index.json").write_text(json.dumps(index, indent=1) + "\n", "utf-8")
    return written


if __name__ == "__main__":
    for path in build():
        print(path)
