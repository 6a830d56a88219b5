"""Every exercise's exact answer against brute force; the answer checker; progress files."""

from __future__ import annotations

import json
from html import escape
import random
from collections import Counter
from contextlib import contextmanager
from fractions import Fraction
from itertools import combinations_with_replacement, permutations
from math import comb, prod
from pathlib import Path
from typing import Any, Iterator

import pytest

from capital_lux.lessons import gallery
from capital_lux.engine.cards import ALL_CARDS, COLOURS, COPIES, KIND, Card
from capital_lux.lessons.exercises import (
    EXERCISES,
    EXERCISES_BY_ID,
    TOLERANCE,
    Exercise,
    check_answer,
    format_number,
    instance,
    parse_answer,
    question_text,
    simulate,
    solution_text,
)
from capital_lux.lessons.gallery.build import GALLERY, build
from capital_lux.lessons.problems import assumptions_text
from capital_lux.lessons.problems.round_end import capital_chance
from capital_lux.lessons.progress import Progress
from capital_lux.i18n import LANGUAGES, translator
from capital_lux.engine.notation import Play
from capital_lux.engine.position import position_dict
from capital_lux.engine.state import GameState, hand_size
from capital_lux.engine.views import determinize, view


def test_at_least_ten_exercises_with_distinct_ids_and_topics() -> None:
    assert len(EXERCISES) >= 10
    assert len(EXERCISES_BY_ID) == len(EXERCISES)
    topics = {ex.topic for ex in EXERCISES}
    assert len(topics) >= 7


# -- brute force ------------------------------------------------------------------------------
def _visible(s: GameState, viewer: int) -> Counter[Card]:
    """Every card the viewer sees, read from the position file's zones (not from the view)."""
    data = position_dict(s)
    seen: Counter[Card] = Counter()
    zones = [data["capital"], data["discards"], data["hands"][viewer], *data["hometowns"], *data["bonus"]]
    for zone in zones:
        seen.update(Card.parse(c) for c in zone)
    return seen


def _unseen(s: GameState, viewer: int) -> Counter[Card]:
    seen = _visible(s, viewer)
    return Counter({card: COPIES[card.value] - seen[card] for card in ALL_CARDS if COPIES[card.value] > seen[card]})


def _hands_of(size: int, pool: Counter[Card]) -> Iterator[tuple[int, tuple[Card, ...]]]:
    """Every multiset of ``size`` cards from ``pool`` with its number of ways."""
    kinds = sorted(pool)
    for combo in combinations_with_replacement(kinds, size):
        need = Counter(combo)
        yield prod(comb(pool[c], k) for c, k in need.items()), combo


def _modifier_completions(s: GameState, viewer: int) -> Iterator[GameState]:
    """The state with the modifiers hidden from the viewer in every equally likely order."""
    slots = [(c, i) for c in COLOURS for i, (o, _) in enumerate(s.modifiers_above[c]) if o != viewer]
    hidden = [s.modifiers_above[c][i][1] for c, i in slots] + s.modifier_deck
    for order in permutations(hidden):
        new = s.clone()
        for (c, i), value in zip(slots, order):
            new.modifiers_above[c][i] = (new.modifiers_above[c][i][0], value)
        new.modifier_deck = sorted(order[len(slots):])
        yield new


def _with_hidden_hand(s: GameState, seat: int, hand: tuple[Card, ...], viewer: int) -> GameState:
    """The state with ``hand`` in ``seat``'s hand; other hidden hands keep their sizes."""
    pool = _unseen(s, viewer)
    pool.subtract(hand)
    new = s.clone()
    new.hands[seat] = sorted(hand)
    rest = sorted(pool.elements())
    for other in range(s.players):
        if other not in (seat, viewer):
            new.hands[other], rest = rest[: len(s.hands[other])], rest[len(s.hands[other]):]
    new.deck = [0] * len(ALL_CARDS)
    for card in rest:
        new.deck[KIND[card]] += 1
    return new


