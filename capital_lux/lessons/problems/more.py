"""More probability: Bayes, total probability, dependence, variance, sequential draws,
the Cleric, and how many samples an estimate needs (nine exercise kinds)."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction
from math import ceil, floor

from . import mistakes as M
from .core import (
    Exercise, Fact, Mistake, Variation, all_modifiers_but_pending, as_fraction, as_int, deal_position, discard_pile,
    discarded, hidden_above, hidden_sums, limits, mean, mods, ngettext, played_position, reshuffle, share, table_choice,
    unseen,
)
from .draws import DECK, EQUAL_IS_SAFE, MODIFIER_SET, NOBODY_DRAWS, PLACED_BLIND, SHUFFLED
from .round_end import (
    LAST_TURN, _draw_risk, _draw_valid, _drawn, _lost, _over, _save_none, _scholar_in_hand, to_round_end,
)
from ...analysis.risk import unseen_modifiers
from ...engine.cards import ALL_CARDS, COLOURS, N_, Card, format_modifier
from ...engine.game import sample_chance
from ...engine.notation import Play, TakeLowest
from ...engine.position import PositionDict
from ...engine.state import GameState
from ...engine.views import PlayerView

#: The placement models the Bayes exercise states: the chance that a negative modifier, and a
#: positive one, is put above the Merchant. Each table states one (``placement_model``), so that a
#: class does not share the few posteriors one model gives.
PLACEMENT_MODELS: tuple[tuple[Fraction, Fraction], ...] = tuple(
    (Fraction(a), Fraction(b)) for a, b in (  # 24 ratios a/b, no two alike: each gives its own posteriors
        ("3/4", "1/4"), ("3/4", "1/2"), ("5/6", "1/2"), ("7/10", "2/5"), ("2/3", "1/3"), ("9/10", "2/5"),
        ("1/2", "1/5"), ("4/5", "3/10"), ("5/6", "1/4"), ("7/10", "1/5"), ("4/5", "1/5"), ("9/10", "1/5"),
        ("1/2", "1/10"), ("11/20", "1/10"), ("3/5", "1/10"), ("7/10", "1/10"), ("4/5", "1/10"), ("9/10", "1/10"),
        ("2/3", "1/2"), ("11/20", "1/5"), ("13/20", "1/5"), ("3/4", "1/5"), ("3/5", "1/2"), ("13/20", "1/4")))
#: The intervals the samples exercise states: a confidence level with its normal quantile, and the
#: half-width wanted (points of the limit). Each table states one (``interval``).
INTERVALS: tuple[tuple[int, Decimal, Decimal], ...] = tuple(
    (level, Decimal(z), Decimal(width))
    for level, z in ((80, "1.282"), (90, "1.645"), (95, "1.96"), (98, "2.326"), (99, "2.576"))
    for width in ("0.25", "0.4", "0.5", "0.6", "0.75", "1", "1.2", "1.5"))

PLACEMENT_MODEL = N_("The placement model: a player who draws a negative modifier puts it above the "
                     "{Merchant} with probability {negative_above}, a positive one with probability "
                     "{positive_above}; the modifier drawn is equally likely to be any one you have not seen.")
NOW_ONLY = N_("Count only what is on the table now: your {yellow} cards in your {Hometown} and the "
              "{Capital}'s {yellow} total with its modifiers; cards still in hands are left aside.")


def _variance(values: list[int] | list[Fraction]) -> Fraction:
    m = mean(values)
    return mean([(x - m) ** 2 for x in values])


def _pool(v: PlayerView) -> list[int]:
    return list(unseen_modifiers(v))


def _hidden_pool(s: GameState, viewer: int) -> list[int]:
    """The modifier values the viewer has not seen, read from a full state."""
    hidden = [value for c in "BGPY" for value in hidden_above(s, c, viewer)]
    return hidden + list(s.modifier_deck)


# -- Bayes: what a placement tells ---------------------------------------------------------------
def placement_model(v: PlayerView) -> tuple[Fraction, Fraction]:
    """The model this table states (negative above, positive above)."""
    return table_choice(v, PLACEMENT_MODELS)


def _posterior(v: PlayerView) -> Fraction:
    pool, (negative_above, positive_above) = _pool(v), placement_model(v)
    negative = negative_above * sum(m < 0 for m in pool)
    return negative / (negative + positive_above * sum(m > 0 for m in pool))


def _bayes_facts(v: PlayerView) -> dict[str, Fact]:
    pool = _pool(v)
    neg, pos = sum(m < 0 for m in pool), sum(m > 0 for m in pool)
    owner = next(m.owner for m in v.modifiers_above["Y"] if m.value is None)
    drawn = mods([] if v.pending_modifier is None else [v.pending_modifier])
    return {"seat": owner, "drawn": drawn, "pool": mods(pool), "neg": neg, "pos": pos, "k": len(pool),
            "negatives": ngettext("{count} negative", "{count} negative", neg),
            "positives": ngettext("{count} positive", "{count} positive", pos),
            "negative_above": placement_model(v)[0], "positive_above": placement_model(v)[1],
            "top": placement_model(v)[0] * Fraction(neg, len(pool)),
            "bottom": (placement_model(v)[0] * neg + placement_model(v)[1] * pos) / len(pool)}


def _bayes_trial(s: GameState, rng: random.Random) -> Fraction:
    from ...engine.views import view

    pool, (negative_above, positive_above) = _hidden_pool(s, 0), placement_model(view(s, 0))
    while True:  # rejection: keep only the draws that the model puts above the Merchant
        m = rng.choice(pool)
        if rng.random() < (negative_above if m < 0 else positive_above):
            return Fraction(m < 0)


# -- total probability: the first modifier turned, after a Scholar's draw -------------------------
def _reveal_parts(v: PlayerView) -> tuple[int, int, list[int]]:
    return v.hometown_total(v.viewer, "Y"), sum(v.capital["Y"]) + v.known_modifiers("Y"), _pool(v)


def _limits_given(v: PlayerView, first: int, replaced: bool = False) -> list[int]:
    """The equally likely yellow limits once the first face-down modifier shows ``first``: the
    other one is any other unseen modifier (``replaced``: the classic, any one, ``first`` again too)."""
    _, cards, pool = _reveal_parts(v)
    rest = list(pool)
    if not replaced:
        rest.remove(first)
    return [cards + first + x for x in rest]


def _risk_given(v: PlayerView, first: int, replaced: bool = False) -> Fraction:
    """The risk once ``first`` is turned: the Scholar's card weighed over every card unseen."""
    return _draw_risk(v, _over, _limits_given(v, first, replaced))


