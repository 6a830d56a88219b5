"""The compiled play-out rule (``players.quick_rule``) decides and draws as the rule as first
written (``OldQuickRule`` below, a frozen copy of the ``search.QuickRule`` it replaced), and
the search finds the same moves with it."""

from __future__ import annotations

import random
from operator import sub
from typing import Callable

import pytest

from capital_lux.engine import kernel
from capital_lux.players import policies
from capital_lux.engine.game import Game
from capital_lux.engine.kernel import COLOUR_OF, VALUE_OF
from capital_lux.engine.rules import gold_choice_worth
from capital_lux.engine.views import view
from capital_lux.players import search
from capital_lux.engine.kernel import First
from capital_lux.players.quick_rule import ROLLOUT_NOISE, QuickRule


class OldQuickRule:
    """``search.QuickRule`` before it was compiled, unchanged."""

    random_below: Callable[[int], int] | None = None
    random_bits: Callable[[int], int] | None = None

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.random = rng.random
        self.below = kernel.randbelow(rng)

    def decide(self, ks: kernel.KState) -> kernel.Decision:
        if self.random() < ROLLOUT_NOISE:
            choices = kernel.options(ks)
            return choices[self.below(len(choices))]
        p, phase = ks.current, ks.phase
        if phase == kernel.PLAY:
            hand, town, capital, mods = ks.hands[p], ks.home[p], ks.capital, ks.mods
            best, best_value = -1, 0
            for kind in hand:
                value = VALUE_OF[kind]
                if value > best_value:
                    c = COLOUR_OF[kind]
                    limit = sum(capital[c])
                    for _, modifier in mods[c]:
                        limit += modifier
                    if sum(town[c]) + value <= limit:
                        best, best_value = kind, value
            if best >= 0:
                return best, True
            return min(hand, key=VALUE_OF.__getitem__), False
        tops = kernel.limits(ks)
        home = list(map(sum, ks.home[p]))
        if phase == kernel.DRAFT:
            held = ks.draft_hands[p]
            room = list(map(sub, tops, home))
            if len(held) <= 2:
                return tuple(held)
            keys = [(VALUE_OF[k] <= room[COLOUR_OF[k]]) * 8 + VALUE_OF[k] for k in held]
            first = keys.index(max(keys))
            keys[first] = -1
            second = keys.index(max(keys))
            a, b = held[first], held[second]
            return (a, b) if a <= b else (b, a)
        if phase == kernel.AGENT:
            value = ks.pending or 0
            others = [list(map(sum, town)) for q, town in enumerate(ks.home) if q != p]
            highest = others[0] if len(others) == 1 else list(map(max, *others))
            stake = list(map(sub, home, highest))
            return stake.index(max(stake) if value > 0 else min(stake))
        if phase == kernel.CLERIC:
            return max(kernel.cleric_options(ks), key=lambda c: tops[c] - home[c] - 2 * ks.capital[c][0])
        if phase == kernel.GOLD:
            costs = [kernel.excess(ks, p, c) for c in range(4)]
            return max(kernel.gold_options(ks, p), key=lambda combo: gold_choice_worth(home, costs, combo))
        raise ValueError(f"no decision is pending in phase {ks.phase}")


class Both:
    """Asks the new rule and the old one, each with its own copy of the state and of the
    generator, records their decisions and generator states, and plays the old one's."""

    random_below: Callable[[int], int] | None = None
    random_bits: Callable[[int], int] | None = None

    def __init__(self, seed: int) -> None:
        self.new_rng, self.old_rng = random.Random(seed), random.Random(seed)
        self.new, self.old = QuickRule(self.new_rng), OldQuickRule(self.old_rng)
        self.decisions: list[tuple[int, kernel.Decision, kernel.Decision]] = []
        self.draws_differ = 0

    def decide(self, ks: kernel.KState) -> kernel.Decision:
        new, old = self.new.decide(ks.copy()), self.old.decide(ks.copy())
        self.decisions.append((ks.phase, new, old))
        self.draws_differ += self.new_rng.getstate() != self.old_rng.getstate()
        return old


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_compiled_rule_decides_and_draws_as_the_old_one(players: int) -> None:
    seen: set[int] = set()
    decisions = 0
    for g in range(60):
        seats = [Both(1000 * g + seat) for seat in range(players)]
        kernel.play_game(players, seats, random.Random(g))
        for seat in seats:
            # by repr: the same values of the same types (True, not 1, for a play home)
            assert [repr(new) for _, new, _ in seat.decisions] == [repr(old) for _, _, old in seat.decisions]
            assert seat.draws_differ == 0
            seen |= {phase for phase, _, _ in seat.decisions}
            decisions += len(seat.decisions)
    assert seen == {kernel.DRAFT, kernel.PLAY, kernel.AGENT, kernel.CLERIC, kernel.GOLD}  # every decision
    assert decisions > 60 * 20 * players


