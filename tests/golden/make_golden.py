"""Write the golden playthroughs once: ``python tests/golden/make_golden.py``.

Each file holds a whole seeded game (the first legal action chosen at every other
decision, a seeded random one otherwise) as a record, with its final position.
``tests/test_golden.py`` replays them on every run; regenerate only when a rules
change is intended, and say so in the commit.
"""

import json
import random
from pathlib import Path

from capital_lux.engine.game import Game
from capital_lux.engine.position import position_dict, record_dict

GAMES = {"2p-seed-1": (2, 1), "3p-seed-2": (3, 2), "4p-seed-3": (4, 3)}


def play(players: int, seed: int) -> Game:
    game, rng = Game(players, seed), random.Random(seed)
    while not game.state.is_terminal():
        actions = game.state.legal_actions()
        game.play(actions[0] if len(game.state.history) % 2 else rng.choice(actions))
    return game


if __name__ == "__main__":
    for name, (players, seed) in GAMES.items():
        game = play(players, seed)
        data = {"record": record_dict(game.record(), game.state.scores()), "final": position_dict(game.state)}
        Path(__file__).with_name(f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