def _revealed(v: PlayerView) -> int:
    """The value the question turns: the lowest one that leaves the answer open."""
    pool = sorted(_pool(v))
    return next((m for m in pool if 0 < _risk_given(v, m) < 1), pool[0])


def _reveal_facts(v: PlayerView) -> dict[str, Fact]:
    home, cards, pool = _reveal_parts(v)
    first = _revealed(v)
    rest = list(pool)
    rest.remove(first)
    seen = unseen(v)
    values = sorted({c.value for c in seen if c.colour == "Y"})

    def risk(total: int) -> Fraction:
        return share([total > limit for limit in _limits_given(v, first)])

    return {
        "round": v.round, "card": v.hand[0], "home": home, "cards": cards, "N": len(seen),
        "first": format_modifier(first), "rest": mods(rest), "others": sum(c.colour != "Y" for c in seen),
        "risk0": risk(home),
        "cases": ", ".join(f"{sum(c.colour == 'Y' and c.value == x for c in seen)} × {x} → {risk(home + x)}"
                           for x in values),
        "table": ", ".join(f"{m:+d} → {_risk_given(v, m)}" for m in sorted(pool)),
        "overall": mean([_risk_given(v, m) for m in pool]),
    }


def _reveal_trial(s: GameState, rng: random.Random) -> Fraction:
    first = _revealed_in(s)
    slots = [i for i, (o, _) in enumerate(s.modifiers_above["Y"]) if o != 0]
    values = [s.modifiers_above["Y"][i][1] for i in slots]
    if first != values[0]:
        # Put the turned value first, moving the one it displaces to where it was: by symmetry
        # the other face-down modifier stays uniform among the rest.
        if first == values[1]:
            values = [first, values[0]]
        else:
            where = [c for c in "BGP" for o, value in s.modifiers_above[c] if value == first and o != 0]
            if where:
                c = where[0]
                s.modifiers_above[c] = [(o, values[0] if value == first else value) for o, value in s.modifiers_above[c]]
            else:
                s.modifier_deck = sorted(values[0] if m == first else m for m in s.modifier_deck)
            values = [first, values[1]]
    for i, value in zip(slots, values):
        s.modifiers_above["Y"][i] = (s.modifiers_above["Y"][i][0], value)
    to_round_end(s, Play(s.hands[0][0], "capital"), 0, _save_none, rng)
    return Fraction(_lost(s, 0, "Y", ("discard", "gold_spent")))


