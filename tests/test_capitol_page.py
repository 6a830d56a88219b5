"""Capitol's page in plain pytest: a whole game through its widgets, a move refused with the rules'
sentence and nothing changed, the page said in four languages, the auction chance shown with what
it is (exact, or simulated with its sample count and interval), and a page drawn only from the
learner's view (other hands behind the same view draw the same widgets)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import ipywidgets as W
import pytest

from capital_lux.capitol.notation import parse_action
from capital_lux.capitol.rules import apply
from capital_lux.capitol.state import BID
from capital_lux.capitol.views import view
from capital_lux.tutor.capitol_app import CapitolApp, build_app, options_from_query


def app(lang: str = "en", players: int = 2, seed: int = 3, bots: str = "rule") -> CapitolApp:
    page: CapitolApp = build_app(lang, players, seed, bots)._capitol
    page.samples = 40  # the page's figure itself is checked in test_capitol_auction; here only its words
    return page


def widget_state(widget: W.Widget) -> list[dict[str, Any]]:
    """Every widget's state under ``widget``, as the browser would receive it (images as bytes)."""
    found = [widget.get_state()]
    for child in getattr(widget, "children", ()):
        found += widget_state(child)
    return found


def test_a_whole_game_through_the_widgets_ends_with_the_scores_and_replays_the_same() -> None:
    page = app(players=2, seed=3, bots="random")
    played = []
    while not page.state.is_terminal():
        options = [value for _, value in page.moves.options]
        assert options == [str(a) for a in view(page.state, 0).legal_actions]  # every legal move offered
        assert page.moves.value in options  # one shown chosen, never a blank choice
        choice = options[len(played) % min(3, len(options))]
        page.moves.value = choice
        page.play_chosen()
        played.append(choice)
        assert "cl-capitol-refused" not in page.message.value
    assert page.state.round == 4 and len(page.state.round_scores) == 4
    for score in page.state.scores:
        assert str(score) in page.message.value
    assert "The game is over" in page.phase.value
    assert "Scoring of round 4: " in page.log.value  # the scoring phase, said in the log
    assert not page.moves.options and page.play_button.disabled
    # the same seed and the same moves give the same game
    again = app(players=2, seed=3, bots="random")
    for choice in played:
        again._play_text(choice)
    assert again.state == page.state


def test_an_illegal_move_is_refused_with_its_sentence_and_changes_nothing() -> None:
    page = app("fr", players=3, seed=5)
    before, log = page.state, page.log.value
    hand = page.state.hands[0]
    permit = next(card for card in hand if card.kind in "BPM")
    page.typed.value = f"{permit} 2r {permit.kind}2"  # a first building of two storeys
    page.play_typed()
    assert page.state is before and page.log.value == log
    assert "cl-capitol-refused" in page.message.value
    assert f"Le premier immeuble de la zone {permit.kind}2 doit avoir un seul étage." in page.message.value
    page.typed.value = "R9 1r"  # no such card
    page.play_typed()
    assert page.state is before and "n&#x27;est pas une carte de Capitol" in page.message.value
    assert page.typed.value == "R9 1r"  # what the learner typed is kept after a refusal
    # the permits' panel says where a permit cannot go and why, before the learner tries
    assert f"2r dans {permit.kind}2 : Le premier immeuble de la zone {permit.kind}2 doit avoir un seul étage." \
        in page.why_not.value.replace("\u00a0", " ")


def test_the_page_in_four_languages_keeps_the_game() -> None:
    page = app("en", players=3, seed=7)
    page._play_text("pass")
    state = page.state
    page.moves.value = page.moves.options[-1][1]
    said = {}
    for lang in ("fr", "es", "pt", "en"):
        page.set_language(lang)
        said[lang] = (page.phase.value, page.lesson.value, page.board.value, page.title.value)
        assert page.state is state and page.moves.value == page.moves.options[-1][1]  # the choice kept
    assert len({texts for texts in said.values()}) == 4
    assert "Zone B1 (bleue)" in said["fr"][2] and "Zona B1 (azul)" in said["es"][2]
    assert "Tour 1 sur 4" in said["fr"][0] and "Ronda 1 de 4" in said["es"][0] and "Rodada 1 de 4" in said["pt"][0]


def test_the_auction_chance_says_what_it_is_beside_the_bid() -> None:
    page = app(players=3, seed=11)
    while page.state.phase != BID:
        page._play_text(str(view(page.state, 0).legal_actions[0]))
    assert page.chart.layout.display != "none" and page.chart.value[:8] == b"\x89PNG\r\n\x1a\n"
    assert "cannot win" in page.chance.value  # nothing offered yet
    card = max(page.state.hands[0], key=lambda c: c.value)
    page._play_text(f"offer {card}")
    text = page.chance.value
    assert f"Chance that your bid {card} wins" in text
    assert ("exact" in text) or ("simulated over 40 deals" in text and "[" in text)
    page._play_text("stop")
    if page.state.phase != BID or page.state.current != 0:
        assert page.chance.value == "" or "Chance" in page.chance.value


def test_the_page_is_drawn_from_the_learners_view_only() -> None:
    page = app(players=3, seed=4)
    for _ in range(12):  # into the game, through an auction if one comes
        if page.state.is_terminal():
            break
        page._play_text(str(view(page.state, 0).legal_actions[-1]))
    drawn = widget_state(page.root)
    state = page.state
    # the bots' hands exchanged (equal sizes) or dealt anew from their own cards: the same view
    hands = list(state.hands)
    pool = sorted(hands[1] + hands[2])
    random.Random(1).shuffle(pool)
    hands[1], hands[2] = tuple(sorted(pool[:len(hands[1])])), tuple(sorted(pool[len(hands[1]):]))
    other = replace(state, hands=tuple(hands), seed=state.seed + 1)
    assert view(other, 0) == view(state, 0)
    page.state = other
    page._chances = None
    page.seed = state.seed  # the simulation's own seed is the page's, not the deal's
    page.render()
    assert widget_state(page.root) == drawn


def test_the_query_sets_the_game_and_a_bad_one_keeps_the_defaults() -> None:
    assert options_from_query("lang=fr&players=4&seed=7&bots=random") == {
        "lang": "fr", "players": 4, "seed": 7, "bots": "random"}
    assert options_from_query("players=9&seed=-1&bots=oracle") == {"lang": "en"}


@pytest.mark.parametrize("text", ["pass", "stop", "offer F3", "draw roof"])
def test_a_move_out_of_its_phase_is_refused_and_the_game_goes_on(text: str) -> None:
    page = app(players=2, seed=9)
    before = page.state
    try:
        apply(before, parse_action(text))
        legal = True
    except ValueError:
        legal = False
    page.typed.value = text
    page.play_typed()
    assert (page.state is before) is not legal
    assert ("cl-capitol-refused" in page.message.value) is not legal


def test_new_game_takes_the_players_and_bots_chosen_and_a_fresh_deal() -> None:
    page = app(players=2, seed=1)
    first = page.state
    page.players_pick.value, page.bots_pick.value = 4, "random"
    page.new_game.click()
    assert page.state.players == 4 and [bot.name for bot in page.bots] == ["random"] * 4
    assert page.state.current == 0  # the bots have moved up to the learner's turn
    assert page.state is not first and page.message.value == "" and "Player 0 (you)" in page.phase.value
