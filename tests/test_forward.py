"""Forward risk to the real round end: exact against brute force through the engine,
simulation against exact, Bayesian modifiers, and no peeking."""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from itertools import permutations
from typing import Iterator

import pytest

from capital_lux.analysis import forward
from capital_lux.analysis.risk import Estimate
from capital_lux.analysis.modifiers import hidden_modifiers, modifier_posterior
from capital_lux.engine import rules
from capital_lux.engine.cards import ALL_CARDS, COLOURS, MODIFIERS, Card, full_deck_counts
from capital_lux.analysis.risk import example_view
from capital_lux.engine.game import Game, sample_chance
from capital_lux.engine.notation import Action, PlaceModifier
from capital_lux.engine.position import arrange
from capital_lux.engine.state import AGENT, CHANCE_PHASES, GOLD, OVER, GameState
from capital_lux.engine.views import PlayerView, determinize, sample_hidden, view
from capital_lux.players.bots import RuleOfThumbBot


def small_deck(players: int, keep: str, hands: list[str], hometowns: list[str], capital: str,
               modifiers_above: list[tuple[str, int, int]], current: int | None = None,
               last_turns: list[int] | None = None, round: int = 1) -> GameState:
    """``arrange`` with every card not on the table or in ``keep`` discarded, so few are unseen."""
    placed = " ".join([*hands, *hometowns, capital, keep])
    counts = full_deck_counts()
    for text in placed.split():
        counts[ALL_CARDS.index(Card.parse(text))] -= 1
    discards = " ".join(str(card) for card, n in zip(ALL_CARDS, counts) for _ in range(n))
    return arrange(players, discards=discards, hands=hands, hometowns=hometowns, capital=capital,
                   modifiers_above=modifiers_above, current=current, last_turns=last_turns, round=round)


# -- brute force: every labelled deal, every modifier order, the whole tree ---------------------
def worlds(s: GameState, p: int) -> Iterator[GameState]:
    """Every full state p cannot tell from ``s``, one per labelled deal and modifier order."""
    others = [q for q in range(s.players) if q != p]
    unseen = [card for q in others for card in s.hands[q]]
    unseen += [card for card, n in zip(ALL_CARDS, s.deck) for _ in range(n)]
    sizes = [len(s.hands[q]) for q in others]
    slots = [(c, i) for c in COLOURS for i, (o, _) in enumerate(s.modifiers_above[c]) if o != p]
    pool = [m for m in MODIFIERS if m not in [v for c in COLOURS for o, v in s.modifiers_above[c] if o == p]]
    for picked in permutations(range(len(unseen)), sum(sizes)):
        for values in permutations(pool, len(slots)):
            w = s.clone()
            start = 0
            for q, size in zip(others, sizes):
                w.hands[q] = sorted(unseen[i] for i in picked[start:start + size])
                start += size
            rest = Counter(unseen[i] for i in range(len(unseen)) if i not in picked)
            w.deck = [rest[card] for card in ALL_CARDS]
            for (c, i), value in zip(slots, values):
                w.modifiers_above[c][i] = (w.modifiers_above[c][i][0], value)
            w.modifier_deck = sorted(m for m in pool if m not in values)
            yield w


