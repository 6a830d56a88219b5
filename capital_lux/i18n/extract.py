"""Regenerate the message template from the source and merge it into the catalogues.

Run from the repository root (or anywhere the package is importable)::

    python -m capital_lux.i18n.extract           # write capital_lux.pot, update fr/es/pt .po
    python -m capital_lux.i18n.extract --check   # change nothing; exit 1 if the template
                                                 # is stale or a language misses texts

This is ``pybabel extract`` + ``pybabel update`` through Babel's Python API,
with the project's settings: every ``**.py`` under ``capital_lux/``, the
standard gettext keywords (``gettext``, ``_``, ``ngettext``, ``pgettext``,
``npgettext``; method calls such as ``t.gettext(...)`` count) plus the glossary
markers ``pgettext_noop`` and ``npgettext_noop``, ``# TRANSLATORS:`` comments,
and locations without line numbers (so moving code does not touch the
catalogues). Calls written inside f-strings (``f"<b>{t.gettext('Game log')}</b>"``)
are found too: Babel's tokenizer does not look into f-strings before Python
3.12, so ``extract_python_with_fstrings`` adds them from the syntax tree. The
pybabel spelling of the same extraction would be::

    pybabel extract -k pgettext_noop:1c,2 -k npgettext_noop:1c,2,3 \\
        -c TRANSLATORS: --no-wrap -o capital_lux/i18n/capital_lux.pot capital_lux

Updating keeps existing translations, adds new texts untranslated (or fuzzy,
when a similar old text existed: check them and remove the ``fuzzy`` flag),
and drops texts that left the source. Plural-Forms headers are kept as written.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from datetime import datetime, timezone
from io import BytesIO
from pathlib import Path
from typing import IO, Final, TypeAlias, Union, cast

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_python
from babel.messages.pofile import read_po, write_po

from . import (
    DOMAIN,
    babel_locale,
    LANGUAGES,
    SOURCE_LANGUAGE,
    _message_ids,
    missing_translations,
    reload_catalogues,
)

#: The i18n package directory (holds the template and ``locale/``).
I18N_DIR: Final = Path(__file__).resolve().parent
#: The ``capital_lux`` package directory, the extraction root.
PACKAGE_DIR: Final = I18N_DIR.parent
TEMPLATE_PATH: Final = I18N_DIR / f"{DOMAIN}.pot"
#: Languages that have a catalogue (all but the source language).
TRANSLATED_LANGUAGES: Final[tuple[str, ...]] = tuple(
    lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE
)

KEYWORDS: Final = {
    **DEFAULT_KEYWORDS,
    "pgettext_noop": ((1, "c"), 2),
    "npgettext_noop": ((1, "c"), 2, 3),
}
COMMENT_TAGS: Final = ("TRANSLATORS:",)

#: Which arguments of a keyword's call are messages, as Babel describes them (its own alias,
#: ``_Keyword``, exists only for its type checking).
SimpleKeyword: TypeAlias = Union[tuple[Union[int, tuple[int, int], tuple[int, str]], ...], None]
Keyword: TypeAlias = Union[dict[Union[int, None], SimpleKeyword], SimpleKeyword]
#: What one translation call gives: its message, or its messages (a plural, a context), None
#: for an argument that is not a literal string.
Messages: TypeAlias = Union[str, None, tuple[Union[str, None], ...]]
#: A call found: (line, function name, messages, translators' comments).
Found: TypeAlias = tuple[int, str, Messages, list[str]]


def _call_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _translator_comments(lines: list[str], lineno: int, tags: Collection[str]) -> list[str]:
    """The ``# TRANSLATORS:`` comment block right above line ``lineno`` (1-based)."""
    block: list[str] = []
    index = lineno - 2
    while index >= 0 and lines[index].strip().startswith("#"):
        block.insert(0, lines[index].strip()[1:].strip())
        index -= 1
    for start, text in enumerate(block):
        if any(text.startswith(tag) for tag in tags):
            return block[start:]
    return []


