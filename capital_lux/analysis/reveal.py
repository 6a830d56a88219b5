"""Playing the rest of a round and reading the reveal: the one rollout every simulation uses.

``rollout`` plays a sampled state to its round's end, in the playout kernel for the random
and rule-of-thumb models (the same decisions as the bots) and in the engine for the search
model; ``reckon`` and ``outcome`` read the viewer's position at the reveal (hand counted in
the hometown, ruling R9; before gold is paid) from what the round end left behind.
``game_kernel`` and ``game_rollout`` play on past that reveal to the game's end (new deals,
gold decisions by the model, bonus cards) and read the ``Final`` result as well: the
same round first, drawn from the same generator, so a game's reveal is the round's.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Sequence

from ..engine import kernel, rules
from ..engine.cards import COLOURS
from ..engine.game import sample_chance
from ..engine.notation import Action, PlaceModifier
from ..engine.state import AGENT, CHANCE_PHASES, OVER, GameState
from ..engine.views import view
from ..players.policies import make as kernel_policy

__all__ = ["MODELS", "QUICK", "KERNEL_MODELS", "SEARCH_ITERATIONS", "Decider", "decider", "exact_choices", "play_round",
           "rollout", "rollout_kernel", "kernel_outcome", "Start", "Outcome", "FIGURES", "outcome", "reckon", "Final",
           "final", "game_kernel", "game_rollout"]

MODELS = ("random", "rule", "search")
#: A cheaper stand-in for the rule of thumb in rollouts (the search bot's play-out rule, one move
#: in ten at random); not offered to learners: its bias against "rule" is measured in ``bench risk``.
QUICK = "quick"
#: Search-bot iterations per decision inside rollouts: a thinking opponent, at a price.
SEARCH_ITERATIONS = 24

Decider = Callable[[GameState, random.Random], Action]


# -- the opponent models -----------------------------------------------------------------
def decider(model: str, seed: int = 0) -> Decider:
    """Every seat's policy under ``model``; each decides from its own view only."""
    if model == "random":
        return lambda s, rng: rng.choice(s.legal_actions())
    if model == "rule":
        from ..players.bots import RuleOfThumbBot

        bot = RuleOfThumbBot()
        return lambda s, rng: bot.choose(view(s, s.current), rng)
    if model == QUICK:
        from ..players.search import quick_move

        return quick_move
    if model == "search":
        from ..players.bots import SearchBot

        search = SearchBot(iterations=SEARCH_ITERATIONS)
        return lambda s, rng: search.choose(view(s, s.current), rng)
    raise ValueError(f"unknown opponent model {model!r}: choose from {', '.join(MODELS)}")


def exact_choices(model: str) -> Callable[[GameState], list[tuple[Action, Fraction]]] | None:
    """The model's decision as a distribution, when it is one we can enumerate."""
    if model == "random":
        def uniform(s: GameState) -> list[tuple[Action, Fraction]]:
            legal = s.legal_actions()
            return [(a, Fraction(1, len(legal))) for a in legal]

        return uniform
    if model == "rule":
        from ..players.bots import RuleOfThumbBot

        bot = RuleOfThumbBot()  # its choice is a function of its view: no randomness
        return lambda s: [(bot.advise(view(s, s.current)).action, Fraction(1))]
    return None  # the search bot's choices depend on its own random playouts


# -- the rollout and the reckoning at the reveal -----------------------------------------
def play_round(s: GameState, decide: Decider, rng: random.Random) -> list[tuple[str, int]]:
    """Play ``s`` on, in place, through the engine to the end of its round; the modifiers
    placed meanwhile. The reference path: the exact enumeration checks the kernel's against it.
    """
    start = s.round
    placed: list[tuple[str, int]] = []
    while s.phase != OVER and s.round == start:
        if s.phase in CHANCE_PHASES:
            action = sample_chance(s, rng)
        else:
            action = decide(s, rng)
            if s.phase == AGENT and isinstance(action, PlaceModifier) and s.pending_modifier is not None:
                placed.append((action.colour, s.pending_modifier))
        rules.apply(s, action)  # the deciders only choose legal actions
    return placed


#: Opponent models the playout kernel plays (the same decisions as the bots, faster).
KERNEL_MODELS = ("random", "rule", QUICK)


