"""One answer to "am I safe?": a line per colour beside the learner's hand.

Each line separates what the learner controls from what they do not: first the colour's
chance of exceeding its limit with the learner's cards as they stand (Hometown and hand,
exact: what their choice of cards changes), then at the round end (the Hometown total,
hand included, above the Capital's; ruling R7), once the others' cards and the draws have
come in, every player playing on like the opponent model, and what the learner's gold does
about it. The figures are the risk panel's own ("if the round ended now" and the forward
risk), the same the panel's table and the timeline chart show: no second computation.

Wording never says more than the number knows: 0% and 100% only when exact (the "now"
figure always is)
(``chance``), "under 1%" or "over 99%" otherwise; simulated figures carry "≈" and the
heading gives the games and the widest interval.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING

from ..analysis.stats import Estimate
from ..engine.cards import COLOURS, N_
from ..engine.views import PlayerView
from ..i18n import Translator, format_chance, format_number
from ..i18n.sentences import colour_text

if TYPE_CHECKING:  # the forward model is imported when first used: the first screen does without it
    from ..analysis.forward import ForwardColour, ForwardRisk
    from ..analysis.risk import RoundEndRisk

#: Below this a probability reads "under 1%", above 1 minus it "over 99%", unless it is exactly 0 or 1.
EDGE = Fraction(1, 100)
#: Expected points lost below this read "under 0.1", never "0.0" beside a chance of losing some.
SMALL_POINTS = 0.05


def points(x: float, t: Translator) -> str:
    """Percentage points, one decimal, in the reader's locale."""
    return format_number(x * 100, t.lang, 1)


def chance(q: Estimate | Fraction, t: Translator, approx: bool = False) -> str:
    """A probability in the reader's locale that claims no more than it knows: ``0%`` or
    ``100%`` only for an exact 0 or 1, "under 1%" or "over 99%" near them; ``approx``
    puts "≈" before a simulated figure. An exact ``Fraction`` (the round end if it came now)
    reads as an exact figure."""
    figure = Estimate.exactly(q) if isinstance(q, Fraction) else q
    p = figure.mean
    if figure.exact in (0, 1):
        return format_chance(figure.value, t.lang)
    if p < EDGE:
        return t.gettext("under {p}").format(p=format_chance(EDGE, t.lang))
    if p > 1 - EDGE:
        return t.gettext("over {p}").format(p=format_chance(1 - EDGE, t.lang))
    text = format_chance(p, t.lang)
    return f"≈ {text}" if approx and not figure.is_exact else text


def points_text(x: float, t: Translator) -> str:
    """Expected points, one decimal; "under 0.1" rather than "0.0" when some are lost."""
    if 0 < x < SMALL_POINTS:
        return t.gettext("under {p}").format(p=format_number(0.1, t.lang, 1))
    return format_number(x, t.lang, 1)


#: Each colour's sentence by case, without and with the "now" figure (``colour_line``): one
#: table, so the two forms of a line can never say different things of the same figures.
LINES: dict[str, tuple[str, str]] = {
    "none": (N_("{colour}: no chance of exceeding its limit."),
             N_("{colour}: {now} now, none at the round end.")),
    # the simulated games took gold later: not the learner's now
    "gold_later": (N_("{colour}: {p} chance of exceeding its limit; you have no gold now, but in the simulated "
                      "games gold taken before the round end keeps it."),
                   N_("{colour}: {now} now, {p} at the round end, kept by gold taken later in the simulated "
                      "games.")),
    "gold_keeps": (N_("{colour}: {p} chance of exceeding its limit; your gold would keep it."),
                   N_("{colour}: {now} now, {p} at the round end; your gold would keep it.")),
    "nothing_lost": (N_("{colour}: {p} chance of exceeding its limit."),
                     N_("{colour}: {now} now, {p} at the round end.")),
    "no_gold": (N_("{colour}: {p} chance of exceeding its limit; with no gold, you lose {points} points on "
                   "average."),
                N_("{colour}: {now} now, {p} at the round end; with no gold, you lose {points} points on "
                   "average.")),
    "short_of_gold": (N_("{colour}: {p} chance of exceeding its limit; even with your gold, you lose {points} "
                         "points on average."),
                      N_("{colour}: {now} now, {p} at the round end; even with your gold, you lose {points} points "
                         "on average.")),
}


