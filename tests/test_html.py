"""States and views show themselves as HTML in a notebook; colour is never the only signal."""

import re

from capital_lux.engine.cards import SYMBOLS, Card
from capital_lux.engine.html import card_html
from capital_lux.engine.position import arrange
from capital_lux.engine.views import view


def test_a_card_shows_symbol_role_and_value() -> None:
    html = card_html(Card("Y", 6))
    assert SYMBOLS["Y"] in html and "Merchant" in html and "<b>6</b>" in html and "yellow" in html
    assert "Marchand" in card_html(Card("Y", 6), role="Marchand")


def test_state_html_shows_the_whole_table() -> None:
    s = arrange(2, hands=["B5 G3", "P6"], capital="Y4", hometowns=["G2", ""], modifiers_above=[("Y", 1, -3)])
    html = s._repr_html_()
    for text in ("Agent <b>5</b>", "Scholar <b>3</b>", "Cleric <b>6</b>", "Merchant <b>4</b>", "P1: -3"):
        assert text in html


def test_view_html_hides_what_the_viewer_cannot_know() -> None:
    s = arrange(2, hands=["B5 G3", "P6"], capital="Y4", modifiers_above=[("Y", 1, -3), ("G", 0, 4)])
    html = view(s, 0)._repr_html_()
    assert "Agent <b>5</b>" in html and "Scholar <b>3</b>" in html
    assert "Cleric <b>6</b>" not in html and "1 card<" in html
    assert "P1: ?" in html and "-3" not in html and "P0: +4" in html
    assert re.search(r"Cleric <b>6</b>", view(s, 1)._repr_html_())


def test_the_hand_column_during_the_draft_says_what_is_set_aside() -> None:
    # "6 cards" after 2 were set aside read as if nothing had happened.
    import random

    from capital_lux.engine.game import sample_chance
    from capital_lux.engine.state import DRAFT, new_game
    from capital_lux.engine.views import view
    from capital_lux.i18n import translator
    from capital_lux.lessons.table import table_html

    rng, s = random.Random(4), new_game(3)
    while not (s.phase == DRAFT and s.draft_picks[0]):
        s.apply_action(sample_chance(s, rng) if s.is_chance_node() else rng.choice(s.legal_actions()))
    v = view(s, 0)
    held, aside = v.draft_hand_sizes[0], v.draft_pick_counts[0]
    assert f"{held} cards to choose from · {aside} set aside" in table_html(translator("en"), v, 0)
    assert f"{aside} mises de côté" in table_html(translator("fr"), v, 0)
    # everyone picks at once: the starting player is said to play first after the draft, not to "start" now
    assert "plays first after the draft" in table_html(translator("en"), v, 0)
