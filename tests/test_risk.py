"""Risk and probability: exact answers against brute-force enumeration, simulation against exact."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from capital_lux.analysis import risk
from capital_lux.engine.cards import ALL_CARDS, COLOURS, KIND, MODIFIERS, Card, full_deck_counts
from capital_lux.analysis import forward
from capital_lux.engine.game import Game, random_policy, sample_chance
from capital_lux.engine.notation import Play
from capital_lux.engine.rules import excess
from capital_lux.engine.state import PLAY, GameState
from capital_lux.engine.views import PlayerView, determinize, sample_hidden, view


# -- tables -------------------------------------------------------------------------------
def table(
    players: int,
    hometown: dict[str, list[int]],
    capital: dict[str, list[int]],
    modifiers: dict[str, list[tuple[int, int]]],
    hand: tuple[str, ...] = (),
    gold: int = 0,
    others_hands: int = 0,
) -> GameState:
    """A round-1 play position for seat 0; every card shown is taken off the deck."""
    s = GameState(players)
    s.round, s.phase, s.starting_player, s.current = 1, PLAY, 0, 0
    s.hometowns[0] = {c: sorted(hometown.get(c, [])) for c in COLOURS}
    s.capital = {c: sorted(capital.get(c, [])) for c in COLOURS}
    s.modifiers_above = {c: list(modifiers.get(c, [])) for c in COLOURS}
    placed = [m for slots in s.modifiers_above.values() for _, m in slots]
    s.modifier_deck = sorted(m for m in MODIFIERS if m not in placed)
    s.hands[0] = sorted(Card.parse(c) for c in hand)
    s.gold[0] = gold
    s.gold_pile -= gold
    shown = [Card(c, v) for c in COLOURS for v in s.hometowns[0][c] + s.capital[c]] + s.hands[0]
    for card in shown:
        s.deck[KIND[card]] -= 1
    rng = random.Random(0)
    for q in range(1, players):
        for _ in range(others_hands):
            card = sample_chance(s, rng).card  # type: ignore[union-attr]
            s.deck[KIND[card]] -= 1
            s.hands[q].append(card)
        s.hands[q].sort()
    return s


def brute_force(s: GameState, p: int, include_hand: bool = False) -> dict[str, object]:
    """Round-end risk by enumerating every arrangement of the modifiers p has not seen.

    Independent of ``risk``: the hidden places (others' face-down modifiers, then the
    modifier deck) are filled with every permutation of the unseen values, each equally
    likely, and the engine's own ``excess`` judges each resulting table.
    """
    revealed = s.modifiers_revealed()
    hidden = [(c, i) for c in COLOURS for i, (o, _) in enumerate(s.modifiers_above[c]) if o != p and not revealed]
    seen = [m for c in COLOURS for o, m in s.modifiers_above[c] if o == p or revealed]
    if s.phase == "agent" and s.current == p:
        seen.append(s.pending_modifier)  # type: ignore[arg-type]  # drawn and looked at (ruling R11)
    unseen = [m for m in MODIFIERS if m not in seen]
    capital: dict[str, Counter[int]] = {c: Counter() for c in COLOURS}
    exceeds: Counter[str] = Counter()
    gold_needed: Counter[int] = Counter()
    count = 0
    for arrangement in permutations(unseen):
        t = s.clone()
        if include_hand:  # the hand, and during the draft the cards set aside for it
            for card in t.hands[p] + t.draft_picks[p]:
                t.hometowns[p][card.colour].append(card.value)
        for (c, i), value in zip(hidden, arrangement):
            t.modifiers_above[c][i] = (t.modifiers_above[c][i][0], value)
        count += 1
        for c in COLOURS:
            capital[c][t.capital_total(c)] += 1
            exceeds[c] += excess(t, p, c) > 0
        gold_needed[sum(excess(t, p, c) for c in COLOURS)] += 1
    return {
        "capital": {c: {k: Fraction(n, count) for k, n in capital[c].items()} for c in COLOURS},
        "p_exceed": {c: Fraction(exceeds[c], count) for c in COLOURS},
        "gold": {k: Fraction(n, count) for k, n in gold_needed.items()},
        "afford": Fraction(sum(n for k, n in gold_needed.items() if k <= s.gold[p]), count),
    }


def assert_matches_brute_force(s: GameState, p: int, include_hand: bool = False) -> None:
    exact = risk.round_end_risk(view(s, p), include_hand)
    truth = brute_force(s, p, include_hand)
    assert {c: exact.colours[c].capital_distribution for c in COLOURS} == truth["capital"]
    assert {c: exact.colours[c].p_exceed for c in COLOURS} == truth["p_exceed"]
    assert exact.gold_to_keep_all == truth["gold"]
    assert exact.p_afford_all == truth["afford"]
    assert sum(exact.gold_to_keep_all.values()) == 1


def positions_from_games(players: int, seed: int) -> list[GameState]:
    """Every play decision of one seeded game played by the cheap rollout policy."""
    game, rng, found = Game(players, seed=seed), random.Random(seed), []
    while not game.state.is_terminal():
        if game.state.phase == PLAY:
            found.append(game.state.clone())
        game.play(risk.quick_policy(game.state, rng))
    return found


# -- exact round-end risk ---------------------------------------------------------------
def test_worked_example_one_unknown_modifier() -> None:
    # Yellow 9 at home; capital 7 plus an opponent's modifier; the viewer placed +2 on blue.
    s = table(3, {"Y": [4, 5]}, {"Y": [3, 4], "B": [2]}, {"Y": [(1, 4)], "B": [(0, 2)]}, gold=2)
    r = risk.round_end_risk(view(s, 0))
    y = r.colours["Y"]
    assert y.hometown_total == 9
    assert y.capital_distribution == {4: Fraction(1, 3), 6: Fraction(1, 3), 11: Fraction(1, 3)}
    assert y.p_exceed == Fraction(2, 3)
    assert y.gold_needed == {0: Fraction(1, 3), 3: Fraction(1, 3), 5: Fraction(1, 3)}
    assert r.p_afford_all == Fraction(1, 3)  # 2 gold covers only the case with nothing to pay
    assert r.colours["B"].capital_distribution == {4: Fraction(1)}


def test_equal_is_safe_and_an_empty_colour_never_exceeds() -> None:  # ruling R7
    s = table(2, {"G": [3, 4]}, {"G": [6], "P": [2]}, {"G": [(1, -1)], "P": [(1, -3)]})
    r = risk.round_end_risk(view(s, 0))
    assert r.colours["P"].hometown_total == 0 and r.colours["P"].p_exceed == 0
    assert min(r.colours["P"].capital_distribution) < 0  # negative capital, still safe
    safe_at_equal = table(2, {"G": [3, 4]}, {"G": [3, 4]}, {})
    assert risk.round_end_risk(view(safe_at_equal, 0)).colours["G"].p_exceed == 0
    assert_matches_brute_force(s, 0)


def test_own_modifiers_are_known_and_others_are_not() -> None:  # ruling R11
    s = table(3, {"B": [5, 6]}, {"B": [4, 4]}, {"B": [(0, -3), (1, 4)]})
    mine = risk.round_end_risk(view(s, 0)).colours["B"]
    assert set(mine.capital_distribution) == {8 - 3 - 1, 8 - 3 + 2, 8 - 3 + 4}
    theirs = risk.round_end_risk(view(s, 1)).colours["B"]
    assert set(theirs.capital_distribution) == {8 + 4 - 3, 8 + 4 - 1, 8 + 4 + 2}


def test_colours_are_dependent_through_shared_modifiers() -> None:
    s = table(2, {"B": [5], "Y": [5]}, {"B": [4], "Y": [4]}, {"B": [(1, -3)], "Y": [(1, -1)]})
    r = risk.round_end_risk(view(s, 0))
    # each colour exceeds with probability 1/2, but both together with 1/6, not 1/4:
    # the two unknown modifiers cannot both be the -3
    assert r.colours["B"].p_exceed == r.colours["Y"].p_exceed == Fraction(1, 2)
    assert r.gold_to_keep_all == {0: Fraction(1, 6), 2: Fraction(1, 3), 4: Fraction(1, 3), 6: Fraction(1, 6)}
    assert r.p_exceed_any == Fraction(5, 6)
    assert_matches_brute_force(s, 0)


def test_three_unknown_modifiers_match_brute_force() -> None:
    s = table(4, {"B": [3, 5], "G": [6], "Y": [2, 2, 3]}, {"B": [5], "G": [4], "Y": [4, 4]},
              {"B": [(1, -1)], "G": [(2, 4)], "Y": [(3, -3), (0, 2)]}, hand=("G5", "Y3"), gold=3)
    for include_hand in (False, True):
        assert_matches_brute_force(s, 0, include_hand)


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3), (4, 34)])
def test_every_play_position_of_a_game_matches_brute_force(players: int, seed: int) -> None:
    for s in positions_from_games(players, seed)[::3]:
        for p in range(players):
            assert_matches_brute_force(s, p, include_hand=p % 2 == 1)


def test_risk_depends_only_on_the_view() -> None:
    s = positions_from_games(4, 34)[12]
    other = sample_hidden(s, 0, random.Random(5))
    assert view(other, 0) == view(s, 0)
    assert risk.round_end_risk(view(other, 0)) == risk.round_end_risk(view(s, 0))


def test_revealed_modifiers_give_a_certain_answer() -> None:
    game, rng = Game(2, seed=0), random.Random(0)
    while game.state.phase != "gold":  # this game has one, in round 3
        game.play(risk.quick_policy(game.state, rng))
    v = view(game.state, game.state.current)
    r = risk.round_end_risk(v)
    assert all(len(cr.capital_distribution) == 1 for cr in r.colours.values())
    assert r.p_exceed_any == 1  # the gold phase only comes to players who exceed


# -- conditional updates -----------------------------------------------------------------
def test_conditioning_on_a_modifier_follows_the_law_of_total_probability() -> None:
    s = table(3, {"B": [3, 5], "Y": [6]}, {"B": [5], "Y": [5]}, {"B": [(1, -1)], "Y": [(2, 2)]})
    v = view(s, 0)
    whole = risk.round_end_risk(v)
    outcomes = risk.modifier_reveal_outcomes(v, "B")
    assert [value for value, _, _ in outcomes] == [-3, -1, 2, 4]
    assert sum(p for _, p, _ in outcomes) == 1
    for c in COLOURS:
        assert sum(p * r.colours[c].p_exceed for _, p, r in outcomes) == whole.colours[c].p_exceed
    mixed: Counter[int] = Counter()
    for _, p, r in outcomes:
        for gold, q in r.gold_to_keep_all.items():
            mixed[gold] += p * q  # type: ignore[assignment]
    assert dict(mixed) == whole.gold_to_keep_all
    known = risk.condition_on_modifier(v, "B", 4)
    assert known.colours["B"].capital_distribution == {9: Fraction(1)}
    assert known.colours["B"].p_exceed == 0
    assert set(known.colours["Y"].capital_distribution) == {5 - 3, 5 - 1, 5 + 2}


def test_conditioning_refuses_what_cannot_be() -> None:
    s = table(2, {}, {}, {"B": [(0, 2)], "Y": [(1, -1)]})
    v = view(s, 0)
    with pytest.raises(ValueError, match="no modifier above B"):
        risk.condition_on_modifier(v, "B", 4)
    with pytest.raises(ValueError, match="has seen it"):
        risk.condition_on_modifier(v, "Y", 2)


def test_next_modifier_draw_is_uniform_over_unseen_modifiers() -> None:
    s = table(2, {}, {}, {"B": [(0, 2)], "Y": [(1, -1)]})
    assert risk.next_modifier_distribution(view(s, 0)) == {-3: Fraction(1, 3), -1: Fraction(1, 3), 4: Fraction(1, 3)}
    s.modifiers_above["G"] = [(1, -3), (1, 4)]
    s.modifier_deck = []
    assert risk.next_modifier_distribution(view(s, 0)) == {}


# -- card odds ---------------------------------------------------------------------------
SMALL = {Card("Y", 6): 2, Card("Y", 5): 1, Card("B", 2): 3, Card("G", 4): 1}


def labelled(counts: dict[Card, int]) -> list[tuple[Card, int]]:
    return [(card, i) for card, n in counts.items() for i in range(n)]


@pytest.mark.parametrize("draws", range(0, 8))
def test_draw_probability_matches_enumeration_of_a_small_deck(draws: int) -> None:
    deck = labelled(SMALL)
    hands = list(combinations(deck, draws))
    for match, accept in (
        ("Y", lambda c: c.colour == "Y"),
        (Card("B", 2), lambda c: c == Card("B", 2)),
        ({Card("Y", 6), Card("G", 4)}, lambda c: c in {Card("Y", 6), Card("G", 4)}),
        (lambda c: c.value >= 5, lambda c: c.value >= 5),
    ):
        for at_least in range(0, 4):
            hits = sum(sum(accept(card) for card, _ in hand) >= at_least for hand in hands)
            assert risk.draw_probability(SMALL, match, draws, at_least) == Fraction(hits, len(hands))


@pytest.mark.parametrize("hand_size", range(0, 8))
def test_hand_probability_matches_enumeration(hand_size: int) -> None:
    deck = labelled(SMALL)
    hands = list(combinations(deck, hand_size))
    for wanted in ([Card("Y", 6)], [Card("Y", 6), Card("Y", 6)], [Card("Y", 6), Card("B", 2), Card("B", 2)],
                   [Card("G", 4), Card("Y", 5)], [Card("P", 3)], []):
        need = Counter(wanted)
        hits = sum(all(Counter(card for card, _ in hand)[c] >= k for c, k in need.items()) for hand in hands)
        assert risk.hand_probability(SMALL, wanted, hand_size) == Fraction(hits, len(hands))


@given(st.integers(1, 30), st.data())
def test_hypergeometric_is_a_distribution(population: int, data: st.DataObject) -> None:
    successes = data.draw(st.integers(0, population))
    draws = data.draw(st.integers(0, population))
    pmf = [risk.hypergeometric(population, successes, draws, k) for k in range(draws + 1)]
    assert sum(pmf) == 1
    mean = sum(k * p for k, p in enumerate(pmf))
    assert mean == Fraction(draws * successes, population)
    assert risk.hypergeometric_at_least(population, successes, draws, 0) == 1


def test_card_odds_from_a_view_use_only_unseen_cards() -> None:
    s = positions_from_games(3, 2)[4]
    v = view(s, 0)
    composition = risk.unseen_composition(v)
    hidden = [0] * len(ALL_CARDS)
    for k in range(len(ALL_CARDS)):
        hidden[k] = s.deck[k]
    for q in (1, 2):
        for card in s.hands[q]:
            hidden[KIND[card]] += 1
    assert composition == {card: n for card, n in zip(ALL_CARDS, hidden) if n}
    total = sum(composition.values())
    yellow = sum(n for card, n in composition.items() if card.colour == "Y")
    assert risk.draw_probability(v, "Y") == Fraction(yellow, total)
    seen = next(iter(composition))
    fewer = risk.unseen_composition(v, known=[seen])
    assert sum(fewer.values()) == total - 1
    with pytest.raises(ValueError, match="no unseen copy"):
        risk.unseen_composition(v, known=[seen] * (composition[seen] + 1))


def test_sampled_deck_cards_follow_the_exact_odds() -> None:
    # The next card off the deck, drawn through the views' determinization many times,
    # is yellow as often as the exact odds say.
    s = positions_from_games(3, 2)[4]
    v = view(s, 0)
    exact = float(risk.draw_probability(v, "Y"))
    rng = random.Random(9)
    n = 3000
    hits = sum(top_of_deck(determinize(v, rng), rng).colour == "Y" for _ in range(n))
    assert risk.Estimate.proportion(hits, n).contains(exact)


def top_of_deck(s: GameState, rng: random.Random) -> Card:
    r = rng.randrange(s.deck_size())
    for kind, count in enumerate(s.deck):
        r -= count
        if r < 0:
            return ALL_CARDS[kind]
    raise AssertionError("empty deck")


# -- simulation --------------------------------------------------------------------------
def test_estimates() -> None:
    none = risk.Estimate.proportion(0, 50)
    assert none.mean == 0 == none.low and 0 < none.high < 0.1
    every = risk.Estimate.proportion(50, 50)
    assert every.mean == 1 == every.high and every.low > 0.9
    half = risk.Estimate.proportion(500, 1000)
    assert half.contains(0.5) and half.high - half.low == pytest.approx(2 * 1.96 * math.sqrt(0.25 / 1000), rel=0.01)
    values = risk.Estimate.of_values([1, 2, 3, 4])
    assert values.mean == 2.5 and values.low < 2.5 < values.high and values.n == 4
    with pytest.raises(ValueError):
        risk.Estimate.proportion(0, 0)


def decision_states(players: int, seed: int) -> list[GameState]:
    """Every decision of one seeded game of random moves: draft, play, Agent, Cleric and gold."""
    game, rng, found = Game(players, seed=seed), random.Random(seed), []
    while not game.state.is_terminal():
        found.append(game.state.clone())
        game.play(random_policy(game.state, rng))
    return found


def test_sampler_gives_states_with_the_same_view() -> None:
    every = decision_states(4, 3) + decision_states(2, 0)
    states = [s for i, s in enumerate(every) if i % 4 == 0 or s.phase in ("cleric", "gold")]  # rarer phases all
    assert {s.phase for s in states} >= {"draft", "play", "agent", "gold"}
    for s in states:
        for p in range(s.players):
            v = view(s, p)
            rng = random.Random(p)
            for _ in range(5):
                assert view(determinize(v, rng), p) == v


def exceeded_now(v: PlayerView, samples: int, seed: int) -> list[set[str]]:
    """A Monte Carlo "if the round ended now" that shares no code with ``round_end_risk``: for each
    world drawn from the view (``determinize``), the colours whose hometown total is above the
    capital's with the drawn modifiers (ruling R7)."""
    rng = random.Random(seed)
    found = []
    for _ in range(samples):
        w = determinize(v, rng)
        found.append({c for c in COLOURS if excess(w, v.viewer, c) > 0})
    return found


