"""Hostile positions and records: every input is accepted as valid or refused with
the typed error; nothing else escapes and nothing hangs (each example has a deadline)."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from capital_lux.engine.game import Game
from capital_lux.engine.position import PositionError, loads_position, loads_record, position_dict, record_dict, validate

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
