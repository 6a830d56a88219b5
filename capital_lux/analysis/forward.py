"""Forward risk: the chance of exceeding when the round really ends, from the learner's view.

``round_end_risk`` answers "if the round ended now". A learner asks something else:
after the plays still to come, how likely is each colour to exceed at the round end,
and which move lowers that? This module answers under a stated opponent model:

* ``"random"``: every seat (the viewer's later turns too) picks uniformly among its
  legal actions;
* ``"rule"`` (default): every seat plays like the rule-of-thumb bot, whose choices are
  a function of its own view;
* ``"search"``: every seat plays like the search bot (a small budget; simulated only).

At the round end the hand goes into the hometown (ruling R9), and all figures are taken
at the reveal, before gold is paid: a colour "exceeds" when its hometown total is above
the capital total then (ruling R7), whether it is kept with gold or discarded.

The hidden state is always drawn through ``views.determinize``, so nothing the viewer
cannot know enters. Face-down modifiers follow a prior over their values:
``placement="random"`` (uniform, as before) or ``placement="bayes"``: the posterior given
where each owner put theirs, using the model's own placement policy as the likelihood
(``modifiers.modifier_posterior``).

Horizon: by default every figure is taken at this round's reveal. ``horizon="game"`` plays
each simulated game on past it to the game's end (the rest of the deck dealt in new rounds
as the rules say, every seat, gold decisions included, played by the model, bonus cards,
the final scores) and adds the viewer's final result (``GameEnd``): the expected final
margin over the best other seat, which the ranking then orders moves by, the final points,
and the chance of winning (ruling R17's tie-break; a shared win counts as a win). The
whole game is always simulated (its tree is far too big to enumerate), and its round part
is the very same games as the round's: the same seed gives the same reveal either way.

Exact or simulated: for the random and rule-of-thumb models the rest of the round is first
enumerated as ``Fraction``s in the kernel (``endgame``: every hidden hand, draw and model
decision), for at most ``EXACT_MS`` milliseconds of the thread's CPU time; a tree that does
not fit is simulated instead (``DEFAULT_SAMPLES`` games by default) and every probability
carries its 95% interval. ``ForwardRisk.exact`` says which. Either way every figure is one
type, an ``Estimate`` (``stats``): an exact one holds its ``Fraction`` (``.exact``) and a
zero-width interval, a simulated one its mean, interval and games; a reader asks the figure,
never its type. ``exact_by_engine`` walks the same tree through the engine, one step at a
time: the reference the tests hold the kernel's enumeration to. The last search's answers
are kept for the next question on the same view (``_LastSearch``: the panel's whole move,
then the comparison's every move), so each question's budget goes to what is not yet
reckoned.
"""

from __future__ import annotations

import gc
import math
import random
import threading
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Iterator, Sequence, TypedDict

from ..engine.cards import N_
from ..engine.errors import PositionError, UsageError
from ..engine import kernel, rules
from ..engine.cards import ALL_CARDS, COLOURS
from ..engine.errors import Cancelled as Cancelled  # re-exported: work stopped by ``should_stop``
from ..engine.notation import Action, PlaceModifier
from ..engine.state import AGENT, CHANCE_PHASES, CLERIC, DRAFT, GOLD, OVER, PLAY, GameState
from ..engine.views import PlayerView, determinize
from . import endgame
from .modifiers import ModifierPrior, modifier_posterior
from .riskdraft import DraftKnowledge, Drafted, dealer
from .reveal import (FIGURES, KERNEL_MODELS, MODELS, QUICK, Final, Outcome, Start, decider, exact_choices,
                     game_kernel, game_rollout, play_round, reckon, rollout, rollout_kernel)
from .stats import Z95, Estimate

__all__ = [
    "MODELS", "PLACEMENTS", "EXACT_MS", "DEFAULT_SAMPLES", "exact_by_engine", "Estimate", "ForwardColour",
    "ForwardRisk", "GameEnd", "HORIZONS", "MoveRisk", "Cancelled", "forward_risk", "iter_forward_risk", "decider", "play_round",
    "Ranking", "RankOptions", "rank_moves", "RANK_GAMES", "EQUIVALENT_POINTS",
    "rollout", "KERNEL_MODELS", "binding_draft",
]

PLACEMENTS = ("bayes", "random")
#: How far the forward look plays: to this round's reveal, or on to the game's end.
HORIZONS = ("round", "game")
#: Milliseconds of CPU time the exact search may take before the answer is simulated instead.
EXACT_MS = 200.0
#: The exact search is tried only when no hand holds more cards than this (the end of a round
#: in sight); earlier, it would only spend its budget before the simulation.
EXACT_HAND = 3
DEFAULT_SAMPLES = 2000