def rollout_kernel(ks: kernel.KState, model: str, rng: random.Random, viewer: int, score: int,
                   first: Action | None = None) -> Outcome:
    """Play the kernel state ``ks`` (fresh: nothing lost yet) to its round's end, ``first``
    being the decision of the seat to move, and reckon the reveal for ``viewer``, whose score
    was ``score`` at the start (so no ``Start`` is needed: the kernel keeps the
    capital's totals at the reveal (``KState.reveal_limits``: every modifier placed meanwhile
    counted, no bonus card gone yet). A uniform seat decides inline, drawing as it would
    through its ``decide``."""
    seats = _kernel_seats(ks, model, rng, first)
    kernel.play_out(ks, seats, rng, until="round")
    return kernel_outcome(ks, viewer, score)


def _kernel_seats(ks: kernel.KState, model: str, rng: random.Random,
                  first: Action | None) -> list[kernel.KernelPolicy]:
    """Every seat's kernel policy under ``model``, the seat to move making ``first`` first."""
    if ks.phase == kernel.GOLD:  # the reveal is under way: gold decisions change no limit
        ks.reveal_limits = kernel.limits(ks)
    inner = kernel_policy(model, rng)
    seats: list[kernel.KernelPolicy] = [inner] * ks.players
    if first is not None:
        seats[ks.current] = kernel.First(inner, kernel.from_action(first))
    return seats


def game_kernel(ks: kernel.KState, model: str, rng: random.Random, viewer: int, score: int,
                first: Action | None = None) -> tuple[Outcome, Final]:
    """``rollout_kernel``, then on to the game's end with the same seats and generator: the
    reveal of the round under way (the same as ``rollout_kernel``'s for the same generator)
    and the game's final result for ``viewer``."""
    seats = _kernel_seats(ks, model, rng, first)
    kernel.play_out(ks, seats, rng, until="round")
    reveal = kernel_outcome(ks, viewer, score)
    kernel.play_out(ks, seats, rng, until="game")
    points, won, _ = kernel.standings(ks)
    return reveal, final(points, won, viewer)


def game_rollout(s: GameState, model: str, decide: Decider, rng: random.Random, start: Start,
                 placed: list[tuple[str, int]]) -> tuple[Outcome, Final]:
    """``rollout``, then on to the game's end: in the kernel for its models, else through the
    engine (also when the round under way has already ended, as after the last gold decision)."""
    if s.phase != OVER and s.round == start.round and model in KERNEL_MODELS:
        return game_kernel(kernel.from_state(s), model, rng, start.viewer, start.score)
    reveal = rollout(s, model, decide, rng, start, placed)  # the engine's path: ``s`` has played on
    if model in KERNEL_MODELS:
        ks = kernel.from_state(s)
        kernel.play_out(ks, [kernel_policy(model, rng)] * ks.players, rng, until="game")
        points, won, _ = kernel.standings(ks)
        return reveal, final(points, won, start.viewer)
    while s.phase != OVER:
        rules.apply(s, sample_chance(s, rng) if s.phase in CHANCE_PHASES else decide(s, rng))
    return reveal, final(rules.scores(s), rules.winners(s), start.viewer)


def kernel_outcome(ks: kernel.KState, viewer: int, score: int) -> Outcome:
    """The reveal for ``viewer`` read from a kernel state after its round end (what the
    round end cost is kept in ``ks``: cards and points lost, gold spent, the limits then)."""
    home, lost = ks.home[viewer], ks.points_lost[viewer]
    return outcome(
        viewer, score, ks.reveal_limits, home=[sum(home[i]) + lost[i] for i in range(len(COLOURS))],
        cards_lost=tuple(ks.cards_lost[viewer]), points_lost=tuple(lost),
        gold=ks.gold[viewer] + sum(ks.gold_spent[viewer]),
        scores=kernel.scores(ks),
    )


def rollout(s: GameState, model: str, decide: Decider, rng: random.Random, start: Start,
            placed: list[tuple[str, int]]) -> Outcome:
    """Play the engine state ``s`` to its round's end and reckon the reveal.

    The kernel plays the random and rule-of-thumb models (``rollout_kernel``); the search
    model goes through the engine (``play_round``), as does a state whose round is over.
    """
    if s.phase == OVER or s.round != start.round:
        return reckon(start, s, placed)
    if model not in KERNEL_MODELS:
        placed += play_round(s, decide, rng)
        return reckon(start, s, placed)
    return rollout_kernel(kernel.from_state(s), model, rng, start.viewer, start.score)