def test_simulation_now_agrees_with_the_exact_risk_and_settles_on_it() -> None:
    v = risk.example_view()
    exact = risk.round_end_risk(v)
    assert 0 < exact.p_exceed_any < 1
    worlds = exceeded_now(v, 2000, seed=11)

    def near(estimate: risk.Estimate, value: float) -> bool:  # within 3.3 standard errors: 1 in 1,000
        spread = max((estimate.high - estimate.low) / 2, 1 / estimate.n)  # the 95% half-width, 1.96 errors
        return abs(estimate.mean - value) <= spread * 3.3 / 1.96

    assert near(risk.Estimate.proportion(sum(bool(w) for w in worlds), len(worlds)), float(exact.p_exceed_any))
    for c in COLOURS:
        assert near(risk.Estimate.proportion(sum(c in w for w in worlds), len(worlds)), float(exact.colours[c].p_exceed))
    # one seeded run read after 10, 100 and 1,000 worlds: the interval narrows onto the exact value
    estimates = [risk.Estimate.proportion(sum(bool(w) for w in worlds[:n]), n) for n in (10, 100, 1000)]
    widths = [e.high - e.low for e in estimates]
    assert widths == sorted(widths, reverse=True) and estimates[-1].contains(float(exact.p_exceed_any))


def test_forward_round_end_agrees_with_exact_when_the_last_card_goes_home() -> None:
    # The viewer takes the round's very last turn with one card; played home, the round
    # ends exactly as round_end_risk(include_hand=True) foresees.
    s = table(3, {"Y": [4, 5], "B": [3]}, {"Y": [2, 3, 4], "B": [4]}, {"B": [(1, 2)], "Y": [(2, -1)]}, hand=("Y2",))
    s.last_turns = []
    v = view(s, 0)
    exact = risk.round_end_risk(v, include_hand=True)
    # yellow 11 against 9 + y: lost when y is -3 or -1; blue 3 against 4 + b: lost when b is -3
    assert exact.colours["Y"].p_exceed == Fraction(1, 2) and exact.colours["B"].p_exceed == Fraction(1, 4)
    home = Play(Card("Y", 2), "home")
    counted = {m.action: m.risk for m in forward.rank_moves(v, "random", "random").moves}[home]
    simulated = {m.action: m.risk for m in forward.rank_moves(v, "random", "random", exact_ms=0, games=1200,
                                                              min_games=600, seed=3).moves}[home]
    assert counted.exact and not simulated.exact and simulated.samples == 600
    for c in COLOURS:
        assert counted.colours[c].p_exceed.exact == exact.colours[c].p_exceed
        estimate = simulated.colours[c].p_exceed
        assert not estimate.is_exact and estimate.contains(float(exact.colours[c].p_exceed))
    # without gold every exceeding colour is lost: Y is 11 points in 3 cards, B 3 in 1
    for figures in (counted, simulated):
        assert figures.colours["Y"].cards_lost.mean == pytest.approx(3 * figures.colours["Y"].p_exceed.mean)
        assert figures.p_gold_keeps_all.mean == pytest.approx(1 - figures.p_exceed_any.mean)