@dataclass(frozen=True)
class ForwardColour:
    colour: str
    p_exceed: Estimate  # hometown above the capital at the reveal (kept with gold or not)
    cards_lost: Estimate  # expected cards discarded
    points_lost: Estimate  # their expected total value
    gold_needed: Estimate  # expected gold to keep this colour (0 when it does not exceed)


@dataclass(frozen=True)
class GameEnd:
    """The viewer's result at the game's end, simulated (``horizon="game"``)."""

    margin: Estimate  # final score minus the best other seat's: what the ranking orders by
    points: Estimate  # final score
    p_win: Estimate  # among the winners after ruling R17's tie-break (a shared win counts)


@dataclass(frozen=True)
class ForwardRisk:
    model: str
    placement: str
    exact: bool
    samples: int  # games simulated; 0 when exact
    colours: dict[str, ForwardColour]
    p_exceed_any: Estimate
    p_gold_keeps_all: Estimate  # the viewer's gold at the reveal pays for every exceeding colour
    score_change: Estimate  # the viewer's score after the round end minus now
    p_ahead: Estimate  # the viewer's score is the highest (ties included) after the round end
    prior: ModifierPrior | None = field(default=None, compare=False)
    game: GameEnd | None = None  # the game's end (``horizon="game"``); None: the round's reveal only

    @property
    def points(self) -> Estimate:
        """What the ranking orders moves by: the expected score change by the round's end,
        or, to the game's end, the expected final margin over the best other seat."""
        return self.score_change if self.game is None else self.game.margin

    def widest(self) -> float:
        """The widest half-interval among the probabilities (0 when exact)."""
        figures = [self.p_exceed_any, self.p_gold_keeps_all, self.p_ahead]
        figures += [c.p_exceed for c in self.colours.values()]
        if self.game is not None:
            figures.append(self.game.p_win)
        return max(q.half_width for q in figures)


@dataclass(frozen=True)
class MoveRisk:
    action: Action
    risk: ForwardRisk


# -- the hidden state ----------------------------------------------------------------------
def _hidden_zones(v: PlayerView) -> list[int]:
    """Sizes of the others' hidden card places, in ``determinize``'s dealing order."""
    return [
        sizes[q]
        for sizes in (v.hand_sizes, v.draft_hand_sizes, v.draft_pick_counts)
        for q in range(v.players)
        if q != v.viewer
    ]


def _deals(v: PlayerView) -> Iterator[tuple[list[object], Fraction]]:
    """Every distinct deal of the unseen cards into the others' places, with its chance.

    Cards of one kind are interchangeable, so a place gets a multiset: its chance is a
    multivariate hypergeometric term given what earlier places took.
    """
    counts = v.unseen_cards()
    zones = [size for size in _hidden_zones(v) if size]

    def multisets(left: list[int], size: int, kind: int) -> Iterator[list[tuple[int, int]]]:
        if size == 0:
            yield []
            return
        for k in range(kind, len(left)):
            for take in range(min(left[k], size), 0, -1):
                for rest in multisets(left, size - take, k + 1):
                    yield [(k, take), *rest]

    def deal(i: int, left: list[int], weight: Fraction, cards: list[object]) -> Iterator[tuple[list[object], Fraction]]:
        if i == len(zones):
            yield cards, weight
            return
        population = sum(left)
        for picks in multisets(left, zones[i], 0):
            ways = 1
            nxt = left[:]
            hand: list[object] = []
            for k, take in picks:
                ways *= math.comb(left[k], take)
                nxt[k] -= take
                hand += [ALL_CARDS[k]] * take
            yield from deal(i + 1, nxt, weight * Fraction(ways, math.comb(population, zones[i])), cards + hand)

    yield from deal(0, counts, Fraction(1), [])


def _deal_count(v: PlayerView, limit: int) -> int:
    """How many distinct deals there are, counting no further than ``limit``."""
    n = 0
    for _ in _deals(v):
        n += 1
        if n > limit:
            break
    return n


def _state(v: PlayerView, rng: random.Random, cards: Sequence[object] | None, values: Sequence[int]) -> GameState:
    """A full state for the view with these hidden modifier values (and this deal, if given)."""
    slots = sum(m.value is None for c in COLOURS for m in v.modifiers_above[c])
    s = determinize(v, rng, cards=cards, modifiers=values[:slots])  # type: ignore[arg-type]
    if len(values) > slots:  # an opponent's Agent draw the viewer has not seen
        pending = values[slots]
        deck = s.modifier_deck + ([s.pending_modifier] if s.pending_modifier is not None else [])
        deck.remove(pending)
        s.pending_modifier, s.modifier_deck = pending, sorted(deck)
    return s