@dataclass(frozen=True)
class Start:
    """What the reckoning needs of the position the forward look starts from."""

    viewer: int
    round: int
    log_mark: int
    score: int
    modifiers: dict[str, int]

    @classmethod
    def of(cls, s: GameState, p: int) -> Start:
        modifiers = {c: sum(m for _, m in s.modifiers_above[c]) for c in COLOURS}
        return cls(p, s.round, len(s.log), rules.scores(s)[p], modifiers)


@dataclass(frozen=True)
class Outcome:
    needed: tuple[int, ...]  # gold needed per colour at the reveal (0: safe)
    cards_lost: tuple[int, ...]
    points_lost: tuple[int, ...]
    keeps_all: bool
    score_change: int
    ahead: bool

    def figures(self) -> list[int]:
        """The whole numbers whose expectations the forward risk reports (``FIGURES`` names
        them): per colour, whether it exceeds, the cards and points lost and the gold
        needed; then whether any exceeds, whether the gold keeps all, the score change, and
        whether the viewer is ahead."""
        row = [int(n > 0) for n in self.needed] + list(self.cards_lost) + list(self.points_lost) + list(self.needed)
        return row + [int(any(self.needed)), int(self.keeps_all), self.score_change, int(self.ahead)]


@dataclass(frozen=True)
class Final:
    """The viewer's result at the game's end (the whole-game horizon)."""

    points: int  # the final score
    margin: int  # the final score minus the best other seat's (negative: behind)
    won: bool  # among the winners after ruling R17's tie-break (a shared win counts)


def final(points: Sequence[int], winners: Sequence[int], viewer: int) -> Final:
    """``viewer``'s ``Final`` from every seat's final score and the winners (ruling R17)."""
    best_other = max(p for seat, p in enumerate(points) if seat != viewer)
    return Final(points[viewer], points[viewer] - best_other, viewer in winners)


#: What each of ``Outcome.figures`` is, in order.
FIGURES = tuple(f"{name} {c}" for name in ("exceeds", "cards lost", "points lost", "gold needed") for c in COLOURS) + (
    "any exceeds", "gold keeps all", "score change", "ahead")


def outcome(viewer: int, score: int, limits: Sequence[int], home: list[int], cards_lost: tuple[int, ...],
            points_lost: tuple[int, ...], gold: int, scores: list[int]) -> Outcome:
    """The reveal for ``viewer`` (whose score was ``score`` at the start): hometown (with the
    hand, ruling R9) against the capital's totals then (``limits``, by colour: cards and
    modifiers, before bonus cards leave the capital)."""
    needed = []
    for i in range(len(COLOURS)):
        needed.append(home[i] - limits[i] if home[i] > 0 and home[i] > limits[i] else 0)  # ruling R7
    return Outcome(
        needed=tuple(needed), cards_lost=cards_lost, points_lost=points_lost, keeps_all=sum(needed) <= gold,
        score_change=scores[viewer] - score, ahead=scores[viewer] >= max(scores),
    )


def reckon(start: Start, s: GameState, placed: Sequence[tuple[str, int]]) -> Outcome:
    """The reveal, rebuilt from the engine's state after the round end and the round end's log.

    The engine runs the whole round end in one step when nobody has a gold choice, so
    the hometown at the reveal is what is left plus what was discarded, and the capital
    what is left plus the bonus cards taken.
    """
    p = start.viewer
    lost_cards: Counter[str] = Counter()
    lost_points: Counter[str] = Counter()
    bonus: Counter[str] = Counter()
    spent = 0
    for event in s.log[start.log_mark:]:
        if event.kind == "bonus":
            bonus[event.colours[0]] += sum(card.value for card in event.cards)
        elif event.player == p and event.kind == "discard":
            lost_cards[event.colours[0]] += len(event.cards)
            lost_points[event.colours[0]] += sum(card.value for card in event.cards)
        elif event.player == p and event.kind == "gold_spent":
            spent += event.amount
    modifiers = dict(start.modifiers)  # every modifier placed stays until the reveal (ruling R12 clears them)
    for colour, value in placed:
        modifiers[colour] += value
    return outcome(
        start.viewer, start.score, [sum(s.capital[c]) + bonus[c] + modifiers[c] for c in COLOURS],
        home=[sum(s.hometowns[p][c]) + lost_points[c] for c in COLOURS],
        cards_lost=tuple(lost_cards[c] for c in COLOURS), points_lost=tuple(lost_points[c] for c in COLOURS),
        gold=s.gold[p] + spent, scores=rules.scores(s),
    )
