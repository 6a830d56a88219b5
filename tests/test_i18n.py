"""Translations: catalogues complete and well-formed, glossary true to each rulebook."""

from __future__ import annotations

import re
import string
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract

from capital_lux import i18n
from capital_lux.i18n import (
    GLOSSARY,
    LANGUAGE_NAMES,
    LANGUAGES,
    Translator,
    colour_name,
    default_language,
    load_catalogue,
    load_template,
    missing_translations,
    role_name,
    translator,
)
from capital_lux.i18n.extract import (
    COMMENT_TAGS,
    KEYWORDS,
    TRANSLATED_LANGUAGES,
    extract_python_with_fstrings,
    template_differences,
)

RULES_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "rules"

PLURAL_FORMS = {
    "fr": "nplurals=2; plural=(n > 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "pt": "nplurals=2; plural=(n != 1);",  # "0 cartas", as the review of the catalogue asks
}

# Glossary key -> its word in the en, fr, es and pt rulebooks. Plural terms give
# (singular, plural) pairs.
TERMS: dict[str, tuple[str | tuple[str, str], ...]] = {
    "Hometown": ("Hometown", "Cité", "Ciudad natal", "Cidade Natal"),
    "Capital": ("Capital", "Capitale", "Capital", "Capital"),
    "Scholar": ("Scholar", "Savant", "Erudito", "Cientista"),
    "Merchant": ("Merchant", "Marchand", "Comerciante", "Mercador"),
    "Agent": ("Agent", "Agent", "Agente", "Agente"),
    "Cleric": ("Cleric", "Clerc", "Clérigo", "Clérigo"),
    "blue": ("blue", "bleu", "azul", "azul"),
    "green": ("green", "vert", "verde", "verde"),
    "yellow": ("yellow", "jaune", "amarillo", "amarelo"),
    "pink": ("pink", "rose", "rosa", "rosa"),
    "gold disc": (
        ("gold disc", "gold discs"),
        ("disque d'or", "disques d'or"),
        ("disco de oro", "discos de oro"),
        ("moeda de ouro", "moedas de ouro"),
    ),
    "profession card": (
        "profession card", "carte de Corporation", "carta de profesión", "Carta de Profissão",
    ),
    "capital card": ("capital card", "carte de capitale", "carta de capital", "Carta de Capital"),
    "modifier card": (
        "modifier card", "carte de modificateur", "carta modificadora", "carta de modificadores",
    ),
    "deck": ("deck", "pioche", "mazo", "pilha"),
    "hand": ("hand", "main", "mano", "mão"),
    "bonus card": ("bonus card", "carte bonus", "carta de bonificación", "carta bônus"),
    "starting player": ("starting player", "premier joueur", "jugador inicial", "Jogador Inicial"),
    "round": ("round", "manche", "ronda", "rodada"),
    "Choose cards": ("Choose cards", "Choisir des cartes", "Elige cartas", "Escolher cartas"),
    "special action": ("special action", "action spéciale", "acción especial", "ação especial"),
    "exceed": ("exceed", "dépasser", "exceder", "exceder"),
    "limit": ("limit", "limite", "límite", "limite"),
    "discard": ("discard", "défausser", "descartar", "descartar"),
    "score": ("score", "score", "puntuación", "pontuação"),
    "player": ("player", "joueur", "jugador", "jogador"),
}

# Where a rulebook only has an inflected form of the term, the text that shows it.
RULEBOOK_FORMS = {
    ("fr", "dépasser"): "dépasse la valeur totale",  # and "si vous dépassez la limite"
    ("es", "carta de capital"): "4 cartas de capital",
}

COLOURS = {"B": ("blue", "Agent"), "G": ("green", "Scholar"), "P": ("pink", "Cleric"),
           "Y": ("yellow", "Merchant")}


def _term_cases() -> list[tuple[str, str, int | None, str]]:
    cases: list[tuple[str, str, int | None, str]] = []
    for key, words in TERMS.items():
        for lang, word in zip(LANGUAGES, words):
            if isinstance(word, tuple):
                cases += [(key, lang, None, word[0]), (key, lang, 1, word[0]),
                          (key, lang, 2, word[1])]
            else:
                cases.append((key, lang, None, word))
    return cases