# -- exact -----------------------------------------------------------------------------------
def _exact_figures(
    v: PlayerView, model: str, prior: ModifierPrior, firsts: Sequence[Action | None], exact_ms: float,
    should_stop: Callable[[], bool] | None = None, clock: Callable[[], float] | None = None,
) -> list[list[Fraction]] | None:
    """For each of ``firsts`` (None: the viewer's own model decides), the expectation of every
    ``Outcome.figures`` figure at the reveal, exact; None when the search does not fit in
    ``exact_ms`` milliseconds of ``clock`` (or, at its pace, will not: ``Search._hopeless``)
    or the model's decisions cannot be enumerated. On a ``WorkClock`` the search is a fresh
    one, never the one kept from the last question, so whether it fits depends on the position
    alone."""
    if exact_ms <= 0 or model not in endgame.MODELS or v.phase in (DRAFT, GOLD, OVER) or v.round < 1:
        return None
    if max(v.hand_sizes) > EXACT_HAND:  # far from the round's end: the budget would be spent for nothing
        return None
    if len({weight for _, weight in prior.assignments}) > 1:  # the search takes equally likely values
        return None
    assignments = [values for values, _ in prior.assignments]
    asked = (v, model, tuple(assignments))
    keep = not isinstance(clock, WorkClock)
    clock = time.thread_time if clock is None else clock
    search = _LAST_SEARCH.take(asked) if keep else None
    if search is None:
        root = endgame.Root(v, assignments)
        search = endgame.Search(root, v.viewer, model, clock() + exact_ms / 1000, clock, should_stop)
    else:
        search.resume(clock() + exact_ms / 1000, clock, should_stop)
    found = []
    collecting = gc.isenabled()
    gc.disable()  # the search's tables hold no cycles: collections would only walk them, a fifth of its time
    try:
        for first in firsts:
            denominator, numerators = search.figures(None if first is None else kernel.from_action(first),
                                                     1 / len(firsts))
            found.append([Fraction(n, denominator) for n in numerators])
    except endgame.TooBig:
        return None
    finally:
        if keep:
            _LAST_SEARCH.keep(asked, search)
        if collecting:
            gc.enable()
    return found


class _LastSearch:
    """The last exact search, kept for the next question on the same view and model: the risk
    panel asks the whole move's figures, then the move comparison or the hint asks each
    move's, and those the first search finished (the whole move, and each move it valued on
    the way: every move, with random opponents) are not reckoned again (``Search.forget``
    keeps those only). One at a time: a search taken is not shared between threads, and a
    new question drops the search kept."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.asked: object = None
        self.search: endgame.Search | None = None

    def take(self, asked: object) -> endgame.Search | None:
        with self.lock:
            search, self.search = self.search, None
            return search if search is not None and self.asked == asked else None

    def keep(self, asked: object, search: endgame.Search) -> None:
        search.forget()
        with self.lock:
            self.asked, self.search = asked, search


_LAST_SEARCH = _LastSearch()


class WorkClock:
    """A clock that reads the exact search's own work, not time: each look (one every
    ``endgame.CHECK_EVERY`` positions valued) moves it on by the time those positions take at
    ``POSITIONS_PER_MS``. A budget on it is a number of positions: whether a search fits is the
    same on a quiet or a loaded machine, first or second time asked (a review's verdicts
    must not depend on either)."""

    #: The search's pace on a quiet 2-core machine (about 70 positions a millisecond measured
    #: at a load average of 10): a budget of 30 ms is about 3,000 positions.
    POSITIONS_PER_MS = 100.0

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += endgame.CHECK_EVERY / self.POSITIONS_PER_MS / 1000
        return self.now


def exact_by_engine(
    v: PlayerView, model: str, prior: ModifierPrior, first: Action | None, limit: int,
    should_stop: Callable[[], bool] | None = None,
) -> list[tuple[Fraction, Outcome]] | None:
    """Every outcome with its exact probability, walked through the engine one step at a time
    (every deal of the hidden cards up front), or None beyond ``limit`` engine steps: the
    reference the kernel's search (``endgame``) is tested against."""
    choose = exact_choices(model)
    if choose is None or v.phase in (DRAFT, GOLD, OVER) or v.round < 1:
        return None
    if len(prior.assignments) * _deal_count(v, limit) > limit:
        return None
    budget = [limit]
    results: list[tuple[Fraction, Outcome]] = []
    rng = random.Random(0)  # unused: every hidden card and modifier is fixed below

    def walk(s: GameState, weight: Fraction, placed: tuple[tuple[str, int], ...], start: Start, rnd: int) -> None:
        if s.phase == OVER or s.round != rnd:
            results.append((weight, reckon(start, s, placed)))
            return
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooBig
        if should_stop is not None and budget[0] % 128 == 0 and should_stop():
            raise Cancelled
        if s.phase in CHANCE_PHASES:
            options = s.chance_outcomes()
        else:
            options = choose(s)
        if not options:
            raise PositionError(N_("No move is possible for player {seat} here: this is not a possible table."),
                                seat=s.current)
        for action, chance in options:
            child = s.clone()
            more = placed
            if s.phase == AGENT and isinstance(action, PlaceModifier) and s.pending_modifier is not None:
                more = placed + ((action.colour, s.pending_modifier),)
            rules.apply(child, action)
            walk(child, weight * chance, more, start, rnd)

    try:
        for values, w_mod in prior.assignments:
            for cards, w_deal in _deals(v):
                budget[0] -= 1  # setting up a deal costs about one step
                s = _state(v, rng, cards, values)
                start = Start.of(s, v.viewer)
                placed: tuple[tuple[str, int], ...] = ()
                if first is not None:
                    if s.phase == AGENT and s.pending_modifier is not None and isinstance(first, PlaceModifier):
                        placed = ((first.colour, s.pending_modifier),)
                    s.apply_action(first)
                walk(s, w_mod * w_deal, placed, start, v.round)
    except _TooBig:
        return None
    return results


