"""Exercises at the round end: exceeding, gold, bonus cards and the short deck."""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb
from typing import Callable

from . import mistakes as M
from .core import (
    Exercise, Fact, Mistake, Variation, as_int, discard_pile, discarded, limits, mean, mods, ngettext, own_modifiers,
    reshuffle, share, swap, table_choice, unseen, unseen_slots,
)
from .draws import DECK, EQUAL_IS_SAFE, MODIFIER_SET, SHUFFLED
from ...analysis.risk import unseen_modifiers
from ...engine.cards import N_, Card
from ...engine.position import PositionDict
from ...engine.game import sample_chance
from ...engine.notation import Action, Play, SaveWithGold
from ...engine.rules import excess, gold_choice_worth, gold_options, over_limit
from ...engine.state import GOLD, GameState, hand_size
from ...engine.views import PlayerView, view

LAST_TURN = N_("This is the very last turn of the round: the round ends right after it, and every card "
               "still in a hand goes into its owner's {Hometown}.")
GOLD_PAYS_ALL = N_("To keep a colour that exceeds its limit, you pay the whole difference in gold discs, or "
                   "nothing and discard the colour (ruling R6).")
TIES_IN_TURN_ORDER = N_("Tied players take bonus cards in turn order, starting with the round's starting player "
                        "(rulings R3 and R5).")
GoldChoice = Callable[[GameState, int], Action]


def _save_none(s: GameState, p: int) -> Action:
    return SaveWithGold(())


def _save_yellow(s: GameState, p: int) -> Action:
    options = gold_options(s, p)
    return next((o for o in options if getattr(o, "colours") == ("Y",)), options[0])


def best_for_points(s: GameState, p: int) -> Action:
    """The gold decision that keeps the most points (cards kept minus gold spent)."""

    def kept(option: Action) -> int:
        colours = getattr(option, "colours")
        return sum(s.hometown_total(p, c) - excess(s, p, c) for c in colours)

    return max(gold_options(s, p), key=kept)


def to_round_end(s: GameState, move: Action, viewer: int, choose: GoldChoice, rng: random.Random) -> GameState:
    """Play ``move``, then run the round to its end: chance by ``rng``, the viewer's gold
    decision by ``choose``, every other decision at random."""
    start = s.round
    s.apply_action(move)
    while not s.is_terminal() and s.round == start:
        if s.is_chance_node():
            s.apply_action(sample_chance(s, rng))
        elif s.phase == GOLD and s.current == viewer:
            s.apply_action(choose(s, viewer))
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    return s


def _lost(s: GameState, viewer: int, colour: str, kinds: tuple[str, ...]) -> bool:
    return any(e.kind in kinds and e.player == viewer and colour in e.colours for e in s.log)


def _home_total(v: PlayerView) -> int:
    card = v.hand[0]
    return v.hometown_total(v.viewer, card.colour) + card.value


# -- exceeding after a Scholar's draw: the card drawn goes home at the round end ----------------
Exceeds = Callable[[int, int], bool]  # (your total, the limit) -> whether it counts


def _drawn(card: Card) -> int:
    """What a drawn card adds to the yellow total once it goes home."""
    return card.value if card.colour == "Y" else 0


def _draw_risk(v: PlayerView, exceeds: Exceeds, outcomes: list[int] | None = None,
               discards_unseen: bool = False) -> Fraction:
    """The chance that yellow exceeds (``exceeds``) once the card the Scholar draws goes home: every
    card the viewer cannot see equally likely, every limit in ``outcomes`` (the true ones) too."""
    home = v.hometown_total(v.viewer, "Y")
    cards = unseen(v) + (list(v.discards) if discards_unseen else [])
    limits_ = limits(v, "Y") if outcomes is None else outcomes
    return mean([share([exceeds(home + _drawn(card), limit) for limit in limits_]) for card in cards])


def _over(total: int, limit: int) -> bool:
    return total > limit


def _over_or_equal(total: int, limit: int) -> bool:
    return total >= limit


def _own_counted(v: PlayerView) -> list[int]:
    """The limits a learner reckons who counts their own modifier among the unseen ones."""
    base = sum(v.capital["Y"]) + v.known_modifiers("Y")
    held = set(own_modifiers(v)) - {m.value for m in v.modifiers_above["Y"] if m.value is not None}
    return [base + m for m in list(unseen_modifiers(v)) + sorted(held)]


def _beyond_gold(v: PlayerView) -> Exceeds:
    return lambda total, limit: total - limit > v.gold[v.viewer]


