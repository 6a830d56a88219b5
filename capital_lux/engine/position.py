"""Positions and game records as JSON, checked against the schemas in ``schemas/``.

``dumps_position(state)`` writes a whole table (hidden information included) and
``loads_position(text)`` reads it back to an equal state, or refuses it with a
``PositionError`` naming the problem. Records hold a game's configuration, seed
and every action in notation; ``loads_record`` replays them.
"""

from __future__ import annotations

import json
import random
import sys
from bisect import insort
from collections import Counter
from collections.abc import Sized
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Final, NoReturn, TypeAlias, TypedDict, Union, cast

from .cards import ALL_CARDS, COLOURS, COPIES, GOLD_DISCS, KIND, MODIFIERS, N_, Card, CapitalLuxError
from .game import GameRecord, sample_chance
from .notation import parse_action
from .phases import PLAY
from .reachable import PositionError, validate
from .state import GameState, new_game

if TYPE_CHECKING:
    import jsonschema

__all__ = [
    "JSON", "MAX_DEPTH", "MAX_INPUT_BYTES", "POSITION_FORMAT", "RECORD_FORMAT", "VERSION", "PositionDict",
    "PositionError", "RecordDict", "arrange", "cards", "dumps_position", "dumps_record", "import_jsonschema",
    "loads_position", "loads_record", "own_position", "position_dict", "position_from_dict", "record_dict", "schema",
    "seed_mismatch", "validate", "parse_json",
]

POSITION_FORMAT = "capital-lux-position"
RECORD_FORMAT = "capital-lux-record"
VERSION = 1
#: Inputs larger than this are refused before parsing (a full position is about 3 KB).
MAX_INPUT_BYTES = 256 * 1024
#: Deeper nesting is refused before parsing: a position nests 4 levels, a record 2.
MAX_DEPTH = 16

#: A JSON value as ``json.loads`` gives it: what a file holds before its schema is checked.
JSON: TypeAlias = Union[dict[str, "JSON"], list["JSON"], str, int, float, bool, None]


# The JSON forms the schemas in ``schemas/`` describe, key for key (tests/test_position.py
# holds the two together): what a dict is once its schema has accepted it.
class DraftDict(TypedDict):
    step: int
    deal_size: int
    choosing: list[list[str]]
    picked: list[list[str]]


class PlacedModifierDict(TypedDict):
    colour: str
    owner: int
    value: int


class ModifiersDict(TypedDict):
    deck: list[int]
    above: list[PlacedModifierDict]
    pending: int | None
    setup: list[int]


class GoldDict(TypedDict):
    players: list[int]
    pile: int


class GoldDecisionsDict(TypedDict):
    waiting: list[int]
    choices: list[list[str] | None]


class PositionDict(TypedDict):
    """A position as ``position_dict`` writes it (``schemas/position.schema.json``)."""

    format: str
    version: int
    players: int
    round: int
    phase: str
    starting_player: int
    current_player: int
    deck: list[str]
    hands: list[list[str]]
    draft: DraftDict
    hometowns: list[list[str]]
    capital: list[str]
    modifiers: ModifiersDict
    gold: GoldDict
    bonus: list[list[str]]
    discards: list[str]
    last_turns: list[int] | None
    gold_decisions: GoldDecisionsDict


class _RecordRequired(TypedDict):
    format: str
    version: int
    players: int
    seed: int
    actions: list[str]


class RecordDict(_RecordRequired, total=False):
    """A game record as ``record_dict`` writes it (``schemas/record.schema.json``)."""

    scores: list[int]


@cache
def schema(name: str) -> dict[str, JSON]:
    """The JSON Schema ``position`` or ``record`` shipped with the package."""
    text = resources.files("capital_lux.engine").joinpath(f"schemas/{name}.schema.json").read_text("utf-8")
    result: dict[str, JSON] = json.loads(text)
    return result


# -- writing ----------------------------------------------------------------------------
def _cards(cards: list[Card]) -> list[str]:
    return [str(c) for c in sorted(cards)]


def _town(town: dict[str, list[int]]) -> list[str]:
    return [f"{c}{v}" for c in COLOURS for v in town[c]]


