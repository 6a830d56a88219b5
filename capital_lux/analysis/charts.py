"""Charts of risk and probability: each function returns a matplotlib ``Figure``, and that is all.

Figures are built with ``matplotlib.figure.Figure`` (no pyplot state), so a caller
shows one (``display(fig)``) and drops it when done; nothing leaks between charts.
Colour is never the only signal: every colour line has its own marker and line style,
its symbol and its name; moves into the capital and the hometown are told apart by
hatching, and an exceeding (or unsolved) bar by its hatch too.
All text goes through the translator ``t`` (``capital_lux.i18n.translator``); the words
and numbers the charts share with the tables (a chance, a model's name, a colour's label)
are ``i18n``'s (``format_chance``, ``sentences.model_name``, ``sentences.colour_label``), so
a page that writes a figure never has to come here for its words.

>>> from capital_lux.i18n import translator
>>> from capital_lux.analysis.risk import Estimate
>>> fig = convergence_chart(0.5, [(10, Estimate(0.4, 0.17, 0.69, 10))], translator("en"))
>>> fig.axes[0].get_xlabel()
'Samples (log scale)'
"""

from __future__ import annotations

import io
from fractions import Fraction

from matplotlib.axes import Axes
from matplotlib.axis import Axis
from matplotlib.figure import Figure

from ..engine.cards import COLOURS
from ..i18n import Translator, format_chance, format_exact, format_number
from ..i18n.sentences import action_label, colour_label, model_name
from ..engine.notation import CAPITAL, Play
from .forward import ForwardRisk, MoveRisk
from .review import ChartPoint, Review
from .stats import Estimate


#: Pixels per inch of every exported chart: text of ``MIN_FONT_PT`` points is ``MIN_FONT_PT * DPI / 72`` pixels.
DPI = 80
#: The smallest text the tutor's free-play charts use (matplotlib's default size): 11 px at ``DPI``.
MIN_FONT_PT = 10.0
#: Width of the free-play charts: the tutor's side column (about 480 px at a 1280 px window) shows
#: them unscaled, so their text stays ``MIN_FONT_PT`` on screen rather than shrunk to fit.
SIDE_WIDTH_IN = 5.4
#: Width of a chart that has a page's width to itself, at most 760 px on screen (the what-if explorer's).
PAGE_WIDTH_IN = 9.2


