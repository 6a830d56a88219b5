"""JupyterHub for a class: each learner their own server opening the exercises, the teacher theirs.

Run from a checkout where ``make venv proxy`` has been run (docs/operator.md, "A class on JupyterHub")::

    CAPITAL_LUX_HUB_DB=postgresql://capital_lux:PASSWORD@db.school/capital_lux \\
    CAPITAL_LUX_HUB_TEACHERS=teacher .venv/bin/python -m jupyterhub -f deploy/jupyterhub_config.py

Everything a school sets comes from the hub's own environment (or is edited below):

``CAPITAL_LUX_HUB_DB``
    The class database: a ``postgresql://`` URL with its owner's password, which stays here.
    The hub brings its schema up to date, then gives each server it starts a role of its own
    that may only read and write the class's rows, with a password drawn for that server and
    voided when it stops (``capital_lux.serve.roles``; the owner's role needs ``CREATEROLE``).
    Unset: a SQLite file in the state folder, which only servers on this machine can share.
``CAPITAL_LUX_HUB_TEACHERS``
    The teachers' user names, separated by commas (default ``teacher``). Their servers open
    the teacher's page and hold the teacher's key; a learner's server has neither.
``CAPITAL_LUX_TEACHER_KEY``
    The key typed on the teacher's page (12 characters or more). Unset: one is drawn once and
    kept, readable by its owner only, in the state folder's ``teacher.key``.
``CAPITAL_LUX_HUB_STATE``
    The hub's own folder (its user database, cookie secret, the servers' home folders);
    default: the folder the hub starts in. Keep it outside the checkout.
``CAPITAL_LUX_HUB_URL``
    Where the hub listens (default ``http://:8000``, every interface; put HTTPS in front of it).
``CAPITAL_LUX_HUB_IDLE_MINUTES``
    A server nobody has used for this long is stopped by jupyterhub-idle-culler (default 20).
``CAPITAL_LUX_HUB_CLASS_PASSWORD``, ``CAPITAL_LUX_HUB_TEACHER_PASSWORD``
    For a class without a school login: learners sign in with any name and the class's
    password (8 characters or more), teachers with theirs (32 or more), which no learner
    can use. The servers then run as the hub's own system user. Unset: the hub's default
    login (the machine's accounts) and a server run as each account. A school with its own
    login (OAuth, LDAP, LTI) sets its authenticator below instead.
``CAPITAL_LUX_HUB_ALLOW_ROOT``
    ``1`` lets the servers run as root, where the hub itself does (a container).
"""

import os
import sys
from pathlib import Path

from capital_lux.i18n import default_language, translator
from capital_lux.lessons.storage import StorageError
from capital_lux.serve import roles
from capital_lux.serve.classroom import Refused, class_key
from capital_lux.serve.spawning import ClassSpawning

c = get_config()  # type: ignore[name-defined]  # noqa: F821 (JupyterHub runs this file with get_config)

DEPLOY = Path(__file__).resolve().parent
CHECKOUT = DEPLOY.parent
STATE = Path(os.environ.get("CAPITAL_LUX_HUB_STATE") or os.getcwd()).resolve()
TEACHERS = {name.strip() for name in os.environ.get("CAPITAL_LUX_HUB_TEACHERS", "teacher").split(",") if name.strip()}
IDLE_MINUTES = float(os.environ.get("CAPITAL_LUX_HUB_IDLE_MINUTES") or 20)
PROXY = CHECKOUT / ".node" / "node_modules" / ".bin" / "configurable-http-proxy"  # make proxy

STATE.mkdir(mode=0o700, parents=True, exist_ok=True)
DATABASE = os.environ.get("CAPITAL_LUX_HUB_DB", "").strip() or str(STATE / "class.sqlite3")
t = translator(default_language())
try:
    # the key from the hub's environment, else the one kept in the state folder (drawn the first time)
    TEACHER_KEY = class_key(STATE / "teacher.key", t)
    roles.prepare(DATABASE)  # a class database that cannot be used is said now, not as learners arrive
except Refused as refusal:
    sys.exit(str(refusal))
except StorageError as error:
    sys.exit(t.gettext("The class cannot start: {reason}").format(reason=t.refusal(error)))

# -- the hub and its proxy -----------------------------------------------------------------------
c.JupyterHub.bind_url = os.environ.get("CAPITAL_LUX_HUB_URL", "http://:8000")
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.pid_file = str(STATE / "jupyterhub-proxy.pid")
if PROXY.exists():
    c.ConfigurableHTTPProxy.command = [str(PROXY)]
c.JupyterHub.cleanup_servers = True  # the hub stopped stops the class

# -- who signs in --------------------------------------------------------------------------------
c.Authenticator.allow_all = True  # everyone the login accepts is in the class
class_password = os.environ.get("CAPITAL_LUX_HUB_CLASS_PASSWORD", "")
if class_password:
    c.JupyterHub.authenticator_class = "shared-password"
    c.SharedPasswordAuthenticator.user_password = class_password
    # A teacher is an admin here only because the shared-password login keeps a password of its
    # own for admins: with the class's password nobody can sign in as a teacher.
    c.SharedPasswordAuthenticator.admin_password = os.environ.get("CAPITAL_LUX_HUB_TEACHER_PASSWORD", "")
    c.Authenticator.admin_users = TEACHERS
    c.JupyterHub.spawner_class = "simple"  # no system account per learner: servers run as the hub's user
    c.SimpleLocalProcessSpawner.home_dir_template = str(STATE / "home" / "{username}")

# -- each person's server --------------------------------------------------------------------------
c.Spawner.cmd = [sys.executable, "-m", "capital_lux.serve.singleuser"]  # jupyterhub-singleuser, lighter to start
c.Spawner.notebook_dir = str(CHECKOUT / "notebooks")
c.Spawner.args = ["--ServerApp.allow_root=True"] if os.environ.get("CAPITAL_LUX_HUB_ALLOW_ROOT") == "1" else []
c.Spawner.environment = {
    # jupyter_server_config.py here (the guards), and voila.json at the checkout's root (the pages)
    "JUPYTER_CONFIG_PATH": os.pathsep.join((str(DEPLOY), str(CHECKOUT))),
}
c.Spawner.http_timeout = 120  # a server's first start on a busy machine
c.Spawner.start_timeout = 120
ClassSpawning(DATABASE, TEACHERS, TEACHER_KEY).apply(c)  # pages, the teacher's key, a database role each

# -- idle servers stopped --------------------------------------------------------------------------
c.JupyterHub.load_roles = [{
    "name": "idle-culler",
    "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    "services": ["idle-culler"],
}]
c.JupyterHub.services = [{
    "name": "idle-culler",
    "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={round(IDLE_MINUTES * 60)}",
                f"--cull-every={max(5, min(300, round(IDLE_MINUTES * 60) // 4))}"],
}]
