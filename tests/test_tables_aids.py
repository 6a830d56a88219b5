"""The tutor's aids at the class tables: the teacher allows some for the lesson (the teacher's
page, stored in the class database), a table's opener chooses among those, and a seat's page
shows only the aids both allow, the others' widgets gone from the page; never the undo."""

from __future__ import annotations


import pytest

from capital_lux.i18n import translator
from capital_lux.lessons.storage import Storage
from capital_lux.lessons.tables import AIDS, AIDS_SETTING, TableRefusal, Tables
from capital_lux.tutor.tables_app import TablesApp, TablesOverview, build_app

from test_tables_page import PEOPLE, storage  # noqa: F401  # the class of two, one fixture for both files


def _page(storage: Storage, who: int) -> TablesApp:
    app: TablesApp = build_app("en", storage=storage, poll=False)._tables
    app.learner.name.value, app.learner.code.value = PEOPLE[who]
    assert app.learner.joined == PEOPLE[who][0]
    return app


def _in_page(root: object, widget: object) -> bool:
    """Whether ``widget`` is anywhere under ``root`` (what the browser is sent)."""
    if root is widget:
        return True
    return any(_in_page(child, widget) for child in getattr(root, "children", ()))


def test_the_teachers_choice_is_stored_and_bounds_what_an_opener_may_offer(storage: Storage) -> None:
    tables = Tables(storage)
    assert tables.lesson_aids() == AIDS  # until the teacher says, every aid
    teacher = TablesOverview(translator("fr"), Tables(storage))
    teacher.render(translator("fr"))
    assert teacher.aid_boxes["hint"].description == "Conseil"  # the tutor's own word for it
    teacher.aid_boxes["hint"].value = False
    teacher.aid_boxes["compare"].value = False
    assert storage.setting(AIDS_SETTING, "") == '["risk", "review"]'  # stored at once, in the class database
    assert teacher.aids_note.value  # said to the teacher
    assert Tables(storage).lesson_aids() == ("risk", "review")  # every page reads the teacher's word
    with pytest.raises(TableRefusal) as refused:
        tables.open("p-ada", 2, aids=["risk", "hint"])
    assert "does not allow" in str(refused.value)
    with pytest.raises(TableRefusal):
        tables.open("p-ada", 2, aids=["undo"])  # the undo is no aid a table can offer
    assert tables.open("p-ada", 2).aids == ("risk", "review")  # the opener's default: all the lesson allows


def test_a_seat_shows_only_the_aids_its_table_and_lesson_allow_and_never_the_undo(storage: Storage) -> None:
    Tables(storage).set_lesson_aids(["risk", "hint", "review"])
    ada, bo = _page(storage, 0), _page(storage, 1)
    ada.render()
    assert ada.aid_boxes["compare"].layout.display == "none"  # the lesson does not allow it: not offered
    assert ada.aid_boxes["hint"].layout.display is None
    ada.aid_boxes["review"].value = False  # the opener keeps the risk lines and the hint
    ada.seat_count.value = 2
    ada.open_table()
    assert ada.tables is not None and ada.seat is not None
    table = ada.tables.info(ada.seat.table)
    assert table.aids == ("risk", "hint")
    # the teacher then takes the hint away: a page sitting from now on shows no hint
    Tables(storage).set_lesson_aids(["risk", "review"])
    bo.join_table(table.code)
    for page, hint in ((ada, True), (bo, False)):
        panel = page.panel
        assert panel is not None
        assert (panel.hint is not None) is hint
        assert panel.risk is not None and _in_page(page.root, panel.risk.lines)  # the risk lines stay
        assert not _in_page(page.root, panel.risk.compare_button)  # not allowed: out of the page, closed
        assert panel.risk.compare_button.comm is None
        assert not _in_page(page.root, page.review.box)  # the table offers no review
        assert panel.undo_button.layout.display == "none" and not panel.undoable
    assert bo.aids == ("risk",)
    for _ in range(3):  # the pages draw and play on without the aids taken out
        for page in (ada, bo):
            page.check()
            frame = page.seat.frame  # type: ignore[union-attr]
            if frame.choices:
                page.panel._play(frame.choices[0])  # type: ignore[union-attr]
            assert "cl-error" not in page.message.value and "cl-error" not in page.panel.message.value  # type: ignore


def test_a_table_without_the_risk_lines_has_no_comparison_either(storage: Storage) -> None:
    ada = _page(storage, 0)
    ada.aid_boxes["risk"].value = False
    ada.seat_count.value = 2
    ada.seat_kinds[0].value = "rule"
    ada.open_table()
    assert ada.panel is not None and ada.panel.risk is None and ada.panel.hint is not None
    assert "cl-risk-compare" not in repr([w._dom_classes for w in _walk(ada.root)])
    ada.panel.render()


def _walk(root: object) -> list:  # type: ignore[type-arg]
    found = [root]
    for child in getattr(root, "children", ()):
        found += _walk(child)
    return found
