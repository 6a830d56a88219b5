"""A free game kept across a reload: only a token in the browser, the game on the server."""

from __future__ import annotations

import os
import random
import stat
from pathlib import Path

import pytest

from capital_lux.tutor import build_app, keep
from capital_lux.tutor.app import TutorApp
from capital_lux.engine.notation import parse_action
from capital_lux.engine.game import Game
from capital_lux.tutor.session import Session


@pytest.fixture(autouse=True)
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CAPITAL_LUX_SAVES", str(tmp_path))
    return tmp_path


def played(session: Session, moves: int, seed: int = 3) -> Session:
    rng = random.Random(seed)
    for _ in range(moves):
        session.play(rng.choice(session.view().legal_actions))
    return session


def test_a_kept_game_resumes_to_the_same_table() -> None:
    session = played(Session.new(3, 41, "rule"), 9)
    token = keep.new_token()
    keep.save(token, session)
    data = keep.load(token)
    assert data is not None and len(data["script"]) == 9
    again = keep.resume(data)
    assert again.game.state == session.game.state and again.view() == session.view()


def test_a_drawn_seed_stays_secret_after_a_resume() -> None:
    session = played(Session.new(2, None, "random"), 3)  # a secret seed, drawn for the learner
    token = keep.new_token()
    keep.save(token, session)
    data = keep.load(token)
    assert data is not None
    again = keep.resume(data)
    assert again.game.state == session.game.state
    assert not again.seed_visible()  # the seed replays every hidden card: not shown mid-game
    chosen = played(Session.new(2, 12, "random"), 3)
    keep.save(token, chosen)
    data = keep.load(token)
    assert data is not None and keep.resume(data).seed_visible()  # a seed the learner chose stays shown


def test_a_game_with_undos_resumes_to_the_cards_the_learner_saw() -> None:
    """After an undo another decision meets fresh chance (``Session._meet_chance``): the kept
    script replays the undos too, so the resumed table is the one on the page, log included."""
    rng = random.Random(8)
    session = Session.new(3, 77, "rule")
    for step in range(16):  # into round 2, the game still on (a finished game is not kept)
        if step % 4 == 3 and session.can_undo():
            undone = session.undo()
            others = [a for a in session.view().legal_actions if a != undone] or [undone]
            session.play(rng.choice(others))
        else:
            session.play(rng.choice(session.view().legal_actions))
    assert "undo" in session.script and not session.is_over()
    token = keep.new_token()
    keep.save(token, session)
    data = keep.load(token)
    assert data is not None
    again = keep.resume(data)
    assert again.game.state == session.game.state and again.log == session.log
    replayed = Session.new(3, 77, "rule")  # the decisions alone, without the undos, are another game
    for text in (a for a in session.script if a != "undo"):
        if replayed.is_over() or parse_action(text) not in replayed.view().legal_actions:
            break
        replayed.play(parse_action(text))
    assert replayed.game.state != session.game.state


@pytest.mark.parametrize("seed, undoable", [(1, False), (2, True)])
def test_a_seed_shown_at_the_end_stays_shown_after_an_undo(seed: int, undoable: bool) -> None:
    """A game with a seed drawn for the learner, played to its end. Its last decision can be
    taken back only if the end showed the learner nothing hidden (seed 2; with seed 1 the
    last round end turned a bot's modifier face up); the seed, once shown, stays shown."""
    rng = random.Random(1)
    session = Session(Game(2, seed), bot_kind="random", bot_seed=seed + 1)  # a seed the learner did not choose
    while not session.is_over():
        session.play(rng.choice(session.view().legal_actions))
    assert session.seed_visible() and session.can_undo() is undoable
    if not undoable:
        with pytest.raises(IndexError):
            session.undo()
        return
    session.undo()
    assert not session.is_over() and session.seed_visible()  # already on the page: hiding it hides nothing
    token = keep.new_token()
    keep.save(token, session)
    data = keep.load(token)
    assert data is not None and keep.resume(data).seed_visible()


@pytest.mark.parametrize("token", ["", "../../etc/passwd", "A" * 32, "0" * 31, "0" * 33, None])
def test_only_a_well_formed_token_is_read(token: object) -> None:
    assert keep.load(token) is None  # type: ignore[arg-type]
    with pytest.raises((ValueError, TypeError)):
        keep.save(token, Session.new(2, 1))  # type: ignore[arg-type]


