"""Classroom probability exercises drawn from real positions: predict, check, see it converge.

Each ``Exercise`` is data: a question and a worked solution (English msgids with
named placeholders), a gallery position and the seat whose view it is asked from,
an exact ``answer`` computed from that player's view by counting (a ``Fraction``),
and a ``trial``: one simulated outcome on a state drawn with ``views.determinize``,
so the simulation never peeks at hidden cards either.

Answers are checked by ``check_answer``: a fraction (``3/8``) must equal the exact
value; a decimal (``0.375``, or ``0,375``) or a percentage (``37.5%``) may be off by
at most ``TOLERANCE`` = 0.005 (half a percentage point), so two correct decimals
are enough. Anything else is ``invalid``: explained, and not counted.

>>> ex = EXERCISES_BY_ID["modifier-after-draw"]
>>> ex.exact()
Fraction(1, 3)
>>> check_answer("1/3", ex.exact()).status, check_answer("33%", ex.exact()).status
('correct', 'correct')
>>> check_answer("one third", ex.exact()).status
'invalid'
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations
from pathlib import Path
from typing import Callable

from . import gallery
from ..engine.cards import ALL_CARDS, COLOUR_NAMES, COLOURS, ROLES, N_, CapitalLuxError, Card, format_modifier
from ..engine.game import sample_chance
from ..engine.html import card_html
from ..i18n import Translator, translator
from ..engine.notation import Action, Play, SaveWithGold
from ..analysis.risk import Estimate, hypergeometric, unseen_modifiers
from ..engine.rules import excess, gold_options, over_limit
from ..engine.state import GOLD, GameState, hand_size
from ..engine.views import PlayerView, determinize, view

Fact = int | Fraction | str | Card


#: Decimals and percentages are accepted within this distance of the exact value.
TOLERANCE = Fraction(1, 200)


@dataclass(frozen=True)
class Exercise:
    id: str
    topic: str
    title: str
    position: str  # a gallery name
    viewer: int
    question: str
    solution: str
    answer: Callable[[PlayerView], Fraction]
    facts: Callable[[PlayerView], dict[str, Fact]]
    trial: Callable[[GameState, random.Random], Fraction]
    probability: bool = True

    def state(self) -> GameState:
        return gallery.load(self.position)

    def view(self) -> PlayerView:
        return view(self.state(), self.viewer)

    def exact(self) -> Fraction:
        return self.answer(self.view())


# -- counting from a player's view ---------------------------------------------------------
def unseen(v: PlayerView) -> list[Card]:
    """The cards the viewer cannot see, one entry per copy."""
    return [ALL_CARDS[k] for k, n in enumerate(v.unseen_cards()) for _ in range(n)]


def hidden_sums(v: PlayerView, colour: str) -> list[int]:
    """Equally likely totals of the face-down modifiers above ``colour`` (ordered draws)."""
    k = sum(m.value is None for m in v.modifiers_above[colour])
    return [sum(p) for p in permutations(list(unseen_modifiers(v)), k)]


def limits(v: PlayerView, colour: str) -> list[int]:
    """Equally likely capital totals of ``colour`` once the modifiers are revealed."""
    base = sum(v.capital[colour]) + v.known_modifiers(colour)
    return [base + s for s in hidden_sums(v, colour)]


def share(outcomes: list[bool]) -> Fraction:
    return Fraction(sum(outcomes), len(outcomes))


def _int(fact: Fact) -> int:
    assert isinstance(fact, int)
    return fact


def _mods(values: list[int]) -> str:
    return ", ".join(format_modifier(m) for m in values)


def _pending_move(v: PlayerView) -> Play:
    """The card the exercise plays: the viewer's only card (or first card) in hand."""
    return Play(v.hand[0], "home")


