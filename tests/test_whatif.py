"""The what-if explorer: building, editing, loading, playing on and exporting positions,
and its app driven through its widgets."""

from __future__ import annotations

import json
from typing import Any

import pytest

from capital_lux.lessons import gallery
from capital_lux.engine.cards import NotationError
from capital_lux.engine.game import random_policy
from capital_lux.engine.notation import Play, parse_action
from capital_lux.engine.position import PositionError, dumps_position, position_from_dict
from capital_lux.engine.state import IllegalActionError
from capital_lux.engine.views import view
from capital_lux.lessons.whatif import (
    as_dict,
    build_position,
    check,
    edit_gold,
    edit_last_turns,
    edit_modifiers,
    edit_turn,
    edit_zone,
    export_text,
    last_turns_text,
    load_text,
    modifiers_text,
    play_and_continue,
    read_upload,
    zone_text,
)


def test_build_position_puts_every_other_card_in_the_deck() -> None:
    data = build_position(3, round=1, hands=[["B5", "G3"], ["Y6"], ["P2"]], capital=["Y4"],
                          modifiers_above=[("Y", 1, 4)])
    state = position_from_dict(data)
    assert state.deck_size() == 72 - 5
    assert state.modifier_deck == [-3, -1, 2] and state.gold_pile == 8


@pytest.mark.parametrize(
    "edit, problem",
    [
        (lambda d: edit_zone(d, "capital", None, "Y4 Y6 Y6 Y6 Y6"), "Y6 appears 7 times; the game has 3"),
        (lambda d: edit_zone(d, "hands", 0, " ".join(["B5"] * 5)), "B5 appears 7 times; the game has 4"),
        (lambda d: edit_modifiers(d, "Y:1:+4 B:0:+4"), r"expected each of -3, -1, \+2, \+4 exactly once"),
        (lambda d: edit_modifiers(d, "Y:1:+4 B:0:+2 G:0:-1 P:1:-3 Y:0:+4"), "modifiers"),
        (lambda d: edit_gold(d, [5, 4, 0]), "gold discs add up to 9; the game has 8"),
        (lambda d: edit_turn(d, 1, 3, 0), "seat number is out of range"),
        (lambda d: edit_turn(d, 0, 0, 0), "does not fit round 0"),
    ],
)
def test_impossible_edits_are_refused_with_the_position_error(edit: Any, problem: str) -> None:
    data = as_dict(gallery.load("modifiers-round-2"))
    with pytest.raises(PositionError, match=problem):
        check(edit(data))


def test_a_73rd_card_is_refused() -> None:
    data = as_dict(gallery.load("last-turn"))
    data["deck"].append("G2")
    with pytest.raises(PositionError, match="73 cards in all"):
        check(data)


def test_last_turns_as_text() -> None:
    data = as_dict(gallery.load("last-turn"))
    assert last_turns_text(data) == "-"
    assert edit_last_turns(data, "")["last_turns"] is None
    assert last_turns_text(edit_last_turns(data, "2, 1")) == "2 1"
    with pytest.raises(PositionError, match="seats still to play"):
        edit_last_turns(data, "two")


def test_bad_card_text_and_bad_modifier_text() -> None:
    data = as_dict(gallery.load("last-turn"))
    with pytest.raises(NotationError, match="'Z9' is not a card"):
        edit_zone(data, "capital", None, "Y4 Z9")
    with pytest.raises(PositionError, match="colour:owner:value"):
        edit_modifiers(data, "Y+4")


def test_possible_edits_keep_72_cards_and_round_trip_as_text() -> None:
    data = as_dict(gallery.load("modifiers-round-2"))
    edited = edit_zone(data, "hometowns", 1, zone_text(data, "hometowns", 1) + " Y2")
    edited = edit_modifiers(edited, modifiers_text(edited).replace("Y:2:-3", "G:2:-3"))
    state = check(edited)
    assert state.deck_size() == gallery.load("modifiers-round-2").deck_size() - 1
    assert [v for _, v in state.modifiers_above["G"]] == [-3]
    assert load_text(export_text(state)) == state
    back = edit_zone(as_dict(state), "hometowns", 1, zone_text(data, "hometowns", 1))
    assert check(back).deck_size() == gallery.load("modifiers-round-2").deck_size()


def test_read_upload_takes_ipywidgets_8_values() -> None:
    text = gallery.text("rulebook-cleric")
    value = ({"name": "p.json", "type": "application/json", "size": len(text), "content": memoryview(text.encode())},)
    assert read_upload(value) == gallery.load("rulebook-cleric")
    with pytest.raises(PositionError, match="no file"):
        read_upload(())
    with pytest.raises(PositionError, match="not valid JSON"):
        read_upload(({"content": b"{"},))