def test_large_unreadable_or_finished_files_are_not_offered(saves: Path) -> None:
    token = keep.new_token()
    (saves / f"{token}.json").write_bytes(b"{" + b" " * (keep.MAX_BYTES + 10) + b"}")
    assert keep.load(token) is None
    (saves / f"{token}.json").write_text('{"players": 3}')
    assert keep.load(token) is None
    session = Session.new(2, 5, "random")
    while not session.is_over():
        session.play(session.view().legal_actions[0])
    keep.save(token, session)
    assert keep.load(token) is None  # a finished game is not resumed


def test_the_page_keeps_its_game_and_a_new_page_offers_to_resume_it() -> None:
    first: TutorApp = build_app(players=3, seed=8, opening="free")._tutor  # type: ignore[attr-defined]
    panel = first.free_play.panel
    played(panel.session, 0)
    for _ in range(4):
        panel._act(panel.session.view().legal_actions[0])
    token = first.free_play.token
    assert f'data-cl-save="{token}"' in first.free_play.tag.value
    assert "8" not in first.free_play.tag.value.replace(token, "")  # the seed is not in the page
    second: TutorApp = build_app(players=2, seed=1)._tutor  # type: ignore[attr-defined]
    assert second.free_play.offer.layout.display == "none"
    second.free_play.token_in.value = token  # what the page script does with local storage
    assert second.free_play.offer.layout.display is None
    second.free_play.resume_button.click()
    assert second.free_play.panel.session.game.state == panel.session.game.state
    assert second.tabs.selected_index == len(second.chapter_list)  # free play shown
    assert second.free_play.offer.layout.display == "none"


def test_a_made_up_token_offers_nothing() -> None:
    app: TutorApp = build_app()._tutor  # type: ignore[attr-defined]
    app.free_play.token_in.value = keep.new_token()
    assert app.free_play.offer.layout.display == "none"


def test_the_page_script_names_no_secret_and_speaks_the_language() -> None:
    script = keep.page_script("fr")
    assert "api/kernels/" in script and keep.STORAGE_KEY in script
    assert "Recharger la page" in script or "Reload the page" not in script


def _free_play_after_a_move() -> TutorApp:
    app: TutorApp = build_app(players=2, seed=4, opening="free")._tutor  # type: ignore[attr-defined]
    panel = app.free_play.panel
    panel._act(panel.session.view().legal_actions[0])
    return app


@pytest.mark.parametrize("setting", ["a-file", "a-file/games", "relative/games", "/proc/capital_lux_games"])
def test_a_saves_folder_that_cannot_be_used_is_said_and_nothing_crashes(
        setting: str, saves: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    (saves / "a-file").write_text("not a folder")
    value = setting if setting.startswith(("/", "relative")) else str(saves / setting)
    monkeypatch.setenv("CAPITAL_LUX_SAVES", value)
    with pytest.raises(keep.SavesError, match="CAPITAL_LUX_SAVES"):
        keep.saves_folder()
    app = _free_play_after_a_move()  # it kept the game after the move: the page says it could not
    tag = app.free_play.tag.value
    assert "cannot be kept" in tag and value not in tag and "data-cl-save" not in tag
    assert value in caplog.text and "could not be kept" in caplog.text
    app.free_play.token_in.value = keep.new_token()  # a stored token: looked for, no FileExistsError
    assert app.free_play.offer.layout.display == "none"
    app.set_language("fr")
    assert "ne peut pas" in app.free_play.tag.value


def test_saved_games_are_owner_only_and_the_folder_is_made_so(saves: Path) -> None:
    folder = saves / "games"
    folder.mkdir(mode=0o777)
    folder.chmod(0o777)  # as an administrator might have made it
    os.environ["CAPITAL_LUX_SAVES"] = str(folder)  # the fixture's monkeypatch puts it back
    token = keep.new_token()
    keep.save(token, Session.new(2, 7, "random"))
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / f"{token}.json").stat().st_mode) == 0o600
    assert [p.name for p in folder.iterdir()] == [f"{token}.json"]  # no partial file left


def test_a_folder_of_another_user_is_refused(saves: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: saves.stat().st_uid + 1)  # as if the server ran as someone else
    with pytest.raises(keep.SavesError, match="another user"):
        keep.save(keep.new_token(), Session.new(2, 7, "random"))
    assert list(saves.iterdir()) == []