def _rulebook_words() -> list[tuple[str, str]]:
    words: list[tuple[str, str]] = []
    for entry in TERMS.values():
        for lang, word in zip(LANGUAGES, entry):
            words += [(lang, w) for w in (word if isinstance(word, tuple) else (word,))]
    return words


def _messages(catalog: Catalog) -> list[Message]:
    return [message for message in catalog if message.id]


def _forms(message: Message) -> tuple[str, ...]:
    value = message.string
    if value is None:
        return ("",)
    return (value,) if isinstance(value, str) else tuple(value)


def _ids(message: Message) -> tuple[str, ...]:
    return (message.id,) if isinstance(message.id, str) else tuple(message.id)


_PERCENT_NAMED = re.compile(r"%\(([^)]*)\)")


def placeholders(text: str) -> set[str]:
    """``{name}`` fields and ``%(name)s`` keys of a text (``%%`` and ``{{`` are literal)."""
    fields = {f"{{{name}}}" for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    keys = {f"%({key})" for key in _PERCENT_NAMED.findall(text.replace("%%", ""))}
    return fields | keys


# --------------------------------------------------------------------------- languages


def test_languages_and_their_own_names() -> None:
    assert LANGUAGES == ("en", "fr", "es", "pt")
    assert dict(LANGUAGE_NAMES) == {
        "en": "English", "fr": "Français", "es": "Español", "pt": "Português",
    }
    assert TRANSLATED_LANGUAGES == ("fr", "es", "pt")
    assert [translator(lang).language_name for lang in LANGUAGES] == list(LANGUAGE_NAMES.values())


@pytest.mark.parametrize("bad", ["de", "xx_YY", "", "english"])
def test_unsupported_language_raises_value_error_naming_it(bad: str) -> None:
    with pytest.raises(ValueError) as error:
        translator(bad)
    message = str(error.value)
    assert repr(bad) in message
    for lang in LANGUAGES:
        assert lang in message
    with pytest.raises(ValueError, match="'de'"):
        colour_name("B", "de")
    with pytest.raises(ValueError, match="'de'"):
        missing_translations("de")


def test_locale_names_are_accepted() -> None:
    assert translator("fr_FR.UTF-8").lang == "fr"
    assert translator("pt-BR").lang == "pt"
    assert translator("ES").lang == "es"
    assert translator("fr") is translator("fr")


_LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "es_ES.UTF-8"}, "es"),
        ({"LANG": "pt_BR.UTF-8"}, "pt"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LC_MESSAGES": "pt_PT", "LANG": "fr_FR.UTF-8"}, "pt"),
        ({"LC_ALL": "es_MX.UTF-8", "LANG": "fr_FR.UTF-8"}, "es"),
        ({"LANGUAGE": "de:fr:es", "LANG": "pt_BR.UTF-8"}, "fr"),
        ({"LANGUAGE": "", "LANG": "fr_FR.UTF-8"}, "fr"),
    ],
)
def test_default_language_follows_the_environment(
    monkeypatch: pytest.MonkeyPatch, environment: dict[str, str], expected: str
) -> None:
    for variable in _LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    for variable, value in environment.items():
        monkeypatch.setenv(variable, value)
    assert default_language() == expected


# --------------------------------------------------------------------------- catalogues


def test_no_compiled_catalogue_is_committed() -> None:
    assert not list(Path(i18n.__file__).parent.rglob("*.mo"))


def test_template_is_up_to_date_with_the_source() -> None:
    differences = template_differences()
    assert not differences, (
        "capital_lux/i18n/capital_lux.pot is stale; run `python -m capital_lux.i18n.extract`"
        " and translate the new texts:\n" + "\n".join(differences)
    )


@pytest.mark.parametrize("lang", TRANSLATED_LANGUAGES)
def test_every_template_text_is_translated(lang: str) -> None:
    missing = missing_translations(lang)
    assert not missing, f"{lang} catalogue lacks (or has fuzzy/empty):\n" + "\n".join(missing)


@pytest.mark.parametrize("lang", TRANSLATED_LANGUAGES)
def test_catalogue_has_no_text_outside_the_template(lang: str) -> None:
    template = load_template()
    extra = [
        _ids(message)[0]
        for message in _messages(load_catalogue(lang))
        if template.get(_ids(message)[0], message.context) is None
    ]
    assert not extra, f"{lang} catalogue has texts the template lacks: {extra}"


