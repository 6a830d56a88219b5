"""What an exercise is, how a learner's own instance is drawn, and counting from a view.

An ``Exercise`` is a template: a question and a worked solution (English msgids with
named placeholders), a base position (a gallery name) and the seat whose view it is
asked from, an exact ``answer`` computed from that view, the ``facts`` the texts
quote, a ``trial`` (one simulated outcome on a state drawn with
``views.determinize``), the classic ``mistakes`` of its kind, and a ``vary`` that
redraws the cards the question does not fix. ``ex.instance(seed)`` is the same
question on other cards: the same kind of value (an ``Exercise`` too), so every
function that takes an exercise takes an instance. Seed ``None`` is the gallery
position itself.
"""

from __future__ import annotations

import json
import random
import zlib
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from itertools import permutations
from typing import Callable, Sequence, TypeVar

from . import mistakes as M
from .precision import told_apart
from .. import gallery
from ...analysis.risk import unseen_modifiers
from ...engine.cards import ALL_CARDS, COLOURS, MODIFIERS, Card, CapitalLuxError, N_, format_modifier
from ...engine.game import sample_chance
from ...engine.position import ModifiersDict, PlacedModifierDict, PositionDict, own_position
from ...engine.state import DEAL, PLAY, GameState, new_game
from ...engine.views import PlayerView, view



@dataclass(frozen=True)
class Plural:
    """A counted phrase, in the singular and the plural (msgids naming the count
    ``{count}``): the reader's language picks the form when the text is filled in."""

    singular: str
    plural: str
    count: int


def ngettext(singular: str, plural: str, count: int) -> Plural:
    """A plural phrase for an exercise's text, kept until the reader's language is known.

    Called ``ngettext`` so that the catalogue's extraction finds both msgids."""
    return Plural(singular, plural, count)


def discard_pile(v: PlayerView) -> Plural:
    """The size of the discard pile, as the worked solutions say it."""
    return ngettext("{count} card", "{count} cards", len(v.discards))


Fact = int | Fraction | str | Card | Plural | Decimal  # a Decimal is written in the reader's locale
Variation = Callable[[PositionDict, random.Random, int], PositionDict]
T = TypeVar("T")


@dataclass(frozen=True)
class Mistake:
    """A classic wrong answer: its id, what it looks like (a msgid) and its value, or
    ``None`` where the mistake gives nothing different on this view."""

    id: str
    text: str
    value: Callable[[PlayerView], Fraction | None]


#: Every probability's classic: the opposite event.
COMPLEMENT = Mistake("complement", M.COMPLEMENT, lambda v: None)


def classics(ex: Exercise, v: PlayerView, exact: Fraction) -> list[tuple[Mistake, Fraction]]:
    """The classic mistakes of ``ex`` and the value each gives on ``v`` (where it gives one)."""
    found = [(m, m.value(v)) for m in ex.mistakes]
    if ex.probability:
        found.append((COMPLEMENT, 1 - exact))
    return [(m, value) for m, value in found if value is not None]


def _keep(data: PositionDict, rng: random.Random, viewer: int) -> PositionDict:
    return data


@dataclass(frozen=True)
class Exercise:
    id: str
    topic: str
    title: str
    position: str  # a gallery name
    viewer: int
    question: str
    solution: str
    answer: Callable[[PlayerView], Fraction]
    facts: Callable[[PlayerView], dict[str, Fact]]
    trial: Callable[[GameState, random.Random], Fraction]
    probability: bool = True
    mistakes: tuple[Mistake, ...] = ()
    #: the assumptions the question rests on, whole sentences (msgids), shown with it
    assumptions: tuple[str, ...] = ()
    vary: Variation = _keep
    #: an extra condition on an instance (the answer must not be trivial, say)
    valid: Callable[[PlayerView], bool] | None = None
    #: the seed of the default instance where the gallery position does not fit the question
    #: (without one, the first instance that fits: seed 0)
    default_seed: int | None = None
    seed: int | None = None
    layout: str | None = field(default=None, repr=False)  # this instance's position (JSON)

    def state(self) -> GameState:
        return _state(self.layout) if self.layout is not None else gallery.load(self.position)

    def view(self) -> PlayerView:
        return _view(self.layout or gallery.text(self.position), self.viewer)

    def exact(self) -> Fraction:
        return _exact(self)

    def instance(self, seed: int | None) -> Exercise:
        """This exercise on other cards, drawn from ``seed``; ``None`` is the base position
        (where it does not tell the answer from the classic mistakes, the default instance).

        The same seed always gives the same cards, so a class seed puts every learner on
        the same numbers."""
        template = replace(self, seed=None, layout=None)
        if seed is None and self.default_seed is None and template.interesting(template.view()):
            return template
        return _instance(template, seed if seed is not None else self.default_seed or 0)

    def interesting(self, v: PlayerView) -> bool:
        """Whether an instance on ``v`` is worth asking: a probability strictly between 0
        and 1, and an answer told apart from every classic mistake's within the decimals
        a learner is asked for (``precision``)."""
        if self.valid is not None and not self.valid(v):
            return False
        exact = self.answer(v)
        if self.probability and not 0 < exact < 1:
            return False
        return told_apart(exact, self.probability, [value for _, value in classics(self, v, exact)])


