"""Random-simulation checks over seeded games for each player count (40 each in the suite;
``RANDOM_GAMES=1000`` runs a thousand).

At every step: all 72 cards, 4 modifiers and 8 gold discs are accounted for; the
player to move has sorted, non-empty legal actions; chance outcomes sum to 1;
clone+apply equals apply; each player's view holds nothing hidden from them. Every
game ends, and its record replays to the identical final state.
"""

from __future__ import annotations

import os
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from capital_lux.engine.game import Game, GameRecord, sample_chance
from capital_lux.engine.position import dumps_position, loads_position, validate
from capital_lux.engine.state import CHANCE, GameState
from capital_lux.engine.views import sample_hidden, view

#: Games per player count; every tenth also round-trips each position through its text form.
GAMES_PER_COUNT = int(os.environ.get("RANDOM_GAMES", "40"))
MAX_STEPS = 1000  # a 4-player game takes about 190 actions


def check_views(s: GameState, rng: random.Random) -> None:
    for p in range(s.players):
        v = view(s, p)
        assert v.hand == tuple(s.hands[p]) and v.draft_picks == tuple(s.draft_picks[p])
        assert v.hand_sizes == tuple(len(h) for h in s.hands)
        for colour, slots in v.modifiers_above.items():
            for slot, (owner, value) in zip(slots, s.modifiers_above[colour]):
                visible = owner == p or s.modifiers_revealed()
                assert slot.value == (value if visible else None)
        if s.pending_modifier is not None and s.current != p:
            assert v.pending_modifier is None
        # The view cannot depend on what p cannot know: redraw all of it and compare.
        assert view(sample_hidden(s, p, rng), p) == v


def play_checked(players: int, seed: int, round_trip: bool) -> Game:
    game = Game(players, seed)
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        s = game.state
        if s.is_terminal():
            break
        validate(s)  # 72 cards, 4 modifiers, 8 gold, a consistent phase
        actions = s.legal_actions()
        assert actions and actions == sorted(actions)
        assert s.current_player() != CHANCE  # Game resolves chance itself
        check_views(s, rng)
        if round_trip:
            assert loads_position(dumps_position(s)) == s
        action = rng.choice(actions)
        assert s.child(action) == _applied(s, action)
        game.play(action)
    assert game.state.is_terminal(), "the game did not end"
    validate(game.state)
    return game


def _applied(s: GameState, action: object) -> GameState:
    copy = s.clone()
    copy.apply_action(action)  # type: ignore[arg-type]
    return copy


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_invariant(players: int) -> None:
    for seed in range(GAMES_PER_COUNT):
        game = play_checked(players, seed, round_trip=seed % 10 == 0)
        assert game.record().replay() == game.state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_chance_outcomes_are_exact_distributions(players: int) -> None:
    rng = random.Random(1)
    seen = 0
    s2 = GameState(players)
    while not s2.is_terminal():
        if s2.is_chance_node():
            outcomes = s2.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1 and all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
            assert [a for a, _ in outcomes] == s2.legal_actions()
            seen += 1
            s2.apply_action(sample_chance(s2, rng))
        else:
            s2.apply_action(rng.choice(s2.legal_actions()))
    assert seen > 40


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1), choices=st.integers(0, 2**32 - 1))
def test_same_seed_and_decisions_give_the_same_game(players: int, seed: int, choices: int) -> None:
    def play() -> Game:
        game, rng = Game(players, seed), random.Random(choices)
        while not game.state.is_terminal():
            game.play(rng.choice(game.state.legal_actions()))
        return game

    first, second = play(), play()
    assert first.state == second.state and first.state.history == second.state.history
    record = first.record()
    assert GameRecord(record.players, record.seed, record.actions).replay() == first.state


def test_undo_replays_and_cannot_fish_for_a_better_draw() -> None:
    game = Game(3, seed=9)
    while game.state.phase != "play":
        game.play(game.state.legal_actions()[0])
    rng = random.Random(0)
    for _ in range(40):  # play until a Scholar draw happens, then undo it and redo it
        s = game.state
        scholar = [a for a in s.legal_actions() if str(a).startswith("capital G")]
        if scholar:
            before = s.clone()
            game.play(scholar[0])
            after = game.state.clone()
            undone = game.undo()
            assert undone == scholar[0] and game.state == before
            game.play(scholar[0])
            assert game.state == after  # the same card comes again
            return
        game.play(rng.choice(s.legal_actions()))
    pytest.fail("no Scholar play came up")


def test_undo_with_nothing_to_undo() -> None:
    with pytest.raises(IndexError, match="no decision to undo"):
        Game(2, seed=1).undo()


def test_sampling_chance_needs_a_chance_event() -> None:
    game = Game(2, seed=1)
    with pytest.raises(ValueError, match="no chance event is pending in phase draft"):
        sample_chance(game.state, random.Random(0))