def test_simulation_is_seeded_and_reproducible() -> None:
    v = risk.example_view()
    a = forward.forward_risk(v, "quick", "random", samples=40, seed=2, exact_ms=0)
    assert a == forward.forward_risk(v, "quick", "random", samples=40, seed=2, exact_ms=0)
    assert a != forward.forward_risk(v, "quick", "random", samples=40, seed=3, exact_ms=0)
    assert a.game is None and a.samples == 40 and not a.exact


def test_game_horizon_estimates_winning() -> None:
    v = risk.example_view(players=2, seed=1)
    result = forward.rank_moves(v, "quick", "random", seed=1, games=8 * len(v.legal_actions), min_games=8,
                                horizon="game").quote
    assert result.game is not None and 0 <= result.game.p_win.mean <= 1 and result.game.p_win.n == 8
    assert result.game.points.mean > 0


def test_the_ranking_tries_every_legal_action_on_the_same_games() -> None:
    v = risk.example_view(players=3, seed=1, cards_left=6)
    ranking = forward.rank_moves(v, "quick", "random", seed=5, games=20 * len(v.legal_actions), min_games=20)
    assert sorted(map(str, (m.action for m in ranking.moves))) == sorted(map(str, v.legal_actions))
    assert all(m.risk.samples == 20 and m.risk.game is None for m in ranking.moves) and ranking.games == 20
    assert ranking == forward.rank_moves(v, "quick", "random", seed=5, games=20 * len(v.legal_actions), min_games=20)
    with pytest.raises(ValueError, match="horizon"):
        forward.rank_moves(v, "quick", horizon="now")
    s = positions_from_games(3, 1)[0]
    other = view(s, (s.current + 1) % 3)
    with pytest.raises(ValueError, match="no decision"):
        forward.rank_moves(other, "quick")


