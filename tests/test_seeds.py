"""Seeds of games against hidden hands: secret while the game goes on, new for each new game,
and undo that tells the learner nothing they had not seen."""

from __future__ import annotations

import copy
import itertools
import random
from collections import Counter
from typing import Any, Iterator

import ipywidgets as W
import pytest

from capital_lux.engine.cards import KIND
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


def tried(session: Session, action: Any) -> Session:
    """A copy of ``session`` after ``action``, the session itself left as it was."""
    trial = copy.deepcopy(session)
    trial.play(action)
    return trial


def test_undo_then_another_move_does_not_meet_the_draws_already_drawn() -> None:
    """Chance the learner did not see (a bot's draw) is drawn afresh after another decision."""
    same = compared = 0
    for seed in range(5):
        for session in learner_positions(seed):
            length = len(session.state.history)
            # decisions that show the learner nothing hidden: they can be taken back
            trials = (tried(session, a) for a in session.view().legal_actions)
            undoable = list(itertools.islice((t for t in trials if t.can_undo()), 2))
            if len(undoable) < 2:
                continue
            seen = first_chance_after(undoable[0], length)
            first = undoable[0].undo()
            undoable[0].play(undoable[1].state.history[length])
            other = first_chance_after(undoable[0], length)
            assert first != undoable[1].state.history[length]
            if seen is not None and other is not None and type(seen) is type(other):
                compared += 1
                same += seen == other
    # few decisions both can be taken back and meet a bot's draw after them (most draws are seen)
    assert compared >= 5
    assert same < 0.5 * compared, (same, compared)


def test_undo_cannot_fish_for_a_better_draw() -> None:
    """A draw the learner saw cannot be taken back; one they did not see comes again the same."""
    checked = sealed = 0
    for seed in range(3):
        for session in learner_positions(seed):
            legal = session.view().legal_actions
            length = len(session.state.history)
            for first in legal:
                trial = tried(session, first)
                story = trial.state.history[length:]
                if not trial.can_undo():  # the draw was seen: it cannot be taken back, so not drawn again
                    sealed += 1
                    with pytest.raises(IndexError):
                        trial.undo()
                    continue
                trial.undo()
                other = next((a for a in legal if a != first), first)
                trial.play(other)  # something else in between...
                if trial.can_undo():
                    trial.undo()
                    trial.play(first)  # ...then the first decision again: the very same draws follow
                    assert trial.state.history[length:] == story
                    checked += 1
                break
    assert checked > 20 and sealed > 5


def unseen(v: Any) -> tuple[Counter[int], Counter[int]]:
    return Counter(dict(enumerate(v.unseen_cards()))), Counter(v.unseen_modifiers())


def showed_something_hidden(before: Any, trial: Session, log_from: int) -> bool:
    """Whether the learner, after one decision and what followed, has seen a card or modifier
    hidden from them before it: one no longer unseen (a bot's open play aside), or a
    face-down modifier of another player in a round end's reveal."""
    after = unseen(trial.view())
    items = trial.log[log_from:]
    opened = Counter(KIND[i.action.card] for i in items if i.kind == "play" and i.player != trial.seat
                     and i.action is not None)
    revealed = any(i.kind == "reveal" and any(o != trial.seat for slots in (i.revealed or {}).values() for o, _ in slots)
                   for i in items)
    return bool(+((before[0] - after[0]) - opened) or +(before[1] - after[1]) or revealed)


@pytest.mark.parametrize("players, bots, seed", [(3, "rule", 0), (3, "rule", 1), (2, "random", 2), (4, "random", 3)])
def test_no_undo_is_a_peek(players: int, bots: str, seed: int) -> None:
    """At every decision of a seeded game, each legal decision is tried on a copy of the
    session: wherever it can be undone, the learner has seen nothing hidden since (trying
    each blue card and undoing showed a hidden modifier in 148 positions of 148)."""
    session = Session.new(players, seed, bots)
    rng = random.Random(seed)
    tries = undoable = peeks = shown = 0
    while not session.is_over():
        v = session.view()
        before = unseen(v)
        for action in v.legal_actions:
            trial = tried(session, action)
            tries += 1
            hidden_seen = showed_something_hidden(before, trial, len(session.log))
            shown += hidden_seen
            if trial.can_undo():
                undoable += 1
                peeks += hidden_seen
        session.play(rng.choice(v.legal_actions))
    assert peeks == 0
    assert shown > 0 and undoable > 0.3 * tries, (shown, undoable, tries)  # undo still works where it tells nothing