def line_case(p: Estimate, lost: float, gold: int) -> str:
    """Which sentence of ``LINES`` fits a colour's round-end figures: no chance at all; a chance
    whose points gold keeps (the learner's gold, or, with none, gold the simulated games took
    later); a chance of nothing lost (a simulated 0); points lost without gold or despite it."""
    if p.exact == 0:
        return "none"
    if lost == 0 and p.mean > 0:
        return "gold_later" if gold == 0 else "gold_keeps"
    if lost == 0:
        return "nothing_lost"
    return "no_gold" if gold == 0 else "short_of_gold"


def colour_line(t: Translator, colour: str, figures: ForwardColour, gold: int, approx: bool,
                now: Fraction | None = None) -> str:
    """One colour's sentence: its chance of exceeding at the round end and what gold does; with
    ``now`` (the exact chance with the learner's cards as they stand: Hometown and hand, ruling
    R9), the part the learner's own choice of cards holds first, then the round end once the
    others' cards and the draws, which the learner does not control, have come in. One row
    beside the hand ("at the round end" is the heading's in the first form)."""
    p, lost = figures.p_exceed, figures.points_lost.mean
    values = {"colour": colour_text(t, colour), "p": chance(p, t, approx), "points": points_text(lost, t)}
    split = now is not None and not (p.exact == 0 and now == 0)  # nothing now nor later: one short sentence
    if now is not None:
        values["now"] = chance(now, t)
    return t.gettext(LINES[line_case(p, lost, gold)][split]).format(**values)


def heading(t: Translator, risk: ForwardRisk | None, bot: str) -> str:
    """What the lines are: the round end under the model, exact or simulated."""
    if risk is None:
        return t.gettext("Working out the round end…")
    if risk.exact:
        return t.gettext("Chance of exceeding: now, with your cards as they stand (your choice); at the round "
                         "end, after the others' cards and the draws, all playing like the {bot} (exact):").format(
            bot=bot)
    # "percentage points": the lines below speak of game points too
    return t.gettext("Chance of exceeding: now, with your cards as they stand (your choice); at the round "
                     "end, after the others' cards and the draws, all playing like the {bot} (≈: simulated on {n} "
                     "games, ±{x} percentage points):").format(bot=bot, n=format_number(risk.samples, t.lang),
                                                   x=points(risk.widest(), t))


def risk_lines(t: Translator, v: PlayerView, risk: ForwardRisk | None, bot: str,
               now: RoundEndRisk | None = None) -> list[str]:
    """The heading, then one sentence per colour (none while the figures are worked out); with
    ``now`` (``round_end_risk`` with the hand), each line first gives the chance the learner's
    cards hold as they stand, then the round end's."""
    if risk is None:
        return [heading(t, None, bot)]
    approx = not risk.exact
    return [heading(t, risk, bot)] + [colour_line(t, c, risk.colours[c], v.gold[v.viewer], approx,
                                                  None if now is None else now.colours[c].p_exceed)
                                      for c in COLOURS]


def risk_lines_html(t: Translator, v: PlayerView, risk: ForwardRisk | None, bot: str,
                    now: RoundEndRisk | None = None) -> str:
    head, *lines = risk_lines(t, v, risk, bot, now)
    rows = "".join(f'<li data-colour="{c}">{escape(line)}</li>' for c, line in zip(COLOURS, lines))
    return (f'<div class="cl-risklines" role="status"><b>{escape(head)}</b>'
            f'{f"<ul>{rows}</ul>" if rows else ""}</div>')


def hands_sentence(t: Translator) -> str:
    """How the figures deal the others' cards, and the model's limit: at random from the unseen
    cards; what the learner passed in the draft and how the others chose is not used
    (``bench risk_calibration`` measured the draft's knowledge: no gain worth the exact figures)."""
    return t.gettext("The others' cards are dealt at random among the cards you cannot see now: where the cards "
                     "you passed in the draft went, and how the others chose in the draft, are not used.")
