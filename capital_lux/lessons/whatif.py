"""The what-if explorer's logic, without widgets: build, edit, load, play and export positions.

A position is edited as its JSON form (the dict of ``position.position_dict``) and
accepted only when ``position.position_from_dict`` accepts it, so every refusal
carries the ``PositionError`` message naming the problem (a 73rd card, a fifth
modifier, a sixth 6 of one colour, ...).

>>> data = build_position(2, round=1, hands=[["B5"], ["G3"]], capital=["Y4"])
>>> state = position_from_dict(data)
>>> state.deck_size()
69
>>> edited = edit_zone(data, "capital", None, "Y4 Y6 Y6 Y6 Y6")
>>> try:
...     position_from_dict(edited)
... except PositionError as error:
...     print(error)
Y6 appears 4 times; the game has 3 (73 cards in all where the game has 72)
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence, TypedDict

from ..engine.cards import ALL_CARDS, COLOURS, COPIES, GOLD_DISCS, MODIFIERS, N_, Card, CapitalLuxError
from ..engine.game import resolve_chance
from ..engine.notation import Action
from ..engine.position import (
    PlacedModifierDict, PositionDict, PositionError, dumps_position, loads_position, position_dict, position_from_dict,
)
from ..engine.state import GameState
from ..engine.views import PlayerView, determinize

__all__ = [
    "PositionError",
    "ZONES",
    "build_position",
    "edit_zone",
    "edit_modifiers",
    "edit_gold",
    "edit_turn",
    "edit_last_turns",
    "last_turns_text",
    "zone_text",
    "modifiers_text",
    "read_upload",
    "load_text",
    "play_and_continue",
    "export_text",
    "table_of_view",
    "Bot",
]

Bot = Callable[[GameState, random.Random], Action]

#: Zones that hold profession cards: (key in the position dict, one entry per seat?).
ZONES: tuple[tuple[str, bool], ...] = (
    ("hands", True),
    ("hometowns", True),
    ("bonus", True),
    ("capital", False),
    ("discards", False),
)


def _texts(cards: Iterable[str | Card]) -> list[str]:
    return sorted(str(Card.parse(str(c))) for c in cards)


def build_position(
    players: int,
    *,
    round: int,
    phase: str = "play",
    current: int = 0,
    starting: int = 0,
    hands: Sequence[Sequence[str]] | None = None,
    hometowns: Sequence[Sequence[str]] | None = None,
    capital: Sequence[str] = (),
    modifiers_above: Sequence[tuple[str, int, int]] = (),
    pending: int | None = None,
    setup: Sequence[int] = (),
    gold: Sequence[int] | None = None,
    bonus: Sequence[Sequence[str]] | None = None,
    discards: Sequence[str] = (),
    last_turns: Sequence[int] | None = None,
    deal_size: int = 0,
) -> PositionDict:
    """A position dict with every card not placed elsewhere in the deck.

    ``modifiers_above`` lists ``(colour, owner, value)``; the modifiers not placed
    (nor pending) make the modifier deck. Gold not given to players is in the pile.
    The result is not checked: pass it to ``position_from_dict``.
    """
    empty: list[list[str]] = [[] for _ in range(players)]
    seats = {
        "hands": [_texts(h) for h in (hands or empty)],
        "hometowns": [_texts(h) for h in (hometowns or empty)],
        "bonus": [_texts(h) for h in (bonus or empty)],
    }
    placed: Counter[str] = Counter(_texts(capital) + _texts(discards))
    for zone in seats.values():
        for cards in zone:
            placed.update(cards)
    deck = [str(card) for card in ALL_CARDS for _ in range(max(0, COPIES[card.value] - placed[str(card)]))]
    used = [v for _, _, v in modifiers_above] + ([] if pending is None else [pending])
    mod_deck = list(MODIFIERS)
    for value in used:
        if value in mod_deck:
            mod_deck.remove(value)
    gold_players = list(gold) if gold is not None else [0] * players
    return {
        "format": "capital-lux-position",
        "version": 1,
        "players": players,
        "round": round,
        "phase": phase,
        "starting_player": starting,
        "current_player": current,
        "deck": deck,
        "hands": seats["hands"],
        "draft": {"step": 0, "deal_size": deal_size, "choosing": copy.deepcopy(empty), "picked": copy.deepcopy(empty)},
        "hometowns": seats["hometowns"],
        "capital": _texts(capital),
        "modifiers": {
            "deck": mod_deck,
            "above": [{"colour": c, "owner": o, "value": v} for c, o, v in modifiers_above],
            "pending": pending,
            "setup": list(setup),
        },
        "gold": {"players": gold_players, "pile": GOLD_DISCS - sum(gold_players)},
        "bonus": seats["bonus"],
        "discards": _texts(discards),
        "last_turns": None if last_turns is None else list(last_turns),
        "gold_decisions": {"waiting": [], "choices": [None] * players},
    }


# -- editing: each edit returns a new dict; position_from_dict decides if it is possible --
def _zone(data: PositionDict, zone: str, seat: int | None) -> list[str]:
    """The list of a zone's cards in ``data``: one seat's of the zones held per seat (``seat``
    given), or the table's (``seat`` None). ``KeyError`` for any other zone."""
    if seat is None:
        return {"capital": data["capital"], "discards": data["discards"], "deck": data["deck"]}[zone]
    return {"hands": data["hands"], "hometowns": data["hometowns"], "bonus": data["bonus"]}[zone][seat]


