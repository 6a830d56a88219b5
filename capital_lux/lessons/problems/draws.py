"""Exercises on the deck, the draft and the face-down modifiers (the first seven)."""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb
from typing import Sequence

from . import mistakes as M
from .core import (
    Exercise, Fact, Mistake, all_modifiers_but_pending, as_fraction, as_int, deal_position, discard_pile, discarded,
    hidden_sums, limits, mean, mods, ngettext, played_position, reshuffle, share,
    table_choice, unseen,
)
from ...analysis.risk import hypergeometric, hypergeometric_at_least, unseen_modifiers
from ...engine.cards import ALL_CARDS, Card, N_
from ...engine.game import sample_chance
from ...engine.notation import Play
from ...engine.state import GameState
from ...engine.views import PlayerView

SHUFFLED = N_("The deck is shuffled: every card you cannot see is equally likely to be anywhere among "
              "the cards you cannot see.")
DECK = N_("The deck has 72 cards, 18 of each colour: in each colour, three 2s, four 3s, four 4s, four 5s "
          "and three 6s.")
MODIFIER_SET = N_("There are four modifier cards, one of each: -3, -1, +2 and +4.")
EQUAL_IS_SAFE = N_("A colour exceeds its limit only when its total is strictly more than the limit: a total "
                   "equal to the limit is safe (ruling R7).")
NOBODY_DRAWS = N_("Nobody else draws a card between your two draws, and every card you cannot see is "
                  "equally likely to be on top of the deck.")
PLACED_BLIND = N_("Assume the placements tell you nothing: every modifier you have not seen is equally "
                  "likely to be any face-down one.")


# -- deck composition and the draft --------------------------------------------------------
def deal_facts(v: PlayerView, colour: str | None = None, value: int | None = None) -> dict[str, Fact]:
    cards = unseen(v)
    k = sum((colour is None or c.colour == colour) and (value is None or c.value == value) for c in cards)
    return {"N": len(cards), "K": k, "n": v.deal_size, "rest": len(cards) - k,
            "sixes": ngettext("{count} six", "{count} sixes", k)}


def _nkn(v: PlayerView, colour: str | None = None, value: int | None = None) -> tuple[int, int, int]:
    f = deal_facts(v, colour, value)
    return as_int(f["N"]), as_int(f["K"]), as_int(f["n"])


def _any_six(v: PlayerView) -> Fraction:
    big_n, k, n = _nkn(v, value=6)
    return 1 - hypergeometric(big_n, k, n, 0)


def _any_six_replaced(v: PlayerView) -> Fraction:
    big_n, k, n = _nkn(v, value=6)
    return 1 - (1 - Fraction(k, big_n)) ** n


def _two_yellow(v: PlayerView) -> Fraction:
    big_n, k, n = _nkn(v, colour="Y")
    return hypergeometric(big_n, k, n, 2)


def _two_yellow_binomial(v: PlayerView) -> Fraction:
    big_n, k, n = _nkn(v, colour="Y")
    p = Fraction(k, big_n)
    return comb(n, 2) * p**2 * (1 - p) ** (n - 2)


def _expected_sixes(v: PlayerView) -> Fraction:
    big_n, k, n = _nkn(v, value=6)
    return Fraction(n * k, big_n)


def _dealt(s: GameState, rng: random.Random, viewer: int) -> tuple[Card, ...]:
    while s.is_chance_node():
        s.apply_action(sample_chance(s, rng))
    return tuple(s.draft_hands[viewer])


def scholar_facts(v: PlayerView) -> dict[str, Fact]:
    cards = unseen(v)
    scholar = next(c for c in v.hand if c.colour == "G")
    greens = sum(c.colour == "G" for c in cards)
    return {"card": scholar, "G": greens, "N": len(cards),
            "discards": len(v.discards), "discarded": discarded(v, "G"), "pile": discard_pile(v),
            "greens": ngettext("{count} of them is {green}", "{count} of them are {green}", greens)}


def _scholar(v: PlayerView) -> Fraction:
    f = scholar_facts(v)
    return Fraction(as_int(f["G"]), as_int(f["N"]))


