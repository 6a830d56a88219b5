"""Capital Lux: a rules engine, players, probabilities and a tutor for the card game."""

from .cards import COLOURS, Card, CapitalLuxError, NotationError
from .game import Game, GameRecord, play_game, random_policy, replay, resolve_chance, sample_chance
from .notation import Action, CardDrawn, ModifierDrawn, Pick, PlaceModifier, Play, SaveWithGold, TakeLowest, parse_action
from .state import CHANCE, TERMINAL, GameState, IllegalActionError, new_game

__all__ = [
    "COLOURS", "Card", "CapitalLuxError", "NotationError",
    "Game", "GameRecord", "play_game", "random_policy", "replay", "resolve_chance", "sample_chance",
    "Action", "CardDrawn", "ModifierDrawn", "Pick", "PlaceModifier", "Play", "SaveWithGold", "TakeLowest",
    "parse_action", "CHANCE", "TERMINAL", "GameState", "IllegalActionError", "new_game",
]
