"""Loaded into every kernel the class server starts (an IPython extension, named on the kernel's
command line by ``guards.ClassKernels``).

Every notebook served imports ``voila.utils`` and so Jupyter Server, which imports
jsonschema: the extension imports it first, without the IRI grammars it would build
(``position.import_jsonschema``: 0.9 s of CPU less in each kernel).

A kernel's ``sys.stderr`` is a stream to the page. Python's logging, with no handler of its
own, writes there: a page that opened a widget with a made-up state received the traceback of
the failure, with the server's paths. The kernel's comm loggers write to the kernel's own
stderr instead, which ends in the server's log.
"""

from __future__ import annotations

import logging
import sys
from typing import TYPE_CHECKING

from ..engine.position import import_jsonschema

if TYPE_CHECKING:
    from IPython.core.interactiveshell import InteractiveShell

#: The loggers that report a page's failing comm messages.
COMM_LOGGERS = ("Comm", "ipykernel.comm")


def load_ipython_extension(shell: InteractiveShell) -> None:
    import_jsonschema()
    handler = logging.StreamHandler(sys.__stderr__)
    handler.setFormatter(logging.Formatter("[kernel] %(levelname)s %(name)s: %(message)s"))
    for name in COMM_LOGGERS:
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.propagate = False
