"""A person's server under JupyterHub serves the class's pages and nothing else (``capital_lux.serve.hub``).

Quick checks of the configuration and of the files' guard; ``test_hub`` drives the same servers
through a real hub in a browser.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest
from jupyter_server.files.handlers import FilesHandler
from tornado import web
from traitlets.config import Config

from capital_lux.lessons.classroom import TEACHER_KEY_VARIABLE
from capital_lux.serve.guards import ClassKernels
from capital_lux.serve.hub import ClassContents, configure
from capital_lux.serve.spawning import LEARNERS_PAGE, TEACHERS_PAGE, ClassSpawning

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"


def test_the_servers_configuration_runs_no_code_a_page_sends_and_no_other_extension(tmp_path: Path) -> None:
    enabled = tmp_path / "jupyter_server_config.d"
    enabled.mkdir()
    for name in ("jupyterlab", "jupyter_server_terminals", "jupyter_lsp", "voila"):
        module = "voila.server_extension" if name == "voila" else name
        (enabled / f"{name}.json").write_text(json.dumps({"ServerApp": {"jpserver_extensions": {module: True}}}))
    c = Config()
    configure(c, config_path=[str(tmp_path)])
    assert c.ServerApp.jpserver_extensions == {"jupyterlab": False, "jupyter_server_terminals": False,
                                               "jupyter_lsp": False, "voila.server_extension": True,
                                               "capital_lux.serve": True}
    assert c.ServerApp.kernel_manager_class is ClassKernels and c.ServerApp.terminals_enabled is False
    allowed = c.ClassKernels.allowed_message_types
    assert "comm_msg" in allowed and "execute_request" not in allowed and "inspect_request" not in allowed


@pytest.fixture
def pages(tmp_path: Path) -> ClassContents:
    for name in ("probability_exercises.ipynb", "teacher.ipynb"):
        nbformat.write(nbformat.v4.new_notebook(), str(tmp_path / name))
    return ClassContents(root_dir=str(tmp_path))


def _listed(contents: ClassContents) -> set[str]:
    return {entry["name"] for entry in asyncio.run(contents.get(""))["content"]}


def test_a_learners_server_has_no_teachers_page(pages: ClassContents, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TEACHER_KEY_VARIABLE, raising=False)
    with pytest.raises(web.HTTPError) as refused:
        asyncio.run(pages.get("teacher.ipynb"))
    assert refused.value.status_code == 404
    assert not asyncio.run(pages.file_exists("teacher.ipynb"))
    assert _listed(pages) == {"probability_exercises.ipynb"}
    assert pages.files_handler_class is FilesHandler  # /files/ asks get() too, not the disk
    monkeypatch.setenv(TEACHER_KEY_VARIABLE, "a long enough teacher's key")  # the teacher's server
    assert asyncio.run(pages.get("teacher.ipynb"))["type"] == "notebook"
    assert _listed(pages) == {"probability_exercises.ipynb", "teacher.ipynb"}


def test_the_class_files_are_read_but_never_written(pages: ClassContents, tmp_path: Path) -> None:
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    model = asyncio.run(pages.get("probability_exercises.ipynb"))
    for change in (lambda: pages.save(model, "mine.ipynb"), lambda: pages.save(model, "probability_exercises.ipynb"),
                   lambda: pages.new_untitled(type="notebook"), lambda: pages.delete("probability_exercises.ipynb"),
                   lambda: pages.rename("probability_exercises.ipynb", "x.ipynb"),
                   lambda: pages.copy("probability_exercises.ipynb", ""),
                   lambda: pages.create_checkpoint("probability_exercises.ipynb")):
        with pytest.raises(web.HTTPError) as refused:
            asyncio.run(change())
        assert refused.value.status_code == 403
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == before


def test_the_hub_gives_the_teachers_key_and_page_to_a_teachers_server_only(tmp_path: Path) -> None:
    database = str(tmp_path / "class.sqlite3")  # a SQLite class database: handed on as it is
    spawning = ClassSpawning(database, {"teacher"}, "the teacher's long key")
    c = Config()
    spawning.apply(c)
    assert c.Spawner.default_url == LEARNERS_PAGE
    servers = {}
    for name in ("alice", "teacher"):
        spawner = SimpleNamespace(user=SimpleNamespace(name=name), default_url=LEARNERS_PAGE,
                                  environment={"JUPYTER_CONFIG_PATH": "deploy", TEACHER_KEY_VARIABLE: "stray"})
        c.Spawner.pre_spawn_hook(spawner)
        servers[name] = spawner
    assert servers["alice"].default_url == LEARNERS_PAGE and servers["teacher"].default_url == TEACHERS_PAGE
    assert TEACHER_KEY_VARIABLE not in servers["alice"].environment
    assert servers["teacher"].environment[TEACHER_KEY_VARIABLE] == "the teacher's long key"
    assert {s.environment["CAPITAL_LUX_DB"] for s in servers.values()} == {database}
    assert all(s.environment["JUPYTER_CONFIG_PATH"] == "deploy" for s in servers.values())


NOWHERE = "postgresql://class:pw@127.0.0.1:1/class"  # a port nothing listens on


@pytest.mark.parametrize(("setting", "value", "language", "said"), [
    ("CAPITAL_LUX_HUB_DB", NOWHERE, "en", "The class cannot start: the class database"),
    ("CAPITAL_LUX_HUB_DB", NOWHERE, "fr", "base de données de la classe"),
    ("CAPITAL_LUX_TEACHER_KEY", "too short", "en", "shorter than 12 characters"),
])
def test_a_hub_that_cannot_hold_the_class_says_why_and_starts_nothing(
        tmp_path: Path, setting: str, value: str, language: str, said: str) -> None:
    environment = {name: v for name, v in os.environ.items() if not name.startswith(("CAPITAL_LUX", "LANG", "LC_"))}
    environment.update({"CAPITAL_LUX_HUB_STATE": str(tmp_path), "CAPITAL_LUX_TEACHER_KEY": "a long enough key",
                        "LANGUAGE": language, setting: value})
    done = subprocess.run([sys.executable, "-m", "jupyterhub", "-f", str(DEPLOY / "jupyterhub_config.py"),
                           "--JupyterHub.bind_url=http://127.0.0.1:1"], cwd=tmp_path, env=environment,
                          capture_output=True, text=True, timeout=60)
    output = done.stdout + done.stderr
    assert done.returncode != 0 and said in output
    assert "class:pw" not in output  # the owner's password is not printed with the reason
    assert not (tmp_path / "jupyterhub.sqlite").exists()  # the hub itself never started
