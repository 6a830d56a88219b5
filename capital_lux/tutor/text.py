"""The tutor's sentences: players, phases, log lines and buttons, in the learner's language.

Every text is a literal English msgid passed to the translator; game words come
from the glossary (``t.term``, ``t.role``, ``t.colour``).
"""

from __future__ import annotations

from ..engine.cards import SYMBOLS, Card, format_modifier
from ..i18n import Translator
from ..engine.notation import CAPITAL, Pick, Play, SaveWithGold
from typing import TYPE_CHECKING

from ..engine.state import AGENT, CLERIC, DEAL, DRAFT, GOLD, OVER, PLAY, Event

if TYPE_CHECKING:
    from .session import LogEntry


def player_name(t: Translator, seat: int, learner: int) -> str:
    """"You", and the bots numbered from 1 in seat order, skipping the learner's seat."""
    if seat == learner:
        return t.gettext("You")
    return t.gettext("Bot {seat}").format(seat=seat + 1 if seat < learner else seat)


def card_text(t: Translator, card: Card) -> str:
    """A card in words, never by colour alone: "◆ Agent 5 (blue)"."""
    return t.gettext("{symbol} {role} {value} ({colour})").format(
        symbol=SYMBOLS[card.colour], role=t.role(card.colour), value=card.value, colour=t.colour(card.colour)
    )


def colour_text(t: Translator, colour: str) -> str:
    """A capital colour with its role: "◆ Agent (blue)"."""
    return t.gettext("{symbol} {role} ({colour})").format(
        symbol=SYMBOLS[colour], role=t.role(colour), colour=t.colour(colour)
    )


def special_action(t: Translator, colour: str, mine: bool = True) -> str:
    """What playing this colour into the Capital does (``mine``: for the learner, else for another player)."""
    if colour == "G":
        if not mine:
            return t.gettext("Scholar: they draw a profession card into their hand.")
        return t.gettext("Scholar: draw a profession card into your hand.")
    if colour == "Y":
        if not mine:
            return t.gettext("Merchant: they take a gold disc.")
        return t.gettext("Merchant: take a gold disc.")
    if colour == "B":
        if not mine:
            return t.gettext("Agent: they draw a modifier and place it face down above a Capital colour.")
        return t.gettext("Agent: draw a modifier and place it face down above a Capital colour.")
    if not mine:
        return t.gettext("Cleric: they take the lowest blue, green or yellow card of the Capital into their "
                         "Hometown.")
    return t.gettext("Cleric: take the lowest blue, green or yellow card of the Capital into your Hometown.")


def phase_text(t: Translator, phase: str, to_move_is_you: bool) -> str:
    if phase == OVER:
        return t.gettext("The game is over.")
    if not to_move_is_you:
        return t.gettext("The bots are playing.")
    if phase == DRAFT:
        return t.gettext("Choose cards: pick 2 of the cards you hold; the rest pass to the next player.")
    if phase == PLAY:
        return t.gettext("Play a card: click a card of your hand, then put it into your Hometown or into the Capital.")
    if phase == AGENT:
        return t.gettext("Agent: choose the Capital colour your modifier goes above (face down).")
    if phase == CLERIC:
        return t.gettext("Cleric: choose the colour whose lowest Capital card you take into your Hometown.")
    if phase == GOLD:
        return t.gettext("Round end: choose which exceeding colours you keep by paying gold.")
    if phase == DEAL:
        return t.gettext("Cards are being dealt.")
    return ""


def action_label(t: Translator, action: object) -> str:
    """Button text for a gold decision."""
    if isinstance(action, SaveWithGold):
        if not action.colours:
            return t.gettext("Keep nothing: discard every exceeding colour")
        names = ", ".join(colour_text(t, c) for c in action.colours)
        return t.gettext("Pay gold to keep: {colours}").format(colours=names)
    return str(action)


def log_line(t: Translator, entry: LogEntry, learner: int) -> str:
    """One log line in words; empty for entries the learner need not read."""
    who = player_name(t, entry.player, learner) if entry.player >= 0 else ""
    action = entry.action
    if entry.kind == "play" and isinstance(action, Play):
        card = card_text(t, action.card)
        effect = special_action(t, action.card.colour, mine=entry.player == learner)
        if action.to == CAPITAL and entry.player == learner:
            return t.gettext("You play {card} into the Capital. {effect}").format(card=card, effect=effect)
        if action.to == CAPITAL:
            return t.gettext("{player} plays {card} into the Capital. {effect}").format(
                player=who, card=card, effect=effect
            )
        if entry.player == learner:
            return t.gettext("You play {card} into your Hometown.").format(card=card)
        return t.gettext("{player} plays {card} into their Hometown.").format(player=who, card=card)
    if entry.kind == "pick":
        if isinstance(action, Pick):
            cards = ", ".join(card_text(t, c) for c in action.cards)
            return t.gettext("You pick {cards} and set them aside face down.").format(cards=cards)
        return t.gettext("{player} picks cards face down.").format(player=who)
    if entry.kind == "save":
        if isinstance(action, SaveWithGold) and action.colours:
            names = ", ".join(t.colour(c) for c in action.colours)
            return t.gettext("You decide to pay gold to keep: {colours}.").format(colours=names)
        if isinstance(action, SaveWithGold):
            return t.gettext("You decide to pay no gold.")
        return t.gettext("{player} decides on gold in secret.").format(player=who)
    if entry.event is not None:
        return event_line(t, entry.event, learner)
    return ""


