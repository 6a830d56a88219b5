"""The tutor's chapters as data: texts (English msgids), the prepared position of each
lesson (a record in ``lessons/positions``) and when the lesson is done.

The rules are said in plain words; ``rulings`` are small references a teacher can
look up in ``docs/rules.md``. ``tutor/chapters.py`` draws them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.cards import N_


@dataclass(frozen=True)
class Goal:
    """When a lesson is done, read from the learner's log since the lesson started.

    ``kind``: "played" (a card of ``colour`` to ``to``, each optional), "event" (an
    engine event of ``event``, the learner's own unless ``mine`` is false),
    "round_ended", "hand_made" (the draft is over) or "never" (a quiz decides).
    """

    kind: str
    colour: str | None = None
    to: str | None = None
    event: str | None = None
    mine: bool = True


@dataclass(frozen=True)
class Lesson:
    key: str
    title: str
    text: str
    goal: Goal
    done: str
    rulings: tuple[str, ...] = ()
    quiz: bool = False  # the setup lesson asks who starts before anything is played
    earlier_round_ends: bool = False  # show the reports of round ends played before the lesson

    @property
    def position(self) -> str:
        return self.key  # each lesson's record is named after it


@dataclass(frozen=True)
class Chapter:
    key: str
    title: str
    intro: tuple[str, ...]  # paragraphs
    lessons: tuple[Lesson, ...]
    rulings: tuple[str, ...] = ()


ANY_PLAY = Goal("played")
ROUND_ENDED = Goal("round_ended")

CHAPTERS: tuple[Chapter, ...] = (
    Chapter(
        "setup", N_("1. Setup"),
        (
            N_("The goal: after three rounds, have the most points. Cards in your Hometown score their value, "
               "bonus cards score too, and each gold disc is worth 1 point. But at the end of each round, a "
               "colour in your Hometown whose total is higher than its limit is discarded, unless you pay gold."),
            N_("Capital Lux has 72 profession cards in four colours, 18 per colour, each colour with its role: "
               "blue Agents, green Scholars, pink Clerics and yellow Merchants. In each colour there are three "
               "2s, four 3s, four 4s, four 5s and three 6s. There are also 4 modifier cards (+4, +2, -1, -3) and "
               "8 gold discs."),
            N_("A colour's limit is the total of that colour's cards in the Capital, which belongs to everyone, "
               "plus any modifiers placed above it. The limit shows on the table beside each Capital colour."),
            N_("At setup the top card of the deck goes face up into the Capital, and each player is dealt one "
               "modifier: the player with the highest modifier starts the first round."),
        ),
        (
            Lesson("setup", N_("Who starts?"),
                   N_("Look at the Capital and at the modifiers dealt below. Who is the starting player?"),
                   Goal("never"),
                   N_("Right: the highest modifier starts. The modifiers then go back into the modifier deck. "
                      "This chapter carries on into the first draft of the game: choose your cards below, or go "
                      "on to chapter 2."),
                   quiz=True),
        ),
        rulings=("R14",),
    ),
    Chapter(
        "draft", N_("2. Choosing cards"),
        (N_("Each round starts with a draft. Everyone is dealt 6 cards (5 with four players). Pick 2 and set "
            "them aside face down; the rest pass to the next player. Pick 2 again from what you receive; the "
            "last cards passed to you are yours to keep. Nobody sees the others' picks."),
         N_("If the deck runs short when round 3 is dealt, everyone gets an equal share of the cards left and "
            "the rest stay in the deck.")),
        (
            Lesson("draft", N_("Draft a hand"),
                   N_("Click two cards and set them aside, twice. Watch what comes back to you."),
                   Goal("hand_made"),
                   N_("Done: your hand is made of your 4 picks and the cards passed to you last.")),
        ),
        rulings=("R15", "R16"),
    ),
    Chapter(
        "play", N_("3. Playing cards"),
        (N_("On your turn you play one card: into your Hometown, where it scores at the end, or into the "
            "Capital, where it raises that colour's limit and you must carry out its special action."),
         N_("Cards in Hometowns and in the Capital stay on the table from one round to the next: a card you "
            "keep in round 1 still counts against the limit in rounds 2 and 3.")),
        (
            Lesson("hometown", N_("Hometown or Capital"), N_("Play any card, to either place."),
                   ANY_PLAY, N_("Done. The bots have answered with their turns.")),
            Lesson("scholar", N_("Scholar"),
                   N_("Play a green Scholar into the Capital: you draw the top card of the deck."),
                   Goal("event", event="scholar_draw"),
                   N_("Done: the drawn card is in your hand. Only you saw it.")),
            Lesson("merchant", N_("Merchant"),
                   N_("Play a yellow Merchant into the Capital: you take a gold disc."),
                   Goal("played", colour="Y", to="capital"),
                   N_("Done: gold can keep an exceeding colour at the round end, "
                      "and each unused disc is worth 1 point.")),
            Lesson("agent", N_("Agent"),
                   N_("Play a blue Agent into the Capital, look at the modifier you draw, and place it face down "
                      "above any Capital colour, pink included. A plus modifier raises that colour's limit, a "
                      "minus one lowers it, for every player."),
                   Goal("event", event="modifier_placed"),
                   N_("Done: the others see a '?' there until the round end."), rulings=("R11",)),
            Lesson("cleric", N_("Cleric"),
                   N_("Play a pink Cleric into the Capital and choose blue, green or yellow: you take the lowest "
                      "Capital card of that colour into your Hometown. A Cleric never takes a pink card."),
                   Goal("event", event="cleric_take"),
                   N_("Done: taking a card lowers that colour's limit for everyone."), rulings=("R2",)),
            Lesson("cleric_one", N_("Cleric, one colour"),
                   N_("Only one of blue, green and yellow has cards in the Capital. Play a pink card into the "
                      "Capital: there is nothing to choose, so it happens at once."),
                   Goal("played", colour="P", to="capital"),
                   N_("Done: the log says which card you took."), rulings=("R21",)),
            Lesson("cleric_none", N_("Cleric, no colour"),
                   N_("No blue, green or yellow card is in the Capital. You may still play a pink card there: it "
                      "raises the pink limit, and nothing is taken."),
                   Goal("played", colour="P", to="capital"),
                   N_("Done: a legal play that takes nothing."), rulings=("R1",)),
            Lesson("scholar_last", N_("Scholar as last card"),
                   N_("Your last card is a Scholar. Play it into the Capital: you draw at once, so your hand is "
                      "not empty and the round end is not triggered. With an empty deck you would draw nothing, "
                      "and the round end would start."),
                   Goal("played", colour="G", to="capital"),
                   N_("Done: you still hold a card."), rulings=("R10",)),
            Lesson("agent_empty", N_("Agent, no modifier left"),
                   N_("All four modifiers are above the Capital. Play a blue card into the Capital: it still "
                      "raises the blue limit, but there is no modifier to draw."),
                   Goal("played", colour="B", to="capital"),
                   N_("Done: the log notes that the modifier deck was empty."), rulings=("R11",)),
        ),
    ),
    Chapter(
        "roundend", N_("4. Round end"),
        (N_("When a player ends their turn with no card, every other player has one last turn. Then the cards "
            "left in hands go into their Hometowns, the modifiers are turned up, and each Hometown colour is "
            "checked against its limit: a colour that exceeds is discarded unless its owner pays the "
            "difference in gold. Then the highest total in each colour takes the highest Capital card of that "
            "colour as a bonus card; tied players take cards in turn order from the starting player. The "
            "highest Hometown total starts the next round."),
         # The four rules a learner otherwise meets only in play (rulings R3, R6, R12, R13).
         N_("A bonus card leaves the Capital: its winner keeps it and scores it, and from the next round on that "
            "colour's limit is lower by its value, for every player."),
         N_("Only a player who can pay a colour's whole difference in gold is asked about gold: paying part of it "
            "saves nothing. A player whose gold cannot pay in full for any exceeding colour is not asked, and those "
            "colours are discarded."),
         N_("When several players share the highest Hometown total (bonus cards do not count), the one reached "
            "first going clockwise from this round's starting player starts the next round, the starting player "
            "counting first."),
         N_("After rounds 1 and 2, all four modifiers, placed or not, are gathered and shuffled into a new modifier "
            "deck: the next round's Agents draw from all four again.")),
        (
            Lesson("last_turns", N_("Last turns"),
                   N_("A player has run out of cards: this is your last turn. Play it, then read the round end "
                      "below, step by step."),
                   ROUND_ENDED,
                   N_("Done: read each step of the round end above the table, then continue to the next round."),
                   rulings=("R9",),
                   earlier_round_ends=True),
            Lesson("gold", N_("Your gold decision"),
                   N_("The modifiers are face up and at least one of your colours exceeds its limit. Decide "
                      "which colours to keep by paying the difference in gold; the others are discarded."),
                   ROUND_ENDED,
                   N_("Done: the discards, the bonus cards and the next starting player are shown below."),
                   rulings=("R6", "R7"), earlier_round_ends=True),
            Lesson("gold_example", N_("The rulebook's gold example"),
                   N_("Like the rulebook's example: three of your colours exceed and you have 3 gold discs, "
                      "too few to keep them all. Here you exceed blue by 1, yellow by 2 and pink by 5; in the "
                      "rulebook's picture (Capital: blue 9, yellow 3, green 9, pink 12; Hometown: blue 11, yellow 4, "
                      "green 6, pink 13) blue and yellow "
                      "exceed by 3 together and pink by 1. What would you pay for? The rulebook's player pays "
                      "3 discs to keep blue and yellow, and discards only the pink card."),
                   ROUND_ENDED, N_("Done: compare your choice with the rulebook's in the steps below."),
                   rulings=("R6", "R7")),
            Lesson("bonus_tie", N_("A tie for the bonus cards"),
                   N_("Bot 1 started this round, Bot 2 sits to its left, and you come after Bot 2. All three of "
                      "you have 5 in yellow, and the Capital's yellow cards are a 6 and a 4. Play your last card "
                      "and see who takes the yellow bonus cards."),
                   ROUND_ENDED,
                   N_("Done: Bot 1, first in turn order, took the 6; Bot 2 took the 4; no yellow card was left "
                      "for you."), rulings=("R3", "R5")),
        ),
        rulings=("R3", "R4", "R5", "R6", "R7", "R9", "R12", "R13"),
    ),
    Chapter(
        "scoring", N_("5. Scoring"),
        (N_("After round 3 each player scores their Hometown cards, their bonus cards and 1 point per gold disc. "
            "A tie goes to the most 6s among Hometown and bonus cards, then 5s, 4s, 3s and 2s; still tied, the "
            "win is shared."),),
        (
            Lesson("final", N_("The last card of the game"),
                   N_("Play the last card of the game and read the score sheet."),
                   Goal("event", event="game_over", mine=False), N_("Done: that is a whole game of Capital Lux.")),
            Lesson("tie_break", N_("A tied score"),
                   N_("Play your last card: whatever you play, you end level on points with another player. "
                      "Count the 6s, then the 5s, on the score sheet to see who wins."),
                   Goal("event", event="game_over", mine=False),
                   N_("Done: the same points and the same number of 6s, so the 5s decided.")),
        ),
        rulings=("R17",),
    ),
)

#: The chapter that explains the score sheet's tie-break columns (6s, 5s … 2s): a chapter
#: before it shows the sheet without them.
TIE_BREAKS_TAUGHT_IN = "scoring"


def tie_breaks_taught(chapter: Chapter) -> bool:
    """Whether the learner has met the tie-breaks by ``chapter`` (read in order)."""
    keys = [c.key for c in CHAPTERS]
    return keys.index(chapter.key) >= keys.index(TIE_BREAKS_TAUGHT_IN)