def extract_python_with_fstrings(
    fileobj: IO[bytes],
    keywords: Mapping[str, Keyword],
    comment_tags: Collection[str],
    options: Mapping[str, object],
) -> Iterator[Found]:
    """Babel's Python extractor, plus the translation calls written inside f-strings.

    Before Python 3.12 an f-string is a single token to Babel, so
    ``f"<h4>{t.gettext('Game log')}</h4>"`` would be missed; those calls are read
    from the syntax tree instead (once each, in line order with the others).
    """
    data = fileobj.read()
    encoding = options.get("encoding")  # the one option Babel's Python extractor reads
    # Babel annotates an extractor's results as (line, messages, comments, context); its own
    # extractors give, and its reader takes, (line, function name, messages, comments).
    babel_results = cast(Iterable[Found], extract_python(
        BytesIO(data), keywords, comment_tags, {"encoding": encoding} if isinstance(encoding, str) else {}))
    found: list[Found] = [
        (lineno, str(name), messages, list(comments)) for lineno, name, messages, comments in babel_results
    ]
    seen: set[tuple[int, str, tuple[str | None, ...]]] = {
        (lineno, name, messages if isinstance(messages, tuple) else (messages,))
        for lineno, name, messages, _ in found
    }
    try:
        tree = ast.parse(data)
    except SyntaxError:
        tree = None
    if tree is not None:
        lines = data.decode(str(options.get("encoding", "utf-8"))).splitlines()
        inside: set[int] = set()
        for node in ast.walk(tree):
            if not isinstance(node, ast.JoinedStr):
                continue
            for call in ast.walk(node):
                if not isinstance(call, ast.Call) or id(call) in inside:
                    continue
                inside.add(id(call))
                name = _call_name(call)
                if name is None or name not in keywords:
                    continue
                messages = tuple(
                    arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None
                    for arg in call.args
                )
                if not messages or (call.lineno, name, messages) in seen:
                    continue
                seen.add((call.lineno, name, messages))
                value = messages if len(messages) > 1 else messages[0]
                found.append((call.lineno, name, value, _translator_comments(lines, call.lineno, comment_tags)))
    found.sort(key=lambda result: result[0])
    yield from found


#: The extraction method of every Python file, named as Babel imports it ("module:function").
METHOD_MAP: Final[list[tuple[str, str]]] = [("**.py", f"{__name__}:{extract_python_with_fstrings.__name__}")]

_HEADER_COMMENT: Final = """\
# Message template of the Capital Lux rules engine and tutor.
# English is the source language; the texts are the msgids.
# Generated by: python -m capital_lux.i18n.extract (do not edit by hand)
#"""

_WRITE_OPTIONS: Final = {"width": 76, "include_lineno": False, "ignore_obsolete": True}


def catalogue_path(lang: str) -> Path:
    """Path of a translated language's ``.po`` file in the source tree."""
    return I18N_DIR / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def extract_template(creation_date: datetime | None = None) -> Catalog:
    """Extract every translatable text of ``capital_lux/`` into a new template."""
    template = Catalog(
        project="capital_lux",
        version="1",
        copyright_holder="the Capital Lux project contributors",
        domain=DOMAIN,
        header_comment=_HEADER_COMMENT,
        creation_date=creation_date,
        fuzzy=False,
        charset="utf-8",
    )
    root = PACKAGE_DIR.name
    for filename, lineno, message, comments, context in extract_from_dir(
        str(PACKAGE_DIR),
        method_map=METHOD_MAP,
        keywords=KEYWORDS,
        comment_tags=COMMENT_TAGS,
        strip_comment_tags=True,
    ):
        location = (f"{root}/{Path(filename).as_posix()}", lineno)
        template.add(message, None, [location], auto_comments=comments, context=context)
    return template


