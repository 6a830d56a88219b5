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
from operator import sub
from typing import Callable

from ..engine import kernel
from ..engine.kernel import COLOUR_OF, VALUE_OF
from ..engine.notation import Action
from ..engine.rules import gold_choice_worth
from ..engine.state import GameState
from ..engine.views import PlayerView

#: UCB exploration constant for rewards in [0, 1].
EXPLORATION = 0.7
#: Share of the reward that comes from winning; the rest from the score margin.
WIN_WEIGHT = 0.8
#: A score margin this large counts fully in the reward.
MARGIN_SCALE = 30.0
#: In play-outs, how often a player moves at random instead of by the quick rule.
ROLLOUT_NOISE = 0.1


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
    mine = _Then(quick)
    policies: list[kernel.KernelPolicy] = [quick] * ks.players
    policies[me] = mine
    path = [root]
    node = root
    kernel.play_out(ks, policies, rng, stop_seat=me)
    while ks.phase != kernel.OVER:
        legal = kernel.options(ks)  # the engine's legal actions, in its order, as decisions
        children = node.children
        untried = []
        for decision in legal:
            child = children.get(decision)
            if child is None:
                untried.append(decision)
            else:
                child.available += 1
        if untried:
            decision = rng.choice(untried)
            child = children[decision] = Node()
            child.available = 1
            path.append(child)
            mine.first = decision
            kernel.play_out(ks, policies, rng)  # the play-out, from this decision on
            break
        decision = max(legal, key=lambda d: ucb(children[d], exploration))
        node = children[decision]
        path.append(node)
        mine.first = decision
        kernel.play_out(ks, policies, rng, stop_seat=me, resume=True)
    value = reward(ks, me)
    for n in path:
        n.visits += 1
        n.reward += value


class _Then:
    """The searcher's seat: the tree's decision first, then the quick rule."""

    random_below: Callable[[int], int] | None = None
    random_bits: Callable[[int], int] | None = None

    def __init__(self, then: kernel.KernelPolicy) -> None:
        self.then = then
        self.first: kernel.Decision | None = None

    def decide(self, ks: kernel.KState) -> kernel.Decision:
        decision, self.first = self.first, None
        return self.then.decide(ks) if decision is None else decision


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


# -- the quick rule used in play-outs ------------------------------------------------------
class QuickRule:
    """A cheap, mostly sensible policy for play-outs inside a sampled world, where reading
    the world's "hidden" cards is fine: it is a guess, not the real table. One time in ten
    (``ROLLOUT_NOISE``) it moves at random. It draws from the search's own generator."""

    name = "quick"
    random_below: Callable[[int], int] | None = None
    random_bits: Callable[[int], int] | None = None

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.random = rng.random
        self.below = kernel.randbelow(rng)

    def decide(self, ks: kernel.KState) -> kernel.Decision:
        if self.random() < ROLLOUT_NOISE:
            choices = kernel.options(ks)
            return choices[self.below(len(choices))]
        p, phase = ks.current, ks.phase
        if phase == kernel.PLAY:  # the highest card that fits at home; else the lowest into the capital
            hand, town, capital, mods = ks.hands[p], ks.home[p], ks.capital, ks.mods
            best, best_value = -1, 0
            for kind in hand:
                value = VALUE_OF[kind]
                if value > best_value:  # only a higher card can take the place of the best so far
                    c = COLOUR_OF[kind]  # its colour's limit, only now (measured: twice as fast as all four)
                    limit = sum(capital[c])
                    for _, modifier in mods[c]:
                        limit += modifier
                    if sum(town[c]) + value <= limit:
                        best, best_value = kind, value
            if best >= 0:
                return best, True
            return min(hand, key=VALUE_OF.__getitem__), False
        tops = kernel.limits(ks)
        home = list(map(sum, ks.home[p]))
        if phase == kernel.DRAFT:
            held = ks.draft_hands[p]
            room = list(map(sub, tops, home))
            if len(held) <= 2:
                return tuple(held)
            # The two best by (fits, value), the earlier held card first among equals (as a
            # stable sort would rank them); ``fits * 8 + value`` orders as ``(fits, value)``.
            keys = [(VALUE_OF[k] <= room[COLOUR_OF[k]]) * 8 + VALUE_OF[k] for k in held]
            first = keys.index(max(keys))
            keys[first] = -1
            second = keys.index(max(keys))
            a, b = held[first], held[second]
            return (a, b) if a <= b else (b, a)
        if phase == kernel.AGENT:
            value = ks.pending or 0
            others = [list(map(sum, town)) for q, town in enumerate(ks.home) if q != p]
            highest = others[0] if len(others) == 1 else list(map(max, *others))
            stake = list(map(sub, home, highest))
            # The first colour with the most at stake (a bonus) or the least (a malus).
            return stake.index(max(stake) if value > 0 else min(stake))
        if phase == kernel.CLERIC:
            return max(kernel.cleric_options(ks), key=lambda c: tops[c] - home[c] - 2 * ks.capital[c][0])
        if phase == kernel.GOLD:
            costs = [kernel.excess(ks, p, c) for c in range(4)]
            return max(kernel.gold_options(ks, p), key=lambda combo: gold_choice_worth(home, costs, combo))
        raise ValueError(f"no decision is pending in phase {ks.phase}")


def quick_move(s: GameState, rng: random.Random) -> Action:
    """``QuickRule``'s move in an engine state (a ``game.Policy``)."""
    ks = kernel.from_state(s)
    return kernel.to_action(ks, QuickRule(rng).decide(ks))