class _TooBig(Exception):
    pass


def expected_figures(results: list[tuple[Fraction, Outcome]]) -> list[Fraction]:
    """The expectation of every ``Outcome.figures`` figure over weighted outcomes."""
    figures = [Fraction(0)] * len(FIGURES)
    for weight, o in results:
        for i, n in enumerate(o.figures()):
            figures[i] += weight * n
    return figures


def _exact_summary(figures: list[Fraction], model: str, placement: str, prior: ModifierPrior) -> ForwardRisk:
    """The forward risk from the exact expectations of ``Outcome.figures``."""
    f = [Estimate.exactly(x) for x in figures]
    colours = {
        c: ForwardColour(colour=c, p_exceed=f[i], cards_lost=f[4 + i], points_lost=f[8 + i], gold_needed=f[12 + i])
        for i, c in enumerate(COLOURS)
    }
    return ForwardRisk(
        model=model, placement=placement, exact=True, samples=0, colours=colours, p_exceed_any=f[16],
        p_gold_keeps_all=f[17], score_change=f[18], p_ahead=f[19], prior=prior,
    )


# -- simulated -------------------------------------------------------------------------------
class _Sampler:
    """Game ``i`` of a seeded run: the same hidden deal and dice whatever move is tried first.

    The kernel plays the rollouts, so a sample's kernel state is dealt straight from the
    view (``kernel.sampler``, the search's sampler too), with the face-down modifiers'
    values drawn from the prior, exactly as ``determinize`` (through ``_state``) deals
    them from the same generator: the seeded games are the same ones. The search model,
    played by the engine, still goes through ``_state``.
    """

    def __init__(self, v: PlayerView, prior: ModifierPrior, model: str, draft: DraftKnowledge | None = None) -> None:
        self.v, self.prior, self.model, self.draft = v, prior, model, draft
        self.redeal = None if draft is None else dealer(draft)
        self.direct = model in KERNEL_MODELS and v.phase in _DIRECT_PHASES
        self.decide = None if self.direct else decider(model)
        if not self.direct:
            return
        self.sample = kernel.sampler(v)
        self.score = kernel.scores(self.sample(random.Random(0)))[v.viewer]  # public: any sample's will do

    def outcome(self, seed: int, i: int, first: Action | None) -> Outcome:
        return self._play(seed, i, first, False)[0]

    def game(self, seed: int, i: int, first: Action | None) -> tuple[Outcome, Final]:
        """Game ``i`` played on to the game's end: the same round as ``outcome``'s, then the rest."""
        reveal, end = self._play(seed, i, first, True)
        assert end is not None
        return reveal, end

    def _play(self, seed: int, i: int, first: Action | None, to_end: bool) -> tuple[Outcome, Final | None]:
        rng = random.Random(seed * 1_000_003 + i)
        values = self.prior.draw(rng)
        if self.direct:
            ks = self.sample(rng, values)
            if self.redeal is not None:  # the others' cards where the draft put them, as the viewer saw
                ks = self.redeal(ks, rng)
            if to_end:
                return game_kernel(ks, self.model, rng, self.v.viewer, self.score, first)
            return rollout_kernel(ks, self.model, rng, self.v.viewer, self.score, first), None
        assert self.decide is not None
        s, start, placed = self._through_engine(rng, values, first)
        if to_end:
            return game_rollout(s, self.model, self.decide, rng, start, placed)
        return rollout(s, self.model, self.decide, rng, start, placed), None

    def _through_engine(self, rng: random.Random, values: tuple[int, ...],
                        first: Action | None) -> tuple[GameState, Start, list[tuple[str, int]]]:
        """The sampled engine state after ``first``, the start of the reckoning, the modifier placed."""
        s = _state(self.v, rng, None, values)
        start = Start.of(s, self.v.viewer)
        placed: list[tuple[str, int]] = []
        if first is not None:
            if s.phase == AGENT and s.pending_modifier is not None and isinstance(first, PlaceModifier):
                placed.append((first.colour, s.pending_modifier))
            s.apply_action(first)
        return s, start, placed


