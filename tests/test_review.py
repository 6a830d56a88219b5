"""The post-game review: exact figures on small positions, verdicts from stated thresholds,
determinism, random seats against rule-of-thumb seats, the command line in four languages,
and hostile records refused."""

from __future__ import annotations

import dataclasses
import json
import random
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from capital_lux.analysis import forward
from capital_lux.analysis.modifiers import modifier_posterior
from capital_lux.analysis.reveal import FIGURES
from capital_lux.analysis.review import (DEFAULT_HORIZON, HORIZONS, Cancelled, Review, decisions_of, judge, review_game,
                                         verdict_of)
from capital_lux.engine.game import Game, GameRecord, replay
from capital_lux.engine.position import MAX_INPUT_BYTES, dumps_record, loads_record
from capital_lux.engine.state import GOLD, GameState
from capital_lux.engine.views import view
from capital_lux.players.bots import RandomBot, RuleOfThumbBot
from test_cli import run
from test_forward import four_players_last_turns, two_players_opponent_last_turn

#: A small budget: the tests check what the review says, the benchmark how well.
QUICK = {"games": 20, "min_games": 20, "exact_ms": 10.0}
#: The same, with no time budget: how deep a budget reaches hangs on the machine's speed, so the
#: tests that ask for the same review twice judge every decision to the horizon asked.
UNTIMED = {**QUICK, "budget": None}


def played_game(players: int, seed: int, kinds: list[str], rounds: int = 3) -> GameRecord:
    """A seeded game between bots ("random" or "rule" per seat), to the end or ``rounds``' end."""
    game, rng = Game(players, seed), random.Random(seed)
    bots = [RandomBot() if kind == "random" else RuleOfThumbBot() for kind in kinds]
    while not game.state.is_terminal() and game.state.round <= rounds:
        v = view(game.state, game.state.current)
        game.play(bots[v.viewer].choose(v, rng))
    return game.record()


# -- exact -------------------------------------------------------------------------------------
def engine_points(s: GameState, model: str) -> dict[str, Fraction]:
    """Each legal move's expected points to the round end, walked through the engine."""
    v = view(s, s.current_player())
    prior = modifier_posterior(v, model)
    points = {}
    for action in v.legal_actions:
        results = forward.exact_by_engine(v, model, prior, action, limit=10**6)
        assert results is not None
        points[str(action)] = forward.expected_figures(results)[FIGURES.index("score change")]
    return points


@pytest.mark.parametrize("model", ["random", "rule"])
@pytest.mark.parametrize("position", [two_players_opponent_last_turn, four_players_last_turns])
def test_on_a_small_position_the_best_move_and_the_loss_are_the_exact_figures(model: str, position: object) -> None:
    s = position()  # type: ignore[operator]
    truth = engine_points(s, model)
    v = view(s, s.current_player())
    for action in v.legal_actions:
        d = judge(v, action, 0, model, exact_ms=60_000)
        assert d.exact and d.games == 0 and d.loss_half == 0
        assert Fraction(d.played_points.exact or "x") == truth[str(action)]
        assert Fraction(d.best_points.exact or "x") == truth[d.best]
        assert d.exact_loss == truth[d.best] - truth[str(action)] and d.loss == float(d.exact_loss)
        assert truth[d.best] == max(truth.values())  # the review's best has the most points, no move preferred
        assert d.loss >= 0 and d.sure
        if d.played == d.best or d.loss == 0:
            assert d.verdict == "best"
        else:  # exact: the loss itself, no interval, sets the verdict
            assert d.verdict == verdict_of(d.loss, 1)


def test_gold_is_valued_exactly_and_only_from_what_is_public() -> None:
    """Every seat plays the rule of thumb; after the reveal only the others' gold choices are
    unseen, and the model's are the ones they made: the judged points of the move played are the
    points it really brought by the round's end."""
    found = 0
    for seed in range(12):
        record = played_game(4, seed, ["rule"] * 4)
        for index, v, action in decisions_of(record):
            if v.phase != GOLD:
                continue
            d = judge(v, action, index)
            state = GameRecord(record.players, record.seed, record.actions[:index]).replay()
            before = state.scores()[v.viewer]
            for later in record.actions[index:]:
                state.apply_action(later)
                if state.phase != GOLD:
                    break
            assert d.exact and Fraction(d.played_points.exact or "x") == state.scores()[v.viewer] - before
            assert d.played == str(action) and d.verdict in ("best", "good")  # the rule's own choice
            found += 1
    assert found >= 2


