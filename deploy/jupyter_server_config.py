"""Each learner's (and the teacher's) single-user server under JupyterHub: the class's pages only.

JupyterHub starts every server with this folder on ``JUPYTER_CONFIG_PATH`` (jupyterhub_config.py
here; ``singleuser.extraEnv`` on Kubernetes, see values.yaml). The guards themselves live in the
package, ``capital_lux.serve.hub``.
"""

from capital_lux.serve.hub import configure

configure(c)  # type: ignore[name-defined]  # noqa: F821 (Jupyter runs this file with its configuration as c)
