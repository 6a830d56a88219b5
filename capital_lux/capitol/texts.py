"""Capitol's sentences, shared by the command line and the tutor's page: the phase under
way, the pieces, and each legal move said in words beside its notation.

Every text is a whole catalogue sentence, in the reader's language; the notation (``F3
0+1 2+1``, ``B4 1t B2``) stays as it is in every language, as a card's name does.

>>> from capital_lux.i18n import translator
>>> from .notation import parse_action
>>> move_text(translator("en"), parse_action("B4 1t B2"))
'B4 1t B2: permit: your building of 1 storey with a triangular roof goes to district B2'
"""

from __future__ import annotations

from ..i18n import Translator, sentences
from ..i18n.sentences import Style
from .components import AMPHITHEATRE, FLOOR, FOUNTAIN, PILES, ROOF, ROUND, TEMPLE, Card, N_
from .notation import Action, Draw, Offer, Pass, Place, PlayFloors, PlayOnly, PlayPermit, PlayRoof, Stop
from .state import BID, BUILD, DRAW, PLACE

__all__ = ["large_text", "move_text", "phase_lesson", "phase_text"]


#: The phase under way and who acts, one whole sentence per phase (and per piece sold).
_PHASES: dict[tuple[str, str | None], str] = {
    (BUILD, None): N_("Round {round} of 4, construction: {player} plays a card or passes."),
    (BID, FOUNTAIN): N_("Round {round} of 4: auction for a fountain; {player} bids."),
    (BID, AMPHITHEATRE): N_("Round {round} of 4: auction for an amphitheatre; {player} bids."),
    (BID, TEMPLE): N_("Round {round} of 4: auction for a temple; {player} bids."),
    (PLACE, None): N_("Round {round} of 4: {player} won the auction and places the piece bought."),
    (DRAW, None): N_("Round {round} of 4, draw phase: {player} draws a card."),
}


def phase_text(t: Translator, phase: str, round: int, piece: str | None, current: int, you: int,
               style: Style) -> str:
    """The phase under way and who acts, as one sentence."""
    sentence = _PHASES.get((phase, piece if phase == BID else None))
    if sentence is None:
        return t.gettext("The game is over.")
    return t.gettext(sentence).format(round=round, player=sentences.player_name(t, current, you, style))


def phase_lesson(t: Translator, phase: str) -> str:
    """What a learner does in the phase, and what the notation of its moves means."""
    if phase == BUILD:
        return t.gettext(
            "Construction: play a floor card to place two floors (0+1 starts a new building with one floor, 2+1 "
            "adds one to your building of two storeys), a roof card to finish a building under construction, or a "
            "permit to put a finished building in a district of the permit's colour. You may also play a card "
            "without its action, or pass: once you pass, you play no more cards this round.")
    if phase == BID:
        return t.gettext(
            "Improvement: each player makes a secret bid by putting cards above the STOP card, then the bids are "
            "revealed. The highest total wins; a tie goes to the highest single card, then to turn order. The "
            "winner discards the cards bid; the others keep theirs.")
    if phase == PLACE:
        return t.gettext(
            "The winner places the piece bought: a fountain on a free small square, an amphitheatre or a temple on "
            "a district's large square.")
    if phase == DRAW:
        return t.gettext(
            "Draw phase: each player in turn draws six cards one at a time, from the top of the roof, floor and "
            "permit piles, which are face up; amphitheatres give their district's first two players extra cards.")
    return t.gettext(
        "At the end of every round each district is scored: its first player gets 2 points plus 1 per fountain, "
        "its second 1 per fountain, doubled by a temple.")


def large_text(t: Translator, piece: str) -> str:
    """The piece on a district's large square, in words ("" if it is free)."""
    if piece == TEMPLE:
        return t.pgettext("capitol", "temple")
    if piece == AMPHITHEATRE:
        return t.pgettext("capitol", "amphitheatre")
    return ""


def _pile_card(t: Translator, move: str, pile: str, card: Card | None) -> str:
    top = str(card) if card is not None else "-"
    if pile == ROOF:
        return t.gettext("{move}: take {card}, the top card of the roof pile").format(move=move, card=top)
    if pile == FLOOR:
        return t.gettext("{move}: take {card}, the top card of the floor pile").format(move=move, card=top)
    return t.gettext("{move}: take {card}, the top card of the permit pile").format(move=move, card=top)


def move_text(t: Translator, action: Action, tops: tuple[Card | None, ...] = (None, None, None)) -> str:
    """A legal move in words after its notation; ``tops`` are the piles' top cards (for a draw)."""
    move = str(action)
    if isinstance(action, Pass):
        return t.gettext("pass: you play no more cards this round")
    if isinstance(action, PlayOnly):
        return t.gettext("{move}: the card is played without its action").format(move=move)
    if isinstance(action, PlayFloors):
        return t.gettext("{move}: floor card, its floors placed as written").format(move=move)
    if isinstance(action, PlayRoof):
        if action.roof == ROUND:
            return t.ngettext("{move}: roof card: a round roof on your building of {storeys} storey",
                              "{move}: roof card: a round roof on your building of {storeys} storeys",
                              action.height).format(move=move, storeys=action.height)
        return t.ngettext("{move}: roof card: a triangular roof on your building of {storeys} storey",
                          "{move}: roof card: a triangular roof on your building of {storeys} storeys",
                          action.height).format(move=move, storeys=action.height)
    if isinstance(action, PlayPermit):
        if action.roof == ROUND:
            return t.ngettext(
                "{move}: permit: your building of {storeys} storey with a round roof goes to district {district}",
                "{move}: permit: your building of {storeys} storeys with a round roof goes to district {district}",
                action.height).format(move=move, storeys=action.height, district=action.district)
        return t.ngettext(
            "{move}: permit: your building of {storeys} storey with a triangular roof goes to district {district}",
            "{move}: permit: your building of {storeys} storeys with a triangular roof goes to district {district}",
            action.height).format(move=move, storeys=action.height, district=action.district)
    if isinstance(action, Offer):
        return t.gettext("{move}: one more card, {card}, above your STOP card").format(move=move, card=action.card)
    if isinstance(action, Stop):
        return t.gettext("stop: the STOP card goes down; your bid is the cards above it")
    if isinstance(action, Place):
        return t.gettext("{move}: the piece bought goes to district {district}").format(
            move=move, district=action.district)
    assert isinstance(action, Draw)
    return _pile_card(t, move, action.pile, tops[PILES.index(action.pile)])