def brute_force(s: GameState, p: int, model: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, Fraction]:
    """P(each colour exceeds), P(any), E(gold needed), P(gold keeps all), read at the reveal itself."""
    bot = RuleOfThumbBot()
    totals: Counter[str] = Counter()
    gold_needed = Fraction(0)
    mass = Fraction(0)
    everything: list[tuple[Fraction, GameState]] = []

    def walk(w: GameState, weight: Fraction) -> None:
        if w.phase in (GOLD, "revealed"):  # the reveal: hands are in the hometowns (ruling R9)
            everything.append((weight, w))
            return
        if w.phase in CHANCE_PHASES:
            options = w.chance_outcomes()
        elif model == "random":
            legal = w.legal_actions()
            options = [(a, Fraction(1, len(legal))) for a in legal]
        else:
            options = [(bot.choose(view(w, w.current), random.Random(0)), Fraction(1))]
        for action, chance in options:
            walk(w.child(action), weight * chance)

    monkeypatch.setattr(rules, "_finish_round", lambda w: setattr(w, "phase", "revealed"))
    all_worlds = list(worlds(s, p))
    for w in all_worlds:
        walk(w, Fraction(1, len(all_worlds)))
    monkeypatch.undo()
    for weight, w in everything:
        over = {c: rules.excess(w, p, c) for c in COLOURS}
        mass += weight
        for c in COLOURS:
            totals[c] += weight * (over[c] > 0)  # type: ignore[assignment]
        totals["any"] += weight * any(over.values())  # type: ignore[assignment]
        totals["gold"] += weight * (sum(over.values()) <= w.gold[p])  # type: ignore[assignment]
        gold_needed += weight * sum(over.values())
    assert mass == 1
    return {**{k: Fraction(v) for k, v in totals.items()}, "gold_needed": gold_needed}


def assert_exact_matches(s: GameState, p: int, model: str, monkeypatch: pytest.MonkeyPatch) -> forward.ForwardRisk:
    risk = forward.forward_risk(view(s, p), model=model, placement="random", exact_ms=60_000, samples=1)
    assert risk.exact and risk.samples == 0
    expected = brute_force(s, p, model, monkeypatch)
    for c in COLOURS:
        assert risk.colours[c].p_exceed.exact == expected.get(c, 0), c
    assert risk.p_exceed_any.exact == expected.get("any", 0)
    assert risk.p_gold_keeps_all.exact == expected.get("gold", 0)
    assert sum(risk.colours[c].gold_needed.mean for c in COLOURS) == pytest.approx(float(expected["gold_needed"]))
    assert all(risk.colours[c].gold_needed.is_exact for c in COLOURS)
    return risk


# -- positions --------------------------------------------------------------------------------
def two_players_opponent_last_turn() -> GameState:
    # You play your last card; then Bot 1 takes its last turn with a card you cannot see.
    return small_deck(
        2, keep="P2 B4 G5", hands=["Y3", "B6"], hometowns=["Y6 B3", "P5"], capital="Y5 B4 P3 G2",
        modifiers_above=[("Y", 1, -1), ("B", 0, 2)],
    )


def three_players_scholar_to_come() -> GameState:
    # Your last card is a Scholar: into the Capital it draws from a two-card deck and you play again.
    return small_deck(
        3, keep="G3 Y2", hands=["G4", "P6", "Y5"], hometowns=["G6 Y4", "B5", "Y3"], capital="G3 Y6 B2",
        modifiers_above=[("G", 2, 4)],
    )


def four_players_last_turns() -> GameState:
    # Bot 2 has emptied its hand and Bot 3 has had its last turn: you, then Bot 1 (ruling R9).
    s = small_deck(
        4, keep="Y4 P3", hands=["Y3", "Y2", "", "P4"], hometowns=["B6 Y5", "Y6", "P2", "B3"],
        capital="B4 Y5 P3 G6", modifiers_above=[("B", 0, -3), ("Y", 1, 4)], current=0, last_turns=[1],
    )
    return s


@pytest.mark.parametrize("model", ["random", "rule"])
def test_exact_forward_risk_matches_brute_force_two_players(model: str, monkeypatch: pytest.MonkeyPatch) -> None:
    s = two_players_opponent_last_turn()
    risk = assert_exact_matches(s, 0, model, monkeypatch)
    assert 0 < risk.p_exceed_any.mean < 1


@pytest.mark.parametrize("model", ["random", "rule"])
def test_exact_forward_risk_with_a_scholar_draw_to_come(model: str, monkeypatch: pytest.MonkeyPatch) -> None:
    s = three_players_scholar_to_come()
    assert_exact_matches(s, 0, model, monkeypatch)


