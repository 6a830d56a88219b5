"""Sphinx settings of the manual (``make docs``): MyST Markdown pages, the API reference from
the package's docstrings, the manual's own examples run by ``sphinx-build -b doctest``, and the
learner's and teacher's guides in French through Sphinx's gettext flow (``locale/fr``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent))  # the checkout's package, also where it is not installed
# Compiled modules keep no docstrings: the API reference reads the pure-Python ones.
os.environ.setdefault("CAPITAL_LUX_PURE", "1")

project = "Capital Lux Tutor"
author = "the Capital Lux Tutor project"
copyright = "2026, the Capital Lux Tutor project"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "house",  # the chapters' and exercises' lists read from the package (_ext/house.py)
]

source_suffix = {".md": "markdown"}
root_doc = "index"
# notes/ holds facts still to be folded into the guides; _build is the output.
exclude_patterns = ["_build", "notes", "locale", "README.md"]

# Links to a page's sections (`page.md#a-heading`) are checked like links to pages.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence", "deflist"]

# The API reference: members in source order, so a module reads as it is written.
autodoc_member_order = "bysource"
# A module's own members only (a name it re-exports is documented where it is defined), and
# its own docstrings (not those of the Voila or Jupyter class a guard extends).
autodoc_default_options = {"members": True, "ignore-module-all": True}
autodoc_inherit_docstrings = False
autodoc_typehints = "none"

# The docstrings' `>>>` examples run in tests/test_doctests.py, in their modules' namespaces
# (make docs runs it); Sphinx's doctest builder runs the manual's own examples.
doctest_test_doctest_blocks = ""

# The learner's and teacher's guides are translated (docs/locale/<lang>/LC_MESSAGES/*.po).
language = "en"
locale_dirs = ["locale/"]
gettext_compact = False
gettext_uuid = False
gettext_location = False

html_theme = "alabaster"
html_static_path = ["_static"]
html_title = "Capital Lux Tutor"
html_theme_options = {"description": "Learn, teach and explore the card game Capital Lux",
                      "fixed_sidebar": True}