def test_the_noise_draws_as_a_choice_among_the_options() -> None:
    """With noise every time, the rule picks as ``rng.choice(options)`` would."""
    for g in range(40):
        rng, expected = random.Random(g), random.Random(g)
        ks, chance = kernel.new_state(4), random.Random(g)
        seats = [kernel.RandomPolicy(random.Random(g))] * 4
        kernel.play_out(ks, seats, chance, stop_seat=g % 4)
        for _ in range(g % 9):  # some of the seat's later decisions: plays, an Agent's, a Cleric's
            kernel.play_out(ks, seats, chance, stop_seat=g % 4, resume=True)
        rule = QuickRule(rng)
        rule.random = lambda: 0.0
        assert repr(rule.decide(ks)) == repr(expected.choice(kernel.options(ks)))
        assert rng.getstate() == expected.getstate()


def test_the_searchers_seat_plays_the_trees_decision_first() -> None:
    rng = random.Random(5)
    ks = kernel.new_state(3)
    kernel.play_out(ks, [kernel.RandomPolicy(rng)] * 3, rng, stop_seat=1)
    seat = First(QuickRule(random.Random(1)))
    last = kernel.options(ks)[-1]
    seat.first = last
    assert seat.decide(ks) == last and seat.first is None
    assert seat.decide(ks) == QuickRule(random.Random(1)).decide(ks)


def test_old_imports_still_find_the_rule() -> None:
    assert search.QuickRule is QuickRule and search.ROLLOUT_NOISE == ROLLOUT_NOISE
    assert policies.make("quick", random.Random(0)).decide.__qualname__ == "QuickRule.decide"


def position(players: int, seed: int, moves: int) -> Game:
    """A seeded game after ``moves`` random decisions (chance resolved by the game)."""
    game, rng = Game(players, seed), random.Random(seed + 100)
    for _ in range(moves):
        game.play(rng.choice(game.state.legal_actions()))
    return game


#: ``search.ismcts``'s choices and the generator's next number after them, with the old rule
#: (measured before it was compiled), in seeded games after some random decisions: a
#: position of each kind of decision for 2, 3 and 4 players.
SEARCH_CHOICES = {
    (2, 0, 0): ("pick G2 Y4", 0.2868626758255396), (2, 0, 4): ("home P6", 0.23774291020180083),
    (2, 0, 12): ("place G", 0.7471193520450362), (2, 0, 14): ("take Y", 0.9979923142179571),
    (2, 0, 38): ("save B", 0.6287506876113234), (3, 0, 0): ("pick B4 P2", 0.9270112075316084),
    (3, 0, 6): ("capital B4", 0.6458486078112147), (3, 0, 16): ("place Y", 0.9232637729359726),
    (3, 0, 25): ("save P", 0.5001195504925912), (3, 0, 38): ("take B", 0.6803224106770344),
    (4, 0, 0): ("pick P6 Y5", 0.8778053669179336), (4, 0, 8): ("capital G3", 0.9458433010944978),
    (4, 0, 17): ("place P", 0.011266032347336252), (4, 0, 19): ("take B", 0.1141506160980833),
    (4, 1, 62): ("save Y", 0.3916125195253193),
}


@pytest.mark.parametrize("players, seed, moves", list(SEARCH_CHOICES))
def test_the_search_chooses_as_with_the_old_rule(players: int, seed: int, moves: int) -> None:
    state = position(players, seed, moves).state
    rng = random.Random(seed)
    chosen = search.ismcts(view(state, state.current), rng, iterations=60)
    assert (str(chosen), rng.random()) == SEARCH_CHOICES[players, seed, moves]
