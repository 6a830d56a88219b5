"""Golden playthroughs: whole games written once (tests/golden/make_golden.py), checked on every run."""

import json
import sys
from pathlib import Path

import pytest

from capital_lux.engine.game import Game
from capital_lux.engine.notation import CardDrawn, ModifierDrawn
from capital_lux.engine.position import loads_record, position_dict

GOLDEN = Path(__file__).parent / "golden"
sys.path.insert(0, str(GOLDEN))
from make_golden import GAMES  # noqa: E402


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_game_replays_exactly(name: str) -> None:
    data = json.loads((GOLDEN / f"{name}.json").read_text())
    record = loads_record(json.dumps(data["record"]))  # also checks the recorded scores
    final = record.replay()
    assert position_dict(final) == data["final"]
    # The same seed and the same decisions give the same chance outcomes.
    game = Game(record.players, record.seed)
    for action in record.actions:
        if isinstance(action, (CardDrawn, ModifierDrawn)):
            continue
        game.play(action)
    assert [str(a) for a in game.state.history] == data["record"]["actions"]
