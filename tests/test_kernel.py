"""The playout kernel plays exactly the engine's game: same seed, same decisions, same end.

Each test plays games both ways and compares whole positions (``GameState.__eq__``
compares everything on the table, hidden cards included). Larger runs are in
``python -m capital_lux bench differential`` (thousands of games).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from capital_lux.engine import kernel
from capital_lux.engine.game import play_game, random_policy, sample_chance
from capital_lux.engine.notation import CardDrawn, ModifierDrawn
from capital_lux.engine.position import loads_record, position_dict
from capital_lux.engine.rules import ranks
from capital_lux.engine.state import OVER, GameState, new_game
from capital_lux.engine.views import determinize, view
from capital_lux.players.bots import RandomBot, as_policy

GOLDEN = Path(__file__).parent / "golden"


def engine_states(players: int, seed: int) -> list[GameState]:
    """Copies of every position (decisions and chance) of a random engine game."""
    rng, state, found = random.Random(seed), new_game(players), []
    while not state.is_terminal():
        found.append(state.clone())
        action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        state.apply_action(action)
    return found + [state]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_in_the_engines_position(players: int) -> None:
    """One generator for chance and decisions, as in ``game.play_game`` with ``random_policy``."""
    for seed in range(120):
        expected = play_game(players, [random_policy] * players, random.Random(seed))
        rng = random.Random(seed)
        ks = kernel.play_game(players, [kernel.RandomPolicy(rng)] * players, rng)
        assert kernel.to_state(ks) == expected, seed
        assert kernel.scores(ks) == expected.scores()
        assert kernel.winners(ks) == expected.winners()
        assert kernel.ranks(ks) == ranks(expected)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seats_with_their_own_generators_choose_as_random_bots(players: int) -> None:
    """Chance from one generator, each seat's decisions from its own: the kernel draws as the bots do."""
    for seed in range(40):
        seat_rngs = [random.Random(f"{seed}/{p}") for p in range(players)]
        bots = [as_policy(RandomBot()) for _ in range(players)]
        policies = [(lambda s, _rng, bot=bot, r=r: bot(s, r)) for bot, r in zip(bots, seat_rngs)]
        expected = play_game(players, policies, random.Random(seed))
        seat_rngs = [random.Random(f"{seed}/{p}") for p in range(players)]
        ks = kernel.play_game(players, [kernel.RandomPolicy(r) for r in seat_rngs], random.Random(seed))
        assert kernel.to_state(ks) == expected, seed


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conversion_round_trips_and_play_goes_on_from_any_position(players: int) -> None:
    for seed in range(6):
        states = engine_states(players, seed)
        for state in states:
            assert kernel.to_state(kernel.from_state(state)) == state
        for state in states[::17]:  # from a position in mid-game, the rest of the game
            rng = random.Random(seed)
            expected = play_game_from(state.clone(), rng)
            rng = random.Random(seed)
            ks = kernel.from_state(state)
            kernel.play_out(ks, [kernel.RandomPolicy(rng)] * players, rng)
            assert kernel.to_state(ks) == expected


def play_game_from(state: GameState, rng: random.Random, last_round: int = 3) -> GameState:
    while not state.is_terminal() and state.round <= last_round:
        action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        state.apply_action(action)
    return state


@pytest.mark.parametrize("players", [2, 4])
def test_until_round_stops_after_the_round_end(players: int) -> None:
    for seed in range(6):
        for state in engine_states(players, seed)[::23]:
            last = max(state.round, 1)
            expected = play_game_from(state.clone(), random.Random(seed), last)
            rng = random.Random(seed)
            ks = kernel.from_state(state)
            kernel.play_out(ks, [kernel.RandomPolicy(rng)] * players, rng, until="round")
            assert kernel.to_state(ks) == expected
            assert expected.phase == OVER or expected.round == last + 1


def test_stop_seat_stops_at_that_seats_decision_and_resume_goes_on() -> None:
    rng = random.Random(4)
    ks = kernel.new_state(3)
    policies = [kernel.RandomPolicy(rng)] * 3
    stops = 0
    kernel.play_out(ks, policies, rng, stop_seat=1)
    while ks.phase != kernel.OVER:
        assert ks.current == 1 and ks.phase not in kernel.CHANCE_PHASES
        stops += 1
        kernel.play_out(ks, policies, rng, stop_seat=1, resume=True)
    expected = play_game(3, [random_policy] * 3, random.Random(4))
    assert kernel.to_state(ks) == expected and stops > 10


def test_round_end_tallies_match_the_engines_log() -> None:
    for seed in range(30):
        rng = random.Random(seed)
        ks = kernel.play_game(4, [kernel.RandomPolicy(rng)] * 4, rng)
        expected = play_game(4, [random_policy] * 4, random.Random(seed))
        for p in range(4):
            lost = [c for e in expected.log if e.kind == "discard" and e.player == p for c in e.cards]
            spent = sum(e.amount for e in expected.log if e.kind == "gold_spent" and e.player == p)
            assert sum(ks.cards_lost[p]) == len(lost)
            assert sum(ks.points_lost[p]) == sum(c.value for c in lost)
            assert sum(ks.gold_spent[p]) == spent


def test_options_are_the_engines_legal_actions_in_order() -> None:
    for players in (2, 3, 4):
        for state in engine_states(players, players)[::3]:
            if state.is_chance_node() or state.is_terminal():
                continue
            ks = kernel.from_state(state)
            assert kernel.legal_actions(ks) == state.legal_actions()
            assert [kernel.from_action(a) for a in state.legal_actions()] == kernel.options(ks)