#: Phases whose samples the kernel state is built for directly (the round is under way).
_DIRECT_PHASES = (DRAFT, PLAY, CLERIC, AGENT)


def _simulated_summary(outcomes: list[Outcome], model: str, placement: str, prior: ModifierPrior,
                       finals: list[Final] | None = None) -> ForwardRisk:
    """The figures over simulated games; with ``finals`` (the same games' ends), the game's end too."""
    n = len(outcomes)
    colours = {
        c: ForwardColour(
            colour=c,
            p_exceed=Estimate.proportion(sum(o.needed[i] > 0 for o in outcomes), n),
            cards_lost=Estimate.of_values([o.cards_lost[i] for o in outcomes]),
            points_lost=Estimate.of_values([o.points_lost[i] for o in outcomes]),
            gold_needed=Estimate.of_values([o.needed[i] for o in outcomes]),
        )
        for i, c in enumerate(COLOURS)
    }
    return ForwardRisk(
        model=model, placement=placement, exact=False, samples=n, colours=colours,
        p_exceed_any=Estimate.proportion(sum(any(o.needed) for o in outcomes), n),
        p_gold_keeps_all=Estimate.proportion(sum(o.keeps_all for o in outcomes), n),
        score_change=Estimate.of_values([o.score_change for o in outcomes]),
        p_ahead=Estimate.proportion(sum(o.ahead for o in outcomes), n), prior=prior,
        game=None if finals is None else GameEnd(
            margin=Estimate.of_values([f.margin for f in finals]), points=Estimate.of_values([f.points for f in finals]),
            p_win=Estimate.proportion(sum(f.won for f in finals), len(finals))),
    )


def _check(v: PlayerView, model: str, placement: str, horizon: str = "round", moves: bool = False) -> None:
    """Refuse what cannot be looked at; a decision on gold (``moves``) can be ranked, though the
    reveal it follows is known: by the points it keeps by the round's end, or the game's."""
    if model not in MODELS and model != QUICK:
        raise UsageError(f"unknown opponent model {model!r}: choose from {', '.join(MODELS)}")
    if placement not in PLACEMENTS:
        raise UsageError(f"unknown modifier placement {placement!r}: choose from {', '.join(PLACEMENTS)}")
    if horizon not in HORIZONS:
        raise UsageError(f"unknown horizon {horizon!r}: choose from {', '.join(HORIZONS)}")
    if v.round < 1 or v.phase == OVER or (v.phase == GOLD and not moves):
        raise PositionError(N_("This round's end is already revealed: there is no round left to look ahead in."))


def iter_forward_risk(
    v: PlayerView, model: str = "rule", placement: str = "bayes", samples: int = DEFAULT_SAMPLES, seed: int = 0,
    exact_ms: float = EXACT_MS, placement_views: dict[tuple[str, int], PlayerView] | None = None,
    batch: int = 250, target: float = 0.0, should_stop: Callable[[], bool] | None = None,
    draft: DraftKnowledge | None = None,
) -> Iterator[ForwardRisk]:
    """``forward_risk`` as partial results: the exact answer once, or the simulation so far
    after every ``batch`` games, until ``samples`` games or every probability's 95% interval
    is within ``target`` (0: run all ``samples``). ``should_stop()`` raises ``Cancelled``.
    """
    _check(v, model, placement)
    if samples <= 0 or batch <= 0:
        raise UsageError("simulation needs at least one game")
    draft = binding_draft(v, draft)
    prior = modifier_posterior(v, model if placement == "bayes" else "random", placement_views)
    exact = None if draft is not None else _exact_figures(v, model, prior, [None], exact_ms, should_stop)
    if exact is not None:
        yield _exact_summary(exact[0], model, placement, prior)
        return
    sampler = _Sampler(v, prior, model, draft)
    outcomes: list[Outcome] = []
    while len(outcomes) < samples:
        for i in range(len(outcomes), min(samples, len(outcomes) + batch)):
            if should_stop is not None and i % 25 == 0 and should_stop():
                raise Cancelled
            outcomes.append(sampler.outcome(seed, i, None))
        risk = _simulated_summary(outcomes, model, placement, prior)
        yield risk
        if target > 0 and risk.widest() <= target:
            return