def position_dict(s: GameState) -> PositionDict:
    return {
        "format": POSITION_FORMAT,
        "version": VERSION,
        "players": s.players,
        "round": s.round,
        "phase": s.phase,
        "starting_player": s.starting_player,
        "current_player": s.current,
        "deck": [str(card) for kind, card in enumerate(ALL_CARDS) for _ in range(s.deck[kind])],
        "hands": [_cards(h) for h in s.hands],
        "draft": {
            "step": s.draft_step,
            "deal_size": s.deal_size,
            "choosing": [_cards(h) for h in s.draft_hands],
            "picked": [_cards(h) for h in s.draft_picks],
        },
        "hometowns": [_town(t) for t in s.hometowns],
        "capital": _town(s.capital),
        "modifiers": {
            "deck": list(s.modifier_deck),
            "above": [{"colour": c, "owner": o, "value": v} for c in COLOURS for o, v in s.modifiers_above[c]],
            "pending": s.pending_modifier,
            "setup": list(s.setup_modifiers),
        },
        "gold": {"players": list(s.gold), "pile": s.gold_pile},
        "bonus": [_cards(b) for b in s.bonus],
        "discards": _cards(s.discards),
        "last_turns": None if s.last_turns is None else list(s.last_turns),
        "gold_decisions": {
            "waiting": list(s.gold_queue),
            "choices": [None if c is None else list(c) for c in s.gold_choices],
        },
    }


def dumps_position(s: GameState) -> str:
    return json.dumps(position_dict(s), indent=1)


# -- reading ----------------------------------------------------------------------------
def parse_json(text: str | bytes) -> JSON:
    """The JSON of a position or record file, read with the house's guards: a size cap in bytes,
    a nesting cap checked before parsing, no floats, NaN or infinities; a ``PositionError``
    saying what is wrong otherwise. Every game's files are read through it."""
    # The cap is in bytes, as the text is stored and sent (UTF-8); a text longer in characters
    # than the cap in bytes is refused before it is encoded.
    size = len(text) if isinstance(text, bytes) or len(text) > MAX_INPUT_BYTES else len(
        text.encode("utf-8", "surrogatepass"))
    if size > MAX_INPUT_BYTES:
        raise PositionError(N_("input is {size} bytes; at most {limit} are accepted"), size=size, limit=MAX_INPUT_BYTES)
    if _depth(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text) > MAX_DEPTH:
        raise PositionError(N_("input is nested too deeply to be a position or record"))
    try:
        data: JSON = json.loads(text, parse_float=_refuse_number, parse_constant=_refuse_number)
    except RecursionError:
        raise PositionError(N_("input is nested too deeply to be a position or record")) from None
    except PositionError:
        raise
    except (ValueError, UnicodeDecodeError) as e:
        raise PositionError(N_("not valid JSON: {problem}"), problem=e) from None
    return data


