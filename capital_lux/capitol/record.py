"""Capitol's game record: JSON in the house's convention, and its replay.

A record is ``{"format": "capitol-record", "version": 1, "players": n, "seed": s,
"actions": [...], "scores": [...]}``: the seed deals the cards (the only chance), the
actions are every decision in the notation, the scores (once the game is over) are
checked on replay. Reading one goes through the engine's guarded JSON reader (size and
depth capped, no floats), then checks every field and replays every action; a record
that is malformed, does not replay, or claims other scores is refused with a sentence.

>>> from .rules import apply, legal_actions
>>> from .state import new_game
>>> s = new_game(2, seed=4)
>>> s = apply(s, legal_actions(s)[0])
>>> loads_record(dumps_record(s)).history == s.history
True
"""

from __future__ import annotations

import json
from typing import Final

from ..engine.errors import CapitalLuxError, PositionError, UsageError
from ..engine.position import parse_json
from .components import MAX_PLAYERS, MIN_PLAYERS, N_
from .notation import parse_action
from .rules import apply
from .state import State, new_game

__all__ = ["FORMAT", "VERSION", "dumps_record", "loads_record", "replay"]

FORMAT: Final = "capitol-record"
VERSION: Final = 1
#: More actions than any game takes (a few hundred); a longer list is not a record.
MAX_ACTIONS: Final = 5000
_KEYS: Final = {"format", "version", "players", "seed", "actions", "scores"}


def dumps_record(state: State) -> str:
    data: dict[str, object] = {"format": FORMAT, "version": VERSION, "players": state.players, "seed": state.seed,
                               "actions": [str(action) for _, action in state.history]}
    if state.is_terminal():
        data["scores"] = list(state.scores)
    return json.dumps(data, indent=1)


def replay(players: int, seed: int, actions: list[str]) -> State:
    """The state the actions lead to from the seed's deal; each is checked by the rules."""
    state = new_game(players, seed)
    for index, text in enumerate(actions):
        try:
            state = apply(state, parse_action(text))
        except CapitalLuxError as e:
            raise PositionError(N_("The record does not replay: its action {index} ({action}) is refused: {problem}"),
                                index=index + 1, action=text, problem=e) from None
    return state


def loads_record(text: str | bytes) -> State:
    """The final state of a record, or a ``PositionError`` saying what is wrong with it."""
    data = parse_json(text)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PositionError(N_("This is not a Capitol record: it needs \"format\": \"capitol-record\"."))
    if data.get("version") != VERSION:
        raise PositionError(N_("This Capitol record has version {version}; this program reads version 1."),
                            version=str(data.get("version")))
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise PositionError(N_("This Capitol record has fields it should not have: {fields}."),
                            fields=", ".join(unknown))
    players, seed, actions = data.get("players"), data.get("seed"), data.get("actions")
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise PositionError(N_("A Capitol record needs \"players\": 2, 3 or 4."))
    if type(seed) is not int:
        raise PositionError(N_("A Capitol record needs a whole number \"seed\"."))
    if (not isinstance(actions, list) or len(actions) > MAX_ACTIONS
            or not all(isinstance(a, str) for a in actions)):
        raise PositionError(N_("A Capitol record needs \"actions\": a list of moves written as text."))
    try:
        state = replay(players, seed, [str(a) for a in actions])
    except UsageError:
        raise PositionError(N_("A Capitol record needs \"players\": 2, 3 or 4.")) from None
    if "scores" in data:
        claimed = data["scores"]
        if not state.is_terminal() or claimed != list(state.scores):
            raise PositionError(N_("The record claims the scores {claimed} but replays to {scores}."),
                                claimed=json.dumps(claimed), scores=json.dumps(list(state.scores)))
    return state
