"""The review of a game: every decision judged from what its player could see then.

``review_game(record, seat)`` replays a game record and, at each decision with more
than one legal move (draft picks, plays, Agent and Cleric choices, gold), takes the
deciding seat's view at that moment (``views.view``: never the hidden cards) and ranks
its legal moves with the one ranking of the advice (``forward.rank_moves``). The loss of
the move played is the best move's expected points (measured again on fresh games: the
ranking's ``quote``) minus its own; a verdict follows from stated thresholds in expected
points (``THRESHOLDS``). A good decision that met bad luck is not a mistake: the figures
are expectations over what the player could not see, not what then happened.

Honesty about noise: a simulated loss carries a 95% interval, and the verdict is read
from the interval's low end, so a move is called a mistake only when even that end is a
mistake's loss. The interval of a loss is taken as if the two moves' estimates were
independent (``rank_moves`` plays them on the same games, so the true paired interval
is narrower): the verdicts err towards mildness. Exact figures have no interval.

Horizon: by default (``horizon="round"``) a move is scored by the points it brings by the end
of the current round, at the reveal where a draft pick's or a play's consequences land (exact
where the tree is small); ``horizon="game"`` plays every simulated game on to the game's end
and scores a move by the final margin over the best other seat (always simulated). The round's
end is the default because there the review can tell moves apart: to the game's end, two
moves' final margins on the same games differ by about 19 points of spread from game to game
(8 to the round's end; ``reviewbench.spread``), so a loss of one or two points needs thousands
of games per move to be told from chance, and the low end of its interval calls nearly every
move good; to the round's end the same loss is often exact. The review says which in
``Review.horizon``. At the round-end horizon gold decisions, which come after the reveal, are
valued exactly by the engine (every seat's gold as the opponent model would choose it, the
round finished, the bonus cards awarded); to the game's end they are ranked like any other
decision.

Every seat is reviewed, so a learner can set their game beside the bots'; ``seat`` is
the one the key moments are chosen for. The result is plain data (``to_json`` /
``from_json``) and the same record, model and seed give the same review.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import statistics
import time
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Callable, Final, Sequence, TypedDict

from ..engine.cards import N_
from ..engine.errors import Cancelled, PositionError, UsageError
from ..engine.game import GameRecord
from ..engine.notation import Action, PlaceModifier, SaveWithGold, parse_action
from ..engine.rules import excess, gold_options, must_decide_gold
from ..engine.phases import ROUNDS, hand_size
from ..engine.state import AGENT, GOLD, GameState, new_game
from ..engine.views import PlayerView, determinize, view
from .forward import EQUIVALENT_POINTS, MODELS, ForwardRisk, WorkClock, rank_moves
from .stats import Estimate

__all__ = [
    "FORMAT", "VERSION", "HORIZON", "GAME_HORIZON", "HORIZONS", "DEFAULT_HORIZON", "VERDICTS", "THRESHOLDS", "REVIEW_GAMES", "REVIEW_MIN_GAMES", "REVIEW_EXACT_MS",
    "REVIEW_BUDGET", "FEWEST_GAMES",
    "Points", "Decision", "Summary", "RoundEnd", "ChartPoint", "Review", "ReviewOptions", "review_game", "verdict_of",
    "round_ends_of",
    "Cancelled",
]

FORMAT: Final = "capital-lux-review"
VERSION: Final = 1
#: How far ahead a move's points are counted: the end of the round it is played in
#: (``review_game(..., horizon="round")``), or the game's end.
HORIZON: Final = "round_end"
GAME_HORIZON: Final = "game_end"
HORIZONS: Final = {"round": HORIZON, "game": GAME_HORIZON}
#: The review's horizon unless told: the round's end, where its verdicts tell play of known
#: strength apart (``bench review``'s calibration; the module's docstring says why).
DEFAULT_HORIZON: Final = "round"
VERDICTS: Final = ("best", "good", "inaccuracy", "mistake", "blunder")
#: A loss (expected points, the low end of its 95% interval) below each figure earns that verdict:
#: under 0.5 "good" (the ranking's own "as good as each other"), under 1.5 "inaccuracy", under 3
#: "mistake", else "blunder". Where the interval reaches into a worse band, the review says it
#: cannot tell and names the worst verdict the interval allows (``Decision.worst``).
THRESHOLDS: Final = {"good": EQUIVALENT_POINTS, "inaccuracy": 1.5, "mistake": 3.0}
#: The default budget of one decision's ranking: games per move at most (shared as rank_moves
#: shares them), the fewest before it may stop, and the exact search's milliseconds of CPU. With
#: both at 100 every simulated decision is ranked on 100 games per move in one batch, then measured
#: again on 100 fresh ones: a loss's 95% interval is then about 1.5 points wide each side (the paired
#: spread to the round's end is about 7.6 points, ``reviewbench.spread``), against 2.4 on 40 games,
#: so fewer verdicts read from its low end are milder than the loss (``bench review``'s calibration:
#: random seats' mistakes per decision 2.05 times the rule of thumb's; the same tables reviewed on
#: other seeds give 2.03, twelve other tables 1.94, so the ratio is near 2, not safely above).
REVIEW_GAMES: Final = 100
REVIEW_MIN_GAMES: Final = 100
REVIEW_EXACT_MS: Final = 30.0
#: The fewest games per move a decision is judged on when the budget cannot pay for more.
FEWEST_GAMES: Final = 10
#: The default budget of a whole review, in seconds of the reviewing thread's CPU: every decision
#: is judged within it, to the game's end where that fits and to the round's end where it does
#: not (``Decision.horizon`` says which). A 4-player game's review takes 21 to 24 s of CPU at the
#: defaults (medians of ``bench review``'s twelve tables on three sets), 26.7 s at most, so the
#: budget rarely binds there (0.1 to 0.5% of decisions judged on fewer games, each review then
#: saying so) and it bounds a slower machine's review under 30 s.
REVIEW_BUDGET: Final = 28.0
#: A move whose chance of some colour exceeding is this much above the best's is called risky.
RISKIER: Final = 0.1
KEY_MOMENTS: Final = 3


@dataclass(frozen=True)
class Points:
    """Expected points: ``mean`` with its 95% ``half`` width (0 when exact; then ``exact``
    holds the fraction as text, "7/3")."""

    mean: float
    half: float
    exact: str | None = None

    @classmethod
    def of(cls, q: Estimate) -> Points:
        return cls(q.mean, q.half_width, None if q.exact is None else str(q.exact))

    @classmethod
    def exactly(cls, value: Fraction) -> Points:
        return cls.of(Estimate.exactly(value))


@dataclass(frozen=True)
class Decision:
    """One decision of one seat, judged from that seat's view when it was taken."""

    index: int  # the action's place in the record (0-based)
    seat: int
    round: int
    phase: str
    choices: int  # legal moves
    played: str  # notation: "home B5"
    best: str
    played_points: Points  # expected points to the horizon (to the game's end: the final margin)
    best_points: Points
    loss: float  # best's expected points minus the played move's
    loss_half: float  # the loss's 95% half-width (0: exact)
    verdict: str
    games: int  # games per move that ranked them (0: exact)
    played_risk: float | None = None  # chance that some colour exceeds at the reveal (None for gold)
    best_risk: float | None = None
    moves: tuple[tuple[str, Points], ...] = ()  # every legal move with its points, in the ranking's order
    tied: int = 1  # the first ``tied`` moves are as good as each other
    score: int = 0  # the deciding seat's score when deciding (public: hometown, bonus cards, gold)
    horizon: str = ""  # how far this decision was judged (HORIZON or GAME_HORIZON; "": the review's)
    #: Per move of ``moves``: the 95% half-width of its loss against the first, paired over the
    #: same games (0: exact). Empty in reviews written before it was kept.
    halves: tuple[float, ...] = ()
    #: Why, from the same figures: the colour of the decider's Hometown whose chance of exceeding
    #: at this round's reveal differs most between the move played and the best, with both chances
    colour: str | None = None
    played_colour_risk: float | None = None
    best_colour_risk: float | None = None
    #: a gold decision: the gold each choice pays (after the reveal, public)
    played_gold: int | None = None
    best_gold: int | None = None

    def loss_of(self, move: str) -> tuple[float, float]:
        """``move``'s loss against the first move here, and its 95% half-width."""
        rank = next(r for r, (m, _) in enumerate(self.moves) if m == move)
        best, mine = self.moves[0][1], self.moves[rank][1]
        if best.exact is not None and mine.exact is not None:
            return max(0.0, float(Fraction(best.exact) - Fraction(mine.exact))), 0.0
        half = self.halves[rank] if len(self.halves) == len(self.moves) else math.hypot(best.half, mine.half)
        return max(0.0, best.mean - mine.mean), half

    def verdict_for(self, move: str) -> str:
        """The verdict ``move`` would have earned here ("Learn from your mistakes" asks it)."""
        rank = next(r for r, (m, _) in enumerate(self.moves) if m == move)
        loss, half = self.loss_of(move)
        return verdict_of(loss, rank, half)

    @property
    def worst(self) -> str:
        """The worst verdict the loss's interval allows (the verdict itself when sure)."""
        if self.verdict == "best" or self.sure:
            return self.verdict
        return ("good", "inaccuracy", "mistake", "blunder")[_band(self.loss + self.loss_half)]

    @property
    def exact(self) -> bool:
        return self.loss_half == 0.0

    @property
    def exact_loss(self) -> Fraction | None:
        """The loss as a fraction, when both figures are exact."""
        if self.played_points.exact is None or self.best_points.exact is None:
            return None
        return Fraction(self.best_points.exact) - Fraction(self.played_points.exact)

    @property
    def sure(self) -> bool:
        """Whether the loss's whole interval lies in one verdict's band (exact figures always
        do): otherwise the verdict is the mildest the interval allows, and may be too mild."""
        if self.verdict == "best" or self.exact:
            return True
        return _band(self.loss - self.loss_half) == _band(self.loss + self.loss_half)

    @property
    def reason(self) -> str:
        """Why the best move was better, as a key: "gold", "risk" (the played move made an
        exceeding colour more likely), "riskier_best" (the best took more risk for its points)
        or "points"."""
        if self.played_risk is None or self.best_risk is None:
            return "gold"
        if self.played_risk - self.best_risk >= RISKIER:
            return "risk"
        if self.best_risk - self.played_risk >= RISKIER:
            return "riskier_best"
        return "points"


