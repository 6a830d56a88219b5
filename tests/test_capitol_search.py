"""Capitol's search bot: legal moves from a view only, the same move for the same seed, and
better play than random (its figures against the rule of thumb are in ``bench capitol_search``)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from capital_lux.capitol.bots import Bot, RandomBot, RuleOfThumbBot, make_bot, play_game
from capital_lux.capitol.components import PILES
from capital_lux.capitol.rules import apply
from capital_lux.capitol.state import BID, BUILD, DRAW, PLACE, State, new_game
from capital_lux.capitol.views import unseen_cards, view
from capital_lux.cli import bench
from capital_lux.players.capitol_search import SearchBot, determinize


def positions(players: int, seed: int, every: int = 7) -> list[State]:
    """States along a rule-of-thumb game: one in ``every`` decisions, and the first of each phase."""
    state, rng, found, phases = new_game(players, seed), random.Random(seed), [], set()
    bot = RuleOfThumbBot()
    for step in range(10_000):
        if state.is_terminal():
            break
        key = state.phase
        if step % every == 0 or key not in phases:
            found.append(state)
            phases.add(key)
        state = apply(state, bot.choose(view(state, state.current), rng))
    return found


def test_a_dealt_table_agrees_with_the_view_and_keeps_every_card() -> None:
    """Every table the search deals shows the seat the very view it was dealt from (but the
    history, which the search does not keep), and holds the game's 62 cards."""
    for state in positions(3, seed=4, every=11):
        seat = state.current
        v = view(state, seat)
        dealt = determinize(v, random.Random(seat))
        assert replace(view(dealt, seat), history=v.history) == v
        cards = [c for hand in dealt.hands for c in hand] + [c for pile in dealt.piles for c in pile]
        cards += [c for pile in dealt.discards for c in pile]
        assert len(cards) == 62 and all(c.pile == PILES[i] for i, pile in enumerate(dealt.piles) for c in pile)
        assert sorted(cards) == sorted([c for hand in state.hands for c in hand]
                                       + [c for pile in state.piles for c in pile]
                                       + [c for pile in state.discards for c in pile])
        assert sum(unseen_cards(v).values()) == 62 - len(v.hand) - sum(t is not None for t in v.pile_tops)


def test_it_decides_legally_from_the_view_only_and_the_same_seed_gives_the_same_move() -> None:
    """At each kind of decision: a legal move; the same move from the same generator; and the same
    move when the hidden cards behind the view (the others' hands and offers, the piles below their
    tops, the discards, the seed) are dealt otherwise."""
    bot = SearchBot(deals=2, most=4)
    kinds = set()
    for state in positions(3, seed=6, every=60):
        seat = state.current
        v = view(state, seat)
        move = bot.choose(v, random.Random(9))
        assert move in v.legal_actions
        kinds.add(state.phase)
        other = determinize(v, random.Random(100 + seat))
        hidden = replace(state, hands=other.hands, piles=other.piles, discards=other.discards,
                         offers=other.offers, bids=other.bids, seed=-1)
        assert view(hidden, seat) == v
        assert bot.choose(view(hidden, seat), random.Random(9)) == move
    assert kinds == {BUILD, BID, PLACE, DRAW}


@pytest.mark.parametrize("seed", [1, 2])
def test_it_beats_random_bots(seed: int) -> None:
    bots: list[Bot] = [SearchBot(deals=2, most=5), RandomBot()]
    state = play_game(2, bots if seed % 2 else bots[::-1], seed, random.Random(seed))
    searcher = 0 if seed % 2 else 1
    assert state.winners() == (searcher,), state.scores


def test_the_command_line_and_the_bench_can_seat_it() -> None:
    assert make_bot("search").name == "search"
    assert bench.BENCHMARKS["capitol_search"] is bench.capitol_search
    figures = bench.capitol_search(games=1, players=2, deals=1)  # the bench's smoke: one game, one deal
    assert figures["games"] == 1 and figures["search_decisions"] > 10
    assert figures["search_win_share_low"] <= figures["search_win_share"] <= figures["search_win_share_high"]
    assert figures["search_cpu_ms_per_decision"] <= figures["search_cpu_ms_per_decision_p90"]
