"""Capitol's views, notation, records and bots: a view never shows another's hand or pending
bid; every action's text parses back to it; records replay to their scores and forged ones
are refused with a sentence; golden games replay to the same scores."""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from capital_lux.capitol.bots import RandomBot, RuleOfThumbBot, make_bot, play_game
from capital_lux.capitol.notation import Offer, parse_action
from capital_lux.capitol.record import dumps_record, loads_record
from capital_lux.capitol.rules import apply, legal_actions, refusal
from capital_lux.capitol.state import BID, new_game
from capital_lux.capitol.views import view
from capital_lux.engine.errors import IllegalActionError, NotationError, PositionError, UsageError
from capital_lux.i18n import translator

GOLDEN = sorted((Path(__file__).parent / "golden" / "capitol").glob("*.json"))


@settings(max_examples=5, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_views_show_only_what_the_seat_may_know(players: int, seed: int) -> None:
    """Along a random game, another seat's view never changes when only this seat's hand or
    pending bid is changed: it cannot show them (nor the seed, which deals every hand)."""
    s, rng, step = new_game(players, seed), random.Random(seed), 0
    while not s.is_terminal():
        step += 1
        for seat in range(players) if step % 6 == 0 or s.phase == BID else ():
            v = view(s, seat)
            assert v.hand == s.hands[seat] and v.hand_sizes == tuple(map(len, s.hands))
            assert v.legal_actions == (tuple(legal_actions(s)) if seat == s.current else ())
            other = (seat + 1) % players
            blanked = s.__class__(**{**{f: getattr(s, f) for f in s.__dataclass_fields__},
                                     "hands": s.hands[:other] + ((),) + s.hands[other + 1:],
                                     "bids": s.bids[:other] + (None,) + s.bids[other + 1:],
                                     "offers": s.offers[:other] + ((),) + s.offers[other + 1:],
                                     "seed": -1})
            seen = view(blanked, seat)
            assert seen.hand_sizes[other] == 0 or v.hand_sizes != seen.hand_sizes
            assert _without_sizes(seen) == _without_sizes(v)
        s = apply(s, rng.choice(legal_actions(s)))


def _without_sizes(v: object) -> dict[str, object]:
    data: dict[str, object] = asdict(v)  # type: ignore[call-overload]
    data.pop("hand_sizes")
    data.pop("bids_made")
    data.pop("offered")  # how many cards each seat has above its STOP card: the pile's height is public
    return data


def test_played_cards_stay_hidden_in_the_history() -> None:
    s = new_game(3, seed=8)
    card = s.hands[0][0]
    s = apply(s, parse_action(str(card)))  # played without its action: discarded face down
    assert view(s, 1).history == (f"{card.kind}?",) and view(s, 0).history == (str(card),)


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_every_legal_action_text_round_trips(players: int, seed: int) -> None:
    s, rng = new_game(players, seed), random.Random(seed)
    while not s.is_terminal():
        legal = legal_actions(s)
        for action in legal[:60]:
            assert parse_action(str(action)) == action
        s = apply(s, rng.choice(legal))


@pytest.mark.parametrize("text", ["", "build", "F9", "F3 0+1 x", "R5 2q", "B4 1t Z9", "offer F3 B4", "stop F3", "place",
                                  "draw deck", "F3 " * 100])
def test_unreadable_moves_are_refused_with_a_sentence(text: str) -> None:
    with pytest.raises(NotationError) as error:
        parse_action(text)
    french = translator("fr").refusal(error.value)
    assert "Capitol" in french and french != str(error.value)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_games_replay_to_their_scores(path: Path) -> None:
    data = json.loads(path.read_text())
    final = loads_record(path.read_text())
    assert final.is_terminal() and list(final.scores) == data["scores"]
    assert dumps_record(final) + "\n" == path.read_text()


def test_a_record_round_trips_mid_game() -> None:
    s, rng = new_game(3, seed=21), random.Random(1)
    for _ in range(50):
        s = apply(s, rng.choice(legal_actions(s)))
    assert loads_record(dumps_record(s)) == s


def _forged(change: str) -> str:
    data = json.loads(GOLDEN[0].read_text())
    if change == "scores":
        data["scores"][0] += 1
    elif change == "action":
        data["actions"][3] = "place B1"
    elif change == "unreadable":
        data["actions"][0] = "teleport"
    elif change == "seed":
        data["seed"] += 1
    elif change == "format":
        data["format"] = "capital-lux-record"
    elif change == "players":
        data["players"] = 7
    elif change == "extra":
        data["winner"] = 0
    return json.dumps(data)


@pytest.mark.parametrize("change", ["scores", "action", "unreadable", "seed", "format", "players", "extra"])
def test_forged_records_are_refused_with_a_sentence(change: str) -> None:
    with pytest.raises(PositionError) as error:
        loads_record(_forged(change))
    for lang in ("en", "fr", "es", "pt"):
        text = translator(lang).refusal(error.value)
        assert text and "{" not in text
    assert translator("fr").refusal(error.value) != str(error.value)


def test_bids_with_cards_not_held_are_refused_and_nothing_changes() -> None:
    from capital_lux.capitol.components import Card
    from dataclasses import replace
    s = replace(new_game(2, seed=3), phase=BID, bids=(None, None))
    foreign = [c for c in (Card("B", 8), Card("R", 7), Card("F", 6)) if c not in s.hands[0]][0]
    before = dumps_record(s), s
    with pytest.raises(IllegalActionError) as error:
        apply(s, Offer(foreign))
    assert "left in your hand" in str(error.value) and (dumps_record(s), s) == before
    once = apply(s, Offer(s.hands[0][0]))
    if s.hands[0].count(s.hands[0][0]) == 1:  # a card offered once cannot be offered again
        assert refusal(once, Offer(s.hands[0][0])) is not None


def test_bots_choose_legal_actions_and_the_rule_of_thumb_beats_random() -> None:
    wins = 0
    for seed in range(12):
        s = play_game(2, [RuleOfThumbBot(), RandomBot()] if seed % 2 == 0 else [RandomBot(), RuleOfThumbBot()],
                      seed, random.Random(seed))
        rule_seat = seed % 2
        wins += s.scores[rule_seat] > s.scores[1 - rule_seat]
    assert wins >= 9
    with pytest.raises(UsageError):
        make_bot("oracle")


def test_bots_are_deterministic_given_their_seed() -> None:
    a = play_game(3, [make_bot("rule"), make_bot("random"), make_bot("random")], 7, random.Random(3))
    b = play_game(3, [make_bot("rule"), make_bot("random"), make_bot("random")], 7, random.Random(3))
    assert a == b and any(isinstance(action, Offer) for _, action in a.history)
