"""One test per Capitol ruling (C1 to C16, ``capital_lux.capitol.rulings``), each on a table
built to show the point."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from capital_lux.capitol.bots import RandomBot, play_game
from capital_lux.capitol.components import (
    DECK, DISTRICTS, PRINTED_FOUNTAINS, SMALL_SQUARES, AUCTIONS, ROOF_TYPES, Card,
)
from capital_lux.capitol.notation import Bid, Draw, Offer, Pass, Place, PlayFloors, PlayOnly, PlayPermit, Stop, bid
from capital_lux.capitol.rules import apply, auction_winner, legal_actions, ranking, refusal
from capital_lux.capitol.rulings import RULINGS
from capital_lux.capitol.state import BID, DRAW, PLACE, District, State, new_game, set_at
from capital_lux.engine.errors import IllegalActionError


def with_board(s: State, **districts: District) -> State:
    return replace(s, board=tuple(districts.get(d.name, d) for d in s.board))


def test_every_ruling_has_a_test_here() -> None:
    names = {name for name in globals() if name.startswith("test_c")}
    assert {f"test_{key.lower()}" for key in RULINGS} <= {n.split("_")[0] + "_" + n.split("_")[1] for n in names}


def test_c1_nine_districts_of_five_to_seven_small_squares() -> None:
    assert len(DISTRICTS) == 9 and {d[0] for d in DISTRICTS} == {"B", "P", "M"}
    assert sorted(SMALL_SQUARES[d] for d in DISTRICTS if d[0] == "M") == [5, 6, 7]
    s = new_game(2)
    full = District("B1", tuple((0, 1, "r") for _ in range(5)))
    s = with_board(replace(s, finished=set_at(s.finished, 0, ((1, "r"),)), hands=set_at(s.hands, 0, (Card("B", 2),))),
                   B1=full)
    assert isinstance(refusal(s, PlayPermit(Card("B", 2), 1, "r", "B1")), IllegalActionError)


def test_c2_four_printed_fountains_and_eight_sold() -> None:
    assert sum(PRINTED_FOUNTAINS.values()) == 4
    assert sum(pieces.count("fountain") for pieces in AUCTIONS) == 8
    # a printed fountain scores from the start: first in P3 takes 2 + 1
    from capital_lux.capitol.rules import district_points
    assert district_points(District("P3", ((1, 1, "t"),)), 2) == [0, 3]


def test_c3_card_values() -> None:
    assert sorted({c.value for c in DECK["floor"]}) == [1, 2, 3, 4, 5, 6]
    assert all(DECK["floor"].count(Card("F", v)) == 4 for v in range(1, 7))
    assert all(DECK["roof"].count(Card("R", v)) == 2 for v in range(1, 8))
    assert sorted(c.value for c in DECK["permit"] if c.kind == "M") == list(range(1, 9))


def test_c4_two_roof_types() -> None:
    assert ROOF_TYPES == ("r", "t")
    s = new_game(2)
    assert s.roofs_left[0] == (3, 3) and {r for _, r in s.finished[0]} == {"r", "t"}


def test_c5_eight_permits_of_each_colour() -> None:
    assert {colour: sum(c.kind == colour for c in DECK["permit"]) for colour in "BPM"} == {"B": 8, "P": 8, "M": 8}


def test_c6_a_fountain_bought_takes_a_small_square() -> None:
    s = new_game(2)
    almost = District("B1", tuple((1, 1, "r") for _ in range(4)), fountains=1)
    s = with_board(replace(s, hands=set_at(s.hands, 0, (Card("B", 3),))), B1=almost)
    assert almost.free_small == 0
    assert not any(isinstance(a, PlayPermit) and a.district == "B1" for a in legal_actions(s))
    # the printed fountain of B1 did not count: with no fountain bought, one square is free
    assert replace(almost, fountains=0).free_small == 1


def test_c7_an_empty_bid_never_wins() -> None:
    assert auction_winner((Bid(()), Bid(())), (0, 1)) is None
    assert auction_winner((Bid(()), bid([Card("F", 1)])), (0, 1)) == 1
    s = replace(new_game(2), phase=BID, bids=(None, None))
    s = apply(apply(s, Stop()), Stop())
    assert s.auctions[-1].winner is None and s.auctions[-1].bids == (Bid(()), Bid(()))
    assert s.phase == BID and s.auction == 1 and s.hands == new_game(2).hands


def test_c8_scoring_ties() -> None:
    tie_broken = District("B2", ((0, 2, "r"), (1, 1, "r"), (1, 1, "r"), (2, 1, "r")))
    assert ranking(tie_broken, 3) == ((0,), (1,))  # seat 2, with fewer floors, is not second
    tie_kept = District("B2", ((0, 2, "r"), (1, 2, "r"), (2, 1, "r")))
    assert ranking(tie_kept, 3) == ((0, 1), ())
    assert ranking(District("B2", ((0, 3, "r"), (1, 1, "r"), (2, 1, "r"))), 3) == ((0,), (1, 2))
    assert ranking(District("B2"), 3) == ((), ())


def test_c9_an_auction_with_nowhere_to_go_is_not_held() -> None:
    s = new_game(2)
    full = tuple(District(d, fountains=SMALL_SQUARES[d]) for d in DISTRICTS)
    s = replace(s, board=full)
    s = apply(apply(s, Pass()), Pass())
    assert s.phase == BID and AUCTIONS[0][s.auction] == "amphitheatre"  # both fountains skipped


def test_c10_piles_are_turned_over_in_the_order_discarded() -> None:
    s = new_game(2)
    played = [Card("F", 6), Card("F", 1)]
    s = replace(s, piles=(s.piles[0], (), s.piles[2]), discards=((), tuple(played), ()), phase=DRAW,
                draws_left=(6, 6), current=0)
    s = apply(s, Draw("roof"))  # any move turns an exhausted pile over
    assert s.piles[1] == tuple(played) and s.discards[1] == ()
    s = apply(s, Draw("floor"))
    assert Card("F", 6) in s.hands[0] and s.piles[1] == (Card("F", 1),)
    empty = replace(s, piles=((), (), ()), discards=((), (), ()))
    assert legal_actions(empty) == []


def test_c11_seat_0_is_the_first_consul_and_it_moves_on() -> None:
    s = new_game(4, seed=3)
    assert s.consul == 0 and s.turn_order() == (0, 1, 2, 3)
    rng = random.Random(0)
    while s.round == 1:
        s = apply(s, rng.choice(legal_actions(s)))
    assert s.consul == 1 and s.current == 1 and s.turn_order() == (1, 2, 3, 0)


def test_c12_tied_players_share_the_win() -> None:
    s = play_game(2, [RandomBot(), RandomBot()], 5, random.Random(5))
    tied = replace(s, scores=(30, 30))
    assert tied.winners() == (0, 1)
    assert replace(s, scores=(31, 30)).winners() == (0,)


def test_c13_no_draw_after_the_last_scoring() -> None:
    s, rng, seen = new_game(3, seed=9), random.Random(9), set()
    while not s.is_terminal():
        seen.add((s.round, s.phase))
        s = apply(s, rng.choice(legal_actions(s)))
    assert {(r, DRAW) for r in (1, 2, 3)} <= seen and (4, DRAW) not in seen
    assert len(s.round_scores) == 4


def test_c14_a_card_may_be_played_without_its_action() -> None:
    s = new_game(2, seed=1)
    card = s.hands[0][0]
    assert PlayOnly(card) in legal_actions(s)
    one_left = replace(s, floor_supply=1, hands=set_at(s.hands, 0, (Card("F", 2),)))
    assert {str(a) for a in legal_actions(one_left)} == {"pass", "F2", "F2 0+1"}
    none_left = replace(one_left, floor_supply=0)
    assert {str(a) for a in legal_actions(none_left)} == {"pass", "F2"}
    empty = replace(s, hands=set_at(s.hands, 0, ()))
    assert legal_actions(empty) == [Pass()]
    assert legal_actions(replace(empty, phase=BID, bids=(None, None))) == [Stop()]


def test_c15_the_second_floor_may_go_on_the_new_building() -> None:
    s = replace(new_game(2), hands=set_at(new_game(2).hands, 0, (Card("F", 3),)))
    after = apply(s, PlayFloors(Card("F", 3), ((0, 2),)))
    assert after.unfinished[0] == (2,)
    with pytest.raises(IllegalActionError):
        apply(s, PlayFloors(Card("F", 3), ((0, 1),)))  # both floors are placed


def test_c16_bids_are_hidden_until_all_are_made_and_revealed_highest_first() -> None:
    from capital_lux.capitol.views import view
    s = replace(new_game(2, seed=4), phase=BID, bids=(None, None))
    cards = list(s.hands[0][:3])
    for card in cards:
        s = apply(s, Offer(card))
    assert s.current == 0 and view(s, 0).my_offer == tuple(cards)
    s = apply(s, Stop())
    other = view(s, 1)
    assert other.bids_made == (True, False) and other.my_bid is None and other.my_offer == ()
    assert other.history[-4:] == ("offer ?",) * 3 + ("stop",) and all(str(c) not in other.history[-1] for c in cards)
    # another bid of as many cards looks the same: the pile's height is on the table, its cards are not
    elsewhere = bid(s.hands[0][3:6])
    assert elsewhere != s.bids[0] and len(elsewhere.cards) == 3
    assert replace(other, hand=(), hand_sizes=()) == replace(view(replace(s, bids=(elsewhere, None)), 1), hand=(),
                                                            hand_sizes=(), history=other.history)
    s = apply(s, Stop())
    revealed = s.auctions[-1].bids[0]
    assert revealed == bid(cards) and [c.value for c in revealed.cards] == sorted((c.value for c in cards), reverse=True)
    assert s.phase == PLACE and s.winner == 0 and isinstance(legal_actions(s)[0], Place)
    assert len(s.hands[0]) == 8 - 3  # the winner discards the bid