@dataclass(frozen=True)
class Summary:
    """A seat's decisions (of one round, or the game): how many, each verdict's count, the
    share within the "good" threshold (the accuracy) and the mean loss. The losses are
    averaged as estimated, a noisy one below 0 included: cutting those at 0 would add the
    noise's size to every seat's figure."""

    seat: int
    round: int | None  # None: the whole game
    decisions: int
    counts: dict[str, int]
    accuracy: float | None  # None when there was no decision
    mean_loss: float | None


def _band(loss: float) -> int:
    """0 good, 1 inaccuracy, 2 mistake, 3 blunder."""
    return sum(loss >= THRESHOLDS[k] for k in ("good", "inaccuracy", "mistake"))


def verdict_of(loss: float, rank: int = 1, half: float = 0.0) -> str:
    """The verdict on a move ranked ``rank`` (0 first) whose loss is ``loss`` ± ``half``: the band
    of the interval's low end, so a move is called a mistake only when chance cannot explain its
    loss (a move that loses nothing is as good as the best: "best" too). Where the interval
    reaches into a worse band the verdict is not sure (``Decision.sure``) and the review says it
    cannot tell, with the worst verdict the interval allows (``Decision.worst``)."""
    if rank == 0 or loss <= 0.0:
        return "best"
    return ("good", "inaccuracy", "mistake", "blunder")[_band(loss - half)]


