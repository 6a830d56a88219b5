"""The tutor driven like a learner would: set values, click buttons, read the widgets.

No browser here (see ``test_tutor_browser.py``): ``build_app()`` is plain Python.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import ipywidgets as W
import pytest
from ipywidgets.widgets.widget import _instances

from capital_lux.engine.cards import ALL_CARDS, COLOURS, KIND, ROLES, Card, format_modifier
from capital_lux.engine.notation import CAPITAL, Action, Pick, PlaceModifier, Play, SaveWithGold, TakeLowest
from capital_lux.engine.rules import cleric_options
from capital_lux.engine.state import AGENT, CLERIC, GOLD, OVER, PLAY
from capital_lux.tutor import build_app, language_from_query
from capital_lux.tutor.app import TutorApp
from capital_lux.tutor.chapters import ChapterView, chapters
from capital_lux.tutor.panel import GamePanel
from capital_lux.i18n import translator
from capital_lux.lessons import positions
from capital_lux.tutor.chapters import prepared_session
from capital_lux.tutor.session import Session
from capital_lux.engine.views import view


def tutor(root: W.VBox) -> TutorApp:
    app = root._tutor
    assert isinstance(app, TutorApp)
    return app


def click_action(panel: GamePanel, action: Action) -> None:
    """Perform ``action`` by clicking the learner's buttons, as in the browser."""
    c = panel.controls
    v = panel.session.view()
    if isinstance(action, Pick):
        wanted = list(action.cards)
        for i, card in enumerate(c._draft_cards):
            if card in wanted:
                wanted.remove(card)
                c.draft.items[i].click()
        assert not c.confirm_pick.disabled
        c.confirm_pick.click()
    elif isinstance(action, Play):
        c.hand.items[list(v.hand).index(action.card)].click()
        (c.to_capital if action.to == CAPITAL else c.to_home).click()
    else:
        c.choices.items[c._choice_actions.index(action)].click()
    assert "cl-error" not in panel.message.value


def play_out(panel: GamePanel, rng: random.Random, limit: int = 200) -> int:
    moves = 0
    while not panel.session.is_over() and moves < limit:
        click_action(panel, rng.choice(panel.session.view().legal_actions))
        moves += 1
    return moves


@pytest.mark.parametrize("players", [2, 3, 4])
def test_free_play_whole_game_by_clicks_reaches_the_score_sheet(players: int) -> None:
    app = tutor(build_app(players=players, seed=11, bot_kind="rule"))
    panel = app.free_play.panel
    assert panel.session.state.players == players
    play_out(panel, random.Random(players))
    assert panel.session.state.phase == OVER
    assert 'data-final="1"' in panel.scores.value
    assert "Final score sheet" in panel.scores.value
    assert "Round 3 end, step by step" in panel.roundend.value
    assert panel.controls.hand.box.children == () or all(
        b.layout.display == "none" for b in panel.controls.hand.items
    )


def test_new_game_uses_the_settings() -> None:
    app = tutor(build_app(players=3, seed=1))
    fp = app.free_play
    fp.players.value = 4
    fp.seed.value = "99"
    fp.strength.value = "random"
    fp.new_game.click()
    s = fp.panel.session
    assert s.state.players == 4 and s.game.seed == 99 and s.bot_kind == "random"


def test_hand_cards_are_buttons_with_role_value_and_symbol() -> None:
    app = tutor(build_app(players=3, seed=2))
    panel = app.free_play.panel
    rng = random.Random(0)
    while panel.session.view().phase != PLAY:
        click_action(panel, rng.choice(panel.session.view().legal_actions))
    v = panel.session.view()
    buttons = [b for b in panel.controls.hand.items if b.layout.display != "none"]
    assert len(buttons) == len(v.hand)
    for b, card in zip(buttons, v.hand):
        assert ROLES[card.colour] in b.description and str(card.value) in b.description
        assert b.description.startswith(("◆", "✎", "✚", "●"))
    # choosing a card shows where it can go, with the special action spelled out
    buttons[0].click()
    assert panel.controls.destinations.layout.display is None
    assert "Capital" in panel.controls.to_capital.description


