"""The exact search at the end of a round (analysis/endgame.py) against the engine walk.

``forward.exact_by_engine`` walks the rest of the round through the engine with every hidden
card dealt and every modifier valued up front: the reference. The kernel's search deals and
values only when it matters, and must give the same Fractions, figure by figure, for both
models, the whole-move figures and every move's.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from capital_lux.analysis import endgame, forward
from capital_lux.analysis.endgamebench import last_turn_positions
from capital_lux.analysis.modifiers import modifier_posterior
from capital_lux.analysis.reveal import FIGURES
from capital_lux.analysis.risk import Estimate, example_view
from capital_lux.engine import kernel
from capital_lux.engine.cards import MODIFIERS
from capital_lux.engine.errors import Cancelled
from capital_lux.engine.kernel_state import insort
from capital_lux.engine.notation import Play
from capital_lux.engine.state import AGENT
from capital_lux.engine.views import PlayerView

#: Last-turns decisions with at most two cards hidden from the viewer (small enough for the engine walk).
LAST_TURNS = last_turn_positions(12, seed=11)
POSITIONS = [v for v in LAST_TURNS if sum(v.hand_sizes) - len(v.hand) <= 2]


def compare(v: PlayerView, model: str) -> int:
    """Figures compared with the engine walk (every first move and none); asserts they agree."""
    prior = modifier_posterior(v, model)
    firsts = [None, *v.legal_actions]
    searched = forward._exact_figures(v, model, prior, firsts, 2_000)
    if searched is None:  # kept for the benchmark: the suite stays short
        return 0
    compared = 0
    for first, figures in zip(firsts, searched):
        walked = forward.exact_by_engine(v, model, prior, first, 6_000)
        if walked is None:  # too big for the engine: the search is the only way there
            continue
        assert figures == forward.expected_figures(walked), (v.players, v.phase, model, first)
        assert all(isinstance(f, Fraction) for f in figures)
        compared += 1
    return compared


@pytest.mark.parametrize("model", endgame.MODELS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_search_gives_the_engine_walks_fractions(players: int, model: str) -> None:
    positions = [v for v in POSITIONS if v.players == players][:4]
    assert len(positions) == 4
    assert sum(compare(v, model) for v in positions) >= 4


def test_hidden_modifiers_a_pending_draw_and_scholar_draws_are_among_the_positions_checked() -> None:
    """The placeholders and the undealt Scholar cards are exercised, not only plain plays."""
    hidden = [v for v in POSITIONS if any(m.value is None for c in "BGPY" for m in v.modifiers_above[c])]
    assert hidden and any(v.phase == AGENT for v in POSITIONS)
    assert any("G" in {card.colour for card in v.hand} for v in POSITIONS)


def test_a_tree_too_big_is_simulated_with_its_interval_and_says_so() -> None:
    v = example_view(players=4, seed=34, cards_left=3)  # mid-round: far beyond the budget
    risk = forward.forward_risk(v, "random", samples=200, seed=1)
    assert not risk.exact and risk.samples == 200
    assert not risk.p_exceed_any.is_exact and risk.p_exceed_any.low <= risk.p_exceed_any.high


def test_the_budget_is_read_on_the_clock_it_is_given() -> None:
    small = next(v for v in POSITIONS if v.players == 4)
    prior = modifier_posterior(small, "random")
    # a clock that stands still: a budget of one millisecond is never spent, the answer is exact
    assert forward._exact_figures(small, "random", prior, [None], 1, clock=lambda: 0.0) is not None
    big = example_view(players=4, seed=34, cards_left=3)
    ticks = iter(range(0, 10**12, 1000))  # a clock that moves 1,000 seconds at each look: spent at once
    clock = lambda: float(next(ticks))  # noqa: E731
    assert forward._exact_figures(big, "random", modifier_posterior(big, "random"), [None], 60_000, clock=clock) is None


def test_cancelling_mid_search_leaves_nothing_half_done() -> None:
    """A search cancelled mid-way keeps only what it finished: asked again on the same view,
    it goes on from what it kept and gives the Fractions a search from scratch gives."""
    v = max(POSITIONS, key=lambda v: sum(v.hand_sizes))
    prior = modifier_posterior(v, "random")
    firsts = [None, *v.legal_actions]
    looks = []

    def stop() -> bool:
        looks.append(1)
        return len(looks) > 1

    forward._LAST_SEARCH.take(None)  # nothing kept from another test
    with pytest.raises(Cancelled):
        forward._exact_figures(v, "random", prior, firsts, 60_000, should_stop=stop)
    stopped = forward._LAST_SEARCH.search
    assert stopped is not None and stopped.valued > 0
    resumed = forward._exact_figures(v, "random", prior, firsts, 60_000)
    assert forward._LAST_SEARCH.search is stopped  # went on from it
    forward._LAST_SEARCH.take(None)
    assert resumed is not None and resumed == forward._exact_figures(v, "random", prior, firsts, 60_000)


def test_a_search_over_its_budget_goes_on_when_asked_again() -> None:
    """The budget spent, the answer is simulated; the next question on the same view (the move
    comparison after the panel) gives the kept search a budget of its own, and it finishes
    exact with the Fractions of a search from scratch."""
    v = max(POSITIONS, key=lambda v: sum(v.hand_sizes))
    prior = modifier_posterior(v, "random")
    ticks = iter(range(10**12))  # a clock that moves a second at each look (every 256 positions valued)
    forward._LAST_SEARCH.take(None)
    assert forward._exact_figures(v, "random", prior, [None], 2_000, clock=lambda: float(next(ticks))) is None
    stopped = forward._LAST_SEARCH.search
    assert stopped is not None and stopped.valued >= 256
    again = forward._exact_figures(v, "random", prior, [None], 60_000)
    assert forward._LAST_SEARCH.search is stopped
    forward._LAST_SEARCH.take(None)
    assert again is not None and again == forward._exact_figures(v, "random", prior, [None], 60_000)


def test_the_comparison_after_the_panel_values_nothing_the_panel_valued() -> None:
    """The panel (the whole move, every seat at random, the viewer too) values each of the
    viewer's moves on the way: the comparison on the same view asks for them and values no
    position anew. Another view or model starts afresh. (A viewer holding the round's last
    cards alone plays them two at once in the panel, which passes over the position between
    them: the comparison values that one, once per move. So the view here is one where
    another seat still holds a card.)"""
    v = next(v for v in POSITIONS if v.players == 4 and len(v.legal_actions) > 2 and sum(v.hand_sizes) > len(v.hand))
    prior = modifier_posterior(v, "random")
    forward._LAST_SEARCH.take(None)
    forward._exact_figures(v, "random", prior, [None], 60_000)
    kept = forward._LAST_SEARCH.search
    assert kept is not None
    valued = kept.valued
    moves = forward._exact_figures(v, "random", prior, list(v.legal_actions), 60_000)
    assert forward._LAST_SEARCH.search is kept and kept.valued == valued
    forward._LAST_SEARCH.take(None)
    assert moves == forward._exact_figures(v, "random", prior, list(v.legal_actions), 60_000)
    forward._exact_figures(v, "rule", modifier_posterior(v, "rule"), [None], 60_000)
    assert forward._LAST_SEARCH.search is not kept


@pytest.mark.parametrize("model", endgame.MODELS)
def test_a_round_end_is_settled_as_the_kernel_plays_it(model: str) -> None:
    """The search's own reckoning of a round end (``_settled``: gold decisions, cards lost,
    bonus cards, scores, without a state copied per choice) against the kernel's round end
    played through and read by ``kernel_outcome`` (``_reveal_in_kernel``), on random tables:
    hometowns, capitals and bonus cards from a shuffled deck, modifiers known and hidden
    (negative limits over empty colours among them; one placed at random, its colour in the
    assignments), gold for some seats, every round, each seat as the viewer."""
    rng, settled, gold_asked, floated = random.Random(26), 0, 0, 0
    view = POSITIONS[0]
    root = endgame.Root(view, [values for values, _ in modifier_posterior(view, "random").assignments])
    for _ in range(400):
        players = rng.choice((2, 3, 4))
        ks = kernel.KState(players)
        rng.shuffle(ks.deck)
        ks.round, ks.phase, ks.starting = rng.randint(1, 3), endgame.ROUND_END, rng.randrange(players)
        for town in ks.home:
            for _ in range(rng.randrange(9)):
                kind = ks.deck.pop()
                town[kernel.COLOUR_OF[kind]].append(kernel.VALUE_OF[kind])
        for _ in range(rng.randrange(10)):
            kind = ks.deck.pop()
            ks.capital[kernel.COLOUR_OF[kind]].append(kernel.VALUE_OF[kind])
        for cards in [*ks.capital, *(colour for town in ks.home for colour in town)]:
            cards.sort()
        values = list(MODIFIERS)
        rng.shuffle(values)
        hidden = rng.randrange(3)
        floating = hidden and rng.random() < 0.5  # the last hidden one placed at random, its colour unseen
        if floating:
            ks.mods.append([])
        for k, value in enumerate(values[:rng.randrange(hidden, 5)]):
            colour = 4 if floating and k == hidden - 1 else rng.randrange(4)
            ks.mods[colour].append((rng.randrange(players), endgame.HIDDEN - k if k < hidden else value))
        ks.gold = [rng.choice((0, 0, 1, 2, 5)) for _ in range(players)]
        ks.bonus = [sorted(ks.deck.pop() for _ in range(rng.randrange(3))) for _ in range(players)]
        ks.deck.sort()
        root.assignments = [tuple(rng.sample(MODIFIERS, hidden)) for _ in range(3)]
        if floating:
            root.assignments = [(*a[:-1], endgame._floated(a[-1], rng.randrange(4))) for a in root.assignments]
            floated += 1
        root.hidden, root.score, root.ks.round = hidden, rng.randrange(40), ks.round
        root.ks.players, root.ks.starting, root.ks.bonus = players, ks.starting, ks.bonus  # what a search reads once
        for viewer in range(players):
            search = endgame.Search(root, viewer, model, 10**9, clock=lambda: 0.0)
            alive = (0, 1, 2)
            settled_here = search._reveal(ks, [0] * (3 * players), alive)  # the deck is large: no round ends at once
            assert settled_here == search._reveal_in_kernel(ks.copy(), [0] * (3 * players), alive)
            settled += 1
        gold_asked += any(ks.gold)
    assert settled > 1000 and gold_asked > 200 and floated > 50


def test_the_search_model_stays_simulated() -> None:
    v = POSITIONS[0]
    assert forward._exact_figures(v, "search", modifier_posterior(v, "rule"), [None], 60_000) is None


def test_the_benchmark_reports_shares_times_and_the_engine_check() -> None:
    from capital_lux.analysis.endgamebench import benchmark

    figures = benchmark(per_players=1, check=1, farther=(2.0,))  # walks the 2-player one (the 3-player one: 3 s more)
    assert figures["positions"] == 3
    for model in endgame.MODELS:
        assert figures[f"{model}_exact_share"] == round(figures[f"{model}_exact"] / 3, 4)
        low, high = figures[f"{model}_exact_interval"]  # three positions: wide, the share inside
        assert low <= figures[f"{model}_exact_share"] <= high and high - low > 0.4
        assert figures[f"{model}_all_panel"]["median_ms"] <= figures[f"{model}_all_panel"]["most_ms"]
        # how far the others are: each position missed is found within twice the budget, or not
        missed = sum(count for where, count in figures["not_exact"].items() if where.startswith(f"{model}:"))
        within = figures["not_exact_within"][model]
        assert set(within) == {"400 ms", "more"} and within["400 ms"] + within["more"] == missed
    assert sum(figures["not_exact_within"]["random"].values()) == 1  # the 4-player one, seated with a random seat
    moves = 1 + len(last_turn_positions(1)[0].legal_actions)  # the whole move and each move, both models
    assert figures["engine_walk_checked"] == 2 * moves
    assert figures["engine_walk_disagreements"] == 0 and figures["engine_walk_wrong"] == []


def test_the_benchmarks_engine_walk_stops_at_its_steps_and_skips_a_positions_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A position too big to walk in the bench's steps is counted, and its moves are not walked
    (a seed's bench once took hours on one position, each move's walk nearly as big)."""
    from capital_lux.analysis import endgamebench

    small = POSITIONS[1:3]  # two positions whose walks take more than 3 steps
    checked, differing, wrong, too_big, not_exact = endgamebench._against_engine(small, 2, steps=6_000)
    assert checked > 2 and (differing, wrong) == (0, []) and too_big == not_exact == 0
    walked: list[object] = []

    def walk(v: PlayerView, model: str, prior: object, first: object, steps: int) -> object:
        walked.append(first)
        return forward.exact_by_engine(v, model, prior, first, steps)  # type: ignore[arg-type]

    monkeypatch.setattr(endgamebench, "exact_by_engine", walk)
    checked, _, wrong, too_big, _ = endgamebench._against_engine(small, 2, steps=3)
    assert (checked, wrong) == (0, []) and too_big == len(walked) == 4 and walked == [None] * 4


