"""The ``>>>`` examples in the engine's docstrings run as tests."""

import doctest
import importlib

import pytest

MODULES = ["cards", "notation", "state", "game", "position"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"capital_lux.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