@dataclass(frozen=True)
class RoundEnd:
    """Where the record ends a round: the action that ended it and every seat's score then."""

    index: int
    round: int
    scores: tuple[int, ...]


@dataclass(frozen=True)
class ChartPoint:
    """One point of the game's chart (``Review.series``): the seat's expected score at the
    horizon, from what it could see, ``before`` a decision (the best move's expectation) and
    ``after`` it (the played move's); or its score when a round ended (``round_end``: no
    expectation, what happened). From an ``after`` point to the next point, the cards drawn,
    the modifiers revealed and the other players' moves moved it; from ``before`` to ``after``,
    the decision did."""

    index: int  # the record's action: the decision, or the one that ended the round
    round: int
    kind: str  # "before", "after" or "round_end"
    value: float
    half: float  # the 95% half-width (0: exact, or what happened)


@dataclass(frozen=True)
class Review:
    players: int
    seed: int  # the record's seed
    seat: int
    model: str
    review_seed: int
    games: int  # the budget per ranking
    decisions: list[Decision]
    complete: bool  # False: the record stops before the game's end
    horizon: str = HORIZON
    thresholds: dict[str, float] = field(default_factory=lambda: dict(THRESHOLDS))
    round_ends: tuple[RoundEnd, ...] = ()
    #: False: some decisions were not judged (a review stopped on the way); the chart then ends
    #: at the last decision judged.
    judged_all: bool = True

    def cut_short(self) -> list[Decision]:
        """The simulated decisions the budget paid fewer games a move for than the review's own."""
        return [d for d in self.decisions if 0 < d.games < self.games]

    def depth_of(self, d: Decision) -> str:
        """How far ``d`` was judged: its own horizon, or the review's."""
        return d.horizon or self.horizon

    def charted(self, seat: int | None = None) -> list[Decision]:
        """``seat``'s decisions on the chart: those judged to the review's horizon (one scale)."""
        return [d for d in self.of_seat(self.seat if seat is None else seat) if self.depth_of(d) == self.horizon]

    def series(self, seat: int | None = None) -> list[ChartPoint]:
        """The chart of ``seat``'s game (the reviewed seat by default), in the record's order:
        two points per decision (before and after), and its score at each round end. The
        expectation before a decision is the best move's, after it the played move's; both
        are the score now plus the points the move brings by the horizon. A round end's score
        is on the same scale as the round-end horizon's expectations. To the game's end the
        points are the expected final margin over the best other seat, and only the game's
        last round end is a point (the final margin).

        The chart never runs past what was judged: decisions judged to another horizon than
        the review's (its budget did not reach) are left off; to the game's end the final margin
        is a point only when every decision of the seat was judged to it, and a review not
        judged through (``judged_all``) ends at its last decision."""
        seat = self.seat if seat is None else seat
        points = []
        shown = self.charted(seat)
        judged_to = max((d.index for d in self.decisions), default=-1)
        for d in shown:
            base = d.score if self.horizon == HORIZON else 0  # to the game's end the points are the final margin
            points.append(ChartPoint(d.index, d.round, "before", base + d.best_points.mean, d.best_points.half))
            points.append(ChartPoint(d.index, d.round, "after", base + d.played_points.mean, d.played_points.half))
        if self.horizon == HORIZON:
            points += [ChartPoint(e.index, e.round, "round_end", float(e.scores[seat]), 0.0) for e in self.round_ends
                       if self.judged_all or e.index < judged_to]
        elif self.complete and self.round_ends and self.judged_all and len(shown) == len(self.of_seat(seat)):
            last = self.round_ends[-1]
            margin = last.scores[seat] - max(x for q, x in enumerate(last.scores) if q != seat)
            points.append(ChartPoint(last.index, last.round, "round_end", float(margin), 0.0))
        order = {"before": 0, "after": 1, "round_end": 2}
        return sorted(points, key=lambda p: (p.index, order[p.kind]))

    def of_seat(self, seat: int, round_: int | None = None) -> list[Decision]:
        return [d for d in self.decisions if d.seat == seat and (round_ is None or d.round == round_)]

    def summary(self, seat: int, round_: int | None = None) -> Summary:
        mine = self.of_seat(seat, round_)
        counts = {v: sum(d.verdict == v for d in mine) for v in VERDICTS}
        accuracy = (counts["best"] + counts["good"]) / len(mine) if mine else None
        return Summary(seat, round_, len(mine), counts, accuracy,
                       statistics.fmean(d.loss for d in mine) if mine else None)

    def rounds(self) -> list[int]:
        return sorted({d.round for d in self.decisions})

    def key_moments(self, seat: int | None = None) -> list[Decision]:
        """The ``KEY_MOMENTS`` largest losses of ``seat`` (the reviewed seat by default)
        among moves judged worse than "good", largest first."""
        bad = [d for d in self.of_seat(self.seat if seat is None else seat) if d.verdict not in ("best", "good")]
        return sorted(bad, key=lambda d: (-d.loss, d.index))[:KEY_MOMENTS]

    def steps(self, seat: int | None = None) -> list[tuple[ChartPoint, ChartPoint, str]]:
        """The chart's steps between consecutive points of ``series``: "decision" (before to
        after) and "luck" (from a decision to the next point: the cards drawn, the modifiers
        revealed, the other players' moves). From a round end to the next round's first
        decision no step is counted: at the round-end horizon the expectation then starts to
        count the new round's points, which is neither luck nor a decision."""
        series = self.series(seat)
        return [(a, b, "decision" if b.kind == "after" else "luck")
                for a, b in zip(series, series[1:]) if a.kind != "round_end"]

    def to_json(self) -> str:
        data = {"format": FORMAT, "version": VERSION, **asdict(self),
                "series": [asdict(p) for p in self.series()]}  # the chart's figures, for readers of the file
        return json.dumps(data, indent=1, sort_keys=True)

    @classmethod
    def from_json(cls, text: str | bytes) -> Review:
        """A review written by ``to_json``; ``PositionError`` says what is wrong with any other."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as e:
            raise PositionError(N_("This is not a review: the text is not JSON ({reason})."), reason=str(e)) from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise PositionError(N_("This is not a review: its format is not {format}."), format=FORMAT)
        if data.get("version") != VERSION:
            raise PositionError(N_("This is a review of version {found}; this program reads version {version}."),
                                found=str(data.get("version")), version=VERSION)
        try:
            decisions = [
                Decision(**{**d, "played_points": Points(**d["played_points"]), "best_points": Points(**d["best_points"]),
                            "moves": tuple((m, Points(**p)) for m, p in d["moves"]),
                            "halves": tuple(d.get("halves", ()))})
                for d in data["decisions"]
            ]
            fields = {k: data[k] for k in ("players", "seed", "seat", "model", "review_seed", "games", "complete",
                                           "horizon", "thresholds")}
            fields["judged_all"] = bool(data.get("judged_all", True))
            ends = tuple(RoundEnd(e["index"], e["round"], tuple(e["scores"])) for e in data.get("round_ends", ()))
        except (KeyError, TypeError, ValueError) as e:
            raise PositionError(N_("This is not a review: a field is missing or misshapen ({reason})."),
                                reason=str(e)) from None
        return cls(decisions=decisions, round_ends=ends, **fields)


# -- gold: valued exactly --------------------------------------------------------------------
def _model_gold(s: GameState, seat: int) -> SaveWithGold:
    """The gold choice of ``seat`` as the rule of thumb makes it (the search's play-outs choose
    gold the same way), from public figures alone: after the reveal everything it reads is public."""
    from ..players.rule_of_thumb import rule_choice, table_of  # players sit below the analysis

    options = gold_options(s, seat)
    shown = view(s, seat)
    choice = rule_choice(table_of(shown), GOLD, options, None)
    assert isinstance(choice, SaveWithGold)
    return choice


def _gold_points(v: PlayerView, model: str) -> list[tuple[Action, Fraction]]:
    """Each legal gold choice of the viewer with its exact expected points to the end of the
    round (gold paid, cards discarded, bonus cards), the others choosing as ``model`` would."""
    base = determinize(v, random.Random(0))  # after the reveal only the deck is unseen: it plays no part
    before = base.scores()[v.viewer]
    others = [q for q in range(v.players) if q != v.viewer and must_decide_gold(base, q)]
    if model == "random":
        combos = list(itertools.product(*(gold_options(base, q) for q in others)))
    else:
        combos = [tuple(_model_gold(base, q) for q in others)]
    weight = Fraction(1, len(combos))
    found = []
    for action in v.legal_actions:
        total = Fraction(0)
        for combo in combos:
            s = base.clone()
            choices = dict(zip(others, combo))
            for q, choice in choices.items():
                if q not in s.gold_queue:  # decided before the viewer, in secret
                    s.gold_choices[q] = choice.colours  # type: ignore[union-attr]
            s.apply_action(action)
            while s.phase == GOLD and s.gold_queue:
                s.apply_action(choices[s.current])
            total += weight * (s.scores()[v.viewer] - before)
        found.append((action, total))
    return found


# -- one decision ----------------------------------------------------------------------------
def _colour_change(played: ForwardRisk, best: ForwardRisk) -> dict[str, object]:
    """The colour whose chance of exceeding differs most between the two moves, with both chances."""
    colour = max(sorted(played.colours), key=lambda c: abs(played.colours[c].p_exceed.mean
                                                           - best.colours[c].p_exceed.mean))
    return {"colour": colour, "played_colour_risk": played.colours[colour].p_exceed.mean,
            "best_colour_risk": best.colours[colour].p_exceed.mean}


def _gold_paid(v: PlayerView, played: str, best: str) -> dict[str, object]:
    """What each gold choice pays: the excess of every colour it keeps (all public after the reveal)."""
    s = determinize(v, random.Random(0))

    def paid(move: str) -> int:
        action = parse_action(move)
        assert isinstance(action, SaveWithGold)
        return sum(excess(s, v.viewer, c) for c in action.colours)

    return {"played_gold": paid(played), "best_gold": paid(best)}


def score_of(v: PlayerView, seat: int) -> int:
    """``seat``'s score as the view shows it (``rules.scores`` from public zones alone)."""
    return (sum(sum(v.hometowns[seat][c]) for c in v.hometowns[seat]) + sum(c.value for c in v.bonus[seat])
            + v.gold[seat])