# -- deck composition and the draft --------------------------------------------------------
def _deal_facts(v: PlayerView, colour: str | None = None, value: int | None = None) -> dict[str, Fact]:
    cards = unseen(v)
    k = sum((colour is None or c.colour == colour) and (value is None or c.value == value) for c in cards)
    return {"N": len(cards), "K": k, "n": v.deal_size, "rest": len(cards) - k}


def _any_six(v: PlayerView) -> Fraction:
    f = _deal_facts(v, value=6)
    return 1 - hypergeometric(_int(f["N"]), _int(f["K"]), _int(f["n"]), 0)


def _two_yellow(v: PlayerView) -> Fraction:
    f = _deal_facts(v, colour="Y")
    return hypergeometric(_int(f["N"]), _int(f["K"]), _int(f["n"]), 2)


def _expected_sixes(v: PlayerView) -> Fraction:
    f = _deal_facts(v, value=6)
    return Fraction(_int(f["n"]) * _int(f["K"]), _int(f["N"]))


def _dealt(s: GameState, rng: random.Random, viewer: int) -> tuple[Card, ...]:
    while s.is_chance_node():
        s.apply_action(sample_chance(s, rng))
    return tuple(s.draft_hands[viewer])


def _scholar_facts(v: PlayerView) -> dict[str, Fact]:
    cards = unseen(v)
    scholar = next(c for c in v.hand if c.colour == "G")
    return {"card": scholar, "G": sum(c.colour == "G" for c in cards), "N": len(cards)}


def _scholar_trial(s: GameState, rng: random.Random) -> Fraction:
    s.apply_action(Play(next(c for c in s.hands[s.current] if c.colour == "G"), "capital"))
    drawn = sample_chance(s, rng)
    return Fraction(getattr(drawn, "card").colour == "G")


# -- face-down modifiers -------------------------------------------------------------------
def _own_modifier(v: PlayerView) -> str:
    own = [m.value for c in COLOURS for m in v.modifiers_above[c] if m.owner == v.viewer and m.value is not None]
    return _mods(own)


def _positive_facts(v: PlayerView) -> dict[str, Fact]:
    pool = list(unseen_modifiers(v))
    pairs = [(a, b) for i, a in enumerate(pool) for b in pool[i + 1:]]
    return {
        "own": _own_modifier(v),
        "pool": _mods(pool),
        "pairs": ", ".join(f"{a:+d} {b:+d} = {a + b:+d}" for a, b in pairs),
        "good": sum(a + b > 0 for a, b in pairs),
        "total": len(pairs),
    }


def _limit_facts(v: PlayerView) -> dict[str, Fact]:
    pool = list(unseen_modifiers(v))
    k = sum(m.value is None for m in v.modifiers_above["Y"])
    mean = Fraction(sum(pool), len(pool))
    return {"cards": sum(v.capital["Y"]), "pool": _mods(pool), "mean": mean, "k": k, "mods": k * mean}


def _after_draw_facts(v: PlayerView) -> dict[str, Fact]:
    pool = list(unseen_modifiers(v))
    before = pool + [v.pending_modifier or 0]
    owner = next(m.owner for m in v.modifiers_above["Y"] if m.value is None)
    return {
        "pending": format_modifier(v.pending_modifier or 0),
        "seat": owner,
        "before": share([m < 0 for m in before]),
        "pool": _mods(pool),
        "negative": _mods([m for m in pool if m < 0]),
    }


def _hidden_above(s: GameState, colour: str, viewer: int) -> list[int]:
    return [value for owner, value in s.modifiers_above[colour] if owner != viewer]


# -- exceeding, gold and bonus cards at the round end ----------------------------------------
GoldChoice = Callable[[GameState, int], Action]


def _save_none(s: GameState, p: int) -> Action:
    return SaveWithGold(())


def _save_yellow(s: GameState, p: int) -> Action:
    options = gold_options(s, p)
    return next((o for o in options if o.colours == ("Y",)), options[0])  # type: ignore[union-attr]


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


def _exceed(v: PlayerView) -> Fraction:
    return share([_home_total(v) > limit for limit in limits(v, v.hand[0].colour)])


