"""Serving the tutor to a class: guards around Voila and Jupyter Server that a school needs.

The top floor beside ``cli``: it imports the servers, never the tutor. Each guard stands
against something one page could do to everyone else on the server:

- ``KernelSocket``: a kernel's websocket that speaks only Jupyter's v1 protocol (Voila
  0.5.13 reads a legacy client's replies as v1 and builds a list of about 10^18 offsets on
  the server's only event loop), shuts its kernel down for real when the page asks
  (``shutdown_request`` would otherwise be auto-restarted), and shuts it down soon after
  the page has gone (Voila's shutdown-on-unload is refused with a 403 for want of an
  ``_xsrf`` token, so every closed page left its kernel for the idle cull);
- ``ClassKernels``: a ceiling on the kernels one server runs, so a class that outgrows the
  machine gets a page saying so instead of a swapping server;
- ``app.ClassVoila`` (``python -m capital_lux.serve``): Voila with the above and a limit on
  how fast one client may start kernels.

``classroom`` (``make class``, ``python -m capital_lux.serve.classroom``) starts that server
for a class in one command: on the room's network, with a teacher's key and the class
database outside the checkout, and stops it.

As a Jupyter Server extension (``jupyter server --ServerApp.jpserver_extensions=
"{'capital_lux.serve': True}"``), the same websocket guard applies to Voila's pages there.
``hub`` configures a JupyterHub single-user server with it and the rest (``deploy/``), and
``roles`` and ``spawning`` are the hub's side: each server's database role, and what each
server is given as it starts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jupyter_server.serverapp import ServerApp

    from .guards import ClassKernels, KernelSocket

__all__ = ["ClassKernels", "KernelSocket"]


def __getattr__(name: str) -> Any:
    """The guards, imported when asked for: they import Jupyter Server, and every kernel the
    class server starts imports this package for its extension (``kernel``), which needs
    none of it (each kernel took 1.55 s of CPU more so, median of 5)."""
    if name in __all__:
        from . import guards

        return getattr(guards, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "capital_lux.serve"}]


def _load_jupyter_server_extension(server_app: ServerApp) -> None:
    """Put the websocket guard in a running Jupyter Server's settings."""
    from .guards import KernelSocket, raise_file_limit

    server_app.web_app.settings["kernel_websocket_connection_class"] = KernelSocket
    raise_file_limit()
    server_app.log.info("capital_lux.serve: kernel websockets speak only the v1 protocol")
