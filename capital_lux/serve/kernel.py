"""Loaded into every kernel the class server starts (an IPython extension, named on the kernel's
command line by ``guards.ClassKernels``).

Every notebook served imports ``voila.utils`` and so Jupyter Server, which imports
jsonschema: the extension imports it first, without the IRI grammars it would build
(``position.import_jsonschema``: 0.9 s of CPU less in each kernel).

A kernel's ``sys.stderr`` is a stream to the page. Python's logging, with no handler of its
own, writes there: a page that opened a widget with a made-up state received the traceback of
the failure, with the server's paths. The kernel's comm loggers write to the kernel's own
stderr instead, which ends in the server's log. A page is its widgets' only view: their
values are not echoed back to it (``JUPYTER_WIDGETS_ECHO``).
"""

from __future__ import annotations

import logging
import os
import sys
from typing import TYPE_CHECKING, Final

from ..engine.position import import_jsonschema

if TYPE_CHECKING:
    from IPython.core.interactiveshell import InteractiveShell

#: What the class server adds to each kernel's command line (``guards.ClassKernels``). Every
#: kernel of a class wrote the same IPython history file, and under load its thread printed
#: "database is locked" into learners' pages: a served page keeps no history. The extension is
#: this module. Kept here, beside what it loads, so that a process can start kernels as the
#: server does without importing the server (the notebooks' tests: ``tests/conftest.py``).
KERNEL_ARGUMENTS: Final = ("--HistoryManager.enabled=False", "--IPKernelApp.extensions=capital_lux.serve.kernel")

#: The loggers that report a page's failing comm messages, and the project's own (the class
#: database's troubles): with no handler, Python's logging wrote them into the page's stderr.
COMM_LOGGERS = ("Comm", "ipykernel.comm", "capital_lux")


def load_ipython_extension(shell: InteractiveShell) -> None:
    import_jsonschema()
    # ipywidgets 8 echoes every value a page sends back to it: a 300 KB answer, refused, came
    # back to the page in a 300,591-byte frame. A served page is a widget's only view, and
    # needs no echo (ipywidgets reads the setting when it is imported, after this).
    os.environ["JUPYTER_WIDGETS_ECHO"] = "0"
    widget = sys.modules.get("ipywidgets.widgets.widget")
    if widget is not None:
        widget.JUPYTER_WIDGETS_ECHO = False  # type: ignore[attr-defined]
    handler = logging.StreamHandler(sys.__stderr__)
    handler.setFormatter(logging.Formatter("[kernel] %(levelname)s %(name)s: %(message)s"))
    for name in COMM_LOGGERS:
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.propagate = False