@pytest.mark.parametrize("model", ["random", "rule"])
def test_exact_forward_risk_four_players_last_turns(model: str, monkeypatch: pytest.MonkeyPatch) -> None:
    s = four_players_last_turns()
    assert_exact_matches(s, 0, model, monkeypatch)


def test_simulation_lands_within_its_interval_of_the_exact_value() -> None:
    for s in (two_players_opponent_last_turn(), four_players_last_turns()):
        v = view(s, 0)
        exact = forward.forward_risk(v, model="random", placement="random")
        simulated = forward.forward_risk(v, model="random", placement="random", exact_ms=0, samples=800, seed=4)
        assert exact.exact and not simulated.exact and simulated.samples == 800
        for c in COLOURS:
            estimate = simulated.colours[c].p_exceed
            assert not estimate.is_exact and estimate.contains(exact.colours[c].p_exceed.mean)
        estimate = simulated.p_gold_keeps_all
        assert not estimate.is_exact and estimate.contains(exact.p_gold_keeps_all.mean)


def test_no_peeking_redrawn_hidden_state_gives_the_same_numbers() -> None:
    game = Game(3, seed=5)
    rng = random.Random(5)
    bot = RuleOfThumbBot()
    while not (game.state.phase == "play" and len(game.state.hands[game.state.current]) == 3):
        game.play(bot.choose(view(game.state, game.state.current), rng))
    s, p = game.state, game.state.current
    other = sample_hidden(s, p, random.Random(99))
    assert other != s and view(other, p) == view(s, p)
    a = forward.forward_risk(view(s, p), samples=60, seed=3)
    b = forward.forward_risk(view(other, p), samples=60, seed=3)
    assert a == b


def test_models_and_placements_are_checked() -> None:
    v = view(two_players_opponent_last_turn(), 0)
    with pytest.raises(ValueError, match="opponent model"):
        forward.forward_risk(v, model="clever")
    with pytest.raises(ValueError, match="placement"):
        forward.forward_risk(v, placement="psychic")


# -- Bayesian modifiers -------------------------------------------------------------------------
def test_posterior_keeps_only_values_the_bot_would_have_placed_there() -> None:
    # Bot 1 has 9 yellow against a capital of 5: the rule of thumb puts a +4 above yellow.
    s = arrange(3, hands=["B3", "G4", "P2"], hometowns=["G5", "Y4 Y5", "P4"], capital="Y5 G6 P6 B2",
                modifiers_above=[("Y", 1, 4)])
    v = view(s, 0)
    then = arrange(3, current=1, hands=["B3", "G4", "P2"], hometowns=["G5", "Y4 Y5", "P4"], capital="Y5 G6 P6 B2")
    then.phase, then.pending_modifier = AGENT, 4
    then.modifier_deck.remove(4)
    posterior = modifier_posterior(v, "rule", {("Y", 0): view(then, 0)})
    uniform = modifier_posterior(v, "random")
    assert len(uniform.assignments) == 4 and not uniform.used_placements
    assert posterior.used_placements
    support = {values[0] for values, w in posterior.assignments}
    assert 4 in support and len(support) < 4  # the placement tells something
    bot = RuleOfThumbBot()
    for value in MODIFIERS:
        table = arrange(3, current=1, hands=["B3", "G4", "P2"], hometowns=["G5", "Y4 Y5", "P4"],
                        capital="Y5 G6 P6 B2")
        table.phase, table.pending_modifier = AGENT, value
        table.modifier_deck.remove(value)
        chosen = bot.choose(view(table, 1), random.Random(0))
        assert (value in support) == (chosen == PlaceModifier("Y")), value
    assert sum(w for _, w in posterior.assignments) == 1