def test_play_and_continue_stops_when_the_same_seat_decides_again() -> None:
    state = gallery.load("rulebook-bonus")
    before = dumps_position(state)
    bots = {p: random_policy for p in range(3) if p != 2}
    result = play_and_continue(state, parse_action("home G3"), seed=4, bots=bots, stop_for=2)
    assert dumps_position(state) == before  # the original is untouched
    assert result.state.round == 2 and result.state.current_player() == 2
    assert result.actions[0] == parse_action("home G3")
    again = play_and_continue(state, parse_action("home G3"), seed=4, bots=bots, stop_for=2)
    assert again.state == result.state  # seeded
    with pytest.raises(IllegalActionError):
        play_and_continue(state, parse_action("home B6"), seed=4, bots=bots, stop_for=2)


def test_gallery_has_the_rulebook_examples() -> None:
    agent = gallery.load("rulebook-agent")
    assert agent.phase == "agent" and agent.pending_modifier is not None
    cleric = gallery.load("rulebook-cleric")
    assert cleric.phase == "cleric" and len(cleric.legal_actions()) >= 2
    bonus = gallery.load("rulebook-bonus")
    assert len({bonus.hometown_total(p, "Y") for p in range(3)}) == 1 and bonus.capital["Y"] == [4, 6]
    end = gallery.load("rulebook-round-end")
    assert parse_action("save B Y") in end.legal_actions() and parse_action("save B P Y") not in end.legal_actions()


# -- the app ------------------------------------------------------------------------------------
def _app(**options: Any) -> Any:
    from capital_lux.tutor.whatif_app import WhatIfApp, build_app

    root = build_app(**options)
    app = root._whatif
    assert isinstance(app, WhatIfApp) and "cl-ready" in root._dom_classes
    return app


def test_app_loads_from_gallery_paste_and_upload() -> None:
    app = _app(name="rulebook-cleric")
    assert app.state == gallery.load("rulebook-cleric")
    assert app.seen_by.value == 1  # drawn from the view of the player to move
    app.load_gallery("last-turn")
    assert app.state == gallery.load("last-turn") and "cl-table" in app.table.value
    app.paste.value = gallery.text("agent-drew")
    app.load_pasted()
    assert app.state == gallery.load("agent-drew")
    app.paste.value = "{not json"
    app.load_pasted()
    assert 'data-error="1"' in app.message.value and "not valid JSON" in app.message.value
    assert app.state == gallery.load("agent-drew")  # refused: nothing changed
    app.load_upload(({"name": "x.json", "content": memoryview(gallery.text("first-deal").encode())},))
    assert app.state == gallery.load("first-deal")


def test_app_refuses_impossible_edits_with_the_message() -> None:
    app = _app(name="modifiers-round-2")
    before = app.state
    app.fields["capital"].value += " Y6 Y6 Y6"
    assert not app.apply_edits()
    assert "Y6 appears 6 times; the game has 3" in app.message.value and app.state == before
    app.load_gallery("modifiers-round-2")
    app.fields["modifiers"].value += " G:1:+4"
    assert not app.apply_edits() and "exactly once" in app.message.value
    app.load_gallery("modifiers-round-2")
    app.seat.value = 1
    app.fields["hometowns"].value += " Y2"
    app.fields["gold"].value = "2 2 0"
    assert app.apply_edits(), app.message.value
    assert app.state.hometown_total(1, "Y") == before.hometown_total(1, "Y") + 2 and app.state.gold == [2, 2, 0]
    app.fields["gold"].value = "two"
    assert not app.apply_edits() and "whole number" in app.message.value
    app.fields["gold"].value = "2 2 0"
    app.phase.value = "gold"
    assert not app.apply_edits() and "no player holds a hand in phase gold" in app.message.value
    app.phase.value = "play"
    app.last_turns.value = "1 2"
    assert app.apply_edits() and app.state.last_turns == [1, 2]
    app.last_turns.value = "0"
    assert not app.apply_edits() and "not the current player" in app.message.value


def test_app_analyses_every_move_and_plays_on() -> None:
    app = _app(name="last-turn")
    assert app.move.value == str(app.state.legal_actions()[0])  # a move is always chosen
    app.samples.value = 20
    app.analyse()
    app.wait_analysis(120)
    assert len(app.moves) == len(app.state.legal_actions()) == 2
    assert app.chart.value[:4] == b"\x89PNG" and app.analysis.value.count("<tr") == 3
    assert "cl-card" in app.analysis.value and "[" in app.analysis.value
    first = app.analysis.value
    app.analyse()
    app.wait_analysis(120)
    assert app.analysis.value == first  # seeded
    app.move.value = "capital Y5"
    app.play()
    assert app.state.round == 3 and app.state.current_player() == 0
    # cards as learners see them, in a whole sentence
    assert "You play ● Merchant 5 (yellow) into the Capital: as the Merchant, you take a gold disc." in app.log.value
    assert "card " not in app.log.value  # no chance outcome (a dealt card) is told


