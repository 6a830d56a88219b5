"""The rulings, in the learner's words: each point the rulebooks leave open, settled as the
engine plays it (``docs/rules.md`` is the developers' statement, with the tests).

The chapters show a lesson's rulings in place, in the reader's language, rather than
sending a learner to a file they cannot open. Each text is one whole msgid.
"""

from __future__ import annotations

from typing import Final

from ..engine.cards import N_

RULINGS: Final[dict[str, str]] = {
    "R1": N_("A Cleric may be played when the Capital has no blue, green or yellow card: it goes into the "
             "Capital and takes nothing."),
    "R2": N_("The Cleric's player chooses blue, green or yellow, among the colours with a card in the "
             "Capital, and takes the lowest card of that colour into their Hometown. Never pink."),
    "R3": N_("Only players with more than 0 in a colour in their Hometown compete for its bonus cards. The "
             "highest total takes the highest card; tied leaders take cards in turn, while the Capital "
             "still has cards of that colour."),
    "R4": N_("Bonus cards are decided after the discards: cards thrown away, or kept with gold, are settled "
             "first."),
    "R5": N_("Turn order for a tie starts with the round's starting player and goes clockwise."),
    "R6": N_("At the round end, gold is optional and paid colour by colour: to keep a colour over its limit, "
             "you pay exactly the difference. Everyone decides at once, without seeing the others' choices; "
             "the gold paid goes back to the pile."),
    "R7": N_("A colour exceeds only when your Hometown total is strictly above its limit: equal is safe. A "
             "colour with no card in your Hometown never exceeds."),
    "R8": N_("Discarded cards leave the game for good."),
    "R9": N_("When a player ends their turn with an empty hand, every other player has exactly one more "
             "turn. Then the cards left in hands go face up into their owners' Hometowns, and the round ends."),
    "R10": N_("A Scholar played as your last card draws at once, so your hand is not empty; with the deck "
              "empty, nothing is drawn."),
    "R11": N_("The Agent's player draws a modifier, looks at it and puts it face down above any Capital "
              "colour, pink included. Only they know its value until the round end. With no modifier left, "
              "nothing happens."),
    "R12": N_("After rounds 1 and 2, all four modifiers are shuffled into a new modifier deck."),
    "R13": N_("The next round starts with the highest Hometown total over all colours (bonus cards do not "
              "count); a tie goes to the tied player nearest the previous starting player, clockwise, that "
              "player first."),
    "R14": N_("To choose who starts the game, each player is dealt a modifier: the highest value starts. All "
              "four modifiers are then shuffled back into the modifier deck."),
    "R15": N_("When the deck cannot give everyone a full hand, each player gets the same smaller number of "
              "cards, possibly none, and each pick of the draft takes at most the cards held."),
    "R16": N_("Each player is dealt 6 cards (5 with four players), sets aside 2 face down, passes the rest "
              "to the left, sets aside 2 again, passes again, and keeps what arrives. Nobody sees another's "
              "picks before making their own."),
    "R17": N_("The highest score wins. A tie goes to the most 6s among Hometown and bonus cards, then the "
              "most 5s, 4s, 3s and 2s; still tied, the win is shared."),
    "R18": N_("Bonus cards lie face down, but everyone knows their values."),
    "R19": N_("Two players play the standard rules, with 6-card hands."),
    "R20": N_("Players sit clockwise; the left is the next seat."),
    "R21": N_("Where a rule leaves only one choice, the tutor takes it for you and says what happened."),
}


def ruling_text(ruling: str) -> str:
    """The msgid of ``ruling`` (``"R7"``); a KeyError names an unknown one."""
    return RULINGS[ruling]