def test_a_placement_the_tutor_did_not_see_tells_nothing_and_the_panel_says_so() -> None:
    # Guessing the table of then from today's ruled the true value out in 98 of 926 checks.
    from capital_lux.i18n import translator
    from capital_lux.tutor.riskpanel import modifier_sentences

    s = arrange(3, hands=["B3", "G4", "P2"], hometowns=["G5", "Y4 Y5", "P4"], capital="Y5 G6 P6 B2",
                modifiers_above=[("Y", 1, 4)])
    v = view(s, 0)
    prior = modifier_posterior(v, "rule")  # no view of the table when it was placed
    assert not prior.used_placements and prior.unseen_placements == {0}
    assert prior.distribution(0) == {value: Fraction(1, 4) for value in MODIFIERS}
    risk = forward.forward_risk(v, "rule", "bayes", samples=50, exact_ms=0)
    said = " ".join(modifier_sentences(translator("en"), v, risk))
    assert "placed before the tutor followed this game" in said and "equally likely" in said


def test_placement_views_give_the_table_at_the_time() -> None:
    game, rng, bot = Game(4, seed=8), random.Random(8), RuleOfThumbBot()
    learner = 0
    before: dict[tuple[str, int], PlayerView] = {}
    truth: dict[tuple[str, int], int] = {}
    checked = 0
    while not game.state.is_terminal() and checked < 6:
        s = game.state
        action = bot.choose(view(s, s.current), rng)
        if s.phase == AGENT and s.current != learner:
            assert isinstance(action, PlaceModifier)
            key = (action.colour, len(s.modifiers_above[action.colour]))
            before[key] = view(s, learner)
            truth[key] = s.pending_modifier  # type: ignore[assignment]
        round_before = s.round
        game.play(action)
        s = game.state
        if s.round != round_before:
            before, truth = {}, {}
        if s.phase == "play" and s.current == learner and truth:
            v = view(s, learner)
            posterior = modifier_posterior(v, "rule", before)
            assert posterior.used_placements
            for k, h in enumerate(hidden_modifiers(v)):
                if h.colour is not None and (h.colour, h.index) in truth:
                    # the bot is deterministic: the true value always keeps some weight
                    assert posterior.distribution(k).get(truth[(h.colour, h.index)], 0) > 0
            checked += 1
    assert checked >= 2


# -- per move -----------------------------------------------------------------------------------
def test_the_ranking_is_exact_on_small_trees_most_points_first() -> None:
    v = view(two_players_opponent_last_turn(), 0)
    ranking = forward.rank_moves(v, model="random", placement="random")
    assert {m.action for m in ranking.moves} == set(v.legal_actions) and ranking.games == 0
    assert all(m.risk.exact for m in ranking.moves) and ranking.quote == ranking.best.risk
    rest = [m.risk.score_change.mean for m in ranking.moves[ranking.tied:]]
    assert rest == sorted(rest, reverse=True)
    top = max(m.risk.score_change.mean for m in ranking.moves)
    assert all(top - m.risk.score_change.mean < forward.EQUIVALENT_POINTS
               for m in ranking.moves[:ranking.tied])


def test_the_ranking_simulates_every_move_on_the_same_games_and_can_be_stopped() -> None:
    v = view(four_players_last_turns(), 0)
    seen: list[float] = []
    ranking = forward.rank_moves(v, model="random", placement="random", exact_ms=0, seed=2, progress=seen.append)
    assert all(not m.risk.exact and m.risk.samples == ranking.games for m in ranking.moves)
    assert seen == sorted(seen) and seen[-1] <= 1
    with pytest.raises(forward.Cancelled):
        forward.rank_moves(v, model="random", exact_ms=0, should_stop=lambda: True)


def test_posterior_is_calibrated_over_simulated_games() -> None:
    from capital_lux.analysis.riskbench import calibration

    figures = calibration(games=12, seed=0)
    bins = [name for name in ("low", "mid", "high") if f"bayes_calibration_{name}_cases" in figures]
    assert len(bins) >= 2 and sum(figures[f"bayes_calibration_{b}_cases"] for b in bins) >= 30
    for b in bins:  # the predicted chance of "negative" lies within the observed frequency's interval
        predicted = figures[f"bayes_calibration_{b}_predicted"]
        assert figures[f"bayes_calibration_{b}_observed_low"] <= predicted <= figures[f"bayes_calibration_{b}_observed_high"]


