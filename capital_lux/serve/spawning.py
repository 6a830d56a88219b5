"""What the hub gives each person's server as it starts it, and takes back as it stops.

Used by ``deploy/jupyterhub_config.py`` (and by ``hub.extraConfig`` on Kubernetes,
``deploy/values.yaml``): ``ClassSpawning(...).apply(c)`` sets the hub's spawner so that

- every server opens the learners' page, and a teacher's the teacher's page;
- only a teacher's server holds the teacher's key (``CAPITAL_LUX_TEACHER_KEY``);
- every server reaches the class database as a role of its own (``roles.server_url``), whose
  password is voided when the server stops; the owner's URL stays in the hub.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Protocol

from ..lessons.classroom import TEACHER_KEY_VARIABLE
from ..lessons.storage import ENVIRONMENT_VARIABLE as DATABASE_VARIABLE
from .roles import retire, server_url

if TYPE_CHECKING:
    from traitlets.config import Config

LEARNERS_PAGE: Final = "/voila/render/probability_exercises.ipynb"
TEACHERS_PAGE: Final = "/voila/render/teacher.ipynb"


class User(Protocol):
    name: str


class Spawner(Protocol):
    """What the hooks use of JupyterHub's spawner (``jupyterhub.spawner.Spawner``, which has no types)."""

    user: User
    environment: dict[str, object]  # values: text, or a function of the spawner that gives it
    default_url: str


@dataclass(frozen=True)
class ClassSpawning:
    """The class's hooks around the hub's spawner (any spawner: a local process, a Kubernetes pod)."""

    database: str  # the class database's owner's URL (or a SQLite path, handed on as it is)
    teachers: Collection[str]
    teacher_key: str

    def pre_spawn(self, spawner: Spawner) -> None:
        name = spawner.user.name
        environment = {**spawner.environment, DATABASE_VARIABLE: server_url(self.database, name)}
        environment.pop(TEACHER_KEY_VARIABLE, None)
        if name in self.teachers:
            environment[TEACHER_KEY_VARIABLE] = self.teacher_key
        spawner.default_url = TEACHERS_PAGE if name in self.teachers else LEARNERS_PAGE
        spawner.environment = environment

    def post_stop(self, spawner: Spawner) -> None:
        retire(self.database, spawner.user.name)

    def apply(self, c: Config) -> None:
        """Set the hub's configuration ``c`` to call these hooks."""
        c.Spawner.default_url = LEARNERS_PAGE
        c.Spawner.pre_spawn_hook = self.pre_spawn
        c.Spawner.post_stop_hook = self.post_stop
