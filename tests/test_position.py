"""Position and record files: round trips, the schema, and refusals that name the problem."""

from __future__ import annotations

import copy
import json
from typing import Any, Callable

import jsonschema
import pytest

from capital_lux.engine.game import Game
from capital_lux.engine.position import (
    MAX_INPUT_BYTES,
    PositionDict,
    PositionError,
    RecordDict,
    arrange,
    dumps_position,
    dumps_record,
    loads_position,
    loads_record,
    position_dict,
    schema,
)
from capital_lux.engine.state import new_game
from typed_json import hint_form, schema_form


@pytest.fixture
def mid_game() -> dict[str, Any]:
    game = Game(3, seed=8)
    while game.state.round < 2 or game.state.phase != "play":
        game.play(game.state.legal_actions()[-1])
    return position_dict(game.state)


def test_positions_match_the_published_schema(mid_game: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator.check_schema(schema("position"))
    jsonschema.validate(mid_game, schema("position"))
    assert mid_game["format"] == "capital-lux-position" and mid_game["version"] == 1


def test_the_schema_checked_with_its_references_inlined_finds_what_the_published_one_finds(
        mid_game: dict[str, Any]) -> None:
    """``position._validator`` checks against the schema with its ``$defs`` written in place
    (twice as fast): on every impossible position below and on documents wrong in each place
    a reference stood, the same errors, with the same messages at the same places."""
    import capital_lux.engine.position as position

    def errors(validator: Any, document: Any) -> list[tuple[str, str, str]]:
        return sorted((str(list(e.absolute_path)), e.validator, e.message) for e in validator.iter_errors(document))

    wrong_cards = {**mid_game, "deck": ["X9", 3], "hands": [["B7"], [], "B2"], "capital": ["G1", None]}
    wrong_seats = {**mid_game, "modifiers": {**mid_game["modifiers"], "above": [{"colour": "R", "owner": 4,
                                                                                  "value": 3}], "pending": 5}}
    documents = [change(mid_game) for change, _ in BAD.values()] + [wrong_cards, wrong_seats, [1, 2], {}]
    published = jsonschema.Draft202012Validator(schema("position"))
    assert "$ref" in json.dumps(schema("position")) and "$ref" not in json.dumps(position._inlined(schema("position")))
    found = [errors(position._validator("position"), d) for d in documents]
    assert found == [errors(published, d) for d in documents]
    assert sum(map(bool, found)) >= 4 and any("X9" in message for _, _, message in found[len(BAD)])
    record = json.loads(dumps_record(Game(2, seed=4).record()))
    broken = {**record, "actions": ["draw B5", 7]}
    for document in (record, broken):
        assert errors(position._validator("record"), document) == errors(
            jsonschema.Draft202012Validator(schema("record")), document)
    # a keyword beside a reference would be checked on its own, not with the definition's: refused
    beside = {"$defs": {"a": {"type": "object", "properties": {"x": {}}}},
              "properties": {"y": {"$ref": "#/$defs/a", "additionalProperties": False}}}
    with pytest.raises(AssertionError):
        position._inlined(beside)


def test_round_trip(mid_game: dict[str, Any]) -> None:
    state = loads_position(json.dumps(mid_game))
    assert position_dict(state) == mid_game
    assert loads_position(dumps_position(state)) == state


def _edit(change: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def apply(data: dict[str, Any]) -> dict[str, Any]:
        data = copy.deepcopy(data)
        change(data)
        return data

    return apply


def _add_card(data: dict[str, Any]) -> None:
    data["hometowns"][0].append("B3")


BAD = {
    "a 73rd card": (_edit(_add_card), r"B3 appears 5 times; the game has 4 \(73 cards in all"),
    "a fourth six of one colour": (_edit(lambda d: d["hometowns"][1].append("B6")), "B6 appears 4 times; the game has 3"),
    "a fifth modifier": (
        _edit(lambda d: d["modifiers"]["above"].append({"colour": "B", "owner": 0, "value": 4})),
        "expected each of -3, -1, \\+2, \\+4 exactly once",
    ),
    "a ninth gold disc": (_edit(lambda d: d["gold"]["players"].__setitem__(0, d["gold"]["players"][0] + 1)), "gold discs add up to 9"),
    "a card that does not exist": (_edit(lambda d: d["capital"].append("B7")), "capital/[0-9]+.*does not match"),
    "an unknown field": (_edit(lambda d: d.update(extra=1)), "Additional properties"),
    "a missing field": (_edit(lambda d: d.pop("deck")), "'deck' is a required property"),
    "a seat out of range": (_edit(lambda d: d.update(current_player=3)), "seat number is out of range for 3 players"),
    "too few hands": (_edit(lambda d: d["hands"].pop()), "hands has 2 entries; expected one per player"),
    "a wrong version": (_edit(lambda d: d.update(version=2)), "version"),
    "a phase that does not fit the round": (_edit(lambda d: d.update(round=0)), "does not fit round 0"),
    "an Agent with nothing to place": (_edit(lambda d: d.update(phase="agent")), "exactly when the phase is agent"),
}


@pytest.mark.parametrize("problem", sorted(BAD))
def test_impossible_positions_are_refused_with_a_reason(mid_game: dict[str, Any], problem: str) -> None:
    change, message = BAD[problem]
    with pytest.raises(PositionError, match=message):
        loads_position(json.dumps(change(mid_game)))


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("[1, 2]", "does not match its schema at the top level"),
        ("[" * 100_000, "nested too deeply|not valid JSON"),
        (b"\xff\xfe{", "not valid JSON"),
        (" " * (MAX_INPUT_BYTES + 1), f"at most {MAX_INPUT_BYTES}"),
        ('{"players": 2.0}', "2.0 is not a whole number"),
        ('{"players": NaN}', "NaN is not a whole number"),
    ],
)
def test_malformed_input_is_refused(text: str | bytes, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        loads_position(text)


def test_records_round_trip_and_check_their_scores() -> None:
    game = Game(2, seed=4)
    while not game.state.is_terminal():
        game.play(game.state.legal_actions()[0])
    text = dumps_record(game.record())
    assert loads_record(text).replay() == game.state
    jsonschema.validate(json.loads(text), schema("record"))
    data = json.loads(text)
    data["scores"] = [s + 1 for s in data["scores"]]
    with pytest.raises(PositionError, match="claims scores"):
        loads_record(json.dumps(data))


def test_records_with_bad_actions_are_refused() -> None:
    game = Game(2, seed=4)
    data = json.loads(dumps_record(game.record()))
    data["actions"].append("home B9")
    with pytest.raises(PositionError, match="unreadable action.*is not a card"):
        loads_record(json.dumps(data))
    data["actions"][-1] = "home B2" if "B2" not in data["actions"] else "home Y6"
    data["actions"] = data["actions"][:3] + ["capital Y2"]
    with pytest.raises(PositionError, match="does not replay"):
        loads_record(json.dumps(data))


def test_arrange_refuses_impossible_layouts() -> None:
    with pytest.raises(PositionError, match="more copies than the game has of B6"):
        arrange(2, hands=["B6 B6", "B6 B6"])
    with pytest.raises(PositionError, match="player 0 is to play but has no card"):
        arrange(2, hands=["", "B2"])


def test_dicts_with_float_numbers_are_refused(mid_game: dict[str, Any]) -> None:
    from capital_lux.engine.position import position_from_dict

    mid_game["players"] = 3.0
    with pytest.raises(PositionError, match="3.0 is not a whole number"):
        position_from_dict(mid_game)


def test_refusals_can_be_read_in_every_language(mid_game: dict[str, Any]) -> None:
    from capital_lux.i18n import LANGUAGES, translator

    mid_game["hometowns"][1].append("B6")
    with pytest.raises(PositionError) as refused:
        loads_position(json.dumps(mid_game))
    texts = {lang: refused.value.translated(translator(lang).gettext) for lang in LANGUAGES}
    assert texts["en"] == str(refused.value) and "B6 appears 4 times" in texts["en"]
    assert "B6 apparaît 4 fois" in texts["fr"] and "B6 aparece 4 veces" in texts["es"]
    assert "B6 aparece 4 vezes" in texts["pt"]


def test_a_record_whose_seed_does_not_draw_its_chance_outcomes_is_refused() -> None:
    game = Game(2, seed=4)
    for _ in range(3):
        game.play(game.state.legal_actions()[0])
    data = json.loads(dumps_record(game.record()))
    assert loads_record(json.dumps(data)).seed == 4
    data["seed"] = 5
    with pytest.raises(PositionError, match=r"seed 5 does not draw its chance outcome .* \(action \d+\)"):
        loads_record(json.dumps(data))


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["hands"].__setitem__(1, []), "player 1 has no card although no hand has run out"),
        (lambda d: d["modifiers"]["setup"].append(2), "the setup dealt 4 modifiers; 3 players"),
        (lambda d: d["draft"].__setitem__("step", 1), "only held while dealing or drafting"),
        (lambda d: d["gold_decisions"]["choices"].__setitem__(0, ["B"]), "only made in phase gold"),
        (lambda d: d.__setitem__("last_turns", [2, 0]), "last_turns lists seats still to play, each once, not the current"),
    ],
)
def test_positions_no_game_reaches_are_refused(mid_game: dict[str, Any], change: Callable[[Any], None],
                                               message: str) -> None:
    data = copy.deepcopy(mid_game)
    data["deck"] += data["hands"][1] if "no card" in message else []
    change(data)
    with pytest.raises(PositionError, match=message):
        loads_position(json.dumps(data))