def _depth(data: bytes) -> int:
    """The deepest nesting of brackets outside strings, found without parsing (no recursion)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def import_jsonschema() -> None:
    """Import jsonschema without the IRI grammars it would build: 0.9 s of CPU less in
    every process that imports it (every kernel the class server starts, and the server).

    jsonschema 4.26, imported, imports ``rfc3987_syntax`` for its ``iri`` format checks where
    it is installed (``jsonschema[format-nongpl]``, which Jupyter's packages ask for), and
    that module builds 38 Earley parsers as it is imported (python-jsonschema/jsonschema#1428).
    Neither our schemas nor Jupyter's check an ``iri`` format. So the first import of
    jsonschema in a process is made with ``rfc3987_syntax`` unimportable, which jsonschema
    takes as not installed; a later import of ``rfc3987_syntax`` itself still works."""
    if "jsonschema" not in sys.modules and "rfc3987_syntax" not in sys.modules:
        sys.modules["rfc3987_syntax"] = None  # type: ignore[assignment]  # import refused: ImportError
        try:
            import jsonschema  # noqa: F401
        finally:
            del sys.modules["rfc3987_syntax"]


@cache
def _validator(name: str) -> jsonschema.protocols.Validator:
    # Imported on first use, without its IRI grammars (``import_jsonschema``).
    import_jsonschema()
    import jsonschema

    inlined = _inlined(schema(name))
    assert isinstance(inlined, dict)
    return jsonschema.Draft202012Validator(inlined)


def _inlined(node: JSON, defs: JSON = None) -> JSON:
    """A shipped schema with each ``{"$ref": "#/$defs/x"}`` replaced by the definition (and
    the annotations beside it): the same checks, the same messages at the same places,
    without looking the reference up again for each card of each array, which was half of
    a position's check (1.9 ms of a 4-player deal's, 0.87 ms so). Its references are to its
    own ``$defs``, none of them to itself."""
    if isinstance(node, list):
        return [_inlined(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if defs is None:
        defs = node.get("$defs", {})
    found = {key: _inlined(value, defs) for key, value in node.items() if key != "$defs"}
    ref = found.pop("$ref", None)
    if ref is None:
        return found
    assert isinstance(ref, str) and ref.startswith("#/$defs/") and isinstance(defs, dict), ref
    target = _inlined(defs[ref.removeprefix("#/$defs/")], defs)
    # Beside a reference, only words for the reader: a keyword there would be checked on its
    # own, not merged with the definition's (``additionalProperties`` reads the ``properties``
    # beside it)
    assert isinstance(target, dict) and set(found) <= ANNOTATIONS and not set(target) & set(found), ref
    return {**target, **found}


#: The schema keywords that check nothing (JSON Schema 2020-12, the meta-data vocabulary).
ANNOTATIONS: Final = {"title", "description", "$comment", "examples", "default", "deprecated"}


def _refuse_number(text: str) -> NoReturn:
    # JSON Schema counts 2.0 as an integer; the game has only whole numbers, written as such.
    raise PositionError(N_("{text} is not a whole number: counts, seats and values are written like 2"), text=text)


def _refuse_floats(data: JSON) -> None:
    """Refuse 2.0 where 2 is meant (schema-checked data is shallow, so recursion is safe)."""
    if isinstance(data, float):
        _refuse_number(repr(data))
    for item in data.values() if isinstance(data, dict) else data if isinstance(data, list) else ():
        _refuse_floats(item)


#: The longest part of the input a refusal quotes: enough to recognise it, never the input again.
EXCERPT = 100


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text``, or its beginning and end around "…" when longer than ``limit`` characters."""
    if len(text) <= limit:
        return text
    tail = limit // 4
    return f"{text[:limit - tail - 1]}…{text[-tail:]}"


def _check_schema(data: JSON, name: str) -> None:
    import_jsonschema()
    from jsonschema.exceptions import best_match

    _check_version(data, name)
    _check_sizes(data, schema(name), schema(name), name, [])
    error = best_match(_validator(name).iter_errors(data))
    if error is not None:
        where = excerpt("/".join(str(p) for p in error.absolute_path)) or "the top level"
        raise PositionError(N_("{name} does not match its schema at {where}: {problem}"), name=name, where=where,
                            problem=excerpt(error.message))


def _check_version(data: JSON, name: str) -> None:
    """Refuse a record or position of another version by saying so, before the schema's
    own words ("1 was expected") would."""
    if not isinstance(data, dict) or data.get("version", VERSION) == VERSION:
        return
    version = excerpt(json.dumps(data["version"]))
    if name == "record":
        raise PositionError(N_("this record was written in version {version} of the record format; this program "
                               "reads version {supported}"), version=version, supported=VERSION)
    raise PositionError(N_("this position was written in version {version} of the position format; this program "
                           "reads version {supported}"), version=version, supported=VERSION)


def _check_sizes(data: JSON, node: dict[str, JSON], root: dict[str, JSON], name: str, path: list[str]) -> None:
    """Refuse an array longer than its schema's ``maxItems`` before the schema checks every
    entry: 40,000 cards in a deck are refused at once, not after a second of checking each.
    Follows the schema only where the data fits it; the full check comes next."""
    node = _resolved(node, root)
    if isinstance(data, list):
        node = next((n for n in _entries(node.get("oneOf")) if isinstance(n, dict) and n.get("type") == "array"),
                    node)
        limit = node.get("maxItems")
        items = node.get("items")
        if isinstance(limit, int) and len(data) > limit:
            raise PositionError(N_("{name} has {count} entries at {where}; at most {limit} are accepted"), name=name,
                                count=len(data), where=excerpt("/".join(path)) or "the top level", limit=limit)
        if isinstance(items, dict):
            for i, item in enumerate(data):
                _check_sizes(item, items, root, name, [*path, str(i)])
    elif isinstance(data, dict) and isinstance(known := node.get("properties"), dict):
        for key, value in data.items():
            if isinstance(sub := known.get(key), dict):
                _check_sizes(value, sub, root, name, [*path, key])


def _resolved(node: dict[str, JSON], root: dict[str, JSON]) -> dict[str, JSON]:
    """A schema node, its ``$ref`` (``"#/$defs/cards"``) followed."""
    while isinstance(ref := node.get("$ref"), str) and isinstance(defs := root.get("$defs"), dict):
        target = defs.get(ref.rsplit("/", 1)[1])
        if not isinstance(target, dict):
            break
        node = target
    return node


def _entries(value: JSON) -> list[JSON]:
    """A schema keyword's list (``oneOf``), or none."""
    return value if isinstance(value, list) else []


def loads_position(text: str | bytes) -> GameState:
    """Read a position written by ``dumps_position``; refuse anything impossible."""
    return position_from_dict(parse_json(text))


def position_from_dict(data: PositionDict | JSON) -> GameState:
    """The position of a dict, as read or as edited; anything impossible is refused with a
    ``PositionError`` naming the problem."""
    untrusted = cast(JSON, data)  # a PositionDict is a JSON object too (to mypy, a TypedDict is no dict[str, JSON])
    _check_schema(untrusted, "position")
    _refuse_floats(untrusted)
    return own_position(cast(PositionDict, data))  # as the schema checked it: key for key (test_position)


def own_position(data: PositionDict) -> GameState:
    """The position of a dict this program wrote itself (a gallery's table, or an exercise's
    variation of one), with every check of the seats and the rules but not the schema's:
    that guards what comes from outside, and costs an exercise's drawing most of its time."""
    n = data["players"]
    per_seat: list[tuple[str, Sized]] = [
        ("hands", data["hands"]), ("hometowns", data["hometowns"]), ("bonus", data["bonus"]),
        ("draft/choosing", data["draft"]["choosing"]), ("draft/picked", data["draft"]["picked"]),
        ("gold/players", data["gold"]["players"]), ("gold_decisions/choices", data["gold_decisions"]["choices"])]
    for key, items in per_seat:
        _seat_count(items, n, key)
    seats = [data["starting_player"], data["current_player"]] + [m["owner"] for m in data["modifiers"]["above"]]
    seats += (data["last_turns"] or []) + data["gold_decisions"]["waiting"]
    if any(seat >= n for seat in seats):
        raise PositionError(N_("a seat number is out of range for {n} players (seats are 0 to {last})"), n=n, last=n - 1)

    s = GameState(n)
    s.round, s.phase = data["round"], data["phase"]
    s.starting_player, s.current = data["starting_player"], data["current_player"]
    s.deck = [0] * len(ALL_CARDS)
    for card in cards(data["deck"]):
        s.deck[KIND[card]] += 1
    s.hands = [sorted(cards(h)) for h in data["hands"]]
    s.draft_step, s.deal_size = data["draft"]["step"], data["draft"]["deal_size"]
    s.draft_hands = [sorted(cards(h)) for h in data["draft"]["choosing"]]
    s.draft_picks = [sorted(cards(h)) for h in data["draft"]["picked"]]
    for p, town in enumerate(data["hometowns"]):
        for card in cards(town):
            s.hometowns[p][card.colour].append(card.value)
    for card in cards(data["capital"]):
        s.capital[card.colour].append(card.value)
    for zone in [s.capital, *s.hometowns]:
        for values in zone.values():
            values.sort()
    mods = data["modifiers"]
    s.modifier_deck = sorted(mods["deck"])
    for m in mods["above"]:
        s.modifiers_above[m["colour"]].append((m["owner"], m["value"]))
    s.pending_modifier, s.setup_modifiers = mods["pending"], list(mods["setup"])
    s.gold, s.gold_pile = list(data["gold"]["players"]), data["gold"]["pile"]
    s.bonus = [sorted(cards(b)) for b in data["bonus"]]
    s.discards = sorted(cards(data["discards"]))
    s.last_turns = None if data["last_turns"] is None else list(data["last_turns"])
    s.gold_queue = list(data["gold_decisions"]["waiting"])
    s.gold_choices = [None if c is None else tuple(sorted(set(c))) for c in data["gold_decisions"]["choices"]]
    validate(s)
    return s


def cards(texts: list[str]) -> list[Card]:
    """Cards from their text forms (already checked by the schema)."""
    return [Card(t[0], int(t[1])) for t in texts]


def _seat_count(items: Sized, n: int, key: str) -> None:
    if len(items) != n:
        raise PositionError(N_("{key} has {count} entries; expected one per player ({n})"), key=key, count=len(items), n=n)


# -- records ----------------------------------------------------------------------------
def record_dict(record: GameRecord, scores: list[int] | None = None) -> RecordDict:
    data: RecordDict = {
        "format": RECORD_FORMAT,
        "version": VERSION,
        "players": record.players,
        "seed": record.seed,
        "actions": [str(a) for a in record.actions],
    }
    if scores is not None:
        data["scores"] = scores
    return data


def dumps_record(record: GameRecord) -> str:
    final = record.replay()
    scores = final.scores() if final.is_terminal() else None
    return json.dumps(record_dict(record, scores), indent=1)


def seed_mismatch(record: GameRecord) -> int | None:
    """The index of the first chance outcome that the record's seed does not draw, or None.

    A record spells out every chance outcome, so it replays without its seed; the
    seed is checked by drawing again as ``Game`` does (a ``random.Random(seed)``
    consumed only at chance events), so a record never shows a seed that would
    give another game.
    """
    rng = random.Random(record.seed)
    state = new_game(record.players)
    for index, action in enumerate(record.actions):
        if state.is_chance_node() and sample_chance(state, rng) != action:
            return index
        state.apply_action(action)
    return None


def loads_record(text: str | bytes, check_seed: bool = True, check_schema: bool = True) -> GameRecord:
    """Read a record and check that it replays legally, with the chance outcomes its seed
    draws (see ``seed_mismatch``; ``check_seed=False`` for a record written out by hand,
    whose outcomes were chosen, not drawn), and to its scores, if given.

    ``check_schema=False`` is for the package's own records (the lessons' positions, which
    the tests check against the schema): work done already, at every page that opens on a
    chapter. The record is still replayed and checked move by move."""
    parsed = parse_json(text)
    if check_schema:
        _check_schema(parsed, "record")
    data = cast(RecordDict, parsed)  # what the schema has just checked, or one of the package's own records
    try:
        actions = [parse_action(a) for a in data["actions"]]
    except CapitalLuxError as e:
        raise PositionError(N_("record has an unreadable action: {problem}"), problem=e) from None
    record = GameRecord(data["players"], data["seed"], actions)
    try:
        final = record.replay()
    except CapitalLuxError as e:
        raise PositionError(N_("record does not replay: {problem}"), problem=e) from None
    mismatch = seed_mismatch(record) if check_seed else None
    if mismatch is not None:
        raise PositionError(N_("the record's seed {seed} does not draw its chance outcome {action} (action {index}): "
                               "a record keeps the seed its game was played with"), seed=record.seed,
                            action=str(record.actions[mismatch]), index=mismatch + 1)
    if "scores" in data and (not final.is_terminal() or final.scores() != data["scores"]):
        raise PositionError(N_("record claims scores {claimed} but replays to {scores}"), claimed=data["scores"],
                            scores=final.scores())
    return record


# -- prepared positions ---------------------------------------------------------------
def _read(text: str) -> list[Card]:
    return sorted(Card.parse(t) for t in text.split())


def arrange(
    players: int,
    *,
    round: int = 1,
    phase: str = PLAY,
    starting_player: int = 0,
    current: int | None = None,
    hands: list[str] | None = None,
    hometowns: list[str] | None = None,
    capital: str = "",
    modifiers_above: list[tuple[str, int, int]] | None = None,
    modifier_deck: list[int] | None = None,
    gold: list[int] | None = None,
    bonus: list[str] | None = None,
    discards: str = "",
    last_turns: list[int] | None = None,
) -> GameState:
    """A position laid out by hand, cards written as text (``"B5 G3"``).

    Every card not placed is in the deck; every modifier not placed is in the
    modifier deck unless ``modifier_deck`` says otherwise; gold not given to
    players is in the pile. The result is validated like a loaded position.

    >>> s = arrange(3, hands=["B5 G3", "Y2", "P6"], capital="B4 Y6", gold=[1, 0, 0])
    >>> s.current_player(), s.deck_size(), s.gold_pile
    (0, 66, 7)
    """
    s = GameState(players)
    s.round, s.phase, s.starting_player = round, phase, starting_player
    s.current = starting_player if current is None else current
    s.hands = [_read(h) for h in hands or [""] * players]
    for p, town in enumerate(hometowns or []):
        for card in _read(town):
            insort(s.hometowns[p][card.colour], card.value)
    for card in _read(capital):
        insort(s.capital[card.colour], card.value)
    s.bonus = [_read(b) for b in bonus or [""] * players]
    s.discards = _read(discards)
    for colour, owner, value in modifiers_above or []:
        s.modifiers_above[colour].append((owner, value))
    placed = [v for c in COLOURS for _, v in s.modifiers_above[c]]
    s.modifier_deck = sorted(modifier_deck if modifier_deck is not None else set(MODIFIERS) - set(placed))
    s.gold = list(gold or [0] * players)
    s.gold_pile = GOLD_DISCS - sum(s.gold)
    s.last_turns = last_turns
    used: Counter[Card] = Counter(c for zone in s.hands + s.bonus + [s.discards] for c in zone)
    used.update(Card(c, v) for town in [s.capital, *s.hometowns] for c, vs in town.items() for v in vs)
    s.deck = [COPIES[card.value] - used[card] for card in ALL_CARDS]
    if any(n < 0 for n in s.deck):
        over = [str(card) for card, n in zip(ALL_CARDS, s.deck) if n < 0]
        raise PositionError(N_("more copies than the game has of {cards}"), cards=", ".join(over))
    validate(s)
    return s