def _draw_facts(v: PlayerView, exceeds: Exceeds) -> dict[str, Fact]:
    home, cards = v.hometown_total(v.viewer, "Y"), unseen(v)
    values = sorted({c.value for c in cards if c.colour == "Y"})

    def risk(total: int) -> Fraction:
        return share([exceeds(total, limit) for limit in limits(v, "Y")])

    return {
        "round": v.round, "card": v.hand[0], "home": home, "N": len(cards), "gold": v.gold[v.viewer],
        "discs": ngettext("{count} gold disc", "{count} gold discs", v.gold[v.viewer]),
        "cards": sum(v.capital["Y"]) + v.known_modifiers("Y"), "pool": mods(list(unseen_modifiers(v))),
        "others": sum(c.colour != "Y" for c in cards), "risk0": risk(home),
        "cases": ", ".join(f"{sum(c.colour == 'Y' and c.value == x for c in cards)} × {x} → {risk(home + x)}"
                           for x in values),
    }


def _draw_valid(v: PlayerView) -> bool:
    return len(v.hand) == 1 and v.hand[0].colour == "G" and v.deck_size > 0


def _draw_trial(choose: GoldChoice, kinds: tuple[str, ...]) -> Callable[[GameState, random.Random], Fraction]:
    def trial(s: GameState, rng: random.Random) -> Fraction:
        to_round_end(s, Play(s.hands[0][0], "capital"), 0, choose, rng)
        return Fraction(_lost(s, 0, "Y", kinds))

    return trial


def _scholar_in_hand(then: Variation) -> Variation:
    """A variation: ``then``, and the viewer's one card traded for a green card they cannot see."""

    def vary(data: PositionDict, rng: random.Random, viewer: int) -> PositionDict:
        data = then(data, rng, viewer)
        greens = [slot for slot in unseen_slots(data, viewer) if slot[0][slot[1]][0] == "G"]
        swap((data["hands"][viewer], 0), rng.choice(greens))
        data["deck"].sort()
        return data

    return vary


_DRAW_VARY = reshuffle(capital=("Y",), hometown=("Y",), discard_more=10)


def _after_round_end(total: int, limit: int, gold: int) -> int:
    """Points of one colour plus gold after the limit check, paying gold only when it pays."""
    over = over_limit(total, total, limit)  # a colour with no cards totals 0
    if not over:
        return total + gold
    worth, _ = gold_choice_worth([total], [over], [0])
    return total + gold - over if over <= gold and worth > 0 else gold


def _gold_values(v: PlayerView, disc: bool = True) -> tuple[list[int], Fraction, int]:
    """Points (the card's colour in the hometown plus gold) after the round end, for each
    equally likely limit when the card goes home; and on average when it goes into the
    capital (the Merchant's gold disc, if the pile has one, and a higher limit)."""
    card, gold, home = v.hand[0], v.gold[v.viewer], _home_total(v)
    kept = v.hometown_total(v.viewer, card.colour)
    bonus_gold = gold + (1 if v.gold_pile and disc else 0)
    outcomes = limits(v, card.colour)
    values = [_after_round_end(home, limit, gold) for limit in outcomes]
    capital = [_after_round_end(kept, limit + card.value, bonus_gold) for limit in outcomes]
    return values, mean(capital), min(outcomes) + card.value


def _gold_gain(v: PlayerView) -> Fraction:
    values, cap_value, _ = _gold_values(v)
    return mean(values) - cap_value


def _gold_gain_no_disc(v: PlayerView) -> Fraction | None:
    values, cap_value, _ = _gold_values(v, disc=False)
    return mean(values) - cap_value if v.gold_pile else None


def _gold_valid(v: PlayerView) -> bool:
    _, _, lowest = _gold_values(v)
    return lowest >= v.hometown_total(v.viewer, v.hand[0].colour) and _gold_gain(v) != 0


def _gold_facts(v: PlayerView) -> dict[str, Fact]:
    values, cap_value, lowest = _gold_values(v)
    pool = list(unseen_modifiers(v))
    return {
        "card": v.hand[0], "lowest": lowest, "kept": v.hometown_total(v.viewer, "Y"), "cap_value": cap_value,
        "cases": ", ".join(f"{m:+d} → {x}" for m, x in zip(pool, values)), "home_value": mean(values),
    }


def _points(s: GameState, viewer: int) -> int:
    return s.hometown_total(viewer, "Y") + s.gold[viewer]


