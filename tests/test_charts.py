"""Charts: Figures with the expected labels, hatches for every colour, text in the learner's language."""

from __future__ import annotations

import re

from fractions import Fraction

import matplotlib.pyplot as plt
from matplotlib.artist import Artist
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from capital_lux.analysis import charts, forward, risk
from capital_lux.analysis.forward import MoveRisk
from capital_lux.engine.position import arrange
from capital_lux.engine.views import view
from capital_lux.i18n import format_chance, translator
from capital_lux.i18n.sentences import action_label
from capital_lux.engine.notation import PlaceModifier, Play, TakeLowest, parse_action

EN, FR = translator("en"), translator("fr")


def texts(fig: Figure) -> list[str]:
    """Every piece of text drawn in the figure (titles, labels, ticks, legends, notes)."""
    fig.canvas.draw()
    found = [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text") and isinstance(a, Artist))]
    return [t for t in found if t]


def bars(ax: object) -> list[Rectangle]:
    return [p for p in ax.patches if isinstance(p, Rectangle)]  # type: ignore[attr-defined]


def ranked(horizon: str = "round", exact_ms: float = 0, games: int = 400, model: str = "random") -> list[MoveRisk]:
    """The one ranking's moves on a small two-player table (the viewer's two cards, each to either place)."""
    s = arrange(2, hands=["Y3 B6", "P5"], hometowns=["Y6 B3", "P5"], capital="Y5 B4 P3 G2",
                modifiers_above=[("Y", 1, -1), ("B", 0, 2)])
    return forward.rank_moves(view(s, 0), model=model, placement="random", exact_ms=exact_ms, games=games,
                              horizon=horizon).moves


def test_exact_move_chart_draws_the_exact_figures_without_intervals() -> None:
    moves = ranked(exact_ms=60_000)
    assert all(m.risk.exact for m in moves)
    fig = charts.forward_move_chart(moves, EN)
    exceed, score, ahead = fig.axes
    assert [b.get_width() for b in bars(exceed)] == [float(m.risk.p_exceed_any.value) for m in moves]
    assert [b.get_width() for b in bars(score)] == [float(m.risk.score_change.value) for m in moves]
    assert not any(ax.lines or ax.collections for ax in fig.axes)  # no error bar on an exact figure
    assert "exact" in fig.get_suptitle() and "random bot" in fig.get_suptitle()


def test_simulated_move_chart_shows_intervals() -> None:
    moves = ranked(games=120)
    fig = charts.forward_move_chart(moves, EN)
    for ax in fig.axes:
        assert len(ax.lines) + len(ax.collections) > 0  # the error bars
    assert f"{moves[0].risk.samples} simulated games each" in fig.get_suptitle()
    assert [ax.get_title() for ax in fig.axes] == ["Chance of exceeding in any colour", "Expected change of your score",
                                                   "Chance to be ahead after the round"]


def test_move_chart_labels_hatches_and_the_game_horizon() -> None:
    six = risk.example_view(players=3, seed=1, cards_left=6)
    moves = forward.rank_moves(six, "quick", "random", seed=1, games=6 * len(six.legal_actions), min_games=6).moves
    fig = charts.forward_move_chart(moves, EN)
    exceed, score, ahead = fig.axes
    labels = [t.get_text() for t in exceed.get_yticklabels()]
    assert labels == [action_label(EN, m.action) for m in moves]
    assert all(label.endswith(("into the Capital", "into your Hometown")) for label in labels)
    assert not any(re.search(r"\b[BGPY][2-6]\b", label) for label in labels)  # never notation
    assert [b.get_hatch() for b in bars(score)] == [".." if m.action.to == "capital" else "//" for m in moves]  # type: ignore[union-attr]
    assert [b.get_width() for b in bars(exceed)] == [m.risk.p_exceed_any.mean for m in moves]
    game = ranked("game", games=40)
    fig = charts.forward_move_chart(game, EN)
    assert [ax.get_title() for ax in fig.axes] == ["Chance of exceeding in any colour",
                                                   "Expected final margin over the best other player",
                                                   "Chance of winning"]
    margin, win = fig.axes[1:]
    assert [b.get_width() for b in bars(win)] == [m.risk.game.p_win.mean for m in game]  # type: ignore[union-attr]
    assert [b.get_width() for b in bars(margin)] == [m.risk.game.margin.mean for m in game]  # type: ignore[union-attr]
    assert "to the game's end" in fig.get_suptitle()


def test_convergence_chart_draws_the_exact_line() -> None:
    estimates = [(n, risk.Estimate.proportion(n // 3, n)) for n in (10, 100, 1000)]
    fig = charts.convergence_chart(Fraction(1, 3), estimates, EN)
    (ax,) = fig.axes
    assert ax.get_xscale() == "log"
    exact_line = [line for line in ax.lines if line.get_linestyle() == "--"]
    assert exact_line and list(exact_line[0].get_ydata()) == [1 / 3, 1 / 3]
    assert any("1/3" in t for t in texts(fig))


def test_charts_speak_the_learners_language() -> None:
    words = " ".join(texts(charts.forward_move_chart(ranked(games=40), FR)))
    assert "Capitale" in words and "Cité" in words  # the rulebook's own terms
    r = forward.forward_risk(risk.example_view(), model="random", placement="random", samples=40, exact_ms=0)
    words = " ".join(texts(charts.timeline_chart([("départ", r)], FR)))
    for colour in ("bleu", "vert", "rose", "jaune"):
        assert colour in words
    assert format_chance(0.5, FR.lang) == "50\u00a0%"  # French spacing before the sign


def test_chart_labels_are_the_tables_action_labels() -> None:
    """Charts name moves with ``sentences.action_label``, the words of the table's buttons."""
    assert action_label(EN, parse_action("home B5")) == "◆ Agent 5 (blue) into your Hometown"
    assert action_label(EN, parse_action("pick G3 Y6")) == "Set aside ✎ Scholar 3 (green), ● Merchant 6 (yellow)"
    assert "Marchand 6" in action_label(FR, parse_action("capital Y6"))
    assert action_label(EN, PlaceModifier("Y")) == "Modifier above ● Merchant (yellow)"
    assert action_label(FR, TakeLowest("G")).endswith("(vert)")
    assert isinstance(parse_action("capital Y4"), Play)


def test_figures_are_not_kept_by_pyplot() -> None:
    before = plt.get_fignums()
    charts.forward_move_chart(ranked(games=40), EN)
    charts.convergence_chart(0.5, [(10, risk.Estimate.proportion(5, 10))], EN)
    assert plt.get_fignums() == before


def test_forward_move_chart_ranks_moves_with_learner_labels() -> None:
    moves = ranked()
    fig = charts.forward_move_chart(moves, EN)
    exceed, score, ahead = fig.axes
    labels = [t.get_text() for t in exceed.get_yticklabels()]
    assert labels == [action_label(EN, m.action) for m in moves]
    assert [b.get_width() for b in bars(exceed)] == [m.risk.p_exceed_any.mean for m in moves]
    assert "simulated" in fig.get_suptitle() and "rule" not in fig.get_suptitle()


def test_timeline_chart_has_one_line_per_colour_with_its_own_marker() -> None:
    s = arrange(2, hands=["Y3 B6", "P5"], hometowns=["Y6 B3", "P5"], capital="Y5 B4 P3 G2")
    r = forward.forward_risk(view(s, 0), model="random", placement="random", samples=100)
    fig = charts.timeline_chart([("start", r), (action_label(FR, parse_action("home Y3")), r)], FR)
    (ax,) = fig.axes
    markers = [str(line.get_marker()) for line in ax.lines]
    assert len(set(markers) - {"None", "", "|"}) == 4  # "|" are the error bars' caps
    assert "jaune" in " ".join(texts(fig))


def test_the_tutors_charts_are_drawn_at_the_width_they_are_shown_with_text_of_11_px() -> None:
    """Drawn wider than their place on the page, charts were shrunk with their text (to about
    5 px for the move comparison); the browser test measures the same on screen."""
    import io

    from matplotlib.text import Text
    from PIL import Image

    from capital_lux.analysis import forward
    from capital_lux.engine.position import arrange

    s = arrange(2, hands=["Y3 B6 P2 G4", "P5"], hometowns=["Y6 B3", "P5"], capital="Y5 B4 P3 G2")
    moves = forward.rank_moves(view(s, 0), model="random", placement="random", exact_ms=0, games=100).moves
    decisions = [(action_label(FR, m.action), m.risk) for m in moves]  # eight rows: the longest round
    whatif = forward.rank_moves(risk.example_view(players=2, seed=1, cards_left=2), model="quick", seed=1, games=40,
                                exact_ms=0, horizon="game").moves  # the what-if explorer's, to the game's end
    shown = [(charts.forward_move_chart(moves, FR), 481), (charts.timeline_chart(decisions, FR), 481),
             (charts.forward_move_chart(whatif, FR), 760),  # the side column at 1280 px; the what-if chart's max-width
             (charts.convergence_chart(0.5, [(n, risk.Estimate(0.45, 0.3, 0.6, n)) for n in (10, 100, 1000)], FR),
              640)]  # the exercises' chart
    for fig, room in shown:
        sizes = [x.get_fontsize() for x in fig.findobj(Text) if x.get_text() and x.get_visible()]
        assert min(sizes) >= charts.MIN_FONT_PT
        width, _ = Image.open(io.BytesIO(charts.figure_png(fig))).size
        assert width <= room, (fig.get_suptitle(), width)
    assert charts.MIN_FONT_PT * charts.DPI / 72 >= 11
