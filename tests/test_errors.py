"""One family of errors: every exception the package defines is a ``CapitalLuxError`` (a
``ValueError``, as callers expect) or the one cancellation, ``Cancelled``."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import capital_lux
from capital_lux.engine.errors import CapitalLuxError, Cancelled


def package_exceptions() -> dict[str, type[BaseException]]:
    found = {}
    for module in pkgutil.walk_packages(capital_lux.__path__, "capital_lux."):
        if module.name.endswith("__main__"):
            continue
        loaded = importlib.import_module(module.name)
        for name, value in vars(loaded).items():
            if (inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == module.name
                    and not name.startswith("_")):
                found[f"{module.name}.{name}"] = value
    return found


def test_every_error_of_the_package_is_of_the_one_family() -> None:
    errors = package_exceptions()
    assert "capital_lux.lessons.problems.checker.AnswerError" in errors  # it skipped the base
    strays = [name for name, cls in errors.items() if not issubclass(cls, (CapitalLuxError, Cancelled))]
    assert strays == []
    assert issubclass(CapitalLuxError, ValueError)


def test_one_cancellation_under_its_old_names() -> None:
    from capital_lux.analysis import forward
    from capital_lux.tutor import work

    assert forward.Cancelled is work.WorkStopped is Cancelled
    assert Cancelled().reason == "cancelled" and Cancelled("budget").reason == "budget"


def test_the_errors_keep_their_homes_for_callers() -> None:
    from capital_lux.engine import cards, phases, position, reachable, state

    assert cards.CapitalLuxError is CapitalLuxError and cards.NotationError.__module__ == "capital_lux.engine.errors"
    assert phases.IllegalActionError is state.IllegalActionError
    assert reachable.PositionError is position.PositionError
    assert issubclass(position.PositionError, CapitalLuxError)


def test_no_bare_value_error_is_raised_and_a_usage_error_names_the_caller_s_mistake() -> None:
    """Every refusal is of the family: a reader's input gets a catalogue text (the i18n scan
    checks it), a caller's broken contract a ``UsageError``; none is a bare ``ValueError``."""
    import ast
    from pathlib import Path

    from capital_lux.engine.errors import UsageError

    bare = []
    for path in Path(capital_lux.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
                    and isinstance(node.exc.func, ast.Name) and node.exc.func.id == "ValueError"):
                bare.append(f"{path.name}:{node.lineno}")
    assert bare == []
    assert issubclass(UsageError, CapitalLuxError)
