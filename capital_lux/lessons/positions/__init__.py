"""The chapters' prepared positions, stored as game records (``<name>.json``).

Each record replays from a new game to the moment the lesson starts; ``index.json``
names the learner's seat and the seed of the bots' choices. The records were written
by ``python -m capital_lux.lessons.positions.build``; a rule or generator change
never moves a lesson silently, because ``tests/test_lessons.py`` replays them all.

>>> game, seat, bot_seed = load("bonus_tie")  # the rulebook's example, written out
>>> game.players, seat
(3, 0)
"""

from __future__ import annotations

import json
from importlib import resources

from ...engine.game import Game, GameRecord
from ...engine.position import loads_record


def index() -> dict[str, dict[str, int]]:
    data: dict[str, dict[str, int]] = json.loads(resources.files(__name__).joinpath("index.json").read_text("utf-8"))
    return data


def names() -> tuple[str, ...]:
    return tuple(index())


def load(name: str) -> tuple[Game, int, int]:
    """The lesson's game (its record replayed, chance seeded by the record's seed), the
    learner's seat and the bots' seed."""
    entry = index().get(name)
    if entry is None:
        raise KeyError(f"{name!r} is not a lesson position; choose from {', '.join(names())}")
    # the rulebook's examples are written out (their cards chosen, not drawn): no seed check;
    # the package's own files, checked against the schema by the tests: no schema check at page build
    record = loads_record(resources.files(__name__).joinpath(f"{name}.json").read_text("utf-8"), check_seed=False,
                          check_schema=False)
    game = Game(record.players, record.seed)
    seeded = _seeded(record)
    # A record its seed dealt continues with the same draws it would have had; a written-out
    # one (the rulebook's examples) draws from its seed from here on.
    game.state = seeded.state if seeded is not None else record.replay()
    if seeded is not None:
        game.rng.setstate(seeded.rng.getstate())
    return game, entry["seat"], entry["bot_seed"]


def _seeded(record: GameRecord) -> Game | None:
    """The record played with its seed resolving chance, or None if the seed did not deal it."""
    game = Game(record.players, record.seed)
    for i, action in enumerate(record.actions):
        history = game.state.history
        if i < len(history):
            if history[i] != action:
                return None
            continue
        game.play(action)
    return game if game.state.history == record.actions else None