def judge(v: PlayerView, played: Action, index: int, model: str = "rule", seed: int = 0,
          games: int = REVIEW_GAMES, min_games: int = REVIEW_MIN_GAMES, exact_ms: float = REVIEW_EXACT_MS,
          should_stop: Callable[[], bool] | None = None, horizon: str = "round",
          enough: Callable[[], bool] | None = None,
          placement_views: dict[tuple[str, int], PlayerView] | None = None) -> Decision:
    """The decision ``played`` from the view ``v`` (the deciding seat's), judged to the end of
    the round (``horizon="round"``) or of the game (``"game"``); ``enough()``, asked after each
    batch of games, ends the ranking there (the review's budget)."""
    named = HORIZONS[horizon]
    if v.phase == GOLD and horizon == "round":
        values = _gold_points(v, model)
        order = sorted(range(len(values)), key=lambda k: (-values[k][1], k))
        best_action, best_value = values[order[0]]
        played_value = next(x for a, x in values if a == played)
        loss = float(best_value - played_value)
        rank = next(r for r, k in enumerate(order) if values[k][0] == played)
        tied = sum(best_value - x < THRESHOLDS["good"] for _, x in values)
        moves = tuple((str(values[k][0]), Points.exactly(values[k][1])) for k in order)
        return Decision(index, v.viewer, v.round, v.phase, len(values), str(played), str(best_action),
                        Points.exactly(played_value), Points.exactly(best_value), loss, 0.0,
                        verdict_of(loss, rank), 0, moves=moves, tied=tied, score=score_of(v, v.viewer),
                        horizon=named, halves=(0.0,) * len(moves),
                        **_gold_paid(v, str(played), str(best_action)))  # type: ignore[arg-type]
    # Neutral: the move with most points first, the rule of thumb's given no place among ties. Then
    # every move is measured again on fresh games, the same for all (``remeasure``): a loss is the
    # paired difference on games that took no part in choosing the best (no luck of the choice in
    # it, and narrower than two independent intervals). Where the move played then scores above
    # the one chosen, it is the better of the two: it is named best, and its loss is 0.
    ranking = rank_moves(v, model, seed=seed, games=games, batch=min_games, exact_ms=exact_ms,
                         should_stop=should_stop, min_games=min_games, horizon=horizon, neutral=True,
                         enough=enough, remeasure=True, placement_views=placement_views,
                         exact_clock=WorkClock())  # exact or not by the position alone: same record, same review
    ranked, gaps = list(ranking.moves), list(ranking.gaps)
    rank = next(r for r, m in enumerate(ranked) if m.action == played)
    if gaps[rank][0] < 0:  # the move played measured better than the one chosen: it is the best
        ranked.insert(0, ranked.pop(rank))
        gaps.pop(rank)
        gaps.insert(0, (0.0, 0.0))
        rank = 0
    best, mine = ranked[0], ranked[rank]
    top, own = best.risk.points, mine.risk.points
    if top.exact is not None and own.exact is not None:
        loss, half = float(top.exact - own.exact), 0.0
    else:
        loss, half = gaps[rank]
    loss = max(0.0, loss)
    moves = tuple((str(m.action), Points.of(m.risk.points)) for m in ranked)
    gold = v.phase == GOLD  # the reveal is known: no risk of exceeding to compare
    why = _gold_paid(v, str(played), str(best.action)) if gold else _colour_change(mine.risk, best.risk)
    return Decision(index, v.viewer, v.round, v.phase, len(ranked), str(played), str(best.action),
                    Points.of(own), Points.of(top), loss, half, verdict_of(loss, rank, half), ranking.games,
                    None if gold else mine.risk.p_exceed_any.mean, None if gold else best.risk.p_exceed_any.mean,
                    moves, ranking.tied, score_of(v, v.viewer), named, tuple(h for _, h in gaps),
                    **why)  # type: ignore[arg-type]