def test_english_misses_nothing() -> None:
    assert missing_translations("en") == []


def test_fuzzy_and_empty_entries_count_as_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    real = load_catalogue("fr")
    hometown = real.get("Hometown", "term")
    discs = real.get("gold disc", "term")
    assert hometown is not None and discs is not None
    hometown.flags.add("fuzzy")
    discs.string = ("disque d'or", "")

    monkeypatch.setattr(i18n, "load_catalogue", lambda lang: real)
    i18n.reload_catalogues()
    try:
        assert missing_translations("fr") == ["[term] Hometown", "[term] gold disc"]
        # Fuzzy entries are not used: the text stays English until checked.
        assert translator("fr").term("Hometown") == "Hometown"
        assert translator("fr").term("Capital") == "Capitale"
    finally:
        monkeypatch.undo()
        i18n.reload_catalogues()
    assert translator("fr").term("Hometown") == "Cité"


@pytest.mark.parametrize("lang", TRANSLATED_LANGUAGES)
def test_plural_forms_header_and_entries(lang: str) -> None:
    catalogue = load_catalogue(lang)
    assert catalogue.plural_forms == PLURAL_FORMS[lang]
    assert catalogue.num_plurals == 2
    plurals = [message for message in _messages(catalogue) if message.pluralizable]
    assert plurals, "the glossary has at least one plural term"
    for message in plurals:
        assert len(_forms(message)) == catalogue.num_plurals, message.id
    for message in _messages(load_template()):
        entry = catalogue.get(_ids(message)[0], message.context)
        if entry is not None:
            assert entry.pluralizable == message.pluralizable, message.id


def test_plural_rules_per_language() -> None:
    def discs(lang: str, n: int) -> str:
        return translator(lang).term("gold disc", n)

    assert [discs("en", n) for n in (0, 1, 2)] == ["gold discs", "gold disc", "gold discs"]
    assert [discs("fr", n) for n in (0, 1, 2)] == ["disque d'or", "disque d'or", "disques d'or"]
    assert [discs("es", n) for n in (0, 1, 2)] == ["discos de oro", "disco de oro", "discos de oro"]
    assert [discs("pt", n) for n in (0, 1, 2)] == [
        "moedas de ouro", "moeda de ouro", "moedas de ouro",
    ]


def test_the_portuguese_catalogue_is_brazilian_and_pt_still_selects_it() -> None:
    catalogue = load_catalogue("pt")
    assert str(catalogue.locale) == "pt_BR"
    assert translator("pt") is translator("pt_BR") is translator("pt-BR")
    assert translator("pt").lang == "pt"


def test_template_uses_named_placeholders_only() -> None:
    for message in _messages(load_template()):
        for text in _ids(message):
            fields = [name for _, name, _, _ in string.Formatter().parse(text) if name is not None]
            positional = [name for name in fields if name == "" or name.isdigit()]
            assert not positional, f"use named placeholders, not {{}} / {{0}}: {text!r}"
        if message.pluralizable:
            singular, plural = _ids(message)
            assert placeholders(singular) == placeholders(plural), (
                f"singular and plural must carry the same placeholders: {message.id!r}"
            )


@pytest.mark.parametrize("lang", TRANSLATED_LANGUAGES)
def test_translations_keep_the_placeholders(lang: str) -> None:
    problems: list[str] = []
    for message in _messages(load_catalogue(lang)):
        expected = set().union(*(placeholders(text) for text in _ids(message)))
        for form in _forms(message):
            if not form:
                continue  # reported by test_every_template_text_is_translated
            try:
                found = placeholders(form)
            except ValueError as error:  # unbalanced braces
                problems.append(f"{message.id!r} -> {form!r}: {error}")
                continue
            if found != expected:
                problems.append(f"{message.id!r} -> {form!r}: {sorted(found)} != {sorted(expected)}")
    assert not problems, "\n".join(problems)


def test_placeholder_checker() -> None:
    assert placeholders("{player} takes {n} gold discs") == {"{player}", "{n}"}
    assert placeholders("{card!s:>3} and {{literal}}") == {"{card}"}
    assert placeholders("%(name)s has 100%% of %(total)d") == {"%(name)", "%(total)"}
    with pytest.raises(ValueError):
        placeholders("broken {name")


