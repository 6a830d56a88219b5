"""Imports only go down: engine < i18n < players < analysis < lessons < tutor, cli, serve.

Every import of the package is read from the source (``ast``), those inside functions and
``TYPE_CHECKING`` blocks included, and ``importlib.import_module`` of a literal name too:
an import that only runs on one path is still a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "capital_lux"

#: Each top package's layer; a module may import its own layer and the ones below. The pages
#: (tutor), the command line and the class server stand side by side on top.
LAYERS = {
    "compiled": 0,  # chooses the compiled kernel or the pure one before anything is imported
    "engine": 1,
    "i18n": 2,
    "players": 3,
    "capitol": 3,  # the second game's own folder: its rules, views, records and bots (see its docstring)
    "analysis": 4,
    "lessons": 5,
    "tutor": 6,
    "cli": 6,
    "serve": 6,
}


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(path: Path, root: Path = PACKAGE) -> list[tuple[int, str]]:
    """``(line, absolute module name)`` of every import in the file that names the package."""
    here = module_name(path, root).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            # ``from . import x``: x may be a module of its own
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.append((node.lineno, node.args[0].value))
    return [(line, name) for line, name in found if name.split(".")[0] == "capital_lux"]


def layer_of(name: str) -> str | None:
    """The top package of a module of the package (None: the package itself)."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def violations(root: Path = PACKAGE) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        mine = layer_of(module_name(path, root))
        if mine is None:  # the package's own ``__init__`` and ``__main__`` stand above everything
            continue
        for line, name in imported_names(path, root):
            theirs = layer_of(name)
            if theirs is None:
                if name.split(".") != ["capital_lux"] or mine != "compiled":
                    found.append(f"{path.relative_to(root.parent)}:{line} imports {name} (the package's top)")
                continue
            if LAYERS[theirs] > LAYERS[mine]:
                found.append(f"{path.relative_to(root.parent)}:{line} ({mine}) imports {name} ({theirs})")
    return found


def test_every_top_package_has_a_layer() -> None:
    tops = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    tops |= {p.stem for p in PACKAGE.glob("*.py") if not p.name.startswith("__")}
    assert tops <= set(LAYERS), f"give {sorted(tops - set(LAYERS))} a layer in LAYERS"


def test_imports_only_go_down() -> None:
    assert violations() == []


@pytest.mark.parametrize("source, bad", [
    ("from ..players import policies\n", True),  # a plain import of a layer above
    ("def f():\n    from ..i18n import translator\n", True),  # lazy, inside a function
    ("import typing\nif typing.TYPE_CHECKING:\n    from capital_lux.i18n import Translator\n", True),
    ("import importlib\nimportlib.import_module('capital_lux.i18n')\n", True),
    ("from . import cards\nfrom .cards import Card\nimport capital_lux.compiled\n", False),  # its own layer, and below
])
def test_the_scan_sees_each_form_of_import(tmp_path: Path, source: str, bad: bool) -> None:
    """The scan itself: an upward import in each form is found, a sideways or downward one is not."""
    package = tmp_path / "capital_lux"
    for sub in ("engine", "i18n"):
        (package / sub).mkdir(parents=True)
        (package / sub / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "i18n" / "x.py").write_text("from ..engine import cards\n")  # down: allowed
    (package / "engine" / "x.py").write_text(source)
    assert bool(violations(package)) == bad


#: Capitol's own rules: they may use the engine's shared pieces (errors, ``N_``, the JSON
#: reader) and each other, nothing above the engine, as Capital Lux's engine does.
CAPITOL_RULES = ("components", "notation", "state", "rules", "rulings", "views", "record")


def capitol_violations(root: Path = PACKAGE) -> list[str]:
    found = []
    for name in CAPITOL_RULES:
        path = root / "capitol" / f"{name}.py"
        for line, imported in imported_names(path, root):
            parts = imported.split(".")
            inside = parts[1] == "capitol" and (len(parts) < 3 or parts[2] in CAPITOL_RULES)
            if not inside and layer_of(imported) != "engine":
                found.append(f"{path.relative_to(root.parent)}:{line} imports {imported}")
    return found


def test_capitol_rules_import_only_the_engine_and_themselves() -> None:
    assert capitol_violations() == []


def test_the_capitol_scan_sees_an_import_from_above(tmp_path: Path) -> None:
    package = tmp_path / "capital_lux"
    (package / "capitol").mkdir(parents=True)
    for name in CAPITOL_RULES:
        (package / "capitol" / f"{name}.py").write_text("from ..engine.errors import UsageError\n")
    assert capitol_violations(package) == []
    (package / "capitol" / "views.py").write_text("from .bots import RandomBot\nfrom ..i18n import translator\n")
    assert len(capitol_violations(package)) == 2