def binding_draft(v: PlayerView, draft: DraftKnowledge | None) -> DraftKnowledge | None:
    """``draft`` when it says something of this view's hidden cards (its round, the viewer's,
    a phase the simulation deals from the view; for the draft's likelihood, where worlds that
    fit are found), else None: the page says which model it read."""
    if draft is None or draft.empty or draft.round != v.round or v.phase not in _DIRECT_PHASES:
        return None
    if draft.viewer != v.viewer or draft.players != v.players:
        raise UsageError(f"the draft seen by seat {draft.viewer} of {draft.players} is not seat {v.viewer}'s")
    if draft.model == "likelihood" and not Drafted(draft).fits_often(v):
        return None  # it would deal at random: the exact search may then answer
    return draft


def forward_risk(
    v: PlayerView, model: str = "rule", placement: str = "bayes", samples: int = DEFAULT_SAMPLES, seed: int = 0,
    exact_ms: float = EXACT_MS, placement_views: dict[tuple[str, int], PlayerView] | None = None,
    should_stop: Callable[[], bool] | None = None, draft: DraftKnowledge | None = None,
) -> ForwardRisk:
    """The viewer's risk at the real round end, every seat playing like ``model``.

    Exact when the rest of the round is enumerated within ``exact_ms`` milliseconds of CPU
    time (``exact_ms=0`` forces simulation), else ``samples`` seeded games. ``placement_views`` gives, for a
    face-down modifier (colour, index), the viewer's view just before it was placed; the
    current table stands in for missing ones. ``draft`` (``riskdraft.draft_knowledge``): the
    cards the viewer passed in this round's draft, dealt where it knows they went; the figures
    are then simulated (the exact search deals the others' hands at random).
    """
    last: ForwardRisk | None = None
    for last in iter_forward_risk(v, model, placement, samples, seed, exact_ms, placement_views,
                                  batch=samples, should_stop=should_stop, draft=draft):
        pass
    assert last is not None
    return last


def _exact_moves(
    v: PlayerView, model: str, placement: str, prior: ModifierPrior, exact_ms: float,
    should_stop: Callable[[], bool] | None, clock: Callable[[], float] | None = None,
) -> list[MoveRisk] | None:
    """Every legal move's exact risk, or None when their trees do not fit in ``exact_ms``."""
    figures = _exact_figures(v, model, prior, v.legal_actions, exact_ms, should_stop, clock)
    if figures is None:
        return None
    return [MoveRisk(a, _exact_summary(f, model, placement, prior)) for a, f in zip(v.legal_actions, figures)]


def _play_games(sampler: _Sampler, v: PlayerView, seed: int, outcomes: list[list[Outcome]], n: int,
                should_stop: Callable[[], bool] | None, finals: list[list[Final]] | None = None) -> None:
    """Games ``len(outcomes[k])`` to ``n - 1`` of seed ``seed`` after every legal move (the same
    games for every move: common random numbers); with ``finals``, each played to the game's end."""
    for k, action in enumerate(v.legal_actions):
        _play(sampler, seed, action, outcomes[k], n, should_stop, None if finals is None else finals[k])


def _play(sampler: _Sampler, seed: int, action: Action, outcomes: list[Outcome], n: int,
          should_stop: Callable[[], bool] | None, finals: list[Final] | None = None) -> None:
    """Games ``len(outcomes)`` to ``n - 1`` of seed ``seed`` after ``action``, to the round's
    reveal, or with ``finals`` to the game's end."""
    for i in range(len(outcomes), n):
        if should_stop is not None and i % 25 == 0 and should_stop():
            raise Cancelled
        if finals is None:
            outcomes.append(sampler.outcome(seed, i, action))
            continue
        reveal, end = sampler.game(seed, i, action)
        outcomes.append(reveal)
        finals.append(end)


# -- the one ranking -------------------------------------------------------------------------
#: Games the ranking may play in all, shared among the moves (about half a second here).
RANK_GAMES = 4000
#: Fewest games a move is played before the ranking may stop.
RANK_MIN_GAMES = 100
#: Two moves whose expected points differ by less than this are as good as each other.
EQUIVALENT_POINTS = 0.5


@dataclass(frozen=True)
class Ranking:
    """Every legal move, in the one order the hint, the comparison and the review read.

    Moves are ranked by expected points (``ForwardRisk.points``): the score change by the
    round end, or with ``horizon="game"`` the final margin over the best other seat; "risk"
    below is the chance of exceeding at this round's reveal, or to the game's end the chance
    of not winning. The first ``tied`` are as good
    as each other on points: the 95% interval of their difference from the best, paired
    over the same games, reaches below ``EQUIVALENT_POINTS``. Among those, a move that
    another shown beats on both points and risk is set aside; of the rest, the rule of
    thumb's move comes first if it is one of them (a choice that does not hang on noise,
    and one a beginner can follow), else the one with most points. So no move shown has
    both more points and less risk than the first.
    ``quote`` is the first move played again on games that took no part in choosing it
    (the same figures when exact), so what is quoted is not the luckiest of estimates.
    """

    moves: list[MoveRisk]
    tied: int
    quote: ForwardRisk
    games: int  # games per move that ranked them (0: exact)
    horizon: str = "round"  # "round": at this round's reveal; "game": at the game's end
    #: Per move, in the ranking's order: the first move's points minus its own, paired over the
    #: same games, with the 95% half-width of that difference (exact: the difference, 0).
    gaps: tuple[tuple[float, float], ...] = ()

    @property
    def best(self) -> MoveRisk:
        return self.moves[0]


