"""Hostile positions and records: every input is accepted as valid or refused with
the typed error; nothing else escapes and nothing hangs (each example has a deadline).
Every accepted position is played on to the end with every card, gold disc and
modifier accounted for at each step.

``CAPITAL_LUX_FUZZ_EXAMPLES=3000 pytest tests/test_fuzz_loaders.py`` runs more examples.
"""

from __future__ import annotations

import json
import os
import random
from datetime import timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pytest

from capital_lux.engine.cards import ALL_CARDS
from capital_lux.engine.game import Game, random_policy
from capital_lux.engine.notation import parse_action
from capital_lux.engine.position import PositionError, loads_position, loads_record, position_dict, record_dict, validate
from capital_lux.engine.state import GameState, new_game

_game = Game(4, seed=12)
while _game.state.round < 2 or _game.state.phase != "play":
    _game.play(_game.state.legal_actions()[-1])
VALID = position_dict(_game.state)
RECORD = record_dict(_game.record())

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.integers(-3, 8).map(float) | st.floats()
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=30,
)
FUZZ = settings(max_examples=150, deadline=timedelta(seconds=2), suppress_health_check=[HealthCheck.too_slow])
EXAMPLES = int(os.environ.get("CAPITAL_LUX_FUZZ_EXAMPLES", "120"))
PLAY_ON = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


def _sources() -> list[dict[str, Any]]:
    """Positions from every phase of seeded random games of 2, 3 and 4 players."""
    found: dict[str, dict[str, Any]] = {}
    for players in (2, 3, 4):
        rng, s = random.Random(players), new_game(players)
        while not s.is_terminal():
            found.setdefault(f"{players}-{s.round}-{s.phase}", position_dict(s))
            s.apply_action(random_policy(s, rng))
        found[f"{players}-over"] = position_dict(s)
    return list(found.values())


SOURCES = _sources()
CARD_TEXTS = [str(card) for card in ALL_CARDS]
game_values = st.sampled_from(
    [None, [], [0], [1, 0], [2], -3, -1, 0, 1, 2, 3, 4, 5, 6, "B", ["B"], "draft", "play", "gold", "over",
     "deal", "agent", "cleric", "scholar", "agent_draw", "setup_modifiers", "setup_capital"]
) | st.sampled_from(CARD_TEXTS) | st.lists(st.sampled_from(CARD_TEXTS), max_size=3)


def _card_lists(data: Any) -> list[tuple[Any, ...]]:
    return [p for p in _paths(data) if isinstance(_at(data, p), list) and all(isinstance(x, str) for x in _at(data, p))]


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


def play_on(state: GameState, seed: int) -> None:
    """Random legal moves to the end; every step is a position the loader would accept."""
    rng = random.Random(seed)
    for _ in range(1500):
        validate(state)  # 72 cards, 8 gold discs, 4 modifiers, and the phase's bookkeeping
        if state.is_terminal():
            return
        legal = state.legal_actions()
        assert legal, f"no legal action in phase {state.phase}"
        assert all(parse_action(str(a)) == a for a in legal)
        state.apply_action(rng.choice(legal))
    raise AssertionError("the game did not end")


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, prefix + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found += _paths(value, prefix + (i,))
    return found


def _mutate(data: Any, path: tuple[Any, ...], how: str, value: Any) -> Any:
    if not path:
        return value
    data = json.loads(json.dumps(data))
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if how == "replace":
        parent[last] = value
    elif how == "delete":
        del parent[last]
    elif how == "duplicate" and isinstance(parent, list):
        parent.insert(last, parent[last])
    elif how == "duplicate":
        parent[last] = [parent[last], parent[last]]
    return data


def accepted_or_refused(text: str | bytes) -> None:
    try:
        state = loads_position(text)
    except PositionError as e:
        assert str(e)  # a message naming the problem
        return
    validate(state)
    assert loads_position(json.dumps(position_dict(state))) == state


@FUZZ
@given(json_values)
def test_arbitrary_json(value: Any) -> None:
    accepted_or_refused(json.dumps(value))


@FUZZ
@given(st.data(), st.sampled_from(["replace", "delete", "duplicate"]), json_values)
def test_mutated_valid_positions(data: st.DataObject, how: str, value: Any) -> None:
    path = data.draw(st.sampled_from(_paths(VALID)))
    accepted_or_refused(json.dumps(_mutate(VALID, path, how, value)))


@FUZZ
@given(st.integers(0, len(json.dumps(VALID))), st.binary(max_size=20))
def test_truncated_and_corrupted_text(cut: int, junk: bytes) -> None:
    text = json.dumps(VALID).encode()
    accepted_or_refused(text[:cut])
    accepted_or_refused(text[:cut] + junk + text[cut:])


@FUZZ
@given(st.data(), st.sampled_from(["replace", "delete", "duplicate"]), json_values)
def test_mutated_records(data: st.DataObject, how: str, value: Any) -> None:
    path = data.draw(st.sampled_from(_paths(RECORD)))
    try:
        loads_record(json.dumps(_mutate(RECORD, path, how, value)))
    except PositionError as e:
        assert str(e)


def _mutated_position(data: st.DataObject) -> dict[str, Any]:
    position = json.loads(json.dumps(data.draw(st.sampled_from(SOURCES))))
    for _ in range(data.draw(st.integers(1, 3))):
        lists = _card_lists(position)
        if data.draw(st.booleans()) and any(_at(position, p) for p in lists):
            source = _at(position, data.draw(st.sampled_from([p for p in lists if _at(position, p)])))
            card = source.pop(data.draw(st.integers(0, len(source) - 1)))
            _at(position, data.draw(st.sampled_from(lists))).append(card)  # a card changes zone
        else:
            path = data.draw(st.sampled_from(_paths(position)[1:]))
            position = _mutate(position, path, "replace", data.draw(game_values))
    return position


@PLAY_ON
@given(st.data())
def test_every_accepted_mutated_position_plays_to_the_end(data: st.DataObject) -> None:
    text = json.dumps(_mutated_position(data))
    try:
        state = loads_position(text)
    except PositionError:
        return
    assert loads_position(json.dumps(position_dict(state))) == state
    play_on(state, data.draw(st.integers(0, 2**16)))


@pytest.mark.parametrize("position", SOURCES, ids=lambda p: f"{p['players']}p-{p['round']}-{p['phase']}")
def test_every_phase_of_a_real_game_loads_and_plays_to_the_end(position: dict[str, Any]) -> None:
    play_on(loads_position(json.dumps(position)), 1)


@pytest.mark.parametrize("depth", [17, 960, 100_000])
def test_deep_nesting_is_refused_before_parsing(depth: int) -> None:
    for text in ("[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth):
        with pytest.raises(PositionError, match="nested too deeply"):
            loads_position(text[: 256 * 1024])
