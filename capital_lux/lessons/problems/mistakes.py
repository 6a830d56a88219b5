"""The classic wrong answers, as whole sentences the checker shows (msgids).

Each exercise kind lists the ``Mistake``s that apply to it with the value each one
gives on the learner's own cards; ``checker.diagnose`` recognises them."""

from __future__ import annotations

from ...engine.cards import N_

WITH_REPLACEMENT = N_("It looks like you drew with replacement: a card or modifier that has been drawn "
                      "cannot come again, so each draw changes the odds of the next one.")
BINOMIAL = N_("It looks like the binomial formula, which is for draws with replacement. Cards are dealt "
              "without replacement: use the hypergeometric distribution.")
DISCARDS_UNSEEN = N_("It looks like you counted the discarded cards as unseen. Discarded cards are out of "
                     "the game and face up, so they can never be drawn.")
KNOWN_UNSEEN = N_("It looks like you counted something you know as unseen. Your own cards and your own "
                  "modifiers cannot be among the hidden ones.")
COMPLEMENT = N_("This is the probability of the opposite event. Did you forget to take the complement "
                "(1 minus your result)?")
EXPECTED_FOR_PROBABILITY = N_("This is an expected number, not a probability. The question asks how likely "
                              "the event is.")
PROBABILITY_FOR_EXPECTED = N_("This is a probability, not an expected value. The question asks for an "
                              "average amount.")
PERCENT_WITHOUT_SIGN = N_("It looks like a percentage written without the % sign. Write either a "
                          "percentage with its sign or a number between 0 and 1.")
PERCENT_OF_FRACTION = N_("It looks like a number between 0 and 1 with a % sign after it. A probability of "
                         "0.5 is 50%, not 0.5%.")
PERCENT_FOR_EXPECTED = N_("A percentage is a share of a whole, but this question asks for an expected value: an "
                          "amount, like a number of cards, points or samples. Write the number itself, without the "
                          "% sign.")
PER_CARD = N_("This is the figure for a single card. With several cards, multiply by their number: "
              "expectations add up.")
AT_LEAST = N_("This is the probability of at least that many, but the question asks for exactly that many.")
PRIOR = N_("This is the probability before the new information. Update it with what you have just learned.")
EQUAL_EXCEEDS = N_("It looks like you counted a total equal to the limit as exceeding. A colour exceeds only "
                   "when it is strictly above its limit (ruling R7).")
GOLD_IGNORED = N_("It looks like you left the gold discs out. They can pay the difference (ruling R6).")
INDEPENDENCE = N_("It looks like you multiplied the two probabilities as if the events were independent. "
                  "They are not: once one has happened, it changes the chances of the other.")
TIE_ORDER = N_("It looks like the tie rule went the wrong way. Tied players take bonus cards in turn order, "
               "starting from the round's starting player (rulings R3 and R5).")
LIKELIHOOD = N_("This is the chance of the placement given the value, not of the value given the "
                "placement. Turn it round with Bayes' rule.")
SIGN = N_("The sign is the wrong way round. The question asks for the Hometown play minus the Capital play.")
DISC_FORGOTTEN = N_("It looks like you forgot the Merchant's gold disc in the Capital play.")
MEAN_OF_SQUARES = N_("This is the mean of the squares. Subtract the square of the mean to get the variance.")
SAMPLE_VARIANCE = N_("It looks like you divided by n - 1. The cards you cannot see are the whole population, "
                     "so divide by their number.")
VARIANCES_ADDED = N_("It looks like you added the variances as if the two draws were independent. Drawn "
                     "without replacement, they pull against each other, so the spread is smaller.")
ONE_MODIFIER = N_("This is the figure for one modifier. The question is about all of them together.")
CLERIC_HALF = N_("It looks like you counted only half of the Cleric's effect. The card taken raises your "
                 "total and lowers the limit by the same value.")
NOT_SQUARED = N_("It looks like z (1.96 for a 95% interval) was not squared. The number of samples is z² "
                 "times the variance, divided by the square of the half-width.")
NOT_ROUNDED_UP = N_("Round up. The number of samples is a whole number, the smallest one that is enough.")
CHOICE_IGNORED = N_("It looks like you left out the player's choice. Playing a Scholar into the Capital is "
                    "only one of the moves they may choose.")

#: Each mistake's short label, for the teacher's dashboard and exports (by its stable id).
LABELS: dict[str, str] = {
    "at-least": N_("at least instead of exactly"),
    "binomial": N_("binomial (with replacement)"),
    "choice-ignored": N_("player's choice left out"),
    "cleric-half": N_("half the Cleric's effect"),
    "complement": N_("opposite event"),
    "disc-forgotten": N_("gold disc forgotten"),
    "discards-unseen": N_("discards counted as unseen"),
    "equal-exceeds": N_("equal counted as exceeding"),
    "expected-for-probability": N_("expected number, not a probability"),
    "gold-ignored": N_("gold left out"),
    "independence": N_("taken as independent"),
    "known-unseen": N_("known cards counted as unseen"),
    "likelihood": N_("Bayes turned the wrong way"),
    "mean-of-squares": N_("mean of squares"),
    "not-rounded-up": N_("not rounded up"),
    "not-squared": N_("z not squared"),
    "one-modifier": N_("one modifier only"),
    "per-card": N_("one card only"),
    "percent-of-fraction": N_("% after a number below 1"),
    "percent-for-expected": N_("percentage for an expected value"),
    "percent-without-sign": N_("percentage without %"),
    "prior": N_("before the new information"),
    "probability-for-expected": N_("probability, not an expected value"),
    "sample-variance": N_("divided by n - 1"),
    "sign": N_("sign the wrong way"),
    "tie-order": N_("tie order the wrong way"),
    "variances-added": N_("variances added"),
    "with-replacement": N_("with replacement"),
}