def _exceed_with_gold(v: PlayerView) -> Fraction:
    return share([_home_total(v) - limit > v.gold[v.viewer] for limit in limits(v, v.hand[0].colour)])


def _exceed_facts(v: PlayerView) -> dict[str, Fact]:
    card, home = v.hand[0], _home_total(v)
    pool = list(unseen_modifiers(v))
    base = sum(v.capital[card.colour]) + v.known_modifiers(card.colour)
    return {
        "round": v.round,
        "card": card,
        "home": home,
        "cards": base,
        "pool": _mods(pool),
        "own": _own_modifier(v),
        "bad": _mods([m for m in pool if home > base + m]) or "-",
        "gold": v.gold[v.viewer],
        "diffs": ", ".join(f"{m:+d} → {over_limit(1, home, base + m)}" for m in pool),
    }


def _after_round_end(total: int, limit: int, gold: int) -> int:
    """Points of one colour plus gold after the limit check, paying gold only when it pays."""
    over = over_limit(total, total, limit)  # a colour with no cards totals 0
    if not over:
        return total + gold
    return total + gold - over if over <= gold and total - over > 0 else gold


def _gold_values(v: PlayerView) -> tuple[list[int], Fraction, int]:
    """Points (the card's colour in the hometown plus gold) after the round end, for each
    equally likely limit when the card goes home; and on average when it goes into the
    capital (the Merchant's gold disc, if the pile has one, and a higher limit)."""
    card, gold, home = v.hand[0], v.gold[v.viewer], _home_total(v)
    kept = v.hometown_total(v.viewer, card.colour)
    bonus_gold = gold + (1 if v.gold_pile else 0)
    outcomes = limits(v, card.colour)
    values = [_after_round_end(home, limit, gold) for limit in outcomes]
    capital = [_after_round_end(kept, limit + card.value, bonus_gold) for limit in outcomes]
    return values, Fraction(sum(capital), len(capital)), min(outcomes) + card.value


def _gold_gain(v: PlayerView) -> Fraction:
    values, cap_value, _ = _gold_values(v)
    return Fraction(sum(values), len(values)) - cap_value


