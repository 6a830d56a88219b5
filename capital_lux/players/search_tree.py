"""One ISMCTS iteration (``search`` explains the search), compiled with the kernel.

Why it is a module of its own: the iteration runs thousands of times a second, each
between play-outs in the compiled kernel, so it is compiled by mypyc beside them
(``capital_lux/compiled.py``); ``search``, which keeps the clock (its tests replace
``search.time``), stays Python and re-exports these names. Its arithmetic is the same
double-precision sums in the same order compiled or not, so the choices are the same.

>>> import random
>>> from capital_lux.engine import kernel
>>> from capital_lux.engine.game import Game
>>> from capital_lux.engine.views import view
>>> game = Game(players=3, seed=1)
>>> sample, root = kernel.sampler(view(game.state, 0)), Node()
>>> rng = random.Random(2)
>>> for _ in range(12):
...     iterate(root, sample(rng), 0, rng, EXPLORATION)
>>> root.visits, sum(child.visits for child in root.children.values())
(12, 12)
"""

from __future__ import annotations

import math
import random
from typing import Final

from ..engine.kernel import First, KernelPolicy, play_out, randbelow
from ..engine.kernel_state import AGENT, CLERIC, DRAFT, GOLD, OVER, PLAY, Decision, KState, options, scores, standings
from .quick_rule import QuickRule

#: UCB exploration constant for rewards in [0, 1].
EXPLORATION: Final = 0.7
#: Share of the reward that comes from winning; the rest from the score margin.
WIN_WEIGHT: Final = 0.8
#: A score margin this large counts fully in the reward.
MARGIN_SCALE: Final = 30.0

#: The phases in which a seat decides.
_DECISIONS: Final = frozenset({DRAFT, PLAY, AGENT, CLERIC, GOLD})


class Node:
    """Statistics of one of the searcher's information sets. Children are keyed by the
    kernel's decisions (``kernel.from_action`` of the actions), which need no conversion
    in the sampled worlds."""

    __slots__ = ("children", "visits", "reward", "available")

    def __init__(self) -> None:
        self.children: dict[Decision, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 0  # iterations in which this node's action was legal


def iterate(root: Node, ks: KState, me: int, rng: random.Random, exploration: float) -> None:
    """One selection, expansion, play-out and back-propagation in one sampled world ``ks``
    (played on in place).

    The sampled world is played in the playout kernel: chance and opponents by the quick
    rule between the searcher's decisions, everyone by it after the tree's last node."""
    quick = QuickRule(rng)
    mine = First(quick)
    policies: list[KernelPolicy] = [quick] * ks.players
    policies[me] = mine
    path = [root]
    node = root
    below = randbelow(rng)
    if ks.current != me or ks.phase not in _DECISIONS:  # else it would stop at once (a sample of the view)
        play_out(ks, policies, rng, stop_seat=me)
    while ks.phase != OVER:
        legal = options(ks)  # the engine's legal actions, in its order, as decisions
        children = node.children
        untried = []
        for decision in legal:
            child = children.get(decision)
            if child is None:
                untried.append(decision)
            else:
                child.available += 1
        if untried:
            decision = untried[below(len(untried))]  # rng.choice(untried)
            child = Node()
            children[decision] = child
            child.available = 1
            path.append(child)
            mine.first = decision
            play_out(ks, policies, rng)  # the play-out, from this decision on
            break
        best = -math.inf
        chosen = legal[0]
        for d in legal:  # the first of the highest ``ucb``
            child = children[d]
            score = ucb(child, exploration)
            if score > best:
                best, chosen, node = score, d, child
        path.append(node)
        mine.first = chosen
        play_out(ks, policies, rng, stop_seat=me, resume=True)
    value = reward(ks, me)
    for n in path:
        n.visits += 1
        n.reward += value


def ucb(child: Node, exploration: float) -> float:
    """Mean reward plus the exploration bonus, counting only iterations where the action was legal."""
    return child.reward / child.visits + exploration * math.sqrt(math.log(child.available) / child.visits)


def reward(ks: KState, me: int) -> float:
    """Mostly the share of the win, partly the margin over the best opponent, in [0, 1]."""
    points = scores(ks)
    top = max(points)
    if points.count(top) == 1:  # one seat has the most: it wins (no tie-break to count, ruling R17)
        winners = [points.index(top)]
    else:
        points, winners, _ = standings(ks)
    win = 1 / len(winners) if me in winners else 0.0
    best_other = max([s for p, s in enumerate(points) if p != me])
    margin = max(-1.0, min(1.0, (points[me] - best_other) / MARGIN_SCALE))
    return WIN_WEIGHT * win + (1 - WIN_WEIGHT) * (1 + margin) / 2
