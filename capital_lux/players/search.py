"""Information-set Monte Carlo tree search (ISMCTS) for the search bot.

Each iteration draws one full state consistent with the searcher's view
(``views.determinize``, through ``kernel.sampler`` which deals it straight into a
playout-kernel state: the bot never sees the real hidden cards), walks the
tree of the searcher's own decisions, lets opponents and chance act in that
sampled world, and plays the game out with a quick rule of thumb. Tree nodes
are keyed by the searcher's own actions, so a node stands for every history
that leads there, whatever the hidden cards: its statistics are those of an
information set, not of one deal. Actions that are legal in only some
samples (after a Scholar's draw, say) are chosen by UCB with availability
counts (Cowling, Powley and Whitehouse 2012, "subset-armed bandits").

>>> from capital_lux.engine.game import Game
>>> from capital_lux.engine.views import view
>>> game = Game(players=2, seed=3)
>>> ismcts(view(game.state, game.state.current), random.Random(0), iterations=20) in game.state.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time

from ..engine import kernel
from ..engine.notation import Action
from ..engine.state import GameState
from ..engine.views import PlayerView
from .quick_rule import ROLLOUT_NOISE, FirstThen, QuickRule

__all__ = ["EXPLORATION", "WIN_WEIGHT", "MARGIN_SCALE", "ROLLOUT_NOISE", "Node", "ismcts", "iterate", "ucb",
           "reward", "QuickRule", "quick_move"]

#: UCB exploration constant for rewards in [0, 1].
EXPLORATION = 0.7
#: Share of the reward that comes from winning; the rest from the score margin.
WIN_WEIGHT = 0.8
#: A score margin this large counts fully in the reward.
MARGIN_SCALE = 30.0


#: The phases in which a seat decides.
_DECISIONS = frozenset({kernel.DRAFT, kernel.PLAY, kernel.AGENT, kernel.CLERIC, kernel.GOLD})


class Node:
    """Statistics of one of the searcher's information sets. Children are keyed by the
    kernel's decisions (``kernel.from_action`` of the actions), which need no conversion
    in the sampled worlds."""

    __slots__ = ("children", "visits", "reward", "available")

    def __init__(self) -> None:
        self.children: dict[kernel.Decision, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 0  # iterations in which this node's action was legal


def ismcts(
    v: PlayerView,
    rng: random.Random,
    iterations: int | None = None,
    seconds: float | None = None,
    exploration: float = EXPLORATION,
    stats: dict[str, float] | None = None,
) -> Action:
    """The most visited action after ``iterations`` (or ``seconds``, whichever ends first).

    ``stats``, if given, receives the number of ``iterations`` done.
    """
    legal = v.legal_actions
    if not legal:
        raise ValueError(f"player {v.viewer} has no decision to make now (phase {v.phase})")
    if iterations is None and seconds is None:
        raise ValueError("give a budget: iterations, seconds or both")
    root = Node()
    deadline = None if seconds is None else time.perf_counter() + seconds
    sample = kernel.sampler(v)
    done = 0
    while iterations is None or done < iterations:
        if deadline is not None and done % 8 == 0 and time.perf_counter() >= deadline and done:
            break
        iterate(root, sample(rng), v.viewer, rng, exploration)
        done += 1
    if stats is not None:
        stats["iterations"] = done
    children = root.children

    def most_visited(action: Action) -> tuple[int, float]:
        child = children.get(kernel.from_action(action))
        return (-1, 0.0) if child is None else (child.visits, child.reward)

    return max(legal, key=most_visited)


def iterate(root: Node, ks: kernel.KState, me: int, rng: random.Random, exploration: float) -> None:
    """One selection, expansion, play-out and back-propagation in one sampled world ``ks``
    (played on in place).

    The sampled world is played in the playout kernel: chance and opponents by the quick
    rule between the searcher's decisions, everyone by it after the tree's last node."""
    quick = QuickRule(rng)
    mine = FirstThen(quick)
    policies: list[kernel.KernelPolicy] = [quick] * ks.players
    policies[me] = mine
    path = [root]
    node = root
    below = kernel.randbelow(rng)
    play_out, options, sqrt, log = kernel.play_out, kernel.options, math.sqrt, math.log
    if ks.current != me or ks.phase not in _DECISIONS:  # else it would stop at once (a sample of the view)
        play_out(ks, policies, rng, stop_seat=me)
    while ks.phase != kernel.OVER:
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
            child = children[decision] = Node()
            child.available = 1
            path.append(child)
            mine.first = decision
            play_out(ks, policies, rng)  # the play-out, from this decision on
            break
        best = -math.inf
        for d in legal:  # the first of the highest ``ucb`` (the same sums, inline)
            child = children[d]
            score = child.reward / child.visits + exploration * sqrt(log(child.available) / child.visits)
            if score > best:
                best, decision, node = score, d, child
        path.append(node)
        mine.first = decision
        play_out(ks, policies, rng, stop_seat=me, resume=True)
    value = reward(ks, me)
    for n in path:
        n.visits += 1
        n.reward += value


def ucb(child: Node, exploration: float) -> float:
    """Mean reward plus the exploration bonus, counting only iterations where the action was legal."""
    return child.reward / child.visits + exploration * math.sqrt(math.log(child.available) / child.visits)


def reward(ks: kernel.KState, me: int) -> float:
    """Mostly the share of the win, partly the margin over the best opponent, in [0, 1]."""
    scores, winners, _ = kernel.standings(ks)
    win = 1 / len(winners) if me in winners else 0.0
    best_other = max(s for p, s in enumerate(scores) if p != me)
    margin = max(-1.0, min(1.0, (scores[me] - best_other) / MARGIN_SCALE))
    return WIN_WEIGHT * win + (1 - WIN_WEIGHT) * (1 + margin) / 2


def quick_move(s: GameState, rng: random.Random) -> Action:
    """``QuickRule``'s move in an engine state (a ``game.Policy``)."""
    ks = kernel.from_state(s)
    return kernel.to_action(ks, QuickRule(rng).decide(ks))
