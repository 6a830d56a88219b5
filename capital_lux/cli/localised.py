"""The command line in the reader's language: argparse's own texts and the system's file errors.

argparse writes its own texts ("usage:", "options", "show this help message and exit",
"invalid choice: 5 (choose from 2, 3, 4)", "the following arguments are required: …")
through the module-level ``_`` and ``ngettext`` it imports from ``gettext``, as Python's
argparse how-to ("How to translate the argparse output") describes; Python ships no
catalogue for them, and gettext's own lookup wants compiled ``.mo`` files on disk under one
process-wide domain. ``LocalisedParser`` gives argparse the project's translator instead,
only while one of its own methods runs (building the parser, parsing, formatting usage and
help, reporting an error) and puts argparse's functions back afterwards: every text
argparse writes, in messages a subclass could not reach without copying argparse's code
(errors raised deep in ``parse_known_args``), comes from our catalogues, and nothing else
in the process sees a change. argparse's texts are listed in ``ARGPARSE_TEXTS`` so the
extraction puts them in the catalogues (an unknown text stays English, never breaks).

``file_error`` says why a file could not be read or written in the reader's language,
instead of the system's English ``strerror`` ("Is a directory").
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from contextlib import contextmanager
from typing import Any, Callable, Final, Iterator, NoReturn, Sequence

from ..engine.cards import N_
from ..i18n import Translator, default_language, translator

#: The help's section headings, which argparse writes as its title and a colon of its own: replaced
#: whole, colon included, so French gets its no-break space before it.
HEADINGS: Final = {"positional arguments:": N_("positional arguments:"), "options:": N_("options:")}

#: argparse's own texts a user of the command line can meet (Python 3.10-3.13), for extraction.
ARGPARSE_TEXTS: Final = (
    # TRANSLATORS: argparse's own texts: keep each %(name)s, %s and %r, and the trailing space of "usage: ".
    N_("usage: "),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
)


@contextmanager
def _speaking(t: Translator) -> Iterator[None]:
    """argparse's ``_`` and ``ngettext`` are ``t``'s while the block runs, then argparse's again
    (an argparse without them stays English rather than failing: the tests would say so)."""
    ours = {"_": t.gettext, "ngettext": t.ngettext}
    saved = {name: argparse.__dict__[name] for name in ours if name in argparse.__dict__}
    for name in saved:
        setattr(argparse, name, ours[name])
    try:
        yield
    finally:
        for name, function in saved.items():
            setattr(argparse, name, function)


class LocalisedParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` that writes argparse's own texts in ``translator``'s language
    (the environment's by default). Give each subcommand the same ``translator``."""

    def __init__(self, *args: Any, translator: Translator | None = None, **kwargs: Any) -> None:
        self.t = translator or _default_translator()
        with _speaking(self.t):  # the groups' titles and -h's help are made here
            super().__init__(*args, **kwargs)

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        with _speaking(self.t):
            return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        with _speaking(self.t):
            return super().format_usage()

    def format_help(self) -> str:
        with _speaking(self.t):
            text = super().format_help()
        return "\n".join(self.t.gettext(HEADINGS[line]) if line in HEADINGS else line for line in text.split("\n"))

    def error(self, message: str) -> NoReturn:
        """The usage, then "prog: error: message" (a usage error exits with status 2)."""
        with _speaking(self.t):
            self.print_usage(sys.stderr)
        self.exit(2, self.t.gettext("{prog}: error: {message}").format(prog=self.prog, message=message) + "\n")


def _default_translator() -> Translator:
    return translator(default_language())


def whole_number(t: Translator, minimum: int | None = None) -> Callable[[str], int]:
    """An argparse ``type``: a whole number (at least ``minimum``), refused in ``t``'s language."""

    def read(text: str) -> int:
        shown = text if len(text) <= 20 else text[:20] + "…"
        try:
            value = int(text)
        except ValueError:  # also the interpreter's limit on huge numbers
            raise argparse.ArgumentTypeError(t.gettext("{text} is not a whole number").format(text=repr(shown))) \
                from None
        if minimum is not None and value < minimum:
            raise argparse.ArgumentTypeError(t.gettext("must be at least {minimum}, not {value}").format(
                minimum=minimum, value=value))
        return value

    read.__name__ = "whole number"
    return read


def file_error(t: Translator, path: str, error: OSError, writing: bool) -> str:
    """Why ``path`` could not be read (or written), in ``t``'s language: the common system
    errors each in a sentence of their own, any other by its system code (``EIO``)."""
    code = error.errno
    if code == errno.EISDIR:
        return t.gettext("{path} is a folder: give the name of a file").format(path=path)
    if writing:
        folder_exists = os.path.isdir(os.path.dirname(os.path.abspath(path)))
        sentences = {
            errno.ENOENT: t.gettext("cannot write {path}: no file can be made in its folder") if folder_exists
            else t.gettext("cannot write {path}: its folder does not exist"),
            errno.EACCES: t.gettext("cannot write {path}: you are not allowed to write there"),
            errno.ENOSPC: t.gettext("cannot write {path}: the disk is full"),
            errno.EROFS: t.gettext("cannot write {path}: the disk can only be read"),
            errno.ENOTDIR: t.gettext("cannot write {path}: part of the path is not a folder"),
            errno.ENAMETOOLONG: t.gettext("cannot write {path}: the name is too long"),
        }
        other = t.gettext("cannot write {path} (system error {code})")
    else:
        sentences = {
            errno.ENOENT: t.gettext("cannot read {path}: there is no such file"),
            errno.EACCES: t.gettext("cannot read {path}: you are not allowed to read it"),
            errno.ENOTDIR: t.gettext("cannot read {path}: part of the path is not a folder"),
            errno.ENAMETOOLONG: t.gettext("cannot read {path}: the name is too long"),
        }
        other = t.gettext("cannot read {path} (system error {code})")
    sentences[errno.EPERM] = sentences[errno.EACCES]
    if writing:
        sentences[errno.EDQUOT] = sentences[errno.ENOSPC]
    text = sentences.get(code, other) if code is not None else other
    return text.format(path=path, code=errno.errorcode.get(code, str(code)) if code is not None else "?")
