"""A reload of the Capitol page resumes its game, through the tutor's own keeping (``tutor.keep``):
the browser holds a token only, the server the seed and the learner's moves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from capital_lux.i18n import translator
from capital_lux.tutor import keep
from capital_lux.tutor.capitol_app import STORAGE_KEY, CapitolApp, page_script


@pytest.fixture(autouse=True)
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "saves"
    monkeypatch.setenv("CAPITAL_LUX_SAVES", str(folder))
    return folder


def played(page: CapitolApp, moves: int) -> None:
    for _ in range(moves):
        page._play_text(str(page.moves.value))


def test_a_reloaded_page_offers_the_game_and_resumes_it_move_for_move(saves: Path) -> None:
    page = CapitolApp("en", players=3, seed=None, bots="random")  # a secret seed, random bots: the rng matters
    assert page.tag.value == ""  # nothing kept before the learner's first move
    played(page, 12)
    token = page.token
    assert f'data-cl-save="{token}"' in page.tag.value
    kept = json.loads((saves / f"{token}.json").read_text())
    assert kept["game"] == "capitol" and len(kept["script"]) == 12
    assert str(page.seed) not in page.tag.value  # the browser gets the token, never the seed

    again = CapitolApp("fr", players=2, seed=5)  # the reloaded page starts a game of its own
    assert again.offer.layout.display == "none"
    again.token_in.value = token  # the page's script hands the token back
    assert again.offer.layout.display is None and "reprendre" in again.offer_text.value
    again.resume_button.click()
    assert again.offer.layout.display == "none"
    assert again.state == page.state and again.players_pick.value == 3 and again.bots_pick.value == "random"
    assert "Votre partie reprend" in again.message.value
    played(page, 5)
    played(again, 5)  # the bots' generator is where it was: the same moves give the same game
    assert again.state == page.state and again.token == token


def test_a_token_of_nothing_or_of_a_game_under_way_offers_nothing(saves: Path) -> None:
    page = CapitolApp("en", players=2, seed=3)
    played(page, 2)
    other = CapitolApp("en", players=2, seed=4)
    for token in ("0" * 32, "not a token", page.token.upper()):
        other.token_in.value = token
        assert other.offer.layout.display == "none"
    played(other, 1)
    other.token_in.value = page.token  # a game under way is not replaced
    assert other.offer.layout.display == "none"
    keep.write("1" * 32, {"players": 2, "seed": 3, "bots": "rule", "script": ["pass"], "over": False})
    fresh = CapitolApp("en", players=2, seed=4)
    fresh.token_in.value = "1" * 32  # a Capital Lux game, not Capitol's
    assert fresh.offer.layout.display == "none"


def test_a_kept_game_that_does_not_replay_is_refused_with_a_sentence(saves: Path) -> None:
    keep.write("2" * 32, {"game": "capitol", "players": 2, "seed": 3, "bots": "rule", "script": ["R9 1r"],
                          "over": False})
    page = CapitolApp("es", players=2, seed=4)
    page.token_in.value = "2" * 32
    page.resume_button.click()
    assert "no se puede reanudar" in page.message.value and page.script == []
    assert page.moves.options  # a new game is ready


def test_the_page_script_keeps_capitols_token_apart_from_the_tutors() -> None:
    script = page_script("fr")
    assert json.dumps(STORAGE_KEY) in script and json.dumps(keep.STORAGE_KEY) not in script


def test_the_kernel_echoes_the_page_scripts_ping_and_nothing_else() -> None:
    page = CapitolApp("en", players=2, seed=3)
    page.alive.ping.value = "1700000000000"
    assert page.alive.pong.value == '<span data-cl-pong="1700000000000"></span>'
    page.alive.ping.value = '"><script>'
    assert page.alive.pong.value == '<span data-cl-pong="1700000000000"></span>'


@pytest.mark.parametrize("lang", ["en", "fr", "es", "pt"])
def test_capitols_sentences_name_its_game_and_the_tutorials_its_free_game(lang: str) -> None:
    t = translator(lang)
    capitol_lost, tutorial_lost = t.gettext(keep.LOST["capitol"]), t.gettext(keep.LOST["tutorial"])
    assert json.dumps(capitol_lost) in page_script(lang) and json.dumps(tutorial_lost) in keep.page_script(lang)
    for sentence in (capitol_lost, t.gettext(keep.OFFER["capitol"])):
        assert "Capitol" in sentence
    assert "Capitol" not in tutorial_lost + t.gettext(keep.OFFER["tutorial"])
    page = CapitolApp(lang, players=2, seed=3)
    assert "Capitol" in page.offer_text.value