def test_undo_replays_to_the_learners_previous_decision_with_the_same_draws() -> None:
    app = tutor(build_app(players=4, seed=5))
    panel = app.free_play.panel
    rng = random.Random(3)
    for _ in range(4):
        click_action(panel, rng.choice(panel.session.view().legal_actions))
    before = panel.session.view()
    log_before = list(panel.session.log)
    action = rng.choice(before.legal_actions)
    click_action(panel, action)
    after = panel.session.view()
    panel.undo_button.click()
    assert panel.session.view() == before
    assert panel.session.log == log_before
    assert "taken back" in panel.message.value
    click_action(panel, action)  # the same decision gives the same cards again
    assert panel.session.view() == after


def test_undo_is_disabled_at_the_start() -> None:
    app = tutor(build_app(players=2, seed=8))
    assert app.free_play.panel.undo_button.disabled


def test_a_failure_shows_a_friendly_message_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    app = tutor(build_app(players=3, seed=4))
    panel = app.free_play.panel

    def broken(action: Action) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(panel.session, "play", broken)
    action = panel.session.view().legal_actions[0]
    click_action_raw(panel, action)
    assert "cl-error" in panel.message.value
    assert "boom" not in panel.message.value and "Traceback" not in panel.message.value


def click_action_raw(panel: GamePanel, action: Action) -> None:
    c = panel.controls
    assert isinstance(action, Pick)
    for i in range(len(action.cards)):
        c.draft.items[i].click()
    c.confirm_pick.click()


def test_language_switch_keeps_the_game_and_translates() -> None:
    app = tutor(build_app(players=3, seed=6))
    panel = app.free_play.panel
    rng = random.Random(1)
    for _ in range(3):
        click_action(panel, rng.choice(panel.session.view().legal_actions))
    state = panel.session.view()
    app.language.value = "fr"
    assert panel.session.view() == state
    assert app.t.lang == "fr"
    assert app.t.term("Capital") in panel.table.value
    app.language.value = "en"
    assert "Capital" in panel.table.value


def test_language_from_the_url_query() -> None:
    assert language_from_query("lang=fr") == "fr"
    assert language_from_query("foo=1&lang=pt-BR") == "pt"
    assert language_from_query("lang=de") == "en"
    assert language_from_query("") == "en"


# -- chapters ---------------------------------------------------------------------------
PREFERRED: dict[str, tuple[str, str]] = {
    "scholar": ("G", CAPITAL),
    "merchant": ("Y", CAPITAL),
    "agent": ("B", CAPITAL),
    "cleric": ("P", CAPITAL),
    "cleric_one": ("P", CAPITAL),
    "cleric_none": ("P", CAPITAL),
    "scholar_last": ("G", CAPITAL),
    "agent_empty": ("B", CAPITAL),
}


def solve(chapter: ChapterView) -> None:
    lesson = chapter.lesson
    if lesson.quiz:
        v = chapter.panel.session.view()
        wrong = (v.starting_player + 1) % v.players
        chapter.quiz_buttons[wrong].click()
        assert "cl-done" not in chapter.status._dom_classes
        chapter.quiz_buttons[v.starting_player].click()
        return
    for _ in range(80):
        if "cl-done" in chapter.status._dom_classes:
            return
        legal = chapter.panel.session.view().legal_actions
        wanted = PREFERRED.get(lesson.key)
        choice = legal[0]
        for a in legal:
            if isinstance(a, Play) and wanted and (a.card.colour, a.to) == wanted:
                choice = a
        click_action(chapter.panel, choice)
    raise AssertionError(f"lesson {lesson.key} not completed")


def test_every_chapter_and_lesson_can_be_completed_by_clicking() -> None:
    app = tutor(build_app(players=3, seed=1))
    for index, chapter in enumerate(chapters()):
        app.tabs.selected_index = index
        view_ = app.chapter_views[index]
        for i in range(len(chapter.lessons)):
            view_.picker.value = i
            assert view_.index == i
            solve(view_)
            assert "cl-done" in view_.status._dom_classes, (chapter.key, i)
            assert view_.lesson.key in view_.done
        view_.restart.click()
        assert "cl-done" not in view_.status._dom_classes
    app.language.value = "es"  # every built chapter follows the language
    assert all(c.t.lang == "es" for c in app.chapter_views.values())


