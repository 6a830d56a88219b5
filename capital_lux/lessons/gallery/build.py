"""Write the gallery's positions: ``python -m capital_lux.lessons.gallery.build``.

Every position is either reached by a seeded game (``game.Game``, replayed from its
record) or laid out card by card with ``whatif.build_position``; each one is
checked by ``position.position_from_dict`` before it is written. The rulebook's
examples use seats 0, 1, 2 for John, Mary and Bob (John starts, Mary sits to his
left, ruling R5).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Callable

from ...engine.game import Game, replay, resolve_chance
from ...engine.notation import Action, Play
from ...engine.position import PositionDict, position_dict, position_from_dict
from ...engine.state import DEAL, PLAY, GameState
from ..whatif import build_position

HERE = Path(__file__).resolve().parent


def first_deal(players: int = 3, seed: int = 11) -> PositionDict:
    """The deal of round 1 of a seeded game, before any card is dealt."""
    game = Game(players, seed=seed)
    history = game.state.history
    for k in range(len(history) + 1):
        state = replay(players, history[:k])
        if state.phase == DEAL:
            return position_dict(state)
    raise AssertionError("no deal phase")  # pragma: no cover


def _green_first(state: GameState, rng: random.Random) -> Action:
    """A policy that plays Scholars into the capital when it can (to thin the deck)."""
    actions = state.legal_actions()
    greens = [a for a in actions if isinstance(a, Play) and a.card.colour == "G" and a.to == "capital"]
    return greens[0] if greens else rng.choice(actions)


def short_deck(seed_from: int = 0) -> PositionDict:
    """A 4-player game late in round 2: one last turn to come and exactly 20 cards
    in the deck, so that one more Scholar draw makes round 3 short (ruling R15)."""
    for seed in range(seed_from, seed_from + 5000):
        rng = random.Random(seed)
        game = Game(4, seed=seed)
        while not game.state.is_terminal() and game.state.round <= 2:
            s = game.state
            if (
                s.round == 2 and s.phase == PLAY and s.last_turns is not None and len(s.last_turns) == 1
                and s.deck_size() == 20 and len(s.hands[s.last_turns[0]]) == 2 and len(s.hands[s.current]) == 1
            ):
                return position_dict(s)
            game.play(_green_first(s, rng))
            resolve_chance(game.state, rng)
    raise AssertionError("no seed gives a short deck")  # pragma: no cover


def modifiers_round_2() -> PositionDict:
    """Round 2, seat 0 to play; two face-down modifiers above the Merchant."""
    return build_position(
        3, round=2, current=0, starting=0,
        hands=[["G5", "Y3", "B4", "P2"], ["B2", "G2", "Y6", "P3"], ["B6", "G4", "P5", "Y3"]],
        hometowns=[["Y6", "G4", "P3", "P5", "B5"], ["B5", "G3", "Y2", "Y3", "P2", "P6"], ["P6", "G6", "B4", "Y2", "G5"]],
        capital=["B2", "B3", "B6", "G2", "G3", "P4", "Y4", "Y5", "P3", "B4", "G6"],
        modifiers_above=[("Y", 1, 4), ("Y", 2, -3), ("B", 0, -1)],
        gold=[1, 2, 0],
        bonus=[["G6"], ["P5"], ["Y6"]],
        discards=["B3", "B4", "B6", "P4", "P6", "Y5"],
    )


def agent_drew() -> PositionDict:
    """Round 1: seat 0 played an Agent and holds the -1 just drawn; seat 1's modifier
    lies face down above the Merchant."""
    return build_position(
        3, round=1, phase="agent", current=0, starting=1,
        hands=[["Y3", "Y5", "G6", "P2", "B2"], ["B3", "G4", "G5", "P6", "Y2"], ["B6", "G2", "P4", "Y4", "Y6"]],
        hometowns=[[], [], ["G2"]],
        capital=["P3", "B5", "B4"],
        modifiers_above=[("Y", 1, 2)],
        pending=-1,
        setup=[2, 4, -3],
    )


def last_turn() -> PositionDict:
    """Round 2: seat 0 takes the very last turn with Y5; seat 2 still holds one card
    that goes to their hometown at the round end. Seat 2 started the round."""
    return build_position(
        3, round=2, current=0, starting=2, last_turns=[],
        hands=[["Y5"], [], ["G3"]],
        hometowns=[
            ["Y3", "Y5", "B2", "B3", "G4", "G5", "P3"],
            ["Y4", "B5", "B6", "G2", "G6", "P2", "P4", "P5"],
            ["Y5", "B3", "B4", "G3", "P6", "P2"],
        ],
        capital=["Y2", "Y4", "Y5", "B4", "B5", "B6", "G4", "G5", "P3", "P4", "P5", "G6"],
        modifiers_above=[("Y", 2, -1), ("B", 0, 2)],
        gold=[3, 1, 0],
        bonus=[["G6", "B6"], ["P6"], ["Y6", "B5"]],
        discards=["P2", "P3", "G2", "G3"],
    )


def rulebook_agent() -> PositionDict:
    """Rulebook: Bob (seat 2) has played a blue card into the Capital and looks at the
    modifier he drew, +2, before placing it (he chooses the Merchant in the example)."""
    return build_position(
        3, round=1, phase="agent", current=2, starting=0,
        hands=[["B3", "G5", "P4", "Y2", "Y6"], ["G3", "P5", "P2", "Y4", "B6"], ["G2", "G6", "P3", "Y5", "B2"]],
        hometowns=[["Y3"], ["G4"], []],
        capital=["Y4", "B5"],
        pending=2,
        setup=[4, -1, -3],
    )


def rulebook_cleric() -> PositionDict:
    """Rulebook: Mary (seat 1) has played a pink card into the Capital and chooses
    which colour's lowest card to take (she takes the lowest blue in the example)."""
    return build_position(
        3, round=1, phase="cleric", current=1, starting=0,
        hands=[["B3", "G5", "Y2", "Y6"], ["G3", "P2", "Y4"], ["G2", "G6", "P3", "Y5"]],
        hometowns=[["Y3"], ["G4"], ["P4"]],
        capital=["Y4", "B5", "B3", "G2", "P5", "B6"],
        modifiers_above=[("Y", 2, 4)],
        setup=[4, -1, -3],
    )