def _gold_facts(v: PlayerView) -> dict[str, Fact]:
    values, cap_value, lowest = _gold_values(v)
    pool = list(unseen_modifiers(v))
    return {
        "card": v.hand[0],
        "lowest": lowest,
        "kept": v.hometown_total(v.viewer, "Y"),
        "cap_value": cap_value,
        "cases": ", ".join(f"{m:+d} → {x}" for m, x in zip(pool, values)),
        "home_value": Fraction(sum(values), len(values)),
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


def _bonus_facts(v: PlayerView) -> dict[str, Fact]:
    holder, card = _holder(v), v.hand[0]
    mine = v.hometown_total(v.viewer, card.colour)
    theirs = v.hometown_total(holder, card.colour)
    order = [(v.starting_player + i) % v.players for i in range(v.players)]
    need = mine - theirs + (0 if order.index(holder) < order.index(v.viewer) else 1)
    cards = unseen(v)
    return {
        "card": card, "seat": holder, "starter": v.starting_player, "mine": mine, "theirs": theirs,
        "need": need, "N": len(cards), "bad": sum(c.colour == card.colour and c.value >= need for c in cards),
    }


def _bonus(v: PlayerView) -> Fraction:
    f = _bonus_facts(v)
    return 1 - Fraction(_int(f["bad"]), _int(f["N"]))


def _bonus_trial(s: GameState, rng: random.Random) -> Fraction:
    to_round_end(s, Play(s.hands[0][0], "capital"), 0, best_for_points, rng)
    first = next(e for e in s.log if e.kind == "bonus" and e.colours == ("Y",))
    return Fraction(first.player == 0)


# -- the deck in round 3 ---------------------------------------------------------------------
def _short_facts(v: PlayerView) -> dict[str, Fact]:
    last = (v.last_turns or (0,))[0]
    cards = unseen(v)
    per = hand_size(v.players)
    return {
        "card": v.hand[0], "seat": last, "players": v.players, "per": per, "need": per * v.players,
        "deck_size": v.deck_size, "G": sum(c.colour == "G" for c in cards), "N": len(cards),
        "short": (v.deck_size - 1) // v.players,
    }


def _short(v: PlayerView) -> Fraction:
    f = _short_facts(v)
    if v.deck_size - 1 >= _int(f["need"]):
        return Fraction(0)
    return Fraction(_int(f["G"]), 2 * _int(f["N"]))


def _short_trial(s: GameState, rng: random.Random) -> Fraction:
    viewer = s.current
    to_round_end(s, _pending_move(view(s, viewer)), viewer, lambda s, p: rng.choice(s.legal_actions()), rng)
    return Fraction(s.deal_size < hand_size(s.players))


def _modifier_trial(check: Callable[[GameState], bool]) -> Callable[[GameState, random.Random], Fraction]:
    return lambda s, rng: Fraction(check(s))


def _round_end_trial(choose: GoldChoice, kinds: tuple[str, ...]) -> Callable[[GameState, random.Random], Fraction]:
    def trial(s: GameState, rng: random.Random) -> Fraction:
        to_round_end(s, Play(s.hands[0][0], "home"), 0, choose, rng)
        return Fraction(_lost(s, 0, "Y", kinds))

    return trial


# -- the exercises ---------------------------------------------------------------------------
EXERCISES: tuple[Exercise, ...] = (
    Exercise(
        "deal-any-six", N_("Deck composition and the draft"), N_("A 6 in the deal"), "first-deal", 0,
        N_("The cards for the draft are about to be dealt: you will get {n} of the {N} cards you cannot "
           "see. What is the probability that at least one of them is a 6?"),
        N_("All {K} sixes are among the {N} cards you cannot see, and every set of {n} of them is equally "
           "likely to be yours. The sets without a 6 choose all {n} cards among the other {rest}: "
           "P(no 6) = C({rest}, {n}) / C({N}, {n}). So P(at least one 6) = 1 - C({rest}, {n}) / C({N}, {n}) "
           "= {answer}."),
        _any_six, lambda v: _deal_facts(v, value=6),
        lambda s, rng: Fraction(any(c.value == 6 for c in _dealt(s, rng, 0))),
    ),
    Exercise(
        "deal-two-merchants", N_("Deck composition and the draft"), N_("Two Merchants in the deal"),
        "first-deal", 0,
        N_("You will be dealt {n} of the {N} cards you cannot see, {K} of which are {Merchant} cards "
           "({yellow}). What is the probability that exactly two of your {n} cards are {yellow}?"),
        N_("This is the hypergeometric distribution: choose 2 of the {K} {yellow} cards and {n} - 2 of "
           "the other {rest}, out of all the ways to choose {n} of {N}: "
           "C({K}, 2) × C({rest}, {n} - 2) / C({N}, {n}) = {answer}."),
        _two_yellow, lambda v: _deal_facts(v, colour="Y"),
        lambda s, rng: Fraction(sum(c.colour == "Y" for c in _dealt(s, rng, 0)) == 2),
    ),
    Exercise(
        "deal-expected-sixes", N_("Deck composition and the draft"), N_("How many sixes, on average?"),
        "first-deal", 0,
        N_("You will be dealt {n} of the {N} cards you cannot see; {K} of them are sixes. How many sixes "
           "do you get on average (the expected number)?"),
        N_("Each of your {n} cards is a 6 with probability {K}/{N}. Expectations add up even though the "
           "cards are not independent, so the expected number of sixes is {n} × {K}/{N} = {answer}."),
        _expected_sixes, lambda v: _deal_facts(v, value=6),
        lambda s, rng: Fraction(sum(c.value == 6 for c in _dealt(s, rng, 0))),
        probability=False,
    ),
    Exercise(
        "scholar-green", N_("Deck composition and the draft"), N_("A Scholar draws a Scholar"),
        "modifiers-round-2", 0,
        N_("You play {card} into the {Capital}: the {Scholar} draws the top card of the deck. What is the "
           "probability that it is another {Scholar}, a {green} card?"),
        N_("You cannot see {N} cards: the deck and the other players' hands. Nothing you know tells "
           "them apart, so each of them is equally likely to be on top of the deck. {G} of them are "
           "{green}, so the probability is {answer}."),
        lambda v: Fraction(_int(_scholar_facts(v)["G"]), _int(_scholar_facts(v)["N"])), _scholar_facts,
        _scholar_trial,
    ),
    Exercise(
        "modifiers-positive", N_("Face-down modifiers"), N_("What can two modifiers add up to?"),
        "modifiers-round-2", 0,
        N_("Two modifier cards lie face down above the {Merchant}, placed by the other players. You "
           "placed the {own} yourself, above the {Agent}. What is the probability that the two face-down "
           "modifiers above the {Merchant} add up to more than 0?"),
        N_("The modifiers are +4, +2, -1 and -3, one of each. You know where your {own} is, so the two "
           "face-down ones are two different modifiers among {pool}, every pair equally likely: {pairs}. "
           "{good} of the {total} pairs add up to more than 0: {answer}."),
        lambda v: share([t > 0 for t in hidden_sums(v, "Y")]), _positive_facts,
        _modifier_trial(lambda s: sum(_hidden_above(s, "Y", 0)) > 0),
    ),
    Exercise(
        "modifiers-expected-limit", N_("Face-down modifiers"), N_("The expected limit"),
        "modifiers-round-2", 0,
        N_("What is the expected {yellow} limit: the {Capital}'s {yellow} cards plus the two face-down "
           "modifiers above the {Merchant}?"),
        N_("The {yellow} cards in the {Capital} add up to {cards}. Each face-down modifier is equally "
           "likely to be any of {pool}, whose average is {mean}. Expectations add up, so the {k} modifiers "
           "add {k} × {mean} = {mods} on average, and the expected limit is {cards} + {mods} = {answer}."),
        lambda v: Fraction(sum(limits(v, "Y")), len(limits(v, "Y"))), _limit_facts,
        lambda s, rng: Fraction(s.capital_total("Y")),
        probability=False,
    ),
    Exercise(
        "modifier-after-draw", N_("Conditional probability"), N_("After drawing a modifier"),
        "agent-drew", 0,
        N_("Your {Agent} has just drawn the {pending} modifier. Player {seat}'s modifier lies face down "
           "above the {Merchant}. Before you drew, the chance that it was negative was {before}. What is "
           "it now?"),
        N_("Knowing your own card changes the odds: the face-down modifier cannot be the {pending} you "
           "hold. It is one of {pool}, each equally likely, and only {negative} is negative: {answer}."),
        lambda v: share([t < 0 for t in hidden_sums(v, "Y")]), _after_draw_facts,
        _modifier_trial(lambda s: sum(_hidden_above(s, "Y", 0)) < 0),
    ),
    Exercise(
        "exceed-without-gold", N_("The risk of exceeding"), N_("Will yellow exceed?"), "last-turn", 0,
        N_("This is the last turn of round {round}: the round ends right after it. If you play {card} "
           "into your {Hometown}, your {yellow} cards add up to {home}. What is the probability that they "
           "exceed the {yellow} limit?"),
        N_("The {Capital}'s {yellow} cards add up to {cards}, and the face-down modifier above them is one "
           "of {pool} (yours, {own}, lies above the {Agent}). Your {yellow} cards exceed when {home} is more "
           "than {cards} plus the modifier, that is for {bad}: {answer}. Equal would be safe (ruling R7)."),
        _exceed, _exceed_facts, _round_end_trial(_save_none, ("discard", "gold_spent")),
    ),
    Exercise(
        "exceed-with-gold", N_("The risk of exceeding"), N_("Can gold save yellow?"), "last-turn", 0,
        N_("You have {gold} gold discs, and each one raises a limit by 1. If you play {card} into your "
           "{Hometown}, what is the probability that you must discard your {yellow} cards even if you "
           "spend gold?"),
        N_("To keep a colour you pay the whole difference, or nothing (ruling R6). For each modifier "
           "above the {Merchant} the difference is: {diffs}. You lose the {yellow} cards only when it is "
           "more than {gold}: {answer}."),
        _exceed_with_gold, _exceed_facts, _round_end_trial(_save_yellow, ("discard",)),
    ),
    Exercise(
        "gold-or-hometown", N_("Expected value"), N_("Gold or Hometown?"), "last-turn", 0,
        N_("Compare two plays of {card}: into your {Hometown}, or into the {Capital}, where the {Merchant} "
           "gives you a gold disc (1 point) and raises the {yellow} limit. Count your {yellow} cards in "
           "your {Hometown} plus your gold after the round end, spending gold only when it pays. What is "
           "the expected gain of the {Hometown} play over the {Capital} play? (Negative means the "
           "{Capital} is better.)"),
        N_("{Capital}: the limit is then at least {lowest}, so your {kept} in {yellow} is safe, and with "
           "the extra disc you have {cap_value} points whatever the modifier. {Hometown}: for each "
           "modifier the points are {cases}, {home_value} on average. The gain is {home_value} - "
           "{cap_value} = {answer}."),
        _gold_gain, _gold_facts, _gold_trial, probability=False,
    ),
    Exercise(
        "bonus-tie", N_("Ties for bonus cards"), N_("Who takes the highest yellow card?"), "last-turn", 0,
        N_("Suppose you play {card} into the {Capital}; your {yellow} total stays {mine}. Player {seat} "
           "still holds one card you cannot see, which goes into their {Hometown} at the round end; their "
           "{yellow} total is {theirs}. Player {starter} started this round. What is the probability that "
           "you take the highest {yellow} card of the {Capital} as a bonus card?"),
        N_("Tied players take bonus cards in turn order, from the round's starting player (rulings R3 "
           "and R5). You take the highest card only if player {seat}'s card is not a {yellow} card of {need} "
           "or more. {bad} of the {N} cards you cannot see are such cards, and player {seat}'s card is "
           "equally likely any of them: 1 - {bad}/{N} = {answer}."),
        _bonus, _bonus_facts, _bonus_trial,
    ),
    Exercise(
        "deck-short", N_("A short deck in round 3"), N_("Will round 3 be short?"), "short-deck", 0,
        N_("Round 3 needs {need} cards ({per} for each of the {players} players) and the deck holds "
           "{deck_size}. You play {card} into your {Hometown}; then player {seat}, who holds two cards you "
           "cannot see, takes the last turn of round 2, choosing at random among their legal moves. What "
           "is the probability that round 3 starts with a short deal?"),
        N_("Only a {Scholar} played into the {Capital} takes a card from the deck, and one draw leaves "
           "{need} - 1: each player then gets {short} cards (ruling R15). Whatever player {seat}'s two "
           "cards are, the chance of such a move is (their {green} cards)/4, and each of their cards is "
           "{green} with probability {G}/{N}. So the answer is 2 × {G}/{N} / 4 = {answer}."),
        _short, _short_facts, _short_trial,
    ),
)
EXERCISES_BY_ID: dict[str, Exercise] = {ex.id: ex for ex in EXERCISES}


# -- texts -----------------------------------------------------------------------------------
def format_number(value: Fraction) -> str:
    """``3/8``, ``-4/3`` or ``2``: the exact form shown to learners."""
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _fill(ex: Exercise, t: Translator, html: bool) -> dict[str, str]:
    values: dict[str, str] = {ROLES[c]: t.role(c) for c in COLOURS}
    values.update({COLOUR_NAMES[c]: t.colour(c) for c in COLOURS})
    values.update({"Hometown": t.term("Hometown"), "Capital": t.term("Capital")})
    for key, fact in ex.facts(ex.view()).items():
        if isinstance(fact, Card):
            values[key] = card_html(fact, role=t.role(fact.colour)) if html else str(fact)
        elif isinstance(fact, Fraction):
            values[key] = format_number(fact)
        else:
            values[key] = str(fact)
    exact = ex.exact()
    values["answer"] = format_number(exact)
    if exact.denominator != 1:
        values["answer"] += f" ≈ {float(exact):.4f}"
    return values


def question_text(ex: Exercise, t: Translator, html: bool = True) -> str:
    return t.gettext(ex.question).format(**_fill(ex, t, html))


def solution_text(ex: Exercise, t: Translator, html: bool = True) -> str:
    return t.gettext(ex.solution).format(**_fill(ex, t, html))


# -- checking answers --------------------------------------------------------------------------
_DECIMAL = re.compile(r"[+-]?(\d+([.,]\d*)?|[.,]\d+)")
_FRACTION = re.compile(r"([+-]?\d+)\s*/\s*(\d+)")


class AnswerError(ValueError):
    """An answer that is not a number in a form the checker reads."""


@dataclass(frozen=True)
class Checked:
    """The verdict on one answer: ``correct``, ``wrong`` or ``invalid`` (not counted)."""

    status: str
    message: str
    value: Fraction | None = None


def parse_answer(text: str) -> tuple[Fraction, str]:
    """The number written and its form: ``fraction``, ``decimal`` or ``percentage``.

    >>> parse_answer(" 6/16 "), parse_answer("0,375")[0], parse_answer("37.5 %")
    ((Fraction(3, 8), 'fraction'), Fraction(3, 8), (Fraction(3, 8), 'percentage'))
    """
    cleaned = text.strip().replace("−", "-").replace("\u00a0", " ")
    if len(cleaned) > 40:
        raise AnswerError(cleaned)
    if cleaned.endswith("%") and _DECIMAL.fullmatch(cleaned[:-1].strip()):
        return Fraction(cleaned[:-1].strip().replace(",", ".")) / 100, "percentage"
    if _DECIMAL.fullmatch(cleaned):
        return Fraction(cleaned.replace(",", ".")), "decimal"
    match = _FRACTION.fullmatch(cleaned)
    if match and int(match.group(2)) != 0:
        return Fraction(int(match.group(1)), int(match.group(2))), "fraction"
    raise AnswerError(cleaned)


def check_answer(text: str, exact: Fraction, lang: str = "en", probability: bool = True) -> Checked:
    """Compare an answer with the exact value: fractions must be equal; decimals and
    percentages may differ by at most ``TOLERANCE`` (0.005, half a percentage point)."""
    t = translator(lang)
    try:
        value, form = parse_answer(text)
    except AnswerError:
        return Checked("invalid", t.gettext(
            "Write a number: a fraction like 3/8, a decimal like 0.375 or a percentage like 37.5%."))
    if probability and not 0 <= value <= 1:
        return Checked("invalid", t.gettext("A probability is between 0 and 1 (0% and 100%)."), value)
    if value == exact or (form != "fraction" and abs(value - exact) <= TOLERANCE):
        return Checked("correct", t.gettext("Correct! The exact answer is {answer}.").format(
            answer=format_number(exact)), value)
    if form != "fraction":
        hint = t.gettext("Not yet: decimals count when they are within 0.005 of the exact answer, and "
                         "yours is {direction}.")
    else:
        hint = t.gettext("Not yet: your fraction is {direction} the exact answer.")
    direction = t.gettext("too high") if value > exact else t.gettext("too low")
    return Checked("wrong", hint.format(direction=direction), value)


# -- seeded simulation ------------------------------------------------------------------------
def simulate(ex: Exercise, samples: int, seed: int, points: int = 25) -> list[tuple[int, Estimate]]:
    """Estimates with 95% intervals after the first n of ``samples`` seeded trials, at
    about ``points`` sample sizes n (one run, so the chart shows it settling).

    Each trial draws a full state that the viewer cannot tell from the real one
    (``views.determinize``) and plays it on with the engine.
    """
    rng = random.Random(seed)
    v = ex.view()
    marks = sorted({max(1, round(samples ** (i / (points - 1)))) for i in range(points)} | {samples})
    values = [float(ex.trial(determinize(v, rng), rng)) for _ in range(samples)]
    if ex.probability:
        return [(n, Estimate.proportion(round(sum(values[:n])), n)) for n in marks]
    return [(n, Estimate.of_values(values[:n])) for n in marks]


# -- a learner's progress ----------------------------------------------------------------------
PROGRESS_FORMAT = "capital-lux-exercise-progress"


class ProgressError(CapitalLuxError):
    """A progress file that cannot be read; the message says why."""


@dataclass
class Progress:
    """Attempts per exercise and the answers that solved them (by exercise id)."""

    attempts: dict[str, int]
    solved: dict[str, str]

    @classmethod
    def empty(cls) -> Progress:
        return cls({}, {})

    def record(self, exercise_id: str, answer: str, checked: Checked) -> None:
        """Count a correct or wrong answer; an invalid one changes nothing."""
        if checked.status == "invalid":
            return
        self.attempts[exercise_id] = self.attempts.get(exercise_id, 0) + 1
        if checked.status == "correct":
            self.solved.setdefault(exercise_id, answer.strip())

    def to_json(self) -> str:
        exercises = {
            ex.id: {"attempts": self.attempts.get(ex.id, 0), "solved": self.solved.get(ex.id)}
            for ex in EXERCISES
            if ex.id in self.attempts
        }
        return json.dumps({"format": PROGRESS_FORMAT, "version": 1, "exercises": exercises}, indent=1)

    @classmethod
    def from_json(cls, text: str | bytes) -> Progress:
        """Read a progress file; refuse anything that is not one, naming the problem."""
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError, RecursionError) as error:
            raise ProgressError(N_("not a progress file: {problem}"), problem=error) from None
        if not isinstance(data, dict) or data.get("format") != PROGRESS_FORMAT or data.get("version") != 1:
            raise ProgressError(N_("not a progress file: expected format {format}, version 1"), format=repr(PROGRESS_FORMAT))
        entries = data.get("exercises")
        if not isinstance(entries, dict):
            raise ProgressError(N_("a progress file needs an object 'exercises'"))
        progress = cls.empty()
        for key, entry in entries.items():
            if key not in EXERCISES_BY_ID:
                raise ProgressError(N_("{key} is not an exercise; known: {known}"), key=repr(key),
                                    known=", ".join(EXERCISES_BY_ID))
            attempts = entry.get("attempts") if isinstance(entry, dict) else None
            solved = entry.get("solved") if isinstance(entry, dict) else None
            if not isinstance(attempts, int) or isinstance(attempts, bool) or attempts < 0:
                raise ProgressError(N_("exercise {key}: attempts must be a whole number"), key=repr(key))
            if solved is not None and not isinstance(solved, str):
                raise ProgressError(N_("exercise {key}: solved must be the answer given, or null"), key=repr(key))
            progress.attempts[key] = attempts
            if solved is not None:
                progress.solved[key] = solved
        return progress


def save_progress(progress: Progress, path: str | Path) -> None:
    Path(path).write_text(progress.to_json() + "\n", "utf-8")


def load_progress(path: str | Path) -> Progress:
    try:
        text = Path(path).read_bytes()
    except OSError as error:
        raise ProgressError(N_("cannot read {path}: {reason}"), path=path, reason=error.strerror) from None
    return Progress.from_json(text)
