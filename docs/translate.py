"""The translated guides' catalogues, kept in step with their English pages (``make docs-po``).

    python docs/translate.py           # extract the guides' texts, merge them into docs/locale/<lang>
    python docs/translate.py --check   # change nothing; list what is stale, untranslated or fuzzy

Sphinx's gettext builder writes one template per page (``docs/_build/gettext/<page>.pot``);
Babel, as for the package's catalogues (``capital_lux.i18n.extract``), merges each translated
page's template into ``docs/locale/<lang>/LC_MESSAGES/<page>.po``: translations kept, new texts
added untranslated, texts that left the page dropped. Sphinx compiles the ``.po`` files itself
when it builds in that language (``sphinx-build -D language=fr``).
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

DOCS = Path(__file__).resolve().parent
#: The pages translated, and into which languages: the learner's and the teacher's guides.
PAGES = ("learner", "teacher")
LANGUAGES = ("fr",)


def templates(out: Path) -> dict[str, Catalog]:
    """Each translated page's template, from Sphinx's gettext builder."""
    # Only pages are read, not the API reference: its docstrings are not translated, and
    # importing every module for it would be most of the time.
    skip = "exclude_patterns=_build,notes,locale,README.md,api.md,api"
    done = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "gettext", "-D", skip, str(DOCS), str(out)],
                          capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"sphinx-build -b gettext failed:\n{done.stderr}")
    found = {}
    for page in PAGES:
        with open(out / f"{page}.pot", "rb") as f:
            found[page] = read_po(f)
    return found


def catalogue_path(lang: str, page: str) -> Path:
    return DOCS / "locale" / lang / "LC_MESSAGES" / f"{page}.po"


def problems(template: Catalog, catalogue: Catalog) -> list[str]:
    """What keeps ``catalogue`` from translating every text of ``template``."""
    said = []
    for message in template:
        if not message.id:
            continue
        theirs = catalogue.get(message.id)
        if theirs is None:
            said.append(f"missing: {message.id[:70]!r}")
        elif theirs.fuzzy or not theirs.string:
            said.append(f"{'fuzzy' if theirs.fuzzy else 'untranslated'}: {message.id[:70]!r}")
    return said


def check(found: dict[str, Catalog]) -> list[str]:
    said = []
    for lang in LANGUAGES:
        for page, template in found.items():
            path = catalogue_path(lang, page)
            if not path.exists():
                said.append(f"{path}: missing")
                continue
            with open(path, "rb") as f:
                said += [f"{path.relative_to(DOCS.parent)}: {p}" for p in problems(template, read_po(f, locale=lang))]
    return said


def merge(found: dict[str, Catalog]) -> None:
    for lang in LANGUAGES:
        for page, template in found.items():
            path = catalogue_path(lang, page)
            if path.exists():
                with open(path, "rb") as f:
                    catalogue = read_po(f, locale=lang)
            else:
                catalogue = Catalog(locale=lang, project="Capital Lux Tutor", version="0.1.0",
                                    copyright_holder="the Capital Lux Tutor project", fuzzy=False)
            catalogue.update(template, no_fuzzy_matching=False)
            path.parent.mkdir(parents=True, exist_ok=True)
            written = io.BytesIO()
            write_po(written, catalogue, width=0, omit_header=False, ignore_obsolete=True)
            if not path.exists() or undated(path.read_bytes()) != undated(written.getvalue()):
                path.write_bytes(written.getvalue())  # only a change of a text: no diff of a date alone


def undated(po: bytes) -> bytes:
    """A catalogue without its template's creation date, which every extraction renews."""
    return re.sub(rb'"POT-Creation-Date: [^"]*"', b"", po)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a catalogue is behind")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as out:
        found = templates(Path(out))
    if not args.check:
        merge(found)
    said = check(found)
    for line in said:
        print(line)
    return 1 if said else 0


if __name__ == "__main__":
    sys.exit(main())