def test_deal_answers_by_enumerating_every_hand() -> None:
    """Every multiset of dealt cards, weighted by its number of ways."""
    s = gallery.load("first-deal")
    pool = _unseen(s, 0)
    assert sum(pool.values()) == s.deck_size()  # before the deal, everything unseen is in the deck
    totals: Counter[str] = Counter()
    ways = 0
    for weight, hand in _hands_of(s.deal_size, pool):
        sixes = sum(c.value == 6 for c in hand)
        totals["deal-any-six"] += weight * (sixes > 0)
        totals["deal-two-merchants"] += weight * (sum(c.colour == "Y" for c in hand) == 2)
        totals["deal-expected-sixes"] += weight * sixes
        ways += weight
    assert ways == comb(s.deck_size(), s.deal_size)
    for exercise_id, total in totals.items():
        ex = EXERCISES_BY_ID[exercise_id]
        assert (ex.position, ex.viewer) == ("first-deal", 0)
        assert ex.exact() == Fraction(total, ways)


def test_scholar_answer_counts_the_cards_the_viewer_cannot_see() -> None:
    ex = EXERCISES_BY_ID["scholar-green"]
    s = ex.state()
    pool = _unseen(s, ex.viewer)
    green = sum(n for card, n in pool.items() if card.colour == "G")
    assert ex.exact() == Fraction(green, sum(pool.values()))
    # Each unseen card is equally likely to be on top: average the engine's exact draw
    # probability over states the viewer cannot tell apart.
    rng = random.Random(5)
    draws = []
    v = ex.view()
    for _ in range(3000):
        full = determinize(v, rng)
        full.apply_action(Play(Card("G", 5), "capital"))
        draws.append(sum(p for a, p in full.chance_outcomes() if getattr(a, "card").colour == "G"))
    mean = sum(draws, Fraction(0)) / len(draws)
    assert abs(mean - ex.exact()) < Fraction(1, 100)


@pytest.mark.parametrize("exercise_id", ["modifiers-expected-limit"])
def test_modifier_answers_by_every_order_of_the_hidden_modifiers(exercise_id: str) -> None:
    ex = EXERCISES_BY_ID[exercise_id]
    outcomes = [ex.trial(full, random.Random(0)) for full in _modifier_completions(ex.state(), ex.viewer)]
    assert len(outcomes) == 6
    assert ex.exact() == sum(outcomes, Fraction(0)) / len(outcomes)


@pytest.mark.parametrize("exercise_id", ["gold-or-hometown", "bonus-tie"])  # the exceed kinds: test_exercise_templates
def test_round_end_answers_by_playing_every_hidden_completion(exercise_id: str) -> None:
    """Every order of the hidden modifiers times every card the other player may hold,
    played to the round end by the engine."""
    ex = EXERCISES_BY_ID[exercise_id]
    s = ex.state()
    holder = next(p for p in range(s.players) if p != ex.viewer and s.hands[p])
    total, ways = Fraction(0), 0
    for modified in _modifier_completions(s, ex.viewer):
        for weight, hand in _hands_of(len(s.hands[holder]), _unseen(s, ex.viewer)):
            full = _with_hidden_hand(modified, holder, hand, ex.viewer)
            total += weight * ex.trial(full, random.Random(0))
            ways += weight
    assert ex.exact() == total / ways


def test_deck_short_by_every_hand_and_every_move_of_the_last_player() -> None:
    ex = EXERCISES_BY_ID["deck-short"]
    s = ex.state()
    last = s.last_turns[0] if s.last_turns else -1
    total, ways = Fraction(0), 0
    for modified in _modifier_completions(s, ex.viewer):
        for weight, hand in _hands_of(len(s.hands[last]), _unseen(s, ex.viewer)):
            full = _with_hidden_hand(modified, last, hand, ex.viewer)
            full.apply_action(Play(s.hands[ex.viewer][0], "home"))
            assert full.current == last
            q = capital_chance(ex.view())  # the rule of play the question states
            assert f"probability {q}, into" in " ".join(assumptions_text(ex, translator("en")))
            for card in hand:  # either card, with one chance in two; into the Capital with chance q
                for to, chance in (("capital", q), ("home", 1 - q)):
                    after = full.child(Play(card, to))
                    while after.round == 2:  # anything else is forced or cannot change the deck
                        after.apply_action(after.legal_actions()[0])
                    total += weight * Fraction(1, len(hand)) * chance * (after.deal_size < hand_size(4))
            ways += weight
    assert ex.exact() == total / ways


def test_answers_come_from_the_view_alone() -> None:
    """States the viewer cannot tell apart give the same exact answer."""
    rng = random.Random(3)
    for ex in EXERCISES:
        v = ex.view()
        for _ in range(3):
            assert ex.answer(view(determinize(v, rng), ex.viewer)) == ex.exact()