def _render(catalog: Catalog) -> bytes:
    buffer = BytesIO()
    write_po(buffer, catalog, **_WRITE_OPTIONS)  # type: ignore[arg-type]
    return buffer.getvalue()


def _keys(catalog: Catalog) -> set[tuple[str | None, str, str | None]]:
    """(context, msgid, plural msgid) of every message but the header."""
    keys: set[tuple[str | None, str, str | None]] = set()
    for message in catalog:
        if not message.id:
            continue
        ids = _message_ids(message)
        keys.add((message.context, ids[0], ids[1] if len(ids) > 1 else None))
    return keys


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as stream:
        return read_po(stream, locale=locale, domain=DOMAIN, abort_invalid=True)


def template_differences() -> list[str]:
    """Texts in the source but not the committed template (``+``) and the reverse (``-``)."""
    source = _keys(extract_template())
    committed = _keys(_read(TEMPLATE_PATH)) if TEMPLATE_PATH.exists() else set()

    def show(key: tuple[str | None, str, str | None]) -> str:
        context, msgid, _plural = key
        return f"[{context}] {msgid}" if context else msgid

    added = sorted(source - committed, key=show)
    removed = sorted(committed - source, key=show)
    return [f"+ {show(key)}" for key in added] + [f"- {show(key)}" for key in removed]


def write_template() -> tuple[Catalog, bool]:
    """Write the template if its content changed; return it and whether it was written.

    The creation date is only renewed when something else changed, so an
    unchanged source leaves the file byte for byte as it was.
    """
    previous = _read(TEMPLATE_PATH) if TEMPLATE_PATH.exists() else None
    if previous is not None and isinstance(previous.creation_date, datetime):
        candidate = extract_template(creation_date=previous.creation_date)
        if TEMPLATE_PATH.read_bytes() == _render(candidate):
            return candidate, False
    template = extract_template(creation_date=datetime.now(timezone.utc))
    TEMPLATE_PATH.write_bytes(_render(template))
    return template, True


def update_catalogue(lang: str, template: Catalog) -> bool:
    """Merge ``template`` into ``lang``'s ``.po`` file; return whether it changed."""
    path = catalogue_path(lang)
    before = path.read_bytes()
    catalogue = _read(path, locale=babel_locale(lang))
    catalogue.update(template, update_creation_date=True)
    after = BytesIO()
    write_po(after, catalogue, include_previous=True, **_WRITE_OPTIONS)  # type: ignore[arg-type]
    if after.getvalue() == before:
        return False
    path.write_bytes(after.getvalue())
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: regenerate and update, or ``--check`` only."""
    parser = argparse.ArgumentParser(
        prog="python -m capital_lux.i18n.extract",
        description="Regenerate capital_lux.pot from the source and update the catalogues.",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="change nothing; exit 1 if the template is stale or texts are untranslated",
    )
    args = parser.parse_args(argv)
    status = 0
    if args.check:
        differences = template_differences()
        if differences:
            status = 1
            _print(
                ["template out of date (run python -m capital_lux.i18n.extract):", *differences]
            )
    else:
        template, written = write_template()
        _print([f"{TEMPLATE_PATH.relative_to(PACKAGE_DIR.parent)}: "
                f"{len(_keys(template))} texts{' (written)' if written else ' (unchanged)'}"])
        for lang in TRANSLATED_LANGUAGES:
            changed = update_catalogue(lang, template)
            _print([f"{catalogue_path(lang).relative_to(PACKAGE_DIR.parent)}: "
                    f"{'updated' if changed else 'unchanged'}"])
        reload_catalogues()
    for lang in TRANSLATED_LANGUAGES:
        missing = missing_translations(lang)
        if missing:
            status = 1 if args.check else status
            _print([f"{lang}: {len(missing)} untranslated or fuzzy:", *(f"  {m}" for m in missing)])
    return status


def _print(lines: Iterable[str]) -> None:
    for line in lines:
        print(line, file=sys.stdout)


if __name__ == "__main__":
    raise SystemExit(main())