def test_samples_built_for_the_kernel_are_the_games_determinize_would_deal() -> None:
    """The fast path (kernel state straight from the view) deals the same seeded games as the
    engine path (``determinize`` then ``kernel.from_state``), in every phase a round goes
    through, with and without a first move, the others' Agent draw included."""
    game, rng, bot = Game(3, 4), random.Random(4), RuleOfThumbBot()
    phases: set[str] = set()
    checked = 0
    while game.state.round == 1 or game.state.phase == "draft":
        s = game.state
        if s.phase in ("draft", "play", "cleric", "agent") and len(s.history) % 5 == 0:
            for viewer in range(s.players):
                v = view(s, viewer)
                prior = modifier_posterior(v, "random")
                for model in ("random", "rule"):
                    fast = forward._Sampler(v, prior, model)
                    slow = forward._Sampler(v, prior, model)
                    assert fast.direct
                    slow.direct, slow.decide = False, forward.decider(model)
                    for first in (None, *v.legal_actions[:2]):
                        for i in range(2):
                            assert fast.outcome(3, i, first) == slow.outcome(3, i, first), (s.phase, viewer, first)
                            checked += 1
                phases.add(s.phase)
        game.play(bot.choose(view(s, s.current), rng))
    assert {"draft", "play", "agent"} <= phases and checked > 100


def test_a_guess_certain_only_under_the_model_is_not_shown_as_100_percent() -> None:
    # "probably negative (100% chance)": a number that contradicted its words, and a certainty
    # that holds only if the others place modifiers like the model.
    from capital_lux.i18n import translator
    from capital_lux.tutor.riskpanel import modifier_sentences

    s = arrange(3, hands=["B3", "G4", "P2"], hometowns=["G5", "Y4 Y5", "P4"], capital="Y5 G6 P6 B2",
                modifiers_above=[("Y", 1, 4)])
    then = arrange(3, current=1, hands=["B3", "G4", "P2"], hometowns=["G5", "Y4 Y5", "P4"], capital="Y5 G6 P6 B2")
    then.phase, then.pending_modifier = AGENT, 4
    then.modifier_deck.remove(4)
    v = view(s, 0)
    views = {("Y", 0): view(then, 0)}
    prior = modifier_posterior(v, "rule", views)
    p = prior.p_negative(0)
    risk = forward.forward_risk(v, "rule", "bayes", samples=50, exact_ms=0, placement_views=views)
    said = " ".join(modifier_sentences(translator("en"), v, risk))
    assert "100%" not in said and "0% chance" not in said
    assert p == 0  # only +4 fits where Bot 1 put it, under the rule of thumb's placement
    assert "is positive if they place modifiers like the" in said and "every value that fits where it lies" in said


# -- the whole-game horizon ---------------------------------------------------------------------
def game_end_brute_force(s: GameState, p: int, first: Action) -> tuple[Fraction, Fraction, Fraction]:
    """E(final margin over the best other seat), E(final points), P(p wins, ruling R17) after
    ``first``, every seat then choosing uniformly: every world p cannot tell apart, every
    chance outcome and every decision (gold included) walked through the engine to the end."""
    found = [Fraction(0)] * 3

    def walk(w: GameState, weight: Fraction) -> None:
        if w.phase == OVER:
            points = w.scores()
            best_other = max(x for q, x in enumerate(points) if q != p)
            found[0] += weight * (points[p] - best_other)
            found[1] += weight * points[p]
            found[2] += weight * (p in w.winners())
            return
        if w.phase in CHANCE_PHASES:
            options = w.chance_outcomes()
        else:
            legal = w.legal_actions()
            options = [(a, Fraction(1, len(legal))) for a in legal]
        for action, chance in options:
            walk(w.child(action), weight * chance)

    all_worlds = list(worlds(s, p))
    for w in all_worlds:
        walk(w.child(first), Fraction(1, len(all_worlds)))
    return found[0], found[1], found[2]


