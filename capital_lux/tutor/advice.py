"""One voice for advice: the hint and the move comparison read the same ranking.

``advise`` is the only place the hint asks the analysis for an opinion: the one ranking
of every legal move (``analysis.forward.rank_moves``), which the risk panel's "Compare
my moves" lists in the same order. The hint names its first move in one sentence, and
keeps the figures (measured again on fresh games), the moves as good as it and any
disagreement of the rule of thumb behind a "Why?". ``effect_text`` says in one sentence
what a move does besides placing a card: the Cleric's take, the Scholar's draw, the
Merchant's gold, a modifier's effect on a limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine.cards import COLOURS, Card, format_modifier
from ..engine.notation import CAPITAL, Action, Pick, PlaceModifier, Play, SaveWithGold, TakeLowest
from ..engine.state import GOLD
from ..engine.views import PlayerView
from ..i18n import Translator, format_list, format_number
from .riskline import chance
from .text import action_label, card_text, colour_text

CLERIC_COLOURS = ("B", "G", "Y")

if TYPE_CHECKING:  # the analysis is imported when a hint is first asked: the first screen does without it
    from ..analysis.forward import Ranking
    from ..players.bots import Hint


def comparison_seed(v: PlayerView) -> int:
    """The same position always draws the same deals: asking twice gives the same answer."""
    return v.round * 1000 + len(v.hand) * 10 + len(v.draft_hand)


def one_ranking(v: PlayerView, model: str = "rule", placement: str = "bayes", **options: Any) -> Ranking:
    """``rank_moves`` as the hint and the comparison both ask it, so that they quote one set of
    figures: the position's own seed (``comparison_seed``), and whether the exact search fits
    told by its own work (``forward.WorkClock``), not by the CPU time it got, which on a loaded
    machine gave one of them simulated figures where the other's were exact."""
    from ..analysis.forward import WorkClock, rank_moves

    return rank_moves(v, model, placement, seed=comparison_seed(v), exact_clock=WorkClock(), **options)


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
    ranking: Ranking | None  # None: the only legal move, or the gold at the round end
    rule_of_thumb: Action | None  # set only when the rule of thumb would choose another move
    reason: Hint | None = None  # the rule of thumb's reason, where it gives the advice


def advise(v: PlayerView, placement_views: dict[tuple[str, int], PlayerView] | None = None,
           games: int | None = None) -> Advice:
    """The hint: the one ranking's first move (the others playing like the rule of thumb),
    and the rule of thumb's own choice if it differs. With the gold to pay at the round
    end the cards are all revealed and nothing is left to rank on to the round end: the
    rule of thumb's choice, with its reason."""
    if len(v.legal_actions) == 1:
        return Advice(v.legal_actions[0], None, None)
    if v.phase == GOLD:
        from ..players.bots import RuleOfThumbBot

        hint = RuleOfThumbBot().advise(v)
        return Advice(hint.action, None, None, hint)
    from ..analysis.forward import RANK_GAMES

    ranking = one_ranking(v, games=games or RANK_GAMES, placement_views=placement_views)
    thumb = rule_of_thumb(v)
    return Advice(ranking.best.action, ranking, None if thumb == ranking.best.action else thumb)


def advice_headline(t: Translator, advice: Advice) -> str:
    """The hint in one sentence: why this move."""
    ranking = advice.ranking
    if advice.reason is not None:
        return advice.reason.text(t)
    if ranking is None:
        return t.gettext("This is the only move.")
    if ranking.tied == 1:
        return t.gettext("It should bring you the most points by the round end.")
    if advice.rule_of_thumb is None:
        return t.ngettext(
            "{n} move is about as good for your points; this one is the rule of thumb's.",
            "{n} moves are about as good for your points; this one is the rule of thumb's.",
            ranking.tied).format(n=ranking.tied)
    return t.ngettext(
        "{n} move is about as good for your points; of them, this one is not beaten on both points and risk.",
        "{n} moves are about as good for your points; of them, this one is not beaten on both points and risk.",
        ranking.tied).format(n=ranking.tied)


def advice_reasons(t: Translator, v: PlayerView, advice: Advice) -> list[str]:
    """What stands behind "Why?": the move's effect, its figures, the moves as good as it,
    and the rule of thumb's choice when it differs; one whole sentence each."""
    reasons = [effect_text(t, v, advice.action)]
    ranking = advice.ranking
    if ranking is None:
        return [r for r in reasons if r]
    # The panel's own figures for this move (one set of figures on the screen: the hint and
    # "Compare my moves" quote the same numbers, and no move there beats it on both points and risk).
    quote = ranking.best.risk
    # the risk lines' quantity and wording: a chance of exceeding at the round end, never 0% or 100% unless exact
    figures = {"points": format_number(quote.score_change.mean, t.lang, 1), "p": chance(quote.p_exceed_any, t)}
    if quote.exact:
        reasons.append(t.gettext(
            "If the others play like the rule of thumb, it brings you {points} points by the round end on average, "
            "with a {p} chance that some colour exceeds its limit then (exact).").format(**figures))
    else:
        reasons.append(t.gettext(
            "On {n} games, the same for every move, the others playing like the rule of thumb, it brings you "
            "{points} points by the round end (give or take {half}), with a {p} chance that some colour exceeds its "
            "limit then: the comparison's own figures.").format(
            n=format_number(quote.samples, t.lang), half=format_number(quote.score_change.half_width, t.lang, 1),
            **figures))
    if ranking.tied > 1:
        others = [move_text(t, m.action) for m in ranking.moves[1:ranking.tied]]
        reasons.append(t.ngettext("About as good for your points: {moves}.", "About as good for your points: {moves}.",
                                  len(others)).format(moves=format_list(others, t.lang)))
    if advice.rule_of_thumb is not None:
        reasons.append(t.gettext(
            "The rule of thumb the beginner bots follow would choose {move} instead; it looks only at the "
            "table now, while the comparison plays every move on to the round end."
        ).format(move=move_text(t, advice.rule_of_thumb)))
    reasons.append(t.gettext("“Compare my moves at the round end” shows every move's figures, in the same order."))
    return [r for r in reasons if r]


def advice_text(t: Translator, v: PlayerView, advice: Advice) -> str:
    """The headline and the reasons, as plain text (the command line, the logs)."""
    return " ".join([advice_headline(t, advice), *advice_reasons(t, v, advice)])
