"""The command line's round end as the page's: before the gold question, each Hometown colour
against its revealed limit, what exceeding costs, and the gold held, in the reader's language."""

from __future__ import annotations

import io
import random

import pytest

from capital_lux.cli.main import gold_check_lines, play_terminal
from capital_lux.engine.game import Game
from capital_lux.engine.rules import over_limit
from capital_lux.engine.state import GOLD
from capital_lux.engine.views import view
from capital_lux.i18n import translator
from capital_lux.players.bots import parse_bot


def _first_gold_game() -> tuple[int, object]:
    """A seed where seat 0, always playing its first legal move against rule bots, decides on gold."""
    for seed in range(60):
        game, rng, bot = Game(2, seed), random.Random(seed + 1), parse_bot("rule")
        while not game.state.is_terminal():
            v = view(game.state, game.state.current)
            if v.viewer == 0 and v.phase == GOLD:
                return seed, v
            game.play(v.legal_actions[0] if v.viewer == 0 else bot.choose(v, rng))
    raise AssertionError("no seed reaches a gold decision")


@pytest.mark.parametrize("lang", ["en", "fr", "es", "pt"])
def test_the_gold_question_comes_with_the_limit_check(lang: str) -> None:
    t = translator(lang)
    _, v = _first_gold_game()
    lines = gold_check_lines(t, v)  # type: ignore[arg-type]
    assert lines[0] == t.gettext("Round end: your limits")
    over = {c: over_limit(len(v.hometowns[0][c]), sum(v.hometowns[0][c]), v.capital_total(c))  # type: ignore[attr-defined]
            for c in v.hometowns[0] if v.hometowns[0][c]}  # type: ignore[attr-defined]
    assert any(over.values())  # a gold decision: something exceeds
    for n in (x for x in over.values() if x):
        said = t.ngettext("exceeds by {n}: pay {n} gold disc to keep these cards, or discard them",
                          "exceeds by {n}: pay {n} gold discs to keep these cards, or discard them", n).format(n=n)
        assert any(said in line for line in lines)
    gold = v.gold[0]  # type: ignore[attr-defined]
    assert t.ngettext("You have {n} gold disc.", "You have {n} gold discs.", gold).format(n=gold) in lines[-1]


def test_the_terminal_game_shows_the_limit_check_before_asking_about_gold() -> None:
    seed, _ = _first_gold_game()
    out = io.StringIO()
    play_terminal(2, 0, ["rule"], seed, translator("en"), io.StringIO("1\n" * 400), out)
    text = out.getvalue()
    assert "Round end: your limits" in text and "exceeds by" in text
    assert text.index("Round end: your limits") < text.index("Your move?", text.index("Round end: your limits"))
