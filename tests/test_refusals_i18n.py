"""Refusals and sentences reach the user in their language, whole, on every screen."""

from __future__ import annotations

import io
import sys

import pytest

from capital_lux.cli.main import main, view_text
from capital_lux.engine.cards import Card, CapitalLuxError
from capital_lux.engine.game import Game
from capital_lux.engine.notation import parse_action
from capital_lux.engine.state import Event
from capital_lux.engine.views import view
from capital_lux.i18n import translator
from capital_lux.i18n.sentences import TERMINAL, action_sentence, event_sentence
from capital_lux.players.bots import parse_bot

NBSP = "\u00a0"


def test_the_what_if_explorer_refuses_bad_gold_in_french() -> None:
    from capital_lux.tutor.whatif_app import build_app

    app = build_app(lang="fr", name="modifiers-round-2")._whatif
    before = app.state
    app.fields["gold"].value = "deux"
    assert not app.apply_edits()
    assert "écrivez un nombre entier par joueur" in app.message.value and "write" not in app.message.value
    assert app.state == before


@pytest.mark.parametrize(("lang", "words"), [("fr", "type de robot inconnu"), ("es", "tipo de bot desconocido"),
                                             ("pt", "tipo de robô desconhecido")])
def test_the_terminal_refuses_a_bad_bot_in_the_users_language(lang: str, words: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["play", "--players", "2", "--bots", "nope", "--lang", lang])
    assert exit_.value.code == 2 and words in capsys.readouterr().err


def test_bot_refusals_are_catalogue_messages() -> None:
    with pytest.raises(CapitalLuxError) as error:
        parse_bot("search:iterations=-3")
    assert str(error.value) == "bad bot option 'iterations=-3' in 'search:iterations=-3': must be positive"
    assert "elle doit être positive" in error.value.translated(translator("fr").gettext)


def test_the_tutor_session_refuses_in_the_learners_language() -> None:
    from capital_lux.tutor.session import Session

    session = Session(Game(2, 3))
    with pytest.raises(CapitalLuxError) as error:
        session.play(parse_action("capital Y6" if session.learner_to_move() else "pick Y6 Y6"))
    assert "n'est pas un coup permis" in error.value.translated(translator("fr").gettext)


# --------------------------------------------------------------------------- whole sentences


def test_own_and_others_hometowns_have_their_own_sentences() -> None:
    fr = translator("fr")
    mine = action_sentence(fr, 0, parse_action("home B5"), you=0)
    theirs = action_sentence(fr, 1, parse_action("home B5"), you=0)
    capital = action_sentence(fr, 1, parse_action("capital B5"), you=0)
    assert mine.startswith("Vous jouez") and "votre Cité" in mine
    assert theirs.startswith("Robot 1 joue") and "sa Cité" in theirs
    assert "dans la Capitale" in capital and "Cité" not in capital.split(":")[0]
    # the colour's effect is told as what that player does, never as the rule's imperative
    assert "placez" not in capital and "piochez" not in capital and "il pioche un modificateur" in capital


def test_the_terminal_says_you_in_whole_sentences_and_french_typography() -> None:
    fr = translator("fr")
    event = Event("hand_to_hometown", 0, (Card("B", 5),))
    assert event_sentence(fr, event, 0, TERMINAL).startswith("Fin de manche") and "(vous)" not in event_sentence(
        fr, event, 0, TERMINAL)
    assert "Joueur 1" in event_sentence(fr, Event("hand_to_hometown", 1, (Card("B", 5),)), 0, TERMINAL)
    text = view_text(fr, view(Game(2, 1).state, 0))
    assert f"Capitale{NBSP}: " in text


def test_a_french_terminal_game_reads_french(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 200))
    status = main(["play", "--players", "2", "--bots", "rule", "--seed", "4", "--lang", "fr"])
    out = capsys.readouterr().out
    assert status == 0
    for english in (" plays ", " picks ", "Round ", "Player ", "Capital:", " into the "):
        assert english not in out, english
    assert "Joueur 1 choisit des cartes, face cachée." in out


@pytest.mark.parametrize(("lang", "written"), [("en", "262,144"), ("fr", "262\u202f144"), ("pt", "262.144")])
def test_a_refusal_writes_its_numbers_in_the_readers_locale(lang: str, written: str) -> None:
    from capital_lux.engine.position import MAX_INPUT_BYTES, loads_position

    with pytest.raises(CapitalLuxError) as caught:
        loads_position("x" * (MAX_INPUT_BYTES + 1))
    said = translator(lang).refusal(caught.value)
    assert written.replace(",", "").replace(".", "").replace("\u202f", "") == str(MAX_INPUT_BYTES)
    assert written in said and str(MAX_INPUT_BYTES) not in said
    assert str(caught.value).count(str(MAX_INPUT_BYTES)) == 1  # the English message stays plain


def test_every_page_shows_refusals_through_the_translator() -> None:
    """``Translator.refusal`` writes a refusal's numbers in the reader's locale; a direct
    ``error.translated(t.gettext)`` would leave them as Python prints them."""
    from pathlib import Path

    import capital_lux

    package = Path(capital_lux.__file__).parent
    direct = [str(path.relative_to(package)) for path in package.rglob("*.py")
              if ".translated(" in path.read_text() and path.parts[-2:] not in (("engine", "errors.py"),
                                                                                  ("i18n", "__init__.py"))]
    assert direct == []
