"""The Binder environment and the package metadata name the same dependencies."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def _name(requirement: str) -> str:
    """'dask[distributed]>=2024.1' -> 'dask'; names compare case- and dash-insensitively."""
    name = re.split(r"[\[<>=!~; ]", requirement.strip(), maxsplit=1)[0]
    return name.lower().replace("_", "-")


def test_environment_yml_and_pyproject_name_the_same_dependencies() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    conda = {_name(d) for d in env["dependencies"] if isinstance(d, str)} - {"python", "pip"}
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    # Installed, not editable: an editable install leaves out the Voila template (data-files).
    assert "." in pip_section and "-e ." not in pip_section, "Binder must install the package itself"
    assert conda == {_name(d) for d in project["dependencies"]}
    assert env["channels"] == ["conda-forge"]


def test_the_voila_template_voila_json_names_is_installed_where_voila_looks() -> None:
    template = json.loads((ROOT / "voila.json").read_text())["VoilaConfiguration"]["template"]
    folder = f"share/jupyter/voila/templates/{template}"
    files = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["data-files"][folder]
    installed = {p.name for pattern in files for p in ROOT.glob(pattern)}
    assert {"conf.json", "index.html.j2"} <= installed


def test_schemas_and_catalogues_are_package_data() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    patterns = data["capital_lux"]
    for pattern in ("**/*.json", "**/*.po", "**/*.pot"):
        assert pattern in patterns
