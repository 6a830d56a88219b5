"""The bid chance on the page says what its model reads of the others and where it stops."""

from __future__ import annotations

from dataclasses import replace

from capital_lux.capitol.state import BID
from capital_lux.tutor.capitol_app import CapitolApp


def at_an_auction(bots: str) -> CapitolApp:
    page = CapitolApp("en", players=2, seed=3, bots=bots)
    while not (page.state.phase == BID and page.state.current == 0):
        page._play_text("pass" if page.state.phase == "build" else str(page.moves.value))
    return page


def test_the_page_says_the_model_reads_the_others_stop_piles_and_forgets_the_past() -> None:
    page = at_an_auction("rule")
    assert "It does not remember the cards revealed in earlier auctions" in page.chance.value
    assert "It counts only the deals" not in page.chance.value  # nobody has put a card down yet
    assert "random bots" not in page.chance.value
    other = page.state.hands[1]
    page.state = replace(page.state, offers=((), (max(other),)))  # the bot put one card above its STOP card
    page._chances = None
    page.render()
    assert ("It counts only the deals in which the rule-of-thumb bot would have put as many cards above its STOP card "
            "as each player has." in page.chance.value) or "do not fit the rule-of-thumb bot" in page.chance.value
    hand = tuple(sorted(other + page.state.piles[1][:max(0, 5 - len(other))]))
    # five cards down: the rule of thumb never bids more than four
    page.state = replace(page.state, hands=(page.state.hands[0], hand), offers=((), hand))
    page._chances = None
    page.render()
    assert "do not fit the rule-of-thumb bot, so the chance leaves them aside." in page.chance.value


def test_against_random_bots_the_page_says_the_chance_is_a_guide_only() -> None:
    page = at_an_auction("random")
    page.set_language("pt")
    assert "Seus adversários são robôs ao acaso" in page.chance.value
