"""The risk table folds while "Compare my moves" is on show, so the comparison opens beside
the hand (``tests/test_compare_place_browser.py`` measures it in a browser); "Close the
comparison", "Stop" and the next table unfold it."""

from __future__ import annotations

from test_riskpanel import EN, FR, last_turn_small_deck, small_table

from capital_lux.tutor.riskpanel import RiskPanel


def test_the_risk_table_folds_while_a_comparison_is_on_show() -> None:
    panel = RiskPanel(samples=60, exact_ms=50)
    v = last_turn_small_deck()
    panel.render(EN, v)
    children = list(panel.box.children)
    assert children.index(panel.compare_button) < children.index(panel.comparison.box) < children.index(
        panel.table_box)  # the button and its comparison above the risk table
    assert panel.table_box.layout.display is None and panel.comparison.close.layout.display == "none"
    panel.model.value = "random"
    job = panel.compare()
    assert job is not None and panel.table_box.layout.display == "none"  # folded from the click on
    assert job.result(120) is not None
    close = panel.comparison.close
    assert close.layout.display is None and close.description == "Close the comparison"
    close.click()
    assert panel.table_box.layout.display is None and panel.comparison.html.value == ""
    assert close.layout.display == "none"

    panel.compare()  # a new table closes it too, in the page's language
    assert panel.table_box.layout.display == "none"
    panel.render(FR, small_table())
    assert panel.table_box.layout.display is None and close.description == "Fermer la comparaison"

    job = panel.compare()
    assert job is not None and panel.table_box.layout.display == "none"
    panel.comparison.stop.click()  # "Stop" ends the work and closes the comparison
    assert panel.table_box.layout.display is None and panel.comparison.html.value == ""