def figure_png(figure: Figure) -> bytes:
    """A chart as PNG bytes, cropped to what is drawn: the one way the apps export a figure."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight")
    return buffer.getvalue()


__all__ = [
    "FILLS", "EXCEED_HATCH", "convergence_chart", "forward_move_chart", "timeline_chart", "MARKERS", "number_axis", "review_chart", "DPI",
    "MIN_FONT_PT", "SIDE_WIDTH_IN", "PAGE_WIDTH_IN",
]

#: Fill colours, chosen to stay apart for common colour-vision deficiencies (Paul Tol's palette).
FILLS: dict[str, str] = {"B": "#4477AA", "G": "#228833", "P": "#EE99BB", "Y": "#CCBB44"}
#: The hatch of a bar that is over (not solved, exceeding): it reads apart without colour.
EXCEED_HATCH = "xxx"
GREY, DARK = "#BBBBBB", "#333333"
#: One marker and line style per colour for line charts, so lines read without colour vision.
MARKERS: dict[str, tuple[str, str]] = {"B": ("D", "-"), "G": ("s", "--"), "P": ("P", "-."), "Y": ("o", ":")}

def number_axis(axis: Axis, t: Translator) -> None:
    """Tick labels in the reader's locale ("0,25", "1 000"), at most three decimals: matplotlib's
    own formatter writes "0.25" and "1000" in every language."""
    axis.set_major_formatter(lambda value, _: format_number(value, t.lang, 3, trim=True))


def _probability_axis(ax: Axes, t: Translator) -> None:
    ax.set_ylim(0, 1.05)
    ax.set_ylabel(t.gettext("Probability"))
    ax.yaxis.set_major_formatter(lambda y, _: format_chance(y, t.lang))


def convergence_chart(exact: float | Fraction | None, estimates: list[tuple[int, Estimate]], t: Translator,
                      probability: bool = True) -> Figure:
    """Simulated estimates with their 95% intervals closing in on the exact value as samples grow
    (``exact`` None: the value is not drawn, for a learner who has yet to find it). ``probability``
    False: an expected value, on an axis of numbers scaled to the estimates instead of 0-100 %."""
    fig = Figure(figsize=(7.7, 4.5), layout="constrained")  # within the exercises' 640 px, unshrunk
    ax = fig.subplots()
    sizes = [n for n, _ in estimates]
    values = [e for _, e in estimates]
    ax.fill_between(sizes, [e.low for e in values], [e.high for e in values], color=GREY, alpha=0.5,
                    hatch="//", edgecolor=DARK, label=t.gettext("95% interval"))
    ax.plot(sizes, [e.mean for e in values], marker="o", color=DARK, label=t.gettext("simulated estimate"))
    if exact is not None:
        label = format_exact(exact, t.lang, percent=probability)
        ax.axhline(float(exact), color="black", linestyle="--", label=t.gettext("exact value: {p}").format(p=label))
    ax.set_xscale("log")
    ax.set_xlabel(t.gettext("Samples (log scale)"))
    number_axis(ax.xaxis, t)  # "1 000", not matplotlib's "10³"
    if probability:
        _probability_axis(ax, t)
    else:
        ax.set_ylabel(t.gettext("Expected value"))
        number_axis(ax.yaxis, t)
    ax.set_title(t.gettext("Simulation approaching the exact value") if exact is not None
                 else t.gettext("Simulation settling as samples grow"))
    ax.legend(loc="best")
    return fig


def _bars_with_intervals(ax: Axes, values: list[float], halves: list[float], hatches: list[str]) -> None:
    positions = list(range(len(values)))
    bars = ax.barh(positions, values, xerr=[halves, halves] if any(halves) else None, capsize=4, color=GREY,
                   edgecolor=DARK, ecolor=DARK)
    for bar, hatch in zip(bars, hatches):
        bar.set_hatch(hatch)


def forward_move_chart(moves: list[MoveRisk], t: Translator) -> Figure:
    """Each move's chance of exceeding at the round end, expected score change and chance to be ahead;
    to the game's end (``ForwardRisk.game``), its expected final margin and chance of winning instead.

    In the order given (the one ranking's: the hint's move first); moves into the hometown are hatched ``//``, into the
    capital ``..``; simulated figures carry 95% intervals, exact ones none. The three panels are stacked, each
    with the moves' names, so the chart fits the tutor's side column at full size (``SIDE_WIDTH_IN``).
    """
    rows = max(len(moves), 2)
    fig = Figure(figsize=(SIDE_WIDTH_IN, 3 * (0.32 * rows + 0.9) + 0.9), layout="constrained")
    axes = fig.subplots(3, 1)
    labels = [action_label(t, m.action) for m in moves]
    hatches = [(".." if m.action.to == CAPITAL else "//") if isinstance(m.action, Play) else "" for m in moves]
    ends = [m.risk.game for m in moves if m.risk.game is not None]
    columns: list[tuple[str, list[Estimate], bool]] = [
        (t.gettext("Chance of exceeding in any colour"), [m.risk.p_exceed_any for m in moves], True),
        (t.gettext("Expected change of your score"), [m.risk.score_change for m in moves], False),
        (t.gettext("Chance to be ahead after the round"), [m.risk.p_ahead for m in moves], True),
    ]
    if moves and len(ends) == len(moves):
        columns[1:] = [(t.gettext("Expected final margin over the best other player"), [e.margin for e in ends], False),
                       (t.gettext("Chance of winning"), [e.p_win for e in ends], True)]
    for ax, (title, values, probability) in zip(axes, columns):
        _bars_with_intervals(ax, [q.mean for q in values], [q.half_width for q in values], hatches)
        ax.set_title(title, wrap=True)
        if probability:
            ax.set_xlim(0, 1.05)
            ax.xaxis.set_major_formatter(lambda x, _: format_chance(x, t.lang))
        else:
            number_axis(ax.xaxis, t)
        ax.set_yticks(list(range(len(moves))), labels)
        ax.invert_yaxis()
    if moves:
        first = moves[0].risk
        if ends:
            title = t.gettext("Your moves, each followed to the game's end in {n} simulated games, 95% intervals, "
                              "if the others play like the {bot}")
        elif first.exact:
            title = t.gettext("Your moves, the hint's first: exact, if the others play like the {bot}")
        else:
            title = t.gettext("Your moves, the hint's first: {n} simulated games each, 95% intervals, "
                              "if the others play like the {bot}")
        fig.suptitle(title.format(n=format_number(first.samples, t.lang), bot=model_name(t, first.model)),
                     wrap=True)
    return fig


def timeline_chart(points: list[tuple[str, ForwardRisk]], t: Translator) -> Figure:
    """The learner's forward risk per colour after each of their decisions in the round.

    The decisions run down the chart (first at the top), so the chart keeps the side column's
    width however many there are; one line per colour, each with its own marker and line style
    besides its colour; simulated points carry their 95% interval as an error bar.
    """
    rows = max(len(points), 2)
    fig = Figure(figsize=(SIDE_WIDTH_IN, 0.45 * rows + 2.6), layout="constrained")
    ax = fig.subplots()
    ys = list(range(len(points)))
    for c in COLOURS:
        values = [r.colours[c].p_exceed.mean for _, r in points]
        halves = [r.colours[c].p_exceed.half_width for _, r in points]
        marker, style = MARKERS[c]
        ax.errorbar(values, ys, xerr=halves if any(halves) else None, marker=marker, linestyle=style,
                    color=FILLS[c], ecolor=DARK, capsize=3, label=colour_label(t, c))
    ax.set_yticks(ys, [label for label, _ in points])
    ax.set_ylim(len(points) - 0.5, -0.5)  # the first decision at the top
    ax.set_xlim(0, 1.05)
    ax.set_xlabel(t.gettext("Probability"))
    ax.xaxis.set_major_formatter(lambda x, _: format_chance(x, t.lang))
    ax.set_title(t.gettext("Your chance of exceeding at the round end, after each of your decisions"), wrap=True)
    fig.legend(loc="outside lower center", ncols=2)
    return fig


#: The game chart's text size in points: at the apps' 80 dpi, 11 pt is 12 pixels on screen.
REVIEW_FONT = 11.0


def review_chart(review: Review, t: Translator, seat: int | None = None) -> Figure:
    """The game of ``seat`` (the reviewed seat by default) as ``Review.series`` tells it.

    At each decision (numbered along the axis) a solid vertical step goes from the best
    move's expectation (open circle) to the played move's (filled square): what the decision
    cost. Dashed grey lines join a decision to the next point: the cards drawn, the modifiers
    revealed and the other players' moves. Round ends are dotted vertical lines, labelled,
    with the score then (a star). The key moments carry their number, as in the list beside
    the chart. Each kind of step has its own line style and marker, so colour is never the
    only signal.
    """
    from matplotlib.lines import Line2D
    from matplotlib.ticker import MaxNLocator

    series = review.series(seat)
    mine = review.of_seat(review.seat if seat is None else seat)
    number = {d.index: n for n, d in enumerate(mine, 1)}  # a decision's place on the axis
    moments = {d.index: k for k, d in enumerate(review.key_moments(seat), 1)}
    fig = Figure(figsize=(11, 5.2), layout="constrained")
    ax = fig.subplots()
    decision_colour, luck_colour, end_colour = "#004488", "#777777", DARK

    def x_of(p: ChartPoint) -> float:
        if p.kind == "round_end":  # half-way to the next round's first decision
            return max((n for i, n in number.items() if i <= p.index), default=0) + 0.5
        return number[p.index]

    for start, end, kind in review.steps(seat):  # luck; a decision's own step is drawn below
        if kind == "luck":
            ax.plot([x_of(start), x_of(end)], [start.value, end.value], linestyle="--", linewidth=1.2,
                    color=luck_colour, zorder=1)
    befores = [p for p in series if p.kind == "before"]
    afters = [p for p in series if p.kind == "after"]
    for before, after in zip(befores, afters):
        x = x_of(before)
        ax.plot([x, x], [before.value, after.value], linestyle="-", linewidth=3, color=decision_colour, zorder=2)
        if after.index in moments:
            ax.annotate(str(moments[after.index]), (x, (before.value + after.value) / 2), xytext=(-8, 0),
                        textcoords="offset points", fontsize=REVIEW_FONT, fontweight="bold", ha="right", va="center",
                        bbox={"boxstyle": "circle,pad=0.2", "facecolor": "white", "edgecolor": DARK})
    ax.errorbar([x_of(p) for p in befores], [p.value for p in befores], yerr=[p.half for p in befores],
                fmt="o", markerfacecolor="white", markeredgecolor=decision_colour, ecolor=GREY, capsize=2, zorder=3)
    ax.errorbar([x_of(p) for p in afters], [p.value for p in afters], yerr=[p.half for p in afters],
                fmt="s", color=decision_colour, ecolor=GREY, capsize=2, zorder=3)
    finals = [p for p in series if p.kind == "round_end"]
    if finals:
        ax.plot([x_of(p) for p in finals], [p.value for p in finals], linestyle="none", marker="*", markersize=14,
                color=end_colour, zorder=4)
    low = min([p.value - p.half for p in series] + [0.0])
    high = max([p.value + p.half for p in series], default=1.0)
    pad = 0.06 * (high - low) + 0.5
    for round_end in review.round_ends:
        x = max((n for i, n in number.items() if i <= round_end.index), default=0) + 0.5
        ax.axvline(x, color=end_colour, linestyle=":", linewidth=1.2, zorder=0)
        ax.text(x, 0.98, t.gettext("End of round {round}").format(round=round_end.round),
                transform=ax.get_xaxis_transform(),
                ha="right", va="top", rotation=90, fontsize=REVIEW_FONT, color=end_colour,
                bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.8, "pad": 1})
    ax.set_xlim(0.3, max(number.values(), default=1) + 1)
    ax.set_ylim(low - pad, high + pad)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    number_axis(ax.xaxis, t)
    number_axis(ax.yaxis, t)
    ax.tick_params(labelsize=REVIEW_FONT)
    ax.set_xlabel(t.gettext("Your decisions, in the order of the game"), fontsize=REVIEW_FONT)
    to_round_end = review.horizon == "round_end"
    ax.set_ylabel(t.gettext("Your expected score at the end of the round") if to_round_end
                  else t.gettext("Your expected final margin over the best other player"), fontsize=REVIEW_FONT)
    ax.set_title(t.gettext("Your game: your expected score, from what you could see, before and after each "
                           "decision") if to_round_end else
                 t.gettext("Your game: your expected final margin, from what you could see, before and after each "
                           "decision"), fontsize=REVIEW_FONT + 1)
    handles = [
        Line2D([], [], color=decision_colour, linewidth=3, marker="s",
               label=t.gettext("your decision: from the best move (○) to the move played (■)")),
        Line2D([], [], color=luck_colour, linewidth=1.2, linestyle="--",
               label=t.gettext("luck: cards drawn, modifiers revealed, the other players' moves")),
        Line2D([], [], color=end_colour, linestyle=":", marker="*", markersize=12,
               label=t.gettext("end of a round: your score then (★)") if to_round_end
               else t.gettext("end of a round; at the game's end, your final margin (★)")),
    ]
    if moments:
        handles.append(Line2D([], [], linestyle="none", marker="$1$", color=DARK, markersize=9,
                              label=t.gettext("a key moment, numbered as in the list")))
    fig.legend(handles=handles, loc="outside lower center", ncols=2, fontsize=REVIEW_FONT)
    return fig