def _paired(first: Sequence[float], second: Sequence[float]) -> tuple[float, float]:
    """``first`` minus ``second`` over the same games: the mean and its 95% half-width."""
    gaps = [a - b for a, b in zip(first, second)]
    n = len(gaps)
    average = sum(gaps) / n
    spread = math.sqrt(sum((g - average) ** 2 for g in gaps) / (n - 1)) if n > 1 else math.inf
    return average, Z95 * spread / math.sqrt(n)


def _choose(v: PlayerView, points: list[float], risks: list[float], group: set[int], neutral: bool = False) -> list[int]:
    """The legal moves' indices in the ranking's order: the chosen move, the rest of the
    ``group`` (as good as the best on points), then the others, most points first. ``neutral``:
    the move with most points first, the rule of thumb's move given no preference (the review
    judges moves, and must not favour one kind of player by construction)."""
    def dominated(k: int) -> bool:
        return any(points[j] >= points[k] and risks[j] <= risks[k] and (points[j], risks[j]) != (points[k], risks[k])
                   for j in range(len(points)))

    order = sorted(range(len(points)), key=lambda k: (-points[k], risks[k]))
    calm = [k for k in order if k in group and not dominated(k)]
    from ..players.bots import RuleOfThumbBot  # players sit below the analysis

    thumb = -1 if neutral else v.legal_actions.index(RuleOfThumbBot().advise(v).action)
    chosen = thumb if thumb in calm else calm[0]
    rest = [k for k in order if k != chosen]
    return [chosen] + [k for k in rest if k in group] + [k for k in rest if k not in group]


def _risk(r: ForwardRisk) -> float:
    """The ranking's risk: of exceeding at this round's reveal, or to the game's end of not winning."""
    return r.p_exceed_any.mean if r.game is None else 1 - r.game.p_win.mean


def _order(v: PlayerView, outcomes: list[list[Outcome]], group: set[int], model: str, placement: str,
           prior: ModifierPrior, finals: list[list[Final]] | None = None,
           neutral: bool = False) -> tuple[list[MoveRisk], list[int]]:
    """Each legal move's figures from its games, and the ranking's order of their indices."""
    moves = [MoveRisk(a, _simulated_summary(o, model, placement, prior, None if finals is None else finals[k]))
             for k, (a, o) in enumerate(zip(v.legal_actions, outcomes))]
    return moves, _choose(v, [m.risk.points.mean for m in moves], [_risk(m.risk) for m in moves], group, neutral)


class RankOptions(TypedDict, total=False):
    """``rank_moves``' budget and horizon, as a page passes them on (``**options``)."""

    games: int
    batch: int
    exact_ms: float
    min_games: int
    horizon: str
    neutral: bool


