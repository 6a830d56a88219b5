"""Each language's catalogue reads right for a teacher: typography, one word per idea, grammar.

These pin the fixes a native reader asked for, entry by entry, so that a new text
cannot bring the slip back.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from babel.messages.catalog import Message

from capital_lux.i18n import load_catalogue

NBSP = "\u00a0"


def _entries(lang: str) -> Iterator[tuple[str, str]]:
    """(msgid, each translated form) of a catalogue."""
    for message in load_catalogue(lang):
        if not message.id:
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        for form in forms:
            if form:
                yield msgid, form


def _message(lang: str, msgid: str) -> Message:
    message = load_catalogue(lang).get(msgid)
    assert message is not None, msgid
    return message


def french_typography_faults(text: str) -> list[str]:
    """Places where French typography wants a non-breaking space and has none. argparse's own
    placeholders (``%(value)r``, ``%s``) are values, not percent signs."""
    text = re.sub(r"%(?:\([a-z_]+\))?[sdr]", "X", text)
    faults = re.findall(r"\S*[ \u202f][:;?!%»]", text)  # an ordinary (or narrow) space
    faults += re.findall(r"«[ \u202f]|«[^\s\xa0]|[^\s\xa0]»", text)
    faults += re.findall(r"[\w)}…\]][;?!](?=[\s)]|$)", text)  # no space at all
    faults += re.findall(r"[\w)}…\]]:(?=\s|$)", text)  # "search:iterations" (code) stays
    faults += re.findall(r"[\d}]%", text)
    return faults


def test_the_typography_check_itself() -> None:
    assert french_typography_faults("IC à 95 %") and french_typography_faults("Et si… ?")
    assert french_typography_faults("« solved »") and french_typography_faults("Interrompu : {n}")
    assert french_typography_faults("Capitale: B") and french_typography_faults("{n}%")
    assert not french_typography_faults(f"IC à 95{NBSP}% · Et si…{NBSP}? «{NBSP}solved{NBSP}»")
    assert not french_typography_faults("search:iterations=N, Y:1:+4")


def test_french_puts_a_non_breaking_space_before_double_punctuation() -> None:
    faults = {msgid: french_typography_faults(text) for msgid, text in _entries("fr")}
    assert not {msgid: found for msgid, found in faults.items() if found}


def test_french_keeps_pioche_for_the_deck_and_tirage_for_a_draw() -> None:
    assert load_catalogue("fr").get("deck", "term").string == "pioche"
    for msgid in ("a Scholar draw needs a card in the deck", "an Agent draw needs a modifier in the modifier deck",
                  "a Scholar's draw"):
        assert "tirage" in _message("fr", msgid).string, msgid
    for msgid, text in _entries("fr"):
        # "une pioche vide" is an empty deck; "une pioche de Savant" would be a draw
        assert not re.search(r"\b(une|votre|sa) pioche\b(?! vide)|pioche d'(un|une|Agent)|pioche de Savant", text), msgid


def test_french_rulings_are_not_called_precisions() -> None:
    # "PRÉCISIONS" is a section of the printed French rulebook; the project's rulings are "décisions"
    texts = [text for _, text in _entries("fr")]
    assert not [t for t in texts if re.search(r"précisions? R\d", t)]
    assert any(re.search(r"décision R9", t) for t in texts)


@pytest.mark.parametrize(("lang", "word"), [("fr", "robot"), ("es", "bot"), ("pt", "robô")])
def test_one_word_for_bot_in_terminal_and_tutor(lang: str, word: str) -> None:
    assert _message(lang, "bot").string == word  # the simulate table's header
    assert _message(lang, "Bot {seat}").string.lower().startswith(word)  # the tutor's players
    others = {"fr": r"\bbots?\b|\brobô", "es": r"\brobots?\b|\brobô", "pt": r"\bbots?\b|\brobots?\b"}[lang]
    for msgid, text in _entries(lang):
        assert not re.search(others, re.sub(r"\{\w+\}", "", text), re.IGNORECASE), (msgid, text)


@pytest.mark.parametrize(("lang", "seat", "not_seat"), [("fr", "place", r"\bsiège"), ("es", "asiento", r"\bpuestos?\b"),
                                                        ("pt", "lugar", r"\bassentos?\b")])
def test_one_word_for_seat(lang: str, seat: str, not_seat: str) -> None:
    assert seat in _message(lang, "your seat, 0 to players-1 (default 0)").string
    assert seat in _message(lang, "Play a whole game of three rounds against bots. The bots are named Bot 1, Bot 2 "
                                  "and so on, in seat order after you.").string
    for msgid, text in _entries(lang):
        if msgid != "rank":  # Spanish "puesto" is a rank, and only that
            assert not re.search(not_seat, text), (msgid, text)


def test_spanish_fixes() -> None:
    texts = dict(_entries("es"))
    everything = "\n".join(texts.values())
    assert "Ciudad Natal" not in everything and "ciudad natal" not in everything  # "Ciudad natal", as the glossary
    assert "María" not in everything  # the rulebook example's Mary, one name throughout
    assert texts["{player} has no card left: every other player has one last turn (ruling R9)."].startswith(
        "{player} se ha quedado sin cartas")
    assert "que exceden conservas" not in everything


def test_portuguese_fixes() -> None:
    for msgid, text in _entries("pt"):
        assert not re.search(r"[\"']", text), (msgid, text)  # typographic quotes only
        if "their Hometown" in msgid:
            assert "sua Cidade Natal" not in text, (msgid, text)  # "a própria Cidade Natal" (or "de cada jogador")


@pytest.mark.parametrize(("lang", "noun"), [("fr", "carte de capitale {colour}"), ("es", "carta de Capital {colour}"),
                                            ("pt", "Carta de Capital {colour}")])
def test_a_colour_label_after_a_preposition_follows_a_noun(lang: str, noun: str) -> None:
    # {colour} is "◆ Agent (blue)": "au-dessus de ◆ Agent" is not French; "de la carte de capitale ◆ Agent" is
    for msgid in ("Above {colour}", "Modifier above {colour}", "{value} above {colour} (placed by {player})",
                  "{value} above {colour} (placed by you)"):
        assert noun in _message(lang, msgid).string, msgid


@pytest.mark.parametrize("lang", ["fr", "es", "pt"])
def test_placed_by_you_has_its_own_message(lang: str) -> None:
    text = _message(lang, "{value} above {colour} (placed by you)").string
    assert "{player}" not in text and ":" not in text.split("(")[-1]
