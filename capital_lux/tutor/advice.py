"""One voice for advice: the hint and the move comparison read the same ranking.

``ranked_moves`` is the only place that asks the analysis for an opinion (the
simulated comparison of every legal move, ``analysis.risk.compare_moves``); the hint
names its first move, and the comparison table lists the same ranking. When the
rule-of-thumb player (how the beginner bots play) would choose differently, the
hint says so and why. ``effect_text`` says in one sentence what a move does besides
placing a card: the Cleric's take, the Scholar's draw, the Merchant's gold, a
modifier's effect on a limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


from ..engine.cards import COLOURS, Card, format_modifier
from ..engine.notation import CAPITAL, Action, Pick, PlaceModifier, Play, SaveWithGold, TakeLowest
from ..engine.views import PlayerView
from ..i18n import Translator, format_number, format_percent
from .text import action_label, card_text, colour_text

#: Deals simulated per move (a click's worth of time: about 3 s for the 15 picks of a draft).
SAMPLES = 24
CLERIC_COLOURS = ("B", "G", "Y")


@dataclass(frozen=True)
class Ranked:
    """One move of the ranking: the analysis's estimates, read through plain numbers."""

    action: Action
    points: float  # mean points at the horizon
    points_low: float
    points_high: float
    p_exceed: float  # chance of exceeding some limit by the horizon
    samples: int
    estimate: Any  # the analysis's own object, for its chart


def comparison_seed(v: PlayerView) -> int:
    """The same position always draws the same deals: asking twice gives the same answer."""
    return v.round * 1000 + len(v.hand) * 10 + len(v.draft_hand)


def ranked_moves(v: PlayerView, samples: int = SAMPLES) -> list[Ranked]:
    """Every legal move of the viewer, best first: most points at the round end, then the
    smaller chance of exceeding, then the view's own order. A single legal move is not
    simulated (there is nothing to compare)."""
    if len(v.legal_actions) == 1:
        return [Ranked(v.legal_actions[0], 0.0, 0.0, 0.0, 0.0, 0, None)]
    from ..analysis.risk import compare_moves  # the one call into the analysis: adapt here

    moves = compare_moves(v, samples=samples, seed=comparison_seed(v))
    ranked = [
        Ranked(m.action, m.score.mean, m.score.low, m.score.high, m.p_exceed_any.mean, m.score.n, m)
        for m in moves
    ]
    ranked.sort(key=lambda r: (-round(r.points, 6), round(r.p_exceed, 6)))
    return ranked


def rule_of_thumb(v: PlayerView) -> Action:
    from ..players.bots import RuleOfThumbBot

    return RuleOfThumbBot().advise(v).action


def move_text(t: Translator, a: Action, own: bool = True) -> str:
    """A move as the table shows it: cards by symbol, role and value, in the reader's language.
    ``own``: the reader's move (else any player's, as in the what-if explorer)."""
    if isinstance(a, Play) and a.to != CAPITAL and not own:
        return t.gettext("{card} into their Hometown").format(card=card_text(t, a.card))
    return action_label(t, a)


def _limit(v: PlayerView, colour: str) -> int:
    """The colour's limit as the viewer knows it: Capital cards plus the modifiers it can see."""
    return sum(v.capital[colour]) + v.known_modifiers(colour)


def _hidden(v: PlayerView, colour: str) -> bool:
    return any(m.value is None for m in v.modifiers_above[colour])


def effect_text(t: Translator, v: PlayerView, a: Action) -> str:
    """What the move does, side effects included, in one or two sentences."""
    if isinstance(a, Play) and a.to != CAPITAL:
        c = a.card.colour
        total = v.hometown_total(v.viewer, c) + a.card.value
        text = t.gettext("Your Hometown total in {colour} becomes {total}, against a limit of {limit} "
                         "that you can see.").format(colour=colour_text(t, c), total=total, limit=_limit(v, c))
        if _hidden(v, c):
            text += " " + t.gettext("A face-down modifier above it can still change that limit.")
        return text
    if isinstance(a, Play):
        c, value = a.card.colour, a.card.value
        raised = t.gettext("It raises the limit of {colour} by {value}, for every player.").format(
            colour=colour_text(t, c), value=value)
        return raised + " " + _special(t, v, c)
    if isinstance(a, PlaceModifier) and v.pending_modifier is not None:
        before = _limit(v, a.colour)
        if v.pending_modifier > 0:
            key = t.gettext("The {modifier} raises the limit of {colour} from {before} to {after} at the round "
                            "end, for every player.")
        else:
            key = t.gettext("The {modifier} lowers the limit of {colour} from {before} to {after} at the round "
                            "end, for every player.")
        return key.format(modifier=format_modifier(v.pending_modifier), colour=colour_text(t, a.colour),
                                     before=before, after=before + v.pending_modifier)
    if isinstance(a, TakeLowest) and v.capital[a.colour]:
        card = Card(a.colour, min(v.capital[a.colour]))
        before = _limit(v, a.colour)
        return t.gettext("You take {card} into your Hometown; the limit of {colour} drops from {before} to "
                         "{after}.").format(card=card_text(t, card), colour=colour_text(t, a.colour),
                                            before=before, after=before - card.value)
    if isinstance(a, Pick):
        return t.gettext("These cards stay in your hand; the others pass to the next player.")
    if isinstance(a, SaveWithGold):
        return t.gettext("The gold you pay keeps those colours; any other colour over its limit is discarded.")
    return ""