def test_app_ranks_to_the_game_end_with_the_one_ranking_and_the_chance_of_winning() -> None:
    from capital_lux.analysis.forward import rank_moves

    app = _app(name="modifiers-round-2")
    app.samples.value, app.horizon.value = 20, "game"
    app.analyse()
    ranking = app.wait_analysis(120)
    assert ranking is not None and ranking.horizon == "game" and ranking.games == 20
    v = view(app.state, app.state.current_player())
    k = len(v.legal_actions)
    assert ranking == rank_moves(v, "quick", "random", seed=1, games=20 * k, min_games=20, batch=5, horizon="game")
    html = app.analysis.value
    assert "Chance of winning" in html and "Expected final margin over the best other player" in html
    assert "played on to the game&#x27;s end" in html and "same 20 simulated deals" in html
    assert html.count("<tr") == k + 1 and html.count('class="cl-tied"') == ranking.tied - 1
    first = ranking.best.risk.game
    assert first is not None and f"<td>{first.p_win.mean:.0%} [" in html  # the first row's chance of winning
    assert app.chart.value[:4] == b"\x89PNG"


def test_app_says_when_its_figures_are_exact() -> None:
    app = _app(name="last-turn")
    app.samples.value, app.bot.value = 20, "rule"  # the round's last turns: small enough to count every case
    app.analyse()
    ranking = app.wait_analysis(120)
    assert ranking is not None and ranking.games == 0 and all(m.risk.exact for m in ranking.moves)
    note = app.analysis.value.split("<table")[0]
    assert "exact" in note and "rule-of-thumb bot" in note and "simulated" not in note
    assert "[" not in app.analysis.value.split("<table")[1]  # no interval on an exact figure


def test_app_lets_chance_act_and_exports() -> None:
    app = _app(name="first-deal")
    assert app.move.options == (("let chance decide (seeded)", "chance"),) and app.analyse_button.disabled
    app.play()
    assert app.state.phase == "draft"
    text = app.export_position()
    assert json.loads(text)["phase"] == "draft" and load_text(text) == app.state
    assert "download=" in app.download.value


def test_app_analysis_is_from_the_view_of_the_player_to_move() -> None:
    app = _app(name="modifiers-round-2")
    app.samples.value = 20
    app.analyse()
    app.wait_analysis(120)
    v = view(app.state, app.state.current_player())
    assert sorted(map(str, (m.action for m in app.moves))) == sorted(map(str, v.legal_actions))  # each once
    assert all(isinstance(m.action, Play) for m in app.moves)


def test_app_language_switch_keeps_the_position() -> None:
    app = _app(name="last-turn")
    app.load_gallery("agent-drew")
    app.language.value = "pt"
    assert app.state == gallery.load("agent-drew")


def test_a_language_switch_keeps_the_comparison_and_the_seat_seen_by() -> None:
    app = _app(name="last-turn")
    app.samples.value = 20
    app.analyse()
    ranking = app.wait_analysis(120)
    other = next(p for p in range(app.state.players) if p != app.seen_by.value)
    app.seen_by.value = other
    app.set_language("fr")
    assert app.ranking is ranking and app.seen_by.value == other  # nothing the learner chose is lost
    assert "mêmes 20 donnes simulées" in app.analysis.value and app.analysis.value.count("<tr") == 3
    assert app.chart.layout.display == "" and "Joueur" in str(app.seen_by.options)
    app.set_language("en")
    job = app.analyse()  # a comparison under way goes on, and ends in the page's new language
    app.set_language("pt")
    assert app.wait_analysis(120) is not None and job is not None and not job.cancelled
    assert "mesmas 20" in app.analysis.value


def test_a_comparison_stopped_by_its_budget_says_so_in_the_new_language() -> None:
    from capital_lux.tutor.work import WorkRunner

    app = _app(name="last-turn")
    app.runner = WorkRunner(budget_seconds=0)  # over its budget at its first look at the clock
    app.analyse()
    assert app.wait_analysis(120) is None and 'data-stopped="budget"' in app.analysis.value
    app.set_language("es")
    assert 'data-stopped="budget"' in app.analysis.value and "time allowed" not in app.analysis.value
    app.runner.close()