class InstanceError(CapitalLuxError):
    """No position fits the exercise's conditions (a bug in its variation)."""


@lru_cache(maxsize=512)
def _parsed(text: str) -> GameState:
    """A gallery's table or a variation of one: this program's own text (``own_position``)."""
    return own_position(json.loads(text))


def _state(text: str) -> GameState:
    return _parsed(text).clone()


@lru_cache(maxsize=512)
def _view(text: str, viewer: int) -> PlayerView:
    return view(_parsed(text), viewer)


@lru_cache(maxsize=2048)
def _exact(ex: Exercise) -> Fraction:
    return ex.answer(ex.view())


@lru_cache(maxsize=2048)
def _instance(template: Exercise, seed: int) -> Exercise:
    rng = random.Random(f"{template.position}/{seed}")  # exercises on one position share its cards
    base = json.loads(gallery.text(template.position))
    for _ in range(200):
        data = template.vary(json.loads(json.dumps(base)), rng, template.viewer)
        layout = json.dumps(data, sort_keys=True)
        _parsed(layout)  # a variation never makes an impossible table; read once, for the view too
        candidate = replace(template, seed=seed, layout=layout)
        if candidate.interesting(candidate.view()):
            return candidate
    raise InstanceError(N_("exercise {id}: no position fits seed {seed}"), id=template.id, seed=seed)


# -- variations: redraw what the question leaves free -------------------------------------------
def unseen_slots(data: PositionDict, viewer: int) -> list[tuple[list[str], int]]:
    """Where the cards the viewer cannot see lie: the deck and the others' hands."""
    slots = [(data["deck"], i) for i in range(len(data["deck"]))]
    for seat, hand in enumerate(data["hands"]):
        if seat != viewer:
            slots += [(hand, i) for i in range(len(hand))]
    return slots


def swap(a: tuple[list[str], int], b: tuple[list[str], int]) -> None:
    a[0][a[1]], b[0][b[1]] = b[0][b[1]], a[0][a[1]]


