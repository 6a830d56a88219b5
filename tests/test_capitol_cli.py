"""``capital-lux capitol play`` and ``simulate``: whole games through the terminal, in the
reader's language, with refusals explained and records that replay."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from capital_lux.capitol.record import loads_record
from capital_lux.cli.capitol import play_terminal, simulate
from capital_lux.cli.main import main
from capital_lux.i18n import translator


class FirstLegalMove(io.StringIO):
    """A player at the terminal who asks for the legal moves ('?') and types the first one listed."""

    def __init__(self, out: io.StringIO, first: list[str], lang: str = "en") -> None:
        super().__init__()
        self.out, self.first, self.asked = out, first, False
        self.legal = translator(lang).gettext("Legal moves: {moves}").split("{")[0]

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if self.first:
            return self.first.pop(0) + "\n"
        if not self.asked:
            self.asked = True
            return "?\n"
        self.asked = False
        listed = self.out.getvalue().rpartition(self.legal)[2]
        return listed.split(",")[0].strip() + "\n"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_whole_game_is_played_at_the_terminal(lang: str) -> None:
    out = io.StringIO()
    state = play_terminal(2, 0, ["rule"], 12, translator(lang), FirstLegalMove(out, ["F9", "stop"], lang), out)
    text = out.getvalue()
    assert state.is_terminal() and len(state.round_scores) == 4
    refused = translator(lang).gettext("During construction a player plays a card or passes: {action} is neither.")
    assert refused.format(action="stop") in text  # refused, explained, and the game went on
    assert ("is not a Capitol card" in text) == (lang == "en")
    assert translator(lang).gettext("Top of the piles: roofs {roof}, floors {floor}, permits {permit}.")[:8] in text
    assert str(state.scores[1]) in text.splitlines()[-1]


def test_the_others_hands_never_reach_the_terminal() -> None:
    out = io.StringIO()
    state = play_terminal(3, 1, ["rule"], 5, translator("en"), FirstLegalMove(out, []), out)
    first_hands = [line for line in out.getvalue().splitlines() if line.startswith("Your hand:")][0]
    assert state.is_terminal() and first_hands.startswith("Your hand: ")
    for line in out.getvalue().splitlines():
        if line.startswith(("Player 0:", "Player 2:")):
            move = line.split(": ", 1)[1]
            assert move.startswith(("pass", "offer ?", "stop", "place", "draw")) or move[1] == "?", line


def test_simulate_reports_wins_scores_and_speed() -> None:
    out = io.StringIO()
    assert simulate(3, ["rule", "random"], 6, 40, translator("fr"), out.write) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("6 parties de Capitol à 3 joueurs, graines 40 à 45")
    assert len(lines) == 5 and "processeur" in lines[-1]


def test_the_command_line_plays_and_writes_a_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("pass\n" * 400))
    with pytest.raises(SystemExit):
        main(["capitol", "simulate", "--bots", "rule,oracle", "--games", "2", "--lang", "es"])
    assert "no es un bot de Capitol" in capsys.readouterr().err
    main(["capitol", "play", "--players", "2", "--seed", "8", "--record", str(record)])
    state = loads_record(record.read_text())
    assert state.seed == 8 and state.history
    assert main(["capitol", "simulate", "--games", "2", "--players", "2"]) == 0
    assert "2 games of Capitol with 2 players" in capsys.readouterr().out
    random.Random(0)


def test_play_checks_its_seat_and_record_as_the_house_play_does_before_any_move(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    taken = tmp_path / "game.json"
    taken.write_text("kept")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    for argv, said in ((["--seat", "3"], "--seat doit être compris entre 0 et 2"),
                       (["--record", str(taken)], "existe déjà")):
        with pytest.raises(SystemExit) as stopped:
            main(["capitol", "play", "--players", "3", "--seed", "1", "--lang", "fr", *argv])
        assert stopped.value.code == 2 and said in capsys.readouterr().err.replace("\u00a0", " ")
    assert taken.read_text() == "kept"
    monkeypatch.setattr("sys.stdin", io.StringIO("pass\n" * 400))
    assert main(["capitol", "play", "--players", "2", "--seed", "2", "--record", str(taken), "--force"]) == 0
    assert loads_record(taken.read_text()).seed == 2 and "Record written to" in capsys.readouterr().out


def test_the_capitol_benchmark_measures_games_a_second() -> None:
    from capital_lux.cli import bench
    figures = bench.capitol(repeats=1, games=1)
    assert set(figures) >= {"capitol_random_games_per_second_2p_cpu", "capitol_rule_games_per_second_4p_wall"}
    assert all(value > 0 for value in figures.values())
    assert "capitol" in bench.BENCHMARKS
