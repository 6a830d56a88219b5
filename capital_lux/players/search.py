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

The iteration (``search_tree``) and the play-out rule (``quick_rule``) are compiled
with the kernel; this module keeps the budget and the clock, in Python.

>>> from capital_lux.engine.game import Game
>>> from capital_lux.engine.views import view
>>> game = Game(players=2, seed=3)
>>> ismcts(view(game.state, game.state.current), random.Random(0), iterations=20) in game.state.legal_actions()
True
"""

from __future__ import annotations

import random
import time

from ..engine.errors import UsageError
from ..engine import kernel
from ..engine.notation import Action
from ..engine.state import GameState
from ..engine.views import PlayerView
from .quick_rule import ROLLOUT_NOISE, QuickRule
from .search_tree import EXPLORATION, MARGIN_SCALE, WIN_WEIGHT, Node, iterate, reward, ucb

__all__ = ["EXPLORATION", "WIN_WEIGHT", "MARGIN_SCALE", "ROLLOUT_NOISE", "Node", "ismcts", "iterate", "ucb",
           "reward", "QuickRule", "quick_move"]


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
        raise UsageError(f"player {v.viewer} has no decision to make now (phase {v.phase})")
    if iterations is None and seconds is None:
        raise UsageError("give a budget: iterations, seconds or both")
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


def quick_move(s: GameState, rng: random.Random) -> Action:
    """``QuickRule``'s move in an engine state (a ``game.Policy``)."""
    ks = kernel.from_state(s)
    return kernel.to_action(ks, QuickRule(rng).decide(ks))