def test_rollout_models() -> None:
    v = risk.example_view(players=2, seed=1)
    with pytest.raises(ValueError, match="horizon"):
        forward.rank_moves(v, "quick", horizon="week")
    assert forward.forward_risk(v, "random", samples=5, seed=1, exact_ms=0).model == "random"
    assert forward.forward_risk(v, "rule", samples=3, seed=1, exact_ms=0).model == "rule"
    with pytest.raises(ValueError, match="unknown opponent model"):
        forward.forward_risk(v, "oracle", samples=3, seed=1)


def test_the_quick_rollout_player_only_chooses_legal_actions() -> None:
    rng = random.Random(0)
    for seed in range(3):
        game = Game(3, seed=seed)
        while not game.state.is_terminal():
            action = risk.quick_policy(game.state, rng)
            assert action in game.state.legal_actions()
            game.play(action)


def test_views_are_player_views() -> None:
    assert isinstance(risk.example_view(), PlayerView)
    assert full_deck_counts()  # the deck the odds start from


@pytest.mark.parametrize("phase", ["draft", "agent", "cleric", "gold"])
def test_every_kind_of_decision_can_be_compared_and_simulated(phase: str) -> None:
    for seed in range(40):
        game, rng = Game(3, seed=seed), random.Random(seed)
        while game.state.phase != phase and not game.state.is_terminal():
            game.play(risk.quick_policy(game.state, rng))
        if game.state.phase == phase:
            break
    else:
        pytest.fail(f"no {phase} decision in 40 seeded games")
    v = view(game.state, game.state.current)
    for horizon in forward.HORIZONS:
        ranking = forward.rank_moves(v, "quick", "random", seed=1, games=3 * len(v.legal_actions), min_games=3,
                                     batch=3, horizon=horizon)
        assert sorted(map(str, (m.action for m in ranking.moves))) == sorted(map(str, v.legal_actions))
        assert all(m.risk.samples == 3 for m in ranking.moves)
    for p in range(3):
        if phase == "gold":  # the reveal is known: nothing to simulate
            with pytest.raises(ValueError, match="already revealed"):
                forward.forward_risk(view(game.state, p), "quick", samples=3, seed=1)
        else:
            assert forward.forward_risk(view(game.state, p), "quick", samples=3, seed=1, exact_ms=0).samples == 3
        assert_matches_brute_force(game.state, p)