def decisions_of(record: GameRecord) -> list[tuple[int, PlayerView, Action]]:
    """Every decision of the record with a choice in it: its index, the deciding seat's view
    just before, and the move played."""
    state = new_game(record.players)
    found = []
    for index, action in enumerate(record.actions):
        if not state.is_chance_node():
            v = view(state, state.current_player())
            if len(v.legal_actions) > 1:
                found.append((index, v, action))
        state.apply_action(action)
    return found


def placements_of(record: GameRecord) -> dict[int, dict[tuple[str, int], PlayerView]]:
    """For each decision of the record: the deciding seat's view just before each face-down
    modifier of another player on the table then was placed, by (colour, index) (as the tutor's
    ``PlacementMemory``): where a modifier lies says something of its value, and the record holds it."""
    state = new_game(record.players)
    before: dict[int, dict[tuple[int, str, int], PlayerView]] = {q: {} for q in range(record.players)}
    found = {}
    for index, action in enumerate(record.actions):
        if not state.is_chance_node():
            seat = state.current_player()
            if len(view(state, seat).legal_actions) > 1:
                found[index] = {(colour, i): seen for (rnd, colour, i), seen in before[seat].items()
                                if rnd == state.round and i < len(state.modifiers_above[colour])
                                and state.modifiers_above[colour][i][0] == seen.current}
            if state.phase == AGENT and isinstance(action, PlaceModifier):
                key = (state.round, action.colour, len(state.modifiers_above[action.colour]))
                for q in range(record.players):
                    if q != seat:
                        before[q][key] = view(state, q)
        state.apply_action(action)
    return found


