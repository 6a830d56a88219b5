"""Bots: legal moves only, decisions from the view alone, hints that read in every language."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file

from capital_lux.players.bots import (
    Hint,
    RandomBot,
    RuleOfThumbBot,
    SearchBot,
    as_policy,
    make_bot,
    parse_bot,
)
from capital_lux.engine import kernel
from capital_lux.players import policies
from capital_lux.engine.game import play_game, sample_chance
from capital_lux.i18n import LANGUAGES, translator
from capital_lux.engine.cards import COLOURS
from capital_lux.engine.notation import CAPITAL, Play, SaveWithGold
from capital_lux.players.policies import table_for
from capital_lux.players.rule_of_thumb import table_of
from capital_lux.players.search import quick_move
from capital_lux.engine.state import PLAY, GameState, new_game
from capital_lux.engine.views import PlayerView, sample_hidden, view

BOTS_SOURCE = Path(__file__).resolve().parents[1] / "capital_lux" / "players" / "bots.py"


def decision_states(players: int, seed: int, every: int = 1) -> list[GameState]:
    """Copies of every ``every``-th decision point of a game between random players."""
    rng = random.Random(seed)
    state, found, count = new_game(players), [], 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        if count % every == 0:
            found.append(state.clone())
        count += 1
        state.apply_action(rng.choice(state.legal_actions()))
    return found


def own_view(state: GameState) -> PlayerView:
    return view(state, state.current)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("kind", ["random", "rule"])
def test_bots_finish_games_with_legal_moves(kind: str, players: int) -> None:
    for seed in range(3):
        final = play_game(players, [as_policy(make_bot(kind))] * players, random.Random(seed))
        assert final.is_terminal()  # apply_action refuses any illegal move


def test_search_bot_moves_are_legal_in_every_phase() -> None:
    bot = SearchBot(iterations=12)
    phases = set()
    for state in decision_states(3, seed=5, every=3):
        phases.add(state.phase)
        assert bot.choose(own_view(state), random.Random(1)) in state.legal_actions()
    assert {"draft", "play"} <= phases


@pytest.mark.parametrize("players", [2, 4])
def test_quick_rollout_moves_are_legal(players: int) -> None:
    for seed in range(4):
        assert play_game(players, [quick_move] * players, random.Random(seed)).is_terminal()


BOTS_UNDER_TEST = [RandomBot(), RuleOfThumbBot(), SearchBot(iterations=25)]


@pytest.mark.parametrize("bot", BOTS_UNDER_TEST, ids=lambda b: b.name)
def test_bots_decide_from_the_view_only(bot: RandomBot | RuleOfThumbBot | SearchBot) -> None:
    """Two states that differ only in what the seat cannot know give the same decision."""
    rng = random.Random(11)
    states = decision_states(4, seed=3, every=4) + decision_states(2, seed=8, every=5)
    differing = 0
    for state in states:
        seat = state.current
        other = sample_hidden(state, seat, rng)
        if other != state:
            differing += 1
        assert view(other, seat) == view(state, seat)
        assert bot.choose(view(state, seat), random.Random(99)) == bot.choose(view(other, seat), random.Random(99))
    assert differing > len(states) // 2  # the hidden parts really were redrawn


@pytest.mark.parametrize("kind", ["random", "rule"])
def test_kernel_policies_decide_from_the_seats_knowledge_only(kind: str) -> None:
    """The kernel's bots read a compact state holding everything: redrawing what the seat
    cannot know must not change their decision."""
    rng = random.Random(11)
    states = decision_states(4, seed=3, every=4) + decision_states(2, seed=8, every=5)
    for state in states:
        other = sample_hidden(state, state.current, rng)
        mine = policies.make(kind, random.Random(99)).decide(kernel.from_state(state))
        assert policies.make(kind, random.Random(99)).decide(kernel.from_state(other)) == mine


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_policies_choose_what_the_view_based_bots_choose(players: int) -> None:
    for state in decision_states(players, seed=players, every=2) + decision_states(players, seed=9, every=3):
        ks, v = kernel.from_state(state), own_view(state)
        for seat in range(players):
            assert table_for(ks, seat) == table_of(view(state, seat))
        rule = policies.make("rule", random.Random(5)).decide(ks)
        assert kernel.to_action(ks, rule) == RuleOfThumbBot().choose(v, random.Random(5))
        uniform = policies.make("random", random.Random(5)).decide(ks)
        assert kernel.to_action(ks, uniform) == RandomBot().choose(v, random.Random(5))


def test_as_policy_hands_the_bot_a_view_and_not_the_state() -> None:
    seen: list[object] = []

    class Spy:
        name = "spy"

        def choose(self, v: PlayerView, rng: random.Random) -> object:
            seen.append(v)
            return rng.choice(v.legal_actions)

    play_game(2, [as_policy(Spy())] * 2, random.Random(0))  # type: ignore[list-item]
    assert seen and all(isinstance(v, PlayerView) for v in seen)
    assert not any(isinstance(v, GameState) for v in seen)


def test_search_bot_is_reproducible_with_an_iteration_budget() -> None:
    state = decision_states(3, seed=2)[7]
    bot = SearchBot(iterations=40)
    assert bot.choose(own_view(state), random.Random(5)) == bot.choose(own_view(state), random.Random(5))
    assert bot.last_iterations == 40


def test_search_bot_respects_a_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    import itertools
    import types

    from capital_lux.players import search

    clock = itertools.count()  # a clock that ticks one second each time it is read: no wall time involved
    monkeypatch.setattr(search, "time", types.SimpleNamespace(perf_counter=lambda: float(next(clock))))
    state = decision_states(4, seed=1)[0]
    bot = SearchBot(seconds=2.5)
    bot.choose(own_view(state), random.Random(0))
    assert bot.last_iterations == 16  # the clock is read every 8 iterations: 1 s, 2 s, then 3 s is past 2.5 s


def test_bots_refuse_a_view_without_a_decision() -> None:
    state = decision_states(2, seed=0)[0]
    waiting = view(state, 1 - state.current)
    for bot in BOTS_UNDER_TEST:
        with pytest.raises(ValueError, match="no decision"):
            bot.choose(waiting, random.Random(0))


def test_make_bot_names_the_kinds_on_a_bad_kind() -> None:
    with pytest.raises(ValueError, match="random, rule, search"):
        make_bot("clever")
    with pytest.raises(ValueError, match="takes no options"):
        make_bot("rule", iterations=3)
    assert isinstance(make_bot("search", iterations=5), SearchBot)


@pytest.mark.parametrize("spec", ["search:iterations=0", "search:depth=3", "search:seconds=x", "bogus"])
def test_parse_bot_refuses_bad_specs(spec: str) -> None:
    with pytest.raises(ValueError):
        parse_bot(spec)


def test_parse_bot_reads_budgets() -> None:
    bot = parse_bot("search:iterations=30:seconds=0.5")
    assert isinstance(bot, SearchBot) and (bot.iterations, bot.seconds) == (30, 0.5)


def test_rule_of_thumb_beats_random_players() -> None:
    """A seeded sanity check; the README's table has the measured strength."""
    wins = 0
    for seed in range(20):
        final = play_game(2, [as_policy(RuleOfThumbBot()), as_policy(RandomBot())], random.Random(seed))
        wins += 0 in final.winners()
    assert wins >= 15