def test_the_tie_break_lesson_ends_level_on_points_and_6s() -> None:
    from capital_lux.engine.rules import tie_break_key

    for action in prepared_session("tie_break").state.legal_actions():
        session = prepared_session("tie_break")
        session.play(action)
        while not session.is_over():
            session.play(session.view().legal_actions[0])
        keys = [tie_break_key(session.state, p) for p in range(3)]
        winner = session.state.winners()
        assert len(winner) == 1 and winner[0] != 0
        assert keys[0][:2] == keys[winner[0]][:2]  # same points, same number of 6s


def test_the_rulebooks_gold_example_offers_keeping_blue_and_yellow() -> None:
    session = prepared_session("gold_example")
    v = session.view()
    assert v.phase == GOLD and v.gold[0] == 3
    assert SaveWithGold(("B", "Y")) in v.legal_actions
    assert not any("P" in a.colours for a in v.legal_actions if isinstance(a, SaveWithGold))
    session.play(SaveWithGold(("B", "Y")))
    kinds = [(e.kind, e.colours) for e in session.reports[-1].events]
    assert ("discard", ("P",)) in kinds and ("gold_spent", ("B",)) in kinds and ("gold_spent", ("Y",)) in kinds


@pytest.mark.parametrize("to", ["home", "capital"])
def test_the_rulebooks_bonus_tie_gives_the_6_to_bot_1_and_the_4_to_bot_2(to: str) -> None:
    session = prepared_session("bonus_tie")
    assert session.seat == 0 and session.view().starting_player == 1
    session.play(Play(Card("B", 5), to))
    while not session.reports:  # the Agent's modifier, if the card went into the Capital
        session.play(session.view().legal_actions[0])
    bonus = [(e.player, e.cards) for e in session.reports[-1].events if e.kind == "bonus" and e.colours == ("Y",)]
    assert bonus == [(1, (Card("Y", 6),)), (2, (Card("Y", 4),))]  # Bot 1, then Bot 2


# -- hidden information -----------------------------------------------------------------
def card_patterns(card: Card) -> list[re.Pattern[str]]:
    role = ROLES[card.colour]
    return [
        re.compile(rf"{role}\s*(?:<b>)?{card.value}\b"),
        re.compile(rf"\b{card.colour}{card.value}\b"),
    ]


def widget_states(skip: set[str] = frozenset()) -> str:  # type: ignore[assignment]
    """Every live widget's state as one string (what could be sent to the browser)."""
    parts = []
    for model_id, widget in list(_instances.items()):
        if model_id in skip:
            continue
        state = widget.get_state()
        parts.append(json.dumps({k: v for k, v in state.items() if isinstance(v, (str, list, dict, int))},
                                default=str, ensure_ascii=False))
    return "\n".join(parts)