def _revealed_in(s: GameState) -> int:
    from ...engine.views import view

    return _revealed(view(s, 0))


def _reveal_valid(v: PlayerView) -> bool:
    two = sum(m.value is None for m in v.modifiers_above["Y"]) == 2
    return _draw_valid(v) and two and 0 < _risk_given(v, _revealed(v)) < 1


# -- dependence: two hidden cards from one deck -------------------------------------------------------
def _holder_of_two(v: PlayerView) -> int:
    """The first other player who holds exactly two cards the viewer cannot see."""
    return next(p for p in range(v.players) if p != v.viewer and v.hand_sizes[p] == 2)


def _both_yellow(cards: list[Card]) -> Fraction:
    y, n = sum(c.colour == "Y" for c in cards), len(cards)
    return Fraction(y * (y - 1), n * (n - 1))


def _dependence_facts(v: PlayerView) -> dict[str, Fact]:
    cards = unseen(v)
    y, n = sum(c.colour == "Y" for c in cards), len(cards)
    p = Fraction(y, n)
    return {"seat": _holder_of_two(v), "Y": y, "N": n, "Y1": y - 1, "N1": n - 1, "p": p, "product": p * p,
            "pile": discard_pile(v)}


def _dependence(v: PlayerView) -> Fraction:
    return _both_yellow(unseen(v))


def _dependence_trial(s: GameState, rng: random.Random) -> Fraction:
    from ...engine.views import view

    return Fraction(all(c.colour == "Y" for c in s.hands[_holder_of_two(view(s, 0))]))


def _dependence_ready(s: GameState) -> bool:
    return any(p != s.current and len(s.hands[p]) == 2 for p in range(s.players))


# -- expected value and variance ---------------------------------------------------------------
def _variance_facts(v: PlayerView) -> dict[str, Fact]:
    pool = _pool(v)
    return {"pool": mods(pool), "k": len(pool), "mean": mean(pool), "squares": mean([m * m for m in pool]),
            "mean_sq": mean(pool) ** 2}


def _variance_trial(s: GameState, rng: random.Random) -> Fraction:
    pool = _hidden_pool(s, 0)
    return (sum(hidden_above(s, "Y", 0)) - mean(pool)) ** 2


def card_values(v: PlayerView, with_discards: bool = False) -> list[int]:
    """The values of the cards the viewer cannot see (``with_discards``: and of the discard
    pile, the classic miscount), one entry per copy."""
    return [c.value for c in unseen(v)] + ([c.value for c in v.discards] if with_discards else [])


def counted(values: list[int]) -> str:
    """``5 × 2, 7 × 3, ...``: how many cards of each value, in a language-neutral form."""
    return ", ".join(f"{values.count(x)} × {x}" for x in sorted(set(values)))


def _card_variance_facts(v: PlayerView) -> dict[str, Fact]:
    values = card_values(v)
    return {"N": len(values), "counts": counted(values), "mean": mean(values),
            "squares": mean([x * x for x in values]), "mean_sq": mean(values) ** 2, "pile": discard_pile(v)}


def _discards_variance(v: PlayerView) -> Fraction | None:
    return _variance(card_values(v, True)) if v.discards else None


def _deck_values(s: GameState) -> list[int]:
    return [ALL_CARDS[k].value for k, n in enumerate(s.deck) for _ in range(n)]


def _card_variance_trial(s: GameState, rng: random.Random) -> Fraction:
    from ...engine.views import view

    return (rng.choice(_deck_values(s)) - mean(card_values(view(s, 0)))) ** 2


def _two_draws_variance(values: list[int]) -> Fraction:
    """The variance of the total of two different cards drawn among ``values``."""
    return 2 * _variance(values) * (len(values) - 2) / (len(values) - 1)