@pytest.mark.parametrize(
    ("loss", "half", "rank", "verdict", "sure", "worst"),
    [
        (0.0, 0.0, 0, "best", True, "best"),
        (0.0, 0.0, 3, "best", True, "best"),  # as many points as the first: as good as the best
        (0.4, 0.0, 1, "good", True, "good"),
        (1.0, 0.0, 1, "inaccuracy", True, "inaccuracy"),
        (2.0, 0.0, 1, "mistake", True, "mistake"),
        (3.0, 0.0, 1, "blunder", True, "blunder"),
        (5.0, 0.5, 1, "blunder", True, "blunder"),
        (5.0, 4.8, 1, "good", False, "blunder"),  # the noise could explain it: no mistake claimed, and said
        (2.9, 2.5, 1, "good", False, "blunder"),  # "good" above the threshold only with "cannot tell"
        (2.6, 0.3, 1, "mistake", True, "mistake"),
        (1.0, 0.4, 1, "inaccuracy", True, "inaccuracy"),
        (0.3, 0.4, 1, "good", False, "inaccuracy"),
    ],
)
def test_verdicts_follow_the_stated_thresholds_and_say_when_the_interval_cannot_tell(
        loss: float, half: float, rank: int, verdict: str, sure: bool, worst: str) -> None:
    from capital_lux.analysis.review import Decision, Points
    from capital_lux.analysis.review_text import verdict_label
    from capital_lux.i18n import translator

    assert verdict_of(loss, rank, half) == verdict
    d = Decision(0, 0, 1, "play", 2, "home B5", "home B5" if rank == 0 else "capital B5", Points(1.0, half),
                 Points(1.0 + loss, half), loss, half, verdict, 20)
    assert d.sure == sure and d.worst == worst
    label = verdict_label(translator("en"), d)
    assert ("cannot tell" in label) == (not sure) and (worst in label)


# -- a whole game ------------------------------------------------------------------------------
def test_the_review_is_plain_data_deterministic_and_covers_every_choice() -> None:
    whole = played_game(2, 3, ["random", "rule"], rounds=1)
    record = GameRecord(whole.players, whole.seed, whole.actions[:40])  # round 1's draft and first plays
    shown: list[int] = []
    shares: list[float] = []
    review = review_game(record, 0, seed=5, on_decision=lambda d: shown.append(d.index), progress=shares.append,
                         **UNTIMED)  # type: ignore[arg-type]
    choices = [i for i, v, _ in decisions_of(record)]
    assert [d.index for d in review.decisions] == shown == choices and shares[-1] == 1.0
    assert review.horizon == HORIZONS[DEFAULT_HORIZON] == "round_end" and not review.complete
    again = review_game(record, 0, seed=5, **UNTIMED)  # type: ignore[arg-type]
    assert again == review and Review.from_json(review.to_json()) == review
    json.loads(review.to_json())  # nothing but JSON
    for d in review.decisions:  # every legal move was judged, the one played as the table says
        assert len(d.moves) == d.choices and d.verdict_for(d.played) == d.verdict and d.moves[0][0] == d.best
        # the move named best never scores below the move played: no negative loss
        assert d.loss >= 0 and d.best_points.mean >= d.played_points.mean and d.horizon == "round_end"
        assert all(d.loss_of(m)[0] >= 0 for m, _ in d.moves)
    other = review_game(record, 0, seed=6, **UNTIMED)  # type: ignore[arg-type]
    assert [d.played_points for d in other.decisions] != [d.played_points for d in review.decisions]
    with pytest.raises(Cancelled):
        review_game(record, 0, should_stop=lambda: True, **QUICK)  # type: ignore[arg-type]


