"""The what-if explorer's fields and uploads are limited before anything reads them."""

from __future__ import annotations

from capital_lux.lessons.whatif import export_text
from capital_lux.tutor.whatif_app import FIELD_LIMIT, WhatIfApp


def test_a_huge_edit_field_is_refused_at_once_and_keeps_its_text() -> None:
    app = WhatIfApp("en")
    before = export_text(app.state)
    typed = app.fields["hands"].value
    app.fields["hands"].value = "B5 " * 1_000_000  # 3 MB: it took 25 s of parsing, then came back whole
    assert app.fields["hands"].value == typed
    assert 'data-error="1"' in app.message.value and f"at most {FIELD_LIMIT:,}" in app.message.value
    assert export_text(app.state) == before


def test_applying_after_a_refused_field_changes_nothing() -> None:
    """The refusal changes nothing: "Apply the changes" afterwards applies the fields as they
    were, so the Capital's cards stay in the Capital (they went to the deck when the refused
    field was left empty)."""
    app = WhatIfApp("en")
    capital = app.fields["capital"].value
    assert capital  # the gallery position has cards in the Capital
    before = export_text(app.state)
    app.fields["capital"].value = "B5 " * (FIELD_LIMIT // 3 + 1)
    assert app.fields["capital"].value == capital
    assert app.apply_edits() is True
    assert export_text(app.state) == before


def test_every_edit_field_is_limited_when_applied() -> None:
    app = WhatIfApp("fr")
    before = export_text(app.state)
    for field in (*app.fields.values(), app.last_turns):
        field.unobserve(app._guard_length, names="value")  # as if the value came by another way
        field.value = "x" * (FIELD_LIMIT + 1)
        assert app.apply_edits() is False
        assert 'data-error="1"' in app.message.value and "au plus" in app.message.value
        field.value = ""
    assert export_text(app.state) == before


def test_a_huge_paste_or_upload_is_refused_before_reading() -> None:
    app = WhatIfApp("en")
    before = export_text(app.state)
    app.paste.value = "{" + " " * 400_000 + "}"
    app.load_pasted()
    assert "at most 262,144" in app.message.value
    app.load_upload(({"name": "big.json", "content": memoryview(b"{" * 5_000_000)},))
    assert "at most 262,144" in app.message.value
    assert export_text(app.state) == before