def within(estimate: Estimate, value: float, z: float = 3.3) -> bool:
    """``value`` within ``z`` standard errors of the estimate (its interval is 1.96 of them)."""
    half = max(estimate.high - estimate.mean, estimate.mean - estimate.low)
    return abs(estimate.mean - value) <= max(half * z / 1.96, 1e-9)


def two_players_last_round_then_no_deal() -> GameState:
    """Round 2, each with one card; one card is left in the deck, too few to deal round 3
    (ruling R15), so the game ends through a second round end with an empty deal."""
    return small_deck(
        2, keep="P2", hands=["Y3", "B6"], hometowns=["Y6 B3", "P5"], capital="Y5 B4 P3 G2",
        modifiers_above=[("Y", 1, -1), ("B", 0, 2)], round=2,
    )


@pytest.mark.parametrize("position", ["last round", "round 2, then round 3 without a deal"])
def test_game_horizon_agrees_with_a_brute_force_play_out_to_the_end(position: str) -> None:
    if position == "last round":
        s = small_deck(2, keep="P2 B4 G5", hands=["Y3", "B6"], hometowns=["Y6 B3", "P5"], capital="Y5 B4 P3 G2",
                       modifiers_above=[("Y", 1, -1), ("B", 0, 2)], round=3)
    else:
        s = two_players_last_round_then_no_deal()
    v = view(s, 0)
    ranking = forward.rank_moves(v, "random", "random", seed=3, games=1200, min_games=600, horizon="game")
    assert ranking.horizon == "game" and ranking.games == 600
    assert {m.action for m in ranking.moves} == set(v.legal_actions)
    for m in ranking.moves:
        game = m.risk.game
        assert game is not None and not m.risk.exact and m.risk.samples == ranking.games
        margin, points, p_win = game_end_brute_force(s, 0, m.action)
        assert within(game.margin, float(margin)), (m.action, game.margin, float(margin))
        assert within(game.points, float(points)), (m.action, game.points, float(points))
        assert within(game.p_win, float(p_win)), (m.action, game.p_win, float(p_win))
        assert m.risk.points == game.margin  # what the ranking orders by
    assert len({m.risk.points.mean for m in ranking.moves}) > 1  # the moves do differ


def engine_play_outs(v: PlayerView, first: Action, games: int, seed: int, model: str,
                     to_round_end: bool = False) -> tuple[Estimate, Estimate, Estimate]:
    """The final margin, points and P(win) after ``first``, by the plain engine: each game a world
    drawn from the view (``determinize``, modifiers uniform), then every seat played by the
    model's bot to the game's end (or the round's: the points are then the score change and
    a "win" being ahead). A reference that shares no code with the forward sampler."""
    bot = RuleOfThumbBot()
    margins, points, wins = [], [], 0
    for i in range(games):
        rng = random.Random(seed * 7919 + i)
        w = determinize(v, rng)
        before = w.scores()[v.viewer]
        w.apply_action(first)
        while w.phase != OVER and not (to_round_end and w.round != v.round):
            if w.phase in CHANCE_PHASES:
                w.apply_action(sample_chance(w, rng))
            elif model == "random":
                w.apply_action(rng.choice(w.legal_actions()))
            else:
                w.apply_action(bot.choose(view(w, w.current), rng))
        scores = w.scores()
        margins.append(scores[v.viewer] - max(x for q, x in enumerate(scores) if q != v.viewer))
        points.append(scores[v.viewer] - (before if to_round_end else 0))
        wins += scores[v.viewer] == max(scores) if to_round_end else v.viewer in w.winners()
    return Estimate.of_values(margins), Estimate.of_values(points), Estimate.proportion(wins, games)


def agree(a: Estimate, b: Estimate, z: float = 3.3) -> bool:
    """Two independent estimates of one quantity differ by less than ``z`` standard errors."""
    se = [max(e.high - e.mean, e.mean - e.low) / 1.96 for e in (a, b)]
    return abs(a.mean - b.mean) <= z * math.hypot(*se) + 1e-9


