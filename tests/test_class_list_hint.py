"""``make class`` says when learners must join with a class list's codes and the list is empty."""

from __future__ import annotations

from pathlib import Path

from capital_lux.i18n import translator
from capital_lux.lessons.classroom import add_to_roster, set_identity_mode
from capital_lux.lessons.storage import Storage
from capital_lux.serve import classroom as C


def _lines(lang: str, needs_list: bool) -> list[str]:
    return C.opened("", 8866, "abcd-efgh-jkmn-pqrs", 42, "/data/class.sqlite3", False, Path("/data/class.log"),
                    translator(lang), needs_list)


def test_an_empty_class_list_is_said_only_where_learners_need_one(tmp_path: Path) -> None:
    with Storage(str(tmp_path / "class.sqlite3")) as storage:
        assert C.needs_class_list(storage)  # a new class: the class list is the default, and empty
        set_identity_mode(storage, "open")
        assert not C.needs_class_list(storage)  # names only: nothing to add
        set_identity_mode(storage, "roster")
        add_to_roster(storage, ["Ana"])
        assert not C.needs_class_list(storage)


def test_the_hint_names_the_teachers_page_and_the_other_mode_in_four_languages() -> None:
    modes = {"en": "Open lesson, names only", "fr": "Leçon ouverte, noms seuls",
             "es": "Lección abierta, solo nombres", "pt": "Lição aberta, só nomes"}
    for lang, mode in modes.items():
        plain, hinted = _lines(lang, False), _lines(lang, True)
        [hint] = [line for line in hinted if line not in plain]
        assert len(hinted) == len(plain) + 1 and mode in hint