def check_no_leak(session: Session, ever_seen: set[int], skip: set[str]) -> tuple[int, int]:
    """Assert that no widget holds an opponent's hidden card or face-down modifier value.

    A card kind is only searched for while no copy of it was ever visible to the learner
    (otherwise its name may appear legitimately); a modifier value only while it is face
    down and the learner knows no modifier of that value. Returns what was checked.
    """
    state, me = session.state, session.seat
    v = view(state, me)
    visible = list(v.hand) + list(v.draft_hand) + list(v.draft_picks) + list(v.discards)
    visible += [c for b in v.bonus for c in b]
    visible += [Card(c, x) for c in COLOURS for x in v.capital[c]]
    visible += [Card(c, x) for town in v.hometowns for c in COLOURS for x in town[c]]
    ever_seen |= {KIND[c] for c in visible}
    others = [p for p in range(state.players) if p != me]
    hidden = [c for p in others for c in state.hands[p] + state.draft_hands[p] + state.draft_picks[p]]
    secret = {KIND[c] for c in hidden} - ever_seen
    everything = widget_states()
    for kind in secret:
        for pattern in card_patterns(ALL_CARDS[kind]):
            assert not pattern.search(everything), f"opponent card {ALL_CARDS[kind]} leaked"
    mods = 0
    if not state.modifiers_revealed():
        known = {m.value for c in COLOURS for m in v.modifiers_above[c] if m.value is not None}
        if v.pending_modifier is not None:
            known.add(v.pending_modifier)
        face_down = {val for c in COLOURS for o, val in state.modifiers_above[c] if o != me}
        if state.phase == AGENT and state.current != me and state.pending_modifier is not None:
            face_down.add(state.pending_modifier)
        now = widget_states(skip=skip)
        for value in face_down - known:
            # a modifier is a signed whole number; -3.2 points (a figure of the hint) is not one
            shown = re.compile(r"(?<![\d.,])" + re.escape(format_modifier(value)) + r"(?![\d.,])")
            assert not shown.search(now), f"opponent modifier {value:+d} leaked"
            mods += 1
    return len(secret), mods


@pytest.mark.parametrize("players,seed", [(4, 21), (3, 22), (2, 24)])
def test_no_hidden_information_reaches_any_widget(players: int, seed: int) -> None:
    """Opponents' hands, draft cards and face-down modifier values never appear in widget state."""
    W.Widget.close_all()
    app = tutor(build_app(players=players, seed=seed, bot_kind="rule", opening="free"))  # no lesson's cards
    panel = app.free_play.panel
    rng = random.Random(seed)
    ever_seen: set[int] = set()
    checked_cards = checked_mods = 0
    while True:
        # the last round end's report shows the previous round's modifiers, public by then
        cards, mods = check_no_leak(panel.session, ever_seen, {panel.roundend.model_id, panel.pause_text.model_id})
        checked_cards += cards
        checked_mods += mods
        if panel.session.is_over():
            break
        click_action(panel, rng.choice(panel.session.view().legal_actions))
    assert checked_cards > 20 and checked_mods > 0, (checked_cards, checked_mods)


@pytest.mark.parametrize("name", sorted(positions.names()))
def test_no_hidden_information_in_the_lessons(name: str) -> None:
    from capital_lux.i18n import translator
    from capital_lux.engine.state import new_game

    W.Widget.close_all()
    session = prepared_session(name)
    panel = GamePanel(translator("en"), session)
    ever_seen: set[int] = set()
    state = new_game(session.state.players)
    for action in session.state.history:  # what the learner has seen on the way here
        state.apply_action(action)
        v = view(state, session.seat)
        seen = list(v.hand) + list(v.draft_hand) + list(v.draft_picks) + list(v.discards)
        seen += [c for b in v.bonus for c in b] + [Card(c, x) for c in COLOURS for x in v.capital[c]]
        seen += [Card(c, x) for town in v.hometowns for c in COLOURS for x in town[c]]
        ever_seen |= {KIND[c] for c in seen}
    check_no_leak(session, ever_seen, {panel.roundend.model_id})
    panel.hint.button.click()  # type: ignore[union-attr]
    check_no_leak(session, ever_seen, {panel.roundend.model_id})


def test_the_leak_check_would_catch_a_planted_card() -> None:
    W.Widget.close_all()
    from capital_lux.i18n import translator
    from capital_lux.lessons.table import card_html

    planted = W.HTML(card_html(translator("en"), Card("Y", 6)))
    assert card_patterns(Card("Y", 6))[0].search(widget_states())
    planted.close()
    assert not card_patterns(Card("Y", 6))[0].search(widget_states())


def test_tables_draw_from_the_view_only() -> None:
    """Two states the learner cannot tell apart give the same page."""
    from capital_lux.engine.views import sample_hidden
    from capital_lux.lessons.table import table_html
    from capital_lux.i18n import translator

    session = Session.new(3, seed=31)
    rng = random.Random(0)
    while session.state.phase != PLAY:
        session.play(rng.choice(session.view().legal_actions))
    other = sample_hidden(session.state, 0, random.Random(1))
    t = translator("en")
    assert table_html(t, view(other, 0), 0) == table_html(t, session.view(), 0)