def _two_draws_facts(v: PlayerView) -> dict[str, Fact]:
    values = card_values(v)
    return {"N": len(values), "counts": counted(values), "one": _variance(values), "mean": 2 * mean(values),
            "pile": discard_pile(v)}


def _two_draws_trial(s: GameState, rng: random.Random) -> Fraction:
    from ...engine.views import view

    deck = _deck_values(s)
    total = sum(rng.sample(deck, 2))
    return (total - 2 * mean(card_values(view(s, 0)))) ** 2


def _limit_variance(v: PlayerView) -> Fraction:
    return _variance(limits(v, "Y"))


def _spread_facts(v: PlayerView) -> dict[str, Fact]:
    pool = _pool(v)
    k = sum(m.value is None for m in v.modifiers_above["Y"])
    return {"pool": mods(pool), "N": len(pool), "k": k, "one": _variance(pool), "mean": mean(limits(v, "Y")),
            "limits": ", ".join(str(x) for x in sorted(limits(v, "Y")))}


def _spread_trial(s: GameState, rng: random.Random) -> Fraction:
    from ...engine.views import view

    return (s.capital_total("Y") - mean(limits(view(s, 0), "Y"))) ** 2


def interval(v: PlayerView) -> tuple[int, Fraction, Fraction]:
    """The interval this table asks for: its level (%), quantile z and half-width."""
    level, z, width = table_choice(v, INTERVALS)
    return level, Fraction(z), Fraction(width)


def _needed(v: PlayerView, power: int = 2) -> Fraction:
    """z² × variance / width² (``power=1``: the classic, z not squared)."""
    _, z, width = interval(v)
    return z**power * _limit_variance(v) / width**2


def _samples(v: PlayerView) -> Fraction:
    return Fraction(ceil(_needed(v)))


def _samples_facts(v: PlayerView) -> dict[str, Fact]:
    level, z, width = table_choice(v, INTERVALS)
    return {"variance": _limit_variance(v), "product": _needed(v), "level": level, "z": z, "width": width}


def _samples_trial(s: GameState, rng: random.Random) -> Fraction:
    from ...engine.views import view

    _, z, width = interval(view(s, 0))
    return z**2 * _spread_trial(s, rng) / width**2


# -- sequential draws --------------------------------------------------------------------------
def _scholars_facts(v: PlayerView) -> dict[str, Fact]:
    cards = unseen(v)
    greens = [c for c in v.hand if c.colour == "G"]
    g = sum(c.colour == "G" for c in cards)
    return {"first": greens[0], "second": greens[1], "G": g, "N": len(cards),
            "G1": g - 1, "N1": len(cards) - 1, "discards": len(v.discards), "pile": discard_pile(v),
            "greens_left": ngettext("{count} of the {N1} cards you cannot see is {green}",
                                    "{count} of the {N1} cards you cannot see are {green}", g - 1)}


def _two_greens(g: int, n: int) -> Fraction:
    return Fraction(g * (g - 1), n * (n - 1))


def _scholars(v: PlayerView) -> Fraction:
    f = _scholars_facts(v)
    return _two_greens(as_int(f["G"]), as_int(f["N"]))


def _scholars_replaced(v: PlayerView) -> Fraction:
    f = _scholars_facts(v)
    return Fraction(as_int(f["G"]), as_int(f["N"])) ** 2


def _scholars_discards(v: PlayerView) -> Fraction | None:
    f = _scholars_facts(v)
    return _two_greens(as_int(f["G"]) + discarded(v, "G"), as_int(f["N"]) + len(v.discards)) if v.discards else None


def _draw_from_deck(s: GameState, rng: random.Random) -> str:
    kinds = [k for k, n in enumerate(s.deck) for _ in range(n)]
    return ALL_CARDS[rng.choice(kinds)].colour


def _scholars_trial(s: GameState, rng: random.Random) -> Fraction:
    s.apply_action(Play(next(c for c in s.hands[0] if c.colour == "G"), "capital"))
    draw = sample_chance(s, rng)
    s.apply_action(draw)
    first = getattr(draw, "card").colour
    return Fraction(first == "G" and _draw_from_deck(s, rng) == "G")


def _until_facts(v: PlayerView) -> dict[str, Fact]:
    cards = unseen(v)
    g = sum(c.colour == "G" for c in cards)
    return {"N": len(cards), "G": g,
            "gaps": ngettext("The {count} {green} card cuts the other cards into {count} + 1 gaps",
                             "The {count} {green} cards cut the other cards into {count} + 1 gaps", g)}