def _special(t: Translator, v: PlayerView, colour: str) -> str:
    """The special action a Capital play triggers, as it would happen on this table."""
    if colour == "G":
        if v.deck_size:
            return t.gettext("Then you draw the top card of the deck into your hand (Scholar).")
        return t.gettext("The deck is empty, so the Scholar draws nothing.")
    if colour == "Y":
        if v.gold_pile:
            return t.gettext("Then you take a gold disc (Merchant): it is worth 1 point, or pays to keep "
                             "a colour over its limit.")
        return t.gettext("The gold pile is empty, so the Merchant takes nothing.")
    if colour == "B":
        if v.modifier_deck_size:
            return t.gettext("Then you draw a modifier and place it face down above a Capital colour (Agent).")
        return t.gettext("The modifier deck is empty, so the Agent draws nothing.")
    options = [c for c in CLERIC_COLOURS if v.capital[c]]
    if not options:
        return t.gettext("No blue, green or yellow card is in the Capital, so the Cleric takes nothing.")
    if len(options) == 1:
        c = options[0]
        card = Card(c, min(v.capital[c]))
        return t.gettext("Then the Cleric takes {card}, the only card it can take, from the Capital into your "
                         "Hometown: it counts there, and the limit of {colour} drops by {value}.").format(
            card=card_text(t, card), colour=colour_text(t, c), value=card.value)
    cards = ", ".join(card_text(t, Card(c, min(v.capital[c]))) for c in COLOURS if c in options)
    return t.gettext("Then the Cleric takes one of {cards} (you choose) from the Capital into your Hometown: "
                     "it counts there, and that colour's limit drops.").format(cards=cards)


@dataclass(frozen=True)
class Advice:
    action: Action
    ranking: list[Ranked]
    rule_of_thumb: Action | None  # set only when the rule of thumb would choose another move


def advise(v: PlayerView, samples: int = SAMPLES) -> Advice:
    """The hint: the ranking's first move; the rule of thumb's choice if it differs."""
    ranking = ranked_moves(v, samples)
    best = ranking[0].action
    thumb = rule_of_thumb(v) if len(ranking) > 1 else best
    return Advice(best, ranking, None if thumb == best else thumb)


def advice_text(t: Translator, v: PlayerView, advice: Advice) -> str:
    """The hint's sentences: the move's effect, why it is preferred, and any disagreement."""
    best = advice.ranking[0]
    parts = [effect_text(t, v, advice.action)]
    if best.samples == 0:
        parts.append(t.gettext("This is the only move."))
        return " ".join(p for p in parts if p)
    parts.append(t.gettext(
        "Of the {n} moves compared, it gives the most points at the round end: about {points} "
        "(95% interval {low} to {high}), with a {p} chance of exceeding a limit ({samples} simulated deals)."
    ).format(n=len(advice.ranking), points=format_number(best.points, t.lang, 1),
             low=format_number(best.points_low, t.lang, 1), high=format_number(best.points_high, t.lang, 1),
             p=format_percent(best.p_exceed, t.lang), samples=best.samples))
    if advice.rule_of_thumb is not None:
        parts.append(t.gettext(
            "The rule of thumb the beginner bots follow would choose {move} instead; it looks only at the "
            "table now, while the comparison plays every move on to the round end."
        ).format(move=move_text(t, advice.rule_of_thumb)))
    parts.append(t.gettext(
        "The hint ranks the moves by points at the round end; “Compare my moves at the round end” ranks them "
        "by the chance of exceeding, with more simulated deals and their margins of error, so its first move "
        "may differ."))
    return " ".join(p for p in parts if p)