def _gold_trial(s: GameState, rng: random.Random) -> Fraction:
    card = s.hands[0][0]
    home = to_round_end(s.clone(), Play(card, "home"), 0, best_for_points, rng)
    capital = to_round_end(s, Play(card, "capital"), 0, best_for_points, rng)
    return Fraction(_points(home, 0) - _points(capital, 0))


def _holder(v: PlayerView) -> int:
    return next(p for p in range(v.players) if p != v.viewer and v.hand_sizes[p])


def _bonus_facts(v: PlayerView, turn_order: bool = True) -> dict[str, Fact]:
    holder, card = _holder(v), v.hand[0]
    mine = v.hometown_total(v.viewer, card.colour)
    theirs = v.hometown_total(holder, card.colour)
    order = [(v.starting_player + i) % v.players for i in range(v.players)]
    holder_first = order.index(holder) < order.index(v.viewer)
    need = mine - theirs + (0 if holder_first == turn_order else 1)
    cards = unseen(v)
    bad = sum(c.colour == card.colour and c.value >= need for c in cards)
    return {
        "card": card, "seat": holder, "starter": v.starting_player, "mine": mine, "theirs": theirs,
        "need": need, "N": len(cards), "bad": bad,
        "discarded": sum(c.colour == card.colour and c.value >= need for c in v.discards),
        "bad_cards": ngettext("{count} of the {N} cards you cannot see is such a card",
                              "{count} of the {N} cards you cannot see are such cards", bad),
    }


def _bonus(v: PlayerView) -> Fraction:
    f = _bonus_facts(v)
    return 1 - Fraction(as_int(f["bad"]), as_int(f["N"]))


def _bonus_tie_order(v: PlayerView) -> Fraction:
    f = _bonus_facts(v, turn_order=False)
    return 1 - Fraction(as_int(f["bad"]), as_int(f["N"]))


def _bonus_with_discards(v: PlayerView) -> Fraction | None:
    f = _bonus_facts(v)
    if not v.discards:
        return None
    return 1 - Fraction(as_int(f["bad"]) + as_int(f["discarded"]), as_int(f["N"]) + len(v.discards))


def _bonus_trial(s: GameState, rng: random.Random) -> Fraction:
    to_round_end(s, Play(s.hands[0][0], "capital"), 0, best_for_points, rng)
    first = next(e for e in s.log if e.kind == "bonus" and e.colours == ("Y",))
    return Fraction(first.player == 0)


def _bonus_valid(v: PlayerView) -> bool:
    """The capital's yellow limit stays high enough that nobody's yellow is discarded."""
    f = _bonus_facts(v)
    highest = as_int(f["theirs"]) + 6
    return min(limits(v, "Y")) + v.hand[0].value >= max(highest, as_int(f["mine"]))


# -- the deck in round 3 ---------------------------------------------------------------------
#: The chances the short-deck question states that the last player puts the card they pick into the
#: Capital. Each table states one (``scholar_model``): with the count of green cards unseen, a class
#: does not share the few answers one rule of play gives (never 1/2: the old "at random" rule).
CAPITAL_CHANCES: tuple[Fraction, ...] = tuple(Fraction(q) for q in (
    "1/10", "1/5", "1/4", "3/10", "1/3", "2/5", "3/5", "2/3", "7/10", "3/4", "4/5", "9/10"))
LAST_PLAYER_MODEL = N_("The last player's rule of play: they pick one of their two cards at random, and put it "
                       "into the {Capital} with probability {q}, into their {Hometown} otherwise.")


def capital_chance(v: PlayerView) -> Fraction:
    """The chance this table states that the last player plays into the Capital."""
    return table_choice(v, CAPITAL_CHANCES)


def _short_facts(v: PlayerView) -> dict[str, Fact]:
    last = (v.last_turns or (0,))[0]
    cards = unseen(v)
    per = hand_size(v.players)
    return {
        "card": v.hand[0], "seat": last, "players": v.players, "per": per, "need": per * v.players,
        "deck_size": v.deck_size, "G": sum(c.colour == "G" for c in cards), "N": len(cards),
        "short": (v.deck_size - 1) // v.players, "discards": len(v.discards), "pile": discard_pile(v),
        "q": capital_chance(v),
    }


def _short(v: PlayerView) -> Fraction:
    f = _short_facts(v)
    if v.deck_size - 1 >= as_int(f["need"]):
        return Fraction(0)
    return Fraction(as_int(f["G"]), as_int(f["N"])) * capital_chance(v)


