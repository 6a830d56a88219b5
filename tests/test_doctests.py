"""Every ``>>>`` example in the package's docstrings runs as a test."""

import doctest
import importlib
import pkgutil

import pytest

import capital_lux

#: Modules that drive a browser or a server are examples for people, not for doctest.
MODULES = sorted(
    info.name for info in pkgutil.walk_packages(capital_lux.__path__, "capital_lux.")
    if not info.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_engine_modules_have_examples() -> None:
    for name in ("cards", "notation", "state", "game", "position"):
        module = importlib.import_module(f"capital_lux.engine.{name}")
        assert doctest.testmod(module).attempted > 0, f"{name} has no examples"
