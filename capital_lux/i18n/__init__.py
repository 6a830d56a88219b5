"""Translations of every user-facing text: English, French, Spanish, Portuguese.

Standard gettext, driven by Babel. English is the source language: the English
text *is* the msgid. The catalogues are the committed ``.po`` files
``capital_lux/i18n/locale/<lang>/LC_MESSAGES/capital_lux.po`` (fr, es, pt),
made from the template ``capital_lux/i18n/capital_lux.pot``. No ``.mo`` file
is committed: the first time a language is asked for, its ``.po`` is read with
``babel.messages.pofile.read_po``, compiled in memory with
``babel.messages.mofile.write_mo`` and loaded as a ``gettext.GNUTranslations``
(cached per language; ``reload_catalogues()`` drops the cache). Fuzzy entries
are not used: they show in English until a translator checks them.

Writing a translatable text
---------------------------
::

    from capital_lux.i18n import translator, default_language

    t = translator(lang)                      # or translator(default_language())
    t.gettext("{player} plays {card} into the Capital.").format(player=name, card=card)
    t.ngettext("{n} card left", "{n} cards left", n).format(n=n)
    t.pgettext("button", "Play")              # same English, different meaning

Conventions:

* The msgid is a string *literal* written directly in the call (``t.gettext``,
  ``t._``, ``t.ngettext``, ``t.pgettext``, ``t.npgettext``): extraction reads the
  source, so never build it with an f-string, ``%`` or concatenation.
* Variable parts are named ``str.format`` placeholders, ``{player}``, filled
  *after* translation with ``.format(...)``. Never positional ``{}`` / ``{0}``:
  translators may need to reorder them. (``%(name)s`` is tolerated and checked
  the same way, but ``{name}`` is the project's style.)
* Plurals: the singular and plural msgids carry the same placeholders, count
  included (``"{n} gold disc"`` / ``"{n} gold discs"``); languages choose the form
  (French uses the singular for 0 and 1).
* Whole sentences, not fragments glued together; write ``# TRANSLATORS: ...`` on
  the line above the call to explain an ambiguous text.
* Game vocabulary is never retranslated in a sentence's own msgid: insert it
  with ``t.term("Hometown")``, ``t.term("gold disc", n)``, ``t.colour("B")`` /
  ``colour_name("B", lang)`` and ``t.role("B")`` / ``role_name("B", lang)``.
  The glossary (``capital_lux/i18n/glossary.py``) holds each rulebook's words.

After adding or changing texts, regenerate the template and merge it into the
three catalogues, then translate the new (empty or fuzzy) entries::

    python -m capital_lux.i18n.extract           # writes the .pot, updates the .po files
    python -m capital_lux.i18n.extract --check   # fails if stale or untranslated

``tests/test_i18n.py`` fails while a text is missing from a catalogue, while a
placeholder differs between msgid and translation, or while the template is out
of date with the source.
"""

from __future__ import annotations

import functools
import gettext as _gettext
import os
from importlib import resources
from importlib.resources.abc import Traversable
from io import BytesIO
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, Mapping

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

if TYPE_CHECKING:
    from ..engine.cards import CapitalLuxError

from ..engine.errors import UsageError
from .formatting import (BABEL_LOCALES, babel_locale, format_chance, format_exact, format_interval, format_list,
                         format_number, format_percent, format_range)
from .glossary import (
    COLOUR_LETTERS,
    COLOUR_TERMS,
    GLOSSARY,
    ROLE_TERMS,
    TERM_CONTEXT,
    Term,
    check_colour,
)

__all__ = [
    "BABEL_LOCALES",
    "COLOUR_LETTERS",
    "DOMAIN",
    "GLOSSARY",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "SOURCE_LANGUAGE",
    "TERM_CONTEXT",
    "Term",
    "Translator",
    "babel_locale",
    "catalogue_resource",
    "colour_name",
    "default_language",
    "format_chance",
    "format_exact",
    "format_interval",
    "format_number",
    "format_percent",
    "format_list",
    "format_range",
    "load_catalogue",
    "load_template",
    "missing_translations",
    "normalize_language",
    "reload_catalogues",
    "role_name",
    "template_resource",
    "translator",
]