# --------------------------------------------------------------------------- glossary


def test_every_glossary_term_is_checked_against_the_rulebooks() -> None:
    assert set(TERMS) == set(GLOSSARY)
    for key, words in TERMS.items():
        assert isinstance(words[0], tuple) == (GLOSSARY[key].plural is not None), key


@pytest.mark.parametrize(("key", "lang", "n", "expected"), _term_cases())
def test_term_uses_the_rulebook_word(key: str, lang: str, n: int | None, expected: str) -> None:
    assert translator(lang).term(key, n) == expected


@pytest.mark.parametrize(("lang", "word"), _rulebook_words())
def test_term_appears_in_that_languages_rulebook(lang: str, word: str) -> None:
    rulebook = RULES_DIR / f"capital-lux-{lang}.txt"
    if not rulebook.exists():
        pytest.skip(f"rulebook not available: {rulebook}")
    text = rulebook.read_text(encoding="utf-8").lower()
    assert RULEBOOK_FORMS.get((lang, word), word).lower() in text


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("letter", sorted(COLOURS))
def test_colour_and_role_names(lang: str, letter: str) -> None:
    colour_key, role_key = COLOURS[letter]
    column = LANGUAGES.index(lang)
    assert colour_name(letter, lang) == TERMS[colour_key][column]
    assert role_name(letter, lang) == TERMS[role_key][column]
    assert colour_name(letter.lower(), lang) == colour_name(letter, lang)
    assert translator(lang).colour(letter) == colour_name(letter, lang)
    assert translator(lang).role(letter) == role_name(letter, lang)


def test_unknown_colour_and_term() -> None:
    with pytest.raises(ValueError, match="'X'"):
        colour_name("X", "fr")
    with pytest.raises(ValueError, match="'R'"):
        role_name("R", "en")
    with pytest.raises(KeyError, match="Hometowns"):
        translator("fr").term("Hometowns")


# --------------------------------------------------------------------------- translator


def test_translator_interface() -> None:
    t = translator("es")
    assert isinstance(t, Translator)
    assert t.lang == "es"
    assert repr(t) == "Translator('es')"
    assert t.pgettext("term", "Hometown") == "Ciudad natal"
    assert t.npgettext("term", "gold disc", "gold discs", 3) == "discos de oro"
    # Texts not translated (yet) fall back to English, with English plural rules.
    assert t.gettext("No such text {name}") == "No such text {name}"
    assert t._("No such text") == "No such text"
    assert t.ngettext("{n} unknown thing", "{n} unknown things", 1) == "{n} unknown thing"
    assert t.ngettext("{n} unknown thing", "{n} unknown things", 2) == "{n} unknown things"
    english = translator("en")
    assert english.gettext("Hometown") == "Hometown"
    assert english.pgettext("term", "Hometown") == "Hometown"
    assert english.ngettext("{n} card", "{n} cards", 0) == "{n} cards"
    # A translated plural follows the language's rule (French: singular for 0 and 1).
    french = translator("fr")
    assert [french.ngettext("{n} card", "{n} cards", n).format(n=n) for n in (0, 1, 2)] == [
        "0 carte", "1 carte", "2 cartes",
    ]


# --------------------------------------------------------------------------- extraction


def test_extraction_finds_calls_inside_f_strings() -> None:
    source = b"""
header = f"<h4>{escape(t.gettext('Game log'))}</h4>"
# TRANSLATORS: a button
label = f'<b>{t.pgettext("button", "Play")}</b> {t.ngettext("{n} card", "{n} cards", n)}'
plain = t.gettext("Plain text")
both = t.gettext("Twice") + f"{t.gettext('Twice')}"
not_a_call = f"{gettext}"
"""
    found = [
        (lineno, message, context, comments)
        for lineno, message, comments, context in extract(
            extract_python_with_fstrings, BytesIO(source), KEYWORDS, COMMENT_TAGS, strip_comment_tags=True
        )
    ]
    assert found == [
        (2, "Game log", None, []),
        (4, "Play", "button", ["a button"]),
        (4, ("{n} card", "{n} cards"), None, ["a button"]),
        (5, "Plain text", None, []),
        (6, "Twice", None, []),  # once: Python 3.12's tokenizer lets Babel see it too
    ]
