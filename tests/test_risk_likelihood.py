"""The others' cards dealt as their draft made them (``riskdraft.Drafted``): each world's draft
played by the others' rule of thumb and kept only if it passes the viewer what it really saw."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from capital_lux.analysis.forward import binding_draft, forward_risk
from capital_lux.analysis.riskcalibration import rule_game
from capital_lux.analysis.riskdraft import DraftKnowledge, Drafted, dealer, draft_knowledge
from capital_lux.engine.cards import KIND
from capital_lux.engine.errors import UsageError
from capital_lux.engine.kernel import from_state, sampler
from capital_lux.engine.notation import Pick
from capital_lux.engine.state import DRAFT, PLAY, GameState, new_game
from capital_lux.engine.views import view


def kinds(cards: object) -> list[int]:
    return sorted(KIND[c] for c in cards)  # type: ignore[attr-defined]


def drafts(players: int, seed: int) -> list[tuple[GameState, dict[int, list[int]], DraftKnowledge]]:
    """Every draft pick or play of a seeded rule-of-thumb game: the state, the
    hands every seat was dealt that round (the truth, which only a test reads) and the knowledge
    of the seat to move, for the draft's likelihood."""
    record = rule_game(seed, players)
    s, found, dealt = new_game(players), [], {}
    for i, action in enumerate(record.actions):
        if not s.is_chance_node() and s.phase == DRAFT and s.draft_step == 1 and not any(s.draft_picks):
            dealt = {q: kinds(s.draft_hands[q]) for q in range(players)}
        if not s.is_chance_node() and s.phase in (DRAFT, PLAY) and s.round >= 1:
            found.append((s.clone(), dealt, draft_knowledge(players, record.actions[:i], s.current_player(),
                                                            model="likelihood")))
        s.apply_action(action)
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_others_rule_of_thumb_picks_as_they_really_picked(players: int) -> None:
    """From any viewer's table, the model's rule of thumb, given another seat's true cards,
    picks what that seat picked in the game (the likelihood is the bots' own policy)."""
    record = rule_game(4, players)
    s, checked = new_game(players), 0
    for i, action in enumerate(record.actions):
        if not s.is_chance_node() and s.phase == DRAFT and s.draft_step == 2 and isinstance(action, Pick):
            q = s.current_player()
            for p in range(players):
                k = draft_knowledge(players, record.actions[:i], p, model="likelihood")
                if k.start is not None and p != q:
                    picked = Drafted(k).pick(q, kinds(s.draft_hands[q]), kinds(s.draft_picks[q]))
                    assert list(picked) == kinds(action.cards)
                    checked += 1
        s.apply_action(action)
    assert checked >= players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_true_draft_is_one_the_model_keeps_and_it_deals_the_true_hands(players: int) -> None:
    """What the viewer knows is true of the hidden cards: the real deal passes every check, and
    where no one has drawn a card since, the world it makes holds the others' real hands."""
    checked = 0
    for s, dealt, k in drafts(players, 2)[::2]:
        p = k.viewer
        assert k.start is not None and k.start.viewer == p  # its own view: nothing of the others' cards
        model = Drafted(k)
        made = model.play({q: hand for q, hand in dealt.items() if q != p})
        assert made is not None
        true = from_state(s)
        world = model._world(true.copy(), made, random.Random(0))
        assert world is not None
        if s.phase == DRAFT:  # the others' picks made so far, and the hands they hold
            assert (world.draft_picks, world.draft_hands) == (true.draft_picks, true.draft_hands)
            checked += 1
        if s.phase == PLAY and all(len(world.hands[q]) + len(k.played.get(q, ())) == len(dealt[q])
                                   for q in range(players)):  # no Scholar's draw yet
            assert world.hands == true.hands
            checked += 1
    assert checked >= 6


def test_a_world_keeps_every_card_once_and_the_viewer_s_own_and_is_seeded() -> None:
    """At the draft's second step and at each seat's first play (later, worlds that fit are
    rare and the model deals at random, as the page does)."""
    checked = 0
    for s, _, k in drafts(4, 6):
        if s.phase == PLAY and len(s.hands[k.viewer]) < 5:
            continue
        v = view(s, k.viewer)
        model = dealer(k)
        ks = sampler(v)(random.Random(1))
        zones = (ks.hands, ks.draft_hands, ks.draft_picks)
        before = Counter(ks.deck + [c for z in zones for h in z for c in h])
        sizes = [[len(h) for h in z] for z in zones]
        world = model(ks, random.Random(2))
        zones = (world.hands, world.draft_hands, world.draft_picks)
        assert Counter(world.deck + [c for z in zones for h in z for c in h]) == before
        assert sizes == [[len(h) for h in z] for z in zones]
        assert world.hands[k.viewer] == kinds(v.hand) and world.draft_picks[k.viewer] == kinds(v.draft_picks)
        again = dealer(k)(sampler(v)(random.Random(1)), random.Random(2))
        assert (again.hands, again.draft_hands, again.deck) == (world.hands, world.draft_hands, world.deck)
        checked += isinstance(model, Drafted) and model.fallbacks == 0
    assert checked >= 6


def test_the_risk_with_the_draft_s_likelihood_is_seeded_and_says_where_it_fell_back() -> None:
    s, _, k = next((s, d, k) for s, d, k in drafts(4, 3) if s.phase == DRAFT)
    v = view(s, k.viewer)
    seen = forward_risk(v, samples=100, seed=1, draft=k)
    assert not seen.exact and forward_risk(v, samples=100, seed=1, draft=k) == seen
    assert seen != forward_risk(v, samples=100, seed=1, exact_ms=0)  # the draft changed the worlds
    model = Drafted(k)
    for i in range(20):
        model(sampler(v)(random.Random(i)), random.Random(i))
    assert model.usable and model.worlds == 20 and model.fallbacks == 0
    with pytest.raises(UsageError):
        draft_knowledge(4, [], 0, model="mind reading")


def test_late_in_a_round_the_likelihood_gives_way_and_the_exact_figures_stay() -> None:
    """Where worlds that fit the draft are too rare to find (here, the last plays of a round),
    the draft's likelihood is not used: the figures are the panel's own, exact where they were."""
    checked = 0
    for s, _, k in drafts(4, 3):
        if s.phase == PLAY and len(s.hands[k.viewer]) == 1 and k.played:
            v = view(s, k.viewer)
            assert binding_draft(v, k) is None
            plain = forward_risk(v, samples=200, seed=1, exact_ms=500)
            if plain.exact:
                assert forward_risk(v, samples=200, seed=1, exact_ms=500, draft=k) == plain
                checked += 1
        if checked == 2:
            break
    assert checked == 2