def test_sampler_deals_hidden_cards_and_modifiers_with_the_exact_odds() -> None:
    s = positions_from_games(4, 34)[12]
    v = view(s, 0)
    composition = risk.unseen_composition(v)
    population = sum(composition.values())
    yellow = sum(n for card, n in composition.items() if card.colour == "Y")
    q = 1
    exact_yellow = risk.hypergeometric_at_least(population, yellow, v.hand_sizes[q], 1)
    slots = [(c, i) for c in COLOURS for i, m in enumerate(v.modifiers_above[c]) if m.value is None]
    assert slots, "this table has a modifier the viewer cannot see"
    c, i = slots[0]
    rng, n = random.Random(2), 2000
    yellow_hits = plus_four = 0
    for _ in range(n):
        t = determinize(v, rng)
        yellow_hits += any(card.colour == "Y" for card in t.hands[q])
        plus_four += t.modifiers_above[c][i][1] == 4
    assert risk.Estimate.proportion(yellow_hits, n).contains(float(exact_yellow))
    assert risk.Estimate.proportion(plus_four, n).contains(1 / len(risk.unseen_modifiers(v)))


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 10_000), st.randoms(use_true_random=False))
def test_any_decision_of_any_game_matches_brute_force(players: int, seed: int, rng: random.Random) -> None:
    s = rng.choice(decision_states(players, seed))
    assert_matches_brute_force(s, rng.randrange(players), include_hand=rng.random() < 0.5)


