"""Where a printed rulebook differs from the rules the project plays (the rulings).

The French rulebook has two slips the other editions do not share: it puts the
short deal of ruling R15 "at the end of the 3rd round", and it words the gold
payment of ruling R6 as a difference between *numbers of cards*. A French teacher
with that rulebook in hand would think the tutor wrong, so wherever the tutor
explains one of these rules, it adds a note saying what the printed edition says
and why the tutor follows the others.

Decision: the note is shown only to readers of the language whose edition differs
(``lang == "fr"``): a Spanish or Portuguese reader's rulebook agrees with the tutor
and the note would only distract. Its msgid is English, like every text, and its
translations (checked like any other) all speak of the French edition.

>>> from capital_lux.i18n import translator
>>> edition_notes(translator("en"), "... (ruling R6)")
[]
>>> edition_notes(translator("fr"), "... (ruling R7)")
[]
>>> edition_notes(translator("fr"), "... (ruling R6)")[0].startswith("La règle imprimée")
True
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final, Mapping

from ..engine.cards import N_

if TYPE_CHECKING:
    from . import Translator

__all__ = ["EDITION_NOTES", "edition_notes"]

#: ruling -> (language whose printed rulebook differs, the note as an English msgid)
EDITION_NOTES: Final[Mapping[str, tuple[str, str]]] = {
    "R6": ("fr", N_(
        "The printed French rulebook says the gold paid is “the difference between the number of your cards and "
        "those in the Capital”. The English, Spanish and Portuguese editions, and the French rulebook's own "
        "example (3 discs to keep blue and yellow), count the difference between the totals of the card values, "
        "so the tutor follows them (ruling R6).")),
    "R15": ("fr", N_(
        "The printed French rulebook places this rare case “at the end of the 3rd round”. The English and "
        "Portuguese editions place it at the beginning of round 3, when the cards are dealt, the only moment a "
        "deal can fall short, so the tutor follows them (ruling R15).")),
}

_CITED = re.compile(r"\bR(\d+)\b")


def edition_notes(t: Translator, text: str) -> list[str]:
    """The notes, in ``t``'s language, on the rulings that the English ``text`` cites and
    that the reader's printed rulebook states differently (none for most readers)."""
    cited = {f"R{n}" for n in _CITED.findall(text)}
    return [t.gettext(note) for ruling, (lang, note) in EDITION_NOTES.items() if ruling in cited and lang == t.lang]
