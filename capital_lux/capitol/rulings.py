"""Capitol's rulings: each point the French rulebook leaves open or states two ways, settled
as the engine plays it, with its reason. ``tests/test_capitol_rulings.py`` has a test per
ruling, named by its id.

``text`` is what a learner reads (a catalogue text, shown in their language); ``reason``
is the developers' note, quoting the rulebook.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .components import N_


@dataclass(frozen=True)
class Ruling:
    text: str
    reason: str


RULINGS: Final[dict[str, Ruling]] = {
    "C1": Ruling(
        N_("The board has nine districts, three of each colour (blue B1 to B3, pink P1 to P3, mauve M1 to M3). In "
           "each colour the first district has five small squares, the second six, the third seven; every district "
           "has one large square."),
        "The rulebook names nine districts, three per colour, and 'one large square per district', but prints no "
        "board; five to seven small squares spreads the districts' sizes as the issue asks."),
    "C2": Ruling(
        N_("Four fountains are printed on the board from the start, on squares of their own, in B1, P1, M1 and P3. "
           "The eight fountain pieces are the ones sold at auction, two a round."),
        "The material lists 8 fountains, the text says four are on the board from the start, and the auctions "
        "sell two a round for four rounds: 8 sold. Only printed starting fountains make the counts agree."),
    "C3": Ruling(
        N_("Card values: floor cards 1 to 6, four of each; roof cards 1 to 7, two of each; permits 1 to 8 in each "
           "colour."),
        "The text bids with card values but never lists them. Each kind's values appear equally often, so a "
        "kind's cards are worth the same on average and the auction chance is easy to count."),
    "C4": Ruling(
        N_("There are two roof types, round and triangular. Where the text says rectangular or square roofs, it "
           "means the triangular ones."),
        "The material lists 5 triangular and 5 round roofs per set; setup then says round and rectangular, the "
        "permit rules round and square. Only two types exist in the box."),
    "C5": Ruling(
        N_("The 24 permits are eight of each colour."),
        "24 permits and three colours, with nothing saying one colour is rarer."),
    "C6": Ruling(
        N_("A free small square is one with no building and no fountain bought. The large square and the printed "
           "fountains are not small squares: nothing is built on them."),
        "'Les immeubles ne peuvent pas être placés sur les grandes cases ou sur les fontaines'; a fountain bought "
        "takes 'une petite case libre'."),
    "C7": Ruling(
        N_("A bid of no card (the STOP card on top) never wins. If nobody bids a card, the piece is not sold this "
           "time."),
        "'Un joueur qui ne souhaite pas participer à une enchère peut mettre sa carte STOP tout en haut': bidding "
        "nothing is not taking part, so it cannot win by turn order."),
    "C8": Ruling(
        N_("Scoring ties: when players tie for the most floors, the one with the tallest building is first and the "
           "other tied players are second; players with fewer floors score nothing there. If the tallest buildings "
           "tie too, the players with them are all first and nobody is second. A player with no floor in a "
           "district is never placed."),
        "Rules 3 and 4 of the scoring: 'tous les autres étant seconds' read as the other tied players, since "
        "'personne ne marque ceux de la seconde' in rule 4 shows the players below the tie are out of it."),
    "C9": Ruling(
        N_("An auction whose piece has nowhere to go (no free small square for a fountain) is not held."),
        "The winner 'doit placer' the piece; with no square for it the sale cannot be completed."),
    "C10": Ruling(
        N_("Only the top card of each pile is seen. When a pile runs out, its discards are turned over at once into "
           "a new face-up pile, the first card discarded on top, never shuffled. When every pile and discard is "
           "empty, the draw phase ends."),
        "'On se contente de retourner la défausse pour former une nouvelle pioche, face visible'; turning a "
        "face-down pile over puts its first card on top."),
    "C11": Ruling(
        N_("The player in seat 0 is the first consul; turn order goes round the seats in number order, and the "
           "consul passes to the next seat after each round."),
        "'Le premier joueur du premier tour, désigné d'une manière ou d'une autre'; clockwise is the seats' "
        "order."),
    "C12": Ruling(
        N_("Players tied for the highest score at the end share the win."),
        "The rulebook names no tie-break for the winner."),
    "C13": Ruling(
        N_("There is no draw phase after the fourth round's scoring: the game is over."),
        "Cards drawn then could never be played."),
    "C14": Ruling(
        N_("A player may play any card without its action, whether or not they could carry it out. A floor card "
           "places both floors if it is carried out (one, if only one is left in the supply). A player with no "
           "card must pass, and bids no card."),
        "'Un joueur peut jouer une carte et ne pas effectuer l'action correspondante'; 'il doit alors les "
        "rajouter' for the two floors."),
    "C15": Ruling(
        N_("The second floor of a floor card may go on the building the first one started."),
        "Each floor either raises a building under construction or starts a new one; once started, a "
        "building is under construction."),
    "C16": Ruling(
        N_("Bids are made in turn order, each hidden until all are made, then revealed highest card first. The "
           "order of a bid's cards changes nothing but when they show."),
        "The piles are prepared at once, face down; only the sum and the highest card decide."),
}