# -- in a browser -----------------------------------------------------------------------------------
@pytest.mark.browser
def test_analyse_one_position_by_clicking() -> None:
    from test_exercises import voila_page

    with voila_page("notebooks/what_if.ipynb", ".cl-whatif.cl-ready") as (page, artifacts):
        page.select_option(".cl-wi-gallery select", index=gallery.NAMES.index("last-turn"))
        page.click(".cl-wi-load-gallery")
        page.wait_for_selector(".cl-wi-message:has-text('Loaded')")
        page.click(".lm-TabBar-tab:has-text('Analyse and play')")
        page.click(".cl-wi-analyse")
        page.wait_for_selector(".cl-wi-analysis table.cl-moves", timeout=60_000)
        assert page.locator(".cl-wi-analysis table.cl-moves tr").count() == 3  # header and two moves
        page.locator(".cl-wi-chart").wait_for(state="visible", timeout=60_000)  # the table sharpens first, then the chart
        assert page.locator(".cl-wi-analysis table.cl-moves tr").count() == 3
        page.screenshot(path=str(artifacts / "what-if.png"), full_page=True)
        page.click(".lm-TabBar-tab:has-text('Edit')")
        page.fill(".cl-wi-capital input", "Y6 Y6 Y6 Y6")
        page.click(".cl-wi-apply")
        page.wait_for_selector(".cl-wi-message [data-error='1']:has-text('Y6 appears')")
        # upload a position file from the browser (ipywidgets 8's FileUpload value)
        upload = artifacts / "rulebook-cleric.json"
        upload.write_text(gallery.text("rulebook-cleric"), "utf-8")
        page.click(".lm-TabBar-tab:has-text('Load')")
        with page.expect_file_chooser() as chooser:  # the widget makes its file input on click
            page.click(".cl-wi-upload")
        chooser.value.set_files(str(upload))
        page.wait_for_selector(".cl-wi-message:has-text('Loaded rulebook-cleric.json')")
        assert "Cleric" in page.inner_text(".cl-wi-table")


def test_compare_every_move_runs_as_a_job_with_progress_and_can_be_cancelled() -> None:
    from capital_lux.tutor.work import Job

    app = _app(name="last-turn")
    app.samples.value = 20
    seen: list[float] = []
    app.analysis_progress.observe(lambda change: seen.append(change["new"]), names="value")
    job = app.analyse()
    assert isinstance(job, Job) and app.analysis_job is job
    ranking = app.wait_analysis(120)
    assert ranking is not None and sorted(str(m.action) for m in ranking.moves) == sorted(
        str(a) for a in app.state.legal_actions())
    assert seen and seen == sorted(seen) and seen[-1] == 1.0 and app.analysis_progress.layout.display == "none"
    assert app.analysis.value.count("<tr") == 3
    app.samples.value, app.horizon.value = 1000, "game"  # long: stopped by loading another position
    job = app.analyse()
    assert app.analysis_progress.layout.display is None
    app.load_gallery("modifiers-round-2")
    assert app.wait_analysis(120) is None and job.cancelled
    assert app.analysis.value == "" and app.analysis_progress.layout.display == "none"


def test_a_comparison_over_its_budget_stops_within_its_games_and_shows_the_figures_it_reached() -> None:
    from capital_lux.tutor.work import WorkRunner

    class Clock:  # every look at the clock "takes" a second: the budget runs out mid-comparison
        def __init__(self) -> None:
            self.now, self.looks = 0.0, 0

        def __call__(self) -> float:
            self.now += 1
            self.looks += 1
            return self.now

    app = _app(name="last-turn")
    clock = Clock()
    app.runner = WorkRunner(budget_seconds=10, clock=clock)
    app.samples.value = 200  # games a quarter at a time: the budget ends before the last quarter
    app.analyse()
    assert app.wait_analysis(120) is None
    assert 'data-stopped="budget"' in app.analysis.value and "games played so far" in app.analysis.value
    # the figures it reached: every move, on the first quarter's games, said to be only those
    assert app.analysis.value.count("<tr") == 3 and len(app.moves) == 2
    assert app.ranking is not None and 0 < app.ranking.games < 200
    assert all(m.risk.samples == app.ranking.games for m in app.moves)
    assert f"same {app.ranking.games} simulated deals" in app.analysis.value
    assert clock.looks < 2 * 200 // 10  # stopped inside the games, not after all of them
    app.runner.close()


def test_the_page_says_first_what_it_is_for_in_the_readers_language() -> None:
    from capital_lux.tutor.whatif_app import WHAT_IT_IS_FOR, build_app

    app = build_app("fr")._whatif
    assert "cl-wi-purpose" in app.title.value and "Installez une table" in app.title.value
    app.set_language("es")
    assert "Prepara una mesa" in app.title.value and WHAT_IT_IS_FOR not in app.title.value
