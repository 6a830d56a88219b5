"""Why a card cannot be played: the rules' reason for each floor, roof and permit card of the
hand that cannot be played with its action, agreeing with the legal moves, and on the page."""

from __future__ import annotations

import random
from dataclasses import replace

from capital_lux.capitol.bots import RandomBot
from capital_lux.capitol.notation import PlayOnly
from capital_lux.capitol.rules import apply, card_refusal, legal_actions
from capital_lux.capitol.state import BUILD, new_game
from capital_lux.capitol.views import view
from capital_lux.tutor.capitol_app import CapitolApp


def test_a_card_is_refused_exactly_when_no_legal_move_plays_it_with_its_action() -> None:
    refused = {"F": 0, "R": 0, "permit": 0}
    for seed in range(6):
        state, rng, bot = new_game(2 + seed % 3, seed), random.Random(seed), RandomBot()
        while not state.is_terminal():
            if state.phase == BUILD:
                with_action = {getattr(a, "card") for a in legal_actions(state)
                               if not isinstance(a, PlayOnly) and hasattr(a, "card")}
                for card in set(state.hands[state.current]):
                    error = card_refusal(state, card)
                    assert (error is None) == (card in with_action), (seed, str(card), error)
                    if error is not None:
                        refused[card.kind if card.kind in "FR" else "permit"] += 1
            state = apply(state, bot.choose(view(state, state.current), rng))
    # the random games met refused roofs and permits (floors run out only in the test below)
    assert refused["R"] > 0 and refused["permit"] > 0, refused
    state = replace(new_game(2, 1), floor_supply=0)
    floor = next(card for card in state.hands[0] if card.kind == "F")
    assert card_refusal(state, floor) is not None
    assert not any(getattr(a, "card", None) == floor and not isinstance(a, PlayOnly) for a in legal_actions(state))


def test_the_page_lists_each_card_it_cannot_play_with_the_rules_reason() -> None:
    page = CapitolApp("en", players=2, seed=1)
    hand = page.state.hands[0]
    roof = next(card for card in hand if card.kind == "R")
    # at the start nothing is under construction: a roof card has nothing to finish
    assert (f"{roof}: You have no building under construction: a roof card can only be played without its action."
            in page.why_not.value)
    permit = next(card for card in hand if card.kind in "BPM")
    assert f"{permit}:" not in page.why_not.value  # a permit fits a first building of one storey
    page.state = replace(page.state, floor_supply=0, finished=((),) + page.state.finished[1:])
    page.set_language("fr")
    text = page.why_not.value.replace("\u00a0", " ")
    floor = next(card for card in hand if card.kind == "F")
    assert f"{floor} : " in text and "Il ne reste plus d&#x27;étage" in text, text
    assert f"{permit} : Vous n&#x27;avez aucun immeuble terminé" in text, text
    assert "Les cartes que vous ne pouvez pas jouer maintenant, et pourquoi" in text
