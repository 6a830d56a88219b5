"""The one home of action-to-text and event-to-text, for every screen, in whole sentences.

Each case has its own message: the learner's own move ("You play … into your
Hometown."), another player's ("… plays … into their Hometown."), a play into the
Capital with what its colour does, said as a statement about that player (never the
rule's imperative). No sentence is glued from pieces, so each language can write
its own grammar.

Two styles name players and cards:

* ``LEARNER`` (the tutor, the hints): "You" / "Bot 1"; a card the way the table
  shows it, "◆ Agent 5 (blue)" (symbol, role, value and colour: never colour alone);
* ``TERMINAL`` (the command line and the what-if explorer's log): "Player 1"; a card
  as its code with its symbol, "◆B5", the form the player types.

This module lives in ``i18n`` rather than ``tutor`` because the terminal, the charts
and the bots' hints use it too and must not import the widget package.

>>> from capital_lux.i18n import translator
>>> from capital_lux.engine.notation import parse_action
>>> en = translator("en")
>>> action_sentence(en, 1, parse_action("home B5"), you=0)
'Bot 1 plays ◆ Agent 5 (blue) into their Hometown.'
>>> action_sentence(en, 0, parse_action("capital Y2"), you=0, style=TERMINAL)
'You play ●Y2 into the Capital: as the Merchant, you take a gold disc.'
>>> action_label(en, parse_action("home G3"))
'✎ Scholar 3 (green) into your Hometown'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal, Sequence

from ..engine.cards import SYMBOLS, Card
from ..engine.notation import CAPITAL, Action, Pick, PlaceModifier, Play, SaveWithGold, TakeLowest

if TYPE_CHECKING:
    from ..engine.state import Event
    from . import Translator

Style = Literal["learner", "terminal"]
LEARNER: Final = "learner"
TERMINAL: Final = "terminal"

__all__ = [
    "LEARNER", "TERMINAL", "Style", "action_label", "action_sentence", "card_text", "cards_text",
    "colour_label", "colour_text", "event_sentence", "model_name", "player_name",
]


# --------------------------------------------------------------------------- names and cards


def player_name(t: Translator, seat: int, you: int | None, style: Style = LEARNER, bots: bool = True) -> str:
    """A player as a noun: "You" or "Bot 1" (learner); "Player 1 (you)" or "Player 1" (terminal).
    ``bots=False`` where nobody plays the other seats (an exercise's position): "Player 1"."""
    if style == TERMINAL:
        if seat == you:
            return t.gettext("Player {seat} (you)").format(seat=seat)
        return t.gettext("Player {seat}").format(seat=seat)
    if seat == you:
        return t.gettext("You")
    if not bots:
        return t.gettext("Player {seat}").format(seat=seat)
    return t.gettext("Bot {seat}").format(seat=seat)


def card_text(t: Translator, card: Card, style: Style = LEARNER) -> str:
    """A card in words, never by colour alone: "◆ Agent 5 (blue)"; "◆B5" on a terminal."""
    if style == TERMINAL:
        return f"{SYMBOLS[card.colour]}{card}"
    return t.gettext("{symbol} {role} {value} ({colour})").format(
        symbol=SYMBOLS[card.colour], role=t.role(card.colour), value=card.value, colour=t.colour(card.colour)
    )


def cards_text(t: Translator, cards: Sequence[Card], style: Style = LEARNER) -> str:
    """Several cards: comma-separated in words, space-separated codes on a terminal ("-" for none)."""
    if style == TERMINAL:
        return " ".join(card_text(t, c, style) for c in cards) or "-"
    return ", ".join(card_text(t, c) for c in cards)


def colour_text(t: Translator, colour: str) -> str:
    """A Capital colour as a label, with its role: "◆ Agent (blue)"."""
    return t.gettext("{symbol} {role} ({colour})").format(
        symbol=SYMBOLS[colour], role=t.role(colour), colour=t.colour(colour)
    )


def colour_label(t: Translator, colour: str) -> str:
    """The colour's symbol and name, the way every chart labels it: "◆ blue"."""
    return f"{SYMBOLS[colour]} {t.colour(colour)}"


def model_name(t: Translator, model: str) -> str:
    """An opponent model in words: "random bot", "rule-of-thumb bot", "search bot"."""
    names = {"random": t.gettext("random bot"), "rule": t.gettext("rule-of-thumb bot"),
             "search": t.gettext("search bot"), "quick": t.gettext("quick greedy bot")}
    return names.get(model, model)


# --------------------------------------------------------------------------- actions


def _play_sentence(t: Translator, play: Play, who: str, you: bool, card: str) -> str:
    colour = play.card.colour
    if play.to != CAPITAL:
        if you:
            return t.gettext("You play {card} into your Hometown.").format(card=card)
        return t.gettext("{player} plays {card} into their Hometown.").format(player=who, card=card)
    if you:
        texts = {
            "G": t.gettext("You play {card} into the Capital: as the Scholar, you draw a profession card into "
                           "your hand."),
            "Y": t.gettext("You play {card} into the Capital: as the Merchant, you take a gold disc."),
            "B": t.gettext("You play {card} into the Capital: as the Agent, you draw a modifier and place it "
                           "face down above a Capital colour."),
            "P": t.gettext("You play {card} into the Capital: as the Cleric, you take the lowest blue, green or "
                           "yellow card of the Capital into your Hometown."),
        }
    else:
        texts = {
            "G": t.gettext("{player} plays {card} into the Capital: as the Scholar, they draw a profession card "
                           "into their hand."),
            "Y": t.gettext("{player} plays {card} into the Capital: as the Merchant, they take a gold disc."),
            "B": t.gettext("{player} plays {card} into the Capital: as the Agent, they draw a modifier and place "
                           "it face down above a Capital colour."),
            "P": t.gettext("{player} plays {card} into the Capital: as the Cleric, they take the lowest blue, "
                           "green or yellow card of the Capital into their Hometown."),
        }
    return texts[colour].format(player=who, card=card)


def action_sentence(t: Translator, seat: int, action: Action, you: int | None, style: Style = LEARNER,
                    bots: bool = True) -> str:
    """A decision as a whole sentence, as a player other than ``seat`` may read it: others'
    draft picks and gold choices stay hidden (``you`` is the reader's seat, None for nobody).
    ``bots=False``: the others are "Player 1"…, as a table drawn with ``bots=False`` names them."""
    who = player_name(t, seat, you, style, bots)
    mine = seat == you
    if isinstance(action, Play):
        return _play_sentence(t, action, who, mine, card_text(t, action.card, style))
    if isinstance(action, Pick):
        if mine:
            return t.gettext("You pick {cards} and set them aside face down.").format(
                cards=cards_text(t, action.cards, style))
        return t.gettext("{player} picks cards face down.").format(player=who)
    if isinstance(action, PlaceModifier):
        if mine:
            return t.gettext("You place your modifier face down above {colour}.").format(
                colour=t.colour(action.colour))
        return t.gettext("{player} places a modifier face down above {colour}.").format(
            player=who, colour=t.colour(action.colour))
    if isinstance(action, TakeLowest):
        if mine:
            return t.gettext("You take the lowest {colour} card of the Capital with the Cleric.").format(
                colour=t.colour(action.colour))
        return t.gettext("{player} takes the lowest {colour} card with the Cleric.").format(
            player=who, colour=t.colour(action.colour))
    if isinstance(action, SaveWithGold):
        if mine and action.colours:
            names = ", ".join(t.colour(c) for c in action.colours)
            return t.gettext("You decide to pay gold to keep: {colours}.").format(colours=names)
        if mine:
            return t.gettext("You decide to pay no gold.")
        return t.gettext("{player} decides on gold in secret.").format(player=who)
    return str(action)  # chance outcomes are never shown to players


def action_label(t: Translator, action: Action) -> str:
    """A short label for a decision (a button, a table row), the learner's own move:
    "◆ Agent 5 (blue) into your Hometown"."""
    if isinstance(action, Play):
        card = card_text(t, action.card)
        if action.to == CAPITAL:
            return t.gettext("{card} into the Capital").format(card=card)
        return t.gettext("{card} into your Hometown").format(card=card)
    if isinstance(action, Pick):
        return t.gettext("Set aside {cards}").format(cards=cards_text(t, action.cards))
    if isinstance(action, PlaceModifier):
        # TRANSLATORS: {colour} is a label such as "◆ Agent (blue)", not a noun taking an article.
        return t.gettext("Modifier above {colour}").format(colour=colour_text(t, action.colour))
    if isinstance(action, TakeLowest):
        # TRANSLATORS: {colour} is a label such as "◆ Agent (blue)", not a noun taking an article.
        return t.gettext("Take the lowest {colour}").format(colour=colour_text(t, action.colour))
    if isinstance(action, SaveWithGold):
        if not action.colours:
            return t.gettext("Keep nothing: discard every exceeding colour")
        names = ", ".join(colour_text(t, c) for c in action.colours)
        return t.gettext("Pay gold to keep: {colours}").format(colours=names)
    return str(action)


# --------------------------------------------------------------------------- events

#: The events the terminal tells (the others repeat an action line it has already printed).
TERMINAL_EVENTS: Final = frozenset({
    "round_start", "scholar_draw", "last_turns", "hand_to_hometown", "gold_spent", "discard", "bonus",
    "cleric_take",
})


def event_sentence(t: Translator, e: Event, you: int | None, style: Style = LEARNER, bots: bool = True) -> str:
    """An engine event as a whole sentence; empty for events this style does not tell.
    Private events must already be filtered for the reader. ``bots`` as ``player_name``'s."""
    if style == TERMINAL and e.kind not in TERMINAL_EVENTS:
        return ""
    who = player_name(t, e.player, you, style, bots) if e.player >= 0 else ""
    cards = cards_text(t, e.cards, style)
    colour = t.colour(e.colours[0]) if e.colours else ""
    k = e.kind
    mine = e.player == you
    if k == "round_start" and style == TERMINAL and e.player >= 0:
        if mine:
            return t.gettext("Round {number} begins; you start.").format(number=e.amount)
        return t.gettext("Round {number} begins; {player} starts.").format(number=e.amount, player=who)
    if k == "round_start":
        return t.gettext("Round {number} begins: cards are dealt for choosing.").format(number=e.amount)
    if k == "capital_card":
        return t.gettext("Setup: {cards} goes into the Capital.").format(cards=cards)
    if k == "starting_player":
        if mine:
            return t.gettext("You are the starting player.")
        return t.gettext("{player} is the starting player.").format(player=who)
    if k == "scholar_draw":
        if mine:
            return t.gettext("You draw {cards} (Scholar).").format(cards=cards)
        return t.gettext("{player} draws {cards} (Scholar).").format(player=who, cards=cards)
    if k == "modifier_placed":
        if mine:
            return t.gettext("You place your modifier face down above {colour}.").format(colour=colour)
        return t.gettext("{player} places a modifier face down above {colour}.").format(player=who, colour=colour)
    if k == "cleric_take":
        if mine:
            return t.gettext("You take {cards} from the Capital into your Hometown (Cleric).").format(cards=cards)
        return t.gettext("{player} takes {cards} from the Capital into their Hometown (Cleric).").format(
            player=who, cards=cards)
    if k == "cleric_nothing":
        return t.gettext("No blue, green or yellow card in the Capital: the Cleric takes nothing (ruling R1).")
    if k == "deck_empty":
        return t.gettext("The deck is empty: the Scholar draws nothing (ruling R10).")
    if k == "gold_pile_empty":
        return t.gettext("The gold pile is empty: the Merchant takes nothing.")
    if k == "modifier_deck_empty":
        return t.gettext("The modifier deck is empty: the Agent draws nothing (ruling R11).")
    if k == "last_turns":
        if mine:
            return t.gettext("You have no card left: every other player has one last turn (ruling R9).")
        return t.gettext("{player} has no card left: every other player has one last turn (ruling R9).").format(
            player=who)
    if k == "turn_skipped":
        if mine:
            return t.gettext("You have no card for your last turn and skip it.")
        return t.gettext("{player} has no card for their last turn and skips it.").format(player=who)
    if k == "hand_to_hometown":
        if mine:
            return t.gettext("Round end: the cards left in your hand go into your Hometown: {cards}.").format(
                cards=cards)
        return t.gettext("Round end: {player} puts the cards left in hand into their Hometown: {cards}.").format(
            player=who, cards=cards)
    if k == "reveal":
        return t.gettext("Round end: the modifiers above the Capital are turned face up.")
    if k == "gold_spent":
        if mine:
            return t.ngettext("You pay {n} gold disc to keep {colour}.", "You pay {n} gold discs to keep {colour}.",
                              e.amount).format(n=e.amount, colour=colour)
        return t.ngettext("{player} pays {n} gold disc to keep {colour}.",
                          "{player} pays {n} gold discs to keep {colour}.", e.amount).format(
            player=who, n=e.amount, colour=colour)
    if k == "discard":
        if mine:
            return t.gettext("You exceed the limit in {colour} and discard {cards}.").format(
                colour=colour, cards=cards)
        return t.gettext("{player} exceeds the limit in {colour} and discards {cards}.").format(
            player=who, colour=colour, cards=cards)
    if k == "bonus":
        if mine:
            return t.gettext("You have the highest total in {colour} and take {cards} as a bonus card.").format(
                colour=colour, cards=cards)
        return t.gettext("{player} has the highest total in {colour} and takes {cards} as a bonus card.").format(
            player=who, colour=colour, cards=cards)
    if k == "game_over":
        return t.gettext("The game is over after round 3.")
    return ""