@pytest.mark.parametrize("ex", EXERCISES, ids=lambda ex: ex.id)
def test_seeded_simulation_converges_to_the_exact_answer(ex: Exercise) -> None:
    estimates = simulate(ex, 600, seed=1)
    counts = [n for n, _ in estimates]
    assert counts[-1] == 600 and counts == sorted(counts) and counts[0] == 1
    assert estimates == simulate(ex, 600, seed=1)
    final = estimates[-1][1]
    # within 4 standard errors (the 95% interval is about 4 wide), so one seed cannot be unlucky
    assert abs(final.mean - float(ex.exact())) < final.high - final.low, (final, float(ex.exact()))
    assert final.high - final.low < (0.1 if ex.probability else max(1.0, abs(float(ex.exact())) / 3))


# -- texts ------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_fills_its_placeholders(lang: str) -> None:
    t = translator(lang)
    for ex in EXERCISES:
        question, solution = question_text(ex, t), solution_text(ex, t)
        assert "{" not in question + solution
        assert format_number(ex.exact()) in solution


def test_cards_in_texts_show_colour_symbol_role_and_value() -> None:
    text = question_text(EXERCISES_BY_ID["scholar-green"], translator("en"))
    assert "cl-card" in text and '"cl-role">Scholar</span> <b>5</b>' in text
    assert 'title="Scholar 5 (green)"' in text  # the tooltip in the reader's words, as the table's cards
    assert 'title="Savant 5 (vert)"' in question_text(EXERCISES_BY_ID["scholar-green"], translator("fr"))


# -- the checker ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "answer, status",
    [
        ("3/8", "correct"), ("6/16", "correct"), (" 3 / 8 ", "correct"), ("0.375", "correct"),
        ("0,375", "correct"), ("0.38", "correct"), ("0.37", "correct"), (".375", "correct"),
        ("37.5%", "correct"), ("37.5 %", "correct"), ("38%", "correct"), ("37%", "correct"),
        ("3/7", "wrong"), ("0.4", "invalid"), ("0.364", "wrong"), ("36%", "wrong"), ("0.3", "invalid"), ("0.369", "correct"),
        ("0.20", "wrong"), ("0.2", "invalid"),
        ("", "invalid"), ("abc", "invalid"), ("3/0", "invalid"), ("3/8/2", "invalid"), ("1e-1", "invalid"),
        ("nan", "invalid"), ("inf", "invalid"), ("%", "invalid"), ("3 8", "invalid"), ("1" * 50, "invalid"),
        ("1.5", "invalid"), ("150%", "invalid"), ("-1/8", "invalid"),
    ],
)
def test_checker_reads_fractions_decimals_and_percentages(answer: str, status: str) -> None:
    assert check_answer(answer, Fraction(3, 8)).status == status


def test_checker_tolerance_is_stated_and_strict() -> None:
    assert TOLERANCE == Fraction(1, 100)
    assert check_answer("0.3824", Fraction(3, 8)).status == "correct"
    assert check_answer("0.3825", Fraction(3, 8)).status == "wrong"  # exactly 2% of 3/8 away


def test_checker_messages() -> None:
    assert "3/8" in check_answer("0.375", Fraction(3, 8)).message
    assert "higher than the exact answer" in check_answer("9/10", Fraction(3, 8)).message
    assert "too low" in check_answer("0.05", Fraction(3, 8)).message
    garbage = check_answer("three eighths", Fraction(3, 8))
    assert garbage.value is None and "fraction like 3/8" in garbage.message


def test_expected_values_may_be_negative_or_above_one() -> None:
    assert check_answer("-4/3", Fraction(-4, 3), probability=False).status == "correct"
    assert check_answer("−1.33", Fraction(-4, 3), probability=False).status == "correct"
    assert check_answer("72/71", Fraction(72, 71), probability=False).status == "correct"
    assert parse_answer("-4/3") == (Fraction(-4, 3), "fraction")


def test_every_exercise_accepts_its_own_answer_in_three_forms() -> None:
    for ex in EXERCISES:
        exact = ex.exact()
        for text in (format_number(exact), f"{float(exact):.3f}", f"{float(exact) * 100:.2f}%"):
            checked = check_answer(text, exact, probability=ex.probability)
            if text.endswith("%") and not ex.probability:  # the unit is part of the answer
                assert (checked.status, checked.mistake) == ("wrong", "percent-for-expected"), (ex.id, text)
            else:
                assert checked.status == "correct", (ex.id, text)