def event_line(t: Translator, e: Event, learner: int) -> str:
    """The engine's events, as the learner reads them (private ones are already filtered)."""
    who = player_name(t, e.player, learner) if e.player >= 0 else ""
    cards = ", ".join(card_text(t, c) for c in e.cards)
    colour = t.colour(e.colours[0]) if e.colours else ""
    k = e.kind
    if k == "capital_card":
        return t.gettext("Setup: {cards} goes into the Capital.").format(cards=cards)
    you = e.player == learner
    if k == "starting_player":
        if you:
            return t.gettext("You are the starting player.")
        return t.gettext("{player} is the starting player.").format(player=who)
    if k == "round_start":
        return t.gettext("Round {number} begins: cards are dealt for choosing.").format(number=e.amount)
    if k == "scholar_draw":
        return t.gettext("You draw {cards} (Scholar).").format(cards=cards)
    if k == "modifier_placed" and you:
        return t.gettext("You place your modifier face down above {colour}.").format(colour=colour)
    if k == "modifier_placed":
        return t.gettext("{player} places a modifier face down above {colour}.").format(player=who, colour=colour)
    if k == "cleric_take" and you:
        return t.gettext("You take {cards} from the Capital into your Hometown (Cleric).").format(cards=cards)
    if k == "cleric_take":
        return t.gettext("{player} takes {cards} from the Capital into their Hometown (Cleric).").format(
            player=who, cards=cards
        )
    if k == "cleric_nothing":
        return t.gettext("No blue, green or yellow card in the Capital: the Cleric takes nothing (ruling R1).")
    if k == "deck_empty":
        return t.gettext("The deck is empty: the Scholar draws nothing (ruling R10).")
    if k == "gold_pile_empty":
        return t.gettext("The gold pile is empty: the Merchant takes nothing.")
    if k == "modifier_deck_empty":
        return t.gettext("The modifier deck is empty: the Agent draws nothing (ruling R11).")
    if k == "last_turns" and you:
        return t.gettext("You have no card left: every other player has one last turn (ruling R9).")
    if k == "last_turns":
        return t.gettext("{player} has no card left: every other player has one last turn (ruling R9).").format(
            player=who
        )
    if k == "turn_skipped" and you:
        return t.gettext("You have no card for your last turn and skip it.")
    if k == "turn_skipped":
        return t.gettext("{player} has no card for their last turn and skips it.").format(player=who)
    if k == "hand_to_hometown" and you:
        return t.gettext("Round end: the cards left in your hand go into your Hometown: {cards}.").format(
            cards=cards
        )
    if k == "hand_to_hometown":
        return t.gettext("Round end: {player} puts the cards left in hand into their Hometown: {cards}.").format(
            player=who, cards=cards
        )
    if k == "reveal":
        return t.gettext("Round end: the modifiers above the Capital are turned face up.")
    if k == "gold_spent" and you:
        return t.ngettext(
            "You pay {n} gold disc to keep {colour}.", "You pay {n} gold discs to keep {colour}.", e.amount
        ).format(n=e.amount, colour=colour)
    if k == "gold_spent":
        return t.ngettext(
            "{player} pays {n} gold disc to keep {colour}.", "{player} pays {n} gold discs to keep {colour}.", e.amount
        ).format(player=who, n=e.amount, colour=colour)
    if k == "discard" and you:
        return t.gettext("You exceed the limit in {colour} and discard {cards}.").format(colour=colour, cards=cards)
    if k == "discard":
        return t.gettext("{player} exceeds the limit in {colour} and discards {cards}.").format(
            player=who, colour=colour, cards=cards
        )
    if k == "bonus" and you:
        return t.gettext("You have the highest total in {colour} and take {cards} as a bonus card.").format(
            colour=colour, cards=cards
        )
    if k == "bonus":
        return t.gettext("{player} has the highest total in {colour} and takes {cards} as a bonus card.").format(
            player=who, colour=colour, cards=cards
        )
    if k == "game_over":
        return t.gettext("The game is over after round 3.")
    return ""


def modifier_text(value: int | None) -> str:
    return "?" if value is None else format_modifier(value)
