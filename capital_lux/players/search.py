"""Information-set Monte Carlo tree search (ISMCTS) for the search bot.

Each iteration draws one full state consistent with the searcher's view
(``views.determinize``: the bot never sees the real hidden cards), walks the
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

from ..engine.cards import COLOUR_LETTERS, COLOURS
from ..engine.game import sample_chance
from ..engine.notation import CAPITAL, HOME, Action, Pick, PlaceModifier, Play, SaveWithGold, TakeLowest
from ..engine.rules import apply as apply_unchecked
from ..engine.rules import cleric_options, excess, gold_options
from ..engine.state import AGENT, CLERIC, DRAFT, GOLD, PLAY, GameState
from ..engine.views import PlayerView, determinize

#: UCB exploration constant for rewards in [0, 1].
EXPLORATION = 0.7
#: Share of the reward that comes from winning; the rest from the score margin.
WIN_WEIGHT = 0.8
#: A score margin this large counts fully in the reward.
MARGIN_SCALE = 30.0
#: In play-outs, how often a player moves at random instead of by the quick rule.
ROLLOUT_NOISE = 0.1


class Node:
    """Statistics of one of the searcher's information sets."""

    __slots__ = ("children", "visits", "reward", "available")

    def __init__(self) -> None:
        self.children: dict[Action, Node] = {}
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
    done = 0
    while iterations is None or done < iterations:
        if deadline is not None and done % 8 == 0 and time.perf_counter() >= deadline and done:
            break
        iterate(root, determinize(v, rng), v.viewer, rng, exploration)
        done += 1
    if stats is not None:
        stats["iterations"] = done
    return max(legal, key=lambda a: (root.children[a].visits, root.children[a].reward) if a in root.children
               else (-1, 0.0))


def iterate(root: Node, state: GameState, me: int, rng: random.Random, exploration: float) -> None:
    """One selection, expansion, play-out and back-propagation in one sampled world."""
    path = [root]
    node = root
    while True:
        _advance(state, me, rng)
        if state.is_terminal():
            break
        legal = state.legal_actions()
        for action in legal:
            child = node.children.get(action)
            if child is not None:
                child.available += 1
        untried = [a for a in legal if a not in node.children]
        if untried:
            action = rng.choice(untried)
            child = node.children[action] = Node()
            child.available = 1
            apply_unchecked(state, action)
            path.append(child)
            break
        children = node.children
        action = max(legal, key=lambda a: ucb(children[a], exploration))
        node = children[action]
        apply_unchecked(state, action)
        path.append(node)
    playout(state, rng)
    value = reward(state, me)
    for n in path:
        n.visits += 1
        n.reward += value


def ucb(child: Node, exploration: float) -> float:
    """Mean reward plus the exploration bonus, counting only iterations where the action was legal."""
    return child.reward / child.visits + exploration * math.sqrt(math.log(child.available) / child.visits)


def _advance(state: GameState, me: int, rng: random.Random) -> None:
    """Chance and opponents act until the searcher must decide (or the game ends)."""
    while not state.is_terminal():
        if state.is_chance_node():
            apply_unchecked(state, sample_chance(state, rng))
        elif state.current == me:
            return
        else:
            apply_unchecked(state, quick_move(state, rng))


def playout(state: GameState, rng: random.Random) -> None:
    """Play to the end, chance by its odds and every seat by the quick rule."""
    while not state.is_terminal():
        if state.is_chance_node():
            apply_unchecked(state, sample_chance(state, rng))
        else:
            apply_unchecked(state, quick_move(state, rng))


def reward(state: GameState, me: int) -> float:
    """Mostly the share of the win, partly the margin over the best opponent, in [0, 1]."""
    winners = state.winners()
    win = 1 / len(winners) if me in winners else 0.0
    scores = state.scores()
    best_other = max(s for p, s in enumerate(scores) if p != me)
    margin = max(-1.0, min(1.0, (scores[me] - best_other) / MARGIN_SCALE))
    return WIN_WEIGHT * win + (1 - WIN_WEIGHT) * (1 + margin) / 2


# -- the quick rule used in play-outs ------------------------------------------------------
def quick_move(s: GameState, rng: random.Random) -> Action:
    """A cheap, legal, mostly sensible move for the seat to decide in a full state.

    Play-outs happen inside a sampled world, so reading its "hidden" cards is fine.
    """
    if rng.random() < ROLLOUT_NOISE:
        return rng.choice(s.legal_actions())
    p = s.current
    phase = s.phase
    if phase == PLAY:
        return _quick_play(s, p)
    if phase == DRAFT:
        held = s.draft_hands[p]
        room = {c: s.capital_total(c) - s.hometown_total(p, c) for c in COLOURS}
        ranked = sorted(held, key=lambda k: (k.value <= room[k.colour], k.value), reverse=True)
        return Pick(tuple(sorted(ranked[: min(2, len(held))])))
    if phase == AGENT:
        value = s.pending_modifier or 0
        stake = {c: s.hometown_total(p, c) - max(s.hometown_total(q, c) for q in range(s.players) if q != p)
                 for c in COLOURS}
        colour = max(COLOUR_LETTERS, key=lambda c: stake[c] if value > 0 else -stake[c])
        return PlaceModifier(colour)
    if phase == CLERIC:
        options = cleric_options(s)
        return TakeLowest(max(options, key=lambda c: s.capital_total(c) - s.hometown_total(p, c) - 2 * s.capital[c][0]))
    if phase == GOLD:
        return max(gold_options(s, p), key=lambda a: _saved_points(s, p, a))
    return rng.choice(s.legal_actions())


def _saved_points(s: GameState, p: int, action: Action) -> int:
    assert isinstance(action, SaveWithGold)
    return sum(s.hometown_total(p, c) - 2 * excess(s, p, c) for c in action.colours)


def _quick_play(s: GameState, p: int) -> Play:
    """The highest card that fits at home; else the lowest card into the capital."""
    hand = s.hands[p]
    best_home = None
    for card in hand:
        if s.hometown_total(p, card.colour) + card.value <= s.capital_total(card.colour):
            if best_home is None or card.value > best_home.value:
                best_home = card
    if best_home is not None:
        return Play(best_home, HOME)
    return Play(min(hand, key=lambda k: k.value), CAPITAL)
