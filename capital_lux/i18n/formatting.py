"""Every number and percentage a user reads, in the reader's locale, through Babel.

One way to write numbers for the whole package: the tutor, the exercises, the
what-if explorer, the charts, the simulate summary and the terminal call these
functions, never ``f"{x:.1f}"`` or ``f"{p:.0%}"``. A French reader sees
``0,6854`` and ``12 %`` (with the non-breaking space Babel's French pattern
carries); a Brazilian one ``0,6854`` and ``12%``.

>>> format_number(0.68544, "fr", 4)
'0,6854'
>>> format_percent(0.123, "fr")
'12\\xa0%'
>>> format_interval(9.43, 8.06, 10.72, "es", digits=1)
'9,4 [8,1–10,7]'
>>> format_interval(0.123, 0.08, 0.151, "en", percent=True)
'12% [8–15]'
"""

from __future__ import annotations

import functools
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import Final, Mapping, Union

from babel import Locale
from babel.lists import format_list as _babel_list
from babel.numbers import format_decimal, format_percent as _babel_percent, get_decimal_symbol

__all__ = ["BABEL_LOCALES", "babel_locale", "format_chance", "format_exact", "format_interval", "format_list",
           "format_number", "format_percent", "format_range", "spreadsheet_delimiter"]

#: The Babel locale of each language code users type: the Portuguese texts follow the
#: Brazilian rulebook, so numbers follow Brazil's conventions too.
BABEL_LOCALES: Final[Mapping[str, str]] = {"en": "en", "fr": "fr", "es": "es", "pt": "pt_BR"}

Number = Union[int, float, Fraction, Decimal]


def babel_locale(lang: str) -> str:
    """Babel's locale for a language code (``"pt"`` → ``"pt_BR"``); other codes pass through."""
    return BABEL_LOCALES.get(lang, lang)


def _decimal(value: Number, digits: int) -> Decimal:
    # Decimal from the exact value (a Fraction keeps its exactness until the last digit)
    exact = Decimal(value.numerator) / Decimal(value.denominator) if isinstance(value, Fraction) else Decimal(
        str(value))
    return exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN)


@functools.cache
def _pattern(locale: str, kind: str, digits: int, trim: bool = False) -> str:
    """The locale's own pattern with ``digits`` decimals (keeps French's "12 %");
    ``trim`` makes them optional (no trailing zero)."""
    loc = Locale.parse(locale)
    base: str = (loc.percent_formats if kind == "percent" else loc.decimal_formats)[None].pattern
    integer = base.split(";")[0]
    head, zero, tail = integer.rpartition("0")
    if not zero:  # no digit placeholder: keep the locale's pattern as it is
        return integer
    tail = tail.lstrip(".#0")
    return f"{head}0" + ("." + ("#" if trim else "0") * digits if digits else "") + tail


def format_number(value: Number, lang: str, digits: int | None = None, *, trim: bool = False) -> str:
    """``value`` in ``lang``'s locale: ``digits`` fixed decimals (``trim``: at most ``digits``),
    or (``None``) up to three.

    >>> format_number(0.005, "fr"), format_number(2, "pt"), format_number(1234.5, "en", 1)
    ('0,005', '2', '1,234.5')
    >>> format_number(0.68543, "fr", 4, trim=True), format_number(0.5, "en", 4, trim=True)
    ('0,6854', '0.5')
    """
    locale = babel_locale(lang)
    if digits is None:
        return str(format_decimal(_decimal(value, 3), locale=locale))
    return str(format_decimal(_decimal(value, digits), format=_pattern(locale, "decimal", digits, trim),
                              locale=locale, decimal_quantization=True))


def format_percent(p: Number, lang: str, digits: int = 0, *, trim: bool = False) -> str:
    """A probability (0..1) as a percentage with ``digits`` decimals, in ``lang``'s pattern;
    ``trim`` drops trailing zeros (``75 %`` but ``12,5 %``).

    >>> format_percent(0.125, "en", 1), format_percent(Fraction(1, 3), "es")
    ('12.5%', '33\\xa0%')
    >>> format_percent(0.75, "fr", 1, trim=True), format_percent(0.125, "fr", 1, trim=True)
    ('75\\xa0%', '12,5\\xa0%')
    """
    locale = babel_locale(lang)
    value = _decimal(p, digits + 2)
    return str(_babel_percent(value, format=_pattern(locale, "percent", digits, trim), locale=locale,
                              decimal_quantization=True))


def format_chance(p: Number, lang: str) -> str:
    """A chance as the charts and the risk panel write it: a percentage with at most one decimal.

    >>> format_chance(0.75, "fr"), format_chance(Fraction(1, 8), "en")
    ('75\xa0%', '12.5%')
    """
    return format_percent(p, lang, 1, trim=True)


def format_exact(value: Number, lang: str, *, percent: bool = False) -> str:
    """An exact value with its fraction when it is not whole: ``1/3 ≈ 33.3%`` (``percent``) or
    ``10/3 ≈ 3,333``; any other value as a chance or a number of at most three decimals.

    >>> format_exact(Fraction(1, 3), "en", percent=True), format_exact(Fraction(10, 3), "fr")
    ('1/3 ≈ 33.3%', '10/3 ≈ 3,333')
    >>> format_exact(0.5, "en", percent=True), format_exact(Fraction(2), "en")
    ('50%', '2')
    """
    text = format_chance(value, lang) if percent else format_number(value, lang, 3, trim=True)
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{value.numerator}/{value.denominator} ≈ {text}"
    return text


def format_interval(mean: Number, low: Number, high: Number, lang: str, *, percent: bool = False,
                    digits: int | None = None) -> str:
    """An estimate with its interval: ``9,4 [8,1–10,7]``, or ``12 % [8–15]`` for a percentage
    (the sign once, after the estimate). ``digits`` defaults to 0 for percentages, 1 otherwise."""
    d = (0 if percent else 1) if digits is None else digits
    shown = format_percent(mean, lang, d) if percent else format_number(mean, lang, d)
    return f"{shown} [{format_range(low, high, lang, percent=percent, digits=d)}]"


def format_range(low: Number, high: Number, lang: str, *, percent: bool = False, digits: int | None = None) -> str:
    """An interval's bounds, ``8–15`` (percentage points when ``percent``, no sign: the
    estimate beside it carries it).

    >>> format_range(0.081, 0.1072, "fr", percent=True, digits=1)
    '8,1–10,7'
    """
    d = (0 if percent else 1) if digits is None else digits
    if percent:
        low, high = _decimal(low, d + 2) * 100, _decimal(high, d + 2) * 100
    return f"{format_number(low, lang, d)}–{format_number(high, lang, d)}"


def format_list(items: list[str], lang: str) -> str:
    """``A, B and C`` in the reader's language (``A, B et C``, ``A, B y C``, ``A, B e C``).

    >>> format_list(["A", "B", "C"], "fr")
    'A, B et C'
    """
    return str(_babel_list(items, locale=babel_locale(lang)))  # str(): mypyc builds without babel


def spreadsheet_delimiter(lang: str) -> str:
    """The column separator a spreadsheet set to ``lang``'s locale reads from a CSV file: ``;``
    where the decimal separator is a comma (a French spreadsheet reads a comma-separated file
    as one column), else ``,``.

    >>> spreadsheet_delimiter("en"), spreadsheet_delimiter("fr"), spreadsheet_delimiter("pt")
    (',', ';', ';')
    """
    return ";" if get_decimal_symbol(babel_locale(lang)) == "," else ","