def rulebook_bonus() -> PositionDict:
    """Rulebook: John, Mary and Bob have the same yellow total; the Capital's yellow
    cards are a 6 and a 4. Bob takes the very last turn; John started the round."""
    return build_position(
        3, round=1, current=2, starting=0, last_turns=[],
        hands=[[], [], ["G3"]],
        hometowns=[["Y5", "Y2", "B3", "G4"], ["Y3", "Y4", "P5", "B2"], ["Y2", "Y5", "G5", "P2"]],
        capital=["Y4", "Y6", "B5", "G6", "P4", "B6"],
        modifiers_above=[("Y", 0, 4), ("B", 2, -1)],
        gold=[1, 1, 0],
    )


def rulebook_round_end() -> PositionDict:
    """Rulebook: at the round end seat 0 exceeds in blue (by 1), yellow (by 2) and pink
    (by 3) and holds 4 gold discs; paying 3 keeps blue and yellow, pink is discarded."""
    return build_position(
        2, round=1, phase="gold", current=0, starting=0,
        hometowns=[["B5", "B4", "Y6", "Y4", "P6", "G2"], ["G5", "G3", "P3"]],
        capital=["B3", "B6", "Y5", "Y3", "P2", "P4", "G4", "G6"],
        modifiers_above=[("B", 1, -1), ("P", 0, -3), ("G", 1, 2)],
        gold=[4, 1],
    ) | {"gold_decisions": {"waiting": [0], "choices": [None, None]}}


GALLERY: dict[str, Callable[[], PositionDict]] = {
    "rulebook-agent": rulebook_agent,
    "rulebook-cleric": rulebook_cleric,
    "rulebook-bonus": rulebook_bonus,
    "rulebook-round-end": rulebook_round_end,
    "first-deal": first_deal,
    "modifiers-round-2": modifiers_round_2,
    "agent-drew": agent_drew,
    "last-turn": last_turn,
    "short-deck": short_deck,
}


def build(name: str) -> PositionDict:
    data = GALLERY[name]()
    position_from_dict(data)  # refuse to write an impossible position
    return data


def main() -> None:
    for name in GALLERY:
        data = build(name)
        (HERE / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n", "utf-8")
        print(name, "deck", len(data["deck"]))


if __name__ == "__main__":
    main()