def rank_moves(
    v: PlayerView, model: str = "rule", placement: str = "bayes", seed: int = 0, games: int = RANK_GAMES,
    batch: int = 50, exact_ms: float = EXACT_MS, placement_views: dict[tuple[str, int], PlayerView] | None = None,
    progress: Callable[[float], None] | None = None, should_stop: Callable[[], bool] | None = None,
    partial: Callable[[Ranking], None] | None = None, min_games: int = RANK_MIN_GAMES, horizon: str = "round",
    neutral: bool = False, enough: Callable[[], bool] | None = None, remeasure: bool = False,
    exact_clock: Callable[[], float] | None = None, draft: DraftKnowledge | None = None,
) -> Ranking:
    """The one ranking of the viewer's legal moves (see ``Ranking``).

    ``horizon="round"`` scores a move at this round's reveal; ``"game"`` plays every game on
    to the game's end and scores it by the final margin over the best other seat (with the
    final points and the chance of winning beside it), always simulated. A decision on gold
    is ranked by simulation at either horizon. Exact, to the round's end, when every move's
    tree is small. Otherwise every move plays the same seeded
    games, ``batch`` at a time, until each move is told apart from the best or found as
    good as it (after ``min_games`` each), or ``games`` are spent in all; then the chosen
    move is played again on as many fresh games for the figures quoted. ``partial`` gets
    the ranking so far after each batch (its quote not yet measured again: the move's own
    figures), so a caller can show it, or keep it if stopped.

    For a judge rather than an adviser: ``neutral`` gives the rule of thumb's move no place
    among tied moves (the move with most points comes first); ``enough()``, asked after each
    batch, ends the ranking there as if its games were spent (a budget: at least one batch is
    always played); ``remeasure`` plays every move again, on as many fresh games as ranked them
    (the same fresh games for every move), and gives those figures: the games that chose the
    first move take no part in any figure, so a move's loss against it is not inflated by the
    luck that chose it, and may be below 0 (another move as good or better, by chance).
    ``gaps`` holds each move's paired difference from the first on the games its figures are of.
    ``exact_clock`` (a ``WorkClock``) counts ``exact_ms`` in the search's work, not in CPU time.
    ``draft``: as ``forward_risk``'s (the ranking is then simulated).
    """
    _check(v, model, placement, horizon, moves=True)
    if not v.legal_actions:
        raise PositionError(N_("Player {seat} has no decision to make now."), seat=v.viewer)
    draft = binding_draft(v, draft)
    prior = modifier_posterior(v, model if placement == "bayes" else "random", placement_views)
    exact = None if horizon == "game" or draft is not None else _exact_moves(v, model, placement, prior, exact_ms, should_stop,
                                                        exact_clock)
    if exact is not None:
        if progress is not None:
            progress(1.0)
        points = [m.risk.score_change.mean for m in exact]
        risks = [m.risk.p_exceed_any.mean for m in exact]
        group = {k for k in range(len(exact)) if max(points) - points[k] < EQUIVALENT_POINTS}
        chosen = _choose(v, points, risks, group, neutral)
        top = exact[chosen[0]].risk.score_change.mean
        return Ranking([exact[k] for k in chosen], len(group), exact[chosen[0]].risk, 0,
                       gaps=tuple((top - points[k], 0.0) for k in chosen))
    sampler = _Sampler(v, prior, model, draft)
    outcomes: list[list[Outcome]] = [[] for _ in v.legal_actions]
    finals: list[list[Final]] | None = [[] for _ in v.legal_actions] if horizon == "game" else None
    most = max(min_games, games // len(v.legal_actions))
    n = 0
    while True:
        n = min(most, n + batch)
        _play_games(sampler, v, seed, outcomes, n, should_stop, finals)
        if finals is None:
            scores = [[float(o.score_change) for o in played] for played in outcomes]
        else:
            scores = [[float(f.margin) for f in ends] for ends in finals]
        best = max(range(len(scores)), key=lambda k: sum(scores[k]))
        gaps = {k: _paired(scores[best], scores[k]) for k in range(len(scores)) if k != best}
        group = {best} | {k for k, (average, half) in gaps.items() if average - half < EQUIVALENT_POINTS}
        if partial is not None:
            moves, chosen = _order(v, outcomes, group, model, placement, prior, finals, neutral)
            partial(Ranking([moves[k] for k in chosen], len(group), moves[chosen[0]].risk, n, horizon,
                            _gaps(scores, chosen)))
        if progress is not None:
            progress(n / most)
        settled = all(average - half >= EQUIVALENT_POINTS or average + half < EQUIVALENT_POINTS
                      for average, half in gaps.values())
        if n >= most or (n >= min_games and settled) or (enough is not None and enough()):
            break
    moves, chosen = _order(v, outcomes, group, model, placement, prior, finals, neutral)
    if remeasure:  # seed + 1: none of the games that chose the order
        again: list[list[Outcome]] = [[] for _ in v.legal_actions]
        again_ends: list[list[Final]] | None = None if finals is None else [[] for _ in v.legal_actions]
        _play_games(sampler, v, seed + 1, again, n, should_stop, again_ends)
        fresh_moves = [MoveRisk(a, _simulated_summary(o, model, placement, prior,
                                                      None if again_ends is None else again_ends[k]))
                       for k, (a, o) in enumerate(zip(v.legal_actions, again))]
        fresh_scores = ([[float(o.score_change) for o in played] for played in again] if again_ends is None
                        else [[float(f.margin) for f in ends] for ends in again_ends])
        return Ranking([fresh_moves[k] for k in chosen], len(group), fresh_moves[chosen[0]].risk, n, horizon,
                       _gaps(fresh_scores, chosen))
    fresh: list[Outcome] = []
    fresh_ends: list[Final] | None = None if finals is None else []
    _play(sampler, seed + 1, v.legal_actions[chosen[0]], fresh, n, should_stop, fresh_ends)  # seed + 1: no game that chose it
    quote = _simulated_summary(fresh, model, placement, prior, fresh_ends)
    return Ranking([moves[k] for k in chosen], len(group), quote, n, horizon, _gaps(scores, chosen))


def _gaps(scores: list[list[float]], chosen: list[int]) -> tuple[tuple[float, float], ...]:
    """The first chosen move's points minus each chosen move's, paired over the same games."""
    first = scores[chosen[0]]
    return tuple((0.0, 0.0) if k == chosen[0] else _paired(first, scores[k]) for k in chosen)
