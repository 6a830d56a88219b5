"""Capitol's rules checked along many seeded random games, against the rulebook's statements
written again here independently (floors, roofs and cards conserved; every district valid;
every auction and scoring by the stated tie rules; four rounds)."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from capital_lux.capitol.components import (
    AUCTIONS, COLOURS, DECK, DISTRICTS, FLOORS_TOTAL, PILES, PRINTED_FOUNTAINS, ROOFS_PER_TYPE, ROUNDS, SMALL_SQUARES,
    TEMPLE, Card,
)
from capital_lux.capitol.notation import Bid, Pass, parse_action
from capital_lux.capitol.rules import _order, apply, auction_winner, district_points, legal_actions, ranking, refusal
from capital_lux.capitol.state import OVER, District, State, new_game
from capital_lux.engine.errors import IllegalActionError, NotationError

#: Seeded random games per property run; the suite keeps it small, ``CAPITOL_GAMES=2000`` runs thousands.
GAMES = int(os.environ.get("CAPITOL_GAMES", "25"))
ALL_CARDS = Counter(card for cards in DECK.values() for card in cards)


def check_table(s: State) -> None:
    """Everything the rulebook says must hold of any table."""
    built = [h for d in s.board for _, h, _ in d.buildings]
    floors = s.floor_supply + sum(map(sum, s.unfinished)) + sum(h for f in s.finished for h, _ in f) + sum(built)
    assert floors == FLOORS_TOTAL
    for p in range(s.players):
        for i, roof in enumerate("rt"):
            on_hand = sum(1 for _, r in s.finished[p] if r == roof)
            placed = sum(1 for d in s.board for o, _, r in d.buildings if o == p and r == roof)
            assert s.roofs_left[p][i] + on_hand + placed == ROOFS_PER_TYPE
    cards = Counter(c for zone in (*s.hands, *s.piles, *s.discards) for c in zone)
    assert cards == ALL_CARDS
    for i, pile in enumerate(PILES):
        assert all(c.pile == pile for c in s.piles[i] + s.discards[i])
        assert s.piles[i] or not s.discards[i]  # an empty pile is turned over at once
    for d in s.board:
        assert d.fountains >= 0 and len(d.buildings) + d.fountains <= SMALL_SQUARES[d.name]
        assert len({r for _, _, r in d.buildings}) <= 1
        tallest = 0
        for k, (_, storeys, _) in enumerate(d.buildings):
            assert storeys == 1 if k == 0 else storeys in (tallest, tallest + 1)
            tallest = max(tallest, storeys)
    for colour in COLOURS:
        roofs = [d.roof for d in s.board if d.name[0] == colour]
        assert None in roofs or len(set(roofs)) == 2
    assert sum(d.large == TEMPLE for d in s.board) <= 2 and sum(d.large != "" for d in s.board) <= 4
    assert list(s.scores) == [sum(r[p] for r in s.round_scores) for p in range(s.players)]
    assert 1 <= s.round <= ROUNDS


def first_and_second(d: District, players: int) -> tuple[set[int], set[int]]:
    """The scoring's ranking, written from the rulebook's five rules."""
    floors = {p: sum(h for o, h, _ in d.buildings if o == p) for p in range(players)}
    tallest = {p: max([h for o, h, _ in d.buildings if o == p] or [0]) for p in range(players)}
    ranked = sorted((p for p in floors if floors[p]), key=lambda p: -floors[p])
    if not ranked:
        return set(), set()
    top = [p for p in ranked if floors[p] == floors[ranked[0]]]
    if len(top) == 1:
        rest = [p for p in ranked if p not in top]
        return set(top), {p for p in rest if floors[p] == floors[rest[0]]} if rest else set()
    high = max(tallest[p] for p in top)
    best = [p for p in top if tallest[p] == high]
    return (set(best), set()) if len(best) > 1 else (set(best), set(top) - set(best))


def expected_winner(bids: tuple[Bid, ...], order: tuple[int, ...]) -> int | None:
    bidders = [p for p in order if bids[p].cards]
    if not bidders:
        return None
    return min(bidders, key=lambda p: (-bids[p].total, -max(c.value for c in bids[p].cards), order.index(p)))


def random_game(players: int, seed: int, check: bool = True) -> State:
    s, rng = new_game(players, seed), random.Random(seed)
    while not s.is_terminal():
        legal = legal_actions(s)
        assert legal and legal == sorted(legal, key=_order)
        before = s
        s = apply(s, rng.choice(legal))
        if check:
            check_table(s)
            assert s.round >= before.round
        if s.auctions and s.auctions != before.auctions:
            result = s.auctions[-1]
            assert result.winner == expected_winner(result.bids, before.turn_order())
        if len(s.round_scores) > len(before.round_scores):  # a scoring just happened
            for d in s.board:
                first, second = ranking(d, players)
                assert (set(first), set(second)) == first_and_second(d, players)
    return s


@settings(max_examples=GAMES, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_random_games_keep_every_rule(players: int, seed: int) -> None:
    s = random_game(players, seed)
    assert s.phase == OVER and s.round == ROUNDS and len(s.round_scores) == ROUNDS
    assert list(s.scores) == [sum(r[p] for r in s.round_scores) for p in range(players)]
    assert len(s.auctions) <= 3 * ROUNDS


@settings(max_examples=max(3, GAMES // 5), deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_refusal_and_legal_actions_agree(players: int, seed: int) -> None:
    """Along a random game, every 20th table: an action is refused exactly when it is not
    among the legal ones, with a sentence, and ``apply`` raises it."""
    s, rng = new_game(players, seed), random.Random(seed)
    step = 0
    while not s.is_terminal():
        if step % 20 == 0:
            check_refusals(s)
        s = apply(s, rng.choice(legal_actions(s)))
        step += 1
    check_refusals(s)


def check_refusals(s: State) -> None:
    legal = set(legal_actions(s)) if not s.is_terminal() else set()
    hand = s.hands[s.current]
    texts = ["pass", "draw roof", "draw floor", "draw permit", *(f"place {d}" for d in DISTRICTS), "stop"]
    for card in list(hand)[:4] + [Card("F", 6), Card("B", 8)]:
        texts += [str(card), f"{card} 0+1 0+1", f"{card} 1+1 2+1", f"{card} 0+2", f"{card} 1+2", f"{card} 2r",
                  f"{card} 1t", f"offer {card}", *(f"{card} {h}{r} {d}" for h in (1, 2, 3) for r in "rt"
                                                  for d in DISTRICTS)]
    for text in texts:
        try:
            action = parse_action(text)
        except NotationError:
            continue
        error = refusal(s, action)
        assert (error is None) == (action in legal), text
        if error is not None:
            with pytest.raises(IllegalActionError):
                apply(s, action)
            assert str(error) and "{" not in str(error)


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 5)), max_size=7), st.integers(0, 3), st.booleans())
def test_ranking_and_points_follow_the_scoring_rules(buildings: list[tuple[int, int]], fountains: int,
                                                      temple: bool) -> None:
    d = District("B3", tuple((o, h, "r") for o, h in buildings), fountains, TEMPLE if temple else "")
    first, second = ranking(d, 4)
    assert (set(first), set(second)) == first_and_second(d, 4)
    points = district_points(d, 4)
    f = fountains + PRINTED_FOUNTAINS["B3"]
    factor = 2 if temple else 1
    assert points == [(2 + f) * factor if p in first else f * factor if p in second else 0 for p in range(4)]


@given(st.lists(st.lists(st.sampled_from(sorted(ALL_CARDS)), max_size=4), min_size=2, max_size=4),
       st.integers(0, 3))
def test_auction_winner_follows_the_tie_rules(hands: list[list[Card]], consul: int) -> None:
    from capital_lux.capitol.notation import bid
    bids = tuple(bid(h) for h in hands)
    order = tuple((consul + i) % len(hands) for i in range(len(hands)))
    assert auction_winner(bids, order) == expected_winner(bids, order)


def test_a_whole_game_passes_through_every_phase_in_order() -> None:
    s = new_game(3, seed=11)
    phases: list[tuple[int, str]] = []
    rng = random.Random(0)
    while not s.is_terminal():
        if not phases or phases[-1] != (s.round, s.phase):
            phases.append((s.round, s.phase))
        s = apply(s, rng.choice(legal_actions(s)))
    for r in range(1, 5):
        seen = [p for rr, p in phases if rr == r]
        assert seen[0] == "build" and "bid" in seen
        assert (seen[-1] == "draw") == (r < 4)
    assert [a.piece for a in s.auctions if a.round == 3][-1:] in (["temple"], ["fountain"], [])


def test_construction_ends_only_when_everyone_has_passed() -> None:
    s = new_game(3, seed=2)
    s = apply(s, Pass())
    s = apply(s, Pass())
    assert s.phase == "build" and s.current == 2  # the last one plays on alone
    s = apply(s, legal_actions(s)[1])
    assert s.phase == "build" and s.current == 2
    s = apply(s, Pass())
    assert s.phase == "bid" and s.current == s.consul and AUCTIONS[0][s.auction] == "fountain"
