"""Which implementation of the playout kernel runs: compiled by mypyc, or pure Python.

Why it exists: the kernel's hot modules (``MODULES``) run about twice as fast compiled by
mypyc, and every simulation the tutor shows is those games played out in a loop. The
install compiles them when it can (``setup.py``); the extension modules sit beside their
``.py`` files, which Python would import in preference. They are the same source, so every
game, decision and draw is the same; only speed differs (``tests/test_compiled.py``).

The pure-Python modules are imported instead, all together, when

- ``CAPITAL_LUX_PURE=1`` is set in the environment (to compare, or to debug in Python);
- no compiled build is present (no compiler at install time, or a plain source checkout);
- a ``.py`` file changed since the build (its hash is not the one the build recorded), so
  an edit is never hidden behind a stale extension: reinstall (``pip install -e .``) to
  compile the edit.

``IMPLEMENTATION`` says which one runs (``"compiled"`` or ``"pure"``), ``REASON`` why.

>>> IMPLEMENTATION in ("compiled", "pure")
True
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Sequence

#: The modules mypyc compiles, in the order it lists them.
MODULES = (
    "capital_lux.engine.kernel_state",
    "capital_lux.engine.kernel",
    "capital_lux.players.rule_of_thumb",
    "capital_lux.players.policies",
    "capital_lux.players.quick_rule",
    "capital_lux.players.search_tree",
    "capital_lux.analysis.endgame",
)
#: Set to 1 to import the pure-Python modules (and, at install, to compile nothing).
ENV = "CAPITAL_LUX_PURE"
#: Written by setup.py after a build that compiled every module: each module's source hash.
RECORD = "_compiled_sources.json"

PACKAGE_DIR = Path(__file__).resolve().parent


def source_path(module: str, package_dir: Path = PACKAGE_DIR) -> Path:
    """The ``.py`` file of one of ``MODULES``, under the package directory ``package_dir``."""
    return package_dir.joinpath(*module.split(".")[1:]).with_suffix(".py")


def source_hashes(package_dir: Path = PACKAGE_DIR) -> dict[str, str]:
    """The SHA-256 of each compiled module's source, as the build records them."""
    return {m: hashlib.sha256(source_path(m, package_dir).read_bytes()).hexdigest() for m in MODULES}


def pure_requested() -> bool:
    """Whether the environment asks for pure Python (any value but empty or ``0``)."""
    return os.environ.get(ENV, "") not in ("", "0")


def _has_extension(module: str, package_dir: Path) -> bool:
    stem = source_path(module, package_dir).with_suffix("")
    return any(Path(f"{stem}{suffix}").exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def choose(package_dir: Path = PACKAGE_DIR) -> tuple[str, str]:
    """``("compiled" | "pure", reason)`` for the package in ``package_dir``."""
    if pure_requested():
        return "pure", f"{ENV} is set"
    if not all(_has_extension(m, package_dir) for m in MODULES):
        return "pure", "no compiled build"
    try:
        recorded = json.loads((package_dir / RECORD).read_text())
    except (OSError, ValueError):
        return "pure", "no record of a complete build"
    if recorded != source_hashes(package_dir):
        return "pure", "sources changed since the build (reinstall to compile them)"
    return "compiled", "built from these sources"


class _PureFinder(importlib.abc.MetaPathFinder):
    """Finds ``MODULES`` as their ``.py`` files, ahead of the extension modules beside them."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


IMPLEMENTATION, REASON = choose()


def install() -> None:
    """Called first by ``capital_lux/__init__.py``, before any compiled module is imported."""
    if IMPLEMENTATION == "pure" and not any(isinstance(f, _PureFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _PureFinder())


def python_module(module: ModuleType) -> ModuleType:
    """``module`` itself if it runs as Python, else a fresh copy of it run from its ``.py``
    file (under a private name): for a test that replaces a method to count its calls,
    which the compiled code would not see."""
    if (module.__file__ or "").endswith(".py"):
        return module
    name = f"{module.__name__}__python"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, source_path(module.__name__))
        assert spec is not None and spec.loader is not None
        copy = importlib.util.module_from_spec(spec)
        copy.__package__ = module.__package__
        sys.modules[name] = copy  # dataclasses look their module up while the class is made
        spec.loader.exec_module(copy)
    return sys.modules[name]