def test_a_deal_with_no_cards_to_deal_is_refused() -> None:
    from capital_lux.lessons import gallery

    deal = position_dict(gallery.load("first-deal"))
    assert deal["phase"] == "deal"
    deal["discards"] += deal["deck"]
    deal["deck"] = []
    with pytest.raises(PositionError, match="the deal gives each player 0 cards here"):
        loads_position(json.dumps(deal))


def _crafted(mid_game: dict[str, Any]) -> dict[str, str]:
    """Inputs just under the size cap that a hostile page could send: each refused, quoting
    little of itself."""
    def with_(key: str, value: Any) -> str:
        return json.dumps({**mid_game, key: value})

    n = (MAX_INPUT_BYTES - 4000) // 6
    record = {"format": "capital-lux-record", "version": 1, "players": 3, "seed": 1, "actions": ["draw B5"] * (n // 2)}
    return {
        "deck of cards": with_("deck", ["B5"] * n),
        "deck of numbers": with_("deck", [1] * (2 * n)),
        "many keys": json.dumps({**mid_game, **{f"k{i}": 0 for i in range(n // 3)}}),
        "many seats": with_("hands", [["B5"] * 72] * (n // 80)),
        "long phase": with_("phase", "x" * (MAX_INPUT_BYTES - 4000)),
        "record": json.dumps(record),
    }


@pytest.mark.parametrize("name", ["deck of cards", "deck of numbers", "many keys", "many seats", "long phase",
                                  "record"])
def test_crafted_inputs_under_the_cap_are_refused_in_a_short_message(
        mid_game: dict[str, Any], name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _crafted(mid_game)[name]
    assert len(text.encode()) <= MAX_INPUT_BYTES
    import capital_lux.engine.position as position

    if name not in ("long phase", "many keys"):  # too many entries: refused before the schema checks them one by one
        monkeypatch.setattr(position, "_validator", lambda _name: pytest.fail("checked entry by entry"))
    with pytest.raises(PositionError) as refused:
        (loads_record if name == "record" else loads_position)(text)
    assert len(str(refused.value)) < 300, str(refused.value)[:300]


def test_the_size_cap_counts_bytes_not_characters() -> None:
    text = json.dumps({"format": "é" * (MAX_INPUT_BYTES // 2 + 10)}, ensure_ascii=False)
    assert len(text) < MAX_INPUT_BYTES < len(text.encode())
    with pytest.raises(PositionError, match=f"is {len(text.encode())} bytes; at most {MAX_INPUT_BYTES}"):
        loads_position(text)


@pytest.mark.parametrize("name, typed", [("position", PositionDict), ("record", RecordDict)])
def test_the_typed_dicts_say_what_the_schemas_accept(name: str, typed: type) -> None:
    """``position_from_dict`` and ``loads_record`` take a dict the schema accepted for its
    ``TypedDict``: the two must name the same keys, the same required ones, the same values."""
    assert hint_form(typed) == schema_form(schema(name), schema(name))


def test_a_position_dict_shares_no_list_with_the_state() -> None:
    game = Game(3, seed=8)
    while game.state.last_turns is None:  # the round's last turns: the state keeps a list of seats
        game.play(game.state.legal_actions()[0])
    before = dumps_position(game.state)
    data = position_dict(game.state)
    for field in data.values():  # every list of the dict and of its parts, emptied in place
        for part in field.values() if isinstance(field, dict) else [field]:
            if isinstance(part, list):
                part.clear()
    assert dumps_position(game.state) == before


def test_jsonschema_is_imported_without_its_iri_grammars_and_refuses_the_same() -> None:
    """Imported plainly, jsonschema imports ``rfc3987_syntax``, which builds its IRI grammars
    (0.9 s of CPU, python-jsonschema/jsonschema#1428); through ``import_jsonschema`` it does
    not, a later import of it is left free, and a position is refused with the same message."""
    import subprocess
    import sys

    def fresh(code: str) -> list[str]:
        probe = f"{code}\nimport sys\nprint('rfc3987_syntax' in sys.modules, sys.modules.get('rfc3987_syntax', 0))"
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
        return done.stdout.strip().splitlines()

    plain = fresh("import jsonschema")
    assert plain[0].startswith("True <module"), "jsonschema no longer imports rfc3987_syntax: the guard can go"
    data = json.loads(dumps_position(new_game(3)))
    data["round"] = "two"
    with pytest.raises(PositionError) as here:
        loads_position(json.dumps(data))
    refused = fresh("from capital_lux.engine.position import loads_position\n"
                    f"try:\n    loads_position({json.dumps(data)!r})\nexcept Exception as e:\n    print(e)\n"
                    "import jsonschema")
    assert refused == [str(here.value), "False 0"]