@pytest.mark.slow
def test_random_seats_make_more_mistakes_than_rule_of_thumb_seats() -> None:
    bad = {"random": 0, "rule": 0}
    lost = {"random": 0.0, "rule": 0.0}
    count = {"random": 0, "rule": 0}
    for seed in range(2):
        kinds = ["random", "rule"] if seed % 2 == 0 else ["rule", "random"]
        # To the round's end, where these few games per move tell the seats apart; to the
        # game's end the final margin's spread needs the default budget (``bench review``).
        review = review_game(played_game(2, seed, kinds), 0, horizon="round", **QUICK)  # type: ignore[arg-type]
        for seat, kind in enumerate(kinds):
            summary = review.summary(seat)
            bad[kind] += summary.counts["mistake"] + summary.counts["blunder"]
            lost[kind] += (summary.mean_loss or 0.0) * summary.decisions
            count[kind] += summary.decisions
    assert bad["random"] / count["random"] > bad["rule"] / count["rule"]
    assert lost["random"] / count["random"] > lost["rule"] / count["rule"]


# -- the command line ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def saved_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("review") / "game.json"
    path.write_text(dumps_record(played_game(2, 11, ["random", "rule"], rounds=1)))
    return path


LANGUAGE_WORDS = {
    "en": ("review of a 2-player game", "Key moments", "Accuracy", "Round 1, action"),
    "fr": ("analyse d'une partie à 2 joueurs", "Moments clés", "Précision", "Manche 1, action"),
    "es": ("análisis de una partida de 2 jugadores", "Momentos clave", "Precisión", "Ronda 1, acción"),
    "pt": ("análise de uma partida de 2 jogadores", "Momentos-chave", "Precisão", "Rodada 1, ação"),
}