# -- gallery ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", [n for n in GALLERY if n != "short-deck"])
def test_gallery_files_are_what_the_builder_writes(name: str) -> None:
    assert json.loads(gallery.text(name)) == build(name)


def test_every_gallery_position_loads() -> None:
    assert set(gallery.NAMES) == set(GALLERY)
    for name in gallery.NAMES:
        gallery.load(name)


# -- the app ------------------------------------------------------------------------------------
def _app(**options: object) -> Any:
    from capital_lux.tutor.exercises_app import ExercisesApp, build_app

    options.setdefault("numbers", None)  # the base positions, whose answers the tests know
    root = build_app(**options)  # type: ignore[arg-type]
    app = root._exercises
    assert isinstance(app, ExercisesApp) and "cl-ready" in root._dom_classes
    return app


def test_app_checks_answers_and_refuses_garbage_without_changing_anything() -> None:
    app = _app()
    app.picker.value = "modifier-after-draw"
    app.answer.value = "a third"
    assert app.check() == "invalid"
    assert "fraction like 3/8" in app.feedback.value
    assert app.progress == Progress.empty() and app.simulate_button.disabled
    ex = app.exercise
    app.answer.value = format_number(ex.facts(ex.view())["before"])  # the chance before the draw: a classic, named
    assert app.check() == "wrong" and 'data-mistake="prior"' in app.feedback.value
    app.answer.value = "0.9000"  # a second wrong answer: no direction to search with
    assert app.check() == "wrong" and "too high" not in app.feedback.value and "step by step" in app.feedback.value
    assert not app.simulate_button.disabled  # predicted and checked: now see it converge
    app.answer.value = f"{float(ex.exact()) * 100:.1f}%"  # after a first answer, four decimals or the exact fraction
    assert app.check() == "invalid" and "4 decimal places" in app.feedback.value
    app.answer.value = f"{float(ex.exact()) * 100:.2f}%"
    assert app.check() == "correct"
    assert app.progress.solved == {"modifier-after-draw": f"{float(ex.exact()) * 100:.2f}%"}
    assert "✓" in dict((v, k) for k, v in app.picker.options)["modifier-after-draw"]
    assert f"1 of {len(EXERCISES)}" in app.progress_note.value


def test_app_gives_each_learner_their_own_cards_and_shows_the_discards() -> None:
    from capital_lux.lessons.table import position_html

    app = _app()
    app.picker.value = "scholar-green"
    base = app.question.value
    assert "Discard pile" in app.position.value and "cl-ex-assumptions" in base
    app.set_numbers(3)
    assert app.exercise.seed == 3 and app.exercise.layout is not None
    assert app.position.value != position_html(translator("en"), EXERCISES_BY_ID["scholar-green"].view(), 0)
    app.answer.value = format_number(app.exercise.exact())
    assert app.check() == "correct"
    other = _app(numbers=3)
    other.picker.value = "scholar-green"
    assert other.exercise == app.exercise  # the same seed, the same cards


def test_app_simulates_with_a_seed_and_shows_the_chart() -> None:
    app = _app()
    app.picker.value = "deal-any-six"
    app.answer.value = "1/2"
    app.check()  # the simulation opens after an attempt, its exact value once solved
    app.samples.value = 100
    app.run_simulation()
    assert 'data-samples="100"' in app.simulation.value and "1274825/1859987" not in app.simulation.value
    app.answer.value = "1274825/1859987"
    assert app.check() == "correct"
    app.run_simulation()
    first = app.simulation.value
    assert app.chart.value[:8] == b"\x89PNG\r\n\x1a\n" and app.chart.layout.display == ""
    assert 'data-samples="100"' in first and "1274825/1859987" in first
    app.run_simulation()
    assert app.simulation.value == first  # same seed, same estimate
    app.seed.value = 2
    app.run_simulation()
    assert app.simulation.value != first


def test_app_keeps_the_exercise_and_the_typed_answer_when_the_language_changes() -> None:
    app = _app()
    app.picker.value = "bonus-tie"
    app.answer.value = "3/8"  # typed, not yet checked
    app.language.value = "fr"
    assert app.picker.value == "bonus-tie" and app.answer.value == "3/8"
    assert translator("fr").role("Y") in app.question.value  # game words come from the French rulebook


