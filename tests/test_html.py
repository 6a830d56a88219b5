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