@pytest.mark.parametrize("lang", list(LANGUAGE_WORDS))
def test_the_command_line_reviews_a_saved_record_in_four_languages(
        lang: str, saved_record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "review.html"
    # to the round's end, where 20 games per move find this record's key moments
    status, out, err = run(["review", str(saved_record), "--games", "20", "--horizon", "round", "--html", str(page),
                            "--lang", lang], capsys)
    assert status == 0, err
    for words in LANGUAGE_WORDS[lang]:
        assert words in out
    if lang != "en":
        assert not any(english in out for english in LANGUAGE_WORDS["en"])
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and f'<html lang="{lang}">' in html
    assert LANGUAGE_WORDS[lang][1] in html and "<script" not in html and "src=" not in html


def test_the_page_escapes_what_it_shows() -> None:
    from capital_lux.analysis.review_text import review_html
    from capital_lux.i18n import translator

    review = review_game(played_game(2, 11, ["random", "rule"], rounds=1), 0, **QUICK)  # type: ignore[arg-type]
    page = review_html(translator("fr"), review)
    assert "analyse d&#x27;une partie" in page and "analyse d'une" not in page


def hostile(saved: Path) -> dict[str, tuple[str | bytes, str]]:
    text = saved.read_text()
    data = json.loads(text)
    forged_action = {**data, "actions": data["actions"][:5] + ["home B5"] + data["actions"][6:]}
    return {
        "truncated": (text[: len(text) // 2], "not valid JSON"),
        "another version": (json.dumps({**data, "version": 2}), "version 2 of the record format"),
        "another seed": (json.dumps({**data, "seed": data["seed"] + 1}), "does not draw its chance outcome"),
        "forged action": (json.dumps(forged_action), "does not replay"),
        "forged scores": (json.dumps({**data, "scores": [99, 0]}), "claims scores"),
        "not a record": (json.dumps([1, 2]), "does not match its schema"),
        "too large": (b" " * (MAX_INPUT_BYTES + 1), "larger than"),
    }


@pytest.mark.parametrize("case", ["truncated", "another version", "another seed", "forged action", "forged scores",
                                  "not a record", "too large"])
def test_a_hostile_record_gets_a_clear_refusal_and_nothing_else(
        case: str, saved_record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    content, message = hostile(saved_record)[case]
    bad = tmp_path / "bad.json"
    bad.write_bytes(content if isinstance(content, bytes) else content.encode())
    page = tmp_path / "page.html"
    status, out, err = run(["review", str(bad), "--html", str(page)], capsys)
    assert status == 2 and out == "" and message in err and "Traceback" not in err
    assert not page.exists()


def test_a_record_of_another_version_is_refused_in_the_reader_s_language(
        saved_record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**json.loads(saved_record.read_text()), "version": 7}))
    status, out, err = run(["review", str(bad), "--lang", "fr"], capsys)
    assert status == 2 and out == "" and "version 7 du format des enregistrements" in err


def test_a_seat_not_at_the_table_is_refused(saved_record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(["review", str(saved_record), "--seat", "2"], capsys)
    assert status == 2 and out == "" and "--seat must be between 0 and 1" in err


# -- the tutor's review step -------------------------------------------------------------------
@pytest.mark.slow
def test_free_play_offers_the_review_at_the_end_and_teaches_from_the_mistakes() -> None:
    from capital_lux.i18n import translator
    from capital_lux.tutor.app import build_app
    from capital_lux.tutor.work import WorkRunner

    free = build_app("en", players=2, seed=5, bot_kind="rule", opening="free")._tutor.free_play
    review = free.review
    review.runner = runner = WorkRunner(budget_seconds=300)
    try:
        assert review.box.layout.display == "none"
        while not free.panel.session.is_over():
            free.panel._act(free.panel.session.view().legal_actions[-1])  # the last move listed, every time
        assert review.box.layout.display is None and "Review my game" == review.start_button.description
        review.start(**QUICK)
        review.wait(300)
        assert review.complete and review.review is not None
        mine = review.review.of_seat(0)
        assert review.table.value.count("<tr class=") == len(mine) and "Key moments" in review.moments.value
        # Each seat named as the game page names it (the summary's first column), not "Player 1".
        rows = review.summary.value.split('<tr class=""><td>')[1:]
        assert {row.split("</td>")[0] for row in rows} == {"You", "Bot 1"}
        assert "effect on the final result" in review.note.value
        assert review.mistakes and all(d.verdict not in ("best", "good") for d in review.mistakes)

        d = review.mistakes[0]
        assert "Learn from your mistakes" in review.learn_title.value and review.learn.layout.display is None
        assert len(review.tries.children) == d.choices
        buttons = review.tries.children
        assert review.try_move(d.played) == d.verdict and "the move you played" in review.feedback.value
        assert review.tries.children == buttons  # the same buttons: none is drawn anew under the learner's click
        assert review.next_button.layout.display == "none"
        worse = [m for m, _ in d.moves if d.verdict_for(m) not in ("best", "good") and m != d.played]
        if worse:
            review.try_move(worse[0])
            assert "Try again" in review.feedback.value and review.next_button.layout.display == "none"
        assert review.try_move(d.moves[0][0]) == "best"
        assert "Well found" in review.feedback.value and "Your first choice" in review.feedback.value
        if len(review.mistakes) > 1:
            assert review.next_button.layout.display is None
            review.next_button.click()
            assert review.current == 1 and review.feedback.value == ""
            assert review.tries.children != buttons and len(review.tries.children) == review.mistakes[1].choices

        free.set_language(translator("fr"))
        assert "Analyse de votre partie" in review.title.value and "Moments clés" in review.moments.value
        free.start()  # a new game: the review goes away with the old one
        assert review.box.layout.display == "none" and review.review is None
    finally:
        runner.close()


def finished_session() -> Any:
    """A 2-player free game played to its end, the first legal move every time."""
    from capital_lux.tutor.session import Session

    session = Session.new(2, 5, "rule")
    while not session.is_over():
        session.play(session.view().legal_actions[0])
    return session


def test_a_review_stopped_by_the_time_budget_keeps_what_it_judged_and_says_so() -> None:
    from capital_lux.i18n import translator
    from capital_lux.tutor.reviewpanel import ReviewPanel
    from capital_lux.tutor.work import WorkRunner

    session = finished_session()
    # The runner's clock is the share of the decisions judged, so the budget ends the review a
    # quarter of the way through however busy the machine is (a budget in seconds ended one
    # before its first decision on a machine loaded 30 deep).
    panels: list[ReviewPanel] = []
    runner = WorkRunner(budget_seconds=0.25, clock=lambda: panels[0].progress.value if panels else 0.0)
    try:
        panel = ReviewPanel(runner)
        panels.append(panel)
        panel.show(translator("en"), session)
        panel.start(**QUICK)
        panel.wait(60)
        assert not panel.complete and panel.review is not None and panel.review.decisions
        assert "stopped before every decision was judged" in panel.note.value
        assert panel.progress.layout.display == "none" and not panel.start_button.disabled
    finally:
        runner.close()


# -- the game chart ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def charted() -> tuple[GameRecord, Review]:
    """A whole 2-player game, the random seat reviewed to each round's end (it makes mistakes:
    key moments to show, and the scores at the round ends are on the chart's scale)."""
    record = played_game(2, 3, ["random", "rule"])
    return record, review_game(record, 0, seed=5, seats=[0], horizon="round", **QUICK)  # type: ignore[arg-type]


def test_the_chart_s_series_has_two_points_per_decision_and_the_scores_at_the_round_ends(
        charted: tuple[GameRecord, Review]) -> None:
    record, review = charted
    mine = review.of_seat(0)
    series = review.series()
    assert [(p.index, p.kind) for p in series if p.kind != "round_end"] == [
        (d.index, kind) for d in mine for kind in ("before", "after")]
    # the round ends where the record ends them, with the scores then
    state, ends = replay(record.players, []), []
    for index, action in enumerate(record.actions):
        before = state.round
        state.apply_action(action)
        if before >= 1 and (state.round != before or state.is_terminal()):
            ends.append((index, before, float(state.scores()[0])))
    assert len(ends) == 3 == len(review.round_ends)
    assert [(p.index, p.round, p.value) for p in series if p.kind == "round_end"] == ends
    for index, round_, _ in ends:  # each round's decisions lie before its end, the next round's after
        assert all(d.index <= index for d in mine if d.round == round_)  # a gold choice may end it
        assert all(d.index > index for d in mine if d.round > round_)
    # a decision's step is what it cost; every other step (luck) starts where a decision ended
    steps = review.steps()
    assert [a.value - b.value for a, b, kind in steps if kind == "decision"] == pytest.approx([d.loss for d in mine])
    assert all(a.kind == "after" and b.kind in ("before", "round_end") for a, b, kind in steps if kind == "luck")
    assert not any(a.kind == "round_end" for a, _, _ in steps)  # a new round's points are not luck
    # plain data: the series is in the file, and read back the same
    again = Review.from_json(review.to_json())
    assert again == review and again.series() == series
    assert json.loads(review.to_json())["series"] == [dataclasses.asdict(p) for p in series]


CHART_WORDS = {
    "en": ("Your decisions, in the order of the game", "End of round 1", "luck: cards drawn"),
    "fr": ("Vos décisions, dans l'ordre de la partie", "Fin de la manche 1", "chance\u00a0: cartes piochées"),
    "es": ("Tus decisiones, en el orden de la partida", "Fin de la ronda 1", "suerte: cartas robadas"),
    "pt": ("Suas decisões, na ordem da partida", "Fim da rodada 1", "sorte: cartas compradas"),
}


@pytest.mark.parametrize("lang", list(CHART_WORDS))
def test_the_chart_is_drawn_in_four_languages_readable_and_not_by_colour_alone(
        lang: str, charted: tuple[GameRecord, Review]) -> None:
    from matplotlib.text import Text

    from capital_lux.analysis.charts import review_chart
    from capital_lux.analysis.review_text import chart_sentences
    from capital_lux.i18n import translator

    _, review = charted
    t = translator(lang)
    figure = review_chart(review, t)
    ax = figure.axes[0]
    texts = [x.get_text() for x in figure.findobj(Text) if x.get_text()]
    xlabel, round_end, luck = CHART_WORDS[lang]
    assert ax.get_xlabel() == xlabel and round_end in texts and any(luck in x for x in texts)
    assert ax.get_ylabel() == t.gettext("Your expected score at the end of the round")
    assert sum(line.get_linestyle() == ":" for line in ax.get_lines()) == 3  # the round ends
    # decisions and luck are told apart by line style and marker, not colour alone
    styles = {line.get_linestyle() for line in ax.get_lines()}
    assert {"-", "--", ":"} <= styles
    assert all(float(x.get_fontsize()) * 80 / 72 >= 11 for x in figure.findobj(Text) if x.get_text())  # pixels at 80 dpi
    numbers = [x.get_text() for x in figure.findobj(Text) if x.get_text() in ("1", "2", "3")]
    assert len(review.key_moments()) == 3 and {"1", "2", "3"} <= set(numbers)  # the key moments, numbered
    sentences = chart_sentences(t, review)
    assert len(sentences) == 2 and all(s.endswith(".") for s in sentences)


def test_the_page_to_hand_out_carries_the_chart_as_text_not_as_a_file(charted: tuple[GameRecord, Review]) -> None:
    from capital_lux.analysis.review_text import review_html
    from capital_lux.i18n import translator

    page = review_html(translator("es"), charted[1])
    assert "<svg" in page and "Fin de la ronda 1" in page and "src=" not in page and "<script" not in page


# -- a key moment in the what-if explorer --------------------------------------------------------
def test_a_key_moment_opens_in_the_what_if_explorer_with_nothing_the_learner_could_not_see() -> None:
    from capital_lux.engine.position import position_dict
    from capital_lux.engine.views import determinize
    from capital_lux.tutor.app import build_app
    from capital_lux.tutor.work import WorkRunner

    tutor = build_app("en", players=2, seed=5, bot_kind="rule", opening="free")._tutor
    free, review = tutor.free_play, tutor.free_play.review
    review.runner = runner = WorkRunner(budget_seconds=300)
    try:
        while not free.panel.session.is_over():
            free.panel._act(free.panel.session.view().legal_actions[-1])
        review.start(**QUICK)
        review.wait(300)
        assert review.complete and review.review is not None
        assert review.chart.layout.display is None and bytes(review.chart.value).startswith(b"\x89PNG")
        assert "expected points" in review.chart_note.value
        moments = review.review.key_moments()
        assert moments and len(review.open_buttons.children) == len(moments)
        passed: list[Any] = []
        review.open_position = lambda v, *rest: (passed.append(v), tutor.open_in_whatif(v, *rest))  # type: ignore[func-returns-value]
        review.open_buttons.children[0].click()

        d, record = moments[0], free.panel.session.game.record()
        real = replay(record.players, record.actions[:d.index])  # the table as it was, hidden cards and all
        assert passed == [view(real, 0)]  # the learner's view and nothing else
        assert tutor.tabs.selected_index == len(tutor.slots) + 2
        explorer = tutor.extras["whatif"]
        assert view(explorer.state, 0) == view(real, 0) and explorer.seen_by.value == 0
        assert "Opened from your review" in explorer.message.value and explorer.tabs.selected_index == 2
        assert explorer.horizon.value == "round" and explorer.bot.value == "rule"  # the review's question
        assert str(d.index + 1) in explorer.message.value  # the moment's title names it
        # Another truth the learner could not tell apart (other cards in Player 1's hand) opens
        # the same table: what reaches the explorer holds nothing of the real hidden cards.
        other = determinize(view(real, 0), random.Random(1))
        assert other.hands[1] != real.hands[1] or other.draft_hands[1] != real.draft_hands[1]
        shown = position_dict(explorer.state)
        explorer.load_view(view(other, 0), "again")
        assert position_dict(explorer.state) == shown
    finally:
        runner.close()


# -- the whole-game horizon --------------------------------------------------------------------
def test_the_whole_game_horizon_judges_by_the_final_margin_and_gives_the_same_review_for_the_same_seed() -> None:
    from capital_lux.analysis.review import GAME_HORIZON
    from capital_lux.analysis.review_text import review_text
    from capital_lux.i18n import translator

    whole = played_game(2, 3, ["random", "rule"], rounds=1)
    record = GameRecord(whole.players, whole.seed, whole.actions[:24])  # a few decisions of round 1
    quick = {"games": 10, "min_games": 10, "exact_ms": 10.0}
    review = review_game(record, 0, seed=5, horizon="game", budget=None, **quick)  # type: ignore[arg-type]
    assert review.horizon == GAME_HORIZON and review.decisions
    assert review_game(record, 0, seed=5, horizon="game", budget=None, **quick) == review  # type: ignore[arg-type]
    assert Review.from_json(review.to_json()) == review
    to_round = review_game(record, 0, seed=5, horizon="round", **quick)  # type: ignore[arg-type]
    assert [d.index for d in to_round.decisions] == [d.index for d in review.decisions]
    # another quantity: the final margin over the best other seat, not the round's points
    assert [d.played_points for d in to_round.decisions] != [d.played_points for d in review.decisions]
    for d in review.decisions:  # simulated to the game's end, never exact
        assert d.games > 0 and d.verdict_for(d.played) == d.verdict
    series = review.series()
    assert [p.value for p in series if p.kind == "after"] == [d.played_points.mean for d in review.of_seat(0)]
    assert "final result" in review_text(translator("en"), review)
    with pytest.raises(ValueError, match="unknown horizon 'week'"):
        review_game(record, 0, horizon="week")


def test_the_command_line_reviews_to_the_game_s_end(saved_record: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    whole = loads_record(saved_record.read_text())
    short = tmp_path / "short.json"
    short.write_text(dumps_record(GameRecord(whole.players, whole.seed, whole.actions[:24])))
    status, out, err = run(["review", str(short), "--games", "10", "--horizon", "game", "--lang", "pt"], capsys)
    assert status == 0, err
    assert "resultado final" in out and "Momentos-chave" in out
    status, out, err = run(["review", str(short), "--horizon", "week"], capsys)
    assert status == 2 and out == "" and "--horizon" in err


def test_the_page_offers_both_horizons_and_reviews_with_the_one_chosen() -> None:
    from capital_lux.i18n import translator
    from capital_lux.tutor.reviewpanel import ReviewPanel
    from capital_lux.tutor.work import WorkRunner

    session = finished_session()
    runner = WorkRunner(budget_seconds=300)
    try:
        panel = ReviewPanel(runner)
        panel.show(translator("es"), session)
        assert panel.horizon.value == "round"  # the default: where the verdicts are surest
        assert [label for label, _ in panel.horizon.options] == ["hasta el final de la ronda (lo más seguro)",
                                                                 "hasta el final de la partida (separa menos jugadas)"]
        panel.horizon.value = "game"
        panel.horizon.value = "round"
        panel.start(**QUICK)
        assert panel.horizon.disabled  # no other choice while it judges
        waited = 0
        while panel.review is None and waited < 1200:  # the first decision judged, then enough
            time.sleep(0.05)
            waited += 1
        panel.cancel()
        panel.wait(60)
        assert panel.review is not None and panel.review.horizon == "round_end"
        assert "(no de la partida)" in panel.note.value and not panel.horizon.disabled
    finally:
        runner.close()


def test_every_decision_opens_in_the_explorer_as_its_player_saw_it() -> None:
    from capital_lux.lessons.whatif import table_of_view

    record = played_game(3, 1, ["random", "rule", "random"])
    phases = set()
    for _, v, _ in decisions_of(record):  # drafts, plays, Agents, Clerics and gold alike
        assert view(table_of_view(v), v.viewer) == v
        phases.add(v.phase)
    assert phases == {"draft", "play", "agent", "cleric", "gold"}


def test_a_loaded_machine_or_a_warm_search_changes_no_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether a decision is judged exactly reads the search's work (``WorkClock``), not CPU time
    nor the search kept from the last question: a review on a machine 50 times slower, after a
    first review has warmed every cache, is the same review."""
    import time as clock_module

    whole = played_game(2, 3, ["random", "rule"], rounds=1)
    record = GameRecord(whole.players, whole.seed, whole.actions[:40])
    first = review_game(record, 0, seed=5, **UNTIMED)  # type: ignore[arg-type]
    real = clock_module.thread_time
    start = real()
    monkeypatch.setattr(clock_module, "thread_time", lambda: start + 50 * (real() - start))
    assert review_game(record, 0, seed=5, **UNTIMED) == first  # type: ignore[arg-type]
    assert any(d.games == 0 for d in first.decisions)  # some decisions judged exactly: the case at stake