#: gettext domain: the catalogues are ``capital_lux.po``.
DOMAIN: Final = "capital_lux"
#: The language of the msgids.
SOURCE_LANGUAGE: Final = "en"
#: Supported languages, source language first: the codes users type (``?lang=pt``,
#: ``--lang pt``). The Portuguese catalogue is Brazilian (``pt_BR``, like the rulebook):
#: ``BABEL_LOCALES`` maps each code to the locale of its catalogue and numbers.
LANGUAGES: Final[tuple[str, ...]] = ("en", "fr", "es", "pt")
#: Each language's name written in that language (for a language picker).
LANGUAGE_NAMES: Final[Mapping[str, str]] = MappingProxyType(
    {"en": "English", "fr": "Français", "es": "Español", "pt": "Português"}
)

#: Environment variables consulted by ``default_language``, in gettext's order.
_LOCALE_VARIABLES: Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def _unsupported(lang: object) -> ValueError:
    return ValueError(
        f"unsupported language {lang!r}; supported languages: {', '.join(LANGUAGES)}"
    )


def normalize_language(value: str) -> str | None:
    """The supported language code for a code or locale name, else ``None``.

    ``"fr"``, ``"FR"``, ``"fr_FR.UTF-8"``, ``"pt-BR"`` and ``"es_ES@euro"`` all
    give their language; ``"de_DE"``, ``"C"`` and ``""`` give ``None``.
    """
    base = value.strip().split(".", 1)[0].split("@", 1)[0]
    base = base.replace("-", "_").split("_", 1)[0].lower()
    return base if base in LANGUAGES else None


def _check_language(lang: str) -> str:
    code = normalize_language(lang) if isinstance(lang, str) else None
    if code is None:
        raise _unsupported(lang)
    return code


def default_language() -> str:
    """The user's language from the environment, like gettext; ``"en"`` otherwise.

    The first non-empty variable of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` and
    ``LANG`` decides; ``LANGUAGE`` may list several (``"de:fr"``), the first
    supported one wins. A locale we do not support (``C``, ``de_DE``) gives English.
    """
    for variable in _LOCALE_VARIABLES:
        value = os.environ.get(variable, "")
        if value:
            for entry in value.split(":"):
                code = normalize_language(entry)
                if code is not None:
                    return code
            break
    return SOURCE_LANGUAGE


# --------------------------------------------------------------------------- catalogues


def template_resource() -> Traversable:
    """The committed template ``capital_lux.pot``."""
    return resources.files(__name__).joinpath(f"{DOMAIN}.pot")


def catalogue_resource(lang: str) -> Traversable:
    """The committed ``.po`` catalogue of a translated language."""
    code = _check_language(lang)
    if code == SOURCE_LANGUAGE:
        raise UsageError(f"{SOURCE_LANGUAGE!r} is the source language and has no catalogue")
    return resources.files(__name__).joinpath("locale", code, "LC_MESSAGES", f"{DOMAIN}.po")


def load_template() -> Catalog:
    """Read the template (a fresh ``Catalog`` each call)."""
    with template_resource().open("rb") as stream:
        return read_po(stream, domain=DOMAIN, abort_invalid=True)


def load_catalogue(lang: str) -> Catalog:
    """Read a language's ``.po`` catalogue (a fresh ``Catalog`` each call)."""
    resource = catalogue_resource(lang)
    with resource.open("rb") as stream:
        return read_po(stream, locale=babel_locale(_check_language(lang)), domain=DOMAIN, abort_invalid=True)


@functools.cache
def _translations(lang: str) -> _gettext.NullTranslations:
    if lang == SOURCE_LANGUAGE:
        return _gettext.NullTranslations()
    buffer = BytesIO()
    write_mo(buffer, load_catalogue(lang), use_fuzzy=False)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


def reload_catalogues() -> None:
    """Forget the loaded catalogues (after editing a ``.po`` file in a session)."""
    _translations.cache_clear()
    _translator.cache_clear()


# --------------------------------------------------------------------------- translator