class Scripted:
    """Replays recorded decisions."""

    random_below = None
    random_bits = None

    def __init__(self, decisions: list[kernel.Decision]) -> None:
        self.decisions = iter(decisions)

    def decide(self, ks: kernel.KState) -> kernel.Decision:
        return next(self.decisions)


@pytest.mark.parametrize("name", ["2p-seed-1", "3p-seed-2", "4p-seed-3"])
def test_golden_games_replay_in_the_kernel(name: str) -> None:
    data = json.loads((GOLDEN / f"{name}.json").read_text())
    record = loads_record(json.dumps(data["record"]))
    decisions = [kernel.from_action(a) for a in record.actions if not isinstance(a, (CardDrawn, ModifierDrawn))]
    script = Scripted(decisions)
    ks = kernel.play_game(record.players, [script] * record.players, random.Random(record.seed))
    assert position_dict(kernel.to_state(ks)) == data["final"]
    assert kernel.scores(ks) == data["record"]["scores"]


def test_a_generator_that_draws_differently_is_refused() -> None:
    class Odd(random.Random):
        def _randbelow(self, n: int) -> int:  # type: ignore[override]
            return 0

    with pytest.raises(ValueError, match="random.Random"):
        kernel.play_game(2, [kernel.RandomPolicy(random.Random(0))] * 2, Odd(0))
    with pytest.raises(ValueError, match="'round' or 'game'"):
        kernel.play_out(kernel.new_state(2), [kernel.RandomPolicy(random.Random(0))] * 2, random.Random(0), "turn")


def test_standings_are_scores_winners_and_ranks() -> None:
    """``standings`` reads the tie-break counts only for tied scores: games with ties
    (shared and broken ones) give what ``winners`` and ``ranks`` give with full keys."""
    tied = 0
    for players in (2, 3, 4):
        for seed in range(150):
            rng = random.Random(seed)
            ks = kernel.play_game(players, [kernel.RandomPolicy(rng)] * players, rng)
            points = kernel.scores(ks)
            tied += len(set(points)) < players
            assert kernel.standings(ks) == (points, kernel.winners(ks), kernel.ranks(ks))
    assert tied > 20


def test_sampler_draws_the_world_determinize_draws() -> None:
    """The search samples worlds straight into kernel states: the same world as
    ``views.determinize`` for the same generator, which is left in the same state, for
    every viewer at every step (all phases, chance included)."""
    phases = set()
    for players in (2, 3, 4):
        for seed in range(3):
            rng, state = random.Random(seed), new_game(players)
            while not state.is_terminal():
                phases.add(state.phase)
                for viewer in range(players):
                    v = view(state, viewer)
                    mine, theirs = random.Random(viewer), random.Random(viewer)
                    assert kernel.to_state(kernel.sampler(v)(mine)) == determinize(v, theirs)
                    assert mine.random() == theirs.random()
                action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
                state.apply_action(action)
    assert {"agent", "cleric", "gold", "scholar", "draft", "deal"} <= phases


def test_phase_and_colour_constants_are_the_engines_indices() -> None:
    """The kernel spells its constants out (``Final`` literals, for the compiled path); they
    must stay the indices of the engine's phases and colours."""
    from capital_lux.engine.cards import COLOURS
    from capital_lux.engine.state import PHASES

    for index, name in enumerate(PHASES):
        assert getattr(kernel, name.upper()) == index, name
    assert [kernel.B, kernel.G, kernel.P, kernel.Y] == [COLOURS.index(c) for c in "BGPY"]
    assert kernel.CLERIC_COLOURS == (kernel.B, kernel.G, kernel.Y)


def test_insort_keeps_a_list_sorted_as_bisect_does() -> None:
    import bisect

    from capital_lux.engine.kernel_state import insort

    rng = random.Random(5)
    for _ in range(300):
        values = sorted(rng.choices(range(7), k=rng.randrange(8)))
        value = rng.randrange(8)
        expected = values[:]
        bisect.insort(expected, value)
        insort(values, value)
        assert values == expected


def test_draft_options_and_copies_are_the_set_based_definitions() -> None:
    from itertools import combinations

    from capital_lux.engine.kernel_state import copies, draft_options

    rng = random.Random(8)
    for _ in range(500):
        held = sorted(rng.choices(range(20), k=rng.randrange(0, 9)))
        assert draft_options(held) == sorted(set(combinations(held, min(2, len(held)))))
        assert copies(held) == len(held) - len(set(held))


def test_the_fingerprint_of_the_seeded_benchmarks_is_the_same_in_any_process_compiled_or_pure() -> None:
    """The digest a refactor is checked with (``python -m capital_lux.analysis.fingerprint``,
    before and after) depends on the seeds alone: not on string hashing, not on the build."""
    import os
    import subprocess
    import sys

    def digest(**env: str) -> str:
        out = subprocess.run([sys.executable, "-m", "capital_lux.analysis.fingerprint"], capture_output=True,
                             text=True, check=True, env={**os.environ, **env})
        return out.stdout.strip()

    first = digest(PYTHONHASHSEED="1")
    assert len(first) == 64 and digest(PYTHONHASHSEED="2", CAPITAL_LUX_PURE="1") == first