def round_ends_of(record: GameRecord) -> tuple[RoundEnd, ...]:
    """Each round end the record reaches: the action that ended it, every seat's score then."""
    state = new_game(record.players)
    ends = []
    for index, action in enumerate(record.actions):
        before = state.round
        state.apply_action(action)
        if before >= 1 and (state.round != before or state.is_terminal()):  # round 0: the setup
            ends.append(RoundEnd(index, before, tuple(state.scores())))
    return tuple(ends)


def _work(v: PlayerView, horizon: str) -> int:
    """A decision's work, in proportion: its legal moves times the cards still to be played in
    the round, and to the game's end those of every round after (a full deal each)."""
    cards = sum(v.hand_sizes) + sum(v.draft_hand_sizes) + sum(v.draft_pick_counts)
    if horizon == "game":
        cards += max(0, ROUNDS - v.round) * v.players * hand_size(v.players)
    return len(v.legal_actions) * (1 + cards)


class ReviewOptions(TypedDict, total=False):
    """``review_game``'s model, seed, budget and horizon, as a page passes them on (``**options``)."""

    model: str
    seed: int
    games: int
    min_games: int
    exact_ms: float
    horizon: str


def review_game(
    record: GameRecord, seat: int, model: str = "rule", seed: int = 0, games: int = REVIEW_GAMES,
    min_games: int = REVIEW_MIN_GAMES, exact_ms: float = REVIEW_EXACT_MS,
    progress: Callable[[float], None] | None = None, should_stop: Callable[[], bool] | None = None,
    on_decision: Callable[[Decision], None] | None = None, seats: Sequence[int] | None = None,
    horizon: str = DEFAULT_HORIZON, budget: float | None = REVIEW_BUDGET,
    clock: Callable[[], float] = time.thread_time,
) -> Review:
    """The review of ``record`` for ``seat``: every seat's decisions, or only those of ``seats``
    (a page may judge the learner's first and the others' after).

    Each decision is ranked with ``games`` games per move at most (see ``rank_moves``),
    seeded by ``seed`` and the decision's place in the record, so one decision's verdict does
    not hang on how many came before; ``horizon`` is "game" (the final margin over the best
    other seat, every game played to the end) or "round" (the points each move brings by the
    end of its round, exact where the ranking can be: the default).

    ``budget``: seconds of ``clock`` (the thread's CPU unless told; a page passes a wall clock)
    for the whole review, or None for no limit. Every decision is judged within it: each gets
    a share of what is left in proportion to its work, its ranking ends when the share is spent
    (after one batch at least), and a decision whose share cannot pay for ``min_games`` games per
    move to the game's end, as measured on the decisions before, is judged to the round's end
    instead (``Decision.horizon``); one whose share cannot pay for them to the round's end is
    judged on as many as it can (``FEWEST_GAMES`` at least; ``Decision.games`` says how many).
    ``progress(share)`` and ``on_decision(decision)`` are
    called as each decision is judged, so a page can show them as they come; ``should_stop()``
    raises ``Cancelled``.
    """
    if model not in MODELS:
        raise UsageError(f"unknown opponent model {model!r}: choose from {', '.join(MODELS)}")
    if not 0 <= seat < record.players:
        raise UsageError(f"seat {seat} is not at a {record.players}-player table: choose 0 to {record.players - 1}")
    if horizon not in HORIZONS:
        raise UsageError(f"unknown horizon {horizon!r}: choose from {', '.join(HORIZONS)}")
    min_games = min(min_games, games)
    wanted = set(range(record.players) if seats is None else seats)
    todo = [(i, v, a) for i, v, a in decisions_of(record) if v.viewer in wanted]
    placed = placements_of(record)  # where the others' face-down modifiers went: the posterior reads it
    judged = []
    deadline = None if budget is None else clock() + budget
    # A decision's work grows with its legal moves and the cards still to be played (each a turn of
    # every game played out): its share of the budget is in proportion, and costs are measured per
    # unit of that work and per game a move is played on, so the decisions before foretell the
    # cost of those after and the budget cuts games only when the whole review would not fit.
    weights = [_work(v, horizon) for _, v, _ in todo]
    left_weight = float(sum(weights))
    game_cost: dict[str, list[float]] = {"game": [], "round": []}  # seconds per unit of work per game
    for n, (index, v, action) in enumerate(todo, 1):
        if should_stop is not None and should_stop():
            raise Cancelled
        depth, enough, fewest, exact = horizon, None, min_games, exact_ms
        weight = weights[n - 1]
        if deadline is not None:
            now = clock()
            share = (deadline - now) * weight / left_weight
            end = now + share
            enough = lambda end=end: clock() >= end  # noqa: E731 - one share per decision

            def affordable(h: str) -> float:
                """Games per move the share pays for at horizon ``h`` (unknown yet: all)."""
                costs = game_cost[h]
                return math.inf if not costs else share / (statistics.median(costs) * weight)

            if depth == "game" and affordable("game") < min_games:
                depth = "round"
            if share <= 0 or affordable("round") < min_games:
                paid = affordable("round") if share > 0 else 0.0
                depth, fewest, exact = "round", max(min(min_games, FEWEST_GAMES), min(min_games, int(paid))), min(
                    exact_ms, 5.0)
        began = clock()
        decision = judge(v, action, index, model, seed * 1_000_003 + index, games if fewest == min_games else fewest,
                         fewest, exact, should_stop, depth, enough, placed.get(index) or None)
        left_weight -= weight
        if decision.games:
            game_cost[depth].append((clock() - began) / (weight * decision.games))
        judged.append(decision)
        if on_decision is not None:
            on_decision(decision)
        if progress is not None:
            progress(n / len(todo))
    return Review(record.players, record.seed, seat, model, seed, games, judged, record.replay().is_terminal(),
                  HORIZONS[horizon], round_ends=round_ends_of(record))


def played_action(decision: Decision) -> Action:
    return parse_action(decision.played)


def best_action(decision: Decision) -> Action:
    return parse_action(decision.best)
