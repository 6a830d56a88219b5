"""Cards and actions: text forms that round-trip, errors that name the problem."""

import pytest

from capital_lux.engine.cards import ALL_CARDS, COPIES, DECK_SIZE, MODIFIERS, Card, NotationError, full_deck_counts
from capital_lux.engine.notation import (
    CardDrawn,
    ModifierDrawn,
    Pick,
    PlaceModifier,
    Play,
    SaveWithGold,
    TakeLowest,
    parse_action,
)


def test_components() -> None:
    assert DECK_SIZE == 72 and sum(full_deck_counts()) == 72
    assert COPIES == {2: 3, 3: 4, 4: 4, 5: 4, 6: 3}
    assert sorted(MODIFIERS) == [-3, -1, 2, 4]
    assert len(ALL_CARDS) == 20


@pytest.mark.parametrize("card", ALL_CARDS)
def test_card_text_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(str(card).lower()) == card


@pytest.mark.parametrize("text", ["", "B7", "X5", "B", "55", "B5 G3"])
def test_bad_card_text_names_the_expected_form(text: str) -> None:
    with pytest.raises(NotationError, match="expected a colour letter"):
        Card.parse(text)


ACTIONS = [
    Pick((Card("B", 5), Card("G", 3))),
    Pick((Card("Y", 2),)),
    Play(Card("P", 6), "home"),
    Play(Card("B", 2), "capital"),
    PlaceModifier("P"),
    TakeLowest("G"),
    SaveWithGold(()),
    SaveWithGold(("B", "Y")),
    CardDrawn(Card("G", 4)),
    ModifierDrawn(-3),
    ModifierDrawn(4),
]


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_action_text_round_trips(action: object) -> None:
    assert parse_action(str(action)) == action


def test_texts_are_short_and_readable() -> None:
    assert [str(a) for a in ACTIONS[:4]] == ["pick B5 G3", "pick Y2", "home P6", "capital B2"]
    assert str(SaveWithGold(("B", "Y"))) == "save B Y" and str(ModifierDrawn(4)) == "modifier +4"


def test_pick_order_does_not_matter() -> None:
    assert parse_action("pick G3 B5") == parse_action("pick B5 G3")


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("", "empty action"),
        ("jump B5", "is not an action"),
        ("home B9", "is not a card"),
        ("place Q", "is not a colour"),
        ("save B B", "names a colour twice"),
        ("modifier +3", "is not a modifier"),
        ("pick B5 G3 Y2", "is not an action"),
    ],
)
def test_bad_action_text(text: str, fragment: str) -> None:
    with pytest.raises(NotationError, match=fragment):
        parse_action(text)


def test_notation_errors_can_be_read_in_french() -> None:
    from capital_lux.i18n import translator

    with pytest.raises(NotationError) as refused:
        parse_action("home B9")
    assert refused.value.translated(translator("fr").gettext).startswith("'B9' n'est pas une carte")
