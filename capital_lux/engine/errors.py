"""The package's errors: one family, so a caller catches what it means.

``CapitalLuxError`` is the base of every refusal of bad input (a ``ValueError``, so callers
that catch ``ValueError`` still do), with a message that may be a catalogue text shown in the
reader's language; ``NotationError``, ``IllegalActionError`` and ``PositionError`` say which
input, and the layers above add their own under it (``AnswerError``, ``StorageError``…).
``UsageError`` is the one member that is not about input: a caller broke a contract.
``Cancelled`` is the one way work that was asked to stop ends: a newer request took over
(``reason="cancelled"``) or the time allowed ran out (``"budget"``).

They live at the bottom of the stack, in the engine, so every layer can raise and catch them.
"""

from __future__ import annotations

from typing import Callable


class CapitalLuxError(ValueError):
    """Base of every error the engine raises for bad input.

    The message may be a catalogue text with ``{named}`` placeholders filled from
    ``params``: ``str(error)`` is the English sentence, ``error.translated(t.gettext, number)``
    the same in the reader's language, whole numbers written by ``number`` (the i18n
    ``Translator.refusal`` passes the reader's locale: "262 144" in French).

    >>> error = CapitalLuxError("{card} appears {found} times", card="B6", found=4)
    >>> str(error), error.translated(lambda text: text.replace("appears", "is there"))
    ('B6 appears 4 times', 'B6 is there 4 times')
    """

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message.format(**params) if params else message)
        self.template = message
        self.params = params

    def translated(self, gettext: Callable[[str], str], number: Callable[[int], str] = str) -> str:
        text = gettext(self.template)
        if not self.params:
            return text
        return text.format(**{key: number(value) if type(value) is int else value
                              for key, value in self.params.items()})


class NotationError(CapitalLuxError):
    """Text that does not spell a card, action or position."""


class IllegalActionError(CapitalLuxError):
    """An action that the rules do not allow in this position."""


class PositionError(CapitalLuxError):
    """A position or record that cannot be read or is not a possible table."""


class UsageError(CapitalLuxError):
    """A call against a function's contract: an unknown model's name, no budget given, a
    decision asked for where none is pending. It is the calling code's mistake, never a
    learner's input (every input a person types is checked before it gets here, and refused
    with a catalogue text), so its message is written for a programmer, in English; a page
    that meets one says only that it could not do what was asked."""


class Cancelled(Exception):
    """Work asked to stop before its end: ``reason`` is "cancelled" (the caller's
    ``should_stop``, or a newer request) or "budget" (over the time allowed)."""

    def __init__(self, reason: str = "cancelled") -> None:
        super().__init__(reason)
        self.reason = reason