def test_an_agent_knows_the_modifier_drawn_before_placing_it() -> None:  # ruling R11
    s = table(3, {"Y": [5, 6]}, {"Y": [4, 4]}, {"Y": [(1, -1)], "G": [(2, 2)]})
    s.phase, s.pending_modifier, s.modifier_deck = "agent", 4, [-3]
    mine = risk.round_end_risk(view(s, 0)).colours["Y"]
    assert mine.capital_distribution == {5: Fraction(1, 3), 7: Fraction(1, 3), 10: Fraction(1, 3)}
    theirs = risk.round_end_risk(view(s, 1)).colours["Y"]  # seat 1 cannot see the drawn +4
    assert theirs.capital_distribution == {7: Fraction(1)}
    assert_matches_brute_force(s, 0)
    assert_matches_brute_force(s, 2)


def test_the_ranking_stops_at_the_round_a_move_ends() -> None:
    """A move that ends the round is judged at that round's end, not after the next round."""
    from capital_lux.engine.position import arrange

    s = arrange(2, hands=["Y5", ""], hometowns=["Y6", "B3"], capital="Y4 B6", last_turns=[])
    before = s.scores()[0]
    ranking = forward.rank_moves(view(s, 0), "random", "random", seed=1, exact_ms=0, games=40, min_games=20)
    for move in ranking.moves:
        after = s.child(move.action)
        assert after.round == 2 and after.phase == "deal"
        change = move.risk.score_change
        assert not change.is_exact and change.low == change.high == after.scores()[0] - before


def test_during_the_draft_the_cards_set_aside_count_as_the_hand_to_come() -> None:
    # The risk table's "your Hometown with your hand" showed 0 in every colour while the
    # learner's set-aside cards waited to become their hand.
    from capital_lux.engine.game import sample_chance
    from capital_lux.engine.state import DRAFT, new_game

    rng, s = random.Random(4), new_game(3)
    while not (s.phase == DRAFT and s.draft_picks[0]):
        s.apply_action(sample_chance(s, rng) if s.is_chance_node() else rng.choice(s.legal_actions()))
    v = view(s, 0)
    now = risk.round_end_risk(v, include_hand=True)
    for c in COLOURS:
        picked = sum(card.value for card in v.draft_picks if card.colour == c)
        assert now.colours[c].hometown_total == v.hometown_total(0, c) + picked
    assert v.draft_picks and sum(r.hometown_total for r in now.colours.values()) > 0