def test_gold_decision_is_made_by_the_learner_with_buttons() -> None:
    app = tutor(build_app(players=3, seed=1))
    app.tabs.selected_index = 3
    chapter = app.chapter_views[3]
    chapter.picker.value = 1  # "Your gold decision"
    panel = chapter.panel
    v = panel.session.view()
    assert v.phase == GOLD
    labels = [b.description for b in panel.controls.choices.items if b.layout.display != "none"]
    assert len(labels) == len(v.legal_actions) >= 2
    assert all(isinstance(a, SaveWithGold) for a in v.legal_actions)
    assert "Round end: your limits" in panel.roundend.value
    click_action(panel, v.legal_actions[-1])
    assert "step by step" in panel.pause_text.value  # the page pauses on the round end, told on top
    panel.continue_button.click()
    assert "step by step" in panel.roundend.value  # then kept below the next round's table


def test_agent_and_cleric_choices_come_from_the_legal_actions() -> None:
    app = tutor(build_app(players=3, seed=1))
    app.tabs.selected_index = 2
    chapter = app.chapter_views[2]
    chapter.picker.value = 3  # Agent
    panel = chapter.panel
    card = next(c for c in panel.session.view().hand if c.colour == "B")
    click_action(panel, Play(card, CAPITAL))
    v = panel.session.view()
    assert v.phase == AGENT and v.pending_modifier is not None
    assert f"{v.pending_modifier:+d}" in panel.controls.prompt.value
    assert panel.controls._choice_actions == list(v.legal_actions)
    assert all(isinstance(a, PlaceModifier) for a in v.legal_actions)
    chapter.picker.value = 4  # Cleric
    panel = chapter.panel
    card = next(c for c in panel.session.view().hand if c.colour == "P")
    click_action(panel, Play(card, CAPITAL))
    v = panel.session.view()
    assert v.phase == CLERIC
    assert all(isinstance(a, TakeLowest) for a in panel.controls._choice_actions)


def test_options_from_the_url_query_keep_defaults_for_bad_values() -> None:
    from capital_lux.tutor import options_from_query

    assert options_from_query("lang=es&players=4&seed=12&bots=random") == {
        "lang": "es", "players": 4, "seed": 12, "bot_kind": "random", "opening": "free"}
    assert options_from_query("players=9&seed=-1&bots=cheat") == {"lang": "en"}
    assert options_from_query("open=free") == {"lang": "en", "opening": "free"}


def test_the_bare_page_opens_on_the_first_chapter_and_free_play_can_be_chosen() -> None:
    app = tutor(build_app())
    assert app.tabs.selected_index == 0 and 0 in app.chapter_views
    assert app.chapter_views[0].quiz.layout.display is None  # the setup question is asked
    app.tabs.selected_index = len(app.chapter_list)
    assert app.free_play.panel.session.view().legal_actions
    app.language.value = "fr"  # the learner's place is kept
    assert app.tabs.selected_index == len(app.chapter_list)


def test_the_panel_shows_the_learners_decision_first_however_long_the_rest() -> None:
    session = prepared_session("last_turns")
    panel = GamePanel(translator("en"), session, extras=False, pause=False)  # the pause tells the round end apart
    action = session.view().legal_actions[0]
    click_action(panel, action)
    assert session.reports, "the last turn ends the round"
    text = panel.recent.value
    first = re.search(r'<span class="cl-my-decision">([^<]*)</span>', text)
    assert first is not None and first.group(1).startswith("You play")
    assert text.count("<br>") > 13  # the round end's whole story follows, not its last 12 lines


def test_friendly_error_is_a_sentence() -> None:
    from capital_lux.tutor import friendly_error

    try:
        raise RuntimeError("boom")
    except RuntimeError:
        page = friendly_error("en")
    assert "Sorry" in page.value and "boom" not in page.value