def green_with_discards(v: PlayerView) -> Fraction | None:
    """The classic miscount: the discard pile taken for unseen cards."""
    if not v.discards:
        return None
    f = scholar_facts(v)
    return Fraction(as_int(f["G"]) + as_int(f["discarded"]), as_int(f["N"]) + as_int(f["discards"]))


def _scholar_trial(s: GameState, rng: random.Random) -> Fraction:
    s.apply_action(Play(next(c for c in s.hands[s.current] if c.colour == "G"), "capital"))
    drawn = sample_chance(s, rng)
    return Fraction(getattr(drawn, "card").colour == "G")


# -- face-down modifiers -------------------------------------------------------------------
def _limit_facts(v: PlayerView) -> dict[str, Fact]:
    pool = list(unseen_modifiers(v))
    k = sum(m.value is None for m in v.modifiers_above["Y"])
    average = Fraction(sum(pool), len(pool))
    return {"cards": sum(v.capital["Y"]), "pool": mods(pool), "mean": average, "k": k, "mods": k * average,
            "hidden": ngettext("{count} face-down modifier", "{count} face-down modifiers", k),
            "adding": ngettext("{count} face-down modifier adds {count} × {mean}",
                               "{count} face-down modifiers add {count} × {mean}", k)}


def _limit_one_modifier(v: PlayerView) -> Fraction:
    f = _limit_facts(v)
    return as_int(f["cards"]) + as_fraction(f["mean"])


def _limit_own_counted(v: PlayerView) -> Fraction:
    f = _limit_facts(v)
    return as_int(f["cards"]) + as_int(f["k"]) * mean(all_modifiers_but_pending(v))


def _limit_trial(s: GameState, rng: random.Random) -> Fraction:
    return Fraction(s.capital_total("Y"))


# -- two draws: what can two cards add up to? ----------------------------------------------------
#: The totals the two-draws question asks the cards to beat: each table states one (``_threshold``).
SUM_THRESHOLDS: tuple[int, ...] = (5, 6, 7, 8, 9, 10)


def _threshold(v: PlayerView) -> int:
    """The total this table's question asks the two cards drawn to be more than."""
    return table_choice(v, SUM_THRESHOLDS)


def _pairs_over(values: Sequence[int], threshold: int, replaced: bool = False) -> Fraction:
    """The share of ordered pairs of two different copies (``replaced``: any two, the same one
    twice too) whose total is more than ``threshold``."""
    return share([a + b > threshold for i, a in enumerate(values) for j, b in enumerate(values) if replaced or i != j])


def _values(v: PlayerView, with_discards: bool = False) -> list[int]:
    return [c.value for c in unseen(v)] + ([c.value for c in v.discards] if with_discards else [])


def _positive(v: PlayerView) -> Fraction:
    return _pairs_over(_values(v), _threshold(v))


def _positive_facts(v: PlayerView) -> dict[str, Fact]:
    values, threshold = _values(v), _threshold(v)
    total = len(values) * (len(values) - 1)
    return {"N": len(values), "threshold": threshold, "pile": discard_pile(v), "total": total,
            "good": int(_pairs_over(values, threshold) * total),
            "counts": ", ".join(f"{values.count(x)} × {x}" for x in sorted(set(values)))}


def _positive_trial(s: GameState, rng: random.Random) -> Fraction:
    from ...engine.views import view

    deck = [ALL_CARDS[k].value for k, n in enumerate(s.deck) for _ in range(n)]  # hidden places drawn at random
    return Fraction(sum(rng.sample(deck, 2)) > _threshold(view(s, 0)))


# -- conditional probability: after drawing a card ------------------------------------------------
def _after_draw_card(v: PlayerView) -> Card:
    """The card the question says the viewer's Scholar has just drawn: one of their hand's, read from
    the table (``table_choice``), so that the colour asked about differs from one table to the next."""
    return table_choice(v, sorted(v.hand))


def _after_draw_facts(v: PlayerView) -> dict[str, Fact]:
    drawn, cards = _after_draw_card(v), unseen(v)
    k = sum(c.colour == drawn.colour for c in cards)
    return {"drawn": drawn, "N": len(cards), "K": k, "pile": discard_pile(v),
            "before": Fraction(k + 1, len(cards) + 1)}


def _after_draw(v: PlayerView) -> Fraction:
    f = _after_draw_facts(v)
    return Fraction(as_int(f["K"]), as_int(f["N"]))