def test_the_wide_engine_walk_check_names_the_position_model_move_and_figure_that_disagree(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``bench endgame_walk``: every position of a set against the engine walk; a figure the
    search got wrong is named with its position, model and move, to be looked at again."""
    from capital_lux.analysis import endgamebench
    from capital_lux.cli import bench

    asked: list[int] = []
    monkeypatch.setattr(endgamebench, "walk_everywhere", lambda seed: asked.append(seed) or {"seed": seed})
    assert bench.run(["endgame_walk:29", "endgame_walk"]) == {"endgame_walk:29": {"seed": 29},
                                                             "endgame_walk": {"seed": endgamebench.SEED}}
    assert asked == [29, endgamebench.SEED]
    monkeypatch.undo()
    two = last_turn_positions(1)[:2]  # 2 and 3 players; the 3-player one too big to walk in 500 steps
    monkeypatch.setattr(endgamebench, "last_turn_positions", lambda per_players, seed: two)
    exact_figures = endgamebench._exact_figures

    def off_by_one(v: PlayerView, model: str, *rest: object) -> object:
        found = exact_figures(v, model, *rest)  # type: ignore[arg-type]
        if found is not None and v.players == 2 and model == "rule":
            found[-1][0] += 1  # the last move's chance that the first colour exceeds
        return found

    monkeypatch.setattr(endgamebench, "_exact_figures", off_by_one)
    found = endgamebench.walk_everywhere(per_players=1, steps=500)
    moves = 1 + len(two[0].legal_actions)
    assert (found["positions"], found["compared"], found["walk_too_big"]) == (2, 2 * moves, 2)
    assert found["wrong"] == [f"position 0 ({endgamebench._where(two[0])}), rule, {two[0].legal_actions[-1]}: "
                              f"{FIGURES[0]}"] and found["disagreements"] == 1  # the others agree


def test_bench_endgame_with_a_seed_takes_another_set_of_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    """``bench endgame:27``: the same benchmark on positions of another seed, for a second look."""
    from capital_lux.analysis import endgamebench
    from capital_lux.cli import bench

    usual, other = last_turn_positions(1), last_turn_positions(1, seed=27)
    assert [v.hand for v in usual] != [v.hand for v in other]
    asked: list[dict[str, int]] = []
    monkeypatch.setattr(endgamebench, "benchmark", lambda per_players, check, seed: asked.append(
        {"per_players": per_players, "seed": seed}) or {"seed": seed})
    assert bench.run(["endgame:27", "endgame"]) == {"endgame:27": {"seed": 27}, "endgame": {"seed": endgamebench.SEED}}
    assert asked == [{"per_players": 70, "seed": 27}, {"per_players": 70, "seed": 26}]


def _search(v: PlayerView, model: str) -> endgame.Search:
    root = endgame.Root(v, [values for values, _ in modifier_posterior(v, model).assignments])
    return endgame.Search(root, v.viewer, model, 10**9, clock=lambda: 0.0)


def test_the_rule_of_thumbs_last_play_from_two_unseen_cards_gives_the_engine_walks_fractions() -> None:
    """A seat with two cards the viewer has not seen plays its last turn by the rule of thumb:
    the search deals the card played and keeps the other in the pool under a filter. Every
    figure, for every first move, equals the engine walk's, which deals both cards up front."""
    positions = [v for v in last_turn_positions(12, seed=14)
                 if sum(v.hand_sizes) - len(v.hand) == 2
                 and any(q != v.viewer and v.hand_sizes[q] == 2 for q in v.last_turns or ())]
    assert positions
    for v in positions[:1]:  # the engine walk deals both cards up front: 1 s here (seed 11's first, 14 s)
        prior = modifier_posterior(v, "rule")
        search = _search(v, "rule")
        for first in [None, *v.legal_actions]:
            denominator, numerators = search.figures(None if first is None else kernel.from_action(first))
            walked = forward.exact_by_engine(v, "rule", prior, first, 400_000)
            assert walked is not None
            assert [Fraction(n, denominator) for n in numerators] == forward.expected_figures(walked)
        assert search.filters  # the filtered deal was taken, not the deal of both cards


def test_a_last_play_after_which_the_rule_of_thumb_decides_again_splits_the_kept_cards_filter() -> None:
    """The rule of thumb's last play from two cards the viewer has not seen, an Agent or a
    Cleric into the capital, then the Agent's placement or the Cleric's colour: the rule of
    thumb reads the card it kept there, so the filter that card waits under in the pool is
    split by what each kind decides (``_rule_kept``; seed 29's bench once found 6 figures
    off, 5 of them after this first move). Every figure equals the engine walk's."""
    v = next(v for v in last_turn_positions(70, seed=30)  # 3 players; after the viewer, a seat with two cards
             if v.players == 3 and v.last_turns == (0,) and v.hand_sizes[0] == 2
             and isinstance(v.legal_actions[0], Play) and v.legal_actions[0].card.colour == "Y")
    first = v.legal_actions[0]
    assert isinstance(first, Play) and (first.card.colour, first.to) == ("Y", "capital")
    search = _search(v, "rule")
    denominator, numerators = search.figures(kernel.from_action(first))
    walked = forward.exact_by_engine(v, "rule", modifier_posterior(v, "rule"), first, 400_000)
    assert walked is not None
    assert [Fraction(n, denominator) for n in numerators] == forward.expected_figures(walked)
    narrowed = [(f, g) for f in search.filters for g in search.filters
                if f != g and all(b in (0, a) for a, b in zip(f, g)) and any(g)]
    assert narrowed  # a filter split by the decision made again, not the card dealt


def _round_end(search: endgame.Search, rng: random.Random, fewest: int) -> kernel.KState:
    """The search's root at the round end, every hand gone home, a random pool of ``fewest``
    to 15 of its cards left to deal."""
    ks = search.root.ks.copy()
    ks.phase = endgame.ROUND_END
    ks.hands = [[] for _ in range(ks.players)]
    ks.deck = sorted(rng.sample(ks.deck, min(len(ks.deck), rng.randrange(fewest, 16))))
    return ks


@pytest.mark.parametrize("model", endgame.MODELS)
def test_two_seats_cards_going_home_at_once_are_settled_as_dealt_one_after_the_other(model: str) -> None:
    """``_two_at_once`` (one seat's single card and another seat's cards, reckoned in one
    pass with the ways corrected where both take the same kind) against dealing the first
    seat's card kind by kind and settling the second after each (``_deal``), on random tables:
    filters on either seat's card or neither (the second seat's with one or two cards beside it
    or not), the viewer receiving one, the other or neither."""
    rng = random.Random(2611)
    view = next(v for v in POSITIONS if v.players == 4)
    compared = filtered = viewer_dealt = beside = 0
    for _ in range(60):
        search = _search(view, model)
        ks, n = _round_end(search, rng, 8), view.players
        one, other = rng.sample(range(n), 2)
        undealt = [0] * (3 * n)
        undealt[n + one], undealt[n + other] = 1, rng.choice((1, 1, 2, 3))
        for seat in (one, other):
            if rng.random() < 0.5:
                undealt[2 * n + seat] = search._filter_id(tuple(rng.choice((0, 1, 2)) for _ in range(20)))
                filtered += 1
        alive = tuple(range(len(search.values)))
        both = search._two_at_once(ks, undealt, alive, sorted((one, other)))
        if both is None:
            continue
        first = one if undealt[n + one] < undealt[n + other] else min(one, other)
        assert both == search._deal(ks, undealt, alive, first)
        compared += 1
        viewer_dealt += view.viewer in (one, other)
        beside += undealt[n + other] > 1 and undealt[2 * n + other] > 0
    assert compared >= 40 and filtered >= 20 and viewer_dealt >= 10 and beside >= 5


@pytest.mark.parametrize("model", endgame.MODELS)
def test_a_seats_filtered_card_and_its_other_cards_going_home_last_are_settled_as_dealt_one_after_the_other(
        model: str) -> None:
    """A seat's last cards going home, one under the filter of the rule of thumb's last play
    and the others not (a Scholar's draw), reckoned as one deal (``_filtered_hands``), against
    dealing the filtered card kind by kind and settling the others after each, on random
    tables: two and three cards, the viewer's hometown or another's."""
    rng = random.Random(2612)
    view = next(v for v in POSITIONS if v.players == 4)
    compared = viewer_dealt = three = 0
    for _ in range(40):
        search = _search(view, model)
        ks, n = _round_end(search, rng, 9), view.players
        seat = rng.randrange(n)
        undealt = [0] * (3 * n)
        undealt[n + seat] = rng.choice((2, 2, 3))
        undealt[2 * n + seat] = search._filter_id(tuple(rng.choice((0, 1, 2)) for _ in range(20)))
        alive = tuple(range(len(search.values)))
        branches = []
        for kind, copies, weight in search._card_home(ks, undealt, seat):
            child, left = ks.copy(), undealt[:]
            child.deck.remove(kind)
            insort(child.home[seat][kernel.COLOUR_OF[kind]], kernel.VALUE_OF[kind])
            left[n + seat] -= 1
            left[2 * n + seat] = 0
            branches.append((copies * weight, search._deal(child, left, alive, seat)))
        assert search._deal(ks, undealt, alive, seat) == endgame._mix(branches, len(ks.deck))
        compared += 1
        viewer_dealt += seat == view.viewer
        three += undealt[n + seat] == 3
    assert compared == 40 and viewer_dealt >= 5 and three >= 5


def test_the_search_leaves_the_garbage_collector_as_it_found_it() -> None:
    """The search runs without cyclic collections (its tables hold no cycles) and turns them
    back on after an exact answer, a budget spent and a cancellation; a caller that had them
    off keeps them off."""
    import gc

    small = next(v for v in POSITIONS if v.players == 4)
    big = example_view(players=4, seed=34, cards_left=3)
    prior = modifier_posterior(small, "random")
    assert forward._exact_figures(small, "random", prior, [None], 60_000) is not None
    assert gc.isenabled()
    assert forward._exact_figures(big, "random", modifier_posterior(big, "random"), [None], 1) is None
    assert gc.isenabled()
    with pytest.raises(Cancelled):
        forward._exact_figures(big, "random", modifier_posterior(big, "random"), [None], 60_000, should_stop=lambda: True)
    assert gc.isenabled()
    gc.disable()
    try:
        forward._exact_figures(small, "random", prior, [None], 60_000)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_modifier_placed_at_random_unseen_is_one_branch_with_the_engine_walks_fractions() -> None:
    """A seat moving at random places a modifier the viewer has not seen: the search goes on
    as one branch, the colour joining the value in the assignments (``_place_unseen``); the
    engine walk branches on the four colours. Every figure is the same."""
    assert all(endgame._unfloated(endgame._floated(value, colour)) == (colour, value)
               for value in MODIFIERS for colour in range(4))
    compared = 0
    for v in [v for v in last_turn_positions(14, seed=26) if v.players == 4]:  # a set with three such
        prior = modifier_posterior(v, "random")
        search = _search(v, "random")
        search.resume(4_000, lambda: float(search.valued))  # bigger (or so at its pace): too big to walk in a second
        try:
            denominator, numerators = search.figures()
        except endgame.TooBig:
            continue
        if not any(endgame._unfloated(value)[0] >= 0 for values in search.values for value in values):
            continue  # no modifier placed unseen
        walked = forward.exact_by_engine(v, "random", prior, None, 6_000)
        if walked is None:
            continue
        assert [Fraction(n, denominator) for n in numerators] == forward.expected_figures(walked)
        compared += 1
        if compared == 3:
            break
    assert compared == 3


def _contest_by_the_rules(search: endgame.Search, capital: list[list[int]], key: tuple[int, ...]) -> tuple[int, int, int]:
    """A contest as the rules say it, over each seat's gold choices (R3, R5): the
    number of combinations, the viewer's score summed over them, and being ahead."""
    combinations = scored = ahead = 0
    for picks in itertools.product(*(search.outcomes[k] for k in key)):
        mine, first = _scored_by_the_rules(search, capital, list(picks))
        combinations += 1
        scored += mine
        ahead += first
    return combinations, scored, ahead


def _scored_by_the_rules(search: endgame.Search, capital: list[list[int]],
                         picks: list[tuple[list[int], int]]) -> tuple[int, bool]:
    """The viewer's score, and whether no seat scores more, for one gold choice of each seat
    in turn order (its hometown totals kept and gold left): each colour's highest cards in
    the capital to the seats that keep the most of it, one each in turn order (R3, R5)."""
    scores = [sum(town) + left + search.bonus[i] for i, (town, left) in enumerate(picks)]
    for c in range(4):
        cards = sorted(capital[c])
        best = max(town[c] for town, _ in picks)
        for i, (town, _) in enumerate(picks):  # the highest card first, ties in turn order
            if best > 0 and town[c] == best and cards:
                scores[i] += cards.pop()
    mine = scores[search.viewer_at]
    return mine, mine >= max(scores)


def test_two_cards_merged_by_totals_at_once_are_every_pair_merged() -> None:
    """``_pairs_by_totals``: the two-card hands of a pool merged by what they give a
    hometown (each colour's total and number of cards), straight from the kinds, are
    those of every pair listed then merged (``_by_totals(_multisets(...))``): the same
    totals, each with the same ways, on random pools with kinds of one copy up to three."""
    rng = random.Random(2811)
    kinds = list(range(len(endgame.COLOUR_OF)))

    def by_totals(hands: list[tuple[list[int], int]]) -> dict[tuple[int, ...], int]:
        found: dict[tuple[int, ...], int] = {}
        for hand, ways in hands:
            totals = [0] * 8
            for kind in hand:
                totals[endgame.COLOUR_OF[kind]] += endgame.VALUE_OF[kind]
                totals[4 + endgame.COLOUR_OF[kind]] += 1
            assert tuple(totals) not in found  # merged: one hand for each
            found[tuple(totals)] = ways
        return found

    merged = 0
    for _ in range(300):
        counts = {kind: rng.randrange(1, 4) for kind in rng.sample(kinds, rng.randrange(1, len(kinds) + 1))}
        listed = endgame._multisets(counts, 2)
        expected = by_totals(endgame._by_totals(listed))
        assert by_totals(endgame._pairs_by_totals(counts)) == expected
        merged += len(expected) < len(listed)
    assert merged > 100


def test_a_seat_not_asked_keeps_what_is_not_over_read_off_its_packed_totals() -> None:
    """``_unasked``: a seat's totals packed 8 bits a colour, compared with a limit and its
    gold in one subtraction (``_bounds``), give what the rules give: asked (-1) where a
    colour over costs no more than its gold, else its one choice (what is not over kept,
    its gold left), packed as ``_packed`` packs it; limits below 0 and above the totals,
    colours with no card (never over, R7) and gold 0 to 8 among them."""
    rng = random.Random(2812)
    asked = lost = 0
    for _ in range(5000):
        row = [rng.choice([0, rng.randrange(1, 73)]) for _ in range(4)]
        limits = [rng.randrange(-6, 90) for _ in range(4)]
        gold = rng.randrange(9)
        cost = [endgame._cost(row[c], limits[c]) for c in range(4)]
        lane = row[0] | row[1] << 8 | row[2] << 16 | row[3] << 24
        found = endgame._unasked(lane, *endgame._bounds(limits, gold), gold)
        if any(0 < paid <= gold for paid in cost):
            assert found == -1
            asked += 1
        else:
            assert found == endgame._packed(endgame._kept(row, cost, (), gold))
            lost += any(cost)
    assert asked > 200 and lost > 500


def test_a_row_steady_under_a_group_of_limits_keeps_under_each_what_the_rules_say() -> None:
    """``_steady``: where it finds that a seat's packed totals keep the same under every
    limit from a group's lowest to its highest, the rules give that one choice under each
    limit of the group (not asked, what is not over kept); groups of two to five limits
    a few points apart, as hidden modifiers make them."""
    rng = random.Random(2813)
    steady = unsteady = 0
    for _ in range(3000):
        row = [rng.choice([0, rng.randrange(1, 40)]) for _ in range(4)]
        base = [rng.randrange(-3, 40) for _ in range(4)]
        group = [[limit + rng.choice([0, 0, rng.randrange(-7, 8)]) for limit in base]
                 for _ in range(rng.randrange(2, 6))]
        gold = rng.randrange(6)
        lane = row[0] | row[1] << 8 | row[2] << 16 | row[3] << 24
        low = [min(limits[c] for limits in group) for c in range(4)]
        high = [max(limits[c] for limits in group) for c in range(4)]
        found = endgame._steady(lane, endgame._bounds(low, gold)[0], *endgame._bounds(high, gold), gold)
        if found < 0:
            unsteady += 1
            continue
        steady += 1
        for limits in group:
            cost = [endgame._cost(row[c], limits[c]) for c in range(4)]
            assert not any(0 < paid <= gold for paid in cost)
            assert found == endgame._packed(endgame._kept(row, cost, (), gold))
    assert steady > 1000 and unsteady > 300


def test_the_capitals_highest_cards_are_packed_highest_first() -> None:
    """``_tops``: each colour's four highest cards in the capital, 3 bits a card, the highest
    in the lowest bits, 12 bits a colour, read back as ``_shares`` reads them; a colour with
    no card is 0."""
    rng = random.Random(2611)
    for _ in range(300):
        capital = [sorted(rng.choice([2, 3, 4, 5, 6]) for _ in range(rng.randrange(9))) for _ in range(4)]
        tops = endgame._tops(capital)
        for c in range(4):
            cards, read = tops >> 12 * c & 4095, []
            while cards:
                read.append(cards & 7)
                cards >>= 3
            assert read == sorted(capital[c], reverse=True)[:4]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_contest_is_reckoned_as_the_rules_say(players: int) -> None:
    """A contest of several combinations of gold choices (``_scorers`` made for the others'
    combinations, ``_combined`` scoring each choice of one seat against each) gives the
    number of combinations, the viewer's score and being ahead the rules give, on the
    outcomes a search met, for random seatings of them, capitals and viewers: ties for a
    colour's lead, seats with several gold choices, tables of fewer than four seats."""
    rng = random.Random(2711 + players)
    for v in [v for v in LAST_TURNS if v.players == players]:  # one whose seats may choose how to pay
        search = _search(v, "random")
        search.figures()
        if any(len(choices) > 1 for choices in search.outcomes):
            break
    ks = search.root.ks.copy()
    several = ties = 0
    for _ in range(400):
        key = tuple(rng.randrange(len(search.outcomes)) for _ in range(players))
        ks.capital = [sorted(rng.choice([2, 3, 4, 5, 6]) for _ in range(rng.randrange(6))) for _ in range(4)]
        search.viewer_at, at = rng.randrange(players), rng.randrange(players)
        lists = [[0] if i == at else search.packed[k] for i, k in enumerate(key)] + [[0]] * (4 - players)
        summed: dict[int, list[int]] = {}
        made = search._scorers(endgame._tops(ks.capital), players, at, lists)
        search._combined(made, search.packed[key[at]], 1, summed)
        combinations, scored, ahead = _contest_by_the_rules(search, ks.capital, key)
        assert summed == {combinations: [scored - combinations * search.score, ahead]}
        towns = [search.outcomes[k][0][0] for k in key]
        ties += any(len({t[c] for t in towns}) < players and max(t[c] for t in towns) > 0 for c in range(4))
        several += any(len(search.outcomes[k]) > 1 for k in key)
    assert ties > 20 and several > 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seats_choice_scored_against_the_others_choices_at_once_is_scored_as_the_rules_say(players: int) -> None:
    """``_Scorer``: the other seats' gold choices made ready once, each choice of one seat
    scored against them (by how each colour's total compares with the others' highest)
    gives the viewer's score and being ahead the rules give: every seat in turn scored, the
    viewer's own too, with ties for a colour's lead among the others and with it."""
    rng = random.Random(2811 + players)
    search = _search(next(v for v in LAST_TURNS if v.players == players), "random")
    search.figures()
    ks = search.root.ks.copy()
    ties = 0
    for _ in range(600):
        key = [rng.randrange(len(search.outcomes)) for _ in range(players)]
        choices = [rng.randrange(len(search.outcomes[k])) for k in key]
        at, search.viewer_at = rng.randrange(players), rng.randrange(players)
        if rng.random() < 0.5:  # a tie with another seat's outcome for the lead of some colour
            key[at] = key[(at + 1) % players]
            choices[at] = choices[(at + 1) % players] % len(search.outcomes[key[at]])
        ks.capital = [sorted(rng.choice([2, 3, 4, 5, 6]) for _ in range(rng.randrange(6))) for _ in range(4)]
        packed = [search.packed[k][i] for k, i in zip(key, choices)] + [0] * (4 - players)
        fixed = [0 if i == at else choice for i, choice in enumerate(packed)]
        scorer = endgame._Scorer(endgame._tops(ks.capital), search.bonus, players, at, search.viewer_at, fixed)
        scored = scorer.scored(packed[at])
        picks = [search.outcomes[k][i] for k, i in zip(key, choices)]
        mine, first = _scored_by_the_rules(search, ks.capital, picks)
        assert (scored >> 1, scored & 1) == (mine, first)
        towns = [town for town, _ in picks]
        ties += any(towns[at][c] == max(t[c] for t in towns) > 0 and sum(t[c] == towns[at][c] for t in towns) > 1
                    for c in range(4))
    assert ties > 50


def test_a_search_far_too_big_for_its_budget_gives_up_early_and_one_that_fits_does_not() -> None:
    """At its pace so far (``Search._hopeless``), a search far too big for its budget gives up
    long before its deadline, so the learner waits for the simulation at once; a search that
    fits its budget with as much again to spare finishes, for every position of the set big
    enough for the pace to be read. The clock counts positions valued. (With a fifth to spare,
    the pace, which overstates what later branches cost, gives up on 6 of those 10.)"""
    big = _search(example_view(players=4, seed=34, cards_left=3), "random")  # mid-round
    big.resume(20_000, lambda: float(big.valued))
    with pytest.raises(endgame.TooBig):
        big.figures()
    assert big.valued < 20_000 / 2
    checked, figures = 0, {}
    for i, v in enumerate(POSITIONS):
        whole = _search(v, "random")
        figures[i] = whole.figures()
        if whole.valued <= 4 * endgame.CHECK_EVERY:
            continue
        fits = _search(v, "random")
        fits.resume(whole.valued * 2, lambda: float(fits.valued))
        assert fits.figures() == figures[i]
        checked += 1
    assert checked >= 5
    i = max(range(len(POSITIONS)), key=lambda i: sum(POSITIONS[i].hand_sizes))
    v, expected = POSITIONS[i], figures[i]
    still = _search(v, "random")
    still.resume(5.0, lambda: 5.0)  # no budget, on a clock that stands still: never past the deadline
    assert still.figures() == expected
