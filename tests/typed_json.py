"""A JSON Schema and the ``TypedDict`` that types what it accepts, compared key for key.

The package narrows a checked file to its ``TypedDict`` (``position.PositionDict``,
``progress.ProgressFile``) on the schema's word alone; these helpers keep the two from drifting
apart: the same keys, the same required keys, and the same kind of value under each.
"""

from __future__ import annotations

import types
from typing import Any, Union, get_args, get_origin, get_type_hints, is_typeddict

#: A type reduced to what both sides can say: "int", "str", "None", ("list", item),
#: ("union", members), ("object", {key: form}, required keys).
Form = object


def schema_form(node: dict[str, Any], root: dict[str, Any]) -> Form:
    """The form of values a schema node accepts."""
    while "$ref" in node:
        node = root["$defs"][node["$ref"].rsplit("/", 1)[1]]
    if "oneOf" in node:
        return ("union", frozenset(schema_form(option, root) for option in node["oneOf"]))
    if "const" in node:
        return type(node["const"]).__name__
    if "enum" in node:
        (kind,) = {type(value).__name__ for value in node["enum"]}
        return kind
    kind = node["type"]
    if kind == "array":
        return ("list", schema_form(node["items"], root))
    if kind == "object" and "properties" not in node:  # any keys, each value of one kind
        return ("dict", "str", schema_form(node["additionalProperties"], root))
    if kind == "object":
        assert node.get("additionalProperties") is False
        return ("object", {key: schema_form(value, root) for key, value in node["properties"].items()},
                frozenset(node.get("required", [])))
    return {"integer": "int", "string": "str", "null": "None"}[kind]


def hint_form(hint: object) -> Form:
    """The form of values a type annotation allows."""
    if is_typeddict(hint):
        return ("object", {key: hint_form(value) for key, value in get_type_hints(hint).items()},
                frozenset(hint.__required_keys__))
    if hint is type(None):
        return "None"
    if get_origin(hint) is list:
        (item,) = get_args(hint)
        return ("list", hint_form(item))
    if get_origin(hint) in (Union, types.UnionType):
        return ("union", frozenset(hint_form(member) for member in get_args(hint)))
    if get_origin(hint) is dict:
        key, value = get_args(hint)
        return ("dict", hint_form(key), hint_form(value))
    assert isinstance(hint, type), hint
    return hint.__name__