def zone_text(data: PositionDict, zone: str, seat: int | None) -> str:
    """The cards of a zone as text (``"B5 G3"``)."""
    return " ".join(_zone(data, zone, seat))


def edit_zone(data: PositionDict, zone: str, seat: int | None, text: str) -> PositionDict:
    """Replace the cards of a zone; cards added or removed come from or go to the deck.

    Raises ``NotationError`` for text that does not spell cards.
    """
    new = copy.deepcopy(data)
    cards = _texts(text.replace(",", " ").split())
    old = _zone(data, zone, seat)
    _zone(new, zone, seat)[:] = cards
    deck = Counter(new["deck"])
    deck.update(old)
    deck.subtract(cards)
    # Cards the deck cannot give stay counted elsewhere: validation names the excess.
    new["deck"] = sorted(card for card, n in deck.items() for _ in range(max(0, n)))
    return new


def modifiers_text(data: PositionDict) -> str:
    """Modifiers above the capital as text: ``Y:1:+4 B:0:-1`` (colour:owner:value)."""
    return " ".join(f"{m['colour']}:{m['owner']}:{m['value']:+d}" for m in data["modifiers"]["above"])


def edit_modifiers(data: PositionDict, text: str) -> PositionDict:
    """Set the modifiers above the capital from ``colour:owner:value`` words.

    The modifier deck becomes the modifiers not placed (nor pending); a modifier
    placed twice, or a fifth one, is refused by validation.
    """
    new = copy.deepcopy(data)
    above: list[PlacedModifierDict] = []
    for word in text.replace(",", " ").split():
        parts = word.split(":")
        if len(parts) != 3 or parts[0].upper() not in COLOURS:
            raise PositionError(N_("{word} is not a placed modifier: write colour:owner:value, like Y:1:+4"), word=repr(word))
        try:
            owner, value = int(parts[1]), int(parts[2])
        except ValueError:
            raise PositionError(N_("{word} is not a placed modifier: write colour:owner:value, like Y:1:+4"), word=repr(word)) from None
        above.append({"colour": parts[0].upper(), "owner": owner, "value": value})
    new["modifiers"]["above"] = above
    deck = list(MODIFIERS)
    pending = new["modifiers"]["pending"]
    for value in [m["value"] for m in above] + ([] if pending is None else [pending]):
        if value in deck:
            deck.remove(value)
    new["modifiers"]["deck"] = deck
    return new


def edit_gold(data: PositionDict, gold: Sequence[int]) -> PositionDict:
    """Set each player's gold; the pile holds the rest of the 8 discs."""
    if min(gold, default=0) < 0:
        raise PositionError(N_("a player cannot hold fewer than 0 gold discs"))
    if sum(gold) > GOLD_DISCS:
        raise PositionError(N_("gold discs add up to {total}; the game has {gold}"), total=sum(gold), gold=GOLD_DISCS)
    new = copy.deepcopy(data)
    new["gold"] = {"players": list(gold), "pile": GOLD_DISCS - sum(gold)}
    return new