@pytest.mark.slow
def test_hint_and_risk_panel_work_at_every_decision_of_a_game() -> None:
    app = tutor(build_app(players=4, seed=17, bot_kind="rule"))
    panel = app.free_play.panel
    assert panel.hint is not None and panel.risk is not None
    panel.hint.games = 800  # every decision advised, each on fewer games (``bench hint`` times the default)
    rng = random.Random(2)
    while not panel.session.is_over():
        if panel.paused_on() is not None:
            assert panel.hint.button.disabled  # nothing to advise on a round end being read
            panel.continue_button.click()
        v = panel.session.view()
        if v.phase not in (GOLD, OVER):
            assert "If the round ended now" in panel.risk.html.value
        panel.hint.button.click()
        assert "Sorry" not in panel.hint.html.value and panel.hint._suggested in v.legal_actions
        if rng.random() < 0.5:
            panel.hint.follow.click()  # play the suggested move
        else:
            click_action(panel, rng.choice(v.legal_actions))
        assert "cl-error" not in panel.message.value


def test_undo_in_a_prepared_position_stops_at_its_start_and_a_seen_draw_stays() -> None:
    from capital_lux.i18n import translator

    panel = GamePanel(translator("en"), prepared_session("scholar"))
    assert panel.undo_button.disabled  # nothing of the learner's to take back yet
    start = panel.session.view()
    card = next(c for c in start.hand if c.colour == "G")
    click_action(panel, Play(card, CAPITAL))
    drawn = panel.session.view().hand
    assert len(drawn) == len(start.hand)  # the Scholar's card came into the learner's hand...
    assert panel.undo_button.disabled  # ...and, seen, it cannot be taken back to be drawn again
    panel.undo_button.click()
    assert panel.session.view().hand == drawn


@pytest.mark.parametrize("lang", ["en", "fr", "es", "pt"])
def test_every_language_draws_the_whole_app(lang: str) -> None:
    app = tutor(build_app(lang=lang, players=3, seed=2))
    for index in range(len(app.chapter_list)):
        app.tabs.selected_index = index
    assert app.t.lang == lang and all(c.t.lang == lang for c in app.chapter_views.values())
    assert app.t.term("Hometown") in app.free_play.panel.scores.value


def test_search_bots_play_from_their_views() -> None:
    session = Session.new(2, seed=3, bot_kind="search")
    rng = random.Random(0)
    for _ in range(2):
        session.play(rng.choice(session.view().legal_actions))
    assert session.learner_to_move()


def test_the_exercises_and_the_what_if_explorer_are_reached_from_the_tutor() -> None:
    from capital_lux.tutor.app import TutorApp

    app = TutorApp("en", 3, 5, "random")
    titles = [app.tabs.get_title(i) for i in range(len(app.tabs.children))]
    assert titles[-2:] == ["Probability exercises", "What if…"]
    app.tabs.selected_index = len(titles) - 2
    exercises = app.extras["exercises"]
    assert app.tabs.children[-2].children == (exercises.root,)
    app.tabs.selected_index = len(titles) - 1
    assert app.tabs.children[-1].children == (app.extras["whatif"].root,)
    app.language.value = "fr"  # one picker for the whole page
    assert exercises.t.lang == "fr" and app.extras["whatif"].t.lang == "fr"
    assert app.tabs.get_title(len(titles) - 2) != "Probability exercises"


def test_a_new_game_leaves_no_decision_of_the_last_one_on_the_risk_chart() -> None:
    # After "New game" the chart kept the previous game's decisions until the first play.
    app = tutor(build_app(players=2, seed=3))
    panel = app.free_play.panel
    assert panel.risk is not None
    old = [(None, object()), (None, object())]  # the last game's decisions, as drawn
    panel.risk.timeline = list(old)
    panel.risk._timeline_round = panel.session.view().round
    app.free_play.new_game.click()
    panel.risk.wait(60)  # the new game's own first point may be drawn: none of the old ones
    assert not any(point in panel.risk.timeline for point in old) and len(panel.risk.timeline) <= 1
