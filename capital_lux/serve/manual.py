"""The manual, served beside the pages at ``/manual/`` (the pages' help links lead there).

``make docs`` builds it into ``docs/_build/html`` (the French guides under ``fr/``); the class
server serves that folder read-only, as static files. Where it is not built, ``/manual/``
answers 404 and the pages show no help link (``tutor.base.manual_url``); a school that keeps
its copy elsewhere names it in ``CAPITAL_LUX_MANUAL``.
"""

from __future__ import annotations

from pathlib import Path

from jupyter_server.utils import url_path_join
from tornado import web

#: The manual ``make docs`` builds in the checkout.
BUILT = Path(__file__).resolve().parents[2] / "docs" / "_build" / "html"


def route(server_url: str, folder: Path = BUILT) -> tuple[str, type[web.StaticFileHandler], dict[str, str]]:
    """The handler rule serving ``folder`` at ``{server_url}manual/``."""
    return (url_path_join(server_url, r"/manual/(.*)"), web.StaticFileHandler,
            {"path": str(folder), "default_filename": "index.html"})
