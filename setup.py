"""Compiles the playout kernel's hot modules with mypyc when it can; pure Python otherwise.

Everything else about the package is in pyproject.toml. Why, and how the package picks the
compiled or the pure modules at import: capital_lux/compiled.py. The install never fails
for the compiled modules: without a C compiler, or if mypyc refuses the code, it warns and
leaves pure Python, which gives the same games. ``CAPITAL_LUX_PURE=1 pip install -e .``
compiles nothing. An editable install builds the extensions in place, beside the sources.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import warnings
from pathlib import Path
from typing import Any

from setuptools import Distribution, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def _compiled_module() -> Any:
    """capital_lux/compiled.py on its own (stdlib only), without importing the package."""
    spec = importlib.util.spec_from_file_location("_capital_lux_compiled", ROOT / "capital_lux" / "compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


COMPILED = _compiled_module()
_EXTENSIONS: list[Any] | None = None


class MaybeCompiled(Distribution):
    """A platform wheel, whose build_ext decides at build time what to compile."""

    def has_ext_modules(self) -> bool:
        return True


class BuildKernel(build_ext):
    """Runs mypyc only when extensions are built (not when pip asks for metadata), and never
    fails the install: a failed build leaves no record, so the package imports pure Python."""

    def finalize_options(self) -> None:
        global _EXTENSIONS
        if _EXTENSIONS is None:  # the editable install finalizes this command more than once
            _EXTENSIONS = self._mypycify()
        self.distribution.ext_modules = _EXTENSIONS
        super().finalize_options()

    @staticmethod
    def _mypycify() -> list[Any]:
        if COMPILED.pure_requested():
            print(f"capital_lux: {COMPILED.ENV} is set, the kernel stays pure Python", file=sys.stderr)
            return []
        try:
            from mypyc.build import mypycify

            sources = [str(COMPILED.source_path(m, ROOT / "capital_lux").relative_to(ROOT)) for m in COMPILED.MODULES]
            return list(mypycify(sources, opt_level="3", group_name="capital_lux.kernel_native"))
        except (Exception, SystemExit) as error:  # mypyc exits on a type error
            _not_compiled(error)
            return []

    def run(self) -> None:
        if self.inplace:  # an editable install: the record speaks for the extensions beside the sources
            (ROOT / "capital_lux" / COMPILED.RECORD).unlink(missing_ok=True)
        if not self.extensions:
            return
        try:
            super().run()
        except (Exception, SystemExit) as error:  # no C compiler, or it refused the code
            _not_compiled(error)
            self.extensions = []
            return
        out = ROOT / "capital_lux" if self.inplace else Path(self.build_lib) / "capital_lux"
        out.mkdir(parents=True, exist_ok=True)
        (out / COMPILED.RECORD).write_text(json.dumps(COMPILED.source_hashes(ROOT / "capital_lux"), indent=1) + "\n")
        print(f"capital_lux: compiled {', '.join(COMPILED.MODULES)} with mypyc", file=sys.stderr)


def _not_compiled(error: BaseException) -> None:
    warnings.warn(f"capital_lux: the kernel is not compiled ({error!r}); it runs as pure Python instead: "
                  "the same games, about half the speed", stacklevel=2)


setup(distclass=MaybeCompiled, cmdclass={"build_ext": BuildKernel}, ext_modules=[])