def _until(v: PlayerView) -> Fraction:
    f = _until_facts(v)
    return Fraction(as_int(f["N"]) + 1, as_int(f["G"]) + 1)


def _until_trial(s: GameState, rng: random.Random) -> Fraction:
    colours = [ALL_CARDS[k].colour for k, n in enumerate(s.deck) for _ in range(n)]
    rng.shuffle(colours)
    return Fraction(colours.index("G") + 1)


# -- the Cleric, then a Scholar's draw ---------------------------------------------------------
OWN_PLAYS_ONLY = N_("Count only your own two plays: what the other players play before the round end is left "
                    "aside.")


def _cleric_parts(v: PlayerView) -> tuple[int, int, int]:
    low = min(v.capital["Y"])
    return v.hometown_total(v.viewer, "Y"), sum(v.capital["Y"]) + v.known_modifiers("Y"), low


def _cleric(v: PlayerView, drop: int = 1, discards_unseen: bool = False) -> Fraction:
    """The risk once the Scholar's card is home; with ``drop=0`` the classic half: the card the
    Cleric moves counted on one side only; ``discards_unseen``: the discard pile counted as drawable."""
    home, cards, low = _cleric_parts(v)
    sums = hidden_sums(v, "Y")
    drawable = unseen(v) + (list(v.discards) if discards_unseen else [])
    return mean([share([home + low + _drawn(c) > cards - drop * low + s for s in sums]) for c in drawable])


def _cleric_facts(v: PlayerView) -> dict[str, Fact]:
    home, cards, low = _cleric_parts(v)
    sums, seen = hidden_sums(v, "Y"), unseen(v)

    def risk(total: int) -> Fraction:
        return share([total > cards - low + s for s in sums])

    return {"card": next(c for c in v.hand if c.colour == "P"), "scholar": next(c for c in v.hand if c.colour == "G"),
            "low": low, "home": home, "after": home + low, "cards": cards, "left": cards - low,
            "pool": mods(_pool(v)), "sums": ", ".join(f"{x:+d}" for x in sums), "N": len(seen),
            "others": sum(c.colour != "Y" for c in seen), "risk0": risk(home + low),
            "cases": ", ".join(f"{sum(c.colour == 'Y' and c.value == x for c in seen)} × {x} → {risk(home + low + x)}"
                               for x in sorted({c.value for c in seen if c.colour == "Y"}))}


def _cleric_trial(s: GameState, rng: random.Random) -> Fraction:
    s.apply_action(Play(next(c for c in s.hands[0] if c.colour == "P"), "capital"))
    s.apply_action(TakeLowest("Y"))  # ruling R2: the player chooses the colour
    drawn = ALL_CARDS[rng.choice([k for k, n in enumerate(s.deck) for _ in range(n)])]  # the hidden places are drawn at random
    return Fraction(s.hometown_total(0, "Y") + _drawn(drawn) > s.capital_total("Y"))


def _cleric_valid(v: PlayerView) -> bool:
    colours = sorted(c.colour for c in v.hand)
    return colours == ["G", "P"] and len(v.capital["Y"]) >= 2 and v.deck_size > 0 and 0 < _cleric(v) < 1


def _cleric_and_scholar(then: Variation) -> Variation:
    """A variation: ``then``, and the viewer's hand made of one {Cleric} and one {Scholar} card
    from the deck (their other cards go back into it)."""

    def vary(data: PositionDict, rng: random.Random, viewer: int) -> PositionDict:
        data = then(data, rng, viewer)
        hand = data["hands"][viewer]
        data["deck"] += hand
        hand.clear()
        for colour in "PG":
            hand.append(data["deck"].pop(rng.choice([i for i, c in enumerate(data["deck"]) if c[0] == colour])))
        data["deck"].sort()
        hand.sort()
        return data

    return vary