def extracted_msgids() -> set[str]:
    with open(BOTS_SOURCE, "rb") as f:
        return {
            message if isinstance(message, str) else message[0]
            for _, message, _, _ in extract_from_file("python", f.name, keywords=DEFAULT_KEYWORDS)
        }


def test_hints_read_in_every_language_and_are_extractable() -> None:
    msgids = extracted_msgids()
    bot = RuleOfThumbBot()
    reasons = set()
    for players, seed in ((2, 1), (3, 4), (4, 6)):
        for state in decision_states(players, seed):
            v = own_view(state)
            hint = bot.advise(v)
            assert isinstance(hint, Hint)
            assert hint.action in v.legal_actions and hint.action == bot.choose(v, random.Random(0))
            assert hint.reason in msgids, f"reason not marked for translation: {hint.reason!r}"
            reasons.add(hint.reason)
            for lang in LANGUAGES:
                text = hint.text(translator(lang))
                assert text and "{" not in text
    assert len(reasons) >= 6


def test_hint_text_renders_cards_colours_and_modifiers() -> None:
    from capital_lux.players.bots import N_
    from capital_lux.engine.cards import Card

    hint = Hint(Play(Card("Y", 3), "capital"), N_("Puts the {modifier} above {colour}: {card}."),
                {"modifier": -3, "colour": "G", "card": "Y3"})
    assert hint.text(translator("en")) == "Puts the -3 above green: ● Merchant 3 (yellow)."
    # a card reads as the table shows it, never a bare role name ("Gardez Marchand 5")
    assert "● Marchand 3 (jaune)" in hint.text(translator("fr"))


def test_rule_of_thumb_spends_gold_only_when_the_cards_are_worth_it() -> None:
    states = decision_states(4, seed=0) + decision_states(3, seed=1) + decision_states(2, seed=9)
    gold_states = [s for s in states if s.phase == "gold"]
    assert gold_states
    for state in gold_states:
        v = own_view(state)
        choice = RuleOfThumbBot().choose(v, random.Random(0))
        assert isinstance(choice, SaveWithGold)
        for colour in choice.colours:
            cost = v.hometown_total(v.viewer, colour) - (v.capital_total(colour) or 0)
            assert v.hometown_total(v.viewer, colour) > cost


def test_a_card_kept_out_of_the_hometown_by_a_face_down_modifier_is_explained_so() -> None:
    """Where the rule of thumb plays into the capital a card that would fit its hometown at the
    estimated limit, because a face-down modifier may put that limit lower, the hint says so
    in every language, with the total the card would make and the estimate."""
    bot = RuleOfThumbBot()
    found = 0
    for players, seed in ((3, 2), (4, 5), (4, 7)):
        for state in decision_states(players, seed):
            v = own_view(state)
            if v.phase != PLAY:
                continue
            hint = bot.advise(v)
            if "face-down modifier may put" not in hint.reason:
                continue
            found += 1
            play, t = hint.action, table_of(v)
            assert isinstance(play, Play) and play.to == CAPITAL
            c = COLOURS.index(play.card.colour)
            total = t.home[t.me][c] + play.card.value
            assert total <= t.limit[c] and any(t.known[c] + added < total for added, _ in t.chances[c])
            assert (hint.params["total"], hint.params["limit"]) == (total, math.floor(t.limit[c]))
            for lang in LANGUAGES:
                text = hint.text(translator(lang))
                assert str(total) in text and "{" not in text
    assert found >= 3