def reshuffle(discards: bool = True, capital: Sequence[str] = (), modifiers: bool = True,
              hand_greens: int = 0, move_second: str | None = None, hometown: Sequence[str] = (),
              hand_over_own: bool = False, discard_more: int = 0, hand: Sequence[str] = (),
              gold: bool = False, yellow_hidden: Sequence[int] = (), capital_more: Sequence[str] = (),
              redeal: bool = False) -> Variation:
    """A variation: trade discards with unseen cards, the ``capital`` and the viewer's
    ``hometown`` colours' cards with unseen cards of the same colour (so the colours'
    structure stays), shuffle the values of every modifier the table holds, give the
    viewer ``hand_greens`` green cards in hand, (``move_second``) move the second
    face-down modifier above yellow to that colour, and (``hand_over_own``) give the
    modifier the viewer placed, half the time, to another player: face down, it is one
    more the viewer has not seen; and (``discard_more``) move up to that many cards from the
    deck to the discard pile (two stay): fewer cards unseen, another count for every learner;
    (``hand``) trade the viewer's cards of those colours with unseen cards of the same colour;
    (``gold``) give the viewer 0 to 4 gold discs from the pile or back to it; (``yellow_hidden``)
    put one of these numbers of face-down modifiers of the other players above yellow, from the
    modifier deck or back to it (the Agents of a table place any number there); (``capital_more``)
    move 0 to 2 cards of each of those colours from the deck into the capital; (``redeal``) trade
    the cards of the capital and of every Hometown with unseen cards of any colour, each half the
    time (where the question reads only how many cards of a colour are unseen)."""

    colours_in_hand = hand

    def vary(data: PositionDict, rng: random.Random, viewer: int) -> PositionDict:
        for _ in range(rng.randint(0, max(0, min(discard_more, len(data["deck"]) - 2))) if discard_more else 0):
            data["discards"].append(data["deck"].pop(rng.randrange(len(data["deck"]))))
        for colour in capital_more:
            for _ in range(rng.randint(0, 2)):
                in_deck = [i for i, card in enumerate(data["deck"]) if card[0] == colour]
                if in_deck and len(data["deck"]) > 2:
                    data["capital"].append(data["deck"].pop(rng.choice(in_deck)))
        hidden = unseen_slots(data, viewer)
        if discards:
            for i in range(len(data["discards"])):
                if rng.random() < 0.7:
                    swap((data["discards"], i), rng.choice(hidden))
        for i, card in enumerate(data["capital"]):
            same = [s for s in hidden if s[0][s[1]][0] == card[0]]
            if card[0] in capital and same and rng.random() < 0.7:
                swap((data["capital"], i), rng.choice(same))
        home = data["hometowns"][viewer]
        for i, card in enumerate(home):
            same = [s for s in hidden if s[0][s[1]][0] == card[0]]
            if card[0] in hometown and same and rng.random() < 0.7:
                swap((home, i), rng.choice(same))
        if redeal:
            for visible in [data["capital"], *data["hometowns"]]:
                for i in range(len(visible)):
                    if rng.random() < 0.5:
                        swap((visible, i), rng.choice(hidden))
            for home_zone in data["hometowns"]:
                home_zone.sort()
        hand = data["hands"][viewer]
        for i, card in enumerate(hand):
            same = [s for s in hidden if s[0][s[1]][0] == card[0]]
            if card[0] in colours_in_hand and same and rng.random() < 0.7:
                swap((hand, i), rng.choice(same))
        for i in range(len(hand)):
            greens = sum(c[0] == "G" for c in hand)
            if greens < hand_greens and hand[i][0] not in "GY":
                swap((hand, i), rng.choice([s for s in hidden if s[0][s[1]][0] == "G"]))
        mods = data["modifiers"]
        if modifiers:
            values = [m["value"] for m in mods["above"]] + list(mods["deck"])
            values += [mods["pending"]] if mods["pending"] is not None else []
            rng.shuffle(values)
            for m in mods["above"]:
                m["value"] = values.pop()
            if mods["pending"] is not None:
                mods["pending"] = values.pop()
            mods["deck"] = sorted(values)
        if yellow_hidden:
            _place_yellow(mods, rng.choice(yellow_hidden), [p for p in range(len(data["hands"])) if p != viewer], rng)
        if gold:
            discs = data["gold"]
            mine = rng.randint(0, min(4, discs["pile"] + discs["players"][viewer]))
            discs["pile"] += discs["players"][viewer] - mine
            discs["players"][viewer] = mine
        if move_second is not None:
            above_yellow = [m for m in mods["above"] if m["colour"] == "Y" and m["owner"] != viewer]
            above_yellow[1]["colour"] = move_second
        if hand_over_own and rng.random() < 0.5:
            others = [p for p in range(len(data["hands"])) if p != viewer]
            for m in mods["above"]:
                if m["owner"] == viewer:
                    m["owner"] = rng.choice(others)
        for zone in ("deck", "discards", "capital"):
            data[zone].sort()
        home.sort()
        return data

    return vary


def _place_yellow(mods: ModifiersDict, k: int, others: list[int], rng: random.Random) -> None:
    """``k`` face-down modifiers of the other players above yellow: drawn from the modifier deck,
    or the extra ones put back into it."""
    yellow = [m for m in mods["above"] if m["colour"] == "Y" and m["owner"] in others]
    while len(yellow) > k:
        m = yellow.pop(rng.randrange(len(yellow)))
        mods["above"].remove(m)
        mods["deck"].append(m["value"])
    while len(yellow) < k and mods["deck"]:
        placed: PlacedModifierDict = {"colour": "Y", "owner": rng.choice(others),
                                      "value": mods["deck"].pop(rng.randrange(len(mods["deck"])))}
        mods["above"].append(placed)
        yellow.append(placed)
    mods["deck"].sort()