MORE: tuple[Exercise, ...] = (
    Exercise(
        "bayes-placement", N_("Conditional probability"), N_("What does a placement tell?"), "agent-drew", 0,
        N_("Player {seat} drew a modifier with their {Agent} and put it face down above the {Merchant}. "
           "You hold the {drawn} modifier you have just drawn with your own {Agent}, so theirs is another "
           "one. Under the placement model below, what is the probability that their modifier is negative?"),
        N_("The modifier was one of {pool} ({negatives}, {positives}), each equally likely before "
           "it was placed. Bayes' rule weighs each value by the chance of being put above the {Merchant}: "
           "P(negative and above) = {negative_above} × {neg}/{k} = {top}, and P(above) = {negative_above} × "
           "{neg}/{k} + {positive_above} × {pos}/{k} = {bottom}. So P(negative | above the {Merchant}) = {top} / {bottom} = {answer}."),
        _posterior, _bayes_facts, _bayes_trial,
        mistakes=(Mistake("prior", M.PRIOR, lambda v: share([m < 0 for m in _pool(v)])),
                  Mistake("likelihood", M.LIKELIHOOD, lambda v: placement_model(v)[0])),
        assumptions=(MODIFIER_SET, PLACEMENT_MODEL), vary=reshuffle(discards=False, capital=tuple("BGPY"), hometown=tuple("BGPY")),
    ),
    Exercise(
        "reveal-conditional", N_("Conditional probability"), N_("The first modifier is turned"), "last-turn", 0,
        N_("This is the last turn of round {round}. You play {card} into the {Capital}: your {Scholar} draws the "
           "top card of the deck, and at the round end that card goes into your {Hometown}, where your {yellow} "
           "cards add up to {home} now. The {Capital}'s {yellow} cards and known modifiers add up to {cards}. At "
           "the round end the first of the two face-down modifiers above the {Merchant} is turned: it is "
           "{first}. What is now the probability that your {yellow} cards exceed the {yellow} limit?"),
        N_("The other face-down modifier is one of {rest}, each equally likely: the {first} cannot come twice. "
           "The {yellow} limit is {cards} + ({first}) + the other one. The {Scholar} draws one of the {N} cards you cannot see, each equally likely (the discard pile is out "
           "of the game). If it is not {yellow} ({others} of the {N}), your total stays {home} and exceeds with "
           "probability {risk0}. For the {yellow} ones (how many × value → probability): {cases}. Weighing each "
           "case by its number of cards: {answer}. For every value the first modifier could show, the risk is: "
           "{table}. By the law of total probability their average, {overall}, is the risk before anything is "
           "turned."),
        lambda v: _risk_given(v, _revealed(v)), _reveal_facts, _reveal_trial,
        mistakes=(Mistake("prior", M.PRIOR, lambda v: as_fraction(_reveal_facts(v)["overall"])),
                  Mistake("with-replacement", M.WITH_REPLACEMENT, lambda v: _risk_given(v, _revealed(v), True)),
                  Mistake("discards-unseen", M.DISCARDS_UNSEEN,
                          lambda v: _draw_risk(v, _over, _limits_given(v, _revealed(v)), True) if v.discards else None)),
        assumptions=(DECK, SHUFFLED, MODIFIER_SET, EQUAL_IS_SAFE, PLACED_BLIND, LAST_TURN), valid=_reveal_valid,
        vary=_scholar_in_hand(reshuffle(capital=("Y",), hometown=("Y",), discard_more=10, yellow_hidden=(2,),
                                        hand_over_own=True)),
    ),
    Exercise(
        "two-colours-dependent", N_("Dependence"), N_("Two hidden cards, one deck"),
        "modifiers-round-2", 0,
        N_("Player {seat} holds two cards you cannot see. What is the probability that both are {yellow} "
           "cards?"),
        N_("Each of the two cards alone is {yellow} with probability {Y}/{N}: {Y} of the {N} cards you "
           "cannot see are {yellow} (the discard pile, {pile}, is out of the game). But once one of them is "
           "{yellow}, only {Y1} of the other {N1} are, so the probability is {Y}/{N} × {Y1}/{N1} = {answer}. That "
           "is not {p} × {p} = {product}: the two cards come from one deck, so the two events are dependent."),
        _dependence, _dependence_facts, _dependence_trial,
        mistakes=(Mistake("independence", M.INDEPENDENCE, lambda v: Fraction(sum(c.colour == "Y" for c in unseen(v)),
                                                                             len(unseen(v))) ** 2),
                  Mistake("discards-unseen", M.DISCARDS_UNSEEN,
                          lambda v: _both_yellow(unseen(v) + list(v.discards)) if v.discards else None)),
        assumptions=(DECK, SHUFFLED),
        vary=played_position(_dependence_ready, reshuffle(discards=False, modifiers=False, discard_more=8)),
        default_seed=7,  # an answer a learner may give to three decimals (seed 0's is near 0.02)
        valid=lambda v: any(p != v.viewer and v.hand_sizes[p] == 2 for p in range(v.players)) and _dependence(v) > 0,
    ),
    Exercise(
        "modifier-variance", N_("Expected value"), N_("How much does a drawn card vary?"), "modifiers-round-2", 0,
        N_("The top card of the deck is equally likely to be any of the {N} cards you cannot see. Its value "
           "is {mean} on average. What is the variance of its value?"),
        N_("The variance is the mean of the squares minus the square of the mean. The {N} cards you cannot "
           "see have the values {counts} (the discard pile, {pile}, is out of the game). Their squares "
           "average {squares}, and the mean squared is {mean_sq}, so the variance is {squares} - {mean_sq} = "
           "{answer}."),
        lambda v: _variance(card_values(v)), _card_variance_facts, _card_variance_trial, probability=False,
        mistakes=(Mistake("mean-of-squares", M.MEAN_OF_SQUARES, lambda v: mean([x * x for x in card_values(v)])),
                  Mistake("sample-variance", M.SAMPLE_VARIANCE,
                          lambda v: _variance(card_values(v)) * len(card_values(v)) / (len(card_values(v)) - 1)),
                  Mistake("discards-unseen", M.DISCARDS_UNSEEN, _discards_variance)),
        assumptions=(DECK, SHUFFLED),
        vary=played_position(lambda s: s.deck_size() >= 1, reshuffle(discards=False, modifiers=False, discard_more=8)),
    ),
    Exercise(
        "limit-spread", N_("Expected value"), N_("The spread of two draws"), "modifiers-round-2", 0,
        N_("You play two {Scholar} cards into the {Capital}, one after the other; each draws the top card of "
           "the deck. The two cards drawn add up to {mean} on average. What is the variance of their total?"),
        N_("The two cards drawn are two different cards among the {N} you cannot see, whose values are "
           "{counts} (the discard pile, {pile}, is out of the game). One card's value has variance {one} on "
           "its own. Drawn without replacement, the variance of the total of two is 2 × {one} × ({N} - 2) / "
           "({N} - 1) = {answer}, less than 2 × {one}."),
        lambda v: _two_draws_variance(card_values(v)), _two_draws_facts, _two_draws_trial, probability=False,
        mistakes=(Mistake("variances-added", M.VARIANCES_ADDED, lambda v: 2 * _variance(card_values(v))),
                  Mistake("discards-unseen", M.DISCARDS_UNSEEN,
                          lambda v: _two_draws_variance(card_values(v, True)) if v.discards else None)),
        assumptions=(DECK, NOBODY_DRAWS),
        vary=played_position(lambda s: s.deck_size() >= 2,
                             reshuffle(discards=False, modifiers=False, hand_greens=2, discard_more=8)),
        valid=lambda v: sum(c.colour == "G" for c in v.hand) >= 2,
    ),
    Exercise(
        "samples-needed", N_("Simulation"), N_("How many samples are enough?"), "modifiers-round-2", 0,
        N_("You estimate the expected {yellow} limit by simulation. One simulated limit has variance "
           "{variance}. How many samples n do you need at least, so that the {level}% interval, ±{z} × "
           "√(variance / n), is no wider than ±{width}?"),
        N_("You need {z} × √({variance} / n) ≤ {width}, that is n ≥ {z}² × {variance} / {width}² = {product}. "
           "The smallest whole number that is enough is {answer}."),
        _samples, _samples_facts, _samples_trial, probability=False,
        mistakes=(Mistake("not-squared", M.NOT_SQUARED, lambda v: Fraction(ceil(_needed(v, power=1)))),
                  Mistake("not-rounded-up", M.NOT_ROUNDED_UP, lambda v: Fraction(floor(_needed(v))))),
        assumptions=(MODIFIER_SET, PLACED_BLIND), vary=reshuffle(discards=False, capital=tuple("BGPY"), hometown=tuple("BGPY")),
    ),
    Exercise(
        "two-scholars", N_("Sequential draws"), N_("Two Scholar draws"), "modifiers-round-2", 0,
        N_("You hold {first} and {second}. You play both into the {Capital}, one after the other; each "
           "{Scholar} draws the top card of the deck. What is the probability that both draws are "
           "{green}?"),
        N_("You cannot see {N} cards, {G} of them {green} (the discard pile, {pile}, is out of the "
           "game). The first draw is {green} with probability {G}/{N}. Then that card is in your hand, and "
           "{greens_left}. So the probability is {G}/{N} × {G1}/{N1} "
           "= {answer}."),
        _scholars, _scholars_facts, _scholars_trial,
        mistakes=(Mistake("with-replacement", M.WITH_REPLACEMENT, _scholars_replaced),
                  Mistake("discards-unseen", M.DISCARDS_UNSEEN, _scholars_discards)),
        assumptions=(DECK, NOBODY_DRAWS), default_seed=0,
        vary=played_position(lambda s: s.deck_size() >= 2,
                             reshuffle(discards=False, modifiers=False, hand_greens=2, discard_more=8)),
        valid=lambda v: sum(c.colour == "G" for c in v.hand) >= 2 and _scholars(v) > 0,
    ),
    Exercise(
        "draws-until-green", N_("Sequential draws"), N_("Draws until a green"), "first-deal", 0,
        N_("Before the deal, the deck holds the {N} cards you cannot see, {G} of them {green}. If its "
           "cards were turned one by one from the top, how many would you expect to turn, up to and "
           "including the first {green} card?"),
        N_("{gaps}, each as long as the others on "
           "average: ({N} - {G}) / ({G} + 1) cards. The first {green} card comes right after the first "
           "gap, so the expected number of cards turned is 1 + ({N} - {G}) / ({G} + 1) = ({N} + 1) / "
           "({G} + 1) = {answer}."),
        _until, _until_facts, _until_trial, probability=False,
        mistakes=(Mistake("with-replacement", M.WITH_REPLACEMENT,
                          lambda v: Fraction(len(unseen(v)), sum(c.colour == "G" for c in unseen(v)))),
                  Mistake("probability-for-expected", M.PROBABILITY_FOR_EXPECTED,
                          lambda v: Fraction(sum(c.colour == "G" for c in unseen(v)), len(unseen(v))))),
        assumptions=(DECK, SHUFFLED), vary=deal_position,
    ),
    Exercise(
        "cleric-capital", N_("The Cleric"), N_("The Cleric moves a card"), "modifiers-round-2", 0,
        N_("You hold {card} and {scholar}. You play {card} into the {Capital}, and your {Cleric} takes the lowest "
           "{yellow} card of the {Capital}, a {low}, into your {Hometown} (ruling R2). On your last turn you play "
           "{scholar} into the {Capital}: your {Scholar} draws the top card of the deck, and at the round end that "
           "card goes into your {Hometown}. What is the probability that your {yellow} cards then exceed the "
           "{yellow} limit?"),
        N_("The card moves from one side to the other: your {yellow} total goes from {home} to {after}, "
           "and the {Capital}'s {yellow} cards and known modifiers go from {cards} to {left}. The face-down "
           "modifiers above the {Merchant} add one of: {sums}. The {Scholar} draws one of the {N} cards you cannot "
           "see, each equally likely (the discard pile is out of the game). If it is not {yellow} ({others} of the "
           "{N}), your total stays {after} and exceeds with probability {risk0}. For the {yellow} ones (how many × "
           "value → probability): {cases}. Weighing each case by its number of cards: {answer}."),
        lambda v: _cleric(v), _cleric_facts, _cleric_trial,
        mistakes=(Mistake("cleric-half", M.CLERIC_HALF, lambda v: _cleric(v, drop=0)),
                  Mistake("discards-unseen", M.DISCARDS_UNSEEN,
                          lambda v: _cleric(v, discards_unseen=True) if v.discards else None)),
        assumptions=(DECK, SHUFFLED, MODIFIER_SET, EQUAL_IS_SAFE, PLACED_BLIND, OWN_PLAYS_ONLY), valid=_cleric_valid,
        vary=_cleric_and_scholar(reshuffle(discards=False, capital=("Y",), hometown=("Y",), hand_over_own=True,
                                           discard_more=10, capital_more=("Y",))),
    ),
)