@pytest.mark.parametrize("model, position, moves", [
    ("random", (3, 1, 6), 3), ("rule", (2, 1, 2), 2), ("random", (4, 34, 4), 2)])
def test_game_horizon_agrees_with_engine_play_outs_over_several_rounds(model: str, position: tuple[int, int, int],
                                                                       moves: int) -> None:
    players, seed, left = position
    whole = example_view(players, seed, cards_left=left)
    v = replace(whole, legal_actions=whole.legal_actions[:moves])
    ranking = forward.rank_moves(v, model, "random", seed=2, games=150 * moves, min_games=150, horizon="game")
    for m in ranking.moves:
        game = m.risk.game
        assert game is not None
        margin, points, p_win = engine_play_outs(v, m.action, 150, 5, model)
        assert agree(game.margin, margin) and agree(game.points, points) and agree(game.p_win, p_win), m.action


def test_a_decision_on_gold_is_ranked_by_the_game_it_leads_to() -> None:
    game, rng, bot = Game(2, 11), random.Random(11), RuleOfThumbBot()
    s = game.state
    while not (s.phase == GOLD and len(s.legal_actions()) > 1):
        game.play(sample_chance(s, rng) if s.phase in CHANCE_PHASES else bot.choose(view(s, s.current), rng))
        s = game.state
    v = view(s, s.current)
    with pytest.raises(ValueError, match="already revealed"):
        forward.forward_risk(v)  # the risk at the reveal is known; the decision is still to judge
    for horizon in forward.HORIZONS:
        ranking = forward.rank_moves(v, "random", "random", seed=1, games=200 * len(v.legal_actions),
                                     min_games=200, horizon=horizon)
        assert {m.action for m in ranking.moves} == set(v.legal_actions)
        for m in ranking.moves:
            margin, points, p_win = engine_play_outs(v, m.action, 200, 3, "random", to_round_end=horizon == "round")
            if horizon == "round":
                assert not m.risk.score_change.is_exact and not m.risk.p_ahead.is_exact
                assert agree(m.risk.score_change, points) and agree(m.risk.p_ahead, p_win), m.action
            else:
                assert m.risk.game is not None
                assert agree(m.risk.game.margin, margin) and agree(m.risk.game.points, points), m.action
                assert agree(m.risk.game.p_win, p_win), m.action
        assert len({round(m.risk.points.mean, 6) for m in ranking.moves}) > 1  # gold does matter


def test_game_horizon_is_seeded_and_plays_the_rounds_own_games_first() -> None:
    v = example_view(players=3, seed=1, cards_left=6)
    a = forward.rank_moves(v, "rule", seed=4, games=120, min_games=40, horizon="game")
    assert a == forward.rank_moves(v, "rule", seed=4, games=120, min_games=40, horizon="game")
    assert a != forward.rank_moves(v, "rule", seed=5, games=120, min_games=40, horizon="game")
    assert all(m.risk.game is not None for m in a.moves) and a.quote.game is not None
    prior = modifier_posterior(v, "random")
    for model in ("random", "rule", "quick"):
        fast = forward._Sampler(v, prior, model)
        slow = forward._Sampler(v, prior, model)  # through the engine's state, then the kernel
        slow.direct, slow.decide = False, forward.decider(model)
        for first in v.legal_actions[:3]:
            for i in range(3):
                reveal, end = fast.game(7, i, first)
                # the round's reveal in a game's play-out is the round horizon's own game, draw for draw
                assert reveal == fast.outcome(7, i, first), (model, first, i)
                assert (reveal, end) == slow.game(7, i, first), (model, first, i)


def test_game_horizon_refuses_what_it_cannot_do() -> None:
    v = view(two_players_opponent_last_turn(), 0)
    with pytest.raises(ValueError, match="horizon"):
        forward.rank_moves(v, horizon="week")
