"""Seeds of games against hidden hands: secret while the game goes on, new for each new game,
and undo that tells the learner nothing they had not seen."""

from __future__ import annotations

import random
from typing import Any, Iterator

import ipywidgets as W

from capital_lux.engine.notation import CardDrawn, ModifierDrawn
from capital_lux.engine.state import CHANCE
from capital_lux.tutor import build_app
from capital_lux.tutor.app import FreePlay, TutorApp
from capital_lux.tutor.session import Session


def free_play(**options: Any) -> FreePlay:
    app = build_app(**options)._tutor
    assert isinstance(app, TutorApp)
    return app.free_play


def texts(widget: W.Widget) -> Iterator[str]:
    """Every text a widget tree puts on the page."""
    for name in ("value", "description", "placeholder", "tooltip"):
        value = getattr(widget, name, None)
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            yield str(value)
    for child in getattr(widget, "children", ()):
        yield from texts(child)


def finish(fp: FreePlay, seed: int) -> None:
    rng = random.Random(seed)
    while not fp.panel.session.is_over():
        fp.panel._act(rng.choice(fp.panel.session.view().legal_actions))


def test_a_free_game_has_a_secret_seed_of_many_bits() -> None:
    seeds = {Session.new(3).seed for _ in range(20)}
    assert len(seeds) == 20 and min(seeds) >= 2**32  # far more than a million to try
    fp = free_play(players=3)
    secret = str(fp.panel.session.seed)
    assert fp.seed.value == "" and not fp.panel.session.seed_visible()
    assert not any(secret in text for text in texts(fp.box))


def test_the_seed_is_shown_when_the_game_is_over() -> None:
    fp = free_play(players=2, bot_kind="random")
    finish(fp, 1)
    assert fp.seed.value == str(fp.panel.session.seed)


def test_a_chosen_seed_is_shown_and_new_game_unchanged_deals_a_new_game() -> None:
    fp = free_play(players=3, seed=5, bot_kind="random")
    assert fp.seed.value == "5" and fp.panel.session.seed == 5
    fp.new_game.click()  # the field as the page left it: a new game, not the same one again
    assert fp.panel.session.seed != 5 and fp.seed.value == ""
    fp.seed.value = "77"
    fp.new_game.click()
    assert fp.panel.session.seed == 77 and fp.seed.value == "77"
    before = fp.panel.session
    fp.seed.value = "seven"
    fp.new_game.click()
    assert fp.panel.session is before and "whole number" in fp.seed_message.value


def first_chance_after(session: Session, length: int) -> Any:
    """The first chance outcome recorded after position ``length`` of the history."""
    for action in session.state.history[length:]:
        if isinstance(action, (CardDrawn, ModifierDrawn)):
            return action
    return None


def learner_positions(seed: int) -> Iterator[Session]:
    """A session at each of the learner's decisions of a seeded game (random moves)."""
    session = Session.new(3, seed, "random")
    rng = random.Random(seed)
    while not session.is_over():
        yield session
        session.play(rng.choice(session.view().legal_actions))


def test_undo_then_another_move_does_not_meet_the_draws_already_seen() -> None:
    same = compared = 0
    for seed in range(5):
        for session in learner_positions(seed):
            legal = session.view().legal_actions
            if len(legal) < 2:
                continue
            length = len(session.state.history)
            session.play(legal[0])
            seen = first_chance_after(session, length)
            session.undo()
            session.play(legal[1])
            other = first_chance_after(session, length)
            session.undo()
            if seen is not None and other is not None and type(seen) is type(other):
                compared += 1
                same += seen == other
    assert compared > 20
    assert same < 0.5 * compared, (same, compared)  # it was every time: the seen draw went to a bot


def test_undo_cannot_fish_for_a_better_draw() -> None:
    session = Session.new(3, 11, "random")
    rng = random.Random(2)
    checked = 0
    while not session.is_over() and checked < 40:
        legal = session.view().legal_actions
        length = len(session.state.history)
        first = legal[0]
        session.play(first)
        story = session.state.history[length:]
        if len(legal) > 1:
            session.undo()
            session.play(legal[-1])  # something else in between...
            session.undo()
            session.play(first)  # ...then the first decision again: the very same draws follow
            assert session.state.history[length:] == story
            checked += 1
        session.undo()
        session.play(rng.choice(legal))
    assert checked > 20
