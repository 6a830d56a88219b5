"""The engine's contract: ``check`` is the law, refusals change nothing and speak every language.

An action passes ``rules.check`` exactly when it is in ``legal_actions()``; an
illegal action raises ``IllegalActionError`` (never ``KeyError`` or
``TypeError``), leaves the state and its history as they were, and its message
is a catalogue text translated in each language.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest

from capital_lux.engine import rules
from capital_lux.engine.cards import ALL_CARDS, COLOURS, MODIFIERS, Card, CapitalLuxError
from capital_lux.engine.game import random_policy
from capital_lux.engine.notation import CardDrawn, ModifierDrawn, Pick, PlaceModifier, Play, SaveWithGold, TakeLowest
from capital_lux.engine.notation import parse_action
from capital_lux.engine.position import arrange
from capital_lux.engine.state import GameState, IllegalActionError, new_game
from capital_lux.i18n import translator

BAD_CARD: Any = Card("Z", 9)  # a Card with fields no real card has

#: Every action type with bad fields, and things that are not actions at all.
MALFORMED: list[Any] = [
    Play(Card("B", 5), "xyz"), Play(Card("B", 5), "Home"), Play(BAD_CARD, "home"), Play("B5", "home"),  # type: ignore[arg-type]
    PlaceModifier("Z"), PlaceModifier("b"), PlaceModifier(None),  # type: ignore[arg-type]
    TakeLowest("P"), TakeLowest("Z"), TakeLowest(None),  # type: ignore[arg-type]
    SaveWithGold(("Z",)), SaveWithGold(("Y", "B")), SaveWithGold(("B", "B")), SaveWithGold(["B"]),  # type: ignore[arg-type]
    Pick(()), Pick((BAD_CARD,)), Pick((Card("Y", 6), Card("B", 2))), Pick([Card("B", 2)]),  # type: ignore[arg-type]
    Pick((Card("B", 2),) * 3),
    CardDrawn(BAD_CARD), CardDrawn("B5"), CardDrawn(Card("B", [5])),  # type: ignore[arg-type]
    ModifierDrawn(7), ModifierDrawn("+4"), ModifierDrawn(None),  # type: ignore[arg-type]
    "home B5", None, 3,
]


def well_formed(s: GameState) -> list[Any]:
    """Every action of every type that is well formed, whatever the phase."""
    actions: list[Any] = [Play(c, to) for c in ALL_CARDS for to in ("home", "capital")]
    actions += [PlaceModifier(c) for c in COLOURS] + [TakeLowest(c) for c in COLOURS]
    actions += [SaveWithGold(combo) for k in range(5) for combo in combinations(COLOURS, k)]
    actions += [CardDrawn(c) for c in ALL_CARDS] + [ModifierDrawn(m) for m in MODIFIERS]
    for held in s.draft_hands:
        actions += rules.draft_picks(held)
    return actions


def passes(s: GameState, action: Any) -> bool:
    try:
        rules.check(s, action)
    except IllegalActionError:
        return False
    return True


def assert_check_is_the_law(s: GameState) -> None:
    legal = s.legal_actions()
    for action in well_formed(s) + MALFORMED:
        assert passes(s, action) == (action in legal), (s, action)


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3), (2, 4), (3, 5)])
def test_check_passes_exactly_the_legal_actions_over_random_games(players: int, seed: int) -> None:
    rng = random.Random(seed)
    s = new_game(players)
    while not s.is_terminal():
        assert_check_is_the_law(s)
        s.apply_action(random_policy(s, rng))
    assert_check_is_the_law(s)  # over: nothing passes
    assert s.legal_actions() == []


@pytest.mark.parametrize("action", MALFORMED, ids=repr)
def test_a_malformed_action_is_refused_and_changes_nothing(action: Any) -> None:
    for s in (arrange(2, hands=["B5 G3", "Y2 Y3"]), new_game(3)):
        before, history = s.clone(), list(s.history)
        with pytest.raises(IllegalActionError):
            s.apply_action(action)
        assert s == before and s.history == history


def test_a_play_to_nowhere_is_refused() -> None:
    s = arrange(2, hands=["B5 G3", "Y2 Y3"])
    with pytest.raises(IllegalActionError, match="'xyz' is not a place to play a card"):
        s.apply_action(Play(Card("B", 5), "xyz"))  # type: ignore[arg-type]
    assert s.history == [] and s.hands[0] == [Card("B", 5), Card("G", 3)]


def test_placing_a_modifier_above_no_colour_is_refused_without_key_error() -> None:
    s = arrange(2, hands=["B5 G3", "Y2 Y3"])
    s.apply_action(parse_action("capital B5"))
    s.apply_action(s.legal_actions()[0])  # the Agent's draw
    before = s.clone()
    with pytest.raises(IllegalActionError, match="not 'Z'"):
        s.apply_action(PlaceModifier("Z"))  # type: ignore[arg-type]
    assert s == before and s.history == before.history


def test_history_records_an_action_only_once_applied() -> None:
    s = arrange(2, hands=["B5 G3", "Y2 Y3"])
    s.apply_action(parse_action("home B5"))
    assert [str(a) for a in s.history] == ["home B5"]
    with pytest.raises(IllegalActionError):
        s.apply_action(parse_action("home B5"))
    assert [str(a) for a in s.history] == ["home B5"]


REFUSALS = [
    lambda: arrange(2, hands=["B5 G3", "Y2 Y3"]).apply_action(parse_action("home Y2")),
    lambda: arrange(2, hands=["B5 G3", "Y2 Y3"]).apply_action(parse_action("place B")),
    lambda: arrange(2, hands=["B5 G3", "Y2 Y3"]).apply_action(Play(Card("B", 5), "xyz")),  # type: ignore[arg-type]
    lambda: new_game(2).apply_action(parse_action("home B5")),
    lambda: GameState(5),
]


@pytest.mark.parametrize("refuse", REFUSALS)
@pytest.mark.parametrize("lang", ["fr", "es", "pt"])
def test_refusals_are_catalogue_texts_translated_in_each_language(refuse: Any, lang: str) -> None:
    with pytest.raises(CapitalLuxError) as caught:
        refuse()
    error = caught.value
    assert error.template != str(error) or not error.params
    t = translator(lang)
    translated = error.translated(t.gettext)
    assert t.gettext(error.template) != error.template, f"{error.template!r} is not translated in {lang}"
    assert translated != str(error)
