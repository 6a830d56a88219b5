"""A learner's (or the teacher's) own server under JupyterHub: Jupyter Server with the class server's guards.

JupyterHub gives each person a server of their own (``jupyterhub-singleuser``, a Jupyter
Server). Left as it is, that server is a Jupyter interface: its REST API writes files, opens
terminals and runs any code a page sends to a kernel. ``configure`` (called by
``deploy/jupyter_server_config.py``) makes it serve the pages and nothing else, as
``python -m capital_lux.serve`` does:

- Voila renders the pages (``voila.json``: the template, sources stripped, no tracebacks);
- kernels take from a page only the messages Voila's own server takes (widgets' comms, kernel
  info, shutdown): never ``execute_request``, so no code typed by a learner runs;
- ``KernelSocket`` (the ``capital_lux.serve`` extension) and ``ClassKernels``, with a ceiling
  fit for one person's pages;
- no other server extension (JupyterLab, terminals, a language server, whatever the image
  holds), and files that can be read but never written (``ClassContents``): a notebook
  written through the API would run as soon as Voila rendered it;
- the teacher's page is served only by a server that holds the teacher's key (which the hub
  gives the teacher's server alone): on a learner's server it does not exist.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from typing import Final

from jupyter_core.paths import jupyter_config_dir, jupyter_config_path
from jupyter_server.extension.config import ExtensionConfigManager
from jupyter_server.files.handlers import FilesHandler
from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
from tornado import web
from traitlets import List, Unicode, default
from traitlets.config import Config

from ..lessons.classroom import teacher_key
from .guards import ClassKernels

#: The server extensions a class's server runs (JupyterHub's own is started by jupyterhub-singleuser).
SERVER_EXTENSIONS: Final = ("voila.server_extension", "capital_lux.serve")
#: What a page may send to its kernel: the list Voila's own server allows (``voila.app``).
PAGE_MESSAGES: Final = ("comm_open", "comm_close", "comm_msg", "comm_info_request", "kernel_info_request",
                        "shutdown_request")
#: One person's pages at once: the page, a reload whose old kernel is still closing, one more.
KERNELS_PER_PERSON: Final = 3
#: The idle cull of kernels, as ``voila.json`` sets it for the class server.
KERNEL_CULL: Final = {"cull_idle_timeout": 90, "cull_interval": 20, "cull_connected": False}
TEACHERS_PAGE: Final = "teacher.ipynb"


class ClassContents(AsyncLargeFileManager):
    """The server's files, read-only, and the teacher's pages absent from a server without the teacher's key."""

    teacher_pages = List(Unicode(), [TEACHERS_PAGE], config=True,
                         help="Pages served only by a server that holds the teacher's key.")

    @default("files_handler_class")
    def _files_through_this_manager(self) -> type:
        # The file-based default reads /files/ from the disk itself, past get(): this one asks get().
        return FilesHandler

    def _teachers_only(self, path: str) -> bool:
        name = posixpath.basename(path.strip("/"))
        return name in self.teacher_pages and teacher_key() is None

    def should_list(self, name: str) -> bool:
        return not self._teachers_only(name) and bool(super().should_list(name))  # type: ignore[no-untyped-call]

    async def get(self, path: str, content: bool = True, type: str | None = None,  # noqa: A002 (the base's name)
                  format: str | None = None, require_hash: bool = False) -> dict[str, object]:  # noqa: A002
        if self._teachers_only(path):
            raise web.HTTPError(404, f"No such file or directory: {path}")
        model: dict[str, object] = await super().get(  # type: ignore[no-untyped-call]
            path, content=content, type=type, format=format, require_hash=require_hash)
        return model

    async def file_exists(self, path: str = "") -> bool:
        return not self._teachers_only(path) and bool(await super().file_exists(path))

    def _read_only(self, path: str) -> web.HTTPError:
        self.log.warning("Refused to change %s: the class's files are read-only", path)
        return web.HTTPError(403, "the class's files are read-only")

    async def save(self, model: dict[str, object], path: str = "") -> dict[str, object]:
        raise self._read_only(path)

    async def delete_file(self, path: str) -> None:
        raise self._read_only(path)

    async def rename_file(self, old_path: str, new_path: str) -> None:
        raise self._read_only(old_path)

    async def create_checkpoint(self, path: str) -> dict[str, object]:
        raise self._read_only(path)

    async def restore_checkpoint(self, checkpoint_id: str, path: str) -> None:
        raise self._read_only(path)


def installed_extensions(config_path: Sequence[str] | None = None) -> set[str]:
    """The server extensions Jupyter's configuration folders enable (as Jupyter Server finds them)."""
    path = [jupyter_config_dir(), *jupyter_config_path()] if config_path is None else list(config_path)
    manager = ExtensionConfigManager(read_config_path=path)
    return set(manager.get_jpserver_extensions())  # type: ignore[no-untyped-call]


def configure(c: Config, max_kernels: int = KERNELS_PER_PERSON, config_path: Sequence[str] | None = None) -> None:
    """Set a Jupyter Server's configuration ``c`` (a traitlets ``Config``) to serve the class's pages only:
    any other extension installed beside them (JupyterLab, terminals, a language server) is left off."""
    extensions = dict.fromkeys(installed_extensions(config_path), False)
    c.ServerApp.jpserver_extensions = {**extensions, **dict.fromkeys(SERVER_EXTENSIONS, True)}
    c.ServerApp.terminals_enabled = False
    c.ServerApp.kernel_manager_class = ClassKernels
    c.ServerApp.contents_manager_class = ClassContents
    c.ClassKernels.allowed_message_types = list(PAGE_MESSAGES)
    c.ClassKernels.max_kernels = max_kernels
    for name, value in KERNEL_CULL.items():
        setattr(c.ClassKernels, name, value)
