"""Capital Lux: a rules engine, players, probabilities and a tutor for the card game."""

# First, before any of the kernel's modules: compiled by mypyc or pure Python (CAPITAL_LUX_PURE=1).
from .compiled import install as _install_kernel_implementation

_install_kernel_implementation()

from .engine.cards import COLOURS, Card, CapitalLuxError, NotationError
from .engine.game import Game, GameRecord, play_game, random_policy, replay, resolve_chance, sample_chance
from .engine.notation import Action, CardDrawn, ModifierDrawn, Pick, PlaceModifier, Play, SaveWithGold, TakeLowest, parse_action
from .engine.state import CHANCE, TERMINAL, GameState, IllegalActionError, new_game

__all__ = [
    "COLOURS", "Card", "CapitalLuxError", "NotationError",
    "Game", "GameRecord", "play_game", "random_policy", "replay", "resolve_chance", "sample_chance",
    "Action", "CardDrawn", "ModifierDrawn", "Pick", "PlaceModifier", "Play", "SaveWithGold", "TakeLowest",
    "parse_action", "CHANCE", "TERMINAL", "GameState", "IllegalActionError", "new_game",
]
