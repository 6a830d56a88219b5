"""The compiled search iteration (``players.search_tree``): its reward against the one
computed from ``kernel.standings`` as first written, in finished games with and without
ties for the most points, and its statistics after some iterations."""

from __future__ import annotations

import random

import pytest

from capital_lux.engine import kernel
from capital_lux.players import policies
from capital_lux.engine.game import Game
from capital_lux.engine.views import view
from capital_lux.players import search
from capital_lux.players.search_tree import EXPLORATION, MARGIN_SCALE, WIN_WEIGHT, Node, iterate, reward, ucb


def standings_reward(ks: kernel.KState, me: int) -> float:
    """``reward`` as first written: from the scores and winners of ``kernel.standings``."""
    scores, winners, _ = kernel.standings(ks)
    win = 1 / len(winners) if me in winners else 0.0
    best_other = max(s for p, s in enumerate(scores) if p != me)
    margin = max(-1.0, min(1.0, (scores[me] - best_other) / MARGIN_SCALE))
    return WIN_WEIGHT * win + (1 - WIN_WEIGHT) * (1 + margin) / 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_reward_is_the_one_from_the_standings(players: int) -> None:
    tied = 0
    for g in range(150):
        rng = random.Random(g)
        ks = kernel.play_game(players, [policies.make("quick", rng)] * players, rng)
        if g % 2:  # a tie for the most points, broken by the cards (ruling R17) or shared
            points = kernel.scores(ks)
            leader = points.index(max(points))
            other = (leader + 1 + g % (players - 1)) % players
            ks.gold[other] += points[leader] - points[other]
        points = kernel.scores(ks)
        tied += points.count(max(points)) > 1
        for me in range(players):
            assert reward(ks, me) == standings_reward(ks, me)
    assert tied >= 75


def test_iterations_count_every_visit_and_availability() -> None:
    game = Game(4, 5)
    v = view(game.state, game.state.current)
    sample, root, rng = kernel.sampler(v), Node(), random.Random(9)
    for _ in range(40):
        iterate(root, sample(rng), v.viewer, rng, EXPLORATION)
    children = root.children.values()
    assert root.visits == 40 == sum(child.visits for child in children)
    assert {kernel.to_action(sample(random.Random(0)), d) for d in root.children} <= set(v.legal_actions)
    assert all(child.available >= child.visits >= 1 and 0 <= child.reward <= child.visits for child in children)
    child = max(children, key=lambda c: c.visits)
    assert ucb(child, 0.0) == child.reward / child.visits


def test_search_reexports_the_iteration() -> None:
    assert (search.Node, search.iterate, search.reward, search.ucb) == (Node, iterate, reward, ucb)
    assert search.EXPLORATION == EXPLORATION == 0.7