def _short_choice_ignored(v: PlayerView) -> Fraction:
    f = _short_facts(v)
    n, g = as_int(f["N"]), as_int(f["G"])
    return 1 - Fraction(comb(n - g, 2), comb(n, 2))


def _short_with_discards(v: PlayerView) -> Fraction | None:
    f = _short_facts(v)
    if not v.discards:
        return None
    return Fraction(as_int(f["G"]) + discarded(v, "G"), as_int(f["N"]) + len(v.discards)) * capital_chance(v)


def _short_trial(s: GameState, rng: random.Random) -> Fraction:
    viewer = s.current
    q = capital_chance(view(s, viewer))
    s.apply_action(Play(view(s, viewer).hand[0], "home"))
    card = rng.choice(s.hands[s.current])
    to_round_end(s, Play(card, "capital" if rng.random() < q else "home"), viewer,
                 lambda s, p: rng.choice(s.legal_actions()), rng)
    return Fraction(s.deal_size < hand_size(s.players))


ROUND_END: tuple[Exercise, ...] = (
    Exercise(
        "exceed-without-gold", N_("The risk of exceeding"), N_("Will yellow exceed?"), "last-turn", 0,
        N_("This is the last turn of round {round}: the round ends right after it. You play {card} into the "
           "{Capital}: your {Scholar} draws the top card of the deck, and at the round end that card goes into "
           "your {Hometown}, where your {yellow} cards add up to {home} now. What is the probability that your "
           "{yellow} cards exceed the {yellow} limit at the round end?"),
        N_("The {Scholar} draws one of the {N} cards you cannot see, each equally likely (the discard pile is "
           "out of the game). The {yellow} limit is {cards} (the {Capital}'s {yellow} cards and known modifiers) "
           "plus the face-down modifiers above the {Merchant}, each one of {pool}; a total equal to the limit is safe (ruling R7). If the card "
           "drawn is not {yellow} ({others} of the {N}), your total stays {home} and exceeds with probability "
           "{risk0}. For the {yellow} ones (how many × value → probability): {cases}. Weighing each case by its "
           "number of cards: {answer}."),
        lambda v: _draw_risk(v, _over), lambda v: _draw_facts(v, _over),
        _draw_trial(_save_none, ("discard", "gold_spent")),
        mistakes=(Mistake("equal-exceeds", M.EQUAL_EXCEEDS, lambda v: _draw_risk(v, _over_or_equal)),
                  Mistake("known-unseen", M.KNOWN_UNSEEN, lambda v: _draw_risk(v, _over, _own_counted(v))),
                  Mistake("discards-unseen", M.DISCARDS_UNSEEN,
                          lambda v: _draw_risk(v, _over, discards_unseen=True) if v.discards else None)),
        assumptions=(DECK, SHUFFLED, MODIFIER_SET, EQUAL_IS_SAFE, LAST_TURN), valid=_draw_valid,
        vary=_scholar_in_hand(_DRAW_VARY),
    ),
    Exercise(
        "exceed-with-gold", N_("The risk of exceeding"), N_("Can gold save yellow?"), "last-turn", 0,
        N_("This is the last turn of round {round}. You have {discs}, and each one raises a limit by 1. You "
           "play {card} into the {Capital}: your {Scholar} draws the top card of the deck, and at the round end "
           "that card goes into your {Hometown}, where your {yellow} cards add up to {home} now. What is the "
           "probability that you must discard your {yellow} cards even if you spend gold?"),
        N_("To keep a colour you pay the whole difference, or nothing (ruling R6): you lose your {yellow} cards "
           "only when their total is more than {gold} above the limit: {cards} (the {Capital}'s {yellow} cards "
           "and known modifiers) plus the face-down modifiers above the {Merchant}, each one of {pool}. The {Scholar} draws one of the {N} "
           "cards you cannot see, each equally likely (the discard pile is out of the game). If it is not "
           "{yellow} ({others} of the {N}), your total stays {home}: probability {risk0}. For the {yellow} ones "
           "(how many × value → probability): {cases}. Weighing each case by its number of cards: {answer}."),
        lambda v: _draw_risk(v, _beyond_gold(v)), lambda v: _draw_facts(v, _beyond_gold(v)),
        _draw_trial(_save_yellow, ("discard",)),
        mistakes=(Mistake("gold-ignored", M.GOLD_IGNORED, lambda v: _draw_risk(v, _over)),
                  Mistake("discards-unseen", M.DISCARDS_UNSEEN,
                          lambda v: _draw_risk(v, _beyond_gold(v), discards_unseen=True) if v.discards else None)),
        assumptions=(DECK, SHUFFLED, MODIFIER_SET, GOLD_PAYS_ALL, LAST_TURN), valid=_draw_valid,
        vary=_scholar_in_hand(reshuffle(capital=("Y",), hometown=("Y",), discard_more=10, gold=True)),
    ),
    Exercise(
        "gold-or-hometown", N_("Expected value"), N_("Gold or Hometown?"), "last-turn", 0,
        N_("Compare two plays of {card}: into your {Hometown}, or into the {Capital}, where the {Merchant} "
           "gives you a gold disc (1 point) and raises the {yellow} limit. Add up the points you score "
           "after the round end: the values of your {yellow} cards in your {Hometown}, plus 1 point for each "
           "gold disc you keep, spending gold only when it pays. What is "
           "the expected gain of the {Hometown} play over the {Capital} play? (Negative means the "
           "{Capital} is better.)"),
        N_("{Capital}: the limit is then at least {lowest}, so your {kept} in {yellow} is safe, and with "
           "the extra disc you have {cap_value} points whatever the modifier. {Hometown}: for each "
           "modifier the points are {cases}, {home_value} on average. The gain is {home_value} - "
           "{cap_value} = {answer}."),
        _gold_gain, _gold_facts, _gold_trial, probability=False,
        mistakes=(Mistake("sign", M.SIGN, lambda v: -_gold_gain(v)),
                  Mistake("disc-forgotten", M.DISC_FORGOTTEN, _gold_gain_no_disc)),
        assumptions=(MODIFIER_SET, GOLD_PAYS_ALL, LAST_TURN), valid=_gold_valid,
        vary=reshuffle(capital=("Y",), hometown=("Y",), hand=("Y",), gold=True),
    ),
    Exercise(
        "bonus-tie", N_("Ties for bonus cards"), N_("Who takes the first yellow bonus card?"), "last-turn", 0,
        N_("Suppose you play {card} into the {Capital}; your {yellow} total stays {mine}. Player {seat} "
           "still holds one card you cannot see, which goes into their {Hometown} at the round end; their "
           "{yellow} total is {theirs}. Player {starter} started this round. What is the probability that "
           "you are the first player to take a {yellow} bonus card? (The first bonus card taken is a "
           "highest {yellow} card of the {Capital}, whichever copy it is.)"),
        N_("Tied players take bonus cards in turn order, from the round's starting player (rulings R3 "
           "and R5). You take the first card only if player {seat}'s card is not a {yellow} card of {need} "
           "or more. {bad_cards}, and player {seat}'s card is "
           "equally likely any of them: 1 - {bad}/{N} = {answer}."),
        _bonus, _bonus_facts, _bonus_trial,
        mistakes=(Mistake("tie-order", M.TIE_ORDER, _bonus_tie_order),
                  Mistake("discards-unseen", M.DISCARDS_UNSEEN, _bonus_with_discards)),
        assumptions=(DECK, TIES_IN_TURN_ORDER, LAST_TURN), vary=reshuffle(modifiers=False, discard_more=12), valid=_bonus_valid,
    ),
    Exercise(
        "deck-short", N_("A short deck in round 3"), N_("Will round 3 be short?"), "short-deck", 0,
        N_("Round 3 needs {need} cards ({per} for each of the {players} players) and the deck holds "
           "{deck_size}. You play {card} into your {Hometown}; then player {seat}, who holds two cards you "
           "cannot see, takes the last turn of round 2, following the rule of play below. What is the "
           "probability that round 3 starts with a short deal?"),
        N_("Only a {Scholar} played into the {Capital} takes a card from the deck, and one draw leaves "
           "{need} - 1: each player then gets {short} cards (ruling R15). The card player {seat} picks is "
           "either of their two cards, each {green} with probability {G}/{N} (the discard pile, {pile}, is out "
           "of the game), and it goes into the {Capital} with probability {q}. So the answer is "
           "{G}/{N} × {q} = {answer}."),
        _short, _short_facts, _short_trial,
        mistakes=(Mistake("choice-ignored", M.CHOICE_IGNORED, _short_choice_ignored),
                  Mistake("discards-unseen", M.DISCARDS_UNSEEN, _short_with_discards)),
        assumptions=(DECK, LAST_PLAYER_MODEL), vary=reshuffle(modifiers=False, redeal=True),
    ),
)