class Translator:
    """The texts of one language. Get one with ``translator(lang)``."""

    __slots__ = ("_lang", "_translations")

    def __init__(self, lang: str, translations: _gettext.NullTranslations) -> None:
        self._lang = lang
        self._translations = translations

    @property
    def lang(self) -> str:
        """Language code, one of ``LANGUAGES``."""
        return self._lang

    @property
    def language_name(self) -> str:
        """The language's name in itself (``"Français"``)."""
        return LANGUAGE_NAMES[self._lang]

    def gettext(self, message: str) -> str:
        """Translate ``message`` (English text, the msgid)."""
        return self._translations.gettext(message)

    #: Short alias: ``t._("...")``.
    _ = gettext

    def refusal(self, error: CapitalLuxError) -> str:
        """A refusal (any ``CapitalLuxError``) in the reader's language, numbers in their locale."""
        return error.translated(self.gettext, lambda n: format_number(n, self._lang))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """Translate a text whose form depends on the count ``n``."""
        return self._translations.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """Translate ``message`` in a message context (same English, other meaning)."""
        return self._translations.pgettext(context, message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        """``ngettext`` in a message context."""
        return self._translations.npgettext(context, singular, plural, n)

    def term(self, key: str, n: int | None = None) -> str:
        """A glossary term in this language: ``term("Hometown")``, ``term("gold disc", 3)``.

        ``key`` is the English singular; ``n`` picks the plural form of terms that
        have one (singular when omitted). Unknown keys raise ``KeyError``.
        """
        try:
            entry = GLOSSARY[key]
        except KeyError:
            raise KeyError(f"{key!r} is not a glossary term; known terms: {', '.join(GLOSSARY)}") from None
        if entry.plural is not None:
            return self.npgettext(TERM_CONTEXT, entry.key, entry.plural, 1 if n is None else n)
        return self.pgettext(TERM_CONTEXT, entry.key)

    def colour(self, letter: str) -> str:
        """Name of the colour ``B``, ``G``, ``P`` or ``Y`` (a noun: "blue")."""
        return self.term(COLOUR_TERMS[check_colour(letter)])

    def role(self, letter: str) -> str:
        """Role of the colour ``B``, ``G``, ``P`` or ``Y`` ("Agent" for blue)."""
        return self.term(ROLE_TERMS[check_colour(letter)])

    def __repr__(self) -> str:
        return f"Translator({self._lang!r})"


@functools.cache
def _translator(code: str) -> Translator:
    return Translator(code, _translations(code))


def translator(lang: str) -> Translator:
    """The ``Translator`` of ``lang`` (``"fr"``; ``"fr_FR.UTF-8"`` is accepted too).

    Raises ``ValueError`` naming the language and the supported ones otherwise.
    """
    return _translator(_check_language(lang))


def colour_name(colour_letter: str, lang: str) -> str:
    """Name of a colour in a language: ``colour_name("B", "fr") == "bleu"``."""
    return translator(lang).colour(colour_letter)


def role_name(colour_letter: str, lang: str) -> str:
    """Role of a colour in a language: ``role_name("G", "es") == "Erudito"``."""
    return translator(lang).role(colour_letter)


# --------------------------------------------------------------------------- checks


def _message_ids(message: Message) -> tuple[str, ...]:
    """(msgid,) or (msgid, msgid_plural)."""
    return (message.id,) if isinstance(message.id, str) else tuple(message.id)


def _message_strings(message: Message) -> tuple[str, ...]:
    """The translation's forms: one, or one per plural form (``None`` reads as empty)."""
    value = message.string
    if value is None:
        return ("",)
    return (value,) if isinstance(value, str) else tuple(value)


def _label(context: str | None, msgid: str) -> str:
    return f"[{context}] {msgid}" if context else msgid


def missing_translations(lang: str) -> list[str]:
    """Template texts that ``lang`` does not translate yet, in template order.

    A text is missing when its catalogue entry is absent, fuzzy, has an empty
    form, or disagrees with the template about being a plural. Entries with a
    context are listed as ``"[context] msgid"``. English, the source, misses none.
    """
    code = _check_language(lang)
    if code == SOURCE_LANGUAGE:
        return []
    catalogue = load_catalogue(code)
    missing: list[str] = []
    for message in load_template():
        if not message.id:  # the header
            continue
        msgid = _message_ids(message)[0]
        entry = catalogue.get(msgid, message.context)
        forms = _message_strings(entry) if entry is not None else ()
        if (
            entry is None
            or entry.fuzzy
            or entry.pluralizable != message.pluralizable
            or not forms
            or not all(forms)
            or (entry.pluralizable and len(forms) != catalogue.num_plurals)
        ):
            missing.append(_label(message.context, msgid))
    return missing
