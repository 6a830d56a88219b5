"""One focused test per rule and per ruling (rulings.md), and the rulebooks' examples."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from capital_lux.engine.cards import MODIFIERS, Card
from capital_lux.engine.game import Game, resolve_chance
from capital_lux.engine.notation import CardDrawn, ModifierDrawn, Pick, PlaceModifier, SaveWithGold, TakeLowest, parse_action
from capital_lux.engine.position import PositionError, arrange
from capital_lux.engine.rules import excess, next_starting_player, ranks
from capital_lux.engine.state import CHANCE, TERMINAL, GameState, IllegalActionError, new_game
from capital_lux.engine.views import view


def act(s: GameState, *texts: str) -> GameState:
    for text in texts:
        s.apply_action(parse_action(text))
    return s


def C(text: str) -> Card:
    return Card.parse(text)


# -- setup ---------------------------------------------------------------------------
def test_setup_turns_one_card_into_the_capital_then_deals_modifiers() -> None:
    s = new_game(3)
    assert s.current_player() == CHANCE and s.phase == "setup_capital"
    outcomes = s.chance_outcomes()
    assert sum(p for _, p in outcomes) == 1
    assert dict(outcomes)[CardDrawn(C("B6"))] == Fraction(3, 72)
    act(s, "card P4")
    assert s.capital["P"] == [4] and s.deck_size() == 71
    assert s.phase == "setup_modifiers"
    assert s.chance_outcomes() == [(ModifierDrawn(m), Fraction(1, 4)) for m in sorted(MODIFIERS)]


def test_highest_setup_modifier_starts_and_all_return_to_the_deck() -> None:  # ruling R14
    s = act(new_game(3), "card P4", "modifier -1", "modifier +4", "modifier -3")
    assert s.starting_player == 1
    assert s.modifier_deck == sorted(MODIFIERS)
    assert s.phase == "deal" and s.round == 1


# -- the draft -------------------------------------------------------------------------
@pytest.mark.parametrize("players, size", [(2, 6), (3, 6), (4, 5)])  # ruling R16, R19
def test_deal_size(players: int, size: int) -> None:
    game = Game(players, seed=1)
    assert game.state.phase == "draft"
    assert [len(h) for h in game.state.draft_hands] == [size] * players


def test_draft_picks_two_passes_left_and_keeps_the_last() -> None:  # ruling R16, R20
    game = Game(3, seed=4)
    s = game.state
    start = s.starting_player
    before = [list(h) for h in s.draft_hands]
    picks = {}
    for _ in range(3):  # first pick, in turn order from the starting player
        p = s.current
        pick = s.legal_actions()[0]
        assert isinstance(pick, Pick) and len(pick.cards) == 2
        picks[p] = pick.cards
        game.play(pick)
    assert s.draft_step == 2 and s.current == start
    for p in range(3):  # what seat p left behind went to seat p + 1
        left = list(before[p])
        for card in picks[p]:
            left.remove(card)
        assert s.draft_hands[(p + 1) % 3] == sorted(left)
    for _ in range(3):
        game.play(s.legal_actions()[-1])
    assert s.phase == "play" and s.current == start
    assert [len(h) for h in s.hands] == [6, 6, 6]


def test_draft_picks_are_hidden_from_the_others() -> None:  # ruling R16
    game = Game(2, seed=2)
    s = game.state
    p = s.current
    pick = s.legal_actions()[0]
    game.play(pick)
    other = view(s, 1 - p)
    assert other.draft_pick_counts[p] == 2
    assert other.draft_picks == () and other.draft_hand == tuple(s.draft_hands[1 - p])
    assert view(s, p).draft_picks == tuple(sorted(pick.cards))


def test_draft_pick_must_be_two_held_cards() -> None:
    game = Game(2, seed=3)
    s = game.state
    held = s.draft_hands[s.current]
    missing = next(c for c in [C("B2"), C("G2"), C("Y2")] if c not in held)
    before = s.clone()
    with pytest.raises(IllegalActionError, match="must pick 2"):
        s.apply_action(Pick((held[0], missing)))
    with pytest.raises(IllegalActionError, match="must pick 2"):
        s.apply_action(Pick((held[0],)))
    assert s == before


# -- play and the special actions ---------------------------------------------------------
def test_play_into_hometown_or_capital() -> None:
    s = arrange(2, hands=["B5 G3", "Y2 Y3"])
    assert [str(a) for a in s.legal_actions()] == ["capital B5", "home B5", "capital G3", "home G3"]
    act(s, "home B5")
    assert s.hometowns[0]["B"] == [5] and s.current == 1


def test_illegal_play_is_refused_and_changes_nothing() -> None:
    s = arrange(2, hands=["B5 G3", "Y2 Y3"])
    before = s.clone()
    with pytest.raises(IllegalActionError, match=r"Y2 is not in player 0's hand \(B5 G3\)"):
        act(s, "home Y2")
    with pytest.raises(IllegalActionError, match="expected player 0 to play a card"):
        act(s, "place B")
    assert s == before and s.history == []
    assert isinstance(IllegalActionError("x"), ValueError)


def test_scholar_draws_into_the_hand() -> None:
    s = arrange(2, hands=["G3 B5", "Y2 Y3"])
    act(s, "capital G3")
    assert s.current_player() == CHANCE and s.phase == "scholar"
    act(s, "card P6")
    assert s.hands[0] == [C("B5"), C("P6")] and s.capital["G"] == [3] and s.current == 1


def test_scholar_as_last_card_does_not_end_the_round() -> None:  # ruling R10
    s = arrange(2, hands=["G3", "Y2 Y3"])
    act(s, "capital G3", "card B2")
    assert s.last_turns is None and s.hands[0] == [C("B2")] and s.current == 1


def test_scholar_with_an_empty_deck_draws_nothing_and_the_round_can_end() -> None:  # ruling R10
    s = arrange(2, round=3, hands=["G3", "Y2 Y3"])
    s.deck = [0] * 20
    s.discards = sorted(s.discards + [card for card, n in zip(*_deck_cards(s)) for _ in range(n)])
    act(s, "capital G3")
    assert s.hands[0] == [] and s.last_turns == [] and s.current == 1


def _deck_cards(s: GameState) -> tuple[list[Card], list[int]]:
    from capital_lux.engine.cards import ALL_CARDS, COPIES

    used = {card: 0 for card in ALL_CARDS}
    for zone in s.hands + s.bonus + [s.discards]:
        for c in zone:
            used[c] += 1
    for town in [s.capital, *s.hometowns]:
        for colour, values in town.items():
            for v in values:
                used[Card(colour, v)] += 1
    return list(ALL_CARDS), [COPIES[c.value] - used[c] for c in ALL_CARDS]


def test_merchant_takes_gold_while_the_pile_has_some() -> None:
    s = arrange(2, hands=["Y3 Y4", "B2 B3"], gold=[0, 7])
    act(s, "capital Y3")
    assert s.gold == [1, 7] and s.gold_pile == 0
    act(s, "home B2", "capital Y4")
    assert s.gold == [1, 7] and s.gold_pile == 0


def test_agent_draws_and_places_a_modifier_face_down_anywhere() -> None:  # ruling R11
    s = arrange(3, hands=["B3 G2", "Y2 Y3", "P2 P3"])
    act(s, "capital B3")
    assert s.phase == "agent_draw" and s.current_player() == CHANCE
    act(s, "modifier -3")
    assert s.phase == "agent" and s.current_player() == 0
    assert s.legal_actions() == [PlaceModifier(c) for c in "BGPY"]  # pink included
    assert view(s, 0).pending_modifier == -3 and view(s, 1).pending_modifier is None
    act(s, "place P")
    assert s.modifiers_above["P"] == [(0, -3)]
    assert [m.value for m in view(s, 0).modifiers_above["P"]] == [-3]
    assert [m.value for m in view(s, 1).modifiers_above["P"]] == [None]
    assert view(s, 1).capital_total("P") is None


def test_agent_with_an_empty_modifier_deck_does_nothing_more() -> None:  # ruling R11
    mods = [("B", 1, 4), ("Y", 1, 2), ("G", 1, -1), ("G", 1, -3)]
    s = arrange(2, hands=["B3 G2", "Y2 Y3"], modifiers_above=mods)
    assert s.modifier_deck == []
    act(s, "capital B3")
    assert s.phase == "play" and s.current == 1 and s.capital["B"] == [3]


def test_cleric_chooses_a_colour_and_takes_its_lowest_card() -> None:  # ruling R2
    s = arrange(2, hands=["P3 B5", "Y2 Y3"], capital="B4 B2 Y6 P5")
    act(s, "capital P3")
    assert s.phase == "cleric"
    assert s.legal_actions() == [TakeLowest("B"), TakeLowest("Y")]  # never pink, green is empty
    with pytest.raises(IllegalActionError, match="cannot take P"):
        act(s, "take P")
    act(s, "take B")
    assert s.hometowns[0]["B"] == [2] and s.capital["B"] == [4] and s.hands[0] == [C("B5")]


def test_cleric_with_one_colour_takes_it_without_asking() -> None:  # ruling R21
    s = arrange(2, hands=["P3 B5", "Y2 Y3"], capital="G4 G2 P5")
    act(s, "capital P3")
    assert s.phase == "play" and s.hometowns[0]["G"] == [2]
    assert s.log[-1].kind == "cleric_take"


def test_cleric_with_no_colour_is_legal_and_takes_nothing() -> None:  # ruling R1
    s = arrange(2, hands=["P3 B5", "Y2 Y3"], capital="P5")
    act(s, "capital P3")
    assert s.capital["P"] == [3, 5] and all(not v for v in s.hometowns[0].values())
    assert s.log[-1].kind == "cleric_nothing" and s.current == 1


def test_rulebook_cleric_example() -> None:
    """Mary plays a pink card and chooses blue: she takes the lowest blue card."""
    s = arrange(3, current=1, hands=["B2", "P4 G5", "Y3"], capital="B5 B3 B6 Y4 G6")
    act(s, "capital P4", "take B")
    assert s.hometowns[1]["B"] == [3] and s.capital["B"] == [5, 6]


# -- the round end -------------------------------------------------------------------------
def test_empty_hand_gives_every_other_player_one_last_turn() -> None:  # ruling R9
    s = arrange(3, hands=["B2", "Y2 Y3", "P2 P3"], capital="B6 Y6 Y5 P6 P5")
    act(s, "home B2")
    assert s.last_turns == [2] and s.current == 1
    act(s, "home Y2")
    assert s.current == 2
    act(s, "home P2")
    assert s.phase == "deal" and s.round == 2  # hands went into hometowns, round 2 begins
    assert s.hometowns[1]["Y"] == [2, 3] and s.hometowns[2]["P"] == [2, 3]
    moved = [(e.player, e.cards) for e in s.log if e.kind == "hand_to_hometown"]
    assert moved == [(1, (C("Y3"),)), (2, (C("P3"),))]


def test_a_seat_cannot_be_out_of_cards_before_the_last_turns() -> None:  # ruling R9
    # The first hand to run out starts the last turns, so no seat is empty before that
    # (and no last turn is ever skipped in a real game).
    with pytest.raises(PositionError, match="player 1 has no card although no hand has run out"):
        arrange(3, hands=["B2", "", "P2 P3"], last_turns=None)
    with pytest.raises(PositionError, match="player 1 has no card"):
        arrange(3, hands=["B5 G3", "", "Y2"])
    s = arrange(3, current=2, hands=["", "", "P2 P3"], last_turns=[])  # seat 0 ran out, seat 1 played last
    act(s, "home P2")
    assert s.round == 2 and [(e.player, e.cards) for e in s.log if e.kind == "hand_to_hometown"] == [(2, (C("P3"),))]


@pytest.mark.parametrize(
    "town, capital, mods, over",
    [
        ("B5 B4", "B6 B3", [], 0),  # 9 against 9: equal is safe
        ("B5 B5", "B6 B3", [], 1),
        ("B5 B5", "B6 B3", [("B", 1, 2)], 0),
        ("", "", [("B", 1, -3)], 0),  # nothing in the hometown never exceeds
        ("B2", "", [("B", 1, -3)], 5),
    ],
)
def test_exceeding_is_strictly_greater(town: str, capital: str, mods: list[tuple[str, int, int]], over: int) -> None:  # R7
    s = arrange(2, hands=["Y2", "Y3"], hometowns=[town, ""], capital=capital, modifiers_above=mods)
    assert excess(s, 0, "B") == over


def test_rulebook_round_end_example() -> None:
    """Capital blue 9, yellow 3, green 9, pink 12 against hometown 11, 4, 6, 13: three
    gold discs keep blue and yellow; pink is discarded (ruling R6, R8)."""
    s = arrange(
        2,
        hands=["G2", ""],
        last_turns=[],
        hometowns=["B5 B6 Y4 G6 P6 P4 P3", "Y2"],
        capital="B4 B5 Y3 G4 G5 P5 P5 P2",
        gold=[3, 0],
    )
    act(s, "home G2")  # player 0's hand is empty: player 1 has no card, so the round ends
    assert s.phase == "gold" and s.current == 0
    assert [excess(s, 0, c) for c in "BYGP"] == [2, 1, 0, 1]
    options = {str(a) for a in s.legal_actions()}
    assert options == {"save none", "save B", "save P", "save Y", "save B P", "save B Y", "save P Y"}
    act(s, "save B Y")
    assert s.gold[0] == 0 and s.gold_pile == 8  # spent gold goes back to the pile
    assert s.hometowns[0]["P"] == [] and sorted(s.discards) == [C("P3"), C("P4"), C("P6")]
    assert s.hometowns[0]["B"] == [5, 6] and s.hometowns[0]["Y"] == [4]


def test_gold_decisions_are_secret_until_all_are_made() -> None:  # ruling R6
    s = arrange(2, hands=["B2", "Y2"], hometowns=["Y6", "Y5"], capital="Y4 B6", gold=[2, 3])
    act(s, "home B2", "home Y2")  # yellow: player 0 exceeds by 2, player 1 by 3
    assert s.phase == "gold" and s.gold_queue == [0, 1]
    act(s, "save Y")
    assert view(s, 1).own_gold_choice is None and view(s, 0).own_gold_choice == ("Y",)
    assert s.gold == [2, 3] and s.hometowns[0]["Y"] == [6]  # nothing paid or discarded yet
    act(s, "save none")
    assert s.gold == [0, 3] and s.hometowns[0]["Y"] == [6] and s.hometowns[1]["Y"] == []


def test_gold_must_pay_the_whole_difference() -> None:  # ruling R6
    s = arrange(2, hands=["B2", "Y2"], hometowns=["Y6 Y5", ""], capital="Y4 Y3 B6", gold=[5, 0])
    act(s, "home B2", "home Y2")  # player 0: yellow 11 against 7
    assert s.legal_actions() == [SaveWithGold(()), SaveWithGold(("Y",))]
    before = s.clone()
    with pytest.raises(IllegalActionError, match="cannot save B"):
        act(s, "save B")
    assert s == before


def test_player_without_enough_gold_is_not_asked() -> None:  # ruling R6, R21
    s = arrange(2, hands=["B2", "Y2"], hometowns=["Y6 Y5", "G6 G5"], capital="Y4 G5", gold=[1, 6])
    act(s, "home B2", "home Y2")  # player 0 needs 9 and has 1; player 1 needs 6 and has 6
    assert s.gold_queue == [1] and s.current == 1
    assert [e.kind for e in s.log if e.player == 0][-1] != "gold_spent"


def test_bonus_cards_after_discards_to_the_highest_total() -> None:  # ruling R3, R4
    s = arrange(
        3,
        hands=["B2", "", ""],
        last_turns=[],
        hometowns=["Y6 Y5", "Y4 Y3", "Y2"],
        capital="Y6 Y4 Y3 Y2 G2 G3 B6",
    )
    # capital yellow 15: player 0 has 11, player 1 has 7, player 2 has 2
    act(s, "home B2")
    assert s.bonus == [[C("B6"), C("Y6")], [], []]  # green: nobody has any


def test_bonus_goes_to_the_runner_up_when_the_leader_was_discarded() -> None:  # ruling R4
    s = arrange(2, hands=["B2", ""], last_turns=[], hometowns=["Y6 Y5 Y5", "Y4"], capital="Y6 Y3")
    act(s, "home B2")  # player 0's yellow (16) exceeds 9 and is discarded first
    assert s.bonus == [[], [C("Y6")]]  # player 0's blue 2 exceeded too


def test_rulebook_bonus_tie_example() -> None:  # ruling R3, R5
    """John (starting), Mary (to his left) and Bob tie in yellow: John takes the 6,
    Mary the 4, Bob nothing, as no yellow card is left."""
    john, mary, bob = 1, 2, 0
    s = arrange(
        3,
        starting_player=john,
        current=bob,
        hands=["B2", "", ""],
        hometowns=["Y5", "Y3 Y2", "Y5"],
        capital="Y6 Y4 B6",
        last_turns=[],
    )
    act(s, "home B2")
    assert s.bonus[john] == [C("Y6")] and s.bonus[mary] == [C("Y4")]
    assert C("B6") in s.bonus[bob] and not any(c.colour == "Y" for c in s.bonus[bob])


def test_only_players_with_the_colour_compete_for_bonus() -> None:  # ruling R3
    s = arrange(2, hands=["B2", ""], last_turns=[], hometowns=["", ""], capital="G6 G5")
    act(s, "home B2")
    assert s.bonus == [[], []]
    assert s.capital["G"] == [5, 6]


def test_modifiers_are_shuffled_back_between_rounds() -> None:  # ruling R12
    s = arrange(2, hands=["B2", ""], last_turns=[], modifiers_above=[("Y", 0, 4), ("G", 1, -1)], capital="Y5 G6")
    act(s, "home B2")
    assert s.round == 2 and s.modifier_deck == sorted(MODIFIERS)
    assert all(not slots for slots in s.modifiers_above.values())


@pytest.mark.parametrize(
    "towns, previous, expected",
    [
        (["B6", "B5", "B4"], 1, 0),
        (["B5", "B5", "B5"], 1, 1),  # the previous starting player counts first
        (["B5", "B3", "B5"], 1, 2),  # then clockwise: 2 before 0
        (["B5", "B3", "B5"], 2, 2),
    ],
)
def test_next_starting_player(towns: list[str], previous: int, expected: int) -> None:  # ruling R13
    s = arrange(3, starting_player=previous, hands=["Y2", "Y3", "Y4"], hometowns=towns)
    assert next_starting_player(s) == expected


def test_bonus_cards_do_not_count_for_the_next_starting_player() -> None:  # ruling R13
    s = arrange(2, starting_player=1, hands=["Y2", "Y3"], hometowns=["B5", "B4"], bonus=["", "P6 P6"])
    assert next_starting_player(s) == 0


def test_short_deck_deals_an_equal_share() -> None:  # ruling R15
    s = arrange(3, round=2, hands=["B2", "", ""], last_turns=[])
    keep = 7  # leave 7 cards in the deck: 2 each and 1 left over for Scholar draws
    moved = 0
    for kind, n in enumerate(s.deck):
        take = min(n, s.deck_size() - keep)
        s.deck[kind] -= take
        from capital_lux.engine.cards import ALL_CARDS

        s.discards += [ALL_CARDS[kind]] * take
        moved += take
    s.discards.sort()
    act(s, "home B2")
    assert s.round == 3 and s.deal_size == 2
    resolve_chance(s, random.Random(0))
    assert [len(h) for h in s.draft_hands] == [2, 2, 2] and s.deck_size() == 1
    assert [len(a.cards) for a in s.legal_actions()] == [2] * len(s.legal_actions())  # type: ignore[union-attr]
    for _ in range(3):
        s.apply_action(s.legal_actions()[0])
    assert s.phase == "play" and [len(h) for h in s.hands] == [2, 2, 2]


def test_empty_deck_round_goes_straight_to_the_round_end() -> None:  # ruling R15
    s = arrange(2, round=2, hands=["B2", ""], last_turns=[])
    from capital_lux.engine.cards import ALL_CARDS

    s.discards = sorted(s.discards + [ALL_CARDS[k] for k, n in enumerate(s.deck) for _ in range(n)])
    s.deck = [0] * 20
    act(s, "home B2")
    assert s.is_terminal() and s.current_player() == TERMINAL


# -- the end -----------------------------------------------------------------------------
def test_game_ends_after_round_three_with_scores() -> None:
    s = arrange(2, round=3, hands=["B2", ""], last_turns=[], hometowns=["B5 G4", "Y3"], capital="B6 B3 G6 Y6", gold=[2, 1], bonus=["P6", ""])
    act(s, "home B2")
    assert s.is_terminal() and s.legal_actions() == []
    # player 0: 2 + 5 + 4 + bonus 6 + 6 (B6, G6 won now) + 2 gold; player 1: 3 + bonus 6 (Y6) + 1
    assert s.scores() == [31, 10]
    assert s.winners() == [0]
    with pytest.raises(IllegalActionError, match="game is over"):
        act(s, "home B2")


@pytest.mark.parametrize(
    "towns, expected_winners",
    [
        (["B6 B2", "B5 B3"], [0]),  # 8 each: more sixes wins
        (["B5 B3", "B4 B4"], [0]),  # no sixes, more fives
        (["B4 B4", "B4 B4"], [0, 1]),  # a shared win
    ],
)
def test_final_tie_breaks(towns: list[str], expected_winners: list[int]) -> None:  # ruling R17
    s = arrange(2, round=3, phase="over", current=-1, hometowns=towns, bonus=["G2", "G2"], gold=[1, 1])
    assert s.scores()[0] == s.scores()[1]
    assert s.winners() == expected_winners
    assert ranks(s) == [1 if p in expected_winners else 2 for p in range(2)]


def test_bonus_cards_are_public_in_views() -> None:  # ruling R18
    s = arrange(2, hands=["Y2", "Y3"], bonus=["P6", "G5"])
    assert view(s, 1).bonus == ((C("P6"),), (C("G5"),))


def test_two_players_use_the_standard_rules() -> None:  # ruling R19
    game = Game(2, seed=11)
    assert [len(h) for h in game.state.draft_hands] == [6, 6]
    while not game.state.is_terminal():
        game.play(game.state.legal_actions()[0])
    assert game.state.round == 3 and len(game.state.scores()) == 2


# -- the project's own decisions (docs/rules.md) ----------------------------------------
def test_the_deal_goes_one_card_at_a_time_from_the_starting_player() -> None:  # decision D2
    s = act(new_game(3), "card P4", "modifier -1", "modifier +4", "modifier -3")  # seat 1 starts
    receivers = []
    while s.phase == "deal":
        receivers.append(s.current)
        s.apply_action(s.legal_actions()[0])
    assert receivers == [1, 2, 0] * 6


def test_a_view_keeps_no_memory_of_cards_passed_on() -> None:  # decision D6
    game = Game(3, seed=4)
    s = game.state
    seat = s.current
    held = list(s.draft_hands[seat])
    game.play(s.legal_actions()[0])
    passed = [c for c in held if c not in s.draft_picks[seat]]
    v = view(game.state, seat)
    assert passed and not any(c in v.draft_hand for c in passed if c not in s.draft_hands[seat])


def test_a_bonus_card_leaves_the_capital() -> None:  # decision D7
    s = arrange(2, hands=["B2", ""], last_turns=[], hometowns=["Y3", ""], capital="Y6 Y5")
    act(s, "home B2")
    assert s.bonus[0] == [C("Y6")] and s.capital["Y"] == [5] and s.capital_total("Y") == 5


def test_modifiers_stay_face_up_when_the_game_is_over() -> None:  # decision D8
    s = arrange(2, round=3, hands=["B2", ""], last_turns=[], capital="Y5", modifiers_above=[("Y", 1, 4)])
    act(s, "home B2")
    assert s.is_terminal() and s.modifiers_above["Y"] == [(1, 4)] and view(s, 0).modifiers_above["Y"][0].value == 4


def test_one_players_discards_never_change_anothers_limit() -> None:  # decision D9
    s = arrange(2, hands=["B2", ""], last_turns=[], hometowns=["Y6 Y5", "Y5 Y4"], capital="Y6 Y3")
    act(s, "home B2")  # yellow limit 9: seat 0 (11) is discarded, seat 1 (9) keeps its yellow
    assert s.hometowns[0]["Y"] == [] and s.hometowns[1]["Y"] == [4, 5]


def test_rules_document_names_every_ruling_and_only_tests_that_exist() -> None:
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    text = (root / "docs" / "rules.md").read_text("utf-8")
    assert all(f"| R{n} |" in text for n in range(1, 22)) and all(f"| D{n} |" in text for n in range(1, 13))
    sources = {p.name: p.read_text("utf-8") for p in (root / "tests").glob("test_*.py")}
    for file, name in re.findall(r"`(?:(test_\w+\.py)::)?(test_\w+)`", text):
        files = [file] if file else ["test_rules.py"]
        assert any(f"def {name}(" in sources[f] for f in files), f"docs/rules.md names a missing test {name}"