def deal_position(data: PositionDict, rng: random.Random, viewer: int) -> PositionDict:
    """A variation for the deal: a random game, played with random moves to the deal of
    round 2 or 3, with 2 to 4 players (before round 1's deal nothing is seen: every class
    would share its few answers)."""
    from ...engine.position import position_dict

    players, target = rng.choice((2, 3, 4)), rng.choice((2, 3))  # round 1's deal: one answer a player count
    s = new_game(players)
    while not (s.phase == DEAL and s.round == target):
        s.apply_action(sample_chance(s, rng) if s.is_chance_node() else rng.choice(s.legal_actions()))
    return position_dict(s)


def played_position(ready: Callable[[GameState], bool], then: Variation = _keep) -> Variation:
    """A variation: a random game with 2 to 4 players, played with random moves to a turn of
    the viewer where ``ready`` holds (one of those turns, at random), then ``then``. Another
    table, another count of unseen cards and discards: what a reshuffle of one position
    cannot change."""
    from ...engine.position import position_dict

    def vary(data: PositionDict, rng: random.Random, viewer: int) -> PositionDict:
        for _ in range(20):
            s = new_game(rng.choice((2, 3, 4)))
            while not s.is_terminal():
                if s.is_chance_node():
                    s.apply_action(sample_chance(s, rng))
                    continue
                if s.phase == PLAY and s.current == viewer and ready(s) and rng.random() < 0.3:
                    return then(position_dict(s), rng, viewer)
                s.apply_action(rng.choice(s.legal_actions()))
        return then(data, rng, viewer)

    return vary


def table_choice(v: PlayerView, options: Sequence[T]) -> T:
    """One of ``options``, read from the cards the viewer's table shows (the Capital's and their
    own Hometown's): a figure the question states (a model, a precision) that differs from one
    learner's table to the next, as the cards do, and is the same on every visit."""
    seen = repr([sorted(v.capital[c]) for c in COLOURS] + [sorted(v.hometowns[v.viewer][c]) for c in COLOURS])
    return options[zlib.crc32(seen.encode()) % len(options)]


# -- counting from a player's view -----------------------------------------------------------
def unseen(v: PlayerView) -> list[Card]:
    """The cards the viewer cannot see, one entry per copy."""
    return [ALL_CARDS[k] for k, n in enumerate(v.unseen_cards()) for _ in range(n)]


def hidden_sums(v: PlayerView, colour: str) -> list[int]:
    """Equally likely totals of the face-down modifiers above ``colour`` (ordered draws)."""
    k = sum(m.value is None for m in v.modifiers_above[colour])
    return [sum(p) for p in permutations(list(unseen_modifiers(v)), k)]


def limits(v: PlayerView, colour: str) -> list[int]:
    """Equally likely capital totals of ``colour`` once the modifiers are revealed."""
    base = sum(v.capital[colour]) + v.known_modifiers(colour)
    return [base + s for s in hidden_sums(v, colour)]


def share(outcomes: Sequence[bool]) -> Fraction:
    return Fraction(sum(outcomes), len(outcomes))


def mean(values: Sequence[int | Fraction]) -> Fraction:
    return Fraction(sum(values, Fraction(0)), len(values))


def as_int(fact: Fact) -> int:
    assert isinstance(fact, int)
    return fact


def as_fraction(fact: Fact) -> Fraction:
    assert isinstance(fact, (int, Fraction))
    return Fraction(fact)


def mods(values: Sequence[int]) -> str:
    return ", ".join(format_modifier(m) for m in values)


def own_modifiers(v: PlayerView) -> list[int]:
    return [m.value for c in COLOURS for m in v.modifiers_above[c] if m.owner == v.viewer and m.value is not None]


def all_modifiers_but_pending(v: PlayerView) -> list[int]:
    """Every modifier but the one the viewer holds: what a careless count calls unseen."""
    held = [] if v.pending_modifier is None else [v.pending_modifier]
    return [m for m in MODIFIERS if m not in held]


def hidden_above(s: GameState, colour: str, viewer: int) -> list[int]:
    return [value for owner, value in s.modifiers_above[colour] if owner != viewer]


def discarded(v: PlayerView, colour: str) -> int:
    return sum(c.colour == colour for c in v.discards)