def _after_draw_trial(s: GameState, rng: random.Random) -> Fraction:
    from ...engine.views import view

    colour = _after_draw_card(view(s, 0)).colour
    top = ALL_CARDS[rng.choice([k for k, n in enumerate(s.deck) for _ in range(n)])]  # hidden places drawn at random
    return Fraction(top.colour == colour)


DRAWS: tuple[Exercise, ...] = (
    Exercise(
        "deal-any-six", N_("Deck composition and the draft"), N_("A 6 in the deal"), "first-deal", 0,
        N_("The cards for the draft are about to be dealt: you will get {n} of the {N} cards you cannot "
           "see. What is the probability that at least one of them is a 6?"),
        N_("The {N} cards you cannot see hold {sixes}, and every set of {n} of them is equally "
           "likely to be yours. The sets without a 6 choose all {n} cards among the other {rest}: "
           "P(no 6) = C({rest}, {n}) / C({N}, {n}). So P(at least one 6) = 1 - C({rest}, {n}) / C({N}, {n}) "
           "= {answer}."),
        _any_six, lambda v: deal_facts(v, value=6),
        lambda s, rng: Fraction(any(c.value == 6 for c in _dealt(s, rng, 0))),
        mistakes=(Mistake("with-replacement", M.WITH_REPLACEMENT, _any_six_replaced),
                  Mistake("expected-for-probability", M.EXPECTED_FOR_PROBABILITY, _expected_sixes)),
        assumptions=(DECK, SHUFFLED), vary=deal_position,
    ),
    Exercise(
        "deal-two-merchants", N_("Deck composition and the draft"), N_("Two Merchants in the deal"),
        "first-deal", 0,
        N_("You will be dealt {n} of the {N} cards you cannot see, {K} of which are {Merchant} cards "
           "({yellow}). What is the probability that exactly two of your {n} cards are {yellow}?"),
        N_("This is the hypergeometric distribution: choose 2 of the {K} {yellow} cards and {n} - 2 of "
           "the other {rest}, out of all the ways to choose {n} of {N}: "
           "C({K}, 2) × C({rest}, {n} - 2) / C({N}, {n}) = {answer}."),
        _two_yellow, lambda v: deal_facts(v, colour="Y"),
        lambda s, rng: Fraction(sum(c.colour == "Y" for c in _dealt(s, rng, 0)) == 2),
        mistakes=(Mistake("binomial", M.BINOMIAL, _two_yellow_binomial),
                  Mistake("at-least", M.AT_LEAST,
                          lambda v: hypergeometric_at_least(*_nkn(v, colour="Y"), 2))),
        assumptions=(DECK, SHUFFLED), vary=deal_position,
    ),
    Exercise(
        "deal-expected-sixes", N_("Deck composition and the draft"), N_("How many sixes, on average?"),
        "first-deal", 0,
        N_("You will be dealt {n} of the {N} cards you cannot see, which hold {sixes}. How many sixes "
           "do you get on average (the expected number)?"),
        N_("Each of your {n} cards is a 6 with probability {K}/{N}. Expectations add up even though the "
           "cards are not independent, so the expected number of sixes is {n} × {K}/{N} = {answer}."),
        _expected_sixes, lambda v: deal_facts(v, value=6),
        lambda s, rng: Fraction(sum(c.value == 6 for c in _dealt(s, rng, 0))),
        probability=False,
        mistakes=(Mistake("probability-for-expected", M.PROBABILITY_FOR_EXPECTED, _any_six),
                  Mistake("per-card", M.PER_CARD, lambda v: Fraction(_nkn(v, value=6)[1], _nkn(v, value=6)[0]))),
        assumptions=(DECK, SHUFFLED), vary=deal_position,
    ),
    Exercise(
        "scholar-green", N_("Deck composition and the draft"), N_("A Scholar draws a Scholar"),
        "modifiers-round-2", 0,
        N_("You play {card} into the {Capital}: the {Scholar} draws the top card of the deck. What is the "
           "probability that it is another {Scholar}, a {green} card?"),
        N_("You cannot see {N} cards: the deck and the other players' hands. The discard pile ({pile}) "
           "is out of the game. Nothing you know tells the unseen cards apart, so each of them is equally "
           "likely to be on top of the deck. {greens}, so the probability is {answer}."),
        _scholar, scholar_facts, _scholar_trial,
        mistakes=(Mistake("discards-unseen", M.DISCARDS_UNSEEN, green_with_discards),),
        assumptions=(DECK, SHUFFLED),
        vary=played_position(lambda s: s.deck_size() >= 1 and any(c.colour == "G" for c in s.hands[s.current]),
                             reshuffle(discards=False, modifiers=False, discard_more=8)),
    ),
    Exercise(
        "modifiers-positive", N_("Sequential draws"), N_("What can two cards add up to?"),
        "modifiers-round-2", 0,
        N_("You play two {Scholar} cards into the {Capital}, one after the other; each draws the top card of the "
           "deck. What is the probability that the two cards drawn add up to more than {threshold}?"),
        N_("The two cards drawn are two different cards among the {N} you cannot see, whose values are {counts} "
           "(the discard pile, {pile}, is out of the game). Of the {total} ordered pairs of two different cards, "
           "each equally likely, {good} add up to more than {threshold}: {good}/{total} = {answer}."),
        _positive, _positive_facts, _positive_trial,
        mistakes=(Mistake("with-replacement", M.WITH_REPLACEMENT, lambda v: _pairs_over(_values(v), _threshold(v), True)),
                  Mistake("discards-unseen", M.DISCARDS_UNSEEN,
                          lambda v: _pairs_over(_values(v, True), _threshold(v)) if v.discards else None)),
        assumptions=(DECK, NOBODY_DRAWS),
        vary=played_position(lambda s: s.deck_size() >= 2,
                             reshuffle(discards=False, modifiers=False, hand_greens=2, discard_more=8)),
        valid=lambda v: sum(c.colour == "G" for c in v.hand) >= 2,
    ),
    Exercise(
        "modifiers-expected-limit", N_("Face-down modifiers"), N_("The expected limit"),
        "modifiers-round-2", 0,
        N_("What is the expected {yellow} limit: the {Capital}'s {yellow} cards plus {hidden} above the "
           "{Merchant}?"),
        N_("The {yellow} cards in the {Capital} add up to {cards}. Each face-down modifier is equally "
           "likely to be any of {pool}, whose average is {mean}. Expectations add up, so {adding} = {mods} "
           "on average, and the expected limit is {cards} + {mods} = {answer}."),
        lambda v: mean(limits(v, "Y")), _limit_facts, _limit_trial,
        probability=False,
        mistakes=(Mistake("one-modifier", M.ONE_MODIFIER, _limit_one_modifier),
                  Mistake("known-unseen", M.KNOWN_UNSEEN, _limit_own_counted)),
        assumptions=(MODIFIER_SET, PLACED_BLIND), vary=reshuffle(discards=False, capital=("Y",), yellow_hidden=(1, 2, 3), hand_over_own=True,
                               capital_more=("Y",)),
        valid=lambda v: len(set(limits(v, "Y"))) > 1,  # every modifier face down there: nothing to expect
    ),
    Exercise(
        "modifier-after-draw", N_("Conditional probability"), N_("After drawing a card"),
        "modifiers-round-2", 0,
        N_("Your {Scholar} has just drawn {drawn} from the deck into your hand. Before that draw, the chance "
           "that the top card was of the colour of {drawn} was {before}. What is now the probability that the new "
           "top card of the deck is of that colour?"),
        N_("Knowing your own card changes the odds: {drawn} is in your hand, so it is not among the cards that "
           "can be on top any more. You cannot see {N} cards: the deck and the other players' hands (the discard "
           "pile, {pile}, is out of the game). {K} of them are of the colour of {drawn}, each card equally likely "
           "to be on top, so the probability is {K}/{N} = {answer}."),
        _after_draw, _after_draw_facts, _after_draw_trial,
        mistakes=(Mistake("prior", M.PRIOR, lambda v: as_fraction(_after_draw_facts(v)["before"])),),
        assumptions=(DECK, SHUFFLED),
        vary=played_position(lambda s: s.deck_size() >= 1 and len(s.hands[s.current]) >= 2,
                             reshuffle(discards=False, modifiers=False, discard_more=8)),
    ),
)