# -- in a browser -----------------------------------------------------------------------------------
@contextmanager
def voila_page(notebook: str, ready: str) -> Iterator[tuple[Any, Path]]:
    """A Chromium page on ``notebook`` served by Voila, once ``ready`` is on the page;
    skips when there is no Chromium. Also used by ``test_whatif``."""
    import os

    import browser as B

    if not os.path.exists(B.CHROMIUM):
        pytest.skip(f"no Chromium at {B.CHROMIUM}")
    sync_api = pytest.importorskip("playwright.sync_api")
    artifacts = B.ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(B, "NOTEBOOK", notebook)
        log = artifacts / f"voila-{Path(notebook).stem}.log"
        with B.voila_server(log) as url, sync_api.sync_playwright() as p:
            browser = B.launch(p)
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.goto(url, timeout=60_000)  # the page's whole budget: its kernel may still be starting
                page.wait_for_selector(ready, timeout=60_000)
                yield page, artifacts
            finally:
                browser.close()


@pytest.mark.browser
def test_answer_one_exercise_by_clicking() -> None:
    import os

    from capital_lux.lessons.classroom import instance_seed, server_key
    from capital_lux.lessons.storage import Storage

    # Everyone on the class's numbers, which the test reads with the server's key: it knows the answer.
    with Storage(os.environ["CAPITAL_LUX_DB"]) as storage:
        storage.set_setting("numbers", "class")
        storage.set_setting("class_seed", "1")
        seed = instance_seed("class", server_key(storage), 1, "modifier-after-draw", "", "")
    answer = format_number(instance("modifier-after-draw", seed).exact())
    assert answer != "a third"
    try:
        _answer_by_clicking(answer)
    finally:
        with Storage(os.environ["CAPITAL_LUX_DB"]) as storage:
            storage.set_setting("numbers", "learner")


def _answer_by_clicking(answer: str) -> None:
    with voila_page("notebooks/probability_exercises.ipynb", ".cl-exercises.cl-ready") as (page, artifacts):
        page.select_option(".cl-ex-picker select", index=list(EXERCISES_BY_ID).index("modifier-after-draw"))
        page.wait_for_selector(".cl-ex-question:has-text('drawn')")
        page.fill(".cl-ex-answer input", "a third")
        page.click(".cl-ex-check")
        page.wait_for_selector(".cl-ex-feedback [data-status='invalid']")
        assert page.is_disabled(".cl-ex-simulate")
        page.fill(".cl-ex-answer input", answer)
        page.click(".cl-ex-check")
        page.wait_for_selector(".cl-ex-feedback [data-status='correct']")
        page.click(".cl-ex-simulate")
        page.wait_for_selector(".cl-ex-simulation [data-samples='1000']", timeout=60_000)
        assert page.locator(".cl-ex-chart").is_visible()
        assert f"1 of {len(EXERCISES)}" in page.inner_text(".cl-ex-progress")
        page.screenshot(path=str(artifacts / "exercises.png"), full_page=True)


@pytest.mark.parametrize("lang", ["en", "fr", "es", "pt"])
def test_an_exercise_board_names_players_not_bots(lang: str) -> None:
    """Nobody plays the others in an exercise: they are players, and the board says whose
    turn it is instead of "The bots are playing."."""
    from capital_lux.lessons.table import position_html
    from capital_lux.lessons.table import table_html

    t = translator(lang)
    for exercise in EXERCISES:
        v = exercise.view()
        html = position_html(t, v, 0)
        others = [seat for seat in range(v.players) if seat != v.viewer]
        assert all(t.gettext("Player {seat}").format(seat=seat) in html for seat in others), exercise.id
        assert t.gettext("The bots are playing.") not in html
        assert not any(t.gettext("Bot {seat}").format(seat=seat) in html for seat in others)
        if 0 <= v.to_move != v.viewer:
            assert escape(t.gettext("Player {seat} is to move.").format(seat=v.to_move)) in html
    v = EXERCISES[0].view()
    other = next(seat for seat in range(v.players) if seat != v.viewer)
    assert t.gettext("Bot {seat}").format(seat=other) in table_html(t, v, 0)  # the tutor's games keep their bots