def edit_turn(
    data: PositionDict, round: int, current: int, starting: int, phase: str | None = None
) -> PositionDict:
    """Set the round, the seat to move, the starting player and (if given) the phase."""
    new = copy.deepcopy(data)
    new["round"], new["current_player"], new["starting_player"] = round, current, starting
    if phase is not None:
        new["phase"] = phase
    return new


def last_turns_text(data: PositionDict) -> str:
    """``""`` before the round end is triggered, ``"-"`` when nobody is left, else the seats."""
    turns = data["last_turns"]
    if turns is None:
        return ""
    return " ".join(str(seat) for seat in turns) or "-"


def edit_last_turns(data: PositionDict, text: str) -> PositionDict:
    """The seats still to take their last turn, written as ``last_turns_text`` shows them."""
    new = copy.deepcopy(data)
    words = text.replace(",", " ").split()
    if not words:
        new["last_turns"] = None
    elif words == ["-"]:
        new["last_turns"] = []
    else:
        try:
            new["last_turns"] = [int(word) for word in words]
        except ValueError:
            raise PositionError(N_("{text}: write the seats still to play (like 2 0), - for none left"),
                                text=repr(text)) from None
    return new


# -- loading and exporting ----------------------------------------------------------------
def load_text(text: str | bytes) -> GameState:
    """A position from pasted or uploaded JSON; ``PositionError`` names any problem."""
    return loads_position(text)


class UploadedFile(TypedDict, total=False):
    """One file of an ipywidgets 8 ``FileUpload.value`` (the pages' uploads, ``tutor.base.Upload``)."""

    name: str
    size: int
    content: memoryview | bytes


def read_upload(value: Sequence[UploadedFile]) -> GameState:
    """The position in an ipywidgets 8 ``FileUpload.value``: a tuple of dicts with a
    ``content`` memoryview (or bytes)."""
    if not value:
        raise PositionError(N_("no file was uploaded"))
    content = value[0]["content"]
    data = content.tobytes() if isinstance(content, memoryview) else bytes(content)
    return loads_position(data)


def table_of_view(v: PlayerView, seed: int = 0) -> GameState:
    """A table that ``v``'s viewer sees exactly as ``v`` shows it, built from ``v`` alone: what
    the viewer could not see (others' hands and draft cards, the deck's order, face-down
    modifiers) is dealt by ``seed`` among the unseen cards and modifiers, so nothing of the real
    hidden cards can reach it. The review opens its key moments in the explorer this way."""
    return determinize(v, random.Random(seed))


def export_text(state: GameState) -> str:
    return dumps_position(state)


def as_dict(state: GameState) -> PositionDict:
    """A deep copy of the position dict (safe to edit)."""
    result: PositionDict = json.loads(json.dumps(position_dict(state)))
    return result


# -- playing on --------------------------------------------------------------------------
@dataclass
class Continuation:
    """What happened after a move: the new state and the actions taken, in order."""

    state: GameState
    actions: list[Action]


def play_and_continue(
    state: GameState, action: Action, seed: int, bots: dict[int, Bot], stop_for: int
) -> Continuation:
    """Play ``action``, then resolve chance with a seeded generator and let ``bots``
    decide for their seats until seat ``stop_for`` must decide or the game is over.

    Raises ``IllegalActionError`` (state untouched) if ``action`` is not legal.
    """
    rng = random.Random(seed)
    new = state.child(action)
    done = [action]
    while not new.is_terminal():
        if new.is_chance_node():
            before = len(new.history)
            resolve_chance(new, rng)
            done.extend(new.history[before:])
            continue
        seat = new.current_player()
        if seat == stop_for or seat not in bots:
            break
        move = bots[seat](new, rng)
        new.apply_action(move)
        done.append(move)
    return Continuation(new, done)


def check(data: PositionDict) -> GameState:
    """The state of an edited dict, or ``PositionError`` naming the problem."""
    try:
        return position_from_dict(data)
    except PositionError:
        raise
    except CapitalLuxError as error:
        raise PositionError(error.template, **error.params) from None
